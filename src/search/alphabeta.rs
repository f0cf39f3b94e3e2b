//! The midgame node search, written once for every [`Board`](crate::rules::Board):
//! negamax principal-variation search with a transposition table, run
//! iteration by iteration by [`super::deepening`].
//!
//! Why it is built this way:
//! - The hard limit and the stop token are polled every [`poll_interval`]
//!   nodes and abandon the iteration in progress; iterative deepening
//!   keeps the last finished iteration's answer and fills the table so
//!   that each deeper iteration tries the best move first.
//! - PVS searches the first (best-ordered) move with the full window and
//!   the rest with a null window, re-searching only moves that beat alpha.
//!   That pays off because ordering is good: the table move first, then
//!   (with enough depth left) the evaluation after each move, moves that
//!   leave the opponent fewest replies, and square quality.
//! - A pass does not use up depth; a finished game scores the exact disc
//!   difference plus [`WIN`] so that any win beats any heuristic score;
//!   once every root move is proven lost, the root side's losses count
//!   their discs alone ([`Search::hope`]).
//! - Aspiration windows around the previous iteration's score narrow the
//!   search; a result outside the window is searched again fully.
//! - A node one ply from the leaves evaluates its children itself
//!   ([`Search::frontier`]): leaf values are exact, so no re-search.
//! - The evaluation's reading of a position ([`Evaluator::State`]) goes
//!   down the search path with the board: each child's is its parent's
//!   updated for the move. With the pattern evaluation that is a few
//!   vector additions where reading the board is 92 bit extractions.
//!   Updating at the frontier only took a third off the time to
//!   a fixed depth; carrying it along the whole path took about a fifth
//!   more off (the bench's middle-game positions at 20 plies, same
//!   nodes), and 139-44-117 (53.7%, +25 Elo) in 300 games at 100 ms a
//!   move against the engine without it; against NTest at depth 18 and
//!   200 ms a move, 89-24-87 (50.5%) in 200 games, as before.
//! - ProbCut (where the evaluation has measured its margins): at a
//!   null-window node a search of about a quarter of the depth decides
//!   when it lies far enough outside the window; the depth saved goes into
//!   deeper iterations on the lines that matter. One and two plies from
//!   the leaves the evaluation alone decides: on 80 WTHOR positions at 36
//!   and 28 empties searched to 18 plies, a third less time; 600 games at
//!   100 ms a move against the engine without it gave 277-79-244 (52.8%
//!   +- 3.7, +19 Elo), and NTest at depth 18 and 200 ms a move scored
//!   44.7% against it in 200 games (48.3% before). These checks at 0.7 of
//!   ProbCut's deviations won 52.8% of 600 self-play games against them
//!   at the full deviations, yet NTest then scored 59.5% on the same
//!   openings: self-play rewards pruning that a stronger opponent
//!   punishes. At 1.3 deviations NTest scored 51.0% in 100 (47.0% at 1.0).
//!   A shallow search is made only where the evaluation makes its cut
//!   likely: most tries fail, and a failed one bought nothing.
//! - Late move reductions (on 8x8): with the ordering this good, a move
//!   tried third or later at a null-window node rarely cuts, so it is
//!   searched a ply shallower first and again to the full depth only if it
//!   beats alpha.
//! - No enhanced transposition cutoff here (the solver has one): looking
//!   up every child's entry at null-window nodes from 6 plies left, before
//!   ProbCut, changed the nodes to a fixed depth on the bench's 8x8
//!   middle-game positions by -2.2% at 14 plies and +0.3% at 18 (stop 64):
//!   most likely the table move, tried first, is already the child that
//!   would cut.

use super::endgame::{Endgame, Pool};
use super::eval::{Evaluator, probcut_depth};
use super::limits::{ClockPoll, Limits};
use super::score::{DISC, INFINITY, WIN, forced_finish, to_table};
use super::tt::{Bound, TranspositionTable};
use crate::rules::{Board, SquareSet};
use std::time::Duration;

