//! The 8x8 opening book: positions that recorded games reached, each
//! stored once up to the board's eight symmetries (so transpositions and
//! mirror images are one entry), with the value of the best move from it
//! backed up by negamax through the book.
//!
//! Each entry keeps the games that reached it and its "deviation": the
//! best move that no game played, with the value a search of `depth`
//! plies gives it (as Edax's `book deviate` and Egaroucid's book learning
//! add). A position's value is the better of its deviation and the
//! negated values of its moves whose positions are in the book; a
//! position at the end of the book is valued by its deviation alone,
//! which there is its best move.
//!
//! The file (`RVBOOK01`, sealed with a CRC-32 as [`crate::sealed`]
//! writes) holds a little-endian header, the plies of each game taken,
//! the fewest games a position needs, the search depth, the entry count
//! (u32 each), then the entries sorted by key, 41 bytes each: the key
//! (the side to move's discs, then the other side's, u64 each, as the
//! least of the position's eight images; bit 8r+c is row r, column c),
//! games (u32), value (i16, hundredths of a disc for the side to move),
//! the deviation's value (i16; -32768 when there is none), the key of the
//! position the deviation leads to (16 bytes), and the depth of its
//! search (u8; 255 for an exact value).

use crate::rules::{Color, Move, Position};
use crate::sealed::{SealError, seal, unseal};
use std::collections::BTreeMap;

/// A position up to symmetry: the side to move's discs and the other
/// side's, as the least of the eight images of the pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key {
    pub mover: u64,
    pub other: u64,
}

/// The square that symmetry `k` (0-7) sends (row, column) to.
fn image(k: usize, r: usize, c: usize) -> (usize, usize) {
    let (r, c) = if k & 1 != 0 { (7 - r, c) } else { (r, c) };
    let (r, c) = if k & 2 != 0 { (r, 7 - c) } else { (r, c) };
    if k & 4 != 0 { (c, r) } else { (r, c) }
}

impl Key {
    /// The key of an 8x8 position; `None` on another size.
    pub fn of(pos: &Position) -> Option<Key> {
        if pos.size() != 8 {
            return None;
        }
        let me = pos.to_move();
        let cells = pos.cells();
        (0..8)
            .map(|k| {
                let mut key = Key { mover: 0, other: 0 };
                for (i, cell) in cells.iter().enumerate() {
                    let (r, c) = image(k, i / 8, i % 8);
                    let bit = 1u64 << (8 * r + c);
                    match cell {
                        Some(c) if *c == me => key.mover |= bit,
                        Some(_) => key.other |= bit,
                        None => {}
                    }
                }
                key
            })
            .min()
    }

    /// The position the key stands for, with Black to move.
    pub fn position(&self) -> Position {
        let cells: Vec<Option<Color>> = (0..64)
            .map(|i| {
                if self.mover >> i & 1 != 0 {
                    Some(Color::Black)
                } else if self.other >> i & 1 != 0 {
                    Some(Color::White)
                } else {
                    None
                }
            })
            .collect();
        Position::from_cells(8, &cells, Color::Black).expect("8x8 is supported")
    }
}

/// The legal moves of `pos` (a pass alone when it must pass; none when
/// the game is over), each with the key of the position it leads to.
pub fn moves_and_children(pos: &Position) -> Vec<(Move, Key)> {
    if pos.is_game_over() {
        return Vec::new();
    }
    let moves: Vec<Move> = if pos.must_pass() {
        vec![Move::Pass]
    } else {
        pos.legal_moves(pos.to_move())
            .into_iter()
            .map(Move::Place)
            .collect()
    };
    moves
        .into_iter()
        .map(|mv| {
            let child = pos.play(mv).expect("a legal move");
            (mv, Key::of(&child).expect("8x8"))
        })
        .collect()
}

/// The exact value of a finished 8x8 game for the side to move, in
/// hundredths of a disc (empties to the winner).
pub fn final_value(pos: &Position) -> i16 {
    let me = pos.count(pos.to_move()) as i32;
    let you = pos.count(pos.to_move().other()) as i32;
    let empties = 64 - me - you;
    let margin = match me.cmp(&you) {
        std::cmp::Ordering::Greater => me - you + empties,
        std::cmp::Ordering::Less => me - you - empties,
        std::cmp::Ordering::Equal => 0,
    };
    (margin * 100) as i16
}

/// The best move that no game played, searched.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Deviation {
    /// The key of the position it leads to.
    pub child: Key,
    /// Its value for the side to move, in hundredths of a disc.
    pub value: i16,
}

/// What the book knows of a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Recorded games that reached it.
    pub games: u32,
    /// The value of its best move for the side to move, backed up, in
    /// hundredths of a disc.
    pub value: i16,
    pub deviation: Option<Deviation>,
    /// The depth of the deviation's search ([`EXACT`] for an exact one).
    pub depth: u8,
}

/// The depth written for an exact value.
pub const EXACT: u8 = 255;

