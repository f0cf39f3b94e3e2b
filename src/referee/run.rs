//! The `match` subcommand: contestants from their names, games played by
//! the arena, each game's record written as it ends, forfeits told on
//! stderr with why, and the table (or the tournament's leaderboard) at the
//! end. A match can be split into shards (`--shard K/N`), each writing its
//! games' results (`--results`) wherever it runs; [`merge_results`] puts
//! them together and prints the whole match's tables.
//!
//! The results file (version 2) is text: the line `# reversi match results
//! v2`, then `match <heading>`, `games <per pairing>`, `shard K/N`, one
//! `player <name>` line per player and `pairs i:j ...` (the pairings, by
//! the players' numbers from 0), then one [`GameResult::line`] per game as
//! it ends. Every line after the first ends in a space and the CRC-32 of
//! what precedes it, in 8 hex digits. A run that finds this match's header
//! in its results file plays only the games the file lacks: a last line
//! without its newline (a stopped run's) is dropped, and damage anywhere
//! else stops the run with the files as they were.

use super::arena::{self, GameResult, MatchConfig};
use super::contestant::{Contestant, split_name};
use super::sprt::{Decision, Pairs, Pentanomial};
use crate::engine::Resources;
use crate::engine::UnsupportedSize;
use crate::openings::Openings;
use crate::players::UnknownPlayer;
use crate::progress::progress;
use crate::rules::{Color, is_supported_size, printable};
use crate::shard::Shard;
use indicatif::ProgressBar;
use std::collections::HashSet;
use std::fs::{File, OpenOptions};
use std::io::{self, Write};
use std::ops::ControlFlow;

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
    #[error("{path}: {why}; it is left as it is")]
    Results { path: String, why: String },
    #[error("{0} and {1} are results of different matches")]
    Mismatch(String, String),
    #[error("game {game} of pairing {pairing} appears twice with different results")]
    Conflict { pairing: usize, game: usize },
    #[error(
        "players {0} and {1} would write their transcripts to the same files ('{2}'): give each a NAME= of its own"
    )]
    SameTranscripts(usize, usize, String),
    #[error("Lab 8 programs play from the start position: use --openings none")]
    Lab8Openings,
    #[error("--sprt needs a match of two players, unsharded (it decides as the games end)")]
    SprtMatch,
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
    /// Every game's result, for [`merge_results`] and for resuming.
    pub results: Option<&'a str>,
    /// A folder for each game's own files: its GGF record (`p0-g3.ggf`)
    /// and the transcripts of Lab 8 programs (`p0-g3-<name>.txt`).
    pub games_dir: Option<&'a str>,
}

/// The first line of a results file, with the format's version (v3: a
/// result line may end with its sides' CPU times).
const RESULTS_MAGIC: &str = "# reversi match results v3";
/// The first line of the version before, read as v3 (its result lines
/// have no CPU times).
const RESULTS_MAGIC_V2: &str = "# reversi match results v2";

/// The heading of a match's table.
pub(crate) fn heading(config: &MatchConfig) -> String {
    let own: String = config
        .player_times
        .iter()
        .enumerate()
        .filter_map(|(i, t)| t.map(|t| format!(", player {} {}", i + 1, t.label())))
        .collect();
    let cpu = if config.lab8_cpu {
        ", Lab 8 programs on CPU time"
    } else {
        ""
    };
    format!(
        "{n}x{n}, {} games per pairing, {}{own}{cpu} (+{} ms margin), openings {}, seed {}",
        config.games,
        config.time.label(),
        config.margin.as_millis(),
        config.openings.label(),
        config.seed,
        n = config.size
    )
}

/// A line of a results file: `text`, a space and the CRC-32 of `text` in 8
/// hex digits, and a newline.
fn checked_line(text: &str) -> String {
    format!("{text} {:08x}\n", crc32fast::hash(text.as_bytes()))
}

/// The text of a line written by [`checked_line`], if its checksum holds.
fn checked_text(line: &str) -> Option<&str> {
    let (text, crc) = line.rsplit_once(' ')?;
    (crc.len() == 8 && u32::from_str_radix(crc, 16).ok()? == crc32fast::hash(text.as_bytes()))
        .then_some(text)
}

