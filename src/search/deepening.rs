//! Iterative deepening over the node search of [`super::alphabeta`]: which
//! iteration comes next (a midgame depth with its aspiration window; near
//! the end, the jump to the solver, with a win/loss/draw solve first
//! against the clock and selective solves first without one) and whether
//! there is time to start it. The answer is always the last finished
//! iteration's.

use super::alphabeta::{Iteration, RootMove, Search};
use super::endgame::{
    DEPTH_LIMIT_SOLVE_SLACK, Endgame, SELECTIVE_LEVELS, SOLVER_JUMP, expected_solve_nodes,
};
use super::eval::Evaluator;
use super::limits::Limits;
use super::score::{DISC, INFINITY, WIN, forced_finish, proven_discs, to_table};
use super::tunables::{ASPIRATION_HALF_WIDTH, ASPIRATION_MIN_DEPTH};
use crate::rules::SquareSet;
use std::time::{Duration, Instant};

/// What comes next in one decision's iterations, and what the past ones
/// tell about the time the next will take.
struct Schedule {
    /// The depth of the next iteration.
    depth: u32,
    empties: u32,
    max_depth: u32,
    /// Neither a time nor a depth limit: the selective solves come first.
    unlimited: bool,
    /// Selective solves still to run before the exact one (the level of
    /// the next), and the score of the last one.
    pending_selective: u32,
    selective: Option<i32>,
    /// The times of the last two finished iterations, latest first.
    previous_times: [Duration; 2],
    all_exact: bool,
}

impl Schedule {
    fn new(limits: &Limits, empties: u32, all_exact: bool) -> Schedule {
        Schedule {
            depth: 1,
            empties,
            max_depth: limits.depth.unwrap_or(u32::MAX).max(1),
            unlimited: limits.hard.is_none() && limits.depth.is_none(),
            pending_selective: 0,
            selective: None,
            previous_times: [Duration::ZERO; 2],
            all_exact,
        }
    }

    /// Whether the next iteration is preceded by a win/loss/draw solve:
    /// against the clock it is cheap, and its move stands if the exact
    /// search runs out of time.
    fn wants_win_loss_draw(&self, last: &Iteration, limits: &Limits) -> bool {
        self.depth >= self.empties && !self.all_exact && !last.exact && limits.hard.is_some()
    }

    /// The level and window of the next selective solve, if one is due:
    /// it searches just around the previous one's score, which is
    /// usually right.
    fn next_selective(&self) -> Option<(u32, (i32, i32))> {
        (self.pending_selective > 0).then(|| {
            let window = self
                .selective
                .map_or((-INFINITY, INFINITY), |g| (g - 1, g + 1));
            (self.pending_selective, window)
        })
    }

    /// Records a finished selective solve's score.
    fn selective_done(&mut self, score: i32) {
        self.selective = Some(score);
        self.pending_selective -= 1;
    }

    /// The window of the next full iteration after a score of `guess`,
    /// and whether it proves a guessed finished-game score.
    ///
    /// Exact iterations search the full window: with the table's moves
    /// first, the solver's PVS proves the score in one pass cheaper than
    /// aspiration re-searches do around a midgame score. A selective
    /// solve's score is a better guess. A midgame iteration that found a
    /// forced finish names the score to prove: a window just around it
    /// proves it far sooner (FFO #59, a wipe-out, needs no full-window
    /// solve).
    ///
    /// The guess is the last iteration's score, although scores swing
    /// between odd and even depths: a guess of the same parity did no
    /// better, nor did other widths (docs/research/selectivity.md).
    fn window(&self, guess: i32) -> ((i32, i32), bool) {
        let narrow =
            self.depth >= ASPIRATION_MIN_DEPTH && self.depth < self.empties && !self.all_exact;
        let proving = self.depth >= self.empties
            && !self.all_exact
            && (forced_finish(guess) || self.selective.is_some());
        let window = if narrow && proven_discs(guess).is_none() {
            (guess - ASPIRATION_HALF_WIDTH, guess + ASPIRATION_HALF_WIDTH)
        } else if proving {
            (guess - 1, guess + 1)
        } else {
            (-INFINITY, INFINITY)
        };
        (window, proving)
    }

