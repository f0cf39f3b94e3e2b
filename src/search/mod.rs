//! Search: limits and the stop signal, score units, the transposition
//! table, static evaluation, the generic iterative-deepening PVS and the
//! exact 8x8 solver. Knows nothing of I/O, protocols, clocks or colours:
//! a search sees a relative board and [`Limits`].

mod alphabeta;
mod deepening;
mod endgame;
mod eval;
mod limits;
mod parallel;
pub mod pattern;
mod score;
mod tt;
pub mod tunables;

pub use alphabeta::{Iteration, Search, poll_interval};
pub use endgame::{Endgame, SELECTIVE_LEVELS, Solved, Solver, stable_discs};
pub use eval::{Evaluator, Heuristic, probcut_depth};
pub use limits::{Limits, MAX_TIME, StopSignal, StopToken, bounded_secs, safety};
pub use score::{
    DISC, INFINITY, WIN, in_discs, proven_discs, score_text, terminal_score, to_table,
};
pub use tt::{Bound, Hit, TranspositionTable};
