//! Learning a finished game into a book (NBoard's `learn`): the game's
//! positions count one more game each, those new to the book enter it
//! with their deviations searched, and the values are backed up again,
//! so that the book answers the game's line from then on.

use super::build::{back_up, deviation};
use crate::book::{Book, EXACT, Entry, Key};
use crate::engine::Engine;
use crate::rules::{Game, Move, Position};
use std::collections::BTreeSet;

/// Why a game could not be learned.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LearnError {
    #[error("the game does not start from the 8x8 start position (the book holds 8x8 openings)")]
    NotFromStart,
    #[error("move {ply} of the game is illegal: {why}")]
    Illegal { ply: usize, why: String },
}

/// What learning a game changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Learned {
    /// Positions of the game within the book's plies.
    pub positions: usize,
    /// Those that entered the book.
    pub added: usize,
    /// Deviations searched (those of the new positions, and of positions
    /// whose deviation the game played).
    pub searched: usize,
}

/// Adds the game `moves` (from `start`, which must be the 8x8 start) to
/// `book`: each position of its first `book.settings.plies` plies counts
/// one more game; the new ones enter the book; the deviations of the new
/// positions and of the positions whose deviation the game played (it is
/// a book move now) are searched to the book's depth on `engine` (as
/// [`deviation`] does in a build); then every value is backed up again.
pub fn learn(
    book: &mut Book,
    start: &Position,
    moves: &[Move],
    engine: &mut Engine,
) -> Result<Learned, LearnError> {
    if *start != Position::start(8).expect("8x8 is supported") {
        return Err(LearnError::NotFromStart);
    }
    let mut game = Game::from_position(*start);
    let mut keys = vec![Key::of(start).expect("8x8")];
    for (ply, &mv) in moves.iter().take(book.settings.plies as usize).enumerate() {
        game.play_next(mv).map_err(|e| LearnError::Illegal {
            ply: ply + 1,
            why: e.to_string(),
        })?;
        keys.push(Key::of(game.position()).expect("8x8"));
    }
    let keys: BTreeSet<Key> = keys.into_iter().collect();
    let mut added = BTreeSet::new();
    for &key in &keys {
        match book.entries.get_mut(&key) {
            Some(entry) => entry.games += 1,
            None => {
                added.insert(key);
                book.entries.insert(
                    key,
                    Entry {
                        games: 1,
                        value: 0,
                        deviation: None,
                        depth: EXACT,
                    },
                );
            }
        }
    }
    // A deviation that now leads into the book is a book move: the best
    // move left is searched again.
    let stale: Vec<Key> = book
        .entries
        .iter()
        .filter(|(key, e)| {
            added.contains(key) || e.deviation.is_some_and(|d| added.contains(&d.child))
        })
        .map(|(key, _)| *key)
        .collect();
    let depth = book.settings.depth;
    for key in &stale {
        let entries = &book.entries;
        let (dev, d) = deviation(&key.position(), |k| entries.contains_key(k), depth, engine);
        let entry = book.entries.get_mut(key).expect("a book position");
        entry.deviation = dev;
        entry.depth = d;
    }
    *book = back_up(book.settings, std::mem::take(&mut book.entries));
    Ok(Learned {
        positions: keys.len(),
        added: added.len(),
        searched: stale.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::Settings;
    use crate::book::testing::{moves, play};
    use crate::engine::Resources;
    use std::collections::BTreeMap;

    #[test]
    fn a_learned_game_enters_the_book_and_is_answered_from_it() {
        let mut book = Book {
            settings: Settings {
                plies: 4,
                min_games: 1,
                depth: 2,
            },
            entries: BTreeMap::new(),
        };
        let mut engine = Engine::new("strong", Resources::default()).unwrap();
        let start = Position::start(8).unwrap();
        let game = moves("f5 d6 c3 d3 c4 f4");
        let learned = learn(&mut book, &start, &game, &mut engine).unwrap();
        // The start and the positions after 1 to 4 plies.
        assert_eq!(
            learned,
            Learned {
                positions: 5,
                added: 5,
                searched: 5
            }
        );
        let after = |n: usize| play(&game[..n]);
        // Each position of the line offers the game's move, with the
        // value backed up from the deviation at its end.
        for (n, &mv) in game.iter().enumerate().take(4) {
            let shown = book.moves(&after(n));
            assert!(shown.iter().any(|m| m.mv == mv && !m.deviation));
            let entry = book.entry(&after(n)).unwrap();
            assert_eq!(entry.games, 1);
            assert_eq!(entry.value, shown[0].value);
        }
        let end = book.entry(&after(4)).unwrap();
        assert_eq!(end.value, end.deviation.unwrap().value);
        // The same game again counts a game more and searches nothing.
        let again = learn(&mut book, &start, &game, &mut engine).unwrap();
        assert_eq!((again.added, again.searched), (0, 0));
        assert_eq!(book.entry(&after(2)).unwrap().games, 2);
        // A game that plays the end's deviation makes it a book move, and
        // the end's deviation is searched again.
        let deviation = book.moves(&after(4))[0].mv;
        let mut longer = game[..4].to_vec();
        longer.push(deviation);
        book.settings.plies = 5;
        let third = learn(&mut book, &start, &longer, &mut engine).unwrap();
        assert_eq!((third.added, third.searched), (1, 2));
        let at_end = book.moves(&after(4));
        assert!(at_end.iter().any(|m| m.mv == deviation && !m.deviation));
        assert!(at_end.iter().all(|m| !m.deviation || m.mv != deviation));
        // A game from another position is refused; the book is unchanged.
        let before = book.clone();
        let other = Position::start(8).unwrap().play(game[0]).unwrap();
        assert_eq!(
            learn(&mut book, &other, &game[1..], &mut engine),
            Err(LearnError::NotFromStart)
        );
        assert_eq!(book, before);
    }
}
