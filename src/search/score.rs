//! Score units, shared by the midgame search, the exact solver and the
//! table: a heuristic score is in hundredths of a disc ([`DISC`]); a
//! finished game's score is its disc difference in those units plus or
//! minus [`WIN`], so that any proven win outranks every heuristic score.
//! Knows nothing of how scores are searched for.

use crate::rules::Board;

/// One disc, in score units.
pub const DISC: i32 = 100;
/// Added to (or taken from) the score of a finished game, so that a proven
/// win outranks every heuristic evaluation.
pub const WIN: i32 = 1_000_000;
/// Larger than any score.
pub const INFINITY: i32 = 2 * WIN;

/// The score of a finished game for the side to move: exact disc
/// difference (empties to the winner) in [`DISC`] units, plus or minus
/// [`WIN`].
pub fn terminal_score<B: Board>(board: &B) -> i32 {
    to_table(board.final_score())
}

/// The score of a finished game with disc difference `discs` (the
/// solver's unit) in score units.
pub fn to_table(discs: i32) -> i32 {
    discs * DISC + discs.signum() * WIN
}

/// The final disc difference a score proves, if it is a finished-game score
/// (0 counts as a proven draw).
pub fn proven_discs(score: i32) -> Option<i32> {
    (forced_finish(score) || score == 0).then(|| (score - score.signum() * WIN) / DISC)
}

/// A score in discs for the side to move, as people and protocols read
/// it: a finished game's disc difference (without the [`WIN`] that ranks
/// it above evaluations), or the evaluation.
pub fn in_discs(score: i32) -> f64 {
    match proven_discs(score) {
        Some(discs) => f64::from(discs),
        None => f64::from(score) / f64::from(DISC),
    }
}

/// A score as the protocols, tools and logs show it, for the side to
/// move: a proven final disc difference in whole discs (`+6`), any other
/// score in discs to two places (`-1.50`; a finished game that a midgame
/// search sees within its depth, unproven, reads as its disc difference,
/// `+64.00`). Book values, in the same units, are shown with it too.
pub fn score_text(score: i32, exact: bool) -> String {
    match proven_discs(score).filter(|_| exact) {
        Some(discs) => format!("{discs:+}"),
        None => format!("{:+.2}", in_discs(score)),
    }
}

/// Whether a score is that of a finished game (won or lost), which a
/// midgame search returns once every line it kept reaches the end.
pub(crate) fn forced_finish(score: i32) -> bool {
    score.abs() >= WIN / 2
}

/// The largest disc score whose score-unit value is at most `x`, so that a
/// solver window in discs means the same as the search's window.
pub(crate) fn disc_floor(x: i32) -> i32 {
    if x >= WIN {
        (x - WIN).div_euclid(DISC)
    } else if x >= 0 {
        0
    } else if x > -WIN {
        -1
    } else {
        (x + WIN).div_euclid(DISC).min(-1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn disc_windows_mean_the_same_as_search_windows() {
        for d in -64..=64 {
            let v = to_table(d);
            assert_eq!(disc_floor(v), d);
            assert_eq!(
                disc_floor(v - 1),
                if d == 0 {
                    -1
                } else if d == 1 {
                    0
                } else {
                    d - 1
                }
            );
            assert_eq!(proven_discs(v), Some(d));
        }
        assert_eq!(disc_floor(35), 0);
        assert_eq!(disc_floor(-WIN), -1);
        assert_eq!(-disc_floor(-36), 1);
        assert_eq!(proven_discs(35), None);
    }
}
