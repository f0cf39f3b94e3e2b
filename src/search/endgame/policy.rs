//! The solver's tuning: when the midgame search hands over to it, the
//! selective solves' settings, how far each technique reaches, and the
//! weights of the move ordering, each with the measurements that chose it.
//! Only constants and small functions of empties or depth: no search.

use crate::search::pattern::SCALE;

/// How close to the end (in plies) the midgame iterations go before the
/// search jumps to the exact one on boards with a solver (under a depth
/// limit, only within [`DEPTH_LIMIT_SOLVE_SLACK`] of it; against the
/// clock, only once the solve can be expected to finish in the time left,
/// [`expected_solve_nodes`]). The midgame iterations fill the table with
/// the moves the solver tries first, and against the clock the last of
/// them is the move played when the solve does not finish.
///
/// With no limit only the total cost of the solve counts. On 40 held-out
/// WTHOR positions at 26 empties the solve took 10.84 G nodes and 315 s
/// jumping at 14 plies from the end, 10.04 G and 300 s at 10, 9.69 G and
/// 289 s at 8, 9.55 G and 284 s at 7, but 10.75 G and 430 s at 6, where
/// the midgame search's own last plies take over from the solver's faster
/// ones.
///
/// Against the clock it was 14 (the solve got the time sooner), until the
/// moves of 100 games against NTest were replayed at 200 ms a move and
/// scored by exact solves. At 14, a solve started at 20-21 empties after a
/// 6- or 7-ply search, often did not finish (a win/loss/draw proof of a
/// drawn position at 21 empties took more than 7.9 M nodes), and the
/// shallow move was played: 0.48 and 0.64 discs lost a move there. Over
/// the 350 moves at 18-24 empties the mean loss was 0.269 discs at 14,
/// 0.257 at 10, **0.160 at 8**, 0.166 at 6 and 0.189 at 4. Matches did
/// not tell 8 from 14 apart: 48.1% in 600 games against 14 at 100 ms,
/// 50.0% in 200 from those games' 26-empty positions, and 42.5% against
/// 43.0% in 200 games each against NTest.
pub const SOLVER_JUMP: u32 = 8;

/// How many more empties than a depth limit an exact solve may start
/// from under that limit. A solve costs about what a midgame search of
/// a few plies fewer does (at 200 ms a move the middle game reached 17-23
/// plies and the solver 21 empties), so a depth limit keeps its meaning:
/// a bound on the work of every move of a game, as the GUI's level is.
pub const DEPTH_LIMIT_SOLVE_SLACK: u32 = 4;

/// About how many nodes a first solve of a position with `empties` empty
/// squares takes, for deciding under a clock whether to start one: a solve
/// that cannot finish wastes the time deeper midgame iterations would have
/// used. Half the mean nodes of an exact solve on one thread (held-out
/// WTHOR positions and match games: 20 empties 4.2 M; 22: 13 M; 23: 26 M;
/// 24: 75 M; 26: 240 M, about 2.1x per empty), since the first solve
/// under a clock is the cheaper win/loss/draw one. Half is a judgement:
/// three times as much (in effect) chose the same moves at 24 empties and
/// lost fewer discs at 22-23, but changed the result of 2 of 160 moves
/// there, against none.
pub fn expected_solve_nodes(empties: u32) -> f64 {
    2.0e6 * 2.1f64.powi(empties as i32 - 20)
}

