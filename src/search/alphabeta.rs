//! The midgame search, written once for every [`Board`]: iterative
//! deepening over a negamax principal-variation search with a
//! transposition table.
//!
//! Why it is built this way:
//! - Iterative deepening gives an answer at any moment (the best move of
//!   the last finished iteration) and fills the table so that each deeper
//!   iteration tries the best move first. The soft limit stops starting
//!   iterations that could not finish; the hard limit and the stop token
//!   are polled every [`poll_interval`] nodes and abandon the iteration in
//!   progress.
//! - PVS searches the first (best-ordered) move with the full window and
//!   the rest with a null window, re-searching only moves that beat alpha.
//!   That pays off because ordering is good: the table move first, then
//!   moves that leave the opponent fewest replies, then square quality.
//! - A pass does not use up depth; a finished game scores the exact disc
//!   difference plus [`WIN`] so that any win beats any heuristic score.
//! - Aspiration windows around the previous iteration's score narrow the
//!   search; a result outside the window is searched again fully.
//! - ProbCut (where the evaluation has measured its margins): at a
//!   null-window node a search of about a quarter of the depth decides
//!   when it lies far enough outside the window; the depth saved goes into
//!   deeper iterations on the lines that matter.

use super::endgame::{
    Endgame, SELECTIVE_LEVELS, SOLVER_JUMP, SOLVER_JUMP_UNLIMITED, expected_solve_nodes,
};
use super::eval::{DISC, Evaluator, probcut_depth};
use super::limits::{ClockPoll, Limits};
use super::tt::{Bound, TranspositionTable};
use crate::rules::{Board, SquareSet};
use std::time::{Duration, Instant};

/// Added to (or taken from) the score of a finished game, so that a proven
/// win outranks every heuristic evaluation.
pub const WIN: i32 = 1_000_000;
/// Larger than any score.
pub const INFINITY: i32 = 2 * WIN;
/// How many standard deviations of its error a shallow search must lie
/// outside the window for ProbCut to trust it: 1.0 and 2.0 both played
/// even against 1.5 (100 games each at 100 ms a move).
const PROBCUT_T: f64 = 1.5;
/// Nodes between two looks at the clock and the stop token on an n x n
/// board: about every 1,024 nodes on 8x8, more often on larger boards
/// where a node costs more, so that a stop is seen within a millisecond or so.
pub fn poll_interval(n: usize) -> u64 {
    (65_536 / (n * n) as u64).clamp(16, 1024)
}

/// The score of a finished game for the side to move: exact disc
/// difference (empties to the winner) in [`DISC`] units, plus or minus
/// [`WIN`].
pub fn terminal_score<B: Board>(board: &B) -> i32 {
    let diff = board.final_score();
    diff * DISC + diff.signum() * WIN
}

/// The final disc difference a score proves, if it is a finished-game score.
pub fn proven_discs(score: i32) -> Option<i32> {
    (forced_finish(score) || score == 0).then(|| (score - score.signum() * WIN) / DISC)
}

/// Whether a score is that of a finished game (won or lost), which a
/// midgame search returns once every line it kept reaches the end.
fn forced_finish(score: i32) -> bool {
    score.abs() >= WIN / 2
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
struct RootMove {
    sq: usize,
    score: i32,
}

/// A search of one position.
pub struct Search<'a, B: Endgame, E: Evaluator<B>> {
    tt: &'a mut TranspositionTable,
    eval: &'a E,
    limits: &'a Limits,
    /// Value of each square for move ordering.
    square_value: Vec<i32>,
    /// Remaining depth from which moves are ordered by the opponent's
    /// replies (a move generation per move): 2 on 8x8; 3 on the wide
    /// boards, where a move generation costs several times more and the
    /// bench's wide positions reach their depths 2-18% sooner with 3.
    reply_order_depth: i32,
    /// One reusable move list per ply.
    lists: Vec<Vec<(i32, usize)>>,
    nodes: u64,
    clock: ClockPoll,
    stopped: bool,
    all_exact: bool,
    /// Whether null-window nodes may be cut by ProbCut.
    probcut: bool,
    /// A root move that beat the first one in the iteration under way.
    partial: Option<usize>,
    /// The selectivity of the endgame solves: 0 for exact ones, else the
    /// level of the selective solve under way ([`SELECTIVE_LEVELS`]).
    selectivity: u32,
    _board: std::marker::PhantomData<B>,
}

