//! The regions the board is cut into: the shapes, the board symmetries
//! that map each region onto its shape, and the layout of one phase's
//! weights (the regions' configurations, then the scalar terms).

use crate::rules::Bitboard;
use std::sync::OnceLock;

/// The shapes, as canonical masks (a1 = bit 0, row by row). Other sets of
/// the same cost, and larger ones, lowered the held-out error a little
/// and did not move the score against NTest
/// (docs/research/evaluation.md).
pub const SHAPES: [(&str, u64); 11] = [
    ("corner3x3", 0x0000_0000_0007_0707),
    ("corner2x5", 0x0000_0000_0000_1F1F),
    ("edge2x", 0x0000_0000_0000_42FF),
    ("row2", 0x0000_0000_0000_FF00),
    ("row3", 0x0000_0000_00FF_0000),
    ("row4", 0x0000_0000_FF00_0000),
    ("diag8", 0x8040_2010_0804_0201),
    ("diag7", 0x0080_4020_1008_0402),
    ("diag6", 0x0000_8040_2010_0804),
    ("diag5", 0x0000_0080_4020_1008),
    ("diag4", 0x0000_0000_8040_2010),
];

fn flip_vertical(x: u64) -> u64 {
    x.swap_bytes()
}

fn mirror_horizontal(x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    let x = ((x >> 1) & K1) | ((x & K1) << 1);
    let x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

fn transpose(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = K1 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// Symmetry `k` (0-7): vertical flip if bit 0, then horizontal mirror if
/// bit 1, then transpose if bit 2.
#[inline]
pub fn symmetry(mut x: u64, k: usize) -> u64 {
    if k & 1 != 0 {
        x = flip_vertical(x);
    }
    if k & 2 != 0 {
        x = mirror_horizontal(x);
    }
    if k & 4 != 0 {
        x = transpose(x);
    }
    x
}

/// The inverse of [`symmetry`] `k`.
fn inverse(mut x: u64, k: usize) -> u64 {
    if k & 4 != 0 {
        x = transpose(x);
    }
    if k & 2 != 0 {
        x = mirror_horizontal(x);
    }
    if k & 1 != 0 {
        x = flip_vertical(x);
    }
    x
}

#[inline]
fn pext(x: u64, mask: u64) -> u64 {
    #[cfg(target_feature = "bmi2")]
    {
        // SAFETY: the instruction exists on every CPU this build targets.
        unsafe { std::arch::x86_64::_pext_u64(x, mask) }
    }
    #[cfg(not(target_feature = "bmi2"))]
    {
        let (mut out, mut bit, mut m) = (0u64, 0, mask);
        while m != 0 {
            let low = m & m.wrapping_neg();
            if x & low != 0 {
                out |= 1 << bit;
            }
            bit += 1;
            m &= m - 1;
        }
        out
    }
}

/// For each configuration of a shape (base-3 index over its squares in bit
/// order), the smallest index among the configurations the shape's own
/// symmetries (those mapping its mask onto itself) turn it into.
fn canonical_indices(mask: u64) -> Vec<u32> {
    let squares: Vec<u64> = (0..64).filter(|b| mask & (1 << b) != 0).collect();
    let n = squares.len();
    // For each self-symmetry, where each square's content goes.
    let perms: Vec<Vec<usize>> = (0..8)
        .filter(|&k| symmetry(mask, k) == mask)
        .map(|k| {
            squares
                .iter()
                .map(|&sq| {
                    let to = symmetry(1 << sq, k).trailing_zeros() as u64;
                    squares
                        .iter()
                        .position(|&s| s == to)
                        .expect("mask maps onto itself")
                })
                .collect()
        })
        .collect();
    let size = 3usize.pow(n as u32);
    (0..size)
        .map(|index| {
            let digits: Vec<usize> = (0..n).map(|j| index / 3usize.pow(j as u32) % 3).collect();
            perms
                .iter()
                .map(|perm| {
                    let mut moved = vec![0; n];
                    for (j, &d) in digits.iter().enumerate() {
                        moved[perm[j]] = d;
                    }
                    moved
                        .iter()
                        .enumerate()
                        .map(|(j, &d)| d * 3usize.pow(j as u32))
                        .sum::<usize>()
                })
                .min()
                .unwrap_or(index) as u32
        })
        .collect()
}

/// One region: its squares on the board, which symmetry maps it onto its
/// shape, and where its shape's weights start.
#[derive(Clone, Copy, Debug)]
struct Region {
    squares: u64,
    symmetry: usize,
    offset: usize,
}

/// Squares of the largest shape: a region's bit patterns index tables of
/// `1 << MAX_SQUARES` entries.
const MAX_SQUARES: usize = 10;

/// Number of regions on the board.
pub const REGIONS: usize = 46;
/// Weight indices a position reads: one per region, then its scalar
/// terms ([`SCALARS`]).
pub const FEATURES: usize = REGIONS + SCALARS;
/// Scalar terms, each a weight per count: the side to move's legal moves,
/// the opponent's (as if it were to move), and each side's potential
/// mobility (the empty squares next to the other side's discs). The last
/// three paid in play only with ProbCut's table measured again for them.
pub const SCALARS: usize = 4;
/// Counts of potential mobility with a weight of their own (more count as
/// the last).
const POTENTIAL_SLOTS: usize = 40;
/// Weights of the scalar terms, in the order [`Layout::scalars`] reads them.
const SCALAR_WEIGHTS: usize = 2 * MOBILITY_SLOTS + 2 * POTENTIAL_SLOTS;
/// Counts of the side to move's legal moves with a weight of their own:
/// 0 to 31, more counting as 31. The midgame search generates a
/// position's moves before it evaluates it, so there the term costs one
/// more table read (the solver's move ordering generates them for it).
const MOBILITY_SLOTS: usize = 32;
/// [`REGIONS`] rounded up to whole vector registers.
pub(super) const LANES: usize = 48;

/// Every region of the board and the size of one phase's weight table.
pub struct Layout {
    regions: Vec<Region>,
    /// Weights per phase: the regions' configurations, the scalar terms'
    /// counts, and last the phase's constant term.
    pub per_phase: usize,
    /// Where the scalar terms' weights start (the mover's mobility first).
    pub(super) scalars_at: usize,
    /// For each region, the base-3 value (digits in its shape's square
    /// order) of each pattern of its squares' bits as read off the board:
    /// the board is read once per region, with no symmetry applied.
    ternary: Vec<[u16; 1 << MAX_SQUARES]>,
    /// For every configuration of every shape (by offset + index), the
    /// index of its canonical twin: configurations that a symmetry of the
    /// shape itself maps onto each other share one weight.
    pub(super) canon: Vec<u32>,
    /// For each square, its digit's place value (a power of 3) in every
    /// region (0 in the regions it is not in): a disc that changes moves
    /// every region index by one vector addition.
    pub(super) place: Vec<[u16; LANES]>,
    /// Where each region's shape's weights start (0 past the last region).
    pub(super) offsets: [u32; LANES],
    /// For every weight index, that of the same configuration with the
    /// two sides' discs exchanged (the mobility and constant terms map
    /// to themselves).
    pub(super) swap: Vec<u32>,
}

impl Layout {
    fn new() -> Layout {
        let mut regions = Vec::new();
        let mut offset = 0;
        for (_, mask) in SHAPES {
            let mut seen = Vec::new();
            for k in 0..8 {
                let squares = inverse(mask, k);
                if !seen.contains(&squares) {
                    seen.push(squares);
                    regions.push(Region {
                        squares,
                        symmetry: k,
                        offset,
                    });
                }
            }
            offset += 3usize.pow(mask.count_ones());
        }
        let mut ternary = vec![[0u16; 1 << MAX_SQUARES]; regions.len()];
        for (table, region) in ternary.iter_mut().zip(&regions) {
            let mask = symmetry(region.squares, region.symmetry);
            // The shape digit of each of the region's squares, lowest first.
            let digits: Vec<u32> = (0..64)
                .filter(|b| region.squares & (1 << b) != 0)
                .map(|b| {
                    let at = symmetry(1 << b, region.symmetry);
                    (mask & (at - 1)).count_ones()
                })
                .collect();
            for (bits, value) in table[..1 << digits.len()].iter_mut().enumerate() {
                *value = digits
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| bits & (1 << i) != 0)
                    .map(|(_, &d)| 3u16.pow(d))
                    .sum();
            }
        }
        let mut place = vec![[0; LANES]; 64];
        for (sq, row) in place.iter_mut().enumerate() {
            for (r, region) in regions.iter().enumerate() {
                if region.squares & (1 << sq) != 0 {
                    let below = region.squares & ((1 << sq) - 1);
                    row[r] = ternary[r][1 << below.count_ones()];
                }
            }
        }
        assert_eq!(regions.len(), REGIONS);
        let mut offsets = [0; LANES];
        for (o, region) in offsets.iter_mut().zip(&regions) {
            *o = region.offset as u32;
        }
        let mut canon: Vec<u32> = Vec::with_capacity(offset);
        let mut swap: Vec<u32> = Vec::with_capacity(offset + SCALAR_WEIGHTS + 1);
        for (_, mask) in SHAPES {
            let start = canon.len() as u32;
            canon.extend(canonical_indices(mask).into_iter().map(|i| start + i));
            swap.extend(exchanged_indices(mask.count_ones()).map(|i| start + i));
        }
        swap.extend(offset as u32..(offset + SCALAR_WEIGHTS + 1) as u32);
        Layout {
            regions,
            per_phase: offset + SCALAR_WEIGHTS + 1,
            scalars_at: offset,
            ternary,
            canon,
            place,
            offsets,
            swap,
        }
    }

    /// The shared layout.
    pub fn get() -> &'static Layout {
        static LAYOUT: OnceLock<Layout> = OnceLock::new();
        LAYOUT.get_or_init(Layout::new)
    }

    /// Number of regions (46).
    pub fn regions(&self) -> usize {
        self.regions.len()
    }

    /// The weight index of every region of the position (player to
    /// move), then that of its mobility, within one phase's table
    /// ([`FEATURES`] in all).
    #[inline]
    pub fn features(&self, player: u64, opponent: u64, out: &mut [u32; FEATURES]) {
        let digits = self.digits(player, opponent);
        for ((f, &d), &o) in out.iter_mut().zip(&digits).zip(&self.offsets[..REGIONS]) {
            *f = self.canon[(o + d as u32) as usize];
        }
        let moves = Bitboard::moves_for(player, opponent);
        let scalars = self.scalars(player, opponent, moves);
        for (f, i) in out[REGIONS..].iter_mut().zip(scalars) {
            *f = i as u32;
        }
    }

    /// The weight indices of the scalar terms of the position of `player`
    /// (to move, with legal `moves`) against `opponent`.
    #[inline]
    pub(super) fn scalars(&self, player: u64, opponent: u64, moves: u64) -> [usize; SCALARS] {
        let empty = !(player | opponent);
        let counts = [
            (moves.count_ones(), MOBILITY_SLOTS),
            (
                Bitboard::moves_for(opponent, player).count_ones(),
                MOBILITY_SLOTS,
            ),
            (
                (Bitboard::neighbours_of(opponent) & empty).count_ones(),
                POTENTIAL_SLOTS,
            ),
            (
                (Bitboard::neighbours_of(player) & empty).count_ones(),
                POTENTIAL_SLOTS,
            ),
        ];
        let mut at = self.scalars_at;
        counts.map(|(count, slots)| {
            let index = at + (count as usize).min(slots - 1);
            at += slots;
            index
        })
    }

    /// Every region's configuration (within its shape, before twin
    /// configurations are merged) with digit 1 for the discs of `one`, 2
    /// for those of `two`.
    #[inline]
    pub(super) fn digits(&self, one: u64, two: u64) -> [u16; LANES] {
        const ALL: u64 = (1 << MAX_SQUARES) - 1;
        let mut digits = [0; LANES];
        for ((d, r), t) in digits.iter_mut().zip(&self.regions).zip(&self.ternary) {
            *d = t[(pext(one, r.squares) & ALL) as usize]
                + 2 * t[(pext(two, r.squares) & ALL) as usize];
        }
        digits
    }
}

