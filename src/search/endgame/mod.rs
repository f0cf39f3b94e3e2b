//! The exact endgame solver for 8x8: the final disc difference (empty
//! squares to the winner) with perfect play, within an alpha-beta window.
//!
//! Why it is built this way (the techniques of Zebra and Edax):
//! - Near the end most of the time goes into the last few plies, so they
//!   get their own code: with one empty square the score is counted
//!   directly (the flips from line tables, no flip set); with two, both
//!   squares are tried in turn; up to
//!   [`PARITY_EMPTIES`](crate::search::tunables::endgame::PARITY_EMPTIES) empties the parity search
//!   has no table and no move generation, just the list of empty squares
//!   tried in parity order (`parity.rs`).
//! - Above that, "fastest first": moves are tried in order of how few
//!   replies they leave the opponent (corners for the opponent count
//!   double), after the table move; far from the end the pattern
//!   evaluation (of the position, then of a small search) joins the order;
//!   null-window PVS; from [`HASH_EMPTIES`](crate::search::tunables::endgame::HASH_EMPTIES) results are stored in the
//!   shared transposition table as exact-to-the-end entries.
//! - A stability cutoff: the opponent's stable discs (which no move can
//!   flip) bound the best score we can reach, and cut the node when that
//!   bound is below alpha.
//! - With no time limit, selective solves (ProbCut at null-window nodes,
//!   [`SELECTIVE_LEVELS`]) run first and leave their moves and bounds in
//!   the table, stored as shallower than exact so that the exact solve
//!   uses their moves but never their scores.

mod last;
mod parity;
mod solver;
mod split;
mod stability;
mod tables;

use super::limits::Limits;
use super::score::{disc_floor, to_table};
use super::tt::TranspositionTable;
use crate::rules::{Bitboard, Board};

pub use crate::search::tunables::endgame::{
    DEPTH_LIMIT_SOLVE_SLACK, SELECTIVE_LEVELS, SOLVER_JUMP, expected_solve_nodes,
};
pub use solver::Solver;
pub use split::Pool;
pub use stability::stable_discs;

/// What the generic search asks of a board type near the end of the game:
/// an exact solver, where the type has one.
pub trait Endgame: Board {
    /// Whether [`Endgame::solve_exact`] solves (then iterative deepening
    /// jumps to the exact search once the midgame depth is within
    /// [`SOLVER_JUMP`] plies of the end, instead of going through every
    /// depth).
    const HAS_SOLVER: bool;

    /// Solves exactly (see [`Solver::solve`]), window and result in the
    /// search's units; `None` when the board type has no solver (then the
    /// search itself goes to the end). A `selectivity` from 1 to
    /// [`SELECTIVE_LEVELS`] makes it a selective solve: a guess at the
    /// score, cheaper the higher the level. With a `pool`, its idle
    /// helper threads search subtrees too.
    fn solve_exact(
        &self,
        tt: &TranspositionTable,
        limits: &Limits,
        alpha: i32,
        beta: i32,
        selectivity: u32,
        pool: Option<&Pool>,
    ) -> Option<Solved>;
}

/// A solver run as the search sees it.
#[derive(Clone, Copy, Debug)]
pub struct Solved {
    /// Score in the search's units (see [`to_table`]).
    pub score: i32,
    pub nodes: u64,
    /// Whether a limit cut it short (the score is then void).
    pub stopped: bool,
}

impl Endgame for Bitboard {
    const HAS_SOLVER: bool = true;

    fn solve_exact(
        &self,
        tt: &TranspositionTable,
        limits: &Limits,
        alpha: i32,
        beta: i32,
        selectivity: u32,
        pool: Option<&Pool>,
    ) -> Option<Solved> {
        let mut solver = Solver::new(tt, limits);
        solver.set_selectivity(selectivity);
        solver.set_pool(pool);
        let (a, b) = (disc_floor(alpha), -disc_floor(-beta));
        let score = solver.solve(self, a.max(-65), b.min(65));
        Some(Solved {
            score: to_table(score),
            nodes: solver.nodes(),
            stopped: solver.stopped(),
        })
    }
}

impl<const W: usize> Endgame for crate::rules::WideBoard<W> {
    const HAS_SOLVER: bool = false;

    fn solve_exact(
        &self,
        _: &TranspositionTable,
        _: &Limits,
        _: i32,
        _: i32,
        _: u32,
        _: Option<&Pool>,
    ) -> Option<Solved> {
        None
    }
}
