//! Search: limits, the stop signal and the clocks they come from, the transposition table, static
//! evaluation and the generic iterative-deepening PVS. Knows nothing of I/O.

mod alphabeta;
mod deepening;
mod endgame;
mod eval;
mod limits;
pub mod pattern;
mod score;
mod tt;

pub use alphabeta::{Iteration, Search, poll_interval};
pub use endgame::{Endgame, SELECTIVE_LEVELS, Solved, Solver, stable_discs};
pub use eval::{Evaluator, Heuristic, probcut_depth};
pub use limits::{Limits, MAX_TIME, StopSignal, StopToken, bounded_secs, safety};
pub use score::{DISC, INFINITY, WIN, proven_discs, terminal_score, to_table};
pub use tt::{Bound, Hit, TranspositionTable};
