//! Time control for `genmove`: a fixed time per move (`set movetime`), or
//! GTP clocks (`time_settings`, `time_left`) from which each move's budget
//! is derived.
//!
//! GTP's `time_settings main byoyomi stones` means `main` seconds, then
//! Canadian byo-yomi: `byoyomi` seconds for every `stones` moves. As in the
//! GTP 2 spec, `byoyomi > 0` with `stones = 0` means no time limit (and the
//! per-move time applies), `byoyomi = 0` means absolute time.

use std::time::Duration;

use crate::rules::Color;

/// Time kept back from every budget for reading, writing and scheduling.
const SAFETY: Duration = Duration::from_millis(15);
/// The least time a move is given, even with the clock nearly out.
const MINIMUM: Duration = Duration::from_millis(5);

/// One side's clock.
#[derive(Clone, Copy, Debug, PartialEq)]
struct SideClock {
    /// Seconds left in the current period (main time or byo-yomi).
    left: f64,
    /// Moves left in the byo-yomi period; 0 while in main time.
    stones: u64,
}

/// The time rules in force.
#[derive(Clone, Debug, PartialEq)]
pub struct Clock {
    per_move: Duration,
    clocks: Option<Clocks>,
}

/// GTP clock settings and both sides' clocks.
#[derive(Clone, Debug, PartialEq)]
struct Clocks {
    byoyomi: f64,
    stones: u64,
    black: SideClock,
    white: SideClock,
}

impl Clock {
    /// A fixed time per move.
    pub fn per_move(limit: Duration) -> Clock {
        Clock {
            per_move: limit,
            clocks: None,
        }
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
        };
        self.clocks = Some(Clocks {
            byoyomi,
            stones,
            black: side,
            white: side,
        });
    }

    /// `time_left`: what a GUI says is left on `color`'s clock.
    pub fn set_left(&mut self, color: Color, seconds: f64, stones: u64) {
        if let Some(c) = &mut self.clocks {
            *c.side(color) = SideClock {
                left: seconds,
                stones,
            };
        }
    }

    /// Takes `used` off `color`'s clock, entering byo-yomi when main time
    /// runs out (for GUIs that never send `time_left`).
    pub fn charge(&mut self, color: Color, used: Duration) {
        let Some(c) = &mut self.clocks else { return };
        let (byoyomi, stones) = (c.byoyomi, c.stones);
        let side = c.side(color);
        side.left -= used.as_secs_f64();
        if side.stones > 0 {
            side.stones -= 1;
            if side.stones == 0 {
                *side = SideClock {
                    left: byoyomi,
                    stones,
                };
            }
        } else if side.left <= 0.0 && stones > 0 {
            *side = SideClock {
                left: byoyomi,
                stones,
            };
        }
    }

    /// (hard, soft) limits for `color`'s next move with `empties` empty
    /// squares left.
    pub fn budget(&self, color: Color, empties: u32) -> (Duration, Duration) {
        let hard = match &self.clocks {
            None => self.per_move,
            Some(c) => {
                let side = match color {
                    Color::Black => c.black,
                    Color::White => c.white,
                };
                let seconds = if side.stones > 0 {
                    side.left / side.stones as f64
                } else {
                    // Our moves still to come, roughly half the empties;
                    // keep a reserve so the last moves are not starved.
                    let moves_left = (empties as f64 / 2.0).max(1.0) + 2.0;
                    let per_stone = if c.stones > 0 {
                        c.byoyomi / c.stones as f64
                    } else {
                        0.0
                    };
                    side.left.max(0.0) / moves_left + per_stone
                };
                Duration::from_secs_f64(seconds.max(0.0))
            }
        };
        let hard = hard.saturating_sub(SAFETY).max(MINIMUM);
        (hard, hard / 2)
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

    #[test]
    fn per_move_time_keeps_a_safety_margin() {
        let c = Clock::per_move(Duration::from_millis(1000));
        assert_eq!(
            c.budget(Color::Black, 60),
            (
                Duration::from_millis(985),
                Duration::from_millis(492) + Duration::from_micros(500)
            )
        );
        let tiny = Clock::per_move(Duration::from_millis(1));
        assert_eq!(tiny.budget(Color::Black, 60).0, MINIMUM);
    }

    #[test]
    fn main_time_is_spread_over_the_remaining_moves() {
        let mut c = Clock::per_move(Duration::from_secs(1));
        c.set_clocks(64.0, 0.0, 0);
        // 60 empties: 30 + 2 moves to share 64 s.
        assert_eq!(
            c.budget(Color::White, 60).0,
            Duration::from_millis(2000) - SAFETY
        );
        c.set_left(Color::White, 10.0, 5);
        assert_eq!(
            c.budget(Color::White, 60).0,
            Duration::from_millis(2000) - SAFETY
        );
    }

    #[test]
    fn byoyomi_starts_when_main_time_is_used() {
        let mut c = Clock::per_move(Duration::from_secs(1));
        c.set_clocks(1.0, 10.0, 5);
        c.charge(Color::Black, Duration::from_secs(2));
        assert_eq!(
            c.budget(Color::Black, 40).0,
            Duration::from_millis(2000) - SAFETY
        );
        // No time limits: back to the per-move time.
        c.set_clocks(0.0, 5.0, 0);
        assert_eq!(
            c.budget(Color::Black, 40).0,
            Duration::from_millis(1000) - SAFETY
        );
    }
}
