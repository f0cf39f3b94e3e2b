//! Bit tables of the 8x8 board that the solver looks squares up in: corners
//! and edges, the 4x4 quadrants of the parity order, the order classes of
//! squares, each square's neighbours and diagonals.

pub(super) const CORNERS: u64 = 0x8100_0000_0000_0081;
/// All squares but those of column a, and of column h: where a shift by a
/// column lands without wrapping to the other edge.
pub(super) const NOT_A: u64 = 0xFEFE_FEFE_FEFE_FEFE;
pub(super) const NOT_H: u64 = 0x7F7F_7F7F_7F7F_7F7F;

/// The 4x4 quadrants, in the order of their bits in a parity mask.
pub(super) const QUADRANTS: [u64; 4] = [
    0x0000_0000_0F0F_0F0F,
    0x0000_0000_F0F0_F0F0,
    0x0F0F_0F0F_0000_0000,
    0xF0F0_F0F0_0000_0000,
];

/// The parity mask of `empty`: the bit of each quadrant with an odd number
/// of empty squares.
#[inline]
pub(super) fn quadrant_parity(empty: u64) -> u8 {
    (0..4).fold(0, |acc, i| {
        acc | ((((empty & QUADRANTS[i]).count_ones() & 1) as u8) << i)
    })
}

/// The bit of each square's 4x4 quadrant in a parity mask.
pub(super) const QUADRANT_BIT: [u8; 64] = {
    let mut t = [0u8; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = 1 << ((sq / 32) * 2 + (sq % 8) / 4);
        sq += 1;
    }
    t
};

/// Squares in the order the parity search tries them within a parity
/// class (and the ordering search tries its moves): corners, then edges
/// away from corners, then the middle, then the C and X squares next to
/// corners.
pub(super) const PRIORITY: [u64; 5] = [
    CORNERS,
    0x3C00_8181_8181_003C,
    0x003C_7E7E_7E7E_3C00,
    0x4281_0000_0000_8142,
    0x0042_0000_0000_4200,
];

pub(super) const fn build_neighbours() -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        let (r, c) = ((sq / 8) as i32, (sq % 8) as i32);
        let mut m = 0u64;
        let mut dr = -1;
        while dr <= 1 {
            let mut dc = -1;
            while dc <= 1 {
                let (rr, cc) = (r + dr, c + dc);
                if (dr != 0 || dc != 0) && rr >= 0 && rr < 8 && cc >= 0 && cc < 8 {
                    m |= 1u64 << (rr * 8 + cc);
                }
                dc += 1;
            }
            dr += 1;
        }
        t[sq] = m;
        sq += 1;
    }
    t
}

/// The squares around each square: a move there needs an opponent disc
/// among them.
pub(super) static NEIGHBOURS: [u64; 64] = build_neighbours();

/// The diagonals (a1-h8 direction) and anti-diagonals of at least two
/// squares.
pub(super) const fn diagonals(anti: bool) -> [u64; 13] {
    let mut out = [0u64; 13];
    let mut k = 0;
    let mut d: i32 = -6;
    while d <= 6 {
        let mut m = 0u64;
        let mut r = 0;
        while r < 8 {
            let c = if anti { 7 - r - d } else { r + d };
            if c >= 0 && c < 8 {
                m |= 1u64 << (r * 8 + c);
            }
            r += 1;
        }
        out[k] = m;
        k += 1;
        d += 1;
    }
    out
}

/// The line among `lines` through each square (the square alone for the
/// two corners that no line of two squares or more reaches).
pub(super) const fn line_through(lines: [u64; 13]) -> [u64; 64] {
    let mut t = [0u64; 64];
    let mut sq = 0;
    while sq < 64 {
        t[sq] = 1u64 << sq;
        let mut k = 0;
        while k < 13 {
            if lines[k] & (1u64 << sq) != 0 {
                t[sq] = lines[k];
            }
            k += 1;
        }
        sq += 1;
    }
    t
}

/// The diagonal and the anti-diagonal through each square.
pub(super) static SQUARE_DIAGONALS: [u64; 64] = line_through(diagonals(false));
pub(super) static SQUARE_ANTI_DIAGONALS: [u64; 64] = line_through(diagonals(true));

/// The empty squares in quadrants with an odd number of them: a move there
/// leaves the region's last move to us (see the parity search).
#[inline]
pub(super) fn odd_empties(empty: u64) -> u64 {
    let parity = quadrant_parity(empty);
    (0..4)
        .filter(|&i| parity & (1 << i) != 0)
        .fold(0, |acc, i| acc | (empty & QUADRANTS[i]))
}
