//! `reversi book`: building an opening book from game records (whole, or
//! a shard's part for a batch scheduler), merging the parts, and showing
//! the book's moves at a position.

mod build;
mod learn;

use crate::book::{Book, BookError, EXACT, Entry, Key, Settings};
use crate::engine::{Engine, Resources};
use crate::rules::{Game, Move, Position, parse_move, printable, split_move_list};
use crate::sealed::Pending;
use crate::search::score_text;
use crate::shard::Shard;
use build::{Part, PartError};
use learn::{LearnError, Learned};
use std::collections::BTreeMap;
use std::io::{self, BufRead, Write};
use std::sync::Arc;

/// Why a book could not be built, merged or shown.
#[derive(Debug, thiserror::Error)]
pub enum BookToolError {
    #[error("{path}: {source}")]
    File { path: String, source: io::Error },
    #[error("{path}: {source}")]
    Book { path: String, source: BookError },
    #[error("{path}: {source}")]
    Part { path: String, source: PartError },
    #[error(transparent)]
    Merge(PartError),
    #[error("games, line {line}: {why}")]
    Game { line: usize, why: String },
    #[error("'{}': {why}", printable(.moves))]
    Moves { moves: String, why: String },
    #[error(transparent)]
    Learn(#[from] LearnError),
    #[error(
        "--learn {0} is the --book file: learning writes its own file and never the book it starts from"
    )]
    LearnIntoBase(String),
}

impl From<crate::sealed::FileError> for BookToolError {
    fn from(e: crate::sealed::FileError) -> Self {
        BookToolError::File {
            path: e.path,
            source: e.source,
        }
    }
}

/// Reads game records, one a line: a move list (`f5d6c3...`), or a WTHOR
/// line (`1977 f5d6c3... 34-30`, the moves being the second word); `#`
/// starts a comment. Every move is checked.
pub fn read_games(input: impl BufRead) -> Result<Vec<Vec<Move>>, BookToolError> {
    let mut games = Vec::new();
    for (i, line) in input.lines().enumerate() {
        let line = line.map_err(|source| BookToolError::File {
            path: "games".into(),
            source,
        })?;
        let line = line.split('#').next().unwrap_or("").trim();
        if line.is_empty() {
            continue;
        }
        let words: Vec<&str> = line.split_whitespace().collect();
        let moves = match words.as_slice() {
            [year, moves, ..] if year.chars().all(|c| c.is_ascii_digit()) => moves.to_string(),
            _ => line.to_string(),
        };
        let bad = |why: String| BookToolError::Game { line: i + 1, why };
        let mut game = Game::new(8).expect("8x8 is supported");
        let mut list = Vec::new();
        for text in split_move_list(&moves) {
            let mv = parse_move(&text, 8).map_err(|e| bad(e.to_string()))?;
            // Passes are implied in WTHOR's lists.
            if game.position().must_pass() {
                game.play_next(Move::Pass).map_err(|e| bad(e.to_string()))?;
                list.push(Move::Pass);
            }
            game.play_next(mv)
                .map_err(|e| bad(format!("{}: {e}", printable(&text))))?;
            list.push(mv);
        }
        games.push(list);
    }
    Ok(games)
}

/// The shard's share of `nodes` searched ([`build::evaluate`]) on a
/// fresh one-thread `strong`, with a progress bar.
fn search(
    nodes: &BTreeMap<Key, u32>,
    in_book: impl Fn(&Key) -> bool,
    depth: u32,
    shard: Shard,
) -> BTreeMap<Key, Entry> {
    let mine = (0..nodes.len() as u64).filter(|&k| shard.has(k)).count();
    let mut engine = Engine::new("strong", Resources::default()).expect("strong exists");
    let bar = crate::progress::progress(
        mine as u64,
        "{bar:40} {pos}/{len} positions, {elapsed} (eta {eta})",
    );
    let entries = build::evaluate(nodes, in_book, depth, shard, &mut engine, || bar.inc(1));
    bar.finish_and_clear();
    entries
}