/// How many standard deviations of its error a shallow search must lie
/// outside the window for ProbCut to trust it. 1.0 against 1.5: 2.5 times
/// fewer nodes to depth 14 on the bench's middle-game positions, and
/// 291-66-243 (54.0% +- 3.8, +28 Elo) in 600 games at 100 ms a move.
/// (An earlier 100-game match had both 1.0 and 2.0 even with 1.5.)
///
/// Near the end 1.5 deviations pick better moves yet win no more games.
/// In searches from at most 30 empties: on
/// `data/endgame-choices-23-26.json` at 200 ms a move 0.23 discs lost a
/// move instead of 0.71 (both run at once), but 600 games at 100 ms a
/// move against 1.0 everywhere gave 250-63-287 (46.9% +- 3.8, -21 Elo),
/// and NTest at depth 18 and 200 ms a move, on the same 300 openings,
/// scored 50.5% against it and 49.8% against 1.0 (mean time a move: ours
/// 124-128 ms, NTest's 182-235 ms). From at most 24 empties: 0.39 discs a
/// move instead of 0.68, and 266-71-263 (50.2% +- 3.8) in 600 games;
/// against NTest at depth 14 and 20 ms a move, 1,600 games of
/// `random:8`, seed 80, played beside 1.0 as `scripts/judge.sh` plays
/// (stop 80), 46.2% where 1.0 had 46.4%, -0.2 +- 1.5 points game by game
/// (12.0 and 11.9 ms a move on average; NTest's 27 ms), although on the
/// 23-26 file at 200 ms a move it lost 0.31 discs a move where 1.0 lost
/// 0.46 (one run each).
///
/// The stake there is small. In 410 of the 450 games of stop 64 against
/// NTest (depth 18, 200 ms a move), each solved at 24 to 20 empties as
/// `scripts/exact-checkpoints.py` does, perfect play from 24 empties on
/// would have scored 48.9% and the games scored 47.4%: our moves at 24,
/// 23, 22 and 21 empties gave away 0.91, 0.96, 1.22 and 0.52 discs on
/// average (NTest's 0.07-0.18), 1.56 discs a game in all, and turned 11
/// results; from 20 empties on, 0.17 discs a game and no result.
/// The games are decided before.
///
/// Less pruning everywhere may do a little better against NTest, and
/// loses to 1.0 (stop 64). Against NTest at depth 18 and 200 ms a move,
/// on the same 450 openings (1.0's first 300 played at stop 63), 1.8
/// deviations scored 54.0% where 1.0 scored 52.1% (+1.9 +- 4.7 points;
/// on the 387 games with no NTest forfeit in either, 50.8% against
/// 47.9%, +0.7 discs a game against -1.1; ours 124-129 ms a move, at
/// most 194 ms, NTest's 174-217 ms, at most 5.1 s); on the first 300 of
/// those openings 1.4 scored 51.0% where 1.0 had 50.2%. Yet against 1.0
/// itself 1.8 lost 231-75-294 (44.8% +- 3.7, -37 Elo) in 600 games at
/// 100 ms a move, with an even disc count (-0.1 a game), and 108-49-143
/// (44.2% +- 5.1, -41 Elo) in 300 at 200 ms a move. And 1.4 against
/// NTest at depth 14 and 20 ms a move, 2,000 games of `random:8`, seed
/// 65, played beside 1.0 as `scripts/judge.sh` plays (stop 77): 48.2%
/// where 1.0 had 49.4%, -1.1 +- 1.6 points game by game (both 11.9 ms a
/// move on average; NTest's 26 ms). Nor does more pruning pay: 0.8
/// deviations in the same judge, 1,000 games, seed 86 (stop 85), 49.6%
/// where 1.0 had 50.4%, -0.8 +- 2.0 points (both 11.7 ms a move on
/// average; NTest's 23 ms).
const PROBCUT_T: f64 = 1.0;
/// A side with at most this many discs, against at least
/// [`WIPE_OUT_RATIO`] times as many, risks being wiped out: ProbCut does
/// not cut such a node ([`wipe_out_risk`]).
const WIPE_OUT_DISCS: u32 = 8;
/// See [`WIPE_OUT_DISCS`].
const WIPE_OUT_RATIO: u32 = 2;

/// Whether one side of `board` has so few discs against the other's
/// that a wipe-out may lie a few plies ahead. The pattern evaluation
/// knows no such positions (neither the tournament games nor the
/// self-play sets hold them) and values them absurdly: black to move
/// with 2 discs against 18 after `e6 d6 c5 f6 c4 b5 c6 d3 f5 b6 c3 f4 e3
/// b2 f3 g3` is +70 discs at 1 ply, and a side left with 3 discs against
/// 15 still +38 to 29 plies. With ProbCut the evaluation's verdict
/// stands in for the search below such a node, so the reply that wipes
/// the mover out is never looked at: `strong` lost 10 of 400 games to
/// the course players (100 ms a move, `random:4`, seed 1: `smarter` 1,
/// `smartest` 3, `norvig:4` 2, `weights:0.1` 4; those to `smartest`,
/// whose records were kept, wiped out by ply 20; stop 87). Searched in
/// full there, the same 400 games were all won, and 700 more (seed 2,
/// the seven course players; stop 88); a side with 4 discs or fewer
/// alone (no ratio) still lost 3 of the 400, all wipe-outs. The ratio
/// keeps the first plies of a game, where both sides have few discs, out
/// of it: after `f5 d6 c3 d3 c4 f4`, 8 discs alone took the search from
/// 28 plies to 17 in the same 0.3-0.4 s, with the ratio about as deep
/// as without the guard. Against NTest, whose games seldom reach such
/// positions, it changes nothing measurable: at depth 14 and 20 ms a
/// move, 1,000 games of `random:8`, seed 881, played beside the engine
/// without it as `scripts/judge.sh` plays, 49.6% each, +0.0 +- 1.9 points
/// game by game (both 11.7 ms a move on average; NTest's 22 ms); at depth
/// 18 and 200 ms a move, 200 games of `random:4`, seed 188, the same way,
/// 55.5% where the engine without it had 55.8%, -0.2 +- 5.6 points (both
/// 122 ms a move on average, at most 199 and 197 ms; NTest's 152-158 ms,
/// at most 4.7 s, 6 and 7 forfeits). Against that engine itself at 100 ms
/// a move, 400 games of `random:4`, seed 88: 172-64-164 (51.0% +- 4.5).
fn wipe_out_risk<B: Board>(board: &B) -> bool {
    let (mine, yours) = (board.player().count(), board.opponent().count());
    let (few, many) = (mine.min(yours), mine.max(yours));
    few <= WIPE_OUT_DISCS && many >= WIPE_OUT_RATIO * few
}