impl<'a, B: Endgame, E: Evaluator<B>> Search<'a, B, E> {
    /// A search for boards of side `n` using `tt`, `eval` and `limits`.
    pub fn new(n: usize, tt: &'a mut TranspositionTable, eval: &'a E, limits: &'a Limits) -> Self {
        Search {
            tt,
            eval,
            limits,
            square_value: square_values(n),
            reply_order_depth: if n == 8 { 2 } else { 3 },
            lists: Vec::new(),
            nodes: 0,
            clock: ClockPoll::new(poll_interval(n), 0),
            stopped: false,
            all_exact: false,
            probcut: true,
            partial: None,
            selectivity: 0,
            _board: std::marker::PhantomData,
        }
    }

    /// With `on`, every root move is searched with the full window, so that
    /// each gets its own exact score (analysis), not just a bound.
    pub fn set_all_exact(&mut self, on: bool) {
        self.all_exact = on;
    }

    /// With `on` (the default), null-window nodes whose shallow search
    /// lies far outside the window are cut (ProbCut); off, every line is
    /// searched to its full depth (to measure what ProbCut predicts).
    pub fn set_probcut(&mut self, on: bool) {
        self.probcut = on;
    }

    /// Nodes visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Runs iterative deepening on `board` (which must have a legal move)
    /// until a limit, calling `report` after each finished iteration.
    /// Returns the last finished iteration, with the whole search's nodes
    /// and time; if even depth 1 could not finish, the best-ordered move
    /// with no score (`None` from `report`'s point of view, and `depth` 0
    /// here).
    pub fn run(&mut self, board: &B, mut report: impl FnMut(&Iteration)) -> Iteration {
        let start = Instant::now();
        self.tt.new_search();
        let moves = board.moves();
        assert!(!moves.is_empty(), "search needs a legal move");
        let tt_move = self.tt.probe(board.hash_key()).and_then(|h| h.mv);
        self.order_moves(board, moves, tt_move, 0, 3);
        let mut roots: Vec<RootMove> = self.lists[0]
            .iter()
            .map(|&(_, sq)| RootMove {
                sq,
                score: -INFINITY,
            })
            .collect();
        let empties = board.empties().count();
        let mut last = Iteration {
            depth: 0,
            best: roots[0].sq,
            score: 0,
            exact: false,
            nodes: 0,
            elapsed: Duration::ZERO,
            root_scores: Vec::new(),
        };
        let max_depth = self.limits.depth.unwrap_or(u32::MAX).max(1);
        let jump = if self.limits.hard.is_none() && self.limits.depth.is_none() {
            SOLVER_JUMP_UNLIMITED
        } else {
            SOLVER_JUMP
        };
        let mut depth = 1;
        // Selective solves still to run before the exact one (the level of
        // the next), and the score of the last one.
        let mut pending_selective = 0;
        let mut selective = None;
        // The times of the last two finished iterations, latest first.
        let mut previous_times = [Duration::ZERO; 2];
        loop {
            let iteration_start = Instant::now();
            self.partial = None;
            if depth >= empties && !self.all_exact && !last.exact && self.limits.hard.is_some() {
                // Against the clock, win/loss/draw first: cheap, and its
                // move stands if the exact search runs out of time.
                if let Some(score) = self.root(board, depth as i32, -1, 1, &mut roots) {
                    last = self.unproved(depth, roots[0].sq, score, start);
                    report(&last);
                } else {
                    break;
                }
            }
            if pending_selective > 0 {
                // A selective solve (see SELECTIVE_LEVELS): its move and
                // guess stand if nothing later finishes.
                // It searches just around the previous one's score, which is
                // usually right.
                let window = selective.map_or((-INFINITY, INFINITY), |g| (g - 1, g + 1));
                self.selectivity = pending_selective;
                let score = self.aspirate(board, depth as i32, window, true, &mut roots);
                self.selectivity = 0;
                let Some(score) = score else { break };
                selective = Some(score);
                last = self.unproved(depth, roots[0].sq, score, start);
                report(&last);
                pending_selective -= 1;
                continue;
            }
            let score = {
                // Exact iterations search the full window: with the table's
                // moves first, the solver's PVS proves the score in one pass
                // cheaper than aspiration re-searches do around a midgame
                // score. A selective solve's score is a better guess.
                let guess = last.score;
                let narrow = depth >= 4 && depth < empties && !self.all_exact;
                // A midgame iteration that found a forced finish names the
                // score to prove: a window just around it proves it far
                // sooner (FFO #59, a wipe-out, needs no full-window solve).
                let proving = depth >= empties
                    && !self.all_exact
                    && (forced_finish(guess) || selective.is_some());
                let window = if narrow && proven_discs(guess).is_none() {
                    (guess - DISC / 2, guess + DISC / 2)
                } else if proving {
                    (guess - 1, guess + 1)
                } else {
                    (-INFINITY, INFINITY)
                };
                self.aspirate(board, depth as i32, window, proving, &mut roots)
            };
            let Some(score) = score else {
                // Stopped: a move that beat the previous best at this depth
                // (searched to the end of its window) is the better answer.
                if let Some(sq) = self.partial {
                    last.best = sq;
                }
                break;
            };
            last = Iteration {
                depth,
                best: roots[0].sq,
                score,
                exact: depth >= empties,
                nodes: self.nodes,
                elapsed: start.elapsed(),
                root_scores: roots.iter().map(|r| (r.sq, r.score)).collect(),
            };
            report(&last);
            if last.exact || depth >= max_depth || !self.limits.may_start_iteration() {
                break;
            }
            // Each iteration costs a few times the one before: do not start
            // one that cannot finish before the hard limit. The growth per
            // ply is taken over two plies where it can: odd and even depths
            // alternate in cost (more so with ProbCut), and one ratio alone
            // gave up at a quarter of the time in the opening.
            let took = iteration_start.elapsed();
            let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
            let growth = match previous_times {
                [_, before] if !before.is_zero() => ratio(took, before).sqrt(),
                [previous, _] if !previous.is_zero() => ratio(took, previous),
                _ => 3.0,
            }
            .clamp(1.5, 6.0);
            previous_times = [took, previous_times[0]];
            if let Some(hard) = self.limits.hard
                && Instant::now() + took.mul_f64(growth) > hard
            {
                break;
            }
            depth += 1;
            // Near the end the solver takes over once it can be expected
            // to finish; once a forced finish shows up, deeper midgame
            // iterations only cost time: the solver goes straight to it.
            if B::HAS_SOLVER
                && (forced_finish(last.score)
                    || (depth + jump > empties && self.solve_may_finish(empties, start)))
            {
                depth = empties.max(depth);
                // With no limit the selective solves come first: they make
                // the exact one cheaper than they cost.
                if jump == SOLVER_JUMP_UNLIMITED && !self.all_exact {
                    pending_selective = SELECTIVE_LEVELS;
                }
            }
        }
        last.nodes = self.nodes;
        last.elapsed = start.elapsed();
        last
    }

