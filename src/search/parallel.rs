//! The search on several threads: Lazy SMP in the middle game, split
//! points in the exact solver. Helper threads search the same root at the
//! same time, each its own iterative deepening, and share only the
//! transposition table; once a helper's next iteration would be the exact
//! solve, it serves the main thread's solver instead: a solver node whose
//! first move did not cut shares its other moves out to idle helpers
//! (Young Brothers Wait, see `endgame/split.rs`). The answer is
//! the deepest finished iteration of any thread.
//!
//! Why Lazy SMP in the middle game rather than split points:
//! - it needs nothing from the node search but a table that threads can
//!   share (lock-free slots, see [`super::tt`]), so a single thread runs
//!   exactly the code it ran before and the `bench` node counts stay;
//! - odd helpers deepen two plies at a time (2, 4, 6, ...), so they run
//!   ahead of the main thread instead of in step with it: a helper that
//!   searches the main thread's depth at the same moment only doubles
//!   the nodes (measured: no gain at all), while one that is ahead fills
//!   the table with the cutoffs and best moves of the main thread's next
//!   iteration, or finishes the target depth first;
//! - a helper's finished iteration deeper than the main thread's last is
//!   the answer, and a helper that finishes the deepest iteration the
//!   limits allow ends the search at once;
//! - stop is what it was: every helper polls a child of the search's stop
//!   token ([`StopToken::child`](super::StopToken::child)), raised when
//!   the main thread returns, so no helper outlives its search.
//!
//! Why split points in the solver: there Lazy SMP duplicated most of the
//! work (each helper solved the same position again), and the exact solve
//! has no deeper iteration for a helper to run ahead to.
//!
//! On larger machines (not measured here: this machine kind has 2 cores):
//! - the table is the only state the middle-game threads share. A probe or
//!   store touches one 64-byte bucket with plain atomic loads and stores,
//!   no lock and no read-modify-write, so threads never wait on each
//!   other; what grows with the thread count is cache-line traffic on the
//!   buckets near the root, and the table filling faster (give it more
//!   `hash` with more threads);
//! - middle-game helpers duplicate much of each other's work, so each
//!   added thread gains less (even helpers deepen one ply at a time like
//!   the main thread, odd ones two: beyond 2 threads the mix is untested);
//! - in the solver, a split point is offered only while a helper is idle,
//!   at nodes of 12 empties or more; a thread that waits for its split
//!   point's last moves counts as idle for the split points under its own
//!   and helps there ("helpful master"), but not elsewhere: with many
//!   threads, owners waiting and the offers' channel are what to watch.
//!
//! What 2 threads gain here, and what to measure on a larger machine:
//! `docs/research/threads.md`.

use super::Iteration;
use super::alphabeta::Search;
use super::endgame::{Endgame, Pool, SOLVER_JUMP};
use super::eval::Evaluator;
use super::limits::Limits;
use super::score::{INFINITY, proven_discs};
use super::tunables::{ASPIRATION_HALF_WIDTH, ASPIRATION_MIN_DEPTH};
use crate::rules::SquareSet;
use std::time::Instant;

/// The deepest iteration any helper has finished: (depth, best move,
/// score, exact).
type Finished = std::sync::Mutex<Option<(u32, usize, i32, bool)>>;

