//! The exact solver: a parity search without table or move generation for
//! the last few empties, and above it fastest-first PVS with the table,
//! enhanced transposition cutoffs, the stability cutoff, move ordering by
//! small searches of the pattern evaluation, (in selective solves)
//! ProbCut, and on several threads split points (see `split.rs`).

use super::last::{final_score, solve_one};
use super::split::{Pool, Split};
use super::stability::{corner_stability, stability_cut};
use super::tables::*;
use crate::rules::{Bitboard, Board};
use crate::search::limits::{ClockPoll, Limits};
use crate::search::pattern::{PatternEval, SCALE};
use crate::search::score::{proven_discs, to_table};
use crate::search::tt::{Bound, TranspositionTable};
use crate::search::tunables::endgame::*;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicI32, AtomicUsize, Ordering::SeqCst};

/// Fail-soft bookkeeping of a move's `score`: raises `best` and `alpha`,
/// and says whether the node is cut (alpha has reached `beta`).
#[inline]
pub(super) fn raise(score: i32, best: &mut i32, alpha: &mut i32, beta: i32) -> bool {
    if score > *best {
        *best = score;
        if score > *alpha {
            *alpha = score;
            return score >= beta;
        }
    }
    false
}

/// How promising a move is for the fastest-first ordering (lower first),
/// from the position after it (`np` to move, that is the opponent): its
/// replies, corners counted twice, and its potential mobility (empty
/// squares next to our discs), less a bonus for taking a corner, for
/// each of our discs made stable in the corner regions, and for a square
/// of `odd` (the parity bonus). The corner bonus is a quarter of a reply
/// (the corner counts in the corner regions too). Last, the square's value
/// ([`SQUARE_VALUE`]) breaks ties. The weights' evidence:
/// `docs/research/endgame.md`.
#[inline]
pub(super) fn move_cost(np: u64, no: u64, sq: usize, odd: u64) -> i32 {
    replies_cost(np, no, Bitboard::moves_for(np, no), sq, odd)
}

/// [`move_cost`] for a child whose `replies` are already generated.
#[inline]
fn replies_cost(np: u64, no: u64, replies: u64, sq: usize, odd: u64) -> i32 {
    let empty = !(np | no);
    let potential = (empty & Bitboard::default().neighbours(no)).count_ones() as i32;
    let mut cost = REPLY * (replies.count_ones() + (replies & CORNERS).count_ones()) as i32
        + REPLY / 8 * potential;
    cost -= REPLY / 4 * corner_stability(no) as i32;
    if CORNERS & (1 << sq) != 0 {
        cost -= REPLY / 4;
    }
    if odd & (1 << sq) != 0 {
        cost -= REPLY / 4;
    }
    cost - SQUARE_VALUE[sq] as i32
}

/// The position after `player` plays `sq` flipping `flips`, as (side to
/// move, other side).
#[inline]
pub(super) fn after(player: u64, opponent: u64, sq: usize, flips: u64) -> (u64, u64) {
    (opponent ^ flips, player | flips | (1u64 << sq))
}

/// The table key of the position after `player` plays `sq` flipping
/// `flips`.
#[inline]
pub(super) fn child_key(player: u64, opponent: u64, sq: usize, flips: u64) -> u64 {
    let (player, opponent) = after(player, opponent, sq, flips);
    Bitboard { player, opponent }.hash_key()
}

/// The exact solver with its counters; shares the search's table.
pub struct Solver<'a> {
    eval: &'static PatternEval,
    tt: &'a TranspositionTable,
    limits: &'a Limits,
    pub(super) nodes: u64,
    clock: ClockPoll,
    pub(super) stopped: bool,
    /// 0 for an exact solve; from 1 to [`SELECTIVE_LEVELS`], a selective
    /// one whose ProbCut trusts its shallow searches more the higher the
    /// level (see [`selective_t`]).
    selectivity: u32,
    /// Helper threads that nodes may share their moves with.
    pool: Option<&'a Pool>,
    /// The innermost split point this solver searches a move of: when it
    /// is aborted, so is this search.
    chain: Option<Arc<Split>>,
}

