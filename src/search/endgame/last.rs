//! The last plies of a solve, counted rather than searched: the final score
//! of a full board, and the score with one empty square left from line
//! tables of flip counts (no flip set is built).

use super::tables::{SQUARE_ANTI_DIAGONALS, SQUARE_DIAGONALS};

/// The final score of a finished game for the player.
#[inline]
pub(super) fn final_score(player: u64, opponent: u64) -> i32 {
    let (p, o) = (player.count_ones() as i32, opponent.count_ones() as i32);
    let empties = 64 - p - o;
    match p.cmp(&o) {
        std::cmp::Ordering::Greater => p - o + empties,
        std::cmp::Ordering::Less => p - o - empties,
        std::cmp::Ordering::Equal => 0,
    }
}

/// For each position in a line of 8 and each pattern of the player's discs
/// on that line (every other square of it taken by the opponent), how many
/// discs a player disc at that position flips along the line.
pub(super) const fn build_line_flips() -> [[u8; 256]; 8] {
    let mut t = [[0u8; 256]; 8];
    let mut pos = 0;
    while pos < 8 {
        let mut pattern = 0;
        while pattern < 256 {
            let mut count = 0;
            let mut i = pos as i32 - 1;
            while i >= 0 && pattern & (1 << i) == 0 {
                i -= 1;
            }
            if i >= 0 {
                count += pos as i32 - 1 - i;
            }
            let mut j = pos + 1;
            while j < 8 && pattern & (1 << j) == 0 {
                j += 1;
            }
            if j < 8 {
                count += (j - pos - 1) as i32;
            }
            t[pos][pattern] = count as u8;
            pattern += 1;
        }
        pos += 1;
    }
    t
}

pub(super) static LINE_FLIPS: [[u8; 256]; 8] = build_line_flips();

/// Discs a disc of `player` on the last empty square `sq` flips, counted
/// without building the flip set: each of the four lines through `sq` is
/// gathered into a byte (a row as it is, a column or a diagonal by one
/// multiplication that moves each of its squares to the bit of its row or
/// column), and a table gives the count. On a full line every square that
/// is not the player's is the opponent's; squares a short diagonal lacks
/// read as the opponent's but lie beyond its end, where no player disc can
/// close a line, so they count nothing.
#[inline]
pub(super) fn last_flip_count(player: u64, sq: usize) -> i32 {
    const FILE_A: u64 = 0x0101_0101_0101_0101;
    const FILE_TO_ROW: u64 = 0x0102_0408_1020_4080;
    let (r, c) = (sq >> 3, sq & 7);
    let row = (player >> (r * 8)) as u8 as usize;
    let column = (((player >> c) & FILE_A).wrapping_mul(FILE_TO_ROW) >> 56) as usize;
    let diagonal = ((player & SQUARE_DIAGONALS[sq]).wrapping_mul(FILE_A) >> 56) as usize;
    let anti = ((player & SQUARE_ANTI_DIAGONALS[sq]).wrapping_mul(FILE_A) >> 56) as usize;
    (LINE_FLIPS[c][row] + LINE_FLIPS[r][column] + LINE_FLIPS[c][diagonal] + LINE_FLIPS[c][anti])
        as i32
}

/// The score with exactly one empty square `sq` left, player to move.
#[inline]
pub(super) fn solve_one(player: u64, opponent: u64, sq: usize) -> i32 {
    let p = player.count_ones() as i32;
    let flips = last_flip_count(player, sq);
    if flips > 0 {
        return 2 * (p + flips + 1) - 64;
    }
    let theirs = last_flip_count(opponent, sq);
    if theirs > 0 {
        return 2 * (p - theirs) - 64;
    }
    let diff = 2 * p - 63;
    if diff > 0 { diff + 1 } else { diff - 1 }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Bitboard;
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn last_flip_counts_match_the_flip_sets() {
        let mut rng = ChaCha8Rng::seed_from_u64(0x9E37_79B9_7F4A_7C15u64);
        for _ in 0..20_000 {
            let x: u64 = rng.random();
            let sq = (x >> 58) as usize;
            let player = x & !(1u64 << sq);
            let opponent = !player & !(1u64 << sq);
            assert_eq!(
                last_flip_count(player, sq),
                Bitboard::flips_for(player, opponent, sq).count_ones() as i32,
                "square {sq}, player {player:#x}"
            );
        }
    }

    #[test]
    fn one_empty_square_scores() {
        // Player has everything but h8 and one opponent disc at g8: h8 flips it.
        let empty = 1u64 << 63;
        let opp = 1u64 << 62;
        let player = !(empty | opp);
        assert_eq!(solve_one(player, opp, 63), 64);
        // Opponent alone can move: it flips, player then has 64 - 2 - ... discs.
        assert_eq!(solve_one(opp, player, 63), -64);
    }
}