/// The shallowest remaining depth at which a node orders its moves by the
/// evaluation of the position after each (besides the opponent's replies
/// and square values), and how many ordering points a disc of it is worth
/// (an opponent reply is 64). On 80 WTHOR positions at 36 and 28 empties
/// searched to 18 plies: 26% fewer nodes and 22% less time (20 plies: 25%
/// fewer nodes, 21% less time). Against the engine without it, 1,200
/// games at 100 ms a move gave 550-160-490 (52.5% +- 2.6, +17 Elo, about
/// what that speed is worth there). Evaluated from 3 plies, with a disc
/// worth half a reply, it had saved 14% of the nodes and no time (stop 41:
/// 49.8% in 300 games); from 4 plies the evaluations cost less than the
/// nodes they save, and weighed this heavily they decide the order.
/// From 3 plies again once the evaluation cost 40% fewer instructions
/// (stop 77): to 18 plies on the 80 positions below, 4.8% fewer nodes and
/// 0.8% more instructions (callgrind), no gain in time.
///
/// A 1- or 2-ply search after each move in place of its evaluation, from
/// 8 to 14 plies left (as Edax orders its deepest nodes), saved no nodes:
/// on 80 WTHOR positions (after plies 24 and 32 of every 50th of the
/// last 2,000 games) searched to 18 plies, the ordering searches
/// counted, 1 ply from 8, 10, 12 or 14 plies left took 15%, 6%, 4% and
/// 2% more nodes, and 2 plies 17-32% more (stop 65).
///
/// The weights sit at a flat optimum: to 18 and 20 plies on those 80
/// positions (19.41 M and 37.16 M nodes), a disc worth 192, 320 or 384
/// points instead of 256, or a reply worth 80 instead of 64, took within
/// 2% of the nodes, and a reply worth 48 took 2.8% and 3.8% more (stop
/// 80).
const EVAL_ORDER_DEPTH: i32 = 4;
const EVAL_ORDER_WEIGHT: i32 = 256;
/// The shallowest remaining depth at which a node reduces its late moves
/// ([`late_move_reduction`]), and the first move (counting from 0) it
/// reduces. On 80 WTHOR positions at 36 and 28 empties searched to 18
/// plies: 25% fewer nodes, 20-25% less time. Against the engine without
/// them, 600 games at 100 ms a move gave 281-75-244 (53.1% +- 3.7, +21
/// Elo); against NTest at depth 18, 200 games at 200 ms a move, 51.7%
/// where the engine without them had 49.2%. No variant did better:
/// reducing from the second move (37% fewer nodes; 52.0% in 300 games
/// against no reductions), from 2 plies left (51.1% in 600 games against
/// these settings), or also in PV nodes' scout searches (49.0% in 300).
/// Two plies for the seventh move on, from 6 plies left, took 15% fewer
/// nodes to 22 plies on the bench's middle-game positions and scored
/// 282-76-242 (53.3% +- 3.7, +23 Elo) in 600 games at 100 ms a move
/// against these settings (both 63 ms a move on average, at most 102 ms),
/// yet 49.5% against NTest at depth 18 and 200 ms a move (ours 122 ms on
/// average, at most 196 ms; NTest's 153-161 ms, at most 4.8 s) where
/// these settings scored 58.5% on the same 100 openings
/// (7.3 +- 8.7 points lower on the 96 games with no NTest forfeit in
/// either; stop 68). On 200 more openings it scored 48.5% where these
/// settings had 51.2% (-2.8 +- 6.1 points; ours 126 ms a move on
/// average, at most 195 ms; NTest's 168-212 ms, at most 5.2 s): 48.8%
/// in 300 games against 53.7% (stop 69), as if, like ProbCut's
/// deviations, it were pruning that self-play rewards and a stronger
/// opponent punishes. Reducing only from the fourth move, against NTest
/// at depth 14 and 20 ms a move (2,000 games of `random:8`, seed 66,
/// played beside these settings as `scripts/judge.sh` plays; stop 77):
/// 47.7% where these had 47.1%, +0.5 +- 1.6 points game by game (both
/// 12.2 ms a move on average): no gain to choose by. Sparing from the
/// reduction the late moves whose ordering value (from 4 plies left,
/// where the evaluation orders) lies within a disc of the first ordered
/// move's took 8% more nodes to 18 plies on the 80 WTHOR positions of
/// `EVAL_ORDER_DEPTH`'s note, and against NTest in the same judge (seed
/// 78; stop 78) scored 44.8% where these settings had 44.8%, +0.1 +- 1.4
/// points game by game (both 12.2 ms a move on average): no gain either.
/// Nor does NTest tell the reductions from none: with them off, against
/// NTest at depth 14 and 20 ms a move (2,000 games of `random:8`, seed 85,
/// played beside them as `scripts/judge.sh` plays; stop 85), 49.8% where
/// they had 49.8%, +0.0 +- 1.5 points game by game (both 11.7 ms a move on
/// average; NTest's 23 ms). They stay for their self-play gain.
const LMR_MIN_DEPTH: i32 = 3;
const LMR_FIRST_MOVE: usize = 2;
/// The shallowest remaining depth at which a node uses the table. A node
/// one ply from the leaves is cheaper to search again than to look up
/// (the probe is a cache miss): without it there, and with each child's
/// bucket prefetched while the moves are ordered, the bench's middle-game
/// positions reach depth 14 about 13% sooner (2.4% more nodes), and 1,200
/// games at 100 ms a move gave 571-129-500 (53.0% +- 2.7, +21 Elo).
///
/// Unlike the solver, the middle game does not look its children up in
/// the table before searching them (enhanced transposition cutoffs). At
/// null-window nodes from 3 plies left, with the children's keys kept
/// from the ordering, the 80 WTHOR positions of [`EVAL_ORDER_DEPTH`]'s
/// note took 19.64 M nodes to 18 plies and 36.66 M to 20, against
/// 19.41 M and 37.16 M without (from 4 or 6 plies left: within 0.5%);
/// the bench's middle-game positions took 7% fewer nodes to 22 plies
/// (about 2% more time) but 7% more to 24 (stop 80): no gain.
const TT_MIN_DEPTH: i32 = 2;
/// Nodes between two looks at the clock and the stop token on an n x n
/// board: about every 1,024 nodes on 8x8, more often on larger boards
/// where a node costs more, so that a stop is seen within a millisecond or so.
pub fn poll_interval(n: usize) -> u64 {
    (65_536 / (n * n) as u64).clamp(16, 1024)
}