/// For each configuration of a shape of `squares` squares (base-3 index),
/// the index of the configuration with digits 1 and 2 exchanged.
fn exchanged_indices(squares: u32) -> impl Iterator<Item = u32> {
    (0..3u32.pow(squares)).map(move |index| {
        (0..squares).fold(0, |out, j| {
            let place = 3u32.pow(j);
            let digit = index / place % 3;
            out + [0, 2, 1][digit as usize] * place
        })
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn symmetries_are_a_group_with_inverses() {
        let x = 0x0123_4567_89AB_CDEFu64;
        for k in 0..8 {
            assert_eq!(inverse(symmetry(x, k), k), x);
            assert_eq!(symmetry(x, k).count_ones(), x.count_ones());
        }
        // Transpose sends b1 (bit 1) to a2 (bit 8).
        assert_eq!(transpose(1 << 1), 1 << 8);
        assert_eq!(mirror_horizontal(1), 1 << 7);
        assert_eq!(flip_vertical(1), 1 << 56);
    }

    #[test]
    fn the_layout_has_46_regions() {
        let l = Layout::get();
        assert_eq!(l.regions(), 46);
        // Every square is read by some region.
        let covered = l.regions.iter().fold(0u64, |acc, r| acc | r.squares);
        assert_eq!(covered, u64::MAX);
        assert_eq!(l.ternary[0][0b101], 10);
    }

    #[test]
    fn features_match_reading_each_region_through_its_symmetry() {
        // The reference: turn the board so the region lands on its shape's
        // mask, then read the mask's squares in order as base-3 digits.
        let l = Layout::get();
        let mut rng = ChaCha8Rng::seed_from_u64(0x9E37_79B9_7F4A_7C15u64);
        for _ in 0..200 {
            let x: u64 = rng.random();
            let (p, o) = (x & 0x5A5A_3C3C_F00F_1248, !x & 0x24A5_C3C3_0FF0_8421);
            let mut got = [0u32; FEATURES];
            l.features(p, o, &mut got);
            // The scalar terms, counted square by square.
            let moves = |a: u64, b: u64| Bitboard::moves_for(a, b).count_ones() as usize;
            let next_to = |discs: u64| {
                (0..64)
                    .filter(|&sq| (p | o) & (1u64 << sq) == 0)
                    .filter(|&sq: &i32| {
                        (-1..=1).any(|dr: i32| {
                            (-1..=1).any(|dc: i32| {
                                let (r, c) = (sq / 8 + dr, sq % 8 + dc);
                                (0..8).contains(&r)
                                    && (0..8).contains(&c)
                                    && discs & (1u64 << (r * 8 + c)) != 0
                            })
                        })
                    })
                    .count()
            };
            let at = l.scalars_at;
            assert_eq!(got[REGIONS] as usize, at + moves(p, o).min(31));
            assert_eq!(got[REGIONS + 1] as usize, at + 32 + moves(o, p).min(31));
            assert_eq!(got[REGIONS + 2] as usize, at + 64 + next_to(o).min(39));
            assert_eq!(got[REGIONS + 3] as usize, at + 104 + next_to(p).min(39));
            for (r, region) in l.regions.iter().enumerate() {
                let (vp, vo) = (symmetry(p, region.symmetry), symmetry(o, region.symmetry));
                let mask = symmetry(region.squares, region.symmetry);
                let mut index = 0;
                for (j, b) in (0..64).filter(|b| mask & (1u64 << b) != 0).enumerate() {
                    let digit = if vp & (1 << b) != 0 {
                        1
                    } else if vo & (1 << b) != 0 {
                        2
                    } else {
                        0
                    };
                    index += digit * 3usize.pow(j as u32);
                }
                assert_eq!(got[r], l.canon[region.offset + index], "region {r}");
            }
        }
    }
}