/// The header of the results file of `names`' match under `config`,
/// shard `shard`.
fn results_header(
    names: &[String],
    pairs: &[(usize, usize)],
    config: &MatchConfig,
    shard: Shard,
) -> String {
    let mut head = format!("{RESULTS_MAGIC}\n");
    head.push_str(&checked_line(&format!("match {}", heading(config))));
    head.push_str(&checked_line(&format!("games {}", config.games)));
    head.push_str(&checked_line(&format!(
        "shard {}/{}",
        shard.index, shard.count
    )));
    for n in names {
        head.push_str(&checked_line(&format!("player {n}")));
    }
    let pairs: Vec<String> = pairs.iter().map(|(i, j)| format!("{i}:{j}")).collect();
    head.push_str(&checked_line(&format!("pairs {}", pairs.join(" "))));
    head
}

/// The results of a results file (a shard's, say) and what they are of.
pub struct Results {
    /// The match's heading: its settings.
    pub heading: String,
    pub players: Vec<String>,
    pub pairs: Vec<(usize, usize)>,
    pub results: Vec<GameResult>,
}

/// Reads the results file at `path`; a torn last line is left out.
pub fn read_results(path: &str) -> Result<Results, MatchError> {
    let bytes = std::fs::read(path).map_err(|source| MatchError::File {
        path: path.into(),
        source,
    })?;
    let file = parse_results(path, &bytes)?;
    Ok(Results {
        heading: file.heading,
        players: file.players,
        pairs: file.pairs,
        results: file.results,
    })
}

/// One results file as read.
struct ResultsFile {
    /// The header lines, as written.
    header: String,
    heading: String,
    games: usize,
    players: Vec<String>,
    pairs: Vec<(usize, usize)>,
    results: Vec<GameResult>,
    /// The `shard` line's text (`1/4`).
    shard: String,
    /// Bytes of the whole lines; after them, at most a torn last line.
    whole: usize,
}

/// Reads a results file's bytes: a header, then one result a line, every
/// line's checksum checked. A last line without its newline (a stopped
/// run's) is left out; any other damage, or a game's result given twice,
/// is an error that says where.
fn parse_results(path: &str, bytes: &[u8]) -> Result<ResultsFile, MatchError> {
    let bad = |why: String| MatchError::Results {
        path: path.into(),
        why,
    };
    let whole = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
    let text = std::str::from_utf8(&bytes[..whole]).map_err(|e| {
        bad(format!(
            "bytes that are not UTF-8 at byte {}",
            e.valid_up_to()
        ))
    })?;
    let mut lines = text.lines();
    match lines.next() {
        Some(RESULTS_MAGIC | RESULTS_MAGIC_V2) => {}
        Some(l) if l.starts_with("# reversi match results") => {
            return Err(bad(format!(
                "'{}' is another version of the format (this one reads '{RESULTS_MAGIC}')",
                printable(l)
            )));
        }
        _ => {
            return Err(bad(format!(
                "not a match results file (no '{RESULTS_MAGIC}' line)"
            )));
        }
    }
    let mut file = ResultsFile {
        header: format!("{RESULTS_MAGIC}\n"),
        heading: String::new(),
        games: 0,
        players: Vec::new(),
        pairs: Vec::new(),
        results: Vec::new(),
        shard: String::new(),
        whole,
    };
    // The line of each game's result, by pairing and game.
    let mut seen = std::collections::HashMap::new();
    let (mut has_games, mut has_shard, mut has_pairs) = (false, false, false);
    for (i, line) in lines.enumerate() {
        let number = i + 2;
        let text = checked_text(line)
            .ok_or_else(|| bad(format!("line {number} is damaged (its checksum fails)")))?;
        let in_header = file.results.is_empty();
        if let Some(result) = text.strip_prefix("result ") {
            let r = GameResult::parse(&format!("result {result}"))
                .ok_or_else(|| bad(format!("line {number} is not a result")))?;
            if r.pairing >= file.pairs.len() || r.game >= file.games {
                return Err(bad(format!(
                    "line {number}: no game {} in pairing {} of this match",
                    r.game, r.pairing
                )));
            }
            if let Some(first) = seen.insert((r.pairing, r.game), number) {
                return Err(bad(format!(
                    "line {number}: game {} of pairing {} again (its result is on line {first})",
                    r.game, r.pairing
                )));
            }
            file.results.push(r);
            continue;
        }
        if !in_header {
            return Err(bad(format!("line {number} is not a result")));
        }
        if let Some(h) = text.strip_prefix("match ") {
            file.heading = h.to_string();
        } else if let Some(g) = text.strip_prefix("games ") {
            file.games = g
                .parse()
                .map_err(|_| bad(format!("line {number}: bad game count")))?;
            has_games = true;
        } else if let Some(shard) = text.strip_prefix("shard ") {
            file.shard = shard.to_string();
            has_shard = true;
        } else if let Some(name) = text.strip_prefix("player ") {
            file.players.push(name.to_string());
        } else if let Some(pairs) = text.strip_prefix("pairs ") {
            file.pairs = parse_pairs(pairs, file.players.len())
                .ok_or_else(|| bad(format!("line {number}: bad pairs")))?;
            has_pairs = true;
        } else {
            return Err(bad(format!("line {number} is not part of the header")));
        }
        file.header.push_str(line);
        file.header.push('\n');
    }
    if file.heading.is_empty() || !has_games || !has_shard || !has_pairs || file.players.len() < 2 {
        return Err(bad(
            "its header lacks the match, games, shard, pairs or two players".into(),
        ));
    }
    Ok(file)
}

