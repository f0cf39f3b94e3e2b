//! The solver's tuning: when the midgame search hands over to it, the
//! selective solves' settings, how far each technique reaches, and the
//! weights of the move ordering. Only constants and small functions of
//! empties or depth: no search. The measurements that chose them are in
//! `docs/research/endgame.md`.

use crate::search::pattern::SCALE;

/// How close to the end (in plies) the midgame iterations go before the
/// search jumps to the exact one on boards with a solver (under a depth
/// limit, only within [`DEPTH_LIMIT_SOLVE_SLACK`] of it; against the
/// clock, only once the solve can be expected to finish in the time left,
/// [`expected_solve_nodes`]). The midgame iterations fill the table with
/// the moves the solver tries first, and against the clock the last of
/// them is the move played when the solve does not finish. Closer, the
/// midgame search's own last plies replace the solver's faster ones;
/// farther, under a clock, a solve started too early often does not
/// finish and a shallow move is played.
pub const SOLVER_JUMP: u32 = 8;

/// How many more empties than a depth limit an exact solve may start
/// from under that limit. A solve costs about what a midgame search of
/// a few plies fewer does, so a depth limit keeps its meaning:
/// a bound on the work of every move of a game, as the GUI's level is.
pub const DEPTH_LIMIT_SOLVE_SLACK: u32 = 4;

/// About how many nodes a first solve of a position with `empties` empty
/// squares takes, for deciding under a clock whether to start one: a solve
/// that cannot finish wastes the time deeper midgame iterations would have
/// used (the check loses fewer discs a move: the journal's "When the
/// solver takes over"). Half the mean nodes of an exact solve on one thread
/// (about 2.1x per empty), since the first solve under a clock is the
/// cheaper win/loss/draw one.
pub fn expected_solve_nodes(empties: u32) -> f64 {
    2.0e6 * 2.1f64.powi(empties as i32 - 20)
}

/// Levels of selective solves a search with no limit runs before the
/// exact one, the least trusting last (Edax does the same). A selective
/// solve is the exact solver with ProbCut: a null-window node whose
/// shallow search lies far beyond the window returns that bound unproved.
/// Each fills the table with moves and bounds for the next, so that the
/// exact solve mostly confirms what it finds there (fewer nodes in all).
/// Under a clock, in place of deeper midgame iterations, they
/// picked better moves and won no more games, so they run only with no
/// time limit (the journal's "Selective solves").
pub const SELECTIVE_LEVELS: u32 = 2;
/// Fewest empties at which a selective solve tries ProbCut: nearer the end a
/// node is cheaper to solve than to predict (other starts took more nodes:
/// the journal's "Selective solves").
pub(crate) const SELECTIVE_EMPTIES: u32 = 10;

/// How many standard deviations of the shallow search's error a selective
/// solve of `level` wants before it trusts a cut: the higher the level,
/// the fewer (other levels took more nodes: the journal's "Selective
/// solves").
pub(crate) fn selective_t(level: u32) -> f64 {
    match level {
        1 => 1.5,
        _ => 1.0,
    }
}

/// Plies of a selective solve's shallow search at a node with `empties`
/// empties: 4 where the subtree is large enough to pay for them (other
/// thresholds and depths took as many nodes or more: the journal's
/// "Selective solves").
pub(crate) fn selective_depth(empties: u32) -> u32 {
    if empties >= 18 { 4 } else { 2 }
}

/// The error of a selective solve's shallow search: the exact score
/// minus the shallow score, mean and standard deviation in discs, for 2
/// and 4 plies, measured by `xz -dc games.txt.xz | tail -n 20000 |
/// reversi probcut --endgame --games 150` (alike in every band of 12-23
/// empties).
pub(crate) fn selective_error(depth: u32) -> (f64, f64) {
    if depth >= 4 { (1.0, 6.1) } else { (0.9, 7.5) }
}

/// Empties at or below which the solver uses the plain parity search: so
/// near the end a move generation and a table probe cost more than the
/// few nodes they save (Edax and Zebra draw the line at 4-7). Set, not
/// measured here.
pub(crate) const PARITY_EMPTIES: u32 = 6;
// The parity search's square list holds 8 squares.
const _: () = assert!(PARITY_EMPTIES <= 8);
/// Empties from which children are looked up in the table before any is
/// searched (enhanced transposition cutoff): a probe per child pays only
/// where a cut saves a large subtree. Set, not measured here.
pub(crate) const ETC_EMPTIES: u32 = 12;
/// The least depth of a midgame search whose best move the solver tries
/// first. Moves from shallower searches (the evaluation's choice a ply or
/// two from the midgame horizon) are worse than fastest first; deeper ones
/// help near the root (the journal's "Move ordering").
pub(crate) const MIDGAME_MOVE_DEPTH: i32 = 7;
/// Empties from which the solver uses the table: below, a probe (a cache
/// miss) costs more than searching the few nodes again. Set, not measured
/// here.
pub(crate) const HASH_EMPTIES: u32 = 8;
/// Empties from which the pattern evaluation of the position after a move
/// joins its ordering cost: nearer the end mobility alone orders as well
/// and costs less. Set with the evaluation's ordering (the journal's "Move
/// ordering"), not measured alone.
pub(crate) const EVAL_ORDER: u32 = 14;
/// The ordering's cost unit: one opponent reply is [`REPLY`] units, fine
/// enough for the evaluation's and the bonuses' fractions of a reply.
pub(crate) const REPLY: i32 = 64;

