//! Building a book: the positions of recorded games, counted up to
//! symmetry; each kept position's deviation searched (the part a shard
//! does); then every value backed up by negamax (what a merge of the
//! shards' parts does).
//!
//! An extension (`book extend`) searches the deviations of a book's
//! positions again, deeper, in the same shards, and its merge puts them
//! in the book it extends before backing the values up again.
//!
//! A shard's part file (`RVBKPT02`, sealed) holds the shard (K and N),
//! the number of positions all the shards search, the checksum of the
//! book an extension deepens (0 for a build; u32 each), then the book
//! file's header and its positions' entries in the book file's layout,
//! their values 0 (they are backed up at the merge). Each position is
//! searched by a fresh engine state (its table cleared) on one thread, so
//! a position's deviation is the same in whatever shard it is searched,
//! and a merge of the shards writes the same bytes as one run.

use crate::book::{
    Book, Deviation, EXACT, Entry, Key, Settings, decode, encode, final_value, moves_and_children,
};
use crate::engine::Engine;
use crate::rules::{Game, Move, Position};
use crate::sealed::{SealError, seal, unseal};
use crate::search::{DISC, Limits, in_discs};
use crate::shard::Shard;
use std::collections::BTreeMap;

/// The positions of `games` (move lists from the 8x8 start) in their
/// first `plies` plies, counted by key (a game counts once in each
/// position it reaches), those reached by at least `min_games` games.
pub fn gather(
    games: impl IntoIterator<Item = Vec<Move>>,
    plies: usize,
    min_games: u32,
) -> BTreeMap<Key, u32> {
    let mut counts: BTreeMap<Key, u32> = BTreeMap::new();
    for moves in games {
        let mut game = Game::new(8).expect("8x8 is supported");
        let mut seen = Vec::with_capacity(plies + 1);
        seen.push(Key::of(game.position()).expect("8x8"));
        for &mv in moves.iter().take(plies) {
            if game.play_next(mv).is_err() {
                break;
            }
            seen.push(Key::of(game.position()).expect("8x8"));
        }
        seen.sort_unstable();
        seen.dedup();
        for key in seen {
            *counts.entry(key).or_default() += 1;
        }
    }
    counts.retain(|_, n| *n >= min_games);
    counts
}

/// Searches the deviation of each position of `nodes` that `shard` takes
/// (the k-th in key order, k = K-1 modulo N) to `depth` plies with
/// `engine`, the moves to positions `in_book` holds being the played
/// ones; `progress` sees each position done. Returns the entries (the
/// games `nodes` gives), their values 0.
pub fn evaluate(
    nodes: &BTreeMap<Key, u32>,
    in_book: impl Fn(&Key) -> bool,
    depth: u32,
    shard: Shard,
    engine: &mut Engine,
    mut progress: impl FnMut(),
) -> BTreeMap<Key, Entry> {
    let mut out = BTreeMap::new();
    for (k, (&key, &games)) in nodes.iter().enumerate() {
        if !shard.has(k as u64) {
            continue;
        }
        let (deviation, depth) = deviation(&key.position(), &in_book, depth, engine);
        let entry = Entry {
            games,
            value: 0,
            deviation,
            depth,
        };
        out.insert(key, entry);
        progress();
    }
    out
}

/// The deviation of `pos`: the best of its moves that lead to positions
/// `in_book` does not hold, searched to `depth` plies on a fresh state of
/// `engine` (its table cleared, so that the value does not depend on what
/// was searched before), and the depth of its value ([`EXACT`] when
/// exact). `(None, EXACT)` when every move leads into the book.
pub fn deviation(
    pos: &Position,
    in_book: impl Fn(&Key) -> bool,
    depth: u32,
    engine: &mut Engine,
) -> (Option<Deviation>, u8) {
    let (played, unplayed): (Vec<_>, Vec<_>) = moves_and_children(pos)
        .into_iter()
        .partition(|(_, child)| in_book(child));
    if unplayed.is_empty() {
        return (None, EXACT);
    }
    engine.new_game();
    // The search proves the best of the moves no game played: the played
    // ones are left out at its root.
    let limits = Limits {
        depth: Some(depth),
        excluded: played.iter().filter_map(|(mv, _)| mv.index(8)).collect(),
        ..Limits::unlimited()
    };
    let Ok(analysis) = engine.analyse(pos, limits, true, &mut |_| {}) else {
        return (None, EXACT);
    };
    let best = analysis.scores.first().and_then(|s| {
        let (_, child) = unplayed.iter().find(|(mv, _)| *mv == s.mv)?;
        Some((s, *child))
    });
    match best {
        Some((s, child)) => (
            Some(Deviation {
                child,
                value: hundredths(in_discs(s.score)),
            }),
            if s.exact {
                EXACT
            } else {
                s.depth.min(254) as u8
            },
        ),
        None => (None, EXACT),
    }
}

/// Discs as the book's values, in score units (hundredths of a disc).
fn hundredths(discs: f64) -> i16 {
    let most = 64.0 * f64::from(DISC);
    (discs * f64::from(DISC)).round().clamp(-most, most) as i16
}