/// A `pairs` line's pairs (`0:1 0:2`), each of two players among
/// `players`, the first lower.
fn parse_pairs(text: &str, players: usize) -> Option<Vec<(usize, usize)>> {
    text.split_whitespace()
        .map(|p| {
            let (i, j) = p.split_once(':')?;
            let (i, j) = (i.parse().ok()?, j.parse().ok()?);
            (i < j && j < players).then_some((i, j))
        })
        .collect()
}

/// How a file of a match is opened: created anew, or resumed with its
/// bytes from `keep` on dropped (a torn last line, or a game recorded
/// after the last result was written).
struct Opening {
    path: String,
    keep: Option<u64>,
}

impl Opening {
    fn open(&self) -> Result<File, MatchError> {
        let file_error = |source| MatchError::File {
            path: self.path.clone(),
            source,
        };
        match self.keep {
            None => File::create(&self.path).map_err(file_error),
            Some(keep) => {
                let file = OpenOptions::new()
                    .append(true)
                    .open(&self.path)
                    .map_err(file_error)?;
                file.set_len(keep).map_err(file_error)?;
                Ok(file)
            }
        }
    }
}

/// Reads a file, or `None` when it does not exist.
fn read_if_there(path: &str) -> Result<Option<Vec<u8>>, MatchError> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(MatchError::File {
            path: path.into(),
            source,
        }),
    }
}

/// How the results file at `path` is opened for a match whose header is
/// `header`, and the results it holds: created when it is missing, empty
/// or holds only part of the header; resumed when it holds this match's
/// header (a torn last line dropped); an error, leaving it as it is, when
/// it is damaged or belongs to another match.
fn resume_results(path: &str, header: &str) -> Result<(Opening, Vec<GameResult>), MatchError> {
    let fresh = Opening {
        path: path.into(),
        keep: None,
    };
    let Some(bytes) = read_if_there(path)? else {
        return Ok((fresh, Vec::new()));
    };
    if bytes.len() < header.len() && header.as_bytes().starts_with(&bytes) {
        return Ok((fresh, Vec::new()));
    }
    let file = parse_results(path, &bytes)?;
    if file.header != header {
        return Err(MatchError::Results {
            path: path.into(),
            why: "it holds the results of another match (its header differs from this \
                  command's: another file, or the same command, goes on)"
                .into(),
        });
    }
    if file.whole < bytes.len() {
        log::warn!(
            "{path}: dropping a partial line at byte {} (a stopped run's last result)",
            file.whole
        );
    }
    let keep = Some(file.whole as u64);
    Ok((Opening { keep, ..fresh }, file.results))
}

