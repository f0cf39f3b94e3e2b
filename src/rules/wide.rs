//! Boards of every even size from 4x4 to 26x26 on sets of `W` words, with the
//! same row-major square indices as the 8x8 board (`row * n + col`) and
//! per-size masks that stop lines from wrapping around the board's edges.

use super::board::{Board, DIRECTIONS};
use super::set::{SquareSet, WORDS, WideSet};

/// The smallest supported board side.
pub const MIN_SIZE: usize = 4;
/// The largest supported board side (26 letters for the labs' notation).
pub const MAX_SIZE: usize = 26;

/// Whether `n` is a board size the rules core supports: even, 4 to 26.
pub fn is_supported_size(n: usize) -> bool {
    (MIN_SIZE..=MAX_SIZE).contains(&n) && n.is_multiple_of(2)
}

/// Masks that depend only on the board size.
#[derive(Clone, Copy, Debug)]
struct Geometry {
    /// Every square of the board.
    valid: WideSet,
    /// Squares not on the first or last column.
    inner: WideSet,
    /// Squares on the first column.
    left: WideSet,
    /// Squares on the last column.
    right: WideSet,
}

const fn geometry(n: usize) -> Geometry {
    let mut valid = [0u64; WORDS];
    let mut inner = [0u64; WORDS];
    let mut left = [0u64; WORDS];
    let mut right = [0u64; WORDS];
    let mut sq = 0;
    while sq < n * n {
        valid[sq / 64] |= 1 << (sq % 64);
        let col = sq % n;
        if col != 0 && col != n - 1 {
            inner[sq / 64] |= 1 << (sq % 64);
        }
        if col == 0 {
            left[sq / 64] |= 1 << (sq % 64);
        }
        if col == n - 1 {
            right[sq / 64] |= 1 << (sq % 64);
        }
        sq += 1;
    }
    Geometry {
        valid: WideSet(valid),
        inner: WideSet(inner),
        left: WideSet(left),
        right: WideSet(right),
    }
}

const fn all_geometries() -> [Geometry; 12] {
    let mut g = [geometry(MIN_SIZE); 12];
    let mut i = 1;
    while i < 12 {
        g[i] = geometry(MIN_SIZE + 2 * i);
        i += 1;
    }
    g
}

static GEOMETRIES: [Geometry; 12] = all_geometries();

#[inline]
fn geo(n: u8) -> &'static Geometry {
    &GEOMETRIES[(n as usize - MIN_SIZE) / 2]
}

/// The first `W` words of a mask: a board of `W` words only ever has squares
/// there.
#[inline]
fn words<const W: usize>(set: &WideSet) -> WideSet<W> {
    WideSet(std::array::from_fn(|i| set.0[i]))
}

/// The number of 64-bit words that hold the squares of an n x n board.
pub const fn words_for(n: usize) -> usize {
    (n * n).div_ceil(64)
}

/// A position on an n x n board (n even, 4 to 26) seen from the side to move,
/// on sets of `W` words (at least `words_for(n)` in the position module).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct WideBoard<const W: usize = WORDS> {
    player: WideSet<W>,
    opponent: WideSet<W>,
    n: u8,
}

impl<const W: usize> WideBoard<W> {
    /// Step sizes of the four line directions and whether the direction has
    /// a horizontal component (and so must not wrap around a row's end).
    #[inline]
    fn steps(n: u32) -> [(u32, bool); 4] {
        [(1, true), (n - 1, true), (n, false), (n + 1, true)]
    }
}

impl<const W: usize> Board for WideBoard<W> {
    type Set = WideSet<W>;

    fn from_sets(n: usize, player: WideSet<W>, opponent: WideSet<W>) -> Self {
        assert!(is_supported_size(n), "unsupported board size {n}");
        assert!(words_for(n) <= W, "{n}x{n} needs more than {W} words");
        WideBoard {
            player,
            opponent,
            n: n as u8,
        }
    }
    #[inline]
    fn size(&self) -> usize {
        self.n as usize
    }
    #[inline]
    fn player(&self) -> WideSet<W> {
        self.player
    }
    #[inline]
    fn opponent(&self) -> WideSet<W> {
        self.opponent
    }
    #[inline]
    fn all_squares(&self) -> WideSet<W> {
        words(&geo(self.n).valid)
    }

    fn moves(&self) -> WideSet<W> {
        let g = geo(self.n);
        let empty = words(&g.valid) & !(self.player | self.opponent);
        let inner = self.opponent & words(&g.inner);
        let mut moves = WideSet::EMPTY;
        for (k, horizontal) in Self::steps(self.n as u32) {
            let through = if horizontal { inner } else { self.opponent };
            // Grow every line of opponent discs one square a round; a line
            // whose next square is empty gives a move there.
            let mut run = (self.player << k) & through;
            while !run.is_empty() {
                let next = run << k;
                moves |= next & empty;
                run = next & through;
            }
            let mut run = (self.player >> k) & through;
            while !run.is_empty() {
                let next = run >> k;
                moves |= next & empty;
                run = next & through;
            }
        }
        moves
    }

    fn flips(&self, sq: usize) -> WideSet<W> {
        let n = self.n as i32;
        let (row, col) = (sq as i32 / n, sq as i32 % n);
        let mut flipped = WideSet::EMPTY;
        for (dr, dc) in DIRECTIONS {
            let mut line = WideSet::EMPTY;
            let (mut r, mut c) = (row + dr, col + dc);
            while r >= 0 && r < n && c >= 0 && c < n {
                let idx = (r * n + c) as usize;
                if self.opponent.contains(idx) {
                    line |= WideSet::single(idx);
                } else {
                    if self.player.contains(idx) {
                        flipped |= line;
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        flipped
    }

    #[inline]
    fn play(&self, sq: usize) -> Self {
        let f = self.flips(sq);
        WideBoard {
            player: self.opponent ^ f,
            opponent: self.player | f | WideSet::single(sq),
            n: self.n,
        }
    }

    fn neighbours(&self, set: WideSet<W>) -> WideSet<W> {
        let g = geo(self.n);
        let n = self.n as u32;
        let valid = words(&g.valid);
        // Shift only squares that stay in their row: no wrap-around.
        let not_last = valid & !words(&g.right);
        let not_first = valid & !words(&g.left);
        let row = set | ((set & not_last) << 1) | ((set & not_first) >> 1);
        (row | (row << n) | (row >> n)) & valid & !set
    }

    fn hash_key(&self) -> u64 {
        let mut h = 0x243F_6A88_85A3_08D3u64 ^ self.n as u64;
        for i in 0..W {
            h = (h ^ self.player.0[i]).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h = (h ^ self.opponent.0[i])
                .rotate_left(23)
                .wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        }
        h ^ (h >> 29)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn edge_masks_stop_horizontal_wrap() {
        // 4x4: player at row 0 col 3, opponent at row 1 col 0, row 1 col 1 empty.
        // A naive shift by 1 would carry (0,3) -> (1,0) and "find" a move at (1,1).
        let n = 4;
        let b = WideBoard::<1>::from_sets(n, WideSet::single(3), WideSet::single(4));
        assert!(b.moves().is_empty());
    }

    #[test]
    fn sizes_are_even_from_4_to_26() {
        assert!(is_supported_size(4) && is_supported_size(26) && is_supported_size(8));
        assert!(!is_supported_size(2) && !is_supported_size(5) && !is_supported_size(28));
    }
}
