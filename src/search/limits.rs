//! How long and how deep a move decision may run, and the flag that stops
//! it from outside (the daemon's reader thread raises it on `stop`, `quit`
//! and end of input).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

/// Limits for one move decision. A searching player starts no iteration
/// after `soft`, stops at once after `hard` or when `stop` is raised, and
/// always returns a legal move.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Start no new iteration after this instant.
    pub soft: Option<Instant>,
    /// Stop searching at this instant.
    pub hard: Option<Instant>,
    /// Deepest iteration to run, in plies.
    pub depth: Option<u32>,
    /// Raised from outside to stop the search now.
    pub stop: Arc<AtomicBool>,
}

impl Default for Limits {
    fn default() -> Self {
        Limits::unlimited()
    }
}

impl Limits {
    /// No time or depth limit: players with a fixed depth run to it.
    pub fn unlimited() -> Limits {
        Limits {
            soft: None,
            hard: None,
            depth: None,
            stop: Arc::new(AtomicBool::new(false)),
        }
    }

    /// A per-move time limit from now: the whole of it as the hard limit,
    /// half of it as the soft one (an iteration rarely takes less than the
    /// ones before it together).
    pub fn movetime(limit: Duration) -> Limits {
        let now = Instant::now();
        Limits {
            soft: Some(now + limit / 2),
            hard: Some(now + limit),
            ..Limits::unlimited()
        }
    }

    /// Whether the search must stop now.
    #[inline]
    pub fn must_stop(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.hard.is_some_and(|h| Instant::now() >= h)
    }

    /// Whether a new iteration may start.
    pub fn may_start_iteration(&self) -> bool {
        !self.must_stop() && self.soft.is_none_or(|s| Instant::now() < s)
    }
}