/// How a file of one line a game (GGF records, move lists) at `path` is
/// opened when the results file holds `games` results: anew for a new
/// match; else resumed after its first `games` lines, dropping a torn last
/// line and the one game a stopped run may have recorded before its
/// result. More lines than that is another match's file: an error.
fn resume_games(path: &str, games: Option<usize>) -> Result<Opening, MatchError> {
    let fresh = Opening {
        path: path.into(),
        keep: None,
    };
    let Some(games) = games else {
        return Ok(fresh);
    };
    let Some(bytes) = read_if_there(path)? else {
        log::warn!("{path}: not there; it gets only the games played from now on");
        return Ok(fresh);
    };
    let ends: Vec<usize> = bytes
        .iter()
        .enumerate()
        .filter(|&(_, &b)| b == b'\n')
        .map(|(i, _)| i + 1)
        .collect();
    if ends.len() > games + 1 {
        return Err(MatchError::Results {
            path: path.into(),
            why: format!(
                "it holds {} games, more than the {games} of the results file: not this \
                 match's",
                ends.len()
            ),
        });
    }
    if ends.len() < games {
        log::warn!(
            "{path}: holds {} of the {games} games played so far",
            ends.len()
        );
    }
    let keep = match games.min(ends.len()) {
        0 => 0,
        k => ends[k - 1],
    };
    if keep < bytes.len() {
        log::warn!("{path}: dropping what follows byte {keep} (a stopped run's last game)");
    }
    Ok(Opening {
        keep: Some(keep as u64),
        ..fresh
    })
}

/// The files a match writes as it goes (each optional), opened: created
/// for a new match, or resumed where a stopped run left them.
struct Outputs {
    records: Option<(String, File)>,
    move_lists: Option<(String, File)>,
    results: Option<(String, File)>,
    /// The folder of each game's GGF record.
    games_dir: Option<std::path::PathBuf>,
    /// The results the results file held already.
    done: Vec<GameResult>,
}

impl Outputs {
    /// Opens `files` for the match whose results header is `header`; every
    /// file is checked before any is touched.
    fn open(files: MatchFiles, header: &str) -> Result<Outputs, MatchError> {
        let (results_opening, done) = match files.results {
            Some(path) => {
                let (opening, results) = resume_results(path, header)?;
                (Some(opening), results)
            }
            None => (None, Vec::new()),
        };
        let resumed = results_opening
            .as_ref()
            .filter(|o| o.keep.is_some())
            .map(|_| done.len());
        let records = files
            .records
            .map(|p| resume_games(p, resumed))
            .transpose()?;
        let move_lists = files
            .move_lists
            .map(|p| resume_games(p, resumed))
            .transpose()?;
        let open = |o: Option<Opening>| -> Result<Option<(String, File)>, MatchError> {
            o.map(|o| o.open().map(|f| (o.path, f))).transpose()
        };
        let mut outputs = Outputs {
            records: open(records)?,
            move_lists: open(move_lists)?,
            results: open(results_opening)?,
            games_dir: files.games_dir.map(std::path::PathBuf::from),
            done,
        };
        if resumed.is_none()
            && let Some(file) = &mut outputs.results
        {
            write(file, header)?;
        }
        Ok(outputs)
    }

    /// Writes one game, one write a line and the result last: a stopped
    /// run leaves at most a torn line and a game recorded before its
    /// result.
    fn write_game(&mut self, o: &arena::Outcome, r: &GameResult) -> Result<(), MatchError> {
        if let Some(file) = &mut self.records {
            write(file, &format!("{}\n", o.record.ggf()))?;
        }
        if let Some(file) = &mut self.move_lists {
            write(file, &format!("{}\n", o.record.move_list()))?;
        }
        if let Some(dir) = &self.games_dir {
            let label = arena::GameId {
                pairing: r.pairing,
                game: r.game,
            }
            .label();
            let path = dir.join(format!("{label}.ggf"));
            std::fs::write(&path, format!("{}\n", o.record.ggf())).map_err(|source| {
                MatchError::File {
                    path: path.display().to_string(),
                    source,
                }
            })?;
        }
        if let Some(file) = &mut self.results {
            write(file, &checked_line(&r.line()))?;
        }
        Ok(())
    }
}

/// Writes `text` to the file `path` in one write.
fn write((path, file): &mut (String, File), text: &str) -> Result<(), MatchError> {
    file.write_all(text.as_bytes())
        .map_err(|source| MatchError::File {
            path: path.clone(),
            source,
        })
}

/// The contestants `names` for `config`'s board and threads.
fn contestants(names: &[String], config: &MatchConfig) -> Result<Vec<Contestant>, MatchError> {
    if !is_supported_size(config.size) {
        return Err(MatchError::Size(config.size));
    }
    let resources = Resources {
        threads: config.threads,
        ..Resources::default()
    };
    let mut players = names
        .iter()
        .map(|n| Contestant::new(n, config.nboard_depth, resources))
        .collect::<Result<Vec<_>, _>>()?;
    if config.lab8_cpu {
        players.iter_mut().for_each(Contestant::judge_by_cpu);
    }
    for (p, t) in players.iter_mut().zip(&config.player_times) {
        if let Some(t) = t {
            p.set_time(*t);
        }
    }
    for p in &players {
        p.check_size(config.size)?;
    }
    if players.iter().any(Contestant::is_lab8) && config.openings != Openings::None {
        return Err(MatchError::Lab8Openings);
    }
    Ok(players)
}

