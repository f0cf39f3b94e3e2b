//! Move choosers behind `genmove`, the lab programs and the referee. Each
//! player sees a checked [`Position`] and [`Limits`] and returns a legal
//! move (or `pass` when it has none); none of them does I/O.

mod greedy;
mod strong;

pub use greedy::Greedy;
pub use strong::{DEFAULT_HASH_MB, Strong};

use crate::rules::{Move, Position};
use crate::search::Limits;
use std::fmt;

/// A move chooser. Players may keep state between moves (hash tables,
/// random generators), hence `&mut self`.
pub trait Player: Send {
    /// The player's name, as given to [`build`].
    fn name(&self) -> String;
    /// A legal move for the side to move of `pos`, or `pass` if it has none.
    /// Must return within the hard limit of `limits`.
    fn choose(&mut self, pos: &Position, limits: &Limits) -> Move;
    /// Forgets what it learnt of the previous game (hash tables).
    fn new_game(&mut self) {}
    /// Resizes its hash table, for players that have one.
    fn set_hash_mb(&mut self, _megabytes: usize) {}
}

/// Why a player name was refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UnknownPlayer(pub String);

impl fmt::Display for UnknownPlayer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "unknown player '{}' (known: {})",
            self.0,
            NAMES.join(", ")
        )
    }
}

impl std::error::Error for UnknownPlayer {}

/// The player names [`build`] accepts.
pub const NAMES: &[&str] = &["greedy", "strong"];

/// Builds a player from its name.
pub fn build(name: &str) -> Result<Box<dyn Player>, UnknownPlayer> {
    match name {
        "greedy" => Ok(Box::new(Greedy)),
        "strong" => Ok(Box::new(Strong::default())),
        _ => Err(UnknownPlayer(name.to_string())),
    }
}
