//! Search: limits and the stop signal shared by every searching player.

mod limits;

pub use limits::Limits;