/// Says on stderr (even when the bar is hidden: not a terminal) who
/// forfeited the game `r` that ended, and why, naming the game as its
/// files do (`p22-g1`).
fn tell_forfeit(bar: &ProgressBar, o: &arena::Outcome, r: &GameResult) {
    if let Some((c, f)) = &o.forfeit {
        let who = match c {
            Color::Black => &o.record.black,
            Color::White => &o.record.white,
        };
        bar.set_message(format!("last forfeit: {c} {}", f.kind()));
        let game = arena::GameId {
            pairing: r.pairing,
            game: r.game,
        }
        .label();
        bar.suspend(|| eprintln!("game {game}: {who} ({c}) forfeits: {f}"));
    }
}

/// Plays a match between the players `names` (two) or a round robin
/// (more) under `config`, the games of `shard` only, writing every game
/// to `files` as it ends, and the tables to `out`. With a results file
/// that already holds results of this match (a stopped run's), only the
/// games it lacks are played, and every file goes on where it stopped.
pub fn run_match(
    names: &[String],
    config: &MatchConfig,
    shard: Shard,
    files: MatchFiles,
    out: &mut dyn Write,
) -> Result<(), MatchError> {
    let pairs = arena::pairings(names.len());
    if config.sprt.is_some() && (pairs.len() != 1 || shard != Shard::ALL) {
        return Err(MatchError::SprtMatch);
    }
    let select = |_, game: usize| shard.has(game as u64);
    let (results, written) = run_pairs(names, &pairs, config, shard, &select, files)?;
    let part = if shard == Shard::ALL {
        String::new()
    } else {
        format!(", shard {}/{}", shard.index, shard.count)
    };
    writeln!(
        out,
        "{}{part}\n{}",
        heading(config),
        arena::tables(&shown_names(names), &pairs, &results)
    )?;
    if let Some(test) = config.sprt {
        writeln!(out, "{}", test.report(&Pentanomial::of(&results)))?;
    }
    written
}

/// The players' names as tables show them (`NAME=<player>` as NAME).
fn shown_names(names: &[String]) -> Vec<String> {
    names.iter().map(|n| split_name(n).0.to_string()).collect()
}

