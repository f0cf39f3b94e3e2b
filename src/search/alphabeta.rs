//! The midgame node search, written once for every [`Board`]:
//! negamax principal-variation search with a transposition table, run
//! iteration by iteration by [`super::deepening`]. The settings are in
//! [`super::tunables`]; what chose them is in
//! `docs/research/selectivity.md`.
//!
//! How it is built:
//! - The hard limit and the stop token are polled every [`poll_interval`]
//!   nodes and abandon the iteration in progress; iterative deepening
//!   keeps the last finished iteration's answer and fills the table so
//!   that each deeper iteration tries the best move first.
//! - PVS searches the first (best-ordered) move with the full window and
//!   the rest with a null window, re-searching only moves that beat alpha.
//!   Ordering: the table move, then (with enough depth left) the
//!   evaluation after each move, moves that leave the opponent fewest
//!   replies, and square quality.
//! - A pass does not use up depth; a finished game scores the exact disc
//!   difference plus [`WIN`] so that any win beats any heuristic score;
//!   once every root move is proven lost, the root side's losses count
//!   their discs alone ([`Search::rank_losses_by_discs`]).
//! - A node one ply from the leaves evaluates its children itself
//!   ([`Search::frontier`]): leaf values are exact, so no re-search.
//! - The evaluation's reading of a position ([`Evaluator::State`]) goes
//!   down the search path with the board: each child's is its parent's
//!   updated for the move (a few vector additions where reading the board
//!   is 92 bit extractions).
//! - ProbCut where the evaluation has measured its margins
//!   ([`Search::probcut`]), and late move reductions on 8x8
//!   ([`late_move_reduction`]).
//! - No enhanced transposition cutoff (the solver has one): the table
//!   move, tried first, is most often already the child that would cut.

use super::endgame::{Endgame, Pool};
use super::eval::{Evaluator, probcut_depth};
use super::limits::{ClockPoll, Limits};
use super::score::{DISC, INFINITY, WIN, forced_finish, to_table};
use super::tt::{Bound, TranspositionTable};
use super::tunables::{
    EVAL_ORDER_DEPTH, EVAL_ORDER_WEIGHT, LMR_FIRST_MOVE, LMR_MIN_DEPTH, PROBCUT_DEVIATIONS,
    REPLY_ORDER_WEIGHT, TT_MIN_DEPTH, WIPE_OUT_DISCS, WIPE_OUT_RATIO, reply_order_depth,
};
use crate::rules::{Board, SquareSet};
use std::ops::ControlFlow;
use std::time::Duration;

