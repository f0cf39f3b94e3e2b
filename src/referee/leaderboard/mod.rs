//! The Lab 8 Part 3 leaderboard, as the handout runs it: every program
//! plays the course's `smarter` and `smartest` with both colours and is a
//! finalist if it wins three of those four games; the finalists then play
//! every other finalist twice, once with each colour. A win scores 2, a
//! loss 0, a tie between 0 and 1 by the share of the time the player used
//! (the less, the more). The referee keeps the board, so an illegal move,
//! a move past the time limit, a crash or a hang loses the game at once.
//!
//! Everything goes into one folder: each stage's results (resumable, as a
//! match's), each game's GGF record and transcripts, the standings as text
//! (`standings.txt`) and as a page that needs no server (`index.html`:
//! standings, finalists, every game with a board to step through, links to
//! the logs).

mod page;
mod review;
mod stage;
mod standings;
pub mod submissions;

use super::arena::{self, MatchConfig};
use super::contestant::{TimeControl, split_name};
use super::run::MatchError;
use crate::openings::Openings;
use crate::shard::Shard;
use page::page;
use serde::Serialize;
use stage::{Stage, play_stage, wins};
use standings::standings;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};
use submissions::{Build, Built, CompileConfig};

/// How a leaderboard is run.
#[derive(Clone, Debug)]
pub struct LeaderboardConfig {
    /// Board side (8 in the handout).
    pub size: usize,
    /// Time per move (1 s in the handout).
    pub time: Duration,
    /// Lateness allowed past it before a move is forfeited.
    pub margin: Duration,
    /// The players every program must beat to be a finalist.
    pub qualifiers: Vec<String>,
    /// Wins of the qualification games a finalist needs.
    pub wins_needed: usize,
    /// The part of each stage's pairings this run plays (`K/N`: those
    /// numbered K-1 modulo N).
    pub shard: Shard,
    /// Games played at once.
    pub concurrency: usize,
    /// Whether programs' moves are judged on their CPU time (with a
    /// wall-clock cap), not their wall time.
    pub cpu_time: bool,
    /// A folder of students' submissions to build and play, beside the
    /// programs given as players.
    pub submissions: Option<PathBuf>,
    /// How submissions are built.
    pub compile: CompileConfig,
    /// Only build the submissions (the first step of a sharded run: the
    /// shards then find every build done).
    pub build_only: bool,
    /// Analyse each game for the page: its graph and its mistakes.
    pub analyze: bool,
}

/// Why a leaderboard could not be run.
#[derive(Debug, thiserror::Error)]
pub enum LeaderboardError {
    #[error(transparent)]
    Match(#[from] MatchError),
    #[error("{path}: {source}")]
    File {
        path: String,
        source: std::io::Error,
    },
    #[error("the page could not be made: {0}")]
    Page(#[from] minijinja::Error),
    #[error(transparent)]
    Submissions(#[from] submissions::SubmissionsError),
    #[error("a leaderboard needs at least one program")]
    NoPrograms,
    #[error("two programs are named '{0}': give each a name of its own")]
    SameName(String),
    #[error(
        "{0} is in use by another run of the same part of this leaderboard (one at a time; the other goes on)"
    )]
    Busy(String),
}

/// A contestant: the name shown and the player it stands for (`alice=lab8:
/// ./alice/lab8` names `lab8:./alice/lab8` alice).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Entry {
    pub name: String,
    /// The whole text, as a match takes it.
    pub text: String,
}

impl Entry {
    /// `NAME=<player>`, or a player alone (named by itself).
    pub fn parse(text: &str) -> Entry {
        Entry {
            name: split_name(text).0.to_string(),
            text: text.to_string(),
        }
    }
}

/// A program of the leaderboard as its page tells of it.
#[derive(Clone, Debug, Serialize)]
pub(super) struct ProgramInfo {
    name: String,
    /// When its submission last changed (UTC), for a built submission.
    changed: String,
    /// The digest of what was compiled.
    digest: String,
    /// The compiler's warnings (empty when none).
    warnings: String,
}

/// A submission that did not build, as the page lists it.
#[derive(Clone, Debug, Serialize)]
pub(super) struct Unbuilt {
    pub(super) name: String,
    pub(super) changed: String,
    pub(super) errors: String,
    /// The compiler's first error line (or its first line).
    pub(super) summary: String,
}

