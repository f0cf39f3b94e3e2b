//! Sets of squares as bit sets: a `u64` for 8x8 and a [`WideSet`] of up to
//! 11 words (704 bits) for every size up to 26x26, behind one [`SquareSet`]
//! trait so that move generation, perft and search are written once.
//!
//! A square's index is `row * n + col` (row 0 at the top), so iterating a set
//! in ascending index order visits squares row by row, then column by column:
//! the order in which the labs list moves.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not, Shl, Shr};

/// The most 64-bit words a [`WideSet`] needs: 26 * 26 = 676 squares fit in 704 bits.
pub const WORDS: usize = 11;

/// A set of square indices, with the bit operations move generation needs.
pub trait SquareSet:
    Copy
    + Eq
    + Hash
    + Debug
    + Default
    + Send
    + Sync
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
    + 'static
{
    /// The empty set.
    const EMPTY: Self;
    /// The set holding only `sq`.
    fn single(sq: usize) -> Self;
    /// Whether no square is in the set.
    fn is_empty(&self) -> bool;
    /// Number of squares in the set.
    fn count(&self) -> u32;
    /// Whether `sq` is in the set.
    fn contains(&self, sq: usize) -> bool;
    /// The lowest index in the set.
    fn first(&self) -> Option<usize>;
    /// The set without its lowest index.
    fn without_first(&self) -> Self;

    /// Iterates the squares in ascending index (row-major) order.
    fn iter(&self) -> SetIter<Self> {
        SetIter(*self)
    }
    /// The set with `sq` added.
    fn with(self, sq: usize) -> Self {
        self | Self::single(sq)
    }
}

/// Iterator over a [`SquareSet`] in ascending index order.
#[derive(Clone, Debug)]
pub struct SetIter<S>(S);

impl<S: SquareSet> Iterator for SetIter<S> {
    type Item = usize;

    #[inline]
    fn next(&mut self) -> Option<usize> {
        let sq = self.0.first()?;
        self.0 = self.0.without_first();
        Some(sq)
    }
}

impl SquareSet for u64 {
    const EMPTY: Self = 0;

    #[inline]
    fn single(sq: usize) -> Self {
        1u64 << sq
    }
    #[inline]
    fn is_empty(&self) -> bool {
        *self == 0
    }
    #[inline]
    fn count(&self) -> u32 {
        self.count_ones()
    }
    #[inline]
    fn contains(&self, sq: usize) -> bool {
        sq < 64 && (self >> sq) & 1 != 0
    }
    #[inline]
    fn first(&self) -> Option<usize> {
        (*self != 0).then(|| self.trailing_zeros() as usize)
    }
    #[inline]
    fn without_first(&self) -> Self {
        self & self.wrapping_sub(1)
    }
}

/// A set of up to `64 * W` squares, least significant word first. Each board
/// size uses the fewest words that hold its squares (see
/// [`crate::rules::AnyBoard`]): every operation costs a pass over the words,
/// so a 16x16 board on 4 words runs well over twice as fast as on 11.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct WideSet<const W: usize = WORDS>(pub [u64; W]);

impl<const W: usize> Default for WideSet<W> {
    fn default() -> Self {
        WideSet([0; W])
    }
}

/// Shifts towards higher indices by `k` (1 <= k < 64); bits pushed past the
/// last word are lost.
impl<const W: usize> Shl<u32> for WideSet<W> {
    type Output = WideSet<W>;
    #[inline]
    fn shl(self, k: u32) -> WideSet<W> {
        let a = self.0;
        let mut r = [0u64; W];
        r[0] = a[0] << k;
        for i in 1..W {
            r[i] = (a[i] << k) | (a[i - 1] >> (64 - k));
        }
        WideSet(r)
    }
}

