//! Move choosers behind `genmove`, the lab programs and the referee. Each
//! player sees a checked [`Position`] and [`Limits`] and returns a legal
//! move (or `pass` when it has none); none of them does I/O.

mod greedy;
mod norvig;
mod simple;
mod smart;
mod strong;
mod weights;

pub use greedy::{Greedy, greedy_index};
pub use norvig::Norvig;
pub use simple::{First, Random};
pub use smart::{Smarter, Smartest, smarter_index, smartest_index};
pub use strong::{DEFAULT_HASH_MB, MAX_HASH_MB, MAX_THREADS, Strong, describe};
pub use weights::{Weights, evaluate as weights_eval};

use crate::rules::{Move, Position};
use crate::search::{Limits, MAX_TIME};
use std::fmt;

/// A move chooser. Players may keep state between moves (hash tables,
/// random generators), hence `&mut self`.
pub trait Player: Send {
    /// The player's name, as given to [`build`].
    fn name(&self) -> String;
    /// A legal move for the side to move of `pos`, or `pass` if it has none.
    /// Must return within the hard limit of `limits`.
    fn choose(&mut self, pos: &Position, limits: &Limits) -> Move;
    /// [`Player::choose`] with what the search knew of the move, for
    /// front ends that show it (NBoard's `=== f5/+2.00`); players that do
    /// not score their moves say nothing more.
    fn decide(&mut self, pos: &Position, limits: &Limits) -> Decision {
        Decision {
            mv: self.choose(pos, limits),
            score: None,
            nodes: 0,
        }
    }
    /// Whether the player can play on an n x n board (some players' tables
    /// are for 8x8 only).
    fn supports(&self, _n: usize) -> bool {
        true
    }
    /// Whether a search depth of the player's own defines its answer (the
    /// course's fixed-depth agents): no default time limit may cut it,
    /// only an explicit one or a stop.
    fn depth_defined(&self) -> bool {
        false
    }
    /// The score of every legal move for the side to move (best first), for
    /// players that search; `None` for those that do not. `report` sees
    /// each deeper analysis as it is found (NBoard's hints are shown while
    /// the search goes on).
    fn analyse(
        &mut self,
        _pos: &Position,
        _limits: &Limits,
        _report: &mut dyn FnMut(&Analysis),
    ) -> Option<Analysis> {
        None
    }
    /// The best move alone with its score (a one-line [`Analysis`]), for
    /// players that search; by default the first line of
    /// [`Player::analyse`].
    fn analyse_best(&mut self, pos: &Position, limits: &Limits) -> Option<Analysis> {
        best_line(self.analyse(pos, limits, &mut |_| {}))
    }
    /// The player's static evaluation of `pos`, without search; `None`
    /// for players that have none.
    fn evaluate(&self, _pos: &Position) -> Option<Evaluation> {
        None
    }
    /// Forgets what it learnt of the previous game (hash tables). A
    /// referee numbers its games (`number`): a player that draws random
    /// moves then draws those of that game's own stream.
    fn new_game(&mut self, _number: Option<u64>) {}
    /// Resizes its hash table, for players that have one.
    fn set_hash_mb(&mut self, _megabytes: usize) {}
    /// Searches on `threads` threads from now on, for players that can.
    fn set_threads(&mut self, _threads: usize) {}
    /// Evaluates 8x8 positions with `eval` from now on, for players that
    /// search with the trained evaluations.
    fn set_eval(&mut self, _eval: crate::search::pattern::EvalKind) {}
}

/// A player's static evaluation of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Evaluation {
    /// The player's own integer score, as its source defines it (for
    /// `norvig:<depth>`, the COMP24011 score: White's weights minus
    /// Black's).
    Points(i32),
    /// For the side to move, in the search's units (hundredths of a disc).
    Discs(i32),
}

/// One move of an analysis.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveScore {
    pub mv: Move,
    /// Score for the side to move, in the search's units (hundredths of a
    /// disc, finished games beyond [`crate::search::WIN`]).
    pub score: i32,
    /// Whether the score is the exact final result with perfect play.
    pub exact: bool,
    /// Depth the score comes from.
    pub depth: u32,
}

/// A chosen move, with its score when the player searched for it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Decision {
    pub mv: Move,
    /// The move's score and depth (`mv` repeated), if it was searched.
    pub score: Option<MoveScore>,
    /// Nodes the decision took (0 when the player does not count them).
    pub nodes: u64,
}

/// The first (best) line of an analysis.
pub(crate) fn best_line(analysis: Option<Analysis>) -> Option<Analysis> {
    analysis.map(|mut a| {
        a.scores.truncate(1);
        a
    })
}

/// Every legal move's score, best first, and what finding them cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Analysis {
    pub scores: Vec<MoveScore>,
    pub nodes: u64,
    pub elapsed: std::time::Duration,
}

/// Why a player name was refused: the name, and for a known player with
/// a number out of range, that number's range.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownPlayer {
    pub name: String,
    pub range: Option<&'static str>,
}

impl fmt::Display for UnknownPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.range {
            Some(range) => write!(f, "{range} (not '{}')", crate::rules::printable(&self.name)),
            None => write!(
                f,
                "unknown player '{}' (known: {})",
                crate::rules::printable(&self.name),
                NAMES.join(", ")
            ),
        }
    }
}

impl std::error::Error for UnknownPlayer {}

/// The player names [`build`] accepts.
pub const NAMES: &[&str] = &[
    "strong",
    "greedy",
    "first",
    "random[:<seed>]",
    "norvig:<depth>",
    "weights:<seconds>",
    "smarter",
    "smartest",
];

/// Builds a player from its name (any case): `strong`, `greedy`, `first`, `random`
/// (seed 0) or `random:<seed>`, `norvig:<depth>` (depth 1 to 20),
/// `weights:<seconds>`, `smarter`, `smartest`.
pub fn build(name: &str) -> Result<Box<dyn Player>, UnknownPlayer> {
    let unknown = || UnknownPlayer {
        name: name.to_string(),
        range: None,
    };
    let out_of = |range| UnknownPlayer {
        name: name.to_string(),
        range: Some(range),
    };
    let lower = name.to_ascii_lowercase();
    let name = lower.as_str();
    let (base, arg) = match name.split_once(':') {
        Some((b, a)) => (b, Some(a)),
        None => (name, None),
    };
    Ok(match (base, arg) {
        ("strong", None) => Box::new(Strong::default()),
        ("greedy", None) => Box::new(Greedy),
        ("first", None) => Box::new(First),
        ("random", None) => Box::new(Random::new(0)),
        ("random", Some(seed)) => {
            Box::new(Random::new(seed.parse().map_err(|_| {
                out_of("random's seed must be 0 to 18446744073709551615")
            })?))
        }
        ("norvig", Some(depth)) => match depth.parse() {
            Ok(d @ 1..=20) => Box::new(Norvig::new(d)),
            _ => return Err(out_of("norvig's depth must be 1 to 20")),
        },
        ("weights", Some(secs)) => match secs.parse::<f64>() {
            Ok(s) if s > 0.0 && s <= MAX_TIME.as_secs_f64() => Box::new(Weights::new(s)),
            _ => {
                return Err(out_of(
                    "weights' seconds must be above 0 and at most 1000000",
                ));
            }
        },
        ("smarter", None) => Box::new(Smarter),
        ("smartest", None) => Box::new(Smartest),
        _ => return Err(unknown()),
    })
}
