//! The 8x8 board on two `u64`s: bit `row * 8 + col` (a1 = bit 0, top-left;
//! h8 = bit 63). Move generation with parallel shifts, flips from
//! precomputed rays: the hot path of perft and of the 8x8 search.

use super::board::{Board, DIRECTIONS};
use super::set::SquareSet;

/// An 8x8 position seen from the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Bitboard {
    /// Discs of the side to move.
    pub player: u64,
    /// Discs of the other side.
    pub opponent: u64,
}

/// Squares not on column a or h: where a horizontal or diagonal line of
/// opponent discs can continue without wrapping around the board.
const INNER_COLUMNS: u64 = 0x7E7E_7E7E_7E7E_7E7E;

/// One square's eight rays, a cache line (two 256-bit vectors) apart.
#[repr(C, align(64))]
struct Rays([[u64; 8]; 64]);

const fn build_rays() -> Rays {
    let mut rays = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = DIRECTIONS[d];
            let mut r = (sq / 8) as i32 + dr;
            let mut c = (sq % 8) as i32 + dc;
            let mut mask = 0u64;
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                mask |= 1u64 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            rays[sq][d] = mask;
            d += 1;
        }
        sq += 1;
    }
    Rays(rays)
}

/// For each square and direction, the squares beyond it up to the edge.
static RAYS: Rays = build_rays();

/// [`Bitboard::flips_for`] with AVX-512's vector leading-zero count, which
/// finds the end of a run towards lower bits as directly as `x & -x` does
/// towards higher ones: each direction is a handful of instructions with no
/// fill loop, and the exact solver (where flips are a fifth of the time)
/// runs faster (docs/research/endgame.md, "Cutoffs").
///
/// # Safety
/// The CPU must have AVX-512 F, VL and CD.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx512f,avx512vl,avx512cd")]
unsafe fn flips_by_leading_zeros(player: u64, opponent: u64, sq: usize) -> u64 {
    use std::arch::x86_64::*;
    let rays = &RAYS.0[sq];
    // SAFETY: each load reads four of the square's eight rays.
    let (up, down) = unsafe {
        (
            _mm256_loadu_si256(rays.as_ptr().cast()),
            _mm256_loadu_si256(rays.as_ptr().add(4).cast()),
        )
    };
    let p = _mm256_set1_epi64x(player as i64);
    let o = _mm256_set1_epi64x(opponent as i64);
    let zero = _mm256_setzero_si256();
    // Towards higher bits: the nearest square that is not an opponent
    // disc; if it is ours, the squares before it flip.
    let stop = _mm256_andnot_si256(o, up);
    let outflank = _mm256_and_si256(_mm256_and_si256(stop, _mm256_sub_epi64(zero, stop)), p);
    let anchored = _mm256_test_epi64_mask(outflank, outflank);
    let before = _mm256_sub_epi64(outflank, _mm256_set1_epi64x(1));
    let up_flips = _mm256_maskz_and_epi64(anchored, before, up);
    // Towards lower bits: the nearest such square is the highest one (none
    // at all shifts the top bit out); the squares above it flip.
    let stop = _mm256_andnot_si256(o, down);
    let top = _mm256_srlv_epi64(_mm256_set1_epi64x(i64::MIN), _mm256_lzcnt_epi64(stop));
    let above = _mm256_sub_epi64(zero, _mm256_and_si256(top, p));
    let down_flips = _mm256_and_si256(_mm256_add_epi64(above, above), down);
    let f = _mm256_or_si256(up_flips, down_flips);
    let f = _mm_or_si128(_mm256_castsi256_si128(f), _mm256_extracti128_si256::<1>(f));
    _mm_cvtsi128_si64(_mm_or_si128(f, _mm_unpackhi_epi64(f, f))) as u64
}

impl Bitboard {
    /// The standard 8x8 start position, Black to move.
    pub const START: Bitboard = Bitboard {
        player: (1 << 28) | (1 << 35),
        opponent: (1 << 27) | (1 << 36),
    };

