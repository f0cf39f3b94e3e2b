//! The `match` subcommand: contestants from their names, games played by
//! the arena, each game's record written as it ends, forfeits told on
//! stderr with why, and the table (or the tournament's leaderboard) at the
//! end. A match can be split into shards (`--shard K/N`), each writing its
//! games' results (`--results`) wherever it runs; [`merge_results`] puts
//! them together and prints the whole match's tables.

use super::arena::{self, GameResult, MatchConfig};
use super::contestant::Contestant;
use crate::engine::Resources;
use crate::engine::UnsupportedSize;
use crate::players::UnknownPlayer;
use crate::progress::progress;
use crate::rules::{Color, is_supported_size};
use crate::shard::Shard;
use std::fs::File;
use std::io::{self, Write};

/// Why a match could not be played or reported.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error("unsupported board size {0} (even sizes 4 to 26)")]
    Size(usize),
    #[error(transparent)]
    Player(#[from] UnknownPlayer),
    #[error(transparent)]
    Unsupported(#[from] UnsupportedSize),
    #[error("{path}: {source}")]
    File { path: String, source: io::Error },
    #[error("{path}: not a match results file ({why})")]
    Results { path: String, why: String },
    #[error("{0} and {1} are results of different matches")]
    Mismatch(String, String),
    #[error("game {game} of pairing {pairing} appears twice with different results")]
    Conflict { pairing: usize, game: usize },
    #[error("i/o error: {0}")]
    Io(#[from] io::Error),
}

/// Where a match's output goes besides the table.
#[derive(Clone, Copy, Debug, Default)]
pub struct MatchFiles<'a> {
    /// Every game as GGF, one a line.
    pub records: Option<&'a str>,
    /// Every game as a move list, one a line.
    pub move_lists: Option<&'a str>,
    /// Every game's result, for [`merge_results`].
    pub results: Option<&'a str>,
}

/// The first line of a results file.
const RESULTS_HEADER: &str = "# reversi match results v1";

/// The heading of a match's table.
fn heading(config: &MatchConfig) -> String {
    format!(
        "{n}x{n}, {} games per pairing, {} (+{} ms margin), openings {}, seed {}",
        config.games,
        config.time.label(),
        config.margin.as_millis(),
        config.openings_label(),
        config.seed,
        n = config.size
    )
}

/// Plays a match between the players `names` (two) or a round robin
/// (more) under `config`, the games of `shard` only, writing every game
/// to `files` as it ends, and the tables to `out`.
pub fn run_match(
    names: &[String],
    config: &MatchConfig,
    shard: Shard,
    files: MatchFiles,
    out: &mut dyn Write,
) -> Result<(), MatchError> {
    if !is_supported_size(config.size) {
        return Err(MatchError::Size(config.size));
    }
    let mut players = names
        .iter()
        .map(|n| {
            let resources = Resources {
                threads: config.threads,
                ..Resources::default()
            };
            Contestant::new(n, config.nboard_depth, resources)
        })
        .collect::<Result<Vec<_>, _>>()?;
    for p in &players {
        p.check_size(config.size)?;
    }
    let open = |path: Option<&str>| -> Result<Option<(String, File)>, MatchError> {
        path.map(|p| {
            File::create(p)
                .map(|f| (p.to_string(), f))
                .map_err(|source| MatchError::File {
                    path: p.into(),
                    source,
                })
        })
        .transpose()
    };
    let (mut ggf, mut lists) = (open(files.records)?, open(files.move_lists)?);
    let mut results_file = open(files.results)?;
    if let Some((path, f)) = &mut results_file {
        let mut head = format!("{RESULTS_HEADER}\nmatch {}\n", heading(config));
        for n in names {
            head.push_str(&format!("player {n}\n"));
        }
        f.write_all(head.as_bytes())
            .map_err(|source| MatchError::File {
                path: path.clone(),
                source,
            })?;
    }
    let pairs = players.len() * (players.len() - 1) / 2;
    let shard_games = (0..config.games).filter(|&g| shard.has(g as u64)).count();
    let bar = progress(
        (pairs * shard_games) as u64,
        "{bar:40} {pos}/{len} games, {elapsed} (eta {eta}) {msg}",
    );
    let mut write_error = None;
    let mut on_game = |o: &arena::Outcome, r: &GameResult| {
        bar.inc(1);
        if let Some((c, f)) = &o.forfeit {
            let who = match c {
                Color::Black => &o.record.black,
                Color::White => &o.record.white,
            };
            bar.set_message(format!("last forfeit: {c} {}", f.kind()));
            // On stderr even when the bar is hidden (not a terminal).
            let game = bar.position();
            bar.suspend(|| eprintln!("game {game}: {who} ({c}) forfeits: {f}"));
        }
        let mut put = |file: &mut Option<(String, File)>, line: String| {
            if let Some((path, f)) = file
                && let Err(source) = writeln!(f, "{line}")
            {
                write_error = Some(MatchError::File {
                    path: path.clone(),
                    source,
                });
            }
        };
        put(&mut ggf, o.record.ggf());
        put(&mut lists, o.record.move_list());
        put(&mut results_file, r.line());
    };
    let results = arena::round_robin(&mut players, config, shard, &mut on_game);
    bar.finish_and_clear();
    for p in &mut players {
        p.finish();
    }
    let part = if shard == Shard::ALL {
        String::new()
    } else {
        format!(", shard {}/{}", shard.index, shard.count)
    };
    writeln!(
        out,
        "{}{part}\n{}",
        heading(config),
        arena::tables(names, &results)
    )?;
    write_error.map_or(Ok(()), Err)
}

/// One results file: its match heading, players and results.
struct ResultsFile {
    heading: String,
    players: Vec<String>,
    results: Vec<GameResult>,
}

fn read_results(path: &str) -> Result<ResultsFile, MatchError> {
    let bad = |why: String| MatchError::Results {
        path: path.into(),
        why,
    };
    let text = std::fs::read_to_string(path).map_err(|source| MatchError::File {
        path: path.into(),
        source,
    })?;
    let mut lines = text.lines();
    if lines.next() != Some(RESULTS_HEADER) {
        return Err(bad(format!("no '{RESULTS_HEADER}' line")));
    }
    let heading = lines
        .next()
        .and_then(|l| l.strip_prefix("match "))
        .ok_or_else(|| bad("no 'match' line".into()))?
        .to_string();
    let mut file = ResultsFile {
        heading,
        players: Vec::new(),
        results: Vec::new(),
    };
    for (i, line) in lines.enumerate() {
        if let Some(name) = line.strip_prefix("player ") {
            file.players.push(name.to_string());
        } else {
            let result = GameResult::parse(line)
                .ok_or_else(|| bad(format!("line {} is not a result", i + 3)))?;
            file.results.push(result);
        }
    }
    if file.players.len() < 2 {
        return Err(bad("fewer than two players".into()));
    }
    Ok(file)
}

/// Puts the results files of a match's shards together (each game once,
/// in any order of the files) and writes the whole match's tables to
/// `out`.
pub fn merge_results(paths: &[String], out: &mut dyn Write) -> Result<(), MatchError> {
    let mut merged: Option<(String, ResultsFile)> = None;
    let mut games = std::collections::BTreeMap::new();
    for path in paths {
        let file = read_results(path)?;
        if let Some((first, m)) = &merged
            && (m.heading != file.heading || m.players != file.players)
        {
            return Err(MatchError::Mismatch(first.clone(), path.clone()));
        }
        for r in &file.results {
            match games.get(&(r.pairing, r.game)) {
                Some(seen) if seen != r => {
                    return Err(MatchError::Conflict {
                        pairing: r.pairing,
                        game: r.game,
                    });
                }
                Some(_) => {}
                None => {
                    games.insert((r.pairing, r.game), r.clone());
                }
            }
        }
        merged.get_or_insert((path.clone(), file));
    }
    let Some((_, m)) = merged else {
        return Ok(());
    };
    let results: Vec<GameResult> = games.into_values().collect();
    writeln!(
        out,
        "{}\n{}",
        m.heading,
        arena::tables(&m.players, &results)
    )?;
    Ok(())
}
