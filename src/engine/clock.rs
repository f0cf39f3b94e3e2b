//! Time control, the engine layer's: a fixed time per move (`set
//! movetime`), or GTP clocks (`time_settings`, `time_left`) from which each
//! move's budget is derived, turned into the [`Limits`] a search sees. The
//! daemon's `genmove` and the referee's built-in players share it, so that
//! both spend a clock the same way. The search knows nothing of clocks or
//! colours.
//!
//! GTP's `time_settings main byoyomi stones` means `main` seconds, then
//! Canadian byo-yomi: `byoyomi` seconds for every `stones` moves. As in the
//! GTP 2 spec, `byoyomi > 0` with `stones = 0` means no time limit (and the
//! per-move time applies), `byoyomi = 0` means absolute time.

use crate::rules::{Color, Position};
use crate::search::tunables::{
    CLOCK_ROUNDING, MINIMUM_MOVE_TIME, MOST_OF_LEFT, OVERSPEND, SOFT_SHARE, SOLVED_BELOW,
};
use crate::search::{Limits, StopToken, bounded_secs, safety};
use std::time::{Duration, Instant};

/// One side's clock.
#[derive(Clone, Copy, Debug, PartialEq)]
struct SideClock {
    /// Seconds left in the current period (main time or byo-yomi).
    left: f64,
    /// Moves left in the byo-yomi period; 0 while in main time.
    stones: u64,
    /// Whether `left` is a GUI's whole-second figure for a period already
    /// under way, so possibly up to [`CLOCK_ROUNDING`] more than the truth.
    rounded: bool,
}

/// The time rules in force.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    per_move: Duration,
    clocks: Option<Clocks>,
    /// Whether the time was chosen (a per-move time or clocks) rather
    /// than left at a front end's default, which does not cut a player
    /// whose own depth defines its answer.
    chosen: bool,
}

/// GTP clock settings and both sides' clocks.
#[derive(Clone, Debug, PartialEq)]
struct Clocks {
    main: f64,
    byoyomi: f64,
    stones: u64,
    black: SideClock,
    white: SideClock,
}

impl Clock {
    /// A fixed time per move, chosen by the user.
    pub fn per_move(limit: Duration) -> Clock {
        Clock {
            per_move: limit,
            clocks: None,
            chosen: true,
        }
    }

    /// A front end's default time per move, until one is chosen.
    pub fn by_default(limit: Duration) -> Clock {
        Clock {
            chosen: false,
            ..Clock::per_move(limit)
        }
    }

    /// The limits of a search for the side to move of `pos` that started
    /// at `start`, at most `depth` plies deep. A player whose own depth
    /// defines its answer (`depth_defined`, as `norvig:<depth>`) is cut by
    /// no default time, only by a chosen one or by `stop`.
    pub fn limits(
        &self,
        pos: &Position,
        depth_defined: bool,
        depth: Option<u32>,
        stop: StopToken,
        start: Instant,
    ) -> Limits {
        let limits = Limits {
            depth,
            stop,
            ..Limits::default()
        };
        if depth_defined && !self.chosen {
            return limits;
        }
        let (hard, soft) = self.budget(pos.to_move(), pos.size(), pos.empties());
        limits.with_budget_from(start, hard, soft)
    }

    /// Switches to a fixed time per move, dropping any clock.
    pub fn set_move_time(&mut self, limit: Duration) {
        *self = Clock::per_move(limit);
    }

    /// `time_settings`: both clocks restart.
    pub fn set_clocks(&mut self, main: f64, byoyomi: f64, stones: u64) {
        if byoyomi > 0.0 && stones == 0 {
            self.clocks = None; // no time limits
            return;
        }
        let side = SideClock {
            left: main,
            stones: 0,
            rounded: false,
        };
        self.chosen = true;
        self.clocks = Some(Clocks {
            main,
            byoyomi,
            stones,
            black: side,
            white: side,
        });
    }

    /// A game clock as GGF records and the NBoard GUI keep it: the side
    /// about to move has exactly `left` seconds, and gets `increment` more
    /// after each move (counted as a one-move byo-yomi share on top of
    /// main time).
    pub fn set_game_clock(&mut self, left: f64, increment: f64) {
        let side = SideClock {
            left: left.clamp(0.0, crate::search::MAX_TIME.as_secs_f64()),
            stones: 0,
            rounded: false,
        };
        self.chosen = true;
        self.clocks = Some(Clocks {
            main: side.left,
            byoyomi: increment.clamp(0.0, crate::search::MAX_TIME.as_secs_f64()),
            stones: u64::from(increment > 0.0),
            black: side,
            white: side,
        });
    }

