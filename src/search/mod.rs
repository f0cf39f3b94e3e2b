//! Search: limits, the stop signal and the clocks they come from, the transposition table, static
//! evaluation and the generic iterative-deepening PVS. Knows nothing of I/O.

mod alphabeta;
mod clock;
mod endgame;
mod eval;
mod limits;
pub mod pattern;
mod tt;

pub use alphabeta::{
    INFINITY, Iteration, Search, WIN, poll_interval, proven_discs, terminal_score,
};
pub use clock::Clock;
pub use endgame::{Endgame, SELECTIVE_LEVELS, Solved, Solver, stable_discs, to_table};
pub use eval::{DISC, Evaluator, Heuristic, probcut_depth};
pub use limits::{Limits, MAX_TIME, StopSignal, StopToken, bounded_secs, safety};
pub use tt::{Bound, Hit, TranspositionTable};