/// The book from every position's entry: values backed up by negamax,
/// each the better of its deviation and its book moves' negated values.
pub fn back_up(settings: Settings, mut entries: BTreeMap<Key, Entry>) -> Book {
    let keys: Vec<Key> = entries.keys().copied().collect();
    let mut values: BTreeMap<Key, i16> = BTreeMap::new();
    for key in keys {
        value_of(key, &entries, &mut values);
    }
    for (key, e) in entries.iter_mut() {
        e.value = values[key];
    }
    Book { settings, entries }
}

/// The backed-up value of `key`, memoised in `values` (the book's
/// positions lead only to positions with more discs, or a pass to the
/// same discs: the recursion ends).
fn value_of(key: Key, entries: &BTreeMap<Key, Entry>, values: &mut BTreeMap<Key, i16>) -> i16 {
    if let Some(&v) = values.get(&key) {
        return v;
    }
    let pos = key.position();
    let value = if pos.is_game_over() {
        final_value(&pos)
    } else {
        let entry = entries[&key];
        let mut best = entry.deviation.map(|d| d.value);
        for (_, child) in moves_and_children(&pos) {
            if entries.contains_key(&child) {
                let v = value_of(child, entries, values).saturating_neg();
                best = Some(best.map_or(v, |b| b.max(v)));
            }
        }
        // A position whose moves all lead out of the book, unsearched,
        // is even as far as the book knows.
        best.unwrap_or(0)
    };
    values.insert(key, value);
    value
}

/// A shard's part of a book, or of an extension of one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Part {
    pub settings: Settings,
    pub shard: Shard,
    /// Positions searched by all the shards together.
    pub total: u32,
    /// For an extension, the checksum of the book it deepens
    /// ([`Book::checksum`]); 0 for a build.
    pub base: u32,
    pub entries: BTreeMap<Key, Entry>,
}

const PART_MAGIC: &[u8; 8] = b"RVBKPT02";

/// Why parts could not be merged.
#[derive(Debug, thiserror::Error)]
pub enum PartError {
    #[error(transparent)]
    Seal(#[from] SealError),
    #[error("not a part of a book: {0}")]
    Format(String),
    #[error("parts of different books (their settings or positions differ)")]
    Mismatch,
    #[error(
        "{missing} of the book's {total} positions are in no part (a shard missing or unfinished)"
    )]
    Missing { missing: usize, total: usize },
    #[error("parts of an extension are merged onto the book they extend (--base), and only they")]
    Base,
}

impl Part {
    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut body = Vec::new();
        for x in [
            self.shard.index as u32,
            self.shard.count as u32,
            self.total,
            self.base,
        ] {
            body.extend_from_slice(&x.to_le_bytes());
        }
        body.extend_from_slice(&encode(self.settings, &self.entries));
        seal(PART_MAGIC, &body)
    }

    /// Reads a part file's bytes.
    pub fn from_bytes(bytes: &[u8]) -> Result<Part, PartError> {
        let body = unseal("book part", PART_MAGIC, bytes)?;
        if body.len() < 16 {
            return Err(PartError::Format("too short".into()));
        }
        let word = |at: usize| u32::from_le_bytes(body[at..at + 4].try_into().unwrap());
        let shard = Shard::parse(&format!("{}/{}", word(0), word(4)))
            .map_err(|e| PartError::Format(e.to_string()))?;
        let (settings, entries) =
            decode(&body[16..]).map_err(|e| PartError::Format(e.to_string()))?;
        Ok(Part {
            settings,
            shard,
            total: word(8),
            base: word(12),
            entries,
        })
    }
}

/// The book from the parts of all its shards: a new book, or with
/// `base`, the book those parts extend, their entries in place of its.
pub fn merge(parts: Vec<Part>, base: Option<&Book>) -> Result<Book, PartError> {
    let Some(first) = parts.first() else {
        return Err(PartError::Format("no parts".into()));
    };
    let (settings, total, crc) = (first.settings, first.total, first.base);
    match base {
        Some(book) if crc != book.checksum() => return Err(PartError::Base),
        None if crc != 0 => return Err(PartError::Base),
        _ => {}
    }
    let mut entries = BTreeMap::new();
    for part in parts {
        if part.settings != settings || part.total != total || part.base != crc {
            return Err(PartError::Mismatch);
        }
        for (key, entry) in part.entries {
            if entries.insert(key, entry).is_some_and(|e| e != entry) {
                return Err(PartError::Mismatch);
            }
        }
    }
    if entries.len() != total as usize {
        return Err(PartError::Missing {
            missing: total as usize - entries.len().min(total as usize),
            total: total as usize,
        });
    }
    let Some(base) = base else {
        return Ok(back_up(settings, entries));
    };
    if settings != base.settings || entries.keys().any(|k| !base.entries.contains_key(k)) {
        return Err(PartError::Mismatch);
    }
    let mut all = base.entries.clone();
    all.extend(entries);
    Ok(back_up(settings, all))
}

