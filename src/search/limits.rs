//! How long and how deep a move decision may run, and the signal that
//! stops it from outside.
//!
//! A [`StopSignal`] is raised by whoever reads the input (the daemon's
//! reader thread on `stop`, `quit` and end of input). A [`StopToken`] taken
//! from it remembers how often it had been raised when the token was made,
//! so a `stop` read *after* a `genmove` stops that search even if the search
//! has not started yet, while a `stop` read *before* it does not.

use super::tunables::{SAFETY_MAX, SAFETY_MIN, SAFETY_SHARE};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// A signal that can be raised many times; tokens taken from it see the
/// raises that come after them.
#[derive(Clone, Debug, Default)]
pub struct StopSignal(Arc<AtomicU64>);

impl StopSignal {
    /// A signal never raised yet.
    pub fn new() -> StopSignal {
        StopSignal::default()
    }

    /// Stops every search whose token was taken before now.
    pub fn raise(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }

    /// A token that will report the raises from now on.
    pub fn token(&self) -> StopToken {
        StopToken {
            job: Arc::new(AtomicBool::new(false)),
            external: Some((self.0.clone(), self.0.load(Ordering::SeqCst))),
            parent: None,
        }
    }
}

/// What a search polls to know it must stop: its own flag (raised by the
/// code that started it, e.g. at a deadline) or a later raise of the
/// [`StopSignal`] it came from.
#[derive(Clone, Debug)]
pub struct StopToken {
    job: Arc<AtomicBool>,
    external: Option<(Arc<AtomicU64>, u64)>,
    /// The token this one was made from ([`StopToken::child`]): raising
    /// it stops this one too.
    parent: Option<Arc<StopToken>>,
}

impl Default for StopToken {
    fn default() -> Self {
        StopToken::new()
    }
}

impl StopToken {
    /// A token tied to no signal: only [`StopToken::stop`] raises it.
    pub fn new() -> StopToken {
        StopToken {
            job: Arc::new(AtomicBool::new(false)),
            external: None,
            parent: None,
        }
    }

    /// A token raised with this one, that can also be raised alone: a
    /// search's helper threads stop when the search is stopped and when
    /// its main thread is done.
    pub fn child(&self) -> StopToken {
        StopToken {
            job: Arc::new(AtomicBool::new(false)),
            external: None,
            parent: Some(Arc::new(self.clone())),
        }
    }

    /// Stops the search holding this token (and its clones).
    pub fn stop(&self) {
        self.job.store(true, Ordering::SeqCst);
    }

    /// Whether the search must stop.
    #[inline]
    pub fn is_raised(&self) -> bool {
        self.job.load(Ordering::Relaxed)
            || self
                .external
                .as_ref()
                .is_some_and(|(count, seen)| count.load(Ordering::Relaxed) != *seen)
            || self.parent.as_ref().is_some_and(|p| p.is_raised())
    }
}

/// The longest time any limit may be: every time a user, a GUI or a
/// referee gives (per move or on a clock) is refused above it, so that no
/// deadline can overflow the clock. About 11.6 days.
pub const MAX_TIME: Duration = Duration::from_secs(1_000_000);

/// `seconds` as a duration, saturated to 0..=[`MAX_TIME`] (NaN is 0): a
/// clock computed from checked inputs stays in range, and one that is
/// not cannot panic.
pub fn bounded_secs(seconds: f64) -> Duration {
    if seconds.is_nan() || seconds <= 0.0 {
        Duration::ZERO
    } else {
        Duration::try_from_secs_f64(seconds).map_or(MAX_TIME, |d| d.min(MAX_TIME))
    }
}

/// Time kept back from a move's budget for reading, writing and
/// scheduling: a [`SAFETY_SHARE`]th of it, from [`SAFETY_MIN`] to
/// [`SAFETY_MAX`].
pub fn safety(limit: Duration) -> Duration {
    (limit / SAFETY_SHARE).clamp(SAFETY_MIN, SAFETY_MAX)
}

/// Limits for one move decision. A searching player starts no iteration
/// after `soft`, stops at once after `hard` or when `stop` is raised, and
/// always returns a legal move.
#[derive(Clone, Debug, Default)]
pub struct Limits {
    /// Start no new iteration after this instant. At the hard limit, the
    /// time cannot be saved for later, so iterations start until then
    /// even when they cannot be expected to finish.
    pub soft: Option<Instant>,
    /// Stop searching at this instant.
    pub hard: Option<Instant>,
    /// Deepest iteration to run, in plies.
    pub depth: Option<u32>,
    /// Raised from outside to stop the search now.
    pub stop: StopToken,
    /// Root moves (square indices) the search leaves out, as UCI's
    /// `searchmoves` keeps others out: an opening book's deviation is the
    /// best move that no game played. At least one legal move must remain.
    pub excluded: Vec<usize>,
}