/// What one finished iteration found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Iteration {
    /// Depth in plies.
    pub depth: u32,
    /// Best move (square index).
    pub best: usize,
    /// Its score for the side to move.
    pub score: i32,
    /// Whether the depth reached the end of the game in every line.
    pub exact: bool,
    /// Nodes searched so far in this decision; in the iteration
    /// [`Search::run`] returns, all of them, the unfinished iteration's
    /// included, so that a move's log tells what it cost.
    pub nodes: u64,
    /// Time since the decision started; in the returned iteration, the
    /// whole decision's.
    pub elapsed: Duration,
    /// The scores of the root moves searched with a full window, best first.
    pub root_scores: Vec<(usize, i32)>,
}

/// One root move and its latest score.
#[derive(Clone, Copy, Debug)]
pub(super) struct RootMove {
    pub(super) sq: usize,
    pub(super) score: i32,
}

/// A search of one position.
pub struct Search<'a, B: Endgame, E: Evaluator<B>> {
    pub(super) tt: &'a TranspositionTable,
    pub(super) eval: &'a E,
    pub(super) limits: &'a Limits,
    /// Value of each square for move ordering.
    pub(super) square_value: Vec<i32>,
    /// The squares of each [`Search::square_value`], best first.
    pub(super) square_classes: Vec<B::Set>,
    /// The score of winning every square, which no line exceeds.
    pub(super) most: i32,
    /// Remaining depth from which moves are ordered by the opponent's
    /// replies (a move generation per move): 2 on 8x8; 3 on the wide
    /// boards, where a move generation costs several times more and the
    /// bench's wide positions reach their depths 2-18% sooner with 3.
    pub(super) reply_order_depth: i32,
    /// Whether late moves are searched a ply shallower first
    /// ([`late_move_reduction`]): measured on 8x8 only, where the pattern
    /// evaluation orders the moves.
    pub(super) reduce_late_moves: bool,
    /// One reusable move list per ply.
    pub(super) lists: Vec<Vec<(i32, usize)>>,
    pub(super) nodes: u64,
    pub(super) clock: ClockPoll,
    pub(super) stopped: bool,
    pub(super) all_exact: bool,
    /// How many standard deviations ProbCut asks for; `None`: no ProbCut.
    pub(super) probcut: Option<f64>,
    /// A root move that beat the first one in the iteration under way.
    pub(super) partial: Option<usize>,
    /// Whether the middle-game search ranks the root side's losses by
    /// discs alone, as Edax's search ranks every line: set once every
    /// root move is proven lost ([`Search::hope_if_lost`],
    /// [`Search::aspirate`]), or from the start when the table proves the
    /// root lost ([`Search::hope_if_table_proves_lost`]). A game the root
    /// side loses then scores its disc difference without [`WIN`], and the
    /// table's bounds that prove such a loss do not cut. Without it, where
    /// the table holds the proofs (the solve of an earlier move), the
    /// moves tie at "lost" and the first in whatever order they were tried
    /// is played, or one whose proof the table has lost, on its evaluation
    /// alone (the test `moves_the_table_proves_lost_are_ranked_by_what_they_lose`).
    /// Against the engine without it, 300 games at 100 ms a move gave
    /// 129-37-134 (49.2%); NTest at depth 18 and 200 ms a move scored 49.5%
    /// in 200 games against it (50.8% before).
    ///
    /// Turned on whenever the root side is behind (from the 4-ply
    /// iteration), it also ranked a sure loss by 6 above a line the
    /// evaluation puts at -20, which [`WIN`] ranks the other way: on the
    /// 160 positions of `data/endgame-choices-23-26.json` at 400 ms a move
    /// the lost ones then gave away 0.47-0.53 discs a move instead of
    /// 1.63-1.84 (with it only once all is lost, 0.94-1.84 in seven runs),
    /// but it lost games: against the engine without it, 600 games at
    /// 100 ms a move gave 255-65-280 (47.9%) though 1.3-1.6 discs a game
    /// better, and NTest scored 52.0% in 200 games. A line the evaluation
    /// merely expects to lose still wins games that a sure small loss does
    /// not.
    pub(super) hope: bool,
    /// The selectivity of the endgame solves: 0 for exact ones, else the
    /// level of the selective solve under way ([`SELECTIVE_LEVELS`](super::SELECTIVE_LEVELS)).
    pub(super) selectivity: u32,
    /// Helper threads the endgame solver shares its subtrees with.
    pub(super) pool: Option<&'a Pool>,
    pub(super) _board: std::marker::PhantomData<B>,
}