/// Plays the games (pairing, game) that `select` chooses in the pairings
/// `pairs` of the players `names` under `config`, as shard `shard` (so
/// its results file says), writing every game to `files` as it ends (and
/// resuming them, as [`run_match`] does). Returns every result, those of
/// a resumed file's included, and whether the files were written.
pub fn run_pairs(
    names: &[String],
    pairs: &[(usize, usize)],
    config: &MatchConfig,
    shard: Shard,
    select: &dyn Fn(usize, usize) -> bool,
    files: MatchFiles,
) -> Result<(Vec<GameResult>, Result<(), MatchError>), MatchError> {
    if let Some(dir) = files.games_dir {
        std::fs::create_dir_all(dir).map_err(|source| MatchError::File {
            path: dir.into(),
            source,
        })?;
    }
    // Each worker's contestants; the first set is made here, so that a bad
    // name is refused before any file is touched.
    let players = || -> Result<Vec<Contestant>, MatchError> {
        let mut players = contestants(names, config)?;
        if let Some(dir) = files.games_dir {
            // Two programs whose transcripts would share file names.
            let writers: Vec<(usize, String)> = players
                .iter()
                .enumerate()
                .filter(|(_, p)| p.is_lab8())
                .map(|(i, p)| (i, p.file_stem()))
                .collect();
            for (k, (i, a)) in writers.iter().enumerate() {
                if let Some((j, _)) = writers[k + 1..].iter().find(|(_, b)| b == a) {
                    return Err(MatchError::SameTranscripts(*i + 1, *j + 1, a.clone()));
                }
            }
            for p in &mut players {
                p.keep_transcripts(std::path::Path::new(dir));
            }
        }
        Ok(players)
    };
    for mut p in players()? {
        p.finish();
    }
    let header = results_header(names, pairs, config, shard);
    let mut outputs = Outputs::open(files, &header)?;
    let mut results = std::mem::take(&mut outputs.done);
    let done: HashSet<(usize, usize)> = results.iter().map(|r| (r.pairing, r.game)).collect();
    // An SPRT already decided by a resumed file plays nothing more.
    let sprt = config.sprt.filter(|_| pairs.len() == 1);
    let mut pairs_so_far = Pairs::default();
    for r in &results {
        pairs_so_far.add(r);
    }
    let decided = sprt.is_some_and(|t| t.decide(&pairs_so_far.counts) != Decision::Open);
    let jobs: Vec<(usize, usize)> = (0..pairs.len())
        .flat_map(|k| (0..config.games).map(move |g| (k, g)))
        .filter(|&(k, g)| !decided && select(k, g) && !done.contains(&(k, g)))
        .collect();
    if !done.is_empty() {
        log::warn!(
            "resuming: {} games played, {} to play",
            done.len(),
            jobs.len()
        );
    }
    let bar = progress(
        jobs.len() as u64,
        "{bar:40} {pos}/{len} games, {elapsed} (eta {eta}) {msg}",
    );
    let mut written = Ok(());
    let on_game = |o: &arena::Outcome, r: &GameResult| {
        bar.inc(1);
        tell_forfeit(&bar, o, r);
        if written.is_ok() {
            written = outputs.write_game(o, r);
        }
        let Some(test) = sprt else {
            return ControlFlow::Continue(());
        };
        pairs_so_far.add(r);
        let played = pairs_so_far.counts;
        bar.set_message(format!(
            "LLR {:.2} after {} pairs",
            test.llr(&played),
            played.pairs()
        ));
        if test.decide(&played) == Decision::Open {
            ControlFlow::Continue(())
        } else {
            bar.suspend(|| eprintln!("{}", test.report(&played)));
            ControlFlow::Break(())
        }
    };
    results.extend(arena::play_jobs(
        &players,
        pairs,
        config,
        &jobs,
        config.concurrency,
        on_game,
    )?);
    bar.finish_and_clear();
    Ok((results, written))
}

/// Puts the results files of a match's shards together (each game once,
/// in any order of the files) and writes the whole match's tables to
/// `out`, with a warning on stderr naming the games that no file holds.
pub fn merge_results(paths: &[String], out: &mut dyn Write) -> Result<(), MatchError> {
    let mut merged: Option<(String, ResultsFile)> = None;
    let mut games = std::collections::BTreeMap::new();
    // The first file of each shard: a shard given twice is merged once.
    let mut shards = std::collections::HashMap::new();
    for path in paths {
        let bytes = std::fs::read(path).map_err(|source| MatchError::File {
            path: path.into(),
            source,
        })?;
        let file = parse_results(path, &bytes)?;
        if file.whole < bytes.len() {
            log::warn!("{path}: its last line is partial (a stopped run's) and is left out");
        }
        if let Some(first) = shards.insert(file.shard.clone(), path.clone()) {
            log::warn!(
                "{path} is shard {} again (as {first} is): each game is counted once",
                file.shard
            );
        }
        if let Some((first, m)) = &merged
            && (m.heading != file.heading
                || m.players != file.players
                || m.pairs != file.pairs
                || m.games != file.games)
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
    let pairs = m.pairs.len();
    let missing: Vec<String> = (0..pairs)
        .flat_map(|k| (0..m.games).map(move |g| (k, g)))
        .filter(|key| !games.contains_key(key))
        .map(|(k, g)| {
            if pairs == 1 {
                format!("{g}")
            } else {
                format!("{k}:{g}")
            }
        })
        .collect();
    if !missing.is_empty() {
        let shown = missing
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join(" ");
        let more = if missing.len() > 20 { " ..." } else { "" };
        log::warn!(
            "{} of the {} games are in no file (a shard not merged or not finished): {}{more}",
            missing.len(),
            pairs * m.games,
            shown
        );
    }
    let results: Vec<GameResult> = games.into_values().collect();
    let complete = if missing.is_empty() {
        String::new()
    } else {
        format!(", {} of {} games", results.len(), pairs * m.games)
    };
    writeln!(
        out,
        "{}{complete}\n{}",
        m.heading,
        arena::tables(&shown_names(&m.players), &m.pairs, &results)
    )?;
    Ok(())
}
