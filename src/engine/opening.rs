//! The engine's use of an opening book: at a position the book holds,
//! `strong`'s move is the book's best (or, with some randomness, one of
//! those within that many discs of it), at once and without a search.

use crate::book::{Book, BookMove};
use crate::players::{Decision, MoveScore};
use crate::rules::Position;
use crate::search::DISC;
use crate::search::tunables::SOLVED_BELOW;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::Arc;

/// A book and how it is played.
pub struct OpeningBook {
    book: Arc<Book>,
    /// Moves within this many discs of the best are drawn among.
    randomness: f64,
    seed: u64,
    rng: ChaCha8Rng,
}

impl OpeningBook {
    /// Plays `book`'s best moves (no randomness).
    pub fn new(book: Arc<Book>) -> OpeningBook {
        OpeningBook {
            book,
            randomness: 0.0,
            seed: 0,
            rng: ChaCha8Rng::seed_from_u64(0),
        }
    }

    /// Plays from `book` from now on, drawn as before.
    pub fn replace_book(&mut self, book: Arc<Book>) {
        self.book = book;
    }

    /// Draws among the moves within `discs` of the best from now on (0:
    /// the best alone), from a generator seeded with `seed`.
    pub fn set_randomness(&mut self, discs: f64, seed: u64) {
        self.randomness = discs.max(0.0);
        self.seed = seed;
        self.rng = ChaCha8Rng::seed_from_u64(seed);
    }

    /// Draws the game a referee numbers `number` from its own stream, so
    /// that its moves do not depend on the games before it.
    pub fn numbered_game(&mut self, number: u64) {
        self.rng = ChaCha8Rng::seed_from_u64(self.seed);
        self.rng.set_stream(number);
    }

    /// The book's moves at `pos`, best first (none where the solver plays
    /// exactly: the book never overrides it), and the depth its values
    /// come from.
    pub fn moves(&self, pos: &Position) -> (Vec<BookMove>, u32) {
        let moves = if pos.empties() <= SOLVED_BELOW {
            Vec::new()
        } else {
            self.book.moves(pos)
        };
        (moves, self.book.settings.depth)
    }

    /// The book's move at `pos`, if it has one ([`OpeningBook::moves`]).
    /// Its score is the book's value, at depth 0.
    pub fn decide(&mut self, pos: &Position) -> Option<Decision> {
        let (moves, _) = self.moves(pos);
        let best = moves.first()?.value;
        let near = (self.randomness * f64::from(DISC)).round() as i32;
        let close: Vec<_> = moves
            .iter()
            .filter(|m| i32::from(best) - i32::from(m.value) <= near)
            .collect();
        let chosen = if close.len() > 1 {
            close[self.rng.random_range(0..close.len())]
        } else {
            close[0]
        };
        Some(Decision {
            mv: chosen.mv,
            score: Some(MoveScore {
                mv: chosen.mv,
                score: i32::from(chosen.value),
                exact: false,
                depth: 0,
            }),
            nodes: 0,
        })
    }
}
