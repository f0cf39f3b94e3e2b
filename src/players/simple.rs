//! The COMP24011 course's two trivial agents: the first legal move, and a
//! uniformly random legal move from a seeded generator.

use super::Player;
use crate::rules::{Move, Position};
use crate::search::Limits;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// The first legal move in row-then-column order.
#[derive(Debug, Clone, Copy, Default)]
pub struct First;

impl Player for First {
    fn name(&self) -> String {
        "first".into()
    }

    fn choose(&mut self, pos: &Position, _: &Limits) -> Move {
        pos.legal_moves(pos.to_move())
            .first()
            .map_or(Move::Pass, |&sq| Move::Place(sq))
    }
}

/// A uniformly random legal move; the same seed plays the same moves.
#[derive(Debug, Clone)]
pub struct Random {
    seed: u64,
    rng: ChaCha8Rng,
}

impl Random {
    /// A random player whose choices follow from `seed`.
    pub fn new(seed: u64) -> Random {
        Random {
            seed,
            rng: ChaCha8Rng::seed_from_u64(seed),
        }
    }
}

impl Player for Random {
    fn name(&self) -> String {
        format!("random:{}", self.seed)
    }

    fn choose(&mut self, pos: &Position, _: &Limits) -> Move {
        let moves = pos.legal_moves(pos.to_move());
        if moves.is_empty() {
            return Move::Pass;
        }
        Move::Place(moves[self.rng.random_range(0..moves.len())])
    }

    fn new_game(&mut self, number: Option<u64>) {
        if let Some(number) = number {
            self.rng = ChaCha8Rng::seed_from_u64(self.seed);
            self.rng.set_stream(number);
        }
    }
}