/// What the standings and the page say besides the games.
pub(super) struct Roll {
    pub(super) programs: Vec<ProgramInfo>,
    pub(super) unbuilt: Vec<Unbuilt>,
    /// When this run wrote the standings (UTC).
    pub(super) updated: String,
}

/// Runs the leaderboard of `programs` and of `cfg`'s submissions under
/// `cfg` into the folder `dir`, and writes the standings to `out` too;
/// what it built, played and kept goes to `progress`.
///
/// Run again on the same folder, it plays only what is new: a stopped
/// run goes on where it stopped, other shards' results are taken in, and
/// after submissions change only the games of new and changed programs
/// are played (a removed one leaves the standings). One run at a time
/// may work on each part (shard) of a folder: a lock file says so.
///
/// A shard plays its part of the qualification, and of the finals once
/// the qualification is complete in the folder; the standings are written
/// once everything is.
pub fn run(
    programs: &[Entry],
    cfg: &LeaderboardConfig,
    dir: &Path,
    out: &mut dyn std::io::Write,
    progress: &mut dyn std::io::Write,
) -> Result<(), LeaderboardError> {
    std::fs::create_dir_all(dir).map_err(file_error(dir))?;
    let _lock = lock(dir, cfg.shard)?;
    let mut programs = programs.to_vec();
    let mut roll = Roll {
        programs: programs
            .iter()
            .map(|e| ProgramInfo {
                name: e.name.clone(),
                changed: String::new(),
                digest: String::new(),
                warnings: String::new(),
            })
            .collect(),
        unbuilt: Vec::new(),
        updated: utc(SystemTime::now()),
    };
    if let Some(folder) = &cfg.submissions {
        let built = build_submissions(folder, cfg, dir)?;
        let compiled = built.len();
        for b in built {
            let changed = utc(b.submission.changed);
            let name = b.submission.name;
            match b.build {
                Build::Program { exe, warnings } => {
                    programs.push(Entry {
                        text: format!("{name}=lab8:{}", exe.display()),
                        name: name.clone(),
                    });
                    roll.programs.push(ProgramInfo {
                        name,
                        changed,
                        digest: b.digest,
                        warnings,
                    });
                }
                Build::Failed { errors } => roll.unbuilt.push(Unbuilt {
                    name,
                    changed,
                    summary: first_error(&errors).to_string(),
                    errors,
                }),
            }
        }
        let line = format!(
            "submissions: {compiled}, {} built, {} not",
            compiled - roll.unbuilt.len(),
            roll.unbuilt.len()
        );
        tell(progress, &line)?;
        if cfg.build_only {
            return Ok(());
        }
    }
    if programs.is_empty() && roll.unbuilt.is_empty() {
        return Err(LeaderboardError::NoPrograms);
    }
    let mut names = std::collections::HashSet::new();
    for e in &programs {
        if !names.insert(e.name.as_str()) {
            return Err(LeaderboardError::SameName(e.name.clone()));
        }
    }
    let n = programs.len();
    let mut entries = programs.clone();
    entries.extend(cfg.qualifiers.iter().map(|q| Entry::parse(q)));
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (0..cfg.qualifiers.len()).map(move |q| (i, n + q)))
        .collect();
    let qualification = play_stage("qualify", entries, pairs, cfg, dir)?;
    tell(progress, &qualification.summary())?;
    if cfg.analyze {
        review::review_stage(&qualification, cfg, progress)?;
    }
    if !qualification.complete() {
        return waiting(out, &qualification);
    }
    let finalists: Vec<usize> = (0..n)
        .filter(|&i| wins(&qualification, i) >= cfg.wins_needed)
        .collect();
    let finals = if finalists.len() >= 2 {
        let entries = finalists.iter().map(|&i| programs[i].clone()).collect();
        let pairs = arena::pairings(finalists.len());
        let stage = play_stage("final", entries, pairs, cfg, dir)?;
        tell(progress, &stage.summary())?;
        if cfg.analyze {
            review::review_stage(&stage, cfg, progress)?;
        }
        if !stage.complete() {
            return waiting(out, &stage);
        }
        Some(stage)
    } else {
        None
    };
    let standings = standings(cfg, &qualification, &finalists, finals.as_ref(), &roll);
    write_file(&dir.join("standings.txt"), &standings)?;
    write_file(
        &dir.join("index.html"),
        &page(cfg, &qualification, &finalists, finals.as_ref(), dir, &roll)?,
    )?;
    write!(out, "{standings}").map_err(file_error(Path::new("stdout")))?;
    Ok(())
}