    /// Whether an iteration after one that took `took` can be expected to
    /// finish before `hard`.
    ///
    /// Each iteration costs a few times the one before. The growth per ply
    /// is taken over two plies where it can: odd and even depths alternate
    /// in cost (more so with ProbCut), and one ratio alone gave up at a
    /// quarter of the time in the opening.
    fn next_fits(&mut self, took: Duration, hard: Option<Instant>) -> bool {
        let ratio = |a: Duration, b: Duration| a.as_secs_f64() / b.as_secs_f64();
        let growth = match self.previous_times {
            [_, before] if !before.is_zero() => ratio(took, before).sqrt(),
            [previous, _] if !previous.is_zero() => ratio(took, previous),
            _ => 3.0,
        }
        .clamp(1.5, 6.0);
        self.previous_times = [took, self.previous_times[0]];
        hard.is_none_or(|hard| Instant::now() + took.mul_f64(growth) <= hard)
    }

    /// Moves on to the next depth, or straight to the end when
    /// `solver_takes_over` says so for that depth. With no limit the
    /// selective solves then come first: they make the exact one cheaper
    /// than they cost.
    fn advance(&mut self, solver_takes_over: impl FnOnce(u32) -> bool) {
        self.depth += 1;
        if solver_takes_over(self.depth) {
            self.depth = self.empties.max(self.depth);
            if self.unlimited && !self.all_exact {
                self.pending_selective = SELECTIVE_LEVELS;
            }
        }
    }
}