    /// Whether a solve of a position with `empties` empties started now can
    /// be expected to finish before the hard limit, at the speed this
    /// search has had so far. Without it, a solve out of reach used up
    /// the time: at 400 ms a move, the moves chosen at 22-24 empties of
    /// 300 held-out WTHOR positions lost 0.80 discs on average against
    /// perfect play; going on with midgame iterations instead, 0.55.
    fn solve_may_finish(&self, empties: u32, start: Instant) -> bool {
        let Some(hard) = self.limits.hard else {
            return true;
        };
        let now = Instant::now();
        let elapsed = now.duration_since(start).as_secs_f64().max(1e-3);
        // The solver visits about 3 nodes in the time the midgame search
        // visits one (38 M and 12 M a second on 8x8 here); the floor is
        // for the first milliseconds, when the rate means little.
        let rate = 3.0 * (self.nodes as f64 / elapsed).max(5e6);
        expected_solve_nodes(empties) / rate < hard.saturating_duration_since(now).as_secs_f64()
    }

    /// The root searched in `window`, widened on the side it fails (by 4
    /// discs, or at once to the full window when `proving` a guessed
    /// finished-game score or past a finished-game bound) until the score
    /// falls inside; `None` if the search was stopped.
    ///
    /// A midgame iteration that fails on a finished-game score, where the
    /// board has a solver, returns that bound as it is: the solver proves
    /// such scores far sooner than a midgame search, which has no ProbCut
    /// at finished-game windows and would search every other root move to
    /// its full depth to beat a forced win (FFO #59 at 22 plies: more than
    /// 15 minutes; the solver proves it in 0.1 s). `negamax` hands such
    /// windows to the solver itself only from half the empties on; below
    /// that, this return is what keeps the iteration short (a WTHOR
    /// position at 32 empties whose 15-ply iteration fails high on a
    /// wipe-out: solved in 12 ms with it, a 1 s move used up without it).
    fn aspirate(
        &mut self,
        board: &B,
        depth: i32,
        mut window: (i32, i32),
        proving: bool,
        roots: &mut [RootMove],
    ) -> Option<i32> {
        let midgame = depth < board.empties().count() as i32;
        loop {
            let score = self.root(board, depth, window.0, window.1, roots)?;
            let failed = score <= window.0 || score >= window.1;
            if B::HAS_SOLVER && midgame && failed && forced_finish(score) {
                return Some(score);
            }
            if score <= window.0 && window.0 > -INFINITY {
                window.0 = (window.0 - 4 * DISC).max(-INFINITY).min(score);
                if window.0 <= -WIN / 2 || proving {
                    window.0 = -INFINITY;
                }
            } else if score >= window.1 && window.1 < INFINITY {
                window.1 = (window.1 + 4 * DISC).min(INFINITY).max(score);
                if window.1 >= WIN / 2 || proving {
                    window.1 = INFINITY;
                }
            } else {
                return Some(score);
            }
        }
    }