impl<'a, B: Endgame + Sync, E: Evaluator<B> + Sync> Search<'a, B, E> {
    /// [`Search::run`] with `helpers` more threads searching beside it
    /// (none: exactly [`Search::run`]). The answer is the main thread's
    /// last iteration, or a helper's if that went deeper; a helper that
    /// finishes the deepest iteration the limits allow (or, on boards
    /// without a solver, the last one) ends the search. The node count is
    /// everyone's.
    pub fn run_parallel(
        &mut self,
        board: &B,
        helpers: usize,
        report: impl FnMut(&Iteration),
    ) -> Iteration {
        if helpers == 0 || self.all_exact {
            return self.run(board, report);
        }
        self.tt.new_search();
        let main_limits = Limits {
            stop: self.limits.stop.child(),
            ..self.limits.clone()
        };
        let done = main_limits.stop.child();
        let helper_limits = Limits {
            stop: done.clone(),
            ..self.limits.clone()
        };
        let finished = Finished::default();
        let pool = Pool::new(helpers);
        let mut main = self.helper(&main_limits);
        main.pool = Some(&pool);
        let mut last = std::thread::scope(|scope| {
            let handles: Vec<_> = (1..=helpers)
                .map(|k| {
                    let mut helper = self.helper(&helper_limits);
                    let (finished, main_stop, pool) = (&finished, &main_limits.stop, &pool);
                    scope.spawn(move || {
                        helper.help(board, k, finished, main_stop, pool);
                        helper.nodes
                    })
                })
                .collect();
            let mut last = main.deepen(board, report);
            done.stop();
            pool.close();
            for h in handles {
                last.nodes += h.join().expect("a helper thread does not panic");
            }
            last
        });
        last.nodes += pool.nodes();
        self.nodes += last.nodes;
        // Helpers never solve where the main thread does (they serve its
        // split points), so only a deeper iteration of theirs counts.
        let deeper = finished
            .into_inner()
            .expect("no helper panics")
            .filter(|&(depth, ..)| !last.exact && depth > last.depth);
        if let Some((depth, best, score, exact)) = deeper {
            last.depth = depth;
            last.best = best;
            last.score = score;
            last.exact = exact;
            last.root_scores = Vec::new();
        }
        last
    }

    /// A search with this one's table, evaluation and settings, under
    /// `limits`.
    fn helper<'b>(&self, limits: &'b Limits) -> Search<'b, B, E>
    where
        'a: 'b,
    {
        Search {
            tt: self.tt,
            eval: self.eval,
            limits,
            square_value: self.square_value.clone(),
            square_classes: self.square_classes.clone(),
            max_score: self.max_score,
            reply_order_depth: self.reply_order_depth,
            reduce_late_moves: self.reduce_late_moves,
            lists: Vec::new(),
            nodes: 0,
            clock: self.clock.restarted(),
            stopped: false,
            all_exact: false,
            probcut: self.probcut,
            better_root_move: None,
            rank_losses_by_discs: false,
            selectivity: 0,
            pool: None,
            _board: std::marker::PhantomData,
        }
    }

    /// Helper `k`'s iterative deepening: to the depth limit, or to the end
    /// of the game, or until stopped. Odd helpers deepen two plies at a
    /// time from 2. Each finished iteration is published in `finished`;
    /// the last one possible stops the main thread (`main_stop`). Near
    /// the end, where the main thread goes to the exact solve (see
    /// [`Search::run`]), a helper serves the solver's split points in
    /// `pool` instead of solving the same position again.
    fn help(
        &mut self,
        board: &B,
        k: usize,
        finished: &Finished,
        main_stop: &super::StopToken,
        pool: &Pool,
    ) {
        let start = Instant::now();
        self.rank_losses_if_table_proves_lost(board);
        let mut roots = self.root_moves(board);
        let empties = board.empties().count();
        let max_depth = self.limits.depth.unwrap_or(u32::MAX);
        let mut depth = 1 + (k % 2) as u32;
        let mut guess = 0;
        while depth <= max_depth {
            if B::HAS_SOLVER
                && (depth >= empties
                    || depth + SOLVER_JUMP > empties && self.solve_may_finish(empties, start))
            {
                pool.serve(self.tt, self.limits);
                return;
            }
            let depth_now = depth.min(empties);
            let window = if depth_now >= ASPIRATION_MIN_DEPTH
                && depth_now < empties
                && proven_discs(guess).is_none()
            {
                (guess - ASPIRATION_HALF_WIDTH, guess + ASPIRATION_HALF_WIDTH)
            } else {
                (-INFINITY, INFINITY)
            };
            let Some(score) = self.aspirate(board, depth_now as i32, window, false, &mut roots)
            else {
                return;
            };
            let exact = depth_now >= empties;
            let score = self.reported(score, exact);
            let mut deepest = finished.lock().expect("no helper panics");
            if deepest.is_none_or(|(d, ..)| d < depth_now) {
                *deepest = Some((depth_now, roots[0].sq, score, exact));
            }
            drop(deepest);
            if exact || depth_now >= max_depth {
                // Nothing deeper to search: the main thread's answer is
                // this one.
                main_stop.stop();
                return;
            }
            self.rank_losses_if_lost(score);
            guess = score;
            depth += 1 + (k % 2) as u32;
        }
    }
}