/// Levels of selective solves a search with no limit runs before the
/// exact one, the least trusting last (Edax does the same). A selective
/// solve is the exact solver with ProbCut: a null-window node whose
/// shallow search lies far beyond the window returns that bound unproved.
/// Each fills the table with moves and bounds for the next, so that the
/// exact solve mostly confirms what it finds there. Solver nodes, one
/// thread, against none (with the settings below):
///
/// | positions | exact only | selective first |
/// |---|---|---|
/// | 20 held-out WTHOR, 26 empties | 4.77 G | 4.17 G (-12.5%) |
/// | 40 held-out WTHOR, 24 empties | 2.06 G | 2.03 G (-1.5%; time +0.8%) |
///
/// Other settings on the 26-empty set: three levels (t = 2, 1.5, 1) took
/// 4.20 G, t = 2 then 1 4.13 G, t = 1 then 0.6 4.45 G; with three levels,
/// ProbCut from 8 empties 4.34 G, from 12 4.43 G, from 14 4.82 G; one level
/// (t = 1) from 12 empties 4.41 G; the 4-ply shallow search from 16
/// empties 4.14 G, from 22 4.34 G; no shallow search (the evaluation
/// alone) below 14 empties 4.14 G; 6 plies from 24 empties 4.17 G.
///
/// Under a clock they were tried where the exact solve is out of reach.
/// In 381 games of the engine of commit eb18b56 against NTest d18 at
/// 200 ms a move, perfect play from 24 empties on would have scored 53.3%
/// where we scored 51.4%: we lost 1.34 discs a game between 24 and 20
/// empties, NTest (which solves there) 0.21
/// (`scripts/exact-checkpoints.py <records> strong 24 22 20`); from 26 to
/// 24 empties, in 150 of them, we lost 0.24 discs a game and NTest 0.40.
/// So once the midgame iterations were within [`SOLVER_JUMP`] plies of
/// the end and the selective solves could be expected to finish (taken as
/// a 30th of [`expected_solve_nodes`]: at 24 empties the first took
/// 0.4-3.5 M nodes where the exact one took 24-130 M), they ran instead
/// of deeper midgame iterations and their move was played. Replayed at
/// 200 ms a move on 301 positions of 21-24 empties from those games and
/// scored by exact solves, its moves lost 0.30-0.31 discs on average
/// where that engine's lost 0.372 (twice; with a 60th 0.332, a 100th
/// 0.352). Yet it won no more games: 49.0% ± 3.7 against it in 600 games
/// at 100 ms, and 51.1% in 400 against NTest d18 at 200 ms where it had
/// 53.8% on the same openings (-2.6 ± 4.0 points; 47.2% against 50.7% in
/// the 357 games neither side lost on time; stop 70). Left out.
pub const SELECTIVE_LEVELS: u32 = 2;
/// Fewest empties at which a selective solve tries ProbCut.
pub(super) const SELECTIVE_EMPTIES: u32 = 10;

/// How many standard deviations of the shallow search's error a selective
/// solve of `level` wants before it trusts a cut: the higher the level,
/// the fewer.
pub(super) fn selective_t(level: u32) -> f64 {
    match level {
        1 => 1.5,
        _ => 1.0,
    }
}

/// Plies of a selective solve's shallow search at a node with `empties`
/// empties.
pub(super) fn selective_depth(empties: u32) -> u32 {
    if empties >= 18 { 4 } else { 2 }
}

/// The error of a selective solve's shallow search: the exact score
/// minus the shallow score, mean and standard deviation in discs, for 2
/// and 4 plies. Measured by `xz -dc games.txt.xz | tail -n 20000 |
/// reversi probcut --endgame --games 150` (about 100 positions in each
/// band of 12-15, 16-19 and 20-23 empties, averaged over the bands; the
/// standard deviation is 7.4-7.5 at 2 plies and 5.9-6.4 at 4 plies in
/// every band).
pub(super) fn selective_error(depth: u32) -> (f64, f64) {
    if depth >= 4 { (1.0, 6.1) } else { (0.9, 7.5) }
}

/// Empties at or below which the solver uses the plain parity search.
pub(super) const SHALLOW: u32 = 6;
// The shallow search's square list holds 8 squares.
const _: () = assert!(SHALLOW <= 8);
/// Empties from which children are looked up in the table before any is
/// searched (enhanced transposition cutoff).
pub(super) const ETC_EMPTIES: u32 = 12;
/// The least depth of a midgame search whose best move the solver tries
/// first. Moves from shallower searches (the evaluation's choice a ply or
/// two from the midgame horizon) are worse than fastest first: using them
/// all made FFO #47 take 106 M nodes, not using them 18.5 M. From 7 plies
/// on they help near the root: FFO #45, #48, #49 took 109 s without
/// midgame moves, 57 s with those of depth 7 or more, 69 s from depth 5.
pub(super) const MIDGAME_MOVE_DEPTH: i32 = 7;
/// Empties from which the solver uses the table.
pub(super) const HASH_EMPTIES: u32 = 8;
/// Empties from which the pattern evaluation of the position after a move
/// joins its ordering cost.
pub(super) const EVAL_ORDER: u32 = 14;
/// The ordering's cost unit: one opponent reply is [`REPLY`] units.
pub(super) const REPLY: i32 = 64;