/// How a book was made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Plies of each game taken.
    pub plies: u32,
    /// Games a position needs to be in the book.
    pub min_games: u32,
    /// The depth of the deviations' searches.
    pub depth: u32,
}

/// An opening book.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Book {
    pub settings: Settings,
    pub entries: BTreeMap<Key, Entry>,
}

/// A move of the book at a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookMove {
    pub mv: Move,
    /// Its value for the side to move, in hundredths of a disc.
    pub value: i16,
    /// Games that played it (0 for the deviation).
    pub games: u32,
    /// Whether it is the position's deviation (no game played it).
    pub deviation: bool,
}

/// The book in the repository, `data/book-8x8.bin` (made by
/// `scripts/make-book.sh`; what it holds and what it is worth in play:
/// docs/research/book.md), built into the binary: `strong`'s book in the
/// daemons unless they are told another, or `off`.
pub fn repository() -> std::sync::Arc<Book> {
    static BOOK: std::sync::OnceLock<std::sync::Arc<Book>> = std::sync::OnceLock::new();
    BOOK.get_or_init(|| {
        let bytes = include_bytes!("../../data/book-8x8.bin");
        std::sync::Arc::new(Book::from_bytes(bytes).expect("the repository's book is sound"))
    })
    .clone()
}

const MAGIC: &[u8; 8] = b"RVBOOK01";
const ENTRY_BYTES: usize = 41;
const HEADER_BYTES: usize = 16;
/// The deviation value that says there is none.
const NO_DEVIATION: i16 = i16::MIN;

/// Why a book file could not be read.
#[derive(Debug, thiserror::Error)]
pub enum BookError {
    #[error(transparent)]
    Seal(#[from] SealError),
    #[error("the book's size does not match its entry count")]
    Length,
    #[error("the book's entries are not in order")]
    Order,
}

impl Book {
    /// The book's moves at `pos`, best first: those that lead to book
    /// positions, and the deviation. Empty when `pos` is not in the book
    /// (or not 8x8).
    pub fn moves(&self, pos: &Position) -> Vec<BookMove> {
        let Some(entry) = Key::of(pos).and_then(|k| self.entries.get(&k)) else {
            return Vec::new();
        };
        let mut out = Vec::new();
        for (mv, child) in moves_and_children(pos) {
            if let Some(e) = self.entries.get(&child) {
                out.push(BookMove {
                    mv,
                    value: e.value.saturating_neg(),
                    games: e.games,
                    deviation: false,
                });
            } else if let Some(d) = entry.deviation.filter(|d| d.child == child) {
                out.push(BookMove {
                    mv,
                    value: d.value,
                    games: 0,
                    deviation: true,
                });
            }
        }
        out.sort_by_key(|m| std::cmp::Reverse(m.value));
        out
    }

    /// The entry of `pos`, if it is in the book.
    pub fn entry(&self, pos: &Position) -> Option<&Entry> {
        Key::of(pos).and_then(|k| self.entries.get(&k))
    }

    /// The CRC-32 of the book's contents, which names it (that of the
    /// whole file, its own CRC included, is the same for every book).
    pub fn checksum(&self) -> u32 {
        crc32fast::hash(&encode(self.settings, &self.entries))
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        seal(MAGIC, &encode(self.settings, &self.entries))
    }

    /// Reads a book file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Book, BookError> {
        let (settings, entries) = decode(unseal("opening book", MAGIC, bytes)?)?;
        Ok(Book { settings, entries })
    }
}

/// The body of a book file: the header and the entries.
pub(crate) fn encode(settings: Settings, entries: &BTreeMap<Key, Entry>) -> Vec<u8> {
    let mut body = Vec::with_capacity(HEADER_BYTES + ENTRY_BYTES * entries.len());
    for x in [
        settings.plies,
        settings.min_games,
        settings.depth,
        entries.len() as u32,
    ] {
        body.extend_from_slice(&x.to_le_bytes());
    }
    for (key, e) in entries {
        body.extend_from_slice(&key.mover.to_le_bytes());
        body.extend_from_slice(&key.other.to_le_bytes());
        body.extend_from_slice(&e.games.to_le_bytes());
        body.extend_from_slice(&e.value.to_le_bytes());
        let (value, child) = match e.deviation {
            Some(d) => (d.value, d.child),
            None => (NO_DEVIATION, Key { mover: 0, other: 0 }),
        };
        body.extend_from_slice(&value.to_le_bytes());
        body.extend_from_slice(&child.mover.to_le_bytes());
        body.extend_from_slice(&child.other.to_le_bytes());
        body.push(e.depth);
    }
    body
}

