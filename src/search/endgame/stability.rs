//! Stable discs (which no move can flip) and the cutoff they give: the
//! opponent keeps at least its stable discs, which bounds our score.

use super::tables::{CORNERS, NOT_A, NOT_H};

/// Squares with an empty square somewhere along their ray towards higher
/// bits, `k` bits a step: the empty squares spread back 1, 2 and 4 steps,
/// `masks[i]` keeping the squares from which 2^i steps stay on the board.
#[inline]
pub(super) fn empty_ray_up(empty: u64, k: u32, masks: [u64; 3]) -> u64 {
    let mut y = (empty >> k) & masks[0];
    y |= (y >> k) & masks[0];
    y |= (y >> (2 * k)) & masks[1];
    y | ((y >> (4 * k)) & masks[2])
}

/// [`empty_ray_up`] towards lower bits.
#[inline]
pub(super) fn empty_ray_down(empty: u64, k: u32, masks: [u64; 3]) -> u64 {
    let mut y = (empty << k) & masks[0];
    y |= (y << k) & masks[0];
    y |= (y << (2 * k)) & masks[1];
    y | ((y << (4 * k)) & masks[2])
}

/// Squares whose line in each direction is full: (horizontal, vertical,
/// diagonal, anti-diagonal). Every step is a shift, so the stability
/// cutoff, a large share of the solver's time, does not loop over lines
/// (docs/research/endgame.md, "Cutoffs").
pub(super) fn full_lines(occupied: u64) -> [u64; 4] {
    const COLS_A_F: u64 = 0x3F3F_3F3F_3F3F_3F3F;
    const COLS_A_D: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    const COLS_C_H: u64 = 0xFCFC_FCFC_FCFC_FCFC;
    const COLS_E_H: u64 = 0xF0F0_F0F0_F0F0_F0F0;
    // A row is full when the AND of its 8 bits, folded into its first bit,
    // is set; likewise a column with the 8 rows folded together.
    let mut h = occupied;
    h &= h >> 4;
    h &= h >> 2;
    h &= h >> 1;
    let full_h = (h & 0x0101_0101_0101_0101) * 0xFF;
    let mut v = occupied;
    v &= v >> 32;
    v &= v >> 16;
    v &= v >> 8;
    let full_v = (v & 0xFF) * 0x0101_0101_0101_0101;
    // A diagonal square is on a full line when no empty square lies on
    // its ray either way (+9: one row up and one column right; +7: one
    // row up and one column left).
    let empty = !occupied;
    let gap_9 = empty_ray_up(empty, 9, [NOT_H, COLS_A_F, COLS_A_D])
        | empty_ray_down(empty, 9, [NOT_A, COLS_C_H, COLS_E_H]);
    let gap_7 = empty_ray_up(empty, 7, [NOT_A, COLS_C_H, COLS_E_H])
        | empty_ray_down(empty, 7, [NOT_H, COLS_A_F, COLS_A_D]);
    [full_h, full_v, occupied & !gap_9, occupied & !gap_7]
}

/// Discs of `player` that can never be flipped: in each of the four line
/// directions the line is full, or the disc is on the edge across it, or a
/// neighbour along it is itself stable and of the same colour.
pub fn stable_discs(player: u64, opponent: u64) -> u64 {
    const EDGE: u64 = 0xFF81_8181_8181_81FF;
    const COLS_AH: u64 = 0x8181_8181_8181_8181;
    const ROWS_18: u64 = 0xFF00_0000_0000_00FF;
    let [full_h, full_v, full_d9, full_d7] = full_lines(player | opponent);
    let mut stable = 0u64;
    loop {
        let h = full_h | COLS_AH | ((stable << 1) & NOT_A) | ((stable >> 1) & NOT_H);
        let v = full_v | ROWS_18 | (stable << 8) | (stable >> 8);
        let d9 = full_d9 | EDGE | ((stable << 9) & NOT_A) | ((stable >> 9) & NOT_H);
        let d7 = full_d7 | EDGE | ((stable << 7) & NOT_H) | ((stable >> 7) & NOT_A);
        let next = player & h & v & d9 & d7;
        if next == stable {
            return stable;
        }
        stable = next;
    }
}

/// The stability cutoff: the opponent keeps at least its stable discs, so
/// the score is at most 64 less twice their number; that bound, if it is
/// no better than `alpha`. The stable discs are only counted when even all
/// of the opponent's discs being stable would cut.
#[inline]
pub(super) fn stability_cut(p: u64, o: u64, alpha: i32) -> Option<i32> {
    if 64 - 2 * o.count_ones() as i32 > alpha {
        return None;
    }
    let bound = 64 - 2 * stable_discs(o, p).count_ones() as i32;
    (bound <= alpha).then_some(bound)
}

/// Our discs that are stable for sure in the corner regions: the corners
/// we hold and, next to them, the edge squares we hold. Cheaper than
/// [`stable_discs`], and enough to tell moves apart.
#[inline]
pub(super) fn corner_stability(discs: u64) -> u32 {
    let next_to_corners = ((discs & 0x0100_0000_0000_0001) << 1)
        | ((discs & 0x8000_0000_0000_0080) >> 1)
        | ((discs & 0x0000_0000_0000_0081) << 8)
        | ((discs & 0x8100_0000_0000_0000) >> 8);
    ((next_to_corners | CORNERS) & discs).count_ones()
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn stable_discs_include_corners_and_full_edges() {
        // Player on a1 and b1, opponent on c1: a1, b1 stable.
        assert_eq!(stable_discs(0b11, 0b100), 0b11);
        // A lone disc in the middle is not stable.
        assert_eq!(stable_discs(1 << 27, 1 << 28), 0);
        // A full board is all stable.
        assert_eq!(
            stable_discs(0x0F0F_0F0F_0F0F_0F0F, !0x0F0F_0F0F_0F0F_0F0F),
            0x0F0F_0F0F_0F0F_0F0F
        );
    }

    #[test]
    fn full_lines_match_a_square_by_square_count() {
        let lines = |sq: usize, d: usize| -> u64 {
            let (dr, dc) = [(0, 1), (1, 0), (1, 1), (1, -1)][d];
            let mut m = 1u64 << sq;
            for sign in [-1i32, 1] {
                let (mut r, mut c) = ((sq / 8) as i32 + sign * dr, (sq % 8) as i32 + sign * dc);
                while (0..8).contains(&r) && (0..8).contains(&c) {
                    m |= 1 << (r * 8 + c);
                    r += sign * dr;
                    c += sign * dc;
                }
            }
            m
        };
        let mut rng = ChaCha8Rng::seed_from_u64(0x1234_5678_9ABC_DEF0u64);
        for _ in 0..200 {
            let x: u64 = rng.random();
            let occupied = x | (x >> 3) | (x >> 9) & 0x8100_0000_0000_FF00;
            let got = full_lines(occupied);
            for (d, &full) in got.iter().enumerate() {
                let want = (0..64)
                    .filter(|&sq| occupied & lines(sq, d) == lines(sq, d))
                    .fold(0u64, |a, sq| a | 1 << sq);
                assert_eq!(full, want, "direction {d}");
            }
        }
    }
}