/// How much the evaluation of a move counts in its ordering cost, as the
/// eighths of a disc that weigh as much as one opponent reply, by the
/// depth of the search that gave it (0: the position after the move). A
/// deeper search's score is worth more against mobility, as in Edax. On
/// FFO #50-#53 one weight of 3 discs for all depths took 3.95 G nodes; 6
/// discs for the static score took 3.82 G (with the square values below,
/// 3.75 G); then 1.25 discs at depth 3 and 1.5 at depth 4 took 3.30 G,
/// and FFO #56-#57 went from 2.36 G to 1.86 G (1 disc at depth 4: 1.96 G;
/// 3 discs: 2.19 G).
pub(super) fn eval_eighths_per_reply(depth: u32) -> i32 {
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
pub(super) fn eval_cost(score: i32, depth: u32) -> i32 {
    score * REPLY * 8 / (SCALE * eval_eighths_per_reply(depth))
}

/// A last tie-break between moves of equal cost: the classic square values
/// (corners best, the squares next to corners worst), in cost units. FFO
/// #45, #48 and #49 took 5% fewer nodes with them, #50-#53 2%.
pub(super) const SQUARE_VALUE: [u8; 64] = [
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
/// small search instead of the position after the move: FFO #45, #48 and
/// #49 took 57.5 s with the static evaluation, 47.2 s with 2 plies from 18
/// empties (47.4 s from 16, 52.8 s with 3 plies from 20, 54.8 s with 1 ply
/// from 16).
pub(super) const SORT_SEARCH: u32 = 18;

/// Plies of the ordering search at a node with `empties` empties (from
/// [`SORT_SEARCH`]): deeper near the root, where a node's subtree is large
/// enough to pay for it. On FFO #50-#53, 2 plies everywhere took 5.46 G
/// nodes; 3 plies from 21 empties and 4 from 24 took 4.16 G (#51: 950 M
/// -> 332 M), 3 from 22 and 4 from 26 took 4.38 G, 3 from 19 and 4 from
/// 22 took 4.44 G, and a fifth ply from 26 took 4.29 G.
pub(super) fn sort_depth(empties: u32) -> u32 {
    match empties {
        ..21 => 2,
        21..24 => 3,
        _ => 4,
    }
}

/// A close call in the ordering: the best two moves' costs less than
/// half a reply apart, at [`CLOSE_CALL_EMPTIES`] or more empties. Rescoring
/// the best three two plies deeper took FFO #50-#53 from 3.145 G to 2.969
/// G nodes (4% less time side by side), #56 from 720 M to 685 M (4.6%),
/// #45/#48/#49 1.3% fewer nodes, #40-#44 the same. From 18 empties it cut
/// more nodes but saved no time; a gap of a whole reply (best two only)
/// or of three quarters (best four) did worse.
pub(super) const CLOSE_CALL: i32 = REPLY / 2;
pub(super) const CLOSE_CALL_EMPTIES: u32 = 21;

/// How far below alpha (discs) the ordering search still tells moves
/// apart: it runs with that bound as its window, so a move it finds worse
/// is cut short (its cost is then a bound, and it sorts last anyway).
/// The window alone made FFO #50-#53 take 176 s, not 232 s, for the same
/// nodes; 4 discs took as long as 8, with 2% more nodes.
pub(super) const SORT_ALPHA_DELTA: i32 = 8;

/// Fewest empties at which the shallow search tries the stability cutoff,
/// and then only from an alpha of [`shallow_stability_alpha`]: without
/// that floor the test cost as much as it saved (nodes -9% to -33%, FFO
/// #53 5% slower); with it, FFO #45, #48 and #49 take 29% fewer nodes
/// and 10-20% less time.
pub(super) const STABILITY_SHALLOW: usize = 4;

/// The least alpha at which the shallow search with `empties` empties
/// tries the stability cutoff: below it a cut needs so many stable
/// opponent discs this close to the end that it seldom happens (Edax uses
/// a floor of the same kind).
#[inline]
pub(super) fn shallow_stability_alpha(empties: usize) -> i32 {
    2 * empties as i32 - 2
}

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
