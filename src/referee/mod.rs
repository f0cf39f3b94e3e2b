//! Driving engines in other processes over the protocol, and the referee
//! that plays matches and tournaments between built-in players and external
//! engines: a GTP client that survives anything an engine does, contestants,
//! the match and round-robin arena with its tables, game records, and the
//! reply-latency benchmark.

pub mod arena;
pub mod client;
pub mod contestant;
pub mod lab8;
pub mod latency;
pub mod leaderboard;
pub mod nboard;
mod process;
pub use process::adopt_orphans;
pub mod records;
pub mod run;
pub mod sandbox;
pub mod sprt;