/// Writes a line of the run's progress.
fn tell(progress: &mut dyn std::io::Write, line: &str) -> Result<(), LeaderboardError> {
    writeln!(progress, "{line}").map_err(file_error(Path::new("stderr")))
}

/// Takes the lock of this run's part of the folder (`lock-K-of-N`), held
/// until the value is dropped (and by the system until the process ends,
/// however it ends).
fn lock(dir: &Path, shard: Shard) -> Result<std::fs::File, LeaderboardError> {
    let path = dir.join(format!("lock-{}-of-{}", shard.index, shard.count));
    let file = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&path)
        .map_err(file_error(&path))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => {
            Err(LeaderboardError::Busy(path.display().to_string()))
        }
        Err(std::fs::TryLockError::Error(source)) => Err(LeaderboardError::File {
            path: path.display().to_string(),
            source,
        }),
    }
}

/// Builds every submission of `folder` into `dir/programs/`, as many at
/// once as games are played at once; the builds already there are taken.
fn build_submissions(
    folder: &Path,
    cfg: &LeaderboardConfig,
    dir: &Path,
) -> Result<Vec<Built>, LeaderboardError> {
    let found = submissions::discover(folder)?;
    let programs = dir.join("programs");
    let workers = cfg.concurrency.max(1);
    let results: Vec<Result<Built, submissions::SubmissionsError>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..workers)
            .map(|w| {
                let mine: Vec<_> = found.iter().skip(w).step_by(workers).cloned().collect();
                let programs = &programs;
                s.spawn(move || {
                    mine.into_iter()
                        .map(|sub| submissions::build(sub, &cfg.compile, programs))
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("a build thread does not panic"))
            .collect()
    });
    let mut built = results.into_iter().collect::<Result<Vec<_>, _>>()?;
    built.sort_by(|a, b| a.submission.name.cmp(&b.submission.name));
    Ok(built)
}

/// The first line of a compiler's output that tells of an error (or its
/// first line).
fn first_error(output: &str) -> &str {
    output
        .lines()
        .find(|l| l.contains("error"))
        .or_else(|| output.lines().next())
        .unwrap_or("")
}

/// A time as the page shows it: `2026-12-07 17:40 UTC`.
fn utc(time: SystemTime) -> String {
    jiff::Timestamp::try_from(time)
        .map(|t| t.strftime("%Y-%m-%d %H:%M UTC").to_string())
        .unwrap_or_default()
}

/// How moves are timed, for the standings' first line.
pub(super) fn rule_text(cfg: &LeaderboardConfig) -> String {
    if cfg.cpu_time {
        format!(
            ", judged on CPU time (a move may take {} times its limit on the wall clock)",
            super::contestant::CPU_WALL_CAP
        )
    } else {
        ", judged on wall time".into()
    }
}

/// Says what a shard left for the others, and stops.
fn waiting(out: &mut dyn std::io::Write, stage: &Stage) -> Result<(), LeaderboardError> {
    writeln!(
        out,
        "{}: the rest is other shards' (run again once their results are in the folder)",
        stage.progress()
    )
    .map_err(file_error(Path::new("stdout")))
}

pub(super) fn file_error(path: &Path) -> impl Fn(std::io::Error) -> LeaderboardError + '_ {
    move |source| LeaderboardError::File {
        path: path.display().to_string(),
        source,
    }
}

pub(super) fn write_file(path: &Path, text: &str) -> Result<(), LeaderboardError> {
    std::fs::write(path, text).map_err(file_error(path))
}

/// The match settings of every leaderboard game: two games a pairing,
/// from the start position.
pub(super) fn match_config(cfg: &LeaderboardConfig) -> MatchConfig {
    MatchConfig {
        size: cfg.size,
        games: 2,
        time: TimeControl::PerMove(cfg.time),
        player_times: Vec::new(),
        margin: cfg.margin,
        openings: Openings::None,
        max_plies: None,
        seed: 1,
        nboard_depth: 60,
        threads: 1,
        concurrency: cfg.concurrency,
        sprt: None,
        lab8_cpu: cfg.cpu_time,
    }
}
