//! ProbCut's margins for this evaluation: how far a deep search's score
//! strays from a shallow one's, by depth and band of empties.

/// Bands of empty squares ProbCut's errors are measured in: 10 empties
/// each from [`PROBCUT_FIRST_BAND`] (fewer count in the first band, more in the
/// last).
pub const PROBCUT_BANDS: usize = 5;
pub const PROBCUT_FIRST_BAND: u32 = 10;

/// The band of a position with `empties` empty squares.
pub fn probcut_band(empties: u32) -> usize {
    ((empties.max(PROBCUT_FIRST_BAND) - PROBCUT_FIRST_BAND) / 10).min(PROBCUT_BANDS as u32 - 1)
        as usize
}

/// For each depth from 1 and each band of empties: the mean and standard
/// deviation (score units) of a search's score minus that of the shallow
/// ProbCut search, measured with ProbCut off by `xz -dc games.txt.xz | tail
/// -n 20000 | reversi probcut --games 4000 --per-game 2 --max-depth 10`
/// (the WTHOR games of `../shared/data/wthor/`), with the weights they
/// belong to: a new evaluation needs them measured again. Deeper searches
/// take the deepest row of their parity: measured rows for deeper searches
/// did not pay (docs/research/selectivity.md).
const PROBCUT_ERROR: [[(i32, i32); PROBCUT_BANDS]; 10] = [
    [(91, 405), (236, 341), (231, 290), (193, 232), (289, 296)],
    [(-22, 487), (5, 384), (1, 348), (-21, 252), (29, 205)],
    [(-14, 437), (-36, 343), (-23, 294), (1, 233), (-53, 185)],
    [(-30, 382), (11, 313), (0, 259), (-4, 203), (29, 153)],
    [(-26, 380), (-33, 296), (-10, 240), (-14, 189), (-35, 154)],
    [(-33, 522), (52, 398), (21, 328), (25, 243), (44, 175)],
    [(-53, 516), (-59, 375), (-19, 291), (-33, 222), (-60, 175)],
    [(11, 483), (59, 335), (38, 267), (52, 206), (28, 157)],
    [(-23, 448), (-39, 319), (-13, 258), (-37, 199), (-14, 143)],
    [(34, 533), (63, 381), (53, 293), (72, 222), (19, 168)],
];

/// The mean and deviation of ProbCut's prediction at `depth` plies with
/// `empties` empty squares; deeper than measured, the deepest row of the
/// same parity.
pub(super) fn error(depth: i32, empties: u32) -> Option<(i32, i32)> {
    if depth < 1 {
        return None;
    }
    let last = PROBCUT_ERROR.len() as i32;
    let depth = if depth > last {
        last - ((depth - last) & 1)
    } else {
        depth
    };
    Some(PROBCUT_ERROR[(depth - 1) as usize][probcut_band(empties)])
}