/// Shifts towards lower indices by `k` (1 <= k < 64).
impl<const W: usize> Shr<u32> for WideSet<W> {
    type Output = WideSet<W>;
    #[inline]
    fn shr(self, k: u32) -> WideSet<W> {
        let a = self.0;
        let mut r = [0u64; W];
        for i in 0..W - 1 {
            r[i] = (a[i] >> k) | (a[i + 1] << (64 - k));
        }
        r[W - 1] = a[W - 1] >> k;
        WideSet(r)
    }
}

impl<const W: usize> Debug for WideSet<W> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

impl<const W: usize> SquareSet for WideSet<W> {
    const EMPTY: Self = WideSet([0; W]);

    #[inline]
    fn single(sq: usize) -> Self {
        let mut w = [0u64; W];
        w[sq / 64] = 1u64 << (sq % 64);
        WideSet(w)
    }
    #[inline]
    fn is_empty(&self) -> bool {
        self.0.iter().fold(0, |acc, w| acc | w) == 0
    }
    #[inline]
    fn count(&self) -> u32 {
        self.0.iter().map(|w| w.count_ones()).sum()
    }
    #[inline]
    fn contains(&self, sq: usize) -> bool {
        sq < 64 * W && (self.0[sq / 64] >> (sq % 64)) & 1 != 0
    }
    #[inline]
    fn first(&self) -> Option<usize> {
        self.0
            .iter()
            .position(|&w| w != 0)
            .map(|i| i * 64 + self.0[i].trailing_zeros() as usize)
    }
    #[inline]
    fn without_first(&self) -> Self {
        let mut r = *self;
        if let Some(i) = r.0.iter().position(|&w| w != 0) {
            r.0[i] &= r.0[i] - 1;
        }
        r
    }
}

macro_rules! wide_binop {
    ($trait:ident, $method:ident, $assign_trait:ident, $assign_method:ident, $op:tt) => {
        impl<const W: usize> $trait for WideSet<W> {
            type Output = WideSet<W>;
            #[inline]
            fn $method(self, rhs: WideSet<W>) -> WideSet<W> {
                let mut r = [0u64; W];
                for i in 0..W {
                    r[i] = self.0[i] $op rhs.0[i];
                }
                WideSet(r)
            }
        }
        impl<const W: usize> $assign_trait for WideSet<W> {
            #[inline]
            fn $assign_method(&mut self, rhs: WideSet<W>) {
                *self = *self $op rhs;
            }
        }
    };
}

wide_binop!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
wide_binop!(BitOr, bitor, BitOrAssign, bitor_assign, |);
wide_binop!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl<const W: usize> Not for WideSet<W> {
    type Output = WideSet<W>;
    #[inline]
    fn not(self) -> WideSet<W> {
        WideSet(self.0.map(|w| !w))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wide_shifts_cross_word_boundaries() {
        let s = WideSet::<WORDS>::single(63).with(127).with(700);
        assert_eq!((s << 1).iter().collect::<Vec<_>>(), vec![64, 128, 701]);
        assert_eq!((s >> 63).iter().collect::<Vec<_>>(), vec![0, 64, 637]);
        assert_eq!(WideSet::<WORDS>::single(703) << 1, WideSet::EMPTY);
        assert_eq!(WideSet::<2>::single(0) >> 1, WideSet::EMPTY);
        // Fewer words: the same shifts, bits past the last word are lost.
        assert_eq!(WideSet::<2>::single(127) << 1, WideSet::EMPTY);
        assert_eq!(
            (WideSet::<2>::single(63) << 1).iter().collect::<Vec<_>>(),
            vec![64]
        );
    }

    #[test]
    fn iteration_is_ascending_and_counts_agree() {
        let squares = [5usize, 64, 65, 300, 675];
        let s = squares
            .iter()
            .fold(WideSet::<WORDS>::EMPTY, |s, &q| s.with(q));
        assert_eq!(s.iter().collect::<Vec<_>>(), squares);
        assert_eq!(s.count(), 5);
        assert!(s.contains(300) && !s.contains(301));
        let u = (1u64 << 3) | (1 << 40);
        assert_eq!(u.iter().collect::<Vec<_>>(), vec![3, 40]);
    }
}
