//! `reversi selfplay`: training data from games of the engine against
//! itself, for the 8x8 evaluation. Each game starts from an opening
//! (random plies, or the first plies of a recorded game and random ones
//! after them), both sides play a fixed-depth search, and every position
//! with a move to play is labelled with the score of a deeper search, or
//! the exact score once the solver reaches it.
//!
//! Everything is a function of the seed and the game's number: the opening
//! comes from a generator seeded by both, and fixed-depth searches from a
//! cleared table choose the same moves on any machine. So the games split
//! into shards (`--shard K/N` plays the games whose number is K-1 modulo N)
//! that any batch scheduler can run anywhere, and [`merge`] puts shard
//! files together in game order, the same whichever machine or order ran
//! them.
//!
//! The file format (version 1), little-endian: the magic `RVSELF01`, then
//! one record per game: its number (u64), its position count (u16), each
//! position as the side to move's discs (u64), the other side's (u64),
//! the label for the side to move in hundredths of a disc (i16) and the
//! depth it comes from (u8, 0 for an exact score), then a CRC-32 of the
//! record. A game has at most 60 positions. A run appends each game as
//! it ends; a run that is stopped leaves at most a partial last record,
//! which the next run on the same file drops (and says so) before it goes
//! on with the games not yet written. Any other damage (a checksum that
//! fails, a count that runs past the end with whole records after it) is
//! an error, and the file is left as it is.

use crate::openings::{prefix_then_random, random_opening};
use crate::players::Strong;
use crate::progress::progress;
use crate::rules::{AnyBoard, Game, Move, Position};
use crate::sealed::Pending;
use crate::search::{DISC, Limits, proven_discs};
pub use crate::shard::Shard;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::collections::{BTreeMap, HashSet};
use std::fs::OpenOptions;
use std::io::{self, Write};
use std::ops::RangeInclusive;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

/// The file's magic, with the format's version.
pub const MAGIC: &[u8; 8] = b"RVSELF01";
/// Bytes of one position in a record.
const POSITION_BYTES: usize = 8 + 8 + 2 + 1;
/// Table size of each search, in MB (two per thread).
const HASH_MB: usize = 16;

/// One labelled position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Labelled {
    /// The side to move's discs.
    pub player: u64,
    /// The other side's discs.
    pub opponent: u64,
    /// The score for the side to move, in hundredths of a disc.
    pub label: i16,
    /// The depth of the search that gave the label; 0 for an exact score.
    pub depth: u8,
}

/// One game's labelled positions, with the game's number.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameData {
    pub index: u64,
    pub positions: Vec<Labelled>,
}

/// How games start.
#[derive(Clone, Debug)]
pub enum Opening {
    /// This many uniformly random plies.
    Random(usize),
    /// The first moves of these games (game number modulo their count),
    /// as many as a number drawn from `plies` for each game, then `random`
    /// uniformly random plies: positions of the recorded games' kind at
    /// every stage, each turned by a move their players would not make,
    /// as the search meets them at its leaves.
    Prefixes {
        games: Vec<Vec<Move>>,
        plies: RangeInclusive<usize>,
        random: usize,
    },
}

/// What to play and how to label it.
#[derive(Clone, Debug)]
pub struct SelfplayConfig {
    /// Games in all shards together, numbered from 0.
    pub games: u64,
    pub seed: u64,
    pub shard: Shard,
    pub opening: Opening,
    /// Depth of the search that chooses each move.
    pub move_depth: u32,
    /// Depth of the search that labels each position.
    pub label_depth: u32,
    /// Positions with at most this many empties are labelled exactly.
    pub exact_empties: u32,
    pub threads: usize,
}