impl<B: Endgame, E: Evaluator<B>> Search<'_, B, E> {
    /// Runs iterative deepening on `board` (which must have a legal move)
    /// until a limit, calling `report` after each finished iteration.
    /// Returns the last finished iteration, with the whole search's nodes
    /// and time; if even depth 1 could not finish, the best-ordered move
    /// with no score (`None` from `report`'s point of view, and `depth` 0
    /// here).
    pub fn run(&mut self, board: &B, report: impl FnMut(&Iteration)) -> Iteration {
        self.tt.new_search();
        self.deepen(board, report)
    }

    /// [`Search::run`] on a table whose search has started.
    pub(super) fn deepen(&mut self, board: &B, mut report: impl FnMut(&Iteration)) -> Iteration {
        let start = Instant::now();
        let mut roots = self.root_moves(board);
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
        let mut plan = Schedule::new(self.limits, empties, self.all_exact);
        self.rank_losses_by_discs = false;
        self.rank_losses_if_table_proves_lost(board);
        loop {
            let iteration_start = Instant::now();
            let depth = plan.depth;
            self.better_root_move = None;
            if plan.wants_win_loss_draw(&last, self.limits) {
                let informed = roots.clone();
                let Some(score) = self.root(board, depth as i32, -1, 1, &mut roots) else {
                    break;
                };
                // A loss at every move ranks none above another: the
                // middle game's order and move stand for the exact solve.
                if score < 0 {
                    roots.copy_from_slice(&informed);
                }
                last = self.unproved(depth, roots[0].sq, score, start);
                report(&last);
            }
            if let Some((level, window)) = plan.next_selective() {
                // A selective solve (see SELECTIVE_LEVELS): its move and
                // guess stand if nothing later finishes.
                self.selectivity = level;
                let score = self.aspirate(board, depth as i32, window, true, &mut roots);
                self.selectivity = 0;
                let Some(score) = score else { break };
                plan.selective_done(score);
                last = self.unproved(depth, roots[0].sq, score, start);
                report(&last);
                continue;
            }
            let (window, proving) = plan.window(last.score);
            let Some(score) = self.aspirate(board, depth as i32, window, proving, &mut roots)
            else {
                // Stopped: a move that beat the previous best at this depth
                // (searched to the end of its window) is the better answer.
                if let Some(sq) = self.better_root_move {
                    last.best = sq;
                }
                break;
            };
            let exact = depth >= empties;
            last = Iteration {
                depth,
                best: roots[0].sq,
                score: self.reported(score, exact),
                exact,
                nodes: self.nodes,
                elapsed: start.elapsed(),
                root_scores: roots
                    .iter()
                    .map(|r| (r.sq, self.reported(r.score, exact)))
                    .collect(),
            };
            report(&last);
            self.rank_losses_if_lost(score);
            if last.exact || depth >= plan.max_depth || !self.limits.may_start_iteration() {
                break;
            }
            // Time that can be saved for later moves (a soft limit short
            // of the hard one) is not spent on an iteration that cannot
            // finish; time that cannot is: a move of the unfinished
            // iteration that beats the last best is still taken.
            let can_save = self.limits.soft < self.limits.hard;
            if !plan.next_fits(iteration_start.elapsed(), self.limits.hard) && can_save {
                break;
            }
            // Near the end the solver takes over once it can be expected
            // to finish; once a forced win shows up, deeper midgame
            // iterations only cost time: the solver goes straight to it (a
            // forced loss turns on ranking losses by discs instead: the
            // losing moves are still to be ranked), unless a depth limit
            // with no clock is all that bounds the search: then a forced
            // finish seen at a few plies would start an exact solve from
            // far from the end with nothing to stop it.
            let bounded_only_by_depth = self.limits.depth.is_some() && self.limits.hard.is_none();
            plan.advance(|next| {
                B::HAS_SOLVER
                    && ((last.score >= WIN / 2 && !bounded_only_by_depth)
                        || (next + SOLVER_JUMP > empties && self.solve_may_finish(empties, start)))
            });
        }
        last.nodes = self.nodes;
        last.elapsed = start.elapsed();
        last
    }

    /// Whether a solve of a position with `empties` empties started now can
    /// be expected to finish before the hard limit, at the speed this
    /// search has had so far: a solve out of reach uses up the time deeper
    /// midgame iterations would have used (docs/research/endgame.md).
    ///
    /// A depth limit `d` allows the exact solve (an iteration as deep as
    /// the game) only from `d` + [`DEPTH_LIMIT_SOLVE_SLACK`] empties, so
    /// that the limit bounds the work of every move, as a GUI's level does.
    pub(super) fn solve_may_finish(&self, empties: u32, start: Instant) -> bool {
        if self
            .limits
            .depth
            .is_some_and(|d| empties > d.saturating_add(DEPTH_LIMIT_SOLVE_SLACK))
        {
            return false;
        }
        let Some(hard) = self.limits.hard else {
            return true;
        };
        let now = Instant::now();
        let elapsed = now.duration_since(start).as_secs_f64().max(1e-3);
        // The solver visits about 3 nodes in the time the midgame search
        // visits one; the floor is for the first milliseconds, when the
        // rate means little.
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
    /// its full depth to beat a forced win. `negamax` hands such windows
    /// to the solver itself only from half the empties on; below that,
    /// this return is what keeps the iteration short.
    ///
    /// A fail low on a proven loss says only that every move loses: the
    /// bounds (most often the table's, from the solve of an earlier move)
    /// cut each move at "lost", in whatever order the moves were tried.
    /// So it turns on [`Search::rank_losses_by_discs`] and the iteration is searched
    /// again, its moves ranked by what each is expected to lose.
    pub(super) fn aspirate(
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
                if score < 0 && !self.rank_losses_by_discs {
                    self.rank_losses_if_lost(score);
                    continue;
                }
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

    /// Turns on [`Search::rank_losses_by_discs`] for the rest of the search once an
    /// iteration scores a proven loss: every root move is then lost.
    pub(super) fn rank_losses_if_lost(&mut self, score: i32) {
        if B::HAS_SOLVER && forced_finish(score) && score < 0 {
            self.rank_losses_by_discs = true;
        }
    }

    /// A score as an iteration reports it. With [`Search::rank_losses_by_discs`] on, a lost
    /// game scores its discs on the evaluation's scale; an exact
    /// iteration's losses are proven, so they are reported as finished
    /// games again (without this, a solved loss by 4 came out as an
    /// evaluation of -4.00 that nothing could tell from a guess).
    pub(super) fn reported(&self, score: i32, exact: bool) -> i32 {
        if self.rank_losses_by_discs && exact && score < 0 && !forced_finish(score) {
            to_table(score / DISC)
        } else {
            score
        }
    }

    /// Turns on [`Search::rank_losses_by_discs`] from the first iteration
    /// when the table already proves the root lost (the win/loss/draw
    /// solve of the move before, or of this position by an earlier
    /// command). Without it the table's proofs only bound the moves they
    /// cover, and a proven loss by 10 ranked below every move not yet
    /// proven, whatever its evaluation.
    pub(super) fn rank_losses_if_table_proves_lost(&mut self, board: &B) {
        if let Some(upper) = self.tt.probe(board.hash_key()).and_then(|hit| hit.upper) {
            self.rank_losses_if_lost(upper);
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
}
