//! The search on several threads: Lazy SMP. Helper threads search the
//! same root at the same time, each its own iterative deepening, and
//! share only the transposition table; the main thread's iterations give
//! the answer, and find the lines the helpers searched already in the
//! table.
//!
//! Why this design rather than split points (Young Brothers Wait):
//! - it needs nothing from the node search but a table that threads can
//!   share (lock-free slots, see [`super::tt`]), so a single thread runs
//!   exactly the code it ran before and the `bench` node counts stay;
//! - the helpers are diversified by depth (every other helper searches one
//!   ply deeper than its iteration count), so that they are usually
//!   ahead of the main thread and fill the table with the next
//!   iteration's cutoffs and best moves;
//! - stop is what it was: every helper polls a child of the search's stop
//!   token ([`StopToken::child`](super::StopToken::child)), raised when
//!   the main thread returns, so no helper outlives its search.
//!
//! On larger machines (not measured here: this machine kind has 2 cores):
//! - the table is the only shared state. A probe or store touches one
//!   64-byte bucket with plain atomic loads and stores, no lock and no
//!   read-modify-write, so threads never wait on each other; what grows
//!   with the thread count is cache-line traffic on the buckets near the
//!   root, and the table filling faster (give it more `hash` with more
//!   threads: at 32-64 threads the default 64 MB is overwritten within
//!   a second of search);
//! - helpers duplicate much of each other's work, so each added thread
//!   gains less; split points (Young Brothers Wait, as Edax and Egaroucid
//!   use in the endgame) share the work out instead, at the cost of
//!   synchronisation in the node search;
//! - what to measure on such a machine: time to a fixed depth on the
//!   `bench` positions and FFO #40-#59 wall time against 1 thread
//!   (`reversi bench --threads N`, `reversi solve --threads N`), the nodes
//!   per second per thread (memory bandwidth), and a match at equal time
//!   against the same engine on fewer threads.
//!
//! Measured here, 2 threads against 1 (same build, same run): the bench's
//! middle-game positions at depth 14 take the same time (0.245 s; twice
//! the nodes); FFO #40-#49 solve 1.17x faster (19.4 s -> 16.5 s wall).
//! The main thread only gains what the helpers leave in the table; taking
//! a helper's deeper finished iteration, and split points in the solver,
//! are the next steps.

use super::Iteration;
use super::alphabeta::Search;
use super::endgame::{Endgame, SOLVER_JUMP, SOLVER_JUMP_UNLIMITED};
use super::eval::Evaluator;
use super::limits::Limits;
use super::score::{DISC, INFINITY, proven_discs};
use crate::rules::SquareSet;
use std::time::Instant;

impl<'a, B: Endgame + Sync, E: Evaluator<B> + Sync> Search<'a, B, E> {
    /// [`Search::run`] with `helpers` more threads searching beside it
    /// (none: exactly [`Search::run`]); the answer is the main thread's,
    /// its node count everyone's.
    pub fn run_parallel(
        &mut self,
        board: &B,
        helpers: usize,
        report: impl FnMut(&Iteration),
    ) -> Iteration {
        if helpers == 0 {
            return self.run(board, report);
        }
        self.tt.new_search();
        let done = self.limits.stop.child();
        let helper_limits = Limits {
            stop: done.clone(),
            ..self.limits.clone()
        };
        std::thread::scope(|scope| {
            let handles: Vec<_> = (1..=helpers)
                .map(|k| {
                    let mut helper = self.helper(&helper_limits);
                    scope.spawn(move || {
                        helper.help(board, k);
                        helper.nodes
                    })
                })
                .collect();
            let mut last = self.deepen(board, report);
            done.stop();
            for h in handles {
                last.nodes += h.join().expect("a helper thread does not panic");
            }
            last
        })
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
            reply_order_depth: self.reply_order_depth,
            lists: Vec::new(),
            nodes: 0,
            clock: self.clock.restarted(),
            stopped: false,
            all_exact: false,
            probcut: self.probcut,
            partial: None,
            selectivity: 0,
            _board: std::marker::PhantomData,
        }
    }

    /// Helper `k`'s iterative deepening: to the depth limit, or to the end
    /// of the game, or until stopped. Odd helpers run one ply ahead. Near
    /// the end a helper goes to the exact solve where the main thread
    /// does (see [`Search::run`]), so that both solve.
    fn help(&mut self, board: &B, k: usize) {
        let start = Instant::now();
        let mut roots = self.root_moves(board);
        let empties = board.empties().count();
        let max_depth = self.limits.depth.unwrap_or(u32::MAX);
        let jump = if self.limits.hard.is_none() && self.limits.depth.is_none() {
            SOLVER_JUMP_UNLIMITED
        } else {
            SOLVER_JUMP
        };
        let mut depth = 1 + (k % 2) as u32;
        let mut guess = 0;
        while depth <= max_depth {
            if B::HAS_SOLVER && depth + jump > empties && self.solve_may_finish(empties, start) {
                depth = depth.max(empties);
            }
            let depth_now = depth.min(empties);
            let window = if depth_now >= 4 && depth_now < empties && proven_discs(guess).is_none() {
                (guess - DISC / 2, guess + DISC / 2)
            } else {
                (-INFINITY, INFINITY)
            };
            match self.aspirate(board, depth_now as i32, window, false, &mut roots) {
                Some(score) if depth_now < empties => guess = score,
                _ => return,
            }
            depth += 1;
        }
    }
}