/// Why self-play data could not be made or read.
#[derive(Debug, thiserror::Error)]
pub enum SelfplayError {
    #[error("not a self-play file (no {} header)", String::from_utf8_lossy(MAGIC))]
    Magic,
    #[error("truncated record at byte {offset}, after {games} whole games")]
    Truncated { offset: usize, games: usize },
    #[error("damaged record at byte {offset}, after {games} whole games ({why})")]
    Corrupted {
        offset: usize,
        games: usize,
        why: &'static str,
    },
    #[error("game {game} again at byte {offset} (a file holds each game once)")]
    Again { offset: usize, game: u64 },
    #[error("{path}: {source}")]
    In {
        path: String,
        source: Box<SelfplayError>,
    },
    #[error("{path}: {source}; the file is left as it is and no game was played")]
    Resume {
        path: String,
        source: Box<SelfplayError>,
    },
    #[error("game {0} appears twice with different data")]
    Conflict(u64),
    #[error("{path}: {source}")]
    File { path: String, source: io::Error },
    #[error("i/o error: {0}")]
    Io(#[from] io::Error),
}

/// The generator of game `index`'s opening: a function of both numbers.
fn game_rng(seed: u64, index: u64) -> ChaCha8Rng {
    // SplitMix64 of the pair, so that neighbouring seeds and games differ.
    let mut z = seed ^ index.wrapping_mul(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    ChaCha8Rng::seed_from_u64(z ^ (z >> 31))
}

/// The opening of game `index`.
fn opening(cfg: &SelfplayConfig, index: u64) -> Game {
    let mut game = match &cfg.opening {
        Opening::Random(plies) => random_opening(8, *plies, &mut game_rng(cfg.seed, index)),
        Opening::Prefixes {
            games,
            plies,
            random,
        } => {
            let mut rng = game_rng(cfg.seed, index);
            let moves = &games[(index % games.len() as u64) as usize];
            let kept = rng.random_range(plies.clone());
            prefix_then_random(moves, kept, *random, &mut rng)
        }
    };
    // An opening that ends the game leaves nothing to play: cut it back.
    while game.position().is_game_over() {
        game.undo().expect("the start position is not over");
    }
    game
}

/// The label of `pos` (side to move has a move): exact near the end, else
/// a search of `depth` plies (exact too when it reaches the end).
fn label(labeller: &mut Strong, pos: &Position, cfg: &SelfplayConfig) -> (i16, u8) {
    let exact = pos.empties() <= cfg.exact_empties;
    let limits = Limits {
        depth: (!exact).then_some(cfg.label_depth),
        ..Limits::unlimited()
    };
    let it = labeller
        .search_position(pos, &limits)
        .expect("the side to move has a move");
    let depth = if it.exact { 0 } else { it.depth.min(255) as u8 };
    // A finished-game score is its disc difference (proven exactly or not,
    // it is no heuristic score).
    let label = proven_discs(it.score).map_or(it.score, |discs| discs * DISC);
    (label.clamp(-64 * DISC, 64 * DISC) as i16, depth)
}

/// Plays and labels game `index`.
pub fn play_game(cfg: &SelfplayConfig, index: u64) -> GameData {
    let mut game = opening(cfg, index);
    let mut mover = Strong::new(HASH_MB);
    let mut labeller = Strong::new(HASH_MB);
    let moves = Limits {
        depth: Some(cfg.move_depth),
        ..Limits::unlimited()
    };
    let mut positions = Vec::new();
    while !game.position().is_game_over() {
        let pos = *game.position();
        if !pos.has_moves(pos.to_move()) {
            game.play(pos.to_move(), Move::Pass).expect("a forced pass");
            continue;
        }
        let AnyBoard::Eight(board) = pos.board() else {
            unreachable!("self-play is on 8x8")
        };
        let (label, depth) = label(&mut labeller, &pos, cfg);
        positions.push(Labelled {
            player: board.player,
            opponent: board.opponent,
            label,
            depth,
        });
        let it = mover
            .search_position(&pos, &moves)
            .expect("the side to move has a move");
        let sq = crate::rules::Square::from_index(it.best, 8);
        game.play(pos.to_move(), Move::Place(sq))
            .expect("the search answers a legal move");
    }
    GameData { index, positions }
}

/// One game's record, as written to a file.
pub fn encode(game: &GameData) -> Vec<u8> {
    let mut out = Vec::with_capacity(14 + POSITION_BYTES * game.positions.len());
    out.extend_from_slice(&game.index.to_le_bytes());
    out.extend_from_slice(&(game.positions.len() as u16).to_le_bytes());
    for p in &game.positions {
        out.extend_from_slice(&p.player.to_le_bytes());
        out.extend_from_slice(&p.opponent.to_le_bytes());
        out.extend_from_slice(&p.label.to_le_bytes());
        out.push(p.depth);
    }
    let crc = crc32fast::hash(&out);
    out.extend_from_slice(&crc.to_le_bytes());
    out
}

/// The games of a file's bytes, in file order; a partial last record is
/// an error that says where.
pub fn decode(bytes: &[u8]) -> Result<Vec<GameData>, SelfplayError> {
    let (games, end) = decode_prefix(bytes)?;
    if end == bytes.len() {
        Ok(games)
    } else {
        Err(SelfplayError::Truncated {
            offset: end,
            games: games.len(),
        })
    }
}

/// Most positions a record holds: one per square empty at the start.
const MAX_POSITIONS: usize = 60;

/// Bytes of a record of `count` positions: number, count, positions, CRC.
const fn record_len(count: usize) -> usize {
    10 + count * POSITION_BYTES + 4
}

/// What the bytes at a record's start hold.
enum Parsed {
    /// A whole record whose checksum and positions hold.
    Whole(GameData),
    /// Fewer bytes than the record's count asks for.
    Short,
    /// A record that cannot be right, and why.
    Bad(&'static str),
}

/// Reads the record at the start of `bytes`, with `count` positions.
fn parse_record(bytes: &[u8], count: usize) -> Parsed {
    if count > MAX_POSITIONS {
        return Parsed::Bad("position count over 60");
    }
    let end = record_len(count) - 4;
    if bytes.len() < end + 4 {
        return Parsed::Short;
    }
    let crc = u32::from_le_bytes(bytes[end..end + 4].try_into().expect("4 bytes"));
    let mut body = bytes[..end].to_vec();
    body[8..10].copy_from_slice(&(count as u16).to_le_bytes());
    if crc32fast::hash(&body) != crc {
        return Parsed::Bad("checksum mismatch");
    }
    let u64_at = |i: usize| u64::from_le_bytes(bytes[i..i + 8].try_into().expect("8 bytes"));
    let positions: Vec<Labelled> = (0..count)
        .map(|k| {
            let p = 10 + k * POSITION_BYTES;
            Labelled {
                player: u64_at(p),
                opponent: u64_at(p + 8),
                label: i16::from_le_bytes([bytes[p + 16], bytes[p + 17]]),
                depth: bytes[p + 18],
            }
        })
        .collect();
    if positions
        .iter()
        .any(|p| p.player & p.opponent != 0 || i32::from(p.label).abs() > 64 * DISC)
    {
        return Parsed::Bad("a position that cannot be");
    }
    Parsed::Whole(GameData {
        index: u64_at(0),
        positions,
    })
}

/// The count field of the record at the start of `bytes` (10 bytes at
/// least).
fn count_at(bytes: &[u8]) -> usize {
    usize::from(u16::from_le_bytes([bytes[8], bytes[9]]))
}

/// Whether `tail`, the bytes after the last whole record, is what a run
/// stopped while writing leaves: the start of one record, no longer than
/// the longest, holding no whole record, and not a whole record whose
/// count field alone was damaged.
fn is_torn(tail: &[u8]) -> bool {
    if tail.len() >= record_len(MAX_POSITIONS) {
        return false;
    }
    let whole_after = (1..tail.len().saturating_sub(9)).any(|k| {
        matches!(
            parse_record(&tail[k..], count_at(&tail[k..])),
            Parsed::Whole(_)
        )
    });
    let recount = tail.len().checked_sub(record_len(0)).and_then(|extra| {
        (extra % POSITION_BYTES == 0).then(|| parse_record(tail, extra / POSITION_BYTES))
    });
    !whole_after && !matches!(recount, Some(Parsed::Whole(_)))
}

/// The whole records at the start of `bytes` and where they end. A record
/// that cannot be right is an error; so are bytes after the last whole
/// record that are not the start of one torn by a stopped run.
fn decode_prefix(bytes: &[u8]) -> Result<(Vec<GameData>, usize), SelfplayError> {
    if bytes.len() < MAGIC.len() || &bytes[..MAGIC.len()] != MAGIC {
        return Err(SelfplayError::Magic);
    }
    let mut at = MAGIC.len();
    let mut games = Vec::new();
    // Every game number read: a file holds each game once.
    let mut numbers = std::collections::HashSet::new();
    while bytes.len() >= at + 10 {
        match parse_record(&bytes[at..], count_at(&bytes[at..])) {
            Parsed::Whole(game) if !numbers.insert(game.index) => {
                return Err(SelfplayError::Again {
                    offset: at,
                    game: game.index,
                });
            }
            Parsed::Whole(game) => {
                at += record_len(game.positions.len());
                games.push(game);
            }
            Parsed::Short => break,
            Parsed::Bad(why) => {
                return Err(SelfplayError::Corrupted {
                    offset: at,
                    games: games.len(),
                    why,
                });
            }
        }
    }
    if at < bytes.len() && !is_torn(&bytes[at..]) {
        return Err(SelfplayError::Corrupted {
            offset: at,
            games: games.len(),
            why: "its length runs past the end of the file, which is no torn last record",
        });
    }
    Ok((games, at))
}

/// Reads a self-play file.
pub fn read(path: &str) -> Result<Vec<GameData>, SelfplayError> {
    let bytes = std::fs::read(path).map_err(|source| SelfplayError::File {
        path: path.into(),
        source,
    })?;
    decode(&bytes).map_err(|e| SelfplayError::In {
        path: path.into(),
        source: Box::new(e),
    })
}

/// Plays the shard's games that `out` does not hold yet, on `cfg.threads`
/// threads, appending each to `out` as it ends. A partial last record
/// left by a stopped run is dropped first; damage anywhere else is an
/// error that leaves the file as it is. Returns how many games were
/// played now.
pub fn run(cfg: &SelfplayConfig, out: &str) -> Result<u64, SelfplayError> {
    let file_error = |source| SelfplayError::File {
        path: out.into(),
        source,
    };
    // A set: a resumed run looks every game number up among those written,
    // which a list would make quadratic in the games.
    let done: HashSet<u64> = match std::fs::read(out) {
        // Not even the whole magic: a run stopped as it began.
        Ok(bytes) if bytes.len() < MAGIC.len() && MAGIC.starts_with(&bytes) => {
            std::fs::write(out, MAGIC).map_err(file_error)?;
            HashSet::new()
        }
        Ok(bytes) => {
            let (games, end) = decode_prefix(&bytes).map_err(|e| SelfplayError::Resume {
                path: out.into(),
                source: Box::new(e),
            })?;
            if end < bytes.len() {
                log::warn!(
                    "{out}: dropping a partial record at byte {end} (a stopped run's last game)"
                );
                let file = OpenOptions::new()
                    .write(true)
                    .open(out)
                    .map_err(file_error)?;
                file.set_len(end as u64).map_err(file_error)?;
            }
            games.iter().map(|g| g.index).collect()
        }
        Err(e) if e.kind() == io::ErrorKind::NotFound => {
            std::fs::write(out, MAGIC).map_err(file_error)?;
            HashSet::new()
        }
        Err(source) => return Err(file_error(source)),
    };
    let todo: Vec<u64> = (0..cfg.games)
        .filter(|&g| cfg.shard.has(g) && !done.contains(&g))
        .collect();
    let file = OpenOptions::new()
        .append(true)
        .open(out)
        .map_err(file_error)?;
    let writer = Mutex::new((file, None::<io::Error>));
    let next = AtomicUsize::new(0);
    let bar = progress(
        todo.len() as u64,
        "{bar:40} {pos}/{len} self-play games, {elapsed} (eta {eta})",
    );
    std::thread::scope(|scope| {
        for _ in 0..cfg.threads.max(1) {
            scope.spawn(|| {
                loop {
                    let i = next.fetch_add(1, Ordering::SeqCst);
                    let Some(&index) = todo.get(i) else { return };
                    let record = encode(&play_game(cfg, index));
                    let mut w = writer.lock().unwrap_or_else(|e| e.into_inner());
                    if w.1.is_none()
                        && let Err(e) = w.0.write_all(&record).and_then(|()| w.0.flush())
                    {
                        w.1 = Some(e);
                    }
                    bar.inc(1);
                }
            });
        }
    });
    bar.finish_and_clear();
    let (_, failed) = writer.into_inner().unwrap_or_else(|e| e.into_inner());
    match failed {
        Some(source) => Err(file_error(source)),
        None => Ok(todo.len() as u64),
    }
}

/// Writes to `out` every game of the `inputs` (shard files), once each, in
/// game order: the same bytes whichever order the shards come in. The
/// same game twice with different data (shards of different runs) is an
/// error.
pub fn merge(inputs: &[String], out: &str) -> Result<usize, SelfplayError> {
    let mut games: BTreeMap<u64, GameData> = BTreeMap::new();
    for path in inputs {
        for game in read(path)? {
            match games.get(&game.index) {
                Some(seen) if *seen != game => return Err(SelfplayError::Conflict(game.index)),
                Some(_) => {}
                None => {
                    games.insert(game.index, game);
                }
            }
        }
    }
    let mut bytes = MAGIC.to_vec();
    for game in games.values() {
        bytes.extend_from_slice(&encode(game));
    }
    Pending::new(out)
        .and_then(|file| file.commit(&bytes))
        .map_err(|source| SelfplayError::File {
            path: out.into(),
            source,
        })?;
    Ok(games.len())
}

/// Which score a self-play position is trained towards. The two train
/// alike (docs/research/evaluation.md).
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// Its own label: the deeper search's score, exact near the end.
    Search,
    /// The game's outcome as WTHOR positions get it: every position before
    /// the game's first exact label takes that label (from its own side's
    /// point of view); the rest keep their own exact ones.
    Outcome,
}

/// The labelled positions of `games` as training samples, one list per
/// game, the target rounded to whole discs. With [`Target::Outcome`], a
/// game with no exact label (none reached the solver) gives no samples.
pub fn samples(games: &[GameData], target: Target) -> Vec<Vec<crate::tools::train::Sample>> {
    games
        .iter()
        .map(|g| {
            let labels: Vec<i16> = match target {
                Target::Search => g.positions.iter().map(|p| p.label).collect(),
                Target::Outcome => outcome_labels(&g.positions).unwrap_or_default(),
            };
            g.positions
                .iter()
                .zip(labels)
                .map(|(p, label)| crate::tools::train::Sample {
                    player: p.player,
                    opponent: p.opponent,
                    target: (f64::from(label) / f64::from(DISC)).round() as i8,
                })
                .collect()
        })
        .collect()
}

/// Each position's label under [`Target::Outcome`], or `None` when no
/// position of the game is labelled exactly.
fn outcome_labels(positions: &[Labelled]) -> Option<Vec<i16>> {
    let first = positions.iter().position(|p| p.depth == 0)?;
    let mut labels: Vec<i16> = positions.iter().map(|p| p.label).collect();
    // Walk back from the exact position: a record keeps only positions
    // with a move, so between two of them exactly one disc was placed, and
    // the square it went to belongs to whoever placed it. When that is the
    // later position's side to move, the other side passed in between.
    let mut sign = 1;
    for i in (0..first).rev() {
        let (earlier, later) = (&positions[i], &positions[i + 1]);
        let placed = (later.player | later.opponent) & !(earlier.player | earlier.opponent);
        if placed & later.opponent != 0 {
            sign = -sign;
        }
        labels[i] = sign * positions[first].label;
    }
    Some(labels)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(games: u64, shard: Shard) -> SelfplayConfig {
        SelfplayConfig {
            games,
            seed: 7,
            shard,
            opening: Opening::Random(30),
            move_depth: 2,
            label_depth: 3,
            exact_empties: 10,
            threads: 2,
        }
    }

    /// The path of a file `name` in `dir` (removed with it).
    fn temp(dir: &tempfile::TempDir, name: &str) -> String {
        dir.path().join(name).to_string_lossy().into_owned()
    }

    #[test]
    fn recorded_prefixes_are_cut_at_a_drawn_ply_and_turned_by_random_ones() {
        // Two recorded games (random ones stand in for WTHOR's).
        let recorded: Vec<Vec<Move>> = (0..2)
            .map(|g| {
                random_opening(8, 60, &mut game_rng(11, g))
                    .moves()
                    .map(|(_, mv)| mv)
                    .collect()
            })
            .collect();
        let cfg = SelfplayConfig {
            opening: Opening::Prefixes {
                games: recorded.clone(),
                plies: 10..=20,
                random: 1,
            },
            ..config(0, Shard::ALL)
        };
        let mut lengths = HashSet::new();
        for index in 0..40 {
            let moves: Vec<Move> = opening(&cfg, index).moves().map(|(_, mv)| mv).collect();
            let kept = moves.len() - 1;
            assert!(
                (10..=20).contains(&kept),
                "game {index}: {kept} recorded plies"
            );
            let source = &recorded[(index % 2) as usize];
            assert_eq!(
                moves[..kept],
                source[..kept],
                "game {index} follows its record"
            );
            let again: Vec<Move> = opening(&cfg, index).moves().map(|(_, mv)| mv).collect();
            assert_eq!(
                again, moves,
                "game {index}'s opening is a function of its number"
            );
            lengths.insert(kept);
        }
        assert!(lengths.len() > 5, "prefix lengths drawn: {lengths:?}");
    }

    #[test]
    fn records_read_back_and_damage_is_reported() {
        let game = play_game(&config(1, Shard::ALL), 0);
        assert!(game.positions.len() > 20);
        assert!(game.positions.iter().any(|p| p.depth == 0));
        let mut bytes = MAGIC.to_vec();
        bytes.extend_from_slice(&encode(&game));
        assert_eq!(decode(&bytes).unwrap(), vec![game.clone()]);
        // Cut short: the whole records before the cut are named.
        let cut = &bytes[..bytes.len() - 5];
        assert!(matches!(
            decode(cut),
            Err(SelfplayError::Truncated {
                offset: 8,
                games: 0
            })
        ));
        // A flipped bit.
        let mut bad = bytes.clone();
        bad[30] ^= 4;
        assert!(matches!(
            decode(&bad),
            Err(SelfplayError::Corrupted {
                offset: 8,
                games: 0,
                ..
            })
        ));
        assert!(matches!(decode(b"RVPAT01\0"), Err(SelfplayError::Magic)));
        // A whole record given twice is refused, not a game kept twice.
        let mut twice = bytes.clone();
        twice.extend_from_slice(&encode(&game));
        assert!(matches!(
            decode(&twice),
            Err(SelfplayError::Again { offset, game: 0 }) if offset == bytes.len()
        ));
    }

    /// A record of `game`'s positions with a move, the last one labelled
    /// exactly with `label`, each with its side to move.
    fn record(game: &Game, label: i16) -> (Vec<Labelled>, Vec<crate::rules::Color>) {
        let mut replay = Game::new(8).unwrap();
        let (mut positions, mut movers) = (Vec::new(), Vec::new());
        for (color, mv) in game.moves() {
            let pos = *replay.position();
            if let (AnyBoard::Eight(b), Move::Place(_)) = (pos.board(), mv) {
                positions.push(Labelled {
                    player: b.player,
                    opponent: b.opponent,
                    label: 0,
                    depth: 8,
                });
                movers.push(color);
            }
            replay.play(color, mv).unwrap();
        }
        let last = positions.last_mut().unwrap();
        (last.label, last.depth) = (label, 0);
        (positions, movers)
    }

    #[test]
    fn outcome_targets_follow_the_side_to_move_across_passes() {
        // The first random game with a pass before its last move.
        let game = (0..)
            .map(|seed| random_opening(8, 60, &mut game_rng(3, seed)))
            .find(|g| {
                let moves: Vec<Move> = g.moves().map(|(_, m)| m).collect();
                moves[..moves.len() - 1].contains(&Move::Pass)
            })
            .unwrap();
        let (positions, movers) = record(&game, 7 * DISC as i16);
        let exact = *movers.last().unwrap();
        let data = GameData {
            index: 0,
            positions,
        };
        let targets: Vec<i8> = samples(std::slice::from_ref(&data), Target::Outcome)[0]
            .iter()
            .map(|s| s.target)
            .collect();
        let expected: Vec<i8> = movers
            .iter()
            .map(|&c| if c == exact { 7 } else { -7 })
            .collect();
        assert_eq!(targets, expected);
        // Search targets are the labels as written.
        let searched = samples(std::slice::from_ref(&data), Target::Search);
        assert!(
            searched[0][..movers.len() - 1]
                .iter()
                .all(|s| s.target == 0)
        );
        // No exact label: nothing to learn from under outcome targets.
        let mut open = data.clone();
        open.positions.last_mut().unwrap().depth = 8;
        assert!(samples(&[open], Target::Outcome)[0].is_empty());
    }

    #[test]
    fn shards_are_deterministic_and_merge_in_any_order() {
        let dir = tempfile::tempdir().unwrap();
        let whole = temp(&dir, "whole.bin");
        run(&config(6, Shard::ALL), &whole).unwrap();
        let parts: Vec<String> = (1..=3)
            .map(|k| {
                let path = temp(&dir, &format!("part{k}.bin"));
                run(&config(6, Shard { index: k, count: 3 }), &path).unwrap();
                path
            })
            .collect();
        let (a, b) = (temp(&dir, "merged-a.bin"), temp(&dir, "merged-b.bin"));
        assert_eq!(merge(&parts, &a).unwrap(), 6);
        let reversed: Vec<String> = parts.iter().rev().cloned().collect();
        merge(&reversed, &b).unwrap();
        let sorted = temp(&dir, "whole-sorted.bin");
        merge(std::slice::from_ref(&whole), &sorted).unwrap();
        let bytes = std::fs::read(&a).unwrap();
        assert_eq!(bytes, std::fs::read(&b).unwrap());
        assert_eq!(bytes, std::fs::read(&sorted).unwrap());
    }

    #[test]
    fn a_stopped_run_resumes_without_losing_what_was_written() {
        let dir = tempfile::tempdir().unwrap();
        let path = temp(&dir, "resume.bin");
        assert_eq!(run(&config(2, Shard::ALL), &path).unwrap(), 2);
        // A partial record, as a run killed while writing leaves.
        let mut bytes = std::fs::read(&path).unwrap();
        let written = bytes.len();
        bytes.extend_from_slice(&[1, 0, 0, 0, 0, 0, 0, 0, 9, 0, 1, 2]);
        std::fs::write(&path, &bytes).unwrap();
        assert_eq!(run(&config(4, Shard::ALL), &path).unwrap(), 2);
        let games = read(&path).unwrap();
        let mut indices: Vec<u64> = games.iter().map(|g| g.index).collect();
        indices.sort();
        assert_eq!(indices, [0, 1, 2, 3]);
        assert_eq!(&std::fs::read(&path).unwrap()[..written], &bytes[..written]);
        // A corrupted file is not written over.
        let mut bad = std::fs::read(&path).unwrap();
        bad[20] ^= 1;
        std::fs::write(&path, &bad).unwrap();
        assert!(matches!(
            run(&config(5, Shard::ALL), &path),
            Err(SelfplayError::Resume { .. })
        ));
        assert_eq!(std::fs::read(&path).unwrap(), bad);
    }
}