    /// Discs flipped by a disc of `player` at `sq` against `opponent`:
    /// with AVX-512 where the CPU has it (the build leaves AVX-512 off
    /// elsewhere, where it is slower), else [`Bitboard::flips_by_shifts`].
    #[inline]
    pub fn flips_for(player: u64, opponent: u64, sq: usize) -> u64 {
        #[cfg(target_arch = "x86_64")]
        if std::is_x86_feature_detected!("avx512cd") && std::is_x86_feature_detected!("avx512vl") {
            // SAFETY: the CPU has the features (AVX-512 CD and VL imply F).
            return unsafe { flips_by_leading_zeros(player, opponent, sq) };
        }
        Self::flips_by_shifts(player, opponent, sq)
    }

    /// [`Bitboard::flips_for`] on any CPU. Two loops over four directions
    /// each, with no branches, so that the compiler turns each into a few
    /// vector instructions: towards higher bits the first square of the ray
    /// that is not an opponent disc is isolated with `x & -x`; towards
    /// lower bits (where that would take a leading-zero count, which AVX2
    /// has no vector form of) the run of opponent discs is filled from the
    /// square in three doubling steps.
    #[inline]
    fn flips_by_shifts(player: u64, opponent: u64, sq: usize) -> u64 {
        let rays = &RAYS.0[sq];
        let mut flipped = [0u64; 8];
        for d in 0..4 {
            let ray = rays[d];
            let stop = ray & !opponent;
            let first = stop & stop.wrapping_neg();
            let between = first.wrapping_sub(1) & ray;
            flipped[d] = if first & player != 0 { between } else { 0 };
        }
        // The same directions downwards: a shift by 1, 7 or 9 must not
        // wrap from one edge column to the other, so it runs through
        // opponent discs off columns a and h only.
        let inner = opponent & INNER_COLUMNS;
        let mask = [inner, inner, opponent, inner];
        const STEP: [u32; 4] = [1, 7, 8, 9];
        let origin = 1u64 << sq;
        for d in 0..4 {
            let (m, k) = (mask[d], STEP[d]);
            let mut run = m & (origin >> k);
            run |= m & (run >> k);
            let pairs = m & (m >> k);
            run |= pairs & (run >> (2 * k));
            run |= pairs & (run >> (2 * k));
            flipped[4 + d] = if (run >> k) & player != 0 { run } else { 0 };
        }
        flipped.iter().fold(0, |acc, f| acc | f)
    }

    /// The squares next to (in any of the eight directions) a square of
    /// `set`, excluding `set` itself; [`Board::neighbours`] without a
    /// board, for the pattern evaluation's potential mobility.
    #[inline]
    pub fn neighbours_of(set: u64) -> u64 {
        let not_a = 0xFEFE_FEFE_FEFE_FEFEu64; // squares not on column a
        let not_h = 0x7F7F_7F7F_7F7F_7F7Fu64; // squares not on column h
        let east = (set << 1) & not_a;
        let west = (set >> 1) & not_h;
        let row = set | east | west;
        (row | (row << 8) | (row >> 8)) & !set
    }

    /// Legal moves of `player` against `opponent`: for each of the four
    /// line directions (one lane each), the squares that end a line of
    /// opponent discs starting at a player disc, on either side.
    #[inline]
    pub fn moves_for(player: u64, opponent: u64) -> u64 {
        let inner = opponent & INNER_COLUMNS;
        let mask = [inner, opponent, inner, inner];
        const STEP: [u32; 4] = [1, 8, 7, 9];
        let mut ends = [0u64; 4];
        for d in 0..4 {
            let (m, k) = (mask[d], STEP[d]);
            let mut up = m & (player << k);
            up |= m & (up << k);
            let pair_up = m & (m << k);
            up |= pair_up & (up << (2 * k));
            up |= pair_up & (up << (2 * k));
            let mut down = m & (player >> k);
            down |= m & (down >> k);
            let pair_down = m & (m >> k);
            down |= pair_down & (down >> (2 * k));
            down |= pair_down & (down >> (2 * k));
            ends[d] = (up << k) | (down >> k);
        }
        ends.iter().fold(0, |acc, e| acc | e) & !(player | opponent)
    }
}

impl Board for Bitboard {
    type Set = u64;