/// Whether one side of `board` has so few discs against the other's that
/// a wipe-out may lie a few plies ahead ([`WIPE_OUT_DISCS`]).
fn wipe_out_risk<B: Board>(board: &B) -> bool {
    let (mine, yours) = (board.player().count(), board.opponent().count());
    let (few, many) = (mine.min(yours), mine.max(yours));
    few <= WIPE_OUT_DISCS && many >= WIPE_OUT_RATIO * few
}

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
    pub(super) max_score: i32,
    /// Remaining depth from which moves are ordered by the opponent's
    /// replies ([`reply_order_depth`]).
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
    pub(super) better_root_move: Option<usize>,
    /// Whether the root side's losses are ranked by discs alone, as Edax's
    /// search ranks every line: set once every root move is proven lost
    /// ([`Search::rank_losses_if_lost`]), or from the start when the table
    /// proves the root lost. A lost game then scores its disc difference
    /// without [`WIN`], and the table's bounds that prove such a loss do
    /// not cut. Without it the moves tie at "lost" and the first tried is
    /// played (the test
    /// `moves_the_table_proves_lost_are_ranked_by_what_they_lose`). Only
    /// once all is lost: a line the evaluation merely expects to lose
    /// still wins games that a sure small loss does not.
    pub(super) rank_losses_by_discs: bool,
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
            max_score: to_table((n * n) as i32),
            reply_order_depth: reply_order_depth(n),
            reduce_late_moves: n == 8,
            lists: Vec::new(),
            nodes: 0,
            clock: ClockPoll::new(poll_interval(n), 0),
            stopped: false,
            all_exact: false,
            probcut: Some(PROBCUT_DEVIATIONS),
            better_root_move: None,
            rank_losses_by_discs: false,
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

    /// With `Some(t)` (by default [`PROBCUT_DEVIATIONS`]), null-window nodes whose
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
        let roots: Vec<RootMove> = self.lists[0]
            .iter()
            .filter(|(_, sq)| !self.limits.excluded.contains(sq))
            .map(|&(_, sq)| RootMove {
                sq,
                score: -INFINITY,
            })
            .collect();
        assert!(!roots.is_empty(), "search needs a move it may play");
        roots
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
                    self.better_root_move = Some(roots[i].sq);
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
    /// (callers check `self.stopped`). In order: the clock, a window past
    /// any score, a pass or the end of the game, the leaves, the solver
    /// near the end, the table, ProbCut, the frontier, and the moves.
    fn negamax(
        &mut self,
        board: &B,
        state: &E::State,
        depth: i32,
        alpha: i32,
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
        // that (a wipe-out proven elsewhere) fails at once instead of
        // searching every other move to its full depth against it.
        if alpha >= self.max_score {
            return alpha;
        }
        if beta <= -self.max_score {
            return beta;
        }
        let moves = board.moves();
        if moves.is_empty() {
            return self.no_move(board, state, depth, alpha, beta, ply);
        }
        if depth <= 0 {
            return self.eval.value(state, board, moves);
        }
        if let Some(score) = self.solve_near_the_end(board, depth, alpha, beta) {
            return score;
        }
        let tt_key = (depth >= TT_MIN_DEPTH).then(|| board.hash_key());
        let tt_move = match self.probe(tt_key, moves, depth, (alpha, beta), ply) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(mv) => mv,
        };
        if beta - alpha == 1
            && let Some(cut) = self.probcut(board, state, moves, depth, alpha, ply)
        {
            return cut;
        }
        if depth == 1 {
            return self.frontier(board, state, moves, alpha, beta, ply);
        }
        let Some((best, best_move)) =
            self.search_moves(board, state, moves, tt_move, depth, (alpha, beta), ply)
        else {
            return 0;
        };
        let bound = Bound::of(best, alpha, beta);
        if let Some(key) = tt_key {
            let mv = (bound != Bound::Upper).then_some(best_move);
            self.tt.store(key, depth, best, bound, mv);
        }
        best
    }

    /// A node whose side to move has no move: the end of the game, or a
    /// pass (which uses up no depth).
    fn no_move(
        &mut self,
        board: &B,
        state: &E::State,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        let passed = board.pass();
        if passed.moves().is_empty() {
            // Ranked by discs, a lost game is worth its discs on the
            // evaluation's scale: a sure loss by 6 ranks above a line the
            // evaluation puts at -20.
            let discs = board.final_score();
            return if self.rank_losses_by_discs && root_loses(discs, ply) {
                discs * DISC
            } else {
                to_table(discs)
            };
        }
        -self.negamax(
            &passed,
            &self.eval.pass(state),
            depth,
            -beta,
            -alpha,
            ply + 1,
        )
    }

    /// The exact score from the solver, when the depth reaches the end of
    /// the game or the window asks for a proof it gives sooner; `Some(0)`
    /// with `stopped` raised when it was stopped.
    ///
    /// A window beyond the heuristic range asks whether a forced finish
    /// beats a proven one. The midgame search can only answer by taking
    /// every line to its full depth, with no ProbCut at such windows; the
    /// solver, with its stability cutoffs, answers far sooner. It gets
    /// them from half the empties on: closer to the root the midgame proof
    /// is the cheaper one.
    fn solve_near_the_end(&mut self, board: &B, depth: i32, alpha: i32, beta: i32) -> Option<i32> {
        let empties = board.empties().count() as i32;
        let proof = finished_window(alpha, beta) && 2 * depth >= empties;
        if depth < empties && !proof {
            return None;
        }
        let solved = board.solve_exact(
            self.tt,
            self.limits,
            alpha,
            beta,
            self.selectivity,
            self.pool,
        )?;
        self.nodes += solved.nodes;
        if solved.stopped {
            self.stopped = true;
            return Some(0);
        }
        Some(solved.score)
    }

    /// The table's entry for `key` (`None` below [`TT_MIN_DEPTH`]): a
    /// bound that settles the node, or the move to try first.
    fn probe(
        &mut self,
        key: Option<u64>,
        moves: B::Set,
        depth: i32,
        (alpha, beta): (i32, i32),
        ply: usize,
    ) -> ControlFlow<i32, Option<usize>> {
        let Some(hit) = key.and_then(|k| self.tt.probe(k)) else {
            return ControlFlow::Continue(None);
        };
        if hit.depth >= depth
            && let Some(score) = hit.cutoff(alpha, beta)
            && !(self.rank_losses_by_discs && forced_finish(score) && root_loses(score, ply))
        {
            return ControlFlow::Break(score);
        }
        ControlFlow::Continue(hit.mv.filter(|&m| moves.contains(m)))
    }

    /// Every move of a node in search order, PVS with late move
    /// reductions: the best score and its move, `None` once stopped. The
    /// table move goes first, and the others are ordered (which plays each
    /// of them) only once it has failed to cut: when it cuts, their order
    /// is never needed.
    #[expect(
        clippy::too_many_arguments,
        reason = "the node's moves, state and table move are passed, not computed again"
    )]
    fn search_moves(
        &mut self,
        board: &B,
        state: &E::State,
        moves: B::Set,
        tt_move: Option<usize>,
        depth: i32,
        (mut alpha, beta): (i32, i32),
        ply: usize,
    ) -> Option<(i32, usize)> {
        let finished = finished_window(alpha, beta);
        let mut best = -INFINITY;
        let mut best_move = 0;
        // The ordered list starts with the table move too.
        let unordered = usize::from(tt_move.is_some());
        for i in 0.. {
            if i == unordered {
                self.order_moves(board, state, moves, tt_move, ply, depth, !finished);
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
                let reducible = self.reduce_late_moves && beta - alpha == 1 && !finished;
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
                return None;
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
        Some((best, best_move))
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
    /// probcut`). Nodes one and two plies from the leaves are predicted by
    /// the evaluation alone. Only null windows are cut.
    ///
    /// Deeper, a shallow search is made only for a cut the evaluation makes
    /// likely (as Edax does): most tries fail, and a failed try is nodes
    /// spent for nothing. The evaluation, with the mean error of a search
    /// of the shallow depth added, must come within as many deviations of
    /// that error of the cut's bound as the cut asks for. A shallow search
    /// does not itself cut by ProbCut here (Edax nests two levels): nesting
    /// took more nodes. Nodes where a side may be wiped out are never cut
    /// ([`wipe_out_risk`]).
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
    /// evaluated. No history heuristic: the replies and the square values
    /// already order these nodes about as well.
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
                key -= replies.count() as i32 * REPLY_ORDER_WEIGHT;
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

/// Whether a window lies beyond every heuristic score: only a finished
/// game can fall in it.
fn finished_window(alpha: i32, beta: i32) -> bool {
    alpha >= WIN / 2 || beta <= -WIN / 2
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