/// Builds `settings`' book (or, for a shard other than the whole, its
/// part) from `games` into `out`, searching on a fresh `strong` engine.
pub fn build_book(
    games: Vec<Vec<Move>>,
    settings: Settings,
    shard: Shard,
    out: &str,
) -> Result<String, BookToolError> {
    let file = Pending::start(out)?;
    let nodes = build::gather(games, settings.plies as usize, settings.min_games);
    let in_book = |k: &Key| nodes.contains_key(k);
    let entries = search(&nodes, in_book, settings.depth, shard);
    let (bytes, what) = if shard == Shard::ALL {
        let book = build::back_up(settings, entries);
        (book.to_bytes(), format!("{} positions", book.entries.len()))
    } else {
        let part = Part {
            settings,
            shard,
            total: nodes.len() as u32,
            base: 0,
            entries,
        };
        let what = shard_summary(&part, &format!("the book's {} positions", part.total));
        (part.to_bytes(), what)
    };
    file.finish(&bytes)?;
    Ok(what)
}

/// Deepens the book at `base`: the deviations of its positions that at
/// least `min_games` games reached, searched less deep than `depth`, are
/// searched again to `depth` (a shard's share of them with `shard`, for
/// `book merge --base`), and the values backed up again, into `out`.
pub fn extend_book(
    base: &str,
    depth: u32,
    min_games: u32,
    shard: Shard,
    out: &str,
) -> Result<String, BookToolError> {
    let book = load(base)?;
    let file = Pending::start(out)?;
    let deepen = build::to_deepen(&book, depth, min_games);
    let in_book = |k: &Key| book.entries.contains_key(k);
    let entries = search(&deepen, in_book, depth, shard);
    let part = Part {
        settings: book.settings,
        shard,
        total: deepen.len() as u32,
        base: book.checksum(),
        entries,
    };
    let (bytes, what) = if shard == Shard::ALL {
        let deeper = build::merge(vec![part], Some(&book)).map_err(BookToolError::Merge)?;
        let what = format!(
            "{} positions, {} of them searched again to depth {depth}",
            deeper.entries.len(),
            deepen.len()
        );
        (deeper.to_bytes(), what)
    } else {
        let what = shard_summary(
            &part,
            &format!("the {} positions to search again", part.total),
        );
        (part.to_bytes(), what)
    };
    file.finish(&bytes)?;
    Ok(what)
}

/// What a shard's part holds: its positions `of` all the shards'.
fn shard_summary(part: &Part, of: &str) -> String {
    let (k, n) = (part.shard.index, part.shard.count);
    format!("{} of {of} (shard {k}/{n})", part.entries.len())
}

/// Merges the shards' part files `parts` into the book `out` (with
/// `base`, the book file an extension's parts deepen).
pub fn merge_parts(
    parts: &[String],
    base: Option<&str>,
    out: &str,
) -> Result<String, BookToolError> {
    let base = base.map(load).transpose()?;
    let file = Pending::start(out)?;
    let mut read = Vec::new();
    for path in parts {
        let bytes = std::fs::read(path).map_err(|source| BookToolError::File {
            path: path.clone(),
            source,
        })?;
        read.push(
            Part::from_bytes(&bytes).map_err(|source| BookToolError::Part {
                path: path.clone(),
                source,
            })?,
        );
    }
    let book = build::merge(read, base.as_ref()).map_err(BookToolError::Merge)?;
    file.finish(&book.to_bytes())?;
    Ok(format!("{} positions", book.entries.len()))
}

/// Reads the book at `path`.
pub fn load(path: &str) -> Result<Book, BookToolError> {
    let bytes = std::fs::read(path).map_err(|source| BookToolError::File {
        path: path.into(),
        source,
    })?;
    Book::from_bytes(&bytes).map_err(|source| BookToolError::Book {
        path: path.into(),
        source,
    })
}