impl<'a> Solver<'a> {
    /// A solver using `tt` and stopping on `limits`.
    pub fn new(tt: &'a TranspositionTable, limits: &'a Limits) -> Solver<'a> {
        Solver {
            eval: PatternEval::builtin(),
            tt,
            limits,
            nodes: 0,
            clock: ClockPoll::new(POLL, POLL),
            stopped: false,
            selectivity: 0,
            pool: None,
            chain: None,
        }
    }

    /// Lets nodes share their moves with the helpers of `pool`.
    pub(crate) fn set_pool(&mut self, pool: Option<&'a Pool>) {
        self.pool = pool;
    }

    /// Makes the next solves selective ones of `level` (1 to
    /// [`SELECTIVE_LEVELS`]; 0: exact).
    pub(super) fn set_selectivity(&mut self, level: u32) {
        self.selectivity = level;
    }

    /// Nodes searched.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Whether a limit stopped the last solve (its result is then void).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    /// The exact score of `board` for the side to move if it lies strictly
    /// inside (alpha, beta); otherwise a bound on the side that failed.
    pub fn solve(&mut self, board: &Bitboard, alpha: i32, beta: i32) -> i32 {
        let (p, o) = (board.player, board.opponent);
        let empties = (!(p | o)).count_ones();
        self.dispatch(p, o, alpha, beta, empties)
    }

    #[inline]
    fn dispatch(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empties: u32) -> i32 {
        match empties {
            0 => {
                self.nodes += 1;
                final_score(p, o)
            }
            1 => {
                self.nodes += 1;
                solve_one(p, o, (!(p | o)).trailing_zeros() as usize)
            }
            e if e <= PARITY_EMPTIES => self.parity_search_from(p, o, alpha, beta),
            e => self.ordered_search(p, o, alpha, beta, e),
        }
    }

    pub(super) fn poll(&mut self) {
        if self.clock.due(self.nodes)
            && (self.limits.must_stop() || self.chain.as_ref().is_some_and(|s| s.aborted()))
        {
            self.stopped = true;
        }
    }

    /// A helper's share of `split`: moves taken from it until none is
    /// left or it is aborted.
    pub(super) fn join(&mut self, pool: &'a Pool, split: &Arc<Split>) {
        self.pool = Some(pool);
        self.selectivity = split.selectivity;
        self.chain = Some(split.clone());
        split.workers.fetch_add(1, SeqCst);
        self.work(split);
        split.workers.fetch_sub(1, SeqCst);
    }

    /// A waiting owner's share of `split`, a split point under its own:
    /// as [`Solver::join`], then back to its own node's state.
    fn help(&mut self, pool: &'a Pool, split: &Arc<Split>) {
        let (chain, selectivity, stopped) = (self.chain.take(), self.selectivity, self.stopped);
        self.join(pool, split);
        (self.chain, self.selectivity, self.stopped) = (chain, selectivity, stopped);
    }

    /// Searches moves of `split` until none is left, it is aborted, or
    /// this search is stopped. Each move is first searched on a null
    /// window at the split's alpha of the moment, then again on the full
    /// window (from the alpha of that moment) if it beats it.
    fn work(&mut self, split: &Split) {
        let child = split.empties - 1;
        while !split.aborted() {
            let i = split.next.fetch_add(1, SeqCst);
            let Some(&(_, sq, flips)) = split.moves.get(i) else {
                return;
            };
            let (np, no) = after(split.p, split.o, sq as usize, flips);
            let alpha = split.alpha.load(SeqCst);
            let mut score = -self.dispatch(np, no, -alpha - 1, -alpha, child);
            if !self.stopped && score > alpha && score < split.beta {
                let alpha = split.alpha.load(SeqCst);
                score = -self.dispatch(np, no, -split.beta, -alpha, child);
            }
            if self.stopped || split.record(score, sq as usize) {
                return;
            }
        }
    }

    /// The pool a node of `empties` empties with `moves` moves left after
    /// its first shares them out with, if it does.
    fn split_pool(&self, empties: u32, moves: usize) -> Option<&'a Pool> {
        self.pool
            .filter(|p| empties >= SPLIT_EMPTIES && moves >= 2 && p.has_idle())
    }

    /// The node (`p`, `o`) searched so far to `best` (`best_move`) with
    /// the window (`alpha`, `beta`) searches its `rest` of moves with
    /// `pool`'s idle helpers; its best score and move, or `None` when
    /// the search was stopped or abandoned from above.
    fn split(
        &mut self,
        pool: &'a Pool,
        (p, o): (u64, u64),
        empties: u32,
        (alpha, beta): (i32, i32),
        (best, best_move): (i32, usize),
        rest: &[(i32, u8, u64)],
    ) -> Option<(i32, usize)> {
        let split = Arc::new(Split {
            p,
            o,
            empties,
            beta,
            selectivity: self.selectivity,
            moves: rest.to_vec(),
            next: AtomicUsize::new(0),
            alpha: AtomicI32::new(alpha),
            best: Mutex::new((best, best_move)),
            workers: AtomicUsize::new(0),
            abort: AtomicBool::new(false),
            parent: self.chain.clone(),
        });
        pool.offer(&split, rest.len() - 1);
        let outer = self.chain.replace(split.clone());
        self.work(&split);
        self.chain = outer;
        // The helpers' last moves: aborted at once if this search is.
        // Meanwhile the owner helps at the split points under its own.
        let abandoned =
            |s: &Split| self.limits.must_stop() || s.parent.as_ref().is_some_and(|s| s.aborted());
        pool.count_idle(true);
        while split.workers.load(SeqCst) > 0 {
            if abandoned(&split) {
                split.abort.store(true, SeqCst);
            } else if let Some(below) = pool.take_under(&split) {
                pool.count_idle(false);
                self.help(pool, &below);
                pool.count_idle(true);
            }
            std::thread::yield_now();
        }
        pool.count_idle(false);
        if abandoned(&split) {
            self.stopped = true;
            return None;
        }
        // A stop that came from this split's own cutoff leaves its result.
        self.stopped = false;
        let result = *split.best.lock().expect("no searcher panics");
        Some(result)
    }

    /// A small alpha-beta search on the pattern evaluation, for ordering;
    /// its nodes count with the solver's. Moves are tried in [`PRIORITY`]
    /// order (corners first, the squares next to corners last): the usual
    /// refutation comes first for free (docs/research/endgame.md).
    fn sort_search(&mut self, p: u64, o: u64, depth: u32, mut alpha: i32, beta: i32) -> i32 {
        self.nodes += 1;
        if depth == 0 {
            return self.eval.raw(p, o);
        }
        let moves = Bitboard::moves_for(p, o);
        if moves == 0 {
            if Bitboard::moves_for(o, p) == 0 {
                return final_score(p, o) * SCALE;
            }
            return -self.sort_search(o, p, depth, -beta, -alpha);
        }
        // A ply from the leaves, each move's evaluation is this position's
        // regions updated by the move (counted as a node, as before).
        let leaves = (depth == 1).then(|| self.eval.state(p, o));
        let mut best = -i32::MAX;
        for class in PRIORITY {
            let mut m = moves & class;
            while m != 0 {
                let sq = m.trailing_zeros() as usize;
                m &= m - 1;
                let flips = Bitboard::flips_for(p, o, sq);
                let score = match &leaves {
                    Some(base) => {
                        self.nodes += 1;
                        let (np, no) = after(p, o, sq, flips);
                        let replies = Bitboard::moves_for(np, no);
                        -self
                            .eval
                            .value(&self.eval.after_move(base, sq, flips), np, no, replies)
                    }
                    None => {
                        let (np, no) = after(p, o, sq, flips);
                        -self.sort_search(np, no, depth - 1, -beta, -alpha)
                    }
                };
                if raise(score, &mut best, &mut alpha, beta) {
                    return best;
                }
            }
        }
        best
    }

    /// Sorts `moves` (square, flips; the cost is filled in here) best
    /// first: fewest opponent replies first (corners double); far from
    /// the end, what the evaluation thinks of the opponent's position
    /// counts too; further still, what a small search on it thinks, down
    /// to [`SORT_ALPHA_DELTA`] below `alpha`.
    fn order(&mut self, p: u64, o: u64, empties: u32, alpha: i32, moves: &mut [(i32, u8, u64)]) {
        let odd = odd_empties(!(p | o));
        let state = (EVAL_ORDER..SORT_SEARCH)
            .contains(&empties)
            .then(|| self.eval.state(p, o));
        for entry in moves.iter_mut() {
            let (_, sq, flips) = *entry;
            let (np, no) = after(p, o, sq as usize, flips);
            entry.0 = if empties >= SORT_SEARCH {
                self.searched_cost(np, no, sq as usize, odd, alpha, sort_depth(empties))
            } else if let Some(base) = &state {
                // The child's replies serve its evaluation and its cost.
                let child_moves = Bitboard::moves_for(np, no);
                let child = self.eval.after_move(base, sq as usize, flips);
                let eval = self.eval.value(&child, np, no, child_moves);
                replies_cost(np, no, child_moves, sq as usize, odd) + eval_cost(eval, 0)
            } else {
                move_cost(np, no, sq as usize, odd)
            };
        }
        moves.sort_unstable_by_key(|&(cost, _, _)| cost);
        // A close call between the best two: the best three are scored
        // again by a search two plies deeper. A first move that fails to
        // cut costs the node its refutation's whole subtree; such failures
        // are rare but dear (docs/research/endgame.md, "Move ordering").
        if empties >= CLOSE_CALL_EMPTIES && moves.len() > 1 && moves[1].0 - moves[0].0 < CLOSE_CALL
        {
            let depth = sort_depth(empties) + 2;
            let top = moves.len().min(3);
            for entry in moves[..top].iter_mut() {
                let (_, sq, flips) = *entry;
                let (np, no) = after(p, o, sq as usize, flips);
                entry.0 = self.searched_cost(np, no, sq as usize, odd, alpha, depth);
            }
            moves[..top].sort_unstable_by_key(|&(cost, _, _)| cost);
        }
    }

    /// The ordering cost of the move to `sq` that led to (`np`, `no`), with
    /// the evaluation from an ordering search of `depth` plies whose window
    /// ends [`SORT_ALPHA_DELTA`] below the mover's `alpha`.
    fn searched_cost(
        &mut self,
        np: u64,
        no: u64,
        sq: usize,
        odd: u64,
        alpha: i32,
        depth: u32,
    ) -> i32 {
        // The window seen from the opponent, who moves next.
        let beta = -(alpha - SORT_ALPHA_DELTA) * SCALE;
        move_cost(np, no, sq, odd)
            + eval_cost(self.sort_search(np, no, depth, -i32::MAX, beta), depth)
    }

    /// ProbCut in a selective solve, at a null window (`alpha`, `alpha` +
    /// 1): the final score is about a shallow search's score plus a
    /// measured mean error; when that lies more than [`selective_t`]
    /// standard deviations beyond the window, the node returns the bound
    /// the full search would almost surely have returned.
    fn selective_cut(&mut self, p: u64, o: u64, alpha: i32, empties: u32) -> Option<i32> {
        let depth = selective_depth(empties);
        let (mean, sigma) = selective_error(depth);
        let margin = selective_t(self.selectivity) * sigma;
        let beta = alpha + 1;
        // In evaluation units, rounded towards the window.
        let to_units = |discs: f64| (discs * SCALE as f64).round() as i32;
        let high = to_units(beta as f64 - mean + margin);
        if beta < 64 && self.sort_search(p, o, depth, high - 1, high) >= high {
            return Some(beta);
        }
        let low = to_units(alpha as f64 - mean - margin);
        if alpha > -64 && self.sort_search(p, o, depth, low, low + 1) <= low {
            return Some(alpha);
        }
        None
    }

    /// Many empties: table, fastest-first ordering, stability cutoff, PVS.
    /// In order: the clock, the stability cutoff, the table, a selective
    /// solve's ProbCut, a pass or the end of the game, the children (and
    /// their transposition cutoff), and the moves.
    fn ordered_search(&mut self, p: u64, o: u64, alpha: i32, beta: i32, empties: u32) -> i32 {
        self.nodes += 1;
        self.poll();
        if self.stopped {
            return 0;
        }
        if let Some(bound) = stability_cut(p, o, alpha) {
            return bound;
        }
        let key = Bitboard {
            player: p,
            opponent: o,
        }
        .hash_key();
        let hashed = empties >= HASH_EMPTIES;
        let tt_move = match self.probe(hashed.then_some(key), empties, alpha, beta) {
            ControlFlow::Break(score) => return score,
            ControlFlow::Continue(mv) => mv,
        };
        if self.selectivity > 0
            && beta == alpha + 1
            && empties >= SELECTIVE_EMPTIES
            && let Some(bound) = self.selective_cut(p, o, alpha, empties)
        {
            return bound;
        }
        let moves = Bitboard::moves_for(p, o);
        if moves == 0 {
            if Bitboard::moves_for(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.ordered_search(o, p, -beta, -alpha, empties);
        }
        let (mut list, n) = self.children(p, o, moves, empties);
        let list = &mut list[..n];
        if let Some(score) = self.transposition_cut(p, o, list, empties, beta) {
            return score;
        }
        let Some((best, best_move)) =
            self.search_children(p, o, list, tt_move, empties, (alpha, beta))
        else {
            return 0;
        };
        if hashed {
            let bound = Bound::of(best, alpha, beta);
            let mv = (bound != Bound::Upper).then_some(best_move);
            let depth = empties as i32 - self.selectivity as i32;
            self.tt.store(key, depth, to_table(best), bound, mv);
        }
        best
    }

    /// The table's entry for `key` (`None` where the table is not used): a
    /// bound that settles the node, or the move to try first.
    fn probe(
        &self,
        key: Option<u64>,
        empties: u32,
        alpha: i32,
        beta: i32,
    ) -> ControlFlow<i32, Option<usize>> {
        let Some(hit) = key.and_then(|k| self.tt.probe(k)) else {
            return ControlFlow::Continue(None);
        };
        if hit.depth >= empties as i32 - self.selectivity as i32
            && let Some(score) = hit.cutoff(to_table(alpha), to_table(beta))
            && let Some(score) = proven_discs(score)
        {
            return ControlFlow::Break(score);
        }
        // A midgame entry's move (depth short of the end) only counts when
        // that search was deep enough to beat fastest first.
        let deep_enough = hit.depth >= empties as i32 || hit.depth >= MIDGAME_MOVE_DEPTH;
        ControlFlow::Continue(hit.mv.filter(|_| deep_enough))
    }

    /// The children of a node with legal `moves`: (cost, square, flips)
    /// each, unordered, and how many; their table buckets are requested at
    /// once, so that the transposition cutoff and the searches below find
    /// them loaded.
    fn children(&self, p: u64, o: u64, moves: u64, empties: u32) -> ([(i32, u8, u64); 36], usize) {
        let mut list = [(0i32, 0u8, 0u64); 36];
        let mut n = 0;
        let mut m = moves;
        while m != 0 {
            let sq = m.trailing_zeros() as usize;
            m &= m - 1;
            let flips = Bitboard::flips_for(p, o, sq);
            if empties > HASH_EMPTIES {
                self.tt.prefetch(child_key(p, o, sq, flips));
            }
            list[n] = (0, sq as u8, flips);
            n += 1;
        }
        (list, n)
    }

    /// Enhanced transposition cutoff: a child already known to be bad
    /// enough for the opponent ends the node now.
    fn transposition_cut(
        &self,
        p: u64,
        o: u64,
        list: &[(i32, u8, u64)],
        empties: u32,
        beta: i32,
    ) -> Option<i32> {
        if empties < ETC_EMPTIES {
            return None;
        }
        list.iter().find_map(|&(_, sq, flips)| {
            let hit = self.tt.probe(child_key(p, o, sq as usize, flips))?;
            let score = proven_discs(hit.upper?)?;
            (hit.depth >= empties as i32 - 1 - self.selectivity as i32 && -score >= beta)
                .then_some(-score)
        })
    }

    /// The children of `list` searched in order, PVS, the table move
    /// first and the others ordered only once it has failed to cut (when
    /// it cuts, their ordering is never needed); from the second move on,
    /// idle helper threads may take them (a split point). The best score
    /// and its move, `None` once stopped.
    fn search_children(
        &mut self,
        p: u64,
        o: u64,
        list: &mut [(i32, u8, u64)],
        tt_move: Option<usize>,
        empties: u32,
        (mut alpha, beta): (i32, i32),
    ) -> Option<(i32, usize)> {
        let unordered = match list
            .iter()
            .position(|&(_, sq, _)| Some(sq as usize) == tt_move)
        {
            Some(i) => {
                list.swap(0, i);
                1
            }
            None => 0,
        };
        let mut best = -65;
        let mut best_move = list[0].1 as usize;
        for i in 0..list.len() {
            if i == unordered {
                self.order(p, o, empties, alpha, &mut list[i..]);
            }
            if i == 1
                && let Some(pool) = self.split_pool(empties, list.len() - 1)
            {
                return self.split(
                    pool,
                    (p, o),
                    empties,
                    (alpha, beta),
                    (best, best_move),
                    &list[1..],
                );
            }
            let (_, sq, flips) = list[i];
            let (np, no) = after(p, o, sq as usize, flips);
            let child = empties - 1;
            let score = if i == 0 {
                -self.dispatch(np, no, -beta, -alpha, child)
            } else {
                let s = -self.dispatch(np, no, -alpha - 1, -alpha, child);
                if s > alpha && s < beta {
                    -self.dispatch(np, no, -beta, -alpha, child)
                } else {
                    s
                }
            };
            if self.stopped {
                return None;
            }
            if score > best {
                best = score;
                best_move = sq as usize;
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
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ordering_terms_count_corner_regions_and_odd_quadrants() {
        // a1, b1, a2 and c1: the corner and its two neighbours count, c1
        // does not; without the corner, nothing counts.
        assert_eq!(corner_stability(0b111 | 1 << 8), 3);
        assert_eq!(corner_stability(0b110 | 1 << 8), 0);
        // h8 alone in its quadrant is odd; a1 and b1 share an even one.
        let empty = 0b11 | 1 << 63;
        assert_eq!(odd_empties(empty), 1 << 63);
        assert_eq!(odd_empties(empty | 1 << 18), 0b11 | 1 << 18 | 1 << 63);
        // The parity mask flips a square's quadrant bit when it empties.
        for (sq, &bit) in QUADRANT_BIT.iter().enumerate() {
            assert_eq!(quadrant_parity(1 << sq), bit);
        }
    }
}