    /// `time_left`: what a GUI says is left on `color`'s clock. A full,
    /// fresh period (all of the main time, or a whole byo-yomi period) is
    /// exact, and so is a figure with a fraction (a referee counting
    /// milliseconds); whole seconds for a period under way may have been
    /// rounded up.
    pub fn set_left(&mut self, color: Color, seconds: f64, stones: u64) {
        if let Some(c) = &mut self.clocks {
            let fresh = if stones == 0 {
                seconds >= c.main
            } else {
                stones >= c.stones && seconds >= c.byoyomi
            };
            *c.side(color) = SideClock {
                left: seconds,
                stones,
                rounded: !fresh && seconds.fract() == 0.0,
            };
        }
    }

    /// Takes `used` off `color`'s clock, entering byo-yomi when main time
    /// runs out (for GUIs that never send `time_left`).
    pub fn charge(&mut self, color: Color, used: Duration) {
        let Some(c) = &mut self.clocks else { return };
        let period = SideClock {
            left: c.byoyomi,
            stones: c.stones,
            rounded: false,
        };
        let side = c.side(color);
        side.left -= used.as_secs_f64();
        if side.stones > 0 {
            side.stones -= 1;
            if side.stones == 0 {
                *side = period;
            }
        } else if side.left <= 0.0 && period.stones > 0 {
            *side = period;
        }
    }

    /// (hard, soft) limits for `color`'s next move on an `n`x`n` board
    /// with `empties` empty squares left.
    ///
    /// Time that cannot be saved for later (a fixed time per move, a
    /// byo-yomi period of one move) is spent: the soft limit is the hard
    /// one, and iterations start until it. A byo-yomi period's share of
    /// several moves is a hard limit whose unspent time goes to the
    /// period's next moves, so no iteration starts after half of it. In
    /// main time a move's share is a target: iterations start until 70%
    /// of it is gone and may run to twice it, so that the clock is spent
    /// rather than half saved.
    pub fn budget(&self, color: Color, n: usize, empties: u32) -> (Duration, Duration) {
        // The hard limit, and in main time the soft one.
        let (limit, target) = match &self.clocks {
            None => (self.per_move, Some(self.per_move)),
            Some(c) => {
                let side = match color {
                    Color::Black => c.black,
                    Color::White => c.white,
                };
                let left = if side.rounded {
                    (side.left - CLOCK_ROUNDING).max(side.left / 2.0)
                } else {
                    side.left
                }
                .max(0.0);
                if side.stones == 1 {
                    let all = bounded_secs(left);
                    (all, Some(all))
                } else if side.stones > 0 {
                    (bounded_secs(left / side.stones as f64), None)
                } else {
                    // Our moves still to come that need time, roughly half
                    // the empties (on 8x8 those above SOLVED_BELOW); keep
                    // a reserve so the last moves are not starved.
                    let timed = if n == 8 {
                        empties.saturating_sub(SOLVED_BELOW)
                    } else {
                        empties
                    };
                    let moves_left = (timed as f64 / 2.0).max(1.0) + 2.0;
                    let per_stone = if c.stones > 0 {
                        c.byoyomi / c.stones as f64
                    } else {
                        0.0
                    };
                    let share = left / moves_left + per_stone;
                    let hard = (share * OVERSPEND)
                        .min(left * MOST_OF_LEFT + per_stone)
                        .max(share);
                    (bounded_secs(hard), Some(bounded_secs(share * SOFT_SHARE)))
                }
            }
        };
        let hard = limit.saturating_sub(safety(limit)).max(MINIMUM_MOVE_TIME);
        (hard, target.map_or(hard / 2, |t| t.min(hard)))
    }
}