impl<'a, B: Endgame, E: Evaluator<B>> Search<'a, B, E> {
    /// A search for boards of side `n` using `tt`, `eval` and `limits`.
    pub fn new(n: usize, tt: &'a TranspositionTable, eval: &'a E, limits: &'a Limits) -> Self {
        Search {
            tt,
            eval,
            limits,
            square_value: square_values(n),
            square_classes: square_classes(n),
            most: to_table((n * n) as i32),
            reply_order_depth: if n == 8 { 2 } else { 3 },
            reduce_late_moves: n == 8,
            lists: Vec::new(),
            nodes: 0,
            clock: ClockPoll::new(poll_interval(n), 0),
            stopped: false,
            all_exact: false,
            probcut: Some(PROBCUT_T),
            partial: None,
            hope: false,
            selectivity: 0,
            pool: None,
            _board: std::marker::PhantomData,
        }
    }

    /// With `on`, every root move is searched with the full window, so that
    /// each gets its own exact score (analysis), not just a bound.
    pub fn set_all_exact(&mut self, on: bool) {
        self.all_exact = on;
    }

    /// With `Some(t)` (by default [`PROBCUT_T`]), null-window nodes whose
    /// shallow search lies more than `t` standard deviations of its error
    /// outside the window are cut (ProbCut); with `None`, every line is
    /// searched to its full depth (to measure what ProbCut predicts).
    pub fn set_probcut(&mut self, t: Option<f64>) {
        self.probcut = t;
    }

    /// Nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The value of `board` searched to exactly `depth` plies with the full
    /// window (no iterative deepening); `None` if a limit stopped it.
    pub fn value_at(&mut self, board: &B, depth: i32) -> Option<i32> {
        self.tt.new_search();
        let state = self.eval.state(board);
        let score = self.negamax(board, &state, depth, -INFINITY, INFINITY, 0);
        (!self.stopped).then_some(score)
    }

    /// The root moves in search order (the table's move first), with no
    /// score yet.
    pub(super) fn root_moves(&mut self, board: &B) -> Vec<RootMove> {
        let moves = board.moves();
        assert!(!moves.is_empty(), "search needs a legal move");
        let tt_move = self.tt.probe(board.hash_key()).and_then(|h| h.mv);
        let state = self.eval.state(board);
        self.order_moves(board, &state, moves, tt_move, 0, 3, false);
        self.lists[0]
            .iter()
            .map(|&(_, sq)| RootMove {
                sq,
                score: -INFINITY,
            })
            .collect()
    }