    fn from_sets(n: usize, player: u64, opponent: u64) -> Self {
        assert_eq!(n, 8, "Bitboard is 8x8 only");
        Bitboard { player, opponent }
    }
    #[inline]
    fn size(&self) -> usize {
        8
    }
    #[inline]
    fn player(&self) -> u64 {
        self.player
    }
    #[inline]
    fn opponent(&self) -> u64 {
        self.opponent
    }
    #[inline]
    fn all_squares(&self) -> u64 {
        u64::MAX
    }
    #[inline]
    fn moves(&self) -> u64 {
        Self::moves_for(self.player, self.opponent)
    }
    #[inline]
    fn flips(&self, sq: usize) -> u64 {
        Self::flips_for(self.player, self.opponent, sq)
    }
    #[inline]
    fn play(&self, sq: usize) -> Self {
        let f = self.flips(sq);
        Bitboard {
            player: self.opponent ^ f,
            opponent: self.player | f | u64::single(sq),
        }
    }
    #[inline]
    fn pass(&self) -> Self {
        Bitboard {
            player: self.opponent,
            opponent: self.player,
        }
    }
    #[inline]
    fn hash_key(&self) -> u64 {
        let h = self.player.wrapping_mul(0x9E37_79B9_7F4A_7C15)
            ^ self
                .opponent
                .rotate_left(29)
                .wrapping_mul(0xC2B2_AE3D_27D4_EB4F);
        h ^ (h >> 31)
    }
    #[inline]
    fn neighbours(&self, set: u64) -> u64 {
        Bitboard::neighbours_of(set)
    }
    #[inline]
    fn empties(&self) -> u64 {
        !(self.player | self.opponent)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn start_moves_are_the_four_classic_ones() {
        // d3, c4, f5, e6 for Black.
        let m = Bitboard::START.moves();
        let expected = [(2, 3), (3, 2), (4, 5), (5, 4)]
            .iter()
            .fold(0u64, |s, &(r, c)| s | 1 << (r * 8 + c));
        assert_eq!(m, expected);
    }

    #[test]
    fn playing_d3_flips_d4() {
        let b = Bitboard::START.play(2 * 8 + 3);
        // Now White to move: White has only e5, Black has d3 d4 d5 e4.
        assert_eq!(b.player, 1 << 36);
        assert_eq!(b.opponent.count_ones(), 4);
        assert!(b.opponent & (1 << 27) != 0);
    }

    #[test]
    fn flips_reach_the_board_corners() {
        // Player on a1, opponent on b2..g7, h8 empty: h8 flips six discs.
        let player = 1u64;
        let opponent = (1..7).fold(0u64, |s, i| s | 1 << (i * 9));
        assert_eq!(Bitboard::flips_for(player, opponent, 63), opponent);
        // Player on h8: a1 flips them too.
        assert_eq!(Bitboard::flips_for(1 << 63, opponent, 0), opponent);
        // Without an anchoring disc nothing flips.
        assert_eq!(Bitboard::flips_for(0, opponent, 63), 0);
    }

    /// Flips found by walking each direction square by square.
    fn walked_flips(player: u64, opponent: u64, sq: usize) -> u64 {
        let mut all = 0;
        for (dr, dc) in DIRECTIONS {
            let (mut r, mut c) = ((sq / 8) as i32 + dr, (sq % 8) as i32 + dc);
            let mut run = 0u64;
            while (0..8).contains(&r) && (0..8).contains(&c) {
                let bit = 1u64 << (r * 8 + c);
                if opponent & bit != 0 {
                    run |= bit;
                } else {
                    if player & bit != 0 {
                        all |= run;
                    }
                    break;
                }
                r += dr;
                c += dc;
            }
        }
        all
    }

    #[test]
    fn both_flip_routines_match_a_square_by_square_walk() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x9E37_79B9_7F4A_7C15u64);
        let mut next = || rng.random::<u64>();
        for _ in 0..5_000 {
            // Dense boards with few empties, as near the end of a game.
            let (a, b) = (next(), next() | next());
            let (player, opponent) = (a & b, !a & b);
            let mut empty = !(player | opponent);
            while empty != 0 {
                let sq = empty.trailing_zeros() as usize;
                empty &= empty - 1;
                let expected = walked_flips(player, opponent, sq);
                assert_eq!(Bitboard::flips_by_shifts(player, opponent, sq), expected);
                assert_eq!(Bitboard::flips_for(player, opponent, sq), expected);
            }
        }
    }
}