impl Clocks {
    fn side(&mut self, color: Color) -> &mut SideClock {
        match color {
            Color::Black => &mut self.black,
            Color::White => &mut self.white,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(ms: u64) -> Duration {
        Duration::from_millis(ms)
    }

    /// A hard limit of `ms` less its safety margin.
    fn hard(ms: u64) -> Duration {
        let limit = Duration::from_millis(ms);
        limit - safety(limit)
    }

    #[test]
    fn per_move_time_keeps_a_safety_margin() {
        let c = Clock::per_move(ms(1000));
        assert_eq!(c.budget(Color::Black, 8, 60), (ms(950), ms(950)));
        let short = Clock::per_move(ms(100));
        assert_eq!(short.budget(Color::Black, 8, 60).0, ms(95));
        let tiny = Clock::per_move(ms(1));
        assert_eq!(tiny.budget(Color::Black, 8, 60).0, MINIMUM_MOVE_TIME);
    }

    #[test]
    fn main_time_is_spread_over_the_remaining_moves() {
        let mut c = Clock::per_move(ms(1000));
        c.set_clocks(44.0, 10.0, 5);
        // 60 empties: 20 + 2 moves that need time share 44 s, plus 2 s of
        // byo-yomi each:
        // a 4 s share, which a long iteration may take to 8 s.
        assert_eq!(c.budget(Color::White, 8, 60), (hard(8000), ms(2800)));
        // A fresh byo-yomi period as a GUI reports it is exact.
        c.set_left(Color::White, 10.0, 5);
        assert_eq!(c.budget(Color::White, 8, 60).0, hard(2000));
        // A period under way is trusted to a second less.
        c.set_left(Color::White, 9.0, 4);
        assert_eq!(c.budget(Color::White, 8, 60).0, hard(2000));
    }

    #[test]
    fn absolute_time_is_spent_not_saved() {
        let mut c = Clock::per_move(ms(1000));
        c.set_clocks(22.0, 0.0, 0);
        // 20 + 2 moves that need time: a 1 s share; no iteration starts
        // after 0.7 s, none runs past 2 s.
        assert_eq!(c.budget(Color::Black, 8, 60), (hard(2000), ms(700)));
        // Without a solver every move needs time: on 10x10, 30 + 2 moves
        // share 32 s.
        c.set_clocks(32.0, 0.0, 0);
        assert_eq!(c.budget(Color::Black, 10, 60), (hard(2000), ms(700)));
        // Near the end one move never takes more than a third of the
        // clock, counted as 1 + 2 moves.
        c.set_left(Color::Black, 1.2, 0);
        let (hard, soft) = c.budget(Color::Black, 8, 4);
        assert_eq!(hard, ms(400) - safety(ms(400)));
        assert_eq!(soft, ms(280));
    }

    #[test]
    fn whole_second_clocks_are_not_spent_to_the_end() {
        // Quarry said "time_left black 3 1" with less than 3 s left.
        let mut c = Clock::per_move(ms(1000));
        c.set_clocks(20.0, 10.0, 5);
        c.set_left(Color::Black, 3.0, 1);
        assert_eq!(c.budget(Color::Black, 8, 30).0, hard(2000));
        c.set_left(Color::Black, 1.0, 1);
        assert_eq!(c.budget(Color::Black, 8, 30).0, hard(500));
        // A figure to the millisecond is exact.
        c.set_left(Color::Black, 2.5, 1);
        assert_eq!(c.budget(Color::Black, 8, 30).0, hard(2500));
    }

    #[test]
    fn quarry_time_per_move_is_used_in_full() {
        // Quarry's "limited time per move": time_settings 0 1 1, then
        // time_left <colour> 1 1 before every genmove.
        let mut c = Clock::per_move(ms(5000));
        c.set_clocks(0.0, 1.0, 1);
        assert_eq!(c.budget(Color::Black, 8, 60).0, hard(1000));
        c.set_left(Color::Black, 1.0, 1);
        assert_eq!(c.budget(Color::Black, 8, 60).0, hard(1000));
        c.charge(Color::Black, ms(990));
        assert_eq!(c.budget(Color::Black, 8, 60).0, hard(1000));
    }

    #[test]
    fn byoyomi_starts_when_main_time_is_used() {
        let mut c = Clock::per_move(ms(1000));
        c.set_clocks(1.0, 10.0, 5);
        c.charge(Color::Black, ms(2000));
        // 10 s for 5 moves, by our own exact count.
        assert_eq!(c.budget(Color::Black, 8, 40).0, hard(2000));
        // No time limits: back to the per-move time.
        c.set_clocks(0.0, 5.0, 0);
        assert_eq!(c.budget(Color::Black, 8, 40).0, hard(1000));
    }
}