impl Limits {
    /// No time or depth limit: players with a fixed depth run to it.
    pub fn unlimited() -> Limits {
        Limits::default()
    }

    /// A per-move time limit from now: the limit less a [`safety`] margin
    /// as both limits (the time cannot be saved for later: it is spent).
    pub fn movetime(limit: Duration) -> Limits {
        let hard = limit.saturating_sub(safety(limit));
        Limits::default().with_budget(hard, hard)
    }

    /// These limits with a hard limit `hard` and a soft one `soft` from now.
    pub fn with_budget(self, hard: Duration, soft: Duration) -> Limits {
        self.with_budget_from(Instant::now(), hard, soft)
    }

    /// These limits with a hard limit `hard` and a soft one `soft` after
    /// `start` (capped at [`MAX_TIME`], so that no deadline overflows).
    pub fn with_budget_from(self, start: Instant, hard: Duration, soft: Duration) -> Limits {
        let hard = hard.min(MAX_TIME);
        Limits {
            soft: start.checked_add(soft.min(hard)),
            hard: start.checked_add(hard),
            ..self
        }
    }

    /// Whether the search must stop now.
    #[inline]
    pub fn must_stop(&self) -> bool {
        self.stop.is_raised() || self.hard.is_some_and(|h| Instant::now() >= h)
    }

    /// Whether a new iteration may start.
    pub fn may_start_iteration(&self) -> bool {
        !self.must_stop() && self.soft.is_none_or(|s| Instant::now() < s)
    }
}

/// When a search next looks at the clock: every `interval` nodes, on a
/// threshold rather than on exact multiples, because node counts can jump
/// (an exact solve adds its nodes in one step; the solver's last plies
/// count several at a time) and a skipped multiple meant a skipped look.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ClockPoll {
    next: u64,
    interval: u64,
}

impl ClockPoll {
    /// Looks every `interval` nodes, the first time at node `first`.
    pub(crate) fn new(interval: u64, first: u64) -> ClockPoll {
        ClockPoll {
            next: first,
            interval,
        }
    }

    /// The same interval, the first look at node 0.
    pub(crate) fn restarted(&self) -> ClockPoll {
        ClockPoll::new(self.interval, 0)
    }

    /// Whether the count `nodes` has reached the next look (which then
    /// moves on).
    #[inline]
    pub(crate) fn due(&mut self, nodes: u64) -> bool {
        if nodes < self.next {
            return false;
        }
        self.next = nodes + self.interval;
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_token_sees_only_later_raises() {
        let signal = StopSignal::new();
        signal.raise();
        let token = signal.token();
        assert!(!token.is_raised());
        signal.raise();
        assert!(token.is_raised());
        assert!(!signal.token().is_raised());
    }

    #[test]
    fn times_are_bounded() {
        assert_eq!(bounded_secs(1e300), MAX_TIME);
        assert_eq!(bounded_secs(f64::INFINITY), MAX_TIME);
        assert_eq!(bounded_secs(f64::NAN), Duration::ZERO);
        assert_eq!(bounded_secs(-3.0), Duration::ZERO);
        assert_eq!(bounded_secs(1.5), Duration::from_millis(1500));
        let limits = Limits::default().with_budget(Duration::MAX, Duration::MAX);
        let hard = limits.hard.expect("a deadline");
        assert!(hard <= Instant::now() + MAX_TIME);
        assert_eq!(limits.soft, limits.hard);
    }

    #[test]
    fn a_child_stops_with_its_parent_but_not_the_other_way() {
        let signal = StopSignal::new();
        let parent = signal.token();
        let (a, b) = (parent.child(), parent.child());
        a.stop();
        assert!(a.is_raised() && !b.is_raised() && !parent.is_raised());
        signal.raise();
        assert!(b.is_raised() && parent.is_raised());
        let parent = StopToken::new();
        let child = parent.child();
        parent.stop();
        assert!(child.is_raised());
    }

    #[test]
    fn a_job_flag_stops_its_clones() {
        let token = StopToken::new();
        let clone = token.clone();
        token.stop();
        assert!(clone.is_raised());
    }
}