/// Reads what [`encode`] wrote.
pub(crate) fn decode(body: &[u8]) -> Result<(Settings, BTreeMap<Key, Entry>), BookError> {
    if body.len() < HEADER_BYTES {
        return Err(BookError::Length);
    }
    let word = |at: usize| -> u32 { u32::from_le_bytes(body[at..at + 4].try_into().unwrap()) };
    let count = word(12) as usize;
    if count
        .checked_mul(ENTRY_BYTES)
        .and_then(|b| b.checked_add(HEADER_BYTES))
        != Some(body.len())
    {
        return Err(BookError::Length);
    }
    let settings = Settings {
        plies: word(0),
        min_games: word(4),
        depth: word(8),
    };
    let mut entries = BTreeMap::new();
    let mut last = None;
    for raw in body[HEADER_BYTES..].chunks_exact(ENTRY_BYTES) {
        let u64_at = |at: usize| u64::from_le_bytes(raw[at..at + 8].try_into().unwrap());
        let i16_at = |at: usize| i16::from_le_bytes(raw[at..at + 2].try_into().unwrap());
        let key = Key {
            mover: u64_at(0),
            other: u64_at(8),
        };
        if last.is_some_and(|l| l >= key) {
            return Err(BookError::Order);
        }
        last = Some(key);
        let deviation = (i16_at(22) != NO_DEVIATION).then(|| Deviation {
            value: i16_at(22),
            child: Key {
                mover: u64_at(24),
                other: u64_at(32),
            },
        });
        entries.insert(
            key,
            Entry {
                games: u32::from_le_bytes(raw[16..20].try_into().unwrap()),
                value: i16_at(20),
                deviation,
                depth: raw[40],
            },
        );
    }
    Ok((settings, entries))
}

/// What the book's unit tests share: games written as move lists.
#[cfg(test)]
pub(crate) mod testing {
    use crate::rules::{Game, Move, Position, parse_move, split_move_list};

    /// The moves of `list` (`f5 d6 c3`) on 8x8.
    pub fn moves(list: &str) -> Vec<Move> {
        split_move_list(list)
            .iter()
            .map(|m| parse_move(m, 8).unwrap())
            .collect()
    }

    /// The position after `moves` from the 8x8 start.
    pub fn play(moves: &[Move]) -> Position {
        let mut game = Game::new(8).unwrap();
        for &mv in moves {
            game.play_next(mv).unwrap();
        }
        *game.position()
    }

    /// The position after the move list `list` from the 8x8 start.
    pub fn after(list: &str) -> Position {
        play(&moves(list))
    }
}

#[cfg(test)]
mod tests {
    use super::testing::after;
    use super::*;

    #[test]
    fn mirror_images_and_transpositions_share_a_key() {
        // The four first moves are one position up to symmetry.
        let firsts: Vec<Key> = ["f5", "d3", "c4", "e6"]
            .iter()
            .map(|m| Key::of(&after(m)).unwrap())
            .collect();
        assert!(firsts.iter().all(|k| *k == firsts[0]));
        // Two orders of the same moves (a transposition).
        assert_eq!(
            Key::of(&after("f5 d6 c3 d3 c4")),
            Key::of(&after("f5 d6 c4 d3 c3"))
        );
        assert_ne!(Key::of(&after("f5 d6")), Key::of(&after("f5 f6")));
        // A key's position has the same key, and the side to move's discs.
        let pos = after("f5 d6 c3");
        let key = Key::of(&pos).unwrap();
        assert_eq!(Key::of(&key.position()), Some(key));
        assert_eq!(key.position().count(Color::Black), pos.count(pos.to_move()));
        assert_eq!(Key::of(&Position::start(10).unwrap()), None);
    }

    #[test]
    fn the_repository_book_holds_the_main_openings() {
        let book = repository();
        for line in ["", "f5", "f5 d6", "f5 f6", "f5 d6 c3 d3 c4"] {
            assert!(book.entry(&after(line)).is_some(), "{line}");
        }
        let first = book.moves(&Position::start(8).unwrap());
        assert_eq!(first.len(), 4);
        assert!(first.iter().all(|m| m.value == first[0].value));
    }

    #[test]
    fn a_book_file_reads_back_and_damage_is_found() {
        let start = Key::of(&Position::start(8).unwrap()).unwrap();
        let child = Key::of(&after("f5")).unwrap();
        let mut entries = BTreeMap::new();
        entries.insert(
            start,
            Entry {
                games: 7,
                value: -150,
                deviation: Some(Deviation { child, value: -150 }),
                depth: 12,
            },
        );
        entries.insert(
            child,
            Entry {
                games: 0,
                value: 150,
                deviation: None,
                depth: EXACT,
            },
        );
        let book = Book {
            settings: Settings {
                plies: 20,
                min_games: 2,
                depth: 12,
            },
            entries,
        };
        let bytes = book.to_bytes();
        assert_eq!(bytes.len(), 8 + 16 + 2 * 41 + 4);
        assert_eq!(Book::from_bytes(&bytes).unwrap(), book);
        let mut bad = bytes.clone();
        bad[30] ^= 1;
        assert!(Book::from_bytes(&bad).is_err());
        assert!(Book::from_bytes(&bytes[..bytes.len() - 1]).is_err());
    }
}
