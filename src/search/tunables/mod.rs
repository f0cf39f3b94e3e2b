//! Every setting of the search, the time use and the hand-weighted
//! evaluation, each named once with what it does and why, and a link to
//! the journal (`docs/research/`) that holds the measurements that chose
//! it. This file holds the middle-game search's and the time's; the exact
//! solver's are in [`endgame`], the hand-weighted evaluation's weights in
//! [`heuristic`].

use std::time::Duration;

pub mod endgame;
pub(crate) mod heuristic;

// Selectivity (docs/research/selectivity.md).

/// How many standard deviations of its error a shallow search must lie
/// outside a null window for ProbCut to cut: a wider margin searches more
/// and a narrower one cuts wrongly; neither played better
/// (docs/research/selectivity.md).
pub const PROBCUT_DEVIATIONS: f64 = 1.0;

/// A side with at most this many discs, against at least
/// [`WIPE_OUT_RATIO`] times as many, may be wiped out within a few plies,
/// where the pattern evaluation (which has seen no such position) is no
/// guide: ProbCut does not cut there. Without the guard `strong` lost
/// games to the course players by a wipe-out
/// (docs/research/selectivity.md, "The wipe-out guard").
pub const WIPE_OUT_DISCS: u32 = 8;
/// See [`WIPE_OUT_DISCS`]; the ratio keeps the first plies of a game, where
/// both sides have few discs, out of the guard (without it the search there
/// lost much of its depth: the same journal row).
pub const WIPE_OUT_RATIO: u32 = 2;

/// Late move reductions (8x8): from this many plies left, at null-window
/// nodes, moves from [`LMR_FIRST_MOVE`] on (counting from 0) are first
/// searched a ply shallower: moves the ordering puts late seldom cut, so
/// their nodes are saved; reducing more played worse
/// (docs/research/selectivity.md, "Late move reductions").
pub const LMR_MIN_DEPTH: i32 = 3;
/// See [`LMR_MIN_DEPTH`]: the third move on.
pub const LMR_FIRST_MOVE: usize = 2;

// Move ordering.

/// From this many plies left, a node orders its moves by the evaluation
/// after each besides the opponent's replies: closer to the leaves the
/// evaluations cost more than the nodes they save
/// (docs/research/selectivity.md, "Move ordering").
pub const EVAL_ORDER_DEPTH: i32 = 4;
/// Ordering points a disc of that evaluation is worth: four replies, so the
/// evaluation leads and mobility breaks near ties; nearby weights searched
/// as many nodes (docs/research/selectivity.md, "Move ordering").
pub const EVAL_ORDER_WEIGHT: i32 = 256;
/// Ordering points an opponent reply costs (see [`EVAL_ORDER_WEIGHT`]; a
/// smaller weight searched more nodes, a larger one as many).
pub const REPLY_ORDER_WEIGHT: i32 = 64;
/// From how many plies left moves are ordered by the opponent's replies
/// (a move generation per move): 2 on 8x8; 3 on the other sizes, where a
/// move generation costs several times more (their depths came sooner:
/// docs/research/selectivity.md, "Move ordering").
pub fn reply_order_depth(n: usize) -> i32 {
    if n == 8 { 2 } else { 3 }
}

/// From this many plies left a node uses the table: one ply from the
/// leaves a search again is cheaper than a probe (a cache miss)
/// (docs/research/selectivity.md, "The table and the window").
pub const TT_MIN_DEPTH: i32 = 2;

/// Half the width of an iteration's aspiration window around the last
/// score, in hundredths of a disc: a narrower window fails and searches
/// again more often, a wider one cuts less; other widths searched about as
/// many nodes (docs/research/selectivity.md, "The table and the window").
pub const ASPIRATION_HALF_WIDTH: i32 = super::DISC / 2;
/// The first depth whose iteration searches in an aspiration window (the
/// shallower ones are too cheap to gain from one, and their scores swing
/// too much for a narrow window). Set, not tuned.
pub const ASPIRATION_MIN_DEPTH: u32 = 4;

// Time (docs/research/time.md).

/// The share of a move's time kept back for reading, writing and
/// scheduling, and its bounds: [`safety`](super::safety). A twentieth kept
/// moves at 1 s within the limit with both cores busy, where a smaller cap
/// did not (docs/research/time.md, "Margins and spending").
pub const SAFETY_SHARE: u32 = 20;
/// See [`SAFETY_SHARE`]: a reply's own reading and writing on a quiet
/// machine.
pub const SAFETY_MIN: Duration = Duration::from_millis(3);
/// See [`SAFETY_SHARE`]: it covers the overruns seen at 1 s a move on a
/// busy machine.
pub const SAFETY_MAX: Duration = Duration::from_millis(50);

/// In main time, a move may run to this many times its share of the clock
/// when an iteration started in time runs long; the later moves' shares
/// shrink to make up for it. Cutting such an iteration off throws away
/// most of its work; letting it run unbounded can starve the endgame.
/// With [`SOFT_SHARE`] and [`MOST_OF_LEFT`], a game spends its clock, and
/// beat one that saved half of it (docs/research/time.md, "Margins and
/// spending"). The values were set, not tuned.
pub const OVERSPEND: f64 = 2.0;
/// In main time, no iteration starts once this much of the move's share is
/// gone: iterations take about as long as all the ones before, so a move
/// then uses about its share on average.
pub const SOFT_SHARE: f64 = 0.7;
/// Most of what is left on the clock that one move may use when running
/// past its share (a move may always use its share): a bound on
/// [`OVERSPEND`] near the end of the clock, so that one move never leaves
/// the rest of the game too little (see [`OVERSPEND`]).
pub const MOST_OF_LEFT: f64 = 0.25;
/// Below this many empties the 8x8 solver decides a move in a few
/// milliseconds, so those moves get no share of main time (counting them
/// left much of the clock unspent: docs/research/time.md, "Margins and
/// spending").
pub const SOLVED_BELOW: u32 = 20;
/// The least time a move is given, even with the clock nearly out: the
/// least in which a search returns more than the evaluation's first choice
/// (the safety margin's floor, [`SAFETY_MIN`], is taken from it).
pub const MINIMUM_MOVE_TIME: Duration = Duration::from_millis(5);
/// GUIs send `time_left` in whole seconds: a clock is trusted only up to
/// this many seconds less than it says, the most the rounding can take.
pub const CLOCK_ROUNDING: f64 = 1.0;
/// The share of the time left that a search may spend mapping its table's
/// pages before it starts: a GUI that sends `clear_board` and `genmove`
/// together no longer waits for a whole table's pages, and the search
/// keeps most of the move (docs/research/time.md, "The table's pages").
pub const MAP_SHARE: u32 = 4;
/// How long after the hard deadline a stopped search may still take to
/// hand back its move before the engine gives up on it: a search looks at
/// its stop every few thousand nodes (well under a millisecond), so this
/// covers a loaded machine's scheduling, not the search. Set with the
/// daemon (ab2e509), not measured.
pub const GRACE: Duration = Duration::from_millis(40);
/// How fast the engine forgets how late its searches answered: by a
/// this-many-th with each answer. Fading by an eighth left more late
/// replies under load than by a thirty-second (docs/research/time.md,
/// "Lateness under load").
pub const LAG_FADE: u32 = 32;