/// The book's moves after `moves` (a move list from the start), one a
/// line: the move, its value in discs for the side to move, the games
/// that played it, or `deviation` and the depth of its search.
pub fn show(book: &Book, moves: &str, out: &mut dyn Write) -> Result<(), BookToolError> {
    let mut game = Game::new(8).expect("8x8 is supported");
    for text in split_move_list(moves) {
        let bad = |why: String| BookToolError::Moves {
            moves: moves.into(),
            why,
        };
        let mv = parse_move(&text, 8).map_err(|e| bad(e.to_string()))?;
        if game.position().must_pass() && mv != Move::Pass {
            game.play_next(Move::Pass).map_err(|e| bad(e.to_string()))?;
        }
        game.play_next(mv).map_err(|e| bad(e.to_string()))?;
    }
    let pos = game.position();
    let io = |source| BookToolError::File {
        path: "stdout".into(),
        source,
    };
    let Some(entry) = book.entry(pos) else {
        writeln!(out, "not in the book").map_err(io)?;
        return Ok(());
    };
    writeln!(
        out,
        "{} games; value {} for the side to move",
        entry.games,
        score_text(i32::from(entry.value), false)
    )
    .map_err(io)?;
    for m in book.moves(pos) {
        let source = if m.deviation {
            match entry.depth {
                EXACT => "deviation, exact".to_string(),
                d => format!("deviation, depth {d}"),
            }
        } else {
            format!("{} games", m.games)
        };
        writeln!(
            out,
            "{} {} {source}",
            m.mv.standard(),
            score_text(i32::from(m.value), false)
        )
        .map_err(io)?;
    }
    Ok(())
}

/// How a book begun by learning, with no book to start from, is made:
/// the first 30 plies of each game, deviations searched to 22 plies (about
/// 55 ms a position on this project's machine; docs/research/book.md).
pub const LEARNING: Settings = Settings {
    plies: 30,
    min_games: 1,
    depth: 22,
};

/// A user's own book that finished games are learned into (NBoard's
/// `learn`): read from its file when there is one, otherwise begun as a
/// copy of the book played (or empty, with [`LEARNING`]'s settings). The
/// file is written whole after each game learned, through a temporary
/// twin renamed over it; the book it was begun from is never written.
pub struct LearningBook {
    path: String,
    book: Arc<Book>,
}

impl LearningBook {
    /// The book at `path`, or one begun from `base` (read from the file
    /// `base_file`, which must be another file: it is never written).
    pub fn open(
        path: &str,
        base: Option<Arc<Book>>,
        base_file: Option<&str>,
    ) -> Result<LearningBook, BookToolError> {
        let canonical = |p: &str| std::fs::canonicalize(p).ok();
        if base_file
            .is_some_and(|b| b == path || canonical(b).is_some_and(|b| Some(b) == canonical(path)))
        {
            return Err(BookToolError::LearnIntoBase(path.into()));
        }
        let book = if std::path::Path::new(path).exists() {
            Arc::new(load(path)?)
        } else {
            // A folder the file cannot be written in is refused now, not
            // at the first `learn`, whose failure only the log shows.
            drop(Pending::start(path)?);
            base.unwrap_or_else(|| {
                Arc::new(Book {
                    settings: LEARNING,
                    entries: Default::default(),
                })
            })
        };
        Ok(LearningBook {
            path: path.into(),
            book,
        })
    }

    /// The book as learned so far.
    pub fn book(&self) -> Arc<Book> {
        self.book.clone()
    }

    /// Learns the game `moves` from `start` ([`learn::learn`], its
    /// deviations searched on a fresh one-thread `strong`) and writes the
    /// file. On an error the book and its file are as they were.
    pub fn learn(&mut self, start: &Position, moves: &[Move]) -> Result<Learned, BookToolError> {
        let file = Pending::start(&self.path)?;
        let mut book = Book::clone(&self.book);
        let mut engine = Engine::new("strong", Resources::default()).expect("strong exists");
        let learned = learn::learn(&mut book, start, moves, &mut engine)?;
        file.finish(&book.to_bytes())?;
        self.book = Arc::new(book);
        Ok(learned)
    }
}
