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
mod stage;
mod standings;

use super::arena::{self, MatchConfig};
use super::contestant::{TimeControl, split_name};
use super::run::MatchError;
use crate::openings::Openings;
use crate::shard::Shard;
use page::page;
use serde::Serialize;
use stage::{Stage, play_stage, wins};
use standings::standings;
use std::path::Path;
use std::time::Duration;

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
    #[error("a leaderboard needs at least one program")]
    NoPrograms,
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

/// Runs the leaderboard of `programs` under `cfg` into the folder `dir`,
/// and writes the standings to `out` too. A folder that holds part of the
/// same leaderboard (a stopped run, or other shards' results) goes on
/// where it stopped. A shard plays its part of the qualification, and of
/// the finals once the qualification is complete in the folder; the
/// standings are written once everything is.
pub fn run(
    programs: &[Entry],
    cfg: &LeaderboardConfig,
    dir: &Path,
    out: &mut dyn std::io::Write,
) -> Result<(), LeaderboardError> {
    if programs.is_empty() {
        return Err(LeaderboardError::NoPrograms);
    }
    std::fs::create_dir_all(dir).map_err(file_error(dir))?;
    let n = programs.len();
    let mut entries = programs.to_vec();
    entries.extend(cfg.qualifiers.iter().map(|q| Entry::parse(q)));
    let pairs: Vec<(usize, usize)> = (0..n)
        .flat_map(|i| (0..cfg.qualifiers.len()).map(move |q| (i, n + q)))
        .collect();
    let qualification = play_stage("qualify", entries, pairs, cfg, dir)?;
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
        if !stage.complete() {
            return waiting(out, &stage);
        }
        Some(stage)
    } else {
        None
    };
    let standings = standings(cfg, &qualification, &finalists, finals.as_ref());
    write_file(&dir.join("standings.txt"), &standings)?;
    write_file(
        &dir.join("index.html"),
        &page(cfg, &qualification, &finalists, finals.as_ref(), dir)?,
    )?;
    write!(out, "{standings}").map_err(file_error(Path::new("stdout")))?;
    Ok(())
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
