//! Split points for the exact solver on several threads (Young Brothers
//! Wait, as Edax and Egaroucid solve): once a node's first move has been
//! searched without a cutoff, its other moves may be shared out to idle
//! helper threads, each searching whole subtrees of its own. The node's
//! owner searches moves too and waits for the helpers' last ones, helping
//! meanwhile at the split points under its own; a cutoff found by anyone
//! aborts the others' subtrees.
//!
//! That help matters most on 2 threads, where the only helper's split
//! points would otherwise find no idle thread. Lazy SMP (several threads
//! solving the same position on one table, as the middle game is searched)
//! duplicated most of the work here (docs/research/threads.md).
//!
//! A move is searched on a null window at the split point's alpha of the
//! moment, and again on the full window if it beats it: alpha may have
//! risen meanwhile, so a fail-high is only a lower bound and always gets
//! the second search. An aborted subtree's score is never used: every
//! searcher polls its chain of split points with the clock.

use super::solver::Solver;
use crate::search::limits::Limits;
use crate::search::tt::TranspositionTable;
use crossbeam_channel::{Receiver, Sender, bounded};
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicU64, AtomicUsize, Ordering::SeqCst};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The helper threads of one solve, waiting for split points.
pub struct Pool {
    offers: Sender<Arc<Split>>,
    taken: Receiver<Arc<Split>>,
    /// Helpers waiting for an offer.
    idle: AtomicUsize,
    /// Raised when the solve is over: the helpers go home.
    closed: AtomicBool,
    /// Nodes the helpers searched.
    nodes: AtomicU64,
}

impl Pool {
    /// A pool for `helpers` helper threads.
    pub fn new(helpers: usize) -> Pool {
        let (offers, taken) = bounded(helpers.max(1));
        Pool {
            offers,
            taken,
            idle: AtomicUsize::new(0),
            closed: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
        }
    }

    /// Ends every helper's [`Pool::serve`] once its current work is done.
    pub fn close(&self) {
        self.closed.store(true, SeqCst);
    }

    /// Nodes the helpers have searched so far.
    pub fn nodes(&self) -> u64 {
        self.nodes.load(SeqCst)
    }

    /// Counts a thread among those waiting for an offer (`waiting`), or
    /// takes it out again: a helper between split points, or an owner
    /// waiting for its helpers (offered the split points under its own).
    pub(super) fn count_idle(&self, waiting: bool) {
        if waiting {
            self.idle.fetch_add(1, SeqCst);
        } else {
            self.idle.fetch_sub(1, SeqCst);
        }
    }

    /// Whether a helper waits for work.
    pub(super) fn has_idle(&self) -> bool {
        self.idle.load(SeqCst) > 0
    }

    /// Offers `split` to up to `helpers` idle helpers.
    pub(super) fn offer(&self, split: &Arc<Split>, helpers: usize) {
        for _ in 0..helpers.min(self.idle.load(SeqCst)) {
            if self.offers.try_send(split.clone()).is_err() {
                break;
            }
        }
    }

    /// An offered split point that lies under `owned`, for its owner to
    /// help with while it waits for its helpers ("helpful master"): on 2
    /// threads the only helper's own split points would otherwise find no
    /// idle thread. An offer from elsewhere goes back to the helpers (or
    /// is dropped when they are all busy: its owner searches its moves
    /// anyway).
    pub(super) fn take_under(&self, owned: &Split) -> Option<Arc<Split>> {
        let split = self.taken.try_recv().ok()?;
        if split.lies_under(owned) {
            Some(split)
        } else {
            let _ = self.offers.try_send(split);
            None
        }
    }

    /// A helper thread's life: takes offered split points and searches
    /// their moves until the pool is closed or `limits` stop.
    pub fn serve(&self, tt: &TranspositionTable, limits: &Limits) {
        while !self.closed.load(SeqCst) && !limits.must_stop() {
            self.count_idle(true);
            let offer = self.taken.recv_timeout(Duration::from_millis(1));
            self.count_idle(false);
            if let Ok(split) = offer {
                let mut solver = Solver::new(tt, limits);
                solver.join(self, &split);
                self.nodes.fetch_add(solver.nodes(), SeqCst);
            }
        }
    }
}

