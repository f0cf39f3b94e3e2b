//! The engine's own view of how late its searches answer, and the earlier
//! deadlines that keep replies in time while the machine is slow.

use crate::search::Limits;
use crate::search::tunables::LAG_FADE;
use std::time::{Duration, Instant};

/// How late the player's answers have come after their hard deadline: the
/// latest lateness, fading by a [`LAG_FADE`]th with each answer after it. A
/// search is stopped at its deadline and answers within a millisecond or
/// two, unless the machine does not run its thread (docs/research/time.md,
/// "Lateness under load"); while such delays last, each new deadline is moved earlier by
/// the lag, by at most half the time the search has, so that the reply
/// still comes within the time asked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Lag(pub(super) Duration);

impl Lag {
    /// Takes in an answer that came at `answered` for a deadline `hard`.
    pub(super) fn observe(&mut self, hard: Instant, answered: Instant) {
        let late = answered.saturating_duration_since(hard);
        self.0 = late.max(self.0 - self.0 / LAG_FADE);
    }

    /// `limits` with their deadlines moved earlier by the lag, by at most
    /// half of what is left of them at `now`.
    pub(super) fn apply(&self, mut limits: Limits, now: Instant) -> Limits {
        if let Some(hard) = limits.hard {
            let shift = self.0.min(hard.saturating_duration_since(now) / 2);
            limits.hard = Some(hard - shift);
            limits.soft = limits.soft.map(|s| (s - shift).min(hard - shift));
        }
        limits
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_lag_fades_and_takes_at_most_half_of_a_deadline() {
        let now = Instant::now();
        let mut lag = Lag::default();
        lag.observe(now, now - Duration::from_millis(5));
        assert_eq!(lag.0, Duration::ZERO, "an early answer is not late");
        lag.observe(now, now + Duration::from_millis(80));
        assert_eq!(lag.0, Duration::from_millis(80));
        lag.observe(now, now);
        assert_eq!(lag.0, Duration::from_micros(77_500));
        let limits = Limits::unlimited().with_budget_from(
            now,
            Duration::from_millis(1000),
            Duration::from_millis(500),
        );
        let moved = lag.apply(limits.clone(), now);
        assert_eq!(moved.hard, Some(now + Duration::from_micros(922_500)));
        assert_eq!(moved.soft, Some(now + Duration::from_micros(422_500)));
        let short = Limits::unlimited().with_budget_from(
            now,
            Duration::from_millis(100),
            Duration::from_millis(100),
        );
        let moved = lag.apply(short, now);
        assert_eq!(moved.hard, Some(now + Duration::from_millis(50)));
        assert_eq!(moved.soft, Some(now + Duration::from_millis(50)));
        assert_eq!(lag.apply(Limits::unlimited(), now).hard, None);
    }
}