/// The positions of `book` an extension to `depth` searches again: those
/// that at least `min_games` games reached, whose deviation was searched
/// less deep (an exact one is not).
pub fn to_deepen(book: &Book, depth: u32, min_games: u32) -> BTreeMap<Key, u32> {
    book.entries
        .iter()
        .filter(|(_, e)| {
            e.games >= min_games
                && e.deviation.is_some()
                && e.depth != EXACT
                && u32::from(e.depth) < depth
        })
        .map(|(key, e)| (*key, e.games))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::book::Book;
    use crate::book::testing::{after, moves};
    use crate::engine::Resources;

    fn key(list: &str) -> Key {
        Key::of(&after(list)).unwrap()
    }

    #[test]
    fn mirror_images_of_games_count_as_one() {
        // "d3 c5 f6" is "f5 d6 c3" reflected in the anti-diagonal; "f5 d6
        // c4 d3 c3" reaches "f5 d6 c3 d3 c4" by another order.
        let games = [
            moves("f5 d6 c3 d3 c4"),
            moves("d3 c5 f6 f5 e6"),
            moves("f5 d6 c4 d3 c3"),
        ];
        let nodes = gather(games, 5, 2);
        assert_eq!(nodes[&key("")], 3);
        assert_eq!(nodes[&key("f5 d6")], 3);
        assert_eq!(nodes[&key("f5 d6 c3")], 2);
        assert_eq!(nodes[&key("f5 d6 c3 d3 c4")], 3);
        // Reached by one game alone: left out.
        assert!(!nodes.contains_key(&key("f5 d6 c4")));
        assert_eq!(nodes.len(), 6);
    }

    #[test]
    fn values_back_up_by_negamax_through_the_book_and_its_deviations() {
        // After f5 (White to move): d6 and f6 are in the book, valued +0.5
        // and +1.2 for Black by their deviations; f4, the deviation of f5,
        // -0.3 for White. White's best is then f4 (-0.3), the start's
        // value +0.3.
        let leaf = |value| Entry {
            games: 2,
            value: 0,
            deviation: Some(Deviation {
                child: key("f5 d6 c3"),
                value,
            }),
            depth: 10,
        };
        let mut entries = BTreeMap::new();
        entries.insert(key("f5 d6"), leaf(50));
        entries.insert(key("f5 f6"), leaf(120));
        entries.insert(
            key("f5"),
            Entry {
                deviation: Some(Deviation {
                    child: key("f5 f4"),
                    value: -30,
                }),
                ..leaf(0)
            },
        );
        entries.insert(
            key(""),
            Entry {
                deviation: None,
                ..leaf(0)
            },
        );
        let settings = Settings {
            plies: 2,
            min_games: 2,
            depth: 10,
        };
        let book = back_up(settings, entries);
        assert_eq!(book.entries[&key("f5")].value, -30);
        assert_eq!(book.entries[&key("")].value, 30);
        let shown: Vec<(String, i16, bool)> = book
            .moves(&after("f5"))
            .iter()
            .map(|m| (m.mv.standard(), m.value, m.deviation))
            .collect();
        assert_eq!(
            shown,
            [
                ("f4".to_string(), -30, true),
                ("d6".to_string(), -50, false),
                ("f6".to_string(), -120, false)
            ]
        );
        // The start's four moves all lead to f5's position.
        assert_eq!(book.moves(&Position::start(8).unwrap()).len(), 4);
        assert_eq!(Book::from_bytes(&book.to_bytes()).unwrap(), book);
    }

    #[test]
    fn shards_merge_into_the_same_bytes_as_one_run() {
        let games = [
            moves("f5 d6 c3 d3 c4 f4"),
            moves("f5 f6 e6 f4 e3 c5"),
            moves("f5 d6 c3 d3 c4 f4"),
            moves("f5 f6 e6 f4 e3 d6"),
        ];
        let nodes = gather(games, 6, 1);
        let settings = Settings {
            plies: 6,
            min_games: 1,
            depth: 3,
        };
        let mut engine = Engine::new("strong", Resources::default()).unwrap();
        let whole = back_up(
            settings,
            evaluate(
                &nodes,
                |k| nodes.contains_key(k),
                3,
                Shard::ALL,
                &mut engine,
                || {},
            ),
        );
        let parts: Vec<Part> = (1..=3)
            .map(|k| {
                let shard = Shard { index: k, count: 3 };
                Part {
                    settings,
                    shard,
                    total: nodes.len() as u32,
                    entries: evaluate(
                        &nodes,
                        |k| nodes.contains_key(k),
                        3,
                        shard,
                        &mut engine,
                        || {},
                    ),
                    base: 0,
                }
            })
            .collect();
        let read: Vec<Part> = parts
            .iter()
            .rev()
            .map(|p| Part::from_bytes(&p.to_bytes()).unwrap())
            .collect();
        assert_eq!(merge(read, None).unwrap().to_bytes(), whole.to_bytes());
        // The leaves' deviations are searched.
        let leaf = &whole.entries[&key("f5 d6 c3 d3 c4 f4")];
        assert!(leaf.deviation.is_some() && leaf.depth == 3, "{leaf:?}");
        // A missing shard is named.
        let two = parts[..2].to_vec();
        assert!(matches!(merge(two, None), Err(PartError::Missing { .. })));
    }
}
