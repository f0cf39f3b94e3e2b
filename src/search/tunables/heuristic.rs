//! The weights of the hand-weighted evaluation ([`Heuristic`]), which
//! `strong` uses on every size but 8x8, in hundredths of a disc. They were
//! set by hand with the search (commit 9c4fa85) from the classic Othello
//! advice, and are not fitted: the large boards have no games to fit them
//! on. The rows that changed them are in `docs/research/evaluation.md`
//! ("The hand-weighted evaluation").
//!
//! [`Heuristic`]: crate::search::Heuristic

/// A move of mobility (ours minus the opponent's) at the start of the
/// game; [`MOBILITY_FADE`] of it is gone when the board is full, since
/// late moves are forced anyway.
pub(crate) const MOBILITY: i32 = 45;
/// See [`MOBILITY`].
pub(crate) const MOBILITY_FADE: i32 = 15;

/// A corner: it can never be flipped, and it anchors its edges. Worth
/// more than any other term, as in every Othello evaluation.
pub(crate) const CORNER: i32 = 350;

/// A disc on the X square (diagonal to an empty corner) counts
/// [`X_SQUARE_DANGER`] times, one on a C square (beside it) once; each
/// such count costs [`DANGER`]: they hand the opponent the corner.
pub(crate) const DANGER: i32 = 40;
/// See [`DANGER`].
pub(crate) const X_SQUARE_DANGER: i32 = 3;

/// An edge disc (not a corner, X or C square) at the start of the game,
/// growing by [`EDGE_GROWTH`] to the end: edges are hard to flip, and
/// more so as the board fills.
pub(crate) const EDGE: i32 = 5;
/// See [`EDGE`].
pub(crate) const EDGE_GROWTH: i32 = 10;

/// An edge disc anchored on a corner, from 10x10 up: long edges taken from
/// a corner made the late collapses against `greedy` (the journal's row).
pub(crate) const ANCHORED: i32 = 40;

/// A disc at the end of the game: the disc weight grows with the square of
/// the game's progress to this, since the final count is what is scored.
pub(crate) const LATE_DISC: i32 = 40;

/// A disc at the start of the game: on small boards the classic advice
/// (few discs early); from 10x10 up a side that gives discs away lets
/// `greedy` surround it, so discs count from the start (the journal's
/// row, with [`few_discs`] and the frontier term's absence there).
pub(crate) fn early_disc(n: usize) -> i32 {
    if n >= 10 { 30 } else { -6 }
}

/// A frontier disc (potential mobility): a weight on small boards, none
/// from 10x10 up (see [`early_disc`]).
pub(crate) fn potential(n: usize) -> i32 {
    if n >= 10 { 0 } else { 15 }
}

/// From 10x10 up, a side with fewer discs than this can be wiped out a few
/// plies past the horizon by a player that flips all it can: each disc
/// short of it costs [`WIPE_OUT`] times its square.
pub(crate) fn few_discs(n: usize) -> i32 {
    if n >= 10 { 10 } else { 0 }
}
/// See [`few_discs`].
pub(crate) const WIPE_OUT: i32 = 60;

/// Late in the game (progress past [`PARITY_PROGRESS`] of 1024), with an odd
/// number of empties the side to move gets the last move of the board, a
/// tempo worth [`PARITY`].
pub(crate) const PARITY: i32 = 30;
/// See [`PARITY`].
pub(crate) const PARITY_PROGRESS: i32 = 700;