/// A node whose remaining moves are shared out.
pub(super) struct Split {
    pub p: u64,
    pub o: u64,
    pub empties: u32,
    pub beta: i32,
    pub selectivity: u32,
    /// The moves still to search: (ordering cost, square, flips).
    pub moves: Vec<(i32, u8, u64)>,
    /// The index of the next move to take.
    pub next: AtomicUsize,
    /// The best lower bound found so far: the window's alpha.
    pub alpha: AtomicI32,
    /// The best score and its move.
    pub best: Mutex<(i32, usize)>,
    /// Helpers searching one of its moves.
    pub workers: AtomicUsize,
    /// A cutoff was found, or the owner's own search was abandoned: every
    /// subtree still searched under it is void.
    pub abort: AtomicBool,
    /// The split point the owner searches under, if any: its abort
    /// aborts this one too.
    pub parent: Option<Arc<Split>>,
}

impl Split {
    /// This split point, then the ones it lies under, innermost first.
    fn chain(&self) -> impl Iterator<Item = &Split> {
        std::iter::successors(Some(self), |s| s.parent.as_deref())
    }

    /// Whether this split point or one it lies under was aborted.
    pub fn aborted(&self) -> bool {
        self.chain().any(|s| s.abort.load(SeqCst))
    }

    /// Whether `ancestor` is on this split point's chain of parents.
    fn lies_under(&self, ancestor: &Split) -> bool {
        self.chain().skip(1).any(|s| std::ptr::eq(s, ancestor))
    }

    /// Records a move's fail-soft `score`; true when it cuts the node.
    pub fn record(&self, score: i32, sq: usize) -> bool {
        let mut best = self.best.lock().expect("no searcher panics");
        if score > best.0 {
            *best = (score, sq);
            self.alpha.fetch_max(score, SeqCst);
            if score >= self.beta {
                self.abort.store(true, SeqCst);
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Bitboard, Board, SquareSet};
    use crate::search::limits::StopSignal;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Positions of random games with `empties` empty squares and a move
    /// to play.
    fn random_positions(count: usize, empties: u32, seed: u64) -> Vec<Bitboard> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        while out.len() < count {
            let mut b = Bitboard::START;
            while Board::empties(&b).count() > empties {
                let moves: Vec<usize> = Board::moves(&b).iter().collect();
                if moves.is_empty() {
                    if Board::moves(&b.pass()).is_empty() {
                        break;
                    }
                    b = b.pass();
                } else {
                    b = Board::play(&b, moves[rng.random_range(0..moves.len())]);
                }
            }
            if Board::empties(&b).count() == empties && !Board::moves(&b).is_empty() {
                out.push(b);
            }
        }
        out
    }

    /// Solves `board` on the calling thread with `helpers` helper threads
    /// serving its split points; the score and the helpers' nodes.
    fn solve_with(board: &Bitboard, helpers: usize, limits: &Limits) -> (i32, bool, u64) {
        let tt = TranspositionTable::new(16);
        let pool = Pool::new(helpers);
        std::thread::scope(|scope| {
            for _ in 0..helpers {
                scope.spawn(|| pool.serve(&tt, limits));
            }
            let mut solver = Solver::new(&tt, limits);
            solver.set_pool(Some(&pool));
            let score = solver.solve(board, -64, 64);
            pool.close();
            (score, solver.stopped(), pool.nodes())
        })
    }

    #[test]
    fn split_points_give_the_single_thread_scores() {
        let limits = Limits::unlimited();
        let mut helped = 0;
        for (i, board) in random_positions(12, 16, 7).iter().enumerate() {
            let tt = TranspositionTable::new(16);
            let want = Solver::new(&tt, &limits).solve(board, -64, 64);
            for helpers in [1, 3] {
                let (score, stopped, nodes) = solve_with(board, helpers, &limits);
                assert!(!stopped);
                assert_eq!(score, want, "position {i} with {helpers} helpers");
                helped += nodes;
            }
        }
        assert!(helped > 0, "no split point was shared");
    }

    #[test]
    fn a_stopped_split_search_ends_every_helper() {
        // Stopped after 0-20 ms: the scope joins every helper, so the
        // solve returning is the proof that none outlives it. A solve that
        // finished first must have its exact score.
        let mut rng = ChaCha8Rng::seed_from_u64(11);
        for board in random_positions(6, 20, 3) {
            let signal = StopSignal::new();
            let limits = Limits {
                stop: signal.token(),
                ..Limits::unlimited()
            };
            let wait = Duration::from_millis(rng.random_range(0..20));
            let stopper = std::thread::spawn(move || {
                std::thread::sleep(wait);
                signal.raise();
            });
            let (score, stopped, _) = solve_with(&board, 2, &limits);
            stopper.join().unwrap();
            if !stopped {
                let tt = TranspositionTable::new(16);
                let free = Limits::unlimited();
                assert_eq!(score, Solver::new(&tt, &free).solve(&board, -64, 64));
            }
        }
    }
}