    /// An iteration whose score is not the exact value at `depth` (a
    /// win/loss/draw bound, a selective solve's guess): its move stands
    /// until a later iteration finishes.
    fn unproved(&self, depth: u32, best: usize, score: i32, start: Instant) -> Iteration {
        Iteration {
            depth,
            best,
            score,
            exact: false,
            nodes: self.nodes,
            elapsed: start.elapsed(),
            root_scores: Vec::new(),
        }
    }

    /// The value of `board` searched to exactly `depth` plies with the full
    /// window (no iterative deepening); `None` if a limit stopped it.
    pub fn value_at(&mut self, board: &B, depth: i32) -> Option<i32> {
        self.tt.new_search();
        let score = self.negamax(board, depth, -INFINITY, INFINITY, 0);
        (!self.stopped).then_some(score)
    }

    /// Searches every root move at `depth` in the window; sorts `roots`
    /// best first. `None` if the search was stopped before it finished.
    fn root(
        &mut self,
        board: &B,
        depth: i32,
        mut alpha: i32,
        beta: i32,
        roots: &mut [RootMove],
    ) -> Option<i32> {
        let alpha0 = alpha;
        let mut best = -INFINITY;
        for i in 0..roots.len() {
            let child = board.play(roots[i].sq);
            let score = if self.all_exact {
                -self.negamax(&child, depth - 1, -INFINITY, INFINITY, 1)
            } else if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, 1)
            } else {
                let s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, 1);
                if s > alpha && s < beta {
                    -self.negamax(&child, depth - 1, -beta, -alpha, 1)
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
                if i > 0 {
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
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let depth = depth - self.selectivity as i32;
        self.tt
            .store(board.hash_key(), depth, best, bound, Some(roots[0].sq));
        Some(best)
    }

    /// Negamax with alpha-beta, PVS and the table. Returns 0 once stopped
    /// (callers check `self.stopped`).
    fn negamax(&mut self, board: &B, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        if self.clock.due(self.nodes) && self.limits.must_stop() {
            self.stopped = true;
        }
        if self.stopped {
            return 0;
        }
        let moves = board.moves();
        if moves.is_empty() {
            let passed = board.pass();
            if passed.moves().is_empty() {
                return terminal_score(board);
            }
            return -self.negamax(&passed, depth, -beta, -alpha, ply + 1);
        }
        if depth <= 0 {
            return self.eval.evaluate(board, moves);
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
        let proof = (alpha >= WIN / 2 || beta <= -WIN / 2) && 2 * depth >= empties;
        if (depth >= empties || proof)
            && let Some(solved) =
                board.solve_exact(self.tt, self.limits, alpha, beta, self.selectivity)
        {
            self.nodes += solved.nodes;
            if solved.stopped {
                self.stopped = true;
                return 0;
            }
            return solved.score;
        }

        let key = board.hash_key();
        let mut tt_move = None;
        if let Some(hit) = self.tt.probe(key) {
            tt_move = hit.mv.filter(|&m| moves.contains(m));
            if hit.depth >= depth
                && let Some(score) = hit.cutoff(alpha, beta)
            {
                return score;
            }
        }

        if self.probcut
            && beta - alpha == 1
            && let Some(cut) = self.probcut(board, depth, empties, alpha, beta, ply)
        {
            return cut;
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
                self.order_moves(board, moves, tt_move, ply, depth);
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
            let score = if i == 0 {
                -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
            } else {
                let s = -self.negamax(&child, depth - 1, -alpha - 1, -alpha, ply + 1);
                if s > alpha && s < beta {
                    -self.negamax(&child, depth - 1, -beta, -alpha, ply + 1)
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
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let mv = (bound != Bound::Upper).then_some(best_move);
        self.tt.store(key, depth, best, bound, mv);
        best
    }

    /// ProbCut (Buro): a shallow search predicts the deep one, so when the
    /// shallow score lies beyond the null window by more than
    /// [`PROBCUT_T`] standard deviations of the prediction's error, the
    /// deep search would almost surely fail the same way and the node
    /// returns that bound at the shallow search's cost. The evaluation
    /// says how large the error is (measured by `reversi probcut`).
    fn probcut(
        &mut self,
        board: &B,
        depth: i32,
        empties: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> Option<i32> {
        if forced_finish(alpha) || forced_finish(beta) {
            return None;
        }
        let (mean, sigma) = self.eval.probcut_error(depth, empties as u32)?;
        let margin = (sigma as f64 * PROBCUT_T) as i32;
        let shallow = probcut_depth(depth);
        // The deep score is about the shallow one plus `mean`.
        let high = beta - mean + margin;
        if !forced_finish(high) && self.negamax(board, shallow, high - 1, high, ply) >= high {
            return (!self.stopped).then_some(beta);
        }
        let low = alpha - mean - margin;
        if !forced_finish(low) && self.negamax(board, shallow, low, low + 1, ply) <= low {
            return (!self.stopped).then_some(alpha);
        }
        None
    }

    /// Fills the move list of `ply` in search order: the table move, then
    /// (where enough depth remains to pay for it) fewest opponent replies,
    /// then square value.
    fn order_moves(
        &mut self,
        board: &B,
        moves: B::Set,
        tt_move: Option<usize>,
        ply: usize,
        depth: i32,
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
                let replies = board.play(sq).moves().count() as i32;
                key -= replies * 64;
            }
            scored.push((key, sq));
        }
        scored.sort_unstable_by_key(|&(key, _)| std::cmp::Reverse(key));
        self.lists[ply] = scored;
    }
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