    /// Searches every root move at `depth` in the window; sorts `roots`
    /// best first. `None` if the search was stopped before it finished.
    pub(super) fn root(
        &mut self,
        board: &B,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        roots: &mut [RootMove],
    ) -> Option<i32> {
        let alpha0 = alpha;
        let mut best = -INFINITY;
        let state = self.eval.state(board);
        for i in 0..roots.len() {
            let child = board.play(roots[i].sq);
            let cs = self.eval.play(&state, board, roots[i].sq, &child);
            let score = if self.all_exact {
                -self.negamax(&child, &cs, depth - 1, -INFINITY, INFINITY, 1)
            } else if i == 0 {
                -self.negamax(&child, &cs, depth - 1, -beta, -alpha, 1)
            } else {
                let s = -self.negamax(&child, &cs, depth - 1, -alpha - 1, -alpha, 1);
                if s > alpha && s < beta {
                    -self.negamax(&child, &cs, depth - 1, -beta, -alpha, 1)
                } else {
                    s
                }
            };
            if self.stopped {
                return None;
            }
            // Moves that fail low keep an upper bound as their score, so
            // they sort behind every move that was searched exactly.
            roots[i].score = score;
            if score > best {
                // Only a move that beats the best so far counts: one that
                // fails low as the first did has just another bound.
                if i > 0 && score > alpha {
                    self.partial = Some(roots[i].sq);
                }
                best = score;
                roots[..=i].rotate_right(1);
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        if self.all_exact {
            roots.sort_by_key(|r| std::cmp::Reverse(r.score));
        }
        let bound = Bound::of(best, alpha0, beta);
        let depth = depth - self.selectivity as i32;
        self.tt
            .store(board.hash_key(), depth, best, bound, Some(roots[0].sq));
        Some(best)
    }

    /// Negamax with alpha-beta, PVS and the table. Returns 0 once stopped
    /// (callers check `self.stopped`).
    fn negamax(
        &mut self,
        board: &B,
        state: &E::State,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        self.nodes += 1;
        if self.clock.due(self.nodes) && self.limits.must_stop() {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        // No line scores more than winning every square: a window beyond
        // that (a wipe-out proven elsewhere) fails at once. Without this,
        // once one root move of FFO #59 proved the wipe-out at 17 plies,
        // every other one was searched to 16 plies against it (103 M
        // nodes, ProbCut off at such windows), too far from the end for
        // the solver to take over.
        if alpha >= self.most {
            return alpha;
        }
        if beta <= -self.most {
            return beta;
        }
        let moves = board.moves();
        if moves.is_empty() {
            let passed = board.pass();
            if passed.moves().is_empty() {
                // With hope, a lost game is worth its discs on the
                // evaluation's scale: a sure loss by 6 ranks above a line
                // the evaluation puts at -20.
                let discs = board.final_score();
                return if self.hope && root_loses(discs, ply) {
                    discs * DISC
                } else {
                    to_table(discs)
                };
            }
            return -self.negamax(
                &passed,
                &self.eval.pass(state),
                depth,
                -beta,
                -alpha,
                ply + 1,
            );
        }
        if depth <= 0 {
            return self.eval.value(state, board, moves);
        }
        let empties = board.empties().count() as i32;
        // A window beyond the heuristic range asks whether a forced finish
        // beats a proven one. The midgame search can only answer by taking
        // every line to its full depth, with no ProbCut at such windows
        // (FFO #59 by iterative deepening: past two minutes at 22 plies);
        // the solver, with its stability cutoffs, in a fraction of a
        // second. It gets them from half the empties on: at shallower
        // depths the midgame proof is the cheaper one (a 2-ply iteration at
        // 36 empties took 10.8 M nodes when the solver had them).
        let finished_window = alpha >= WIN / 2 || beta <= -WIN / 2;
        let proof = finished_window && 2 * depth >= empties;
        if (depth >= empties || proof)
            && let Some(solved) = board.solve_exact(
                self.tt,
                self.limits,
                alpha,
                beta,
                self.selectivity,
                self.pool,
            )
        {
            self.nodes += solved.nodes;
            if solved.stopped {
                self.stopped = true;
                return 0;
            }
            return solved.score;
        }

        let tt_key = (depth >= TT_MIN_DEPTH).then(|| board.hash_key());
        let mut tt_move = None;
        if let Some(key) = tt_key
            && let Some(hit) = self.tt.probe(key)
        {
            tt_move = hit.mv.filter(|&m| moves.contains(m));
            if hit.depth >= depth
                && let Some(score) = hit.cutoff(alpha, beta)
                && !(self.hope && forced_finish(score) && root_loses(score, ply))
            {
                return score;
            }
        }

        if beta - alpha == 1
            && let Some(cut) = self.probcut(board, state, moves, depth, alpha, ply)
        {
            return cut;
        }
        if depth == 1 {
            return self.frontier(board, state, moves, alpha, beta, ply);
        }

        let alpha0 = alpha;
        let mut best = -INFINITY;
        let mut best_move = 0;
        // The table move first, and the others ordered (which plays each of
        // them) only once it has failed to cut: when it cuts, their order
        // is never needed. The ordered list starts with the table move too.
        let unordered = usize::from(tt_move.is_some());
        for i in 0.. {
            if i == unordered {
                self.order_moves(board, state, moves, tt_move, ply, depth, !finished_window);
            }
            // Deeper plies use their own lists, so this one stays intact.
            let sq = match tt_move {
                Some(sq) if i == 0 => sq,
                _ => match self.lists[ply].get(i) {
                    Some(&(_, sq)) => sq,
                    None => break,
                },
            };
            let child = board.play(sq);
            let cs = self.eval.play(state, board, sq, &child);
            let score = if i == 0 {
                -self.negamax(&child, &cs, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let reducible = self.reduce_late_moves && beta - alpha == 1 && !finished_window;
                let reduced = late_move_reduction(depth, i, reducible);
                let mut s = -self.negamax(
                    &child,
                    &cs,
                    depth - 1 - reduced,
                    -alpha - 1,
                    -alpha,
                    ply + 1,
                );
                if reduced > 0 && s > alpha && !self.stopped {
                    s = -self.negamax(&child, &cs, depth - 1, -alpha - 1, -alpha, ply + 1);
                }
                if s > alpha && s < beta {
                    -self.negamax(&child, &cs, depth - 1, -beta, -alpha, ply + 1)
                } else {
                    s
                }
            };
            if self.stopped {
                return 0;
            }
            if score > best {
                best = score;
                best_move = sq;
                if score > alpha {
                    alpha = score;
                    if alpha >= beta {
                        break;
                    }
                }
            }
        }
        let bound = Bound::of(best, alpha0, beta);
        if let Some(key) = tt_key {
            let mv = (bound != Bound::Upper).then_some(best_move);
            self.tt.store(key, depth, best, bound, mv);
        }
        best
    }

    /// A node one ply from the leaves: each move's child is evaluated in
    /// turn until one reaches `beta`. Its children are leaves, whose
    /// values are exact, so no null window or re-search is needed.
    /// Moves are tried by square value, class by class, with no list to
    /// sort. The table is not used here ([`TT_MIN_DEPTH`]).
    fn frontier(
        &mut self,
        board: &B,
        state: &E::State,
        moves: B::Set,
        mut alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        const { assert!(TT_MIN_DEPTH > 1) };
        let mut best = -INFINITY;
        'classes: for c in 0..self.square_classes.len() {
            for sq in (moves & self.square_classes[c]).iter() {
                let child = board.play(sq);
                let cs = self.eval.play(state, board, sq, &child);
                let replies = child.moves();
                let score = if replies.is_empty() {
                    // A pass or the end of the game: as any leaf.
                    let score = -self.negamax(&child, &cs, 0, -beta, -alpha, ply + 1);
                    if self.stopped {
                        return 0;
                    }
                    score
                } else {
                    self.nodes += 1;
                    -self.eval.value(&cs, &child, replies)
                };
                if score > best {
                    best = score;
                    if score > alpha {
                        alpha = score;
                        if alpha >= beta {
                            break 'classes;
                        }
                    }
                }
            }
        }
        best
    }

    /// ProbCut (Buro): a shallow search predicts the deep one, so when the
    /// shallow score lies beyond the null window by more than `t` (see
    /// [`Search::set_probcut`]) standard deviations of the prediction's
    /// error, the deep search would almost surely fail the same way and
    /// the node returns that bound at the shallow search's cost. The
    /// evaluation says how large the error is (measured by `reversi
    /// probcut`). Nodes one ply from the leaves ([`Search::negamax`]) and
    /// two are predicted by the evaluation alone. Only null windows are
    /// cut: `alpha` to `alpha + 1`. Without those two plies' cuts (ProbCut
    /// from 3 plies left), against NTest at depth 14 and 20 ms a move,
    /// 1,000 games of `random:8`, seed 87, played beside them as
    /// `scripts/judge.sh` plays (stop 85): 49.8% where they had 50.0%,
    /// -0.2 +- 2.1 points game by game (both 11.7 ms a move on average;
    /// NTest's 23 ms): the cuts stay.
    ///
    /// Deeper, a shallow search is made only for a cut the evaluation
    /// makes likely (as Edax does): most tries fail, and a failed try is
    /// nodes spent for nothing. The evaluation, with the mean error of a
    /// search of the shallow depth against its own prediction added, must
    /// come within as many deviations of that error of the cut's bound
    /// (as many as the cut asks for, rather than a second setting to tune).
    /// On the bench's middle-game positions at 20 plies this took 32%
    /// fewer nodes (gates of 0.5, 0.75, 1.5 and 2 deviations: 34%, 37%,
    /// 26% and 13% fewer) and about 30% less time (four runs of each, the
    /// two at once: 3.82 s against 5.44 s); 289-81-230 (54.9% +- 3.7, +34
    /// Elo) in 600 games at 100 ms a move against the engine without it
    /// (both 63 ms a move on average, at most 101 ms), and against NTest
    /// at depth 18 and 200 ms a move 54.7% in 300 games where the engine
    /// without it had 53.7% on the same openings (+1.0 +- 5.5 points; ours
    /// 122-125 ms a move on average, at most 194 ms; NTest's 177-216 ms,
    /// at most 5.0 s; stop 69), and 51.0% on 100 more (53.8% +- 4.6 in
    /// all 400, 19 of the wins on NTest's forfeits; ours at most 194 ms a
    /// move there too). At depth 22 and 1 s a move NTest then scored
    /// 41-8-51 against it (55.0% for us, where the head of stop 65 had
    /// 54.0% on the same 100 openings; ours 577-586 ms a move on average,
    /// at most 955 ms; NTest's 1.07-1.14 s, at most 29 s). A gate of 0.75
    /// deviations then scored 55.2% against NTest at depth 18 and 200 ms
    /// in 200 games where this one had 54.8% on the same openings (53.7%
    /// each in the 188 that neither lost on time; ours 122-125 ms a move
    /// on average, at most 195 ms; stop 70): too few to choose by.
    ///
    /// A shallow search may itself cut by ProbCut, to any nesting (Edax
    /// allows two levels). Allowing at most two took the 80 WTHOR
    /// positions of [`EVAL_ORDER_DEPTH`]'s note to 20 plies in 4% more
    /// nodes (38.67 M against 37.19 M; at most three, the same; at most
    /// one, 44% more), and against NTest at depth 14 and 20 ms a move,
    /// 2,000 games of `random:8`, seed 84, played beside the head as
    /// `scripts/judge.sh` plays, it scored 49.6% where the head had 50.5%,
    /// -1.0 +- 1.3 points game by game (both 11.7 ms a move on average;
    /// NTest's 21 ms; stop 84): left out.
    fn probcut(
        &mut self,
        board: &B,
        state: &E::State,
        moves: B::Set,
        depth: i32,
        alpha: i32,
        ply: usize,
    ) -> Option<i32> {
        let beta = alpha + 1;
        let t = self.probcut?;
        if forced_finish(alpha) || forced_finish(beta) {
            return None;
        }
        let empties = board.empties().count();
        let (mean, sigma) = self.eval.probcut_error(depth, empties)?;
        // After the table: boards whose evaluation has none (all but 8x8)
        // never count discs here.
        if wipe_out_risk(board) {
            return None;
        }
        let margin = (sigma as f64 * t) as i32;
        let shallow = probcut_depth(depth);
        // The deep score is about the shallow one plus `mean`.
        let high = beta - mean + margin;
        let low = alpha - mean - margin;
        if shallow == 0 {
            // The evaluation alone: one call answers both sides.
            self.nodes += 1;
            let value = self.eval.value(state, board, moves);
            return if !forced_finish(high) && value >= high {
                Some(beta)
            } else if !forced_finish(low) && value <= low {
                Some(alpha)
            } else {
                None
            };
        }
        // The evaluation's guess at the shallow score: for 1 and 2 plies
        // the measured error is against the evaluation itself; deeper, it
        // is against a shallower search, which stands in for it.
        let (guess_mean, guess_sigma) = self.eval.probcut_error(shallow, empties)?;
        let guess = self.eval.value(state, board, moves) + guess_mean;
        let gate = (guess_sigma as f64 * t) as i32;
        if !forced_finish(high)
            && guess + gate >= high
            && self.negamax(board, state, shallow, high - 1, high, ply) >= high
        {
            return (!self.stopped).then_some(beta);
        }
        if !forced_finish(low)
            && guess - gate <= low
            && self.negamax(board, state, shallow, low, low + 1, ply) <= low
        {
            return (!self.stopped).then_some(alpha);
        }
        None
    }

    /// Fills the move list of `ply` in search order: the table move, then
    /// (where enough depth remains to pay for it) the best evaluation after
    /// the move and fewest opponent replies, then square value. A move
    /// after which the opponent must pass is not evaluated (the evaluation
    /// values a side that has moves); leaving no reply ranks it high anyway.
    /// Without `by_value` (a window that only a finished game can fall in,
    /// where the fewest replies lead to the proof soonest) moves are not
    /// evaluated: FFO #59's wipe-out, proved by a 15-ply iteration, took
    /// 10.3 M nodes with them evaluated, 3.8 M without.
    ///
    /// A history heuristic (each cutting move's square scored by the
    /// square of its depth, for each side, and up to 32-200 ordering
    /// points from it added below 3, 4 or 5 plies left, where the
    /// evaluation does not order or has just begun to) changed the nodes
    /// to 18 and 20 plies on the 80 WTHOR positions of
    /// [`EVAL_ORDER_DEPTH`]'s note by -2.4% to +4.2% (19.41 M and 37.16 M
    /// without; stop 80): the replies and the square values already order
    /// these nodes about as well.
    #[expect(
        clippy::too_many_arguments,
        reason = "the caller's moves and state are passed, not computed again"
    )]
    fn order_moves(
        &mut self,
        board: &B,
        state: &E::State,
        moves: B::Set,
        tt_move: Option<usize>,
        ply: usize,
        depth: i32,
        by_value: bool,
    ) {
        while self.lists.len() <= ply {
            self.lists.push(Vec::new());
        }
        let mut scored = std::mem::take(&mut self.lists[ply]);
        scored.clear();
        for sq in moves.iter() {
            let mut key = self.square_value[sq];
            if Some(sq) == tt_move {
                key = i32::MAX;
            } else if depth >= self.reply_order_depth {
                let child = board.play(sq);
                // Its bucket loads while the other moves are ordered.
                if depth > TT_MIN_DEPTH {
                    self.tt.prefetch(child.hash_key());
                }
                let replies = child.moves();
                key -= replies.count() as i32 * 64;
                if by_value && depth >= EVAL_ORDER_DEPTH && !replies.is_empty() {
                    let cs = self.eval.play(state, board, sq, &child);
                    let value = self.eval.value(&cs, &child, replies);
                    key -= EVAL_ORDER_WEIGHT * value / DISC;
                }
            }
            scored.push((key, sq));
        }
        scored.sort_unstable_by_key(|&(key, _)| std::cmp::Reverse(key));
        self.lists[ply] = scored;
    }
}

/// Whether a finished-game score (or bound) of `sign`'s sign for the side
/// to move `ply` plies from the root is a loss for the side to move at the
/// root.
fn root_loses(sign: i32, ply: usize) -> bool {
    if ply.is_multiple_of(2) {
        sign < 0
    } else {
        sign > 0
    }
}

/// How many plies shallower the `i`-th move (from 0) of a node `depth`
/// plies from the leaves is searched first. Late moves rarely cut once
/// the ordering has put the table's move and the best-valued ones first,
/// so they are tried a ply shallower and searched again to the full depth
/// only if that search says they beat alpha. Only a `reducible` node
/// reduces: a null window that a heuristic score can fall in (in a
/// finished-game proof a wrong guess costs the proof).
fn late_move_reduction(depth: i32, i: usize, reducible: bool) -> i32 {
    i32::from(reducible && depth >= LMR_MIN_DEPTH && i >= LMR_FIRST_MOVE)
}

/// The squares of an n x n board by [`square_values`], best first.
fn square_classes<S: SquareSet>(n: usize) -> Vec<S> {
    let values = square_values(n);
    let mut distinct = values.clone();
    distinct.sort_unstable_by_key(|&v| std::cmp::Reverse(v));
    distinct.dedup();
    distinct
        .iter()
        .map(|&v| {
            (0..n * n)
                .filter(|&sq| values[sq] == v)
                .fold(S::EMPTY, |set, sq| set | S::single(sq))
        })
        .collect()
}

/// Ordering value of every square of an n x n board: corners first, then
/// edges, with the X and C squares next to corners last.
fn square_values(n: usize) -> Vec<i32> {
    let last = n - 1;
    let edge_dist = |x: usize| x.min(last - x);
    (0..n * n)
        .map(|i| {
            let (r, c) = (edge_dist(i / n), edge_dist(i % n));
            match (r.min(c), r.max(c)) {
                (0, 0) => 800,
                (1, 1) => -400,
                (0, 1) => -200,
                (0, _) => 100,
                (1, _) => -60,
                _ => 0,
            }
        })
        .collect()
}
