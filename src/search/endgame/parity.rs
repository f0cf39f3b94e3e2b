//! The parity search: the solver's last few empties (up to
//! [`PARITY_EMPTIES`]), with no table and no move generation, just the
//! list of empty squares tried in parity order (squares in regions with an
//! odd number of empties first: whoever moves there also gets the last
//! move of the region), and two empties solved move by move.

use super::last::{final_score, solve_one};
use super::solver::{Solver, after, raise};
use super::stability::stability_cut;
use super::tables::*;
use crate::rules::Bitboard;
use crate::search::tunables::endgame::*;

/// The empty squares of the parity search, in the order it tries them:
/// one byte each in a `u64`, so that a child's list (one square removed)
/// is two masks and a shift, not a copy.
#[derive(Clone, Copy, Default)]
struct Squares {
    packed: u64,
    len: usize,
}

impl Squares {
    #[inline]
    fn push(&mut self, sq: u8) {
        self.packed |= (sq as u64) << (8 * self.len);
        self.len += 1;
    }

    #[inline]
    fn get(&self, i: usize) -> usize {
        (self.packed >> (8 * i)) as u8 as usize
    }

    /// The list without its `i`-th square, the others in the same order.
    #[inline]
    fn without(&self, i: usize) -> Squares {
        let below = (1u64 << (8 * i)) - 1;
        Squares {
            packed: (self.packed & below) | ((self.packed >> 8) & !below),
            len: self.len - 1,
        }
    }

    /// The squares in order (the tests read a list back with it).
    #[cfg(test)]
    fn iter(&self) -> impl Iterator<Item = u8> + '_ {
        (0..self.len).map(|i| self.get(i) as u8)
    }
}

impl Solver<'_> {
    /// The parity search's entry: the empty squares listed once in
    /// [`PRIORITY`] order, and the parity of each quadrant.
    pub(super) fn parity_search_from(&mut self, p: u64, o: u64, alpha: i32, beta: i32) -> i32 {
        let empty = !(p | o);
        let mut squares = Squares::default();
        for class in PRIORITY {
            let mut m = empty & class;
            while m != 0 {
                squares.push(m.trailing_zeros() as u8);
                m &= m - 1;
            }
        }
        self.parity_search(p, o, alpha, beta, squares, quadrant_parity(empty))
    }

    /// Few empties: no table, no move generation; the empty squares in
    /// odd quadrants first, each class in [`PRIORITY`] order. `parity` has
    /// the bit of each quadrant with an odd number of empties.
    fn parity_search(
        &mut self,
        p: u64,
        o: u64,
        mut alpha: i32,
        beta: i32,
        squares: Squares,
        parity: u8,
    ) -> i32 {
        if squares.len == 2 {
            let (x1, x2) = (squares.get(0), squares.get(1));
            return self.solve_two(p, o, alpha, beta, x1, x2);
        }
        self.nodes += 1;
        self.poll();
        if self.stopped {
            return 0;
        }
        if squares.len >= PARITY_STABILITY_EMPTIES
            && alpha >= parity_stability_alpha(squares.len)
            && let Some(bound) = stability_cut(p, o, alpha)
        {
            return bound;
        }
        // The list positions of the squares next to an opponent disc, in
        // odd quadrants and in even ones: two masks built without a branch
        // per square, then walked in list order, odd quadrants first.
        let (mut odd, mut even) = (0u32, 0u32);
        for i in 0..squares.len {
            let sq = squares.get(i);
            let near = u32::from(NEIGHBOURS[sq] & o != 0) << i;
            let in_odd = 0u32.wrapping_sub(u32::from(parity & QUADRANT_BIT[sq] != 0));
            odd |= near & in_odd;
            even |= near & !in_odd;
        }
        let mut best = -65;
        for mut m in [odd, even] {
            while m != 0 {
                let i = m.trailing_zeros() as usize;
                m &= m - 1;
                let sq = squares.get(i);
                let flips = Bitboard::flips_for(p, o, sq);
                if flips == 0 {
                    continue;
                }
                let (np, no) = after(p, o, sq, flips);
                let rest = squares.without(i);
                let score =
                    -self.parity_search(np, no, -beta, -alpha, rest, parity ^ QUADRANT_BIT[sq]);
                if raise(score, &mut best, &mut alpha, beta) {
                    return best;
                }
            }
        }
        if best == -65 {
            if Bitboard::moves_for(o, p) == 0 {
                return final_score(p, o);
            }
            return -self.parity_search(o, p, -beta, -alpha, squares, parity);
        }
        best
    }

    /// Two empty squares `x1` and `x2` (in that order of preference): each
    /// move leads straight to [`solve_one`].
    fn solve_two(&mut self, p: u64, o: u64, alpha: i32, beta: i32, x1: usize, x2: usize) -> i32 {
        self.nodes += 1;
        self.poll();
        if self.stopped {
            return 0;
        }
        let mut best = -65;
        if NEIGHBOURS[x1] & o != 0 {
            let flips = Bitboard::flips_for(p, o, x1);
            if flips != 0 {
                self.nodes += 1;
                let (np, no) = after(p, o, x1, flips);
                best = -solve_one(np, no, x2);
                if best >= beta {
                    return best;
                }
            }
        }
        if NEIGHBOURS[x2] & o != 0 {
            let flips = Bitboard::flips_for(p, o, x2);
            if flips != 0 {
                self.nodes += 1;
                let (np, no) = after(p, o, x2, flips);
                return best.max(-solve_one(np, no, x1));
            }
        }
        if best > -65 {
            return best;
        }
        if Bitboard::moves_for(o, p) == 0 {
            return final_score(p, o);
        }
        -self.solve_two(o, p, -beta, -alpha, x1, x2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_square_list_without_one_square_keeps_the_others_in_order() {
        let all = [63u8, 0, 7, 56, 27, 36, 9, 54];
        for len in 1..=all.len() {
            let mut list = Squares::default();
            for &sq in &all[..len] {
                list.push(sq);
            }
            assert_eq!(list.iter().collect::<Vec<_>>(), all[..len]);
            for i in 0..len {
                let mut want = all[..len].to_vec();
                want.remove(i);
                let rest = list.without(i);
                assert_eq!(rest.len, len - 1);
                assert_eq!(
                    rest.iter().collect::<Vec<_>>(),
                    want,
                    "len {len}, without {i}"
                );
            }
        }
    }
}