/// How much the evaluation of a move counts in its ordering cost, as the
/// eighths of a disc that weigh as much as one opponent reply, by the
/// depth of the search that gave it (0: the position after the move). A
/// deeper search's score is worth more against mobility, as in Edax
/// (fewer nodes than one weight for all depths: the journal's "Move
/// ordering").
pub(crate) fn eval_eighths_per_reply(depth: u32) -> i32 {
    match depth {
        0 => 48,
        1 | 2 => 24,
        3 => 10,
        _ => 12,
    }
}

/// An evaluation `score` (1/[`SCALE`] disc) from a search of `depth` plies,
/// in ordering cost units.
#[inline]
pub(crate) fn eval_cost(score: i32, depth: u32) -> i32 {
    score * REPLY * 8 / (SCALE * eval_eighths_per_reply(depth))
}

/// A last tie-break between moves of equal cost: the classic square values
/// (corners best, the squares next to corners worst), in cost units (fewer
/// nodes: the journal's "Move ordering").
pub(crate) const SQUARE_VALUE: [u8; 64] = [
    18, 4, 16, 12, 12, 16, 4, 18, //
    4, 2, 6, 8, 8, 6, 2, 4, //
    16, 6, 14, 10, 10, 14, 6, 16, //
    12, 8, 10, 0, 0, 10, 8, 12, //
    12, 8, 10, 0, 0, 10, 8, 12, //
    16, 6, 14, 10, 10, 14, 6, 16, //
    4, 2, 6, 8, 8, 6, 2, 4, //
    18, 4, 16, 12, 12, 16, 4, 18, //
];

/// Empties from which the ordering takes the pattern evaluation from a
/// small search instead of the position after the move: the search pays
/// for itself from here (the journal's "Move ordering").
pub(crate) const SORT_SEARCH: u32 = 18;

/// Plies of the ordering search at a node with `empties` empties (from
/// [`SORT_SEARCH`]): deeper near the root, where a node's subtree is large
/// enough to pay for it (the journal's "Move ordering").
pub(crate) fn sort_depth(empties: u32) -> u32 {
    match empties {
        ..21 => 2,
        21..24 => 3,
        _ => 4,
    }
}

/// A close call in the ordering: the best two moves' costs less than
/// half a reply apart, at [`CLOSE_CALL_EMPTIES`] or more empties: the best
/// three are rescored two plies deeper (less time; from fewer empties none
/// saved: the journal's "Move ordering").
pub(crate) const CLOSE_CALL: i32 = REPLY / 2;
pub(crate) const CLOSE_CALL_EMPTIES: u32 = 21;

/// How far below alpha (discs) the ordering search still tells moves
/// apart: it runs with that bound as its window, so a move it finds worse
/// is cut short (its cost is then a bound, and it sorts last anyway), which
/// saves time at the same nodes (the journal's "Move ordering").
pub(crate) const SORT_ALPHA_DELTA: i32 = 8;

/// Fewest empties at which the parity search tries the stability cutoff,
/// and then only from an alpha of [`parity_stability_alpha`]: without
/// that floor the test costs as much as it saves (the journal's
/// "Cutoffs").
pub(crate) const PARITY_STABILITY_EMPTIES: usize = 4;

/// The least alpha at which the parity search with `empties` empties
/// tries the stability cutoff: below it a cut needs so many stable
/// opponent discs this close to the end that it seldom happens (Edax uses
/// a floor of the same kind).
#[inline]
pub(crate) fn parity_stability_alpha(empties: usize) -> i32 {
    2 * empties as i32 - 2
}

/// The fewest empties at which a node shares its moves: below, a subtree
/// (a few thousand nodes) costs little more than handing it over; other
/// depths did no better (docs/research/threads.md).
pub(crate) const SPLIT_EMPTIES: u32 = 12;

/// Nodes between two looks at the clock and the stop: a look costs a
/// clock read, and 4,096 nodes take well under a millisecond.
pub(crate) const POLL: u64 = 4096;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn square_values_are_the_same_under_the_board_symmetries() {
        for (sq, &value) in SQUARE_VALUE.iter().enumerate() {
            let (r, c) = (sq / 8, sq % 8);
            for (r2, c2) in [(7 - r, c), (r, 7 - c), (c, r)] {
                assert_eq!(value, SQUARE_VALUE[r2 * 8 + c2], "square {sq}");
            }
        }
        // Corners first, the X squares (diagonal to a corner) last but
        // for the centre.
        assert_eq!(SQUARE_VALUE[0], 18);
        assert_eq!(SQUARE_VALUE[9], 2);
    }
}
