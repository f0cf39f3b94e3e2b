//! A leaderboard's stage: its games played (or resumed, or taken from
//! other shards' results files in its folder), and what they add up to.

use super::{Entry, LeaderboardConfig, LeaderboardError, file_error, match_config};
use crate::referee::arena::{self, GameResult, Tally};
use crate::referee::run::{MatchFiles, read_results, run_pairs};
use crate::shard::Shard;
use std::collections::HashSet;
use std::path::Path;

/// One stage's games: who played, in which pairings, and the results
/// (this run's and those of other shards' files in the folder).
pub(super) struct Stage {
    pub(super) folder: &'static str,
    pub(super) entries: Vec<Entry>,
    pub(super) pairs: Vec<(usize, usize)>,
    pub(super) results: Vec<GameResult>,
}

impl Stage {
    /// Whether every game of the stage has a result.
    pub(super) fn complete(&self) -> bool {
        self.results.len() == 2 * self.pairs.len()
    }

    /// What is played of it, as a sentence.
    pub(super) fn progress(&self) -> String {
        format!(
            "{}: {} of {} games played",
            self.folder,
            self.results.len(),
            2 * self.pairs.len()
        )
    }
}

/// Plays (or resumes) this run's part of one stage in `dir/<folder>`:
/// its shard's pairings, but for the games of other shards' results files
/// in the folder (`results-K-of-N`; an unsharded run's is `results`).
pub(super) fn play_stage(
    folder: &'static str,
    entries: Vec<Entry>,
    pairs: Vec<(usize, usize)>,
    cfg: &LeaderboardConfig,
    dir: &Path,
) -> Result<Stage, LeaderboardError> {
    let stage_dir = dir.join(folder);
    std::fs::create_dir_all(&stage_dir).map_err(file_error(&stage_dir))?;
    let own = if cfg.shard == Shard::ALL {
        "results".to_string()
    } else {
        format!("results-{}-of-{}", cfg.shard.index, cfg.shard.count)
    };
    let texts: Vec<String> = entries.iter().map(|e| e.text.clone()).collect();
    let mut others: Vec<GameResult> = Vec::new();
    for path in results_files(&stage_dir, &own) {
        let file = read_results(&path)?;
        if file.players == texts && file.pairs == pairs {
            others.extend(file.results);
        } else {
            log::warn!("{path}: results of another leaderboard, left out");
        }
    }
    let elsewhere: HashSet<(usize, usize)> = others.iter().map(|r| (r.pairing, r.game)).collect();
    let shard = cfg.shard;
    let select = |pairing: usize, game: usize| {
        shard.has(pairing as u64) && !elsewhere.contains(&(pairing, game))
    };
    let results_path = stage_dir.join(&own).display().to_string();
    let games_path = stage_dir.join("games").display().to_string();
    let files = MatchFiles {
        records: None,
        move_lists: None,
        results: Some(&results_path),
        games_dir: Some(&games_path),
    };
    let (mut results, written) =
        run_pairs(&texts, &pairs, &match_config(cfg), shard, &select, files)?;
    written?;
    let mine: HashSet<(usize, usize)> = results.iter().map(|r| (r.pairing, r.game)).collect();
    results.extend(
        others
            .into_iter()
            .filter(|r| !mine.contains(&(r.pairing, r.game))),
    );
    let mut seen = HashSet::new();
    results.retain(|r| seen.insert((r.pairing, r.game)));
    Ok(Stage {
        folder,
        entries,
        pairs,
        results,
    })
}

/// The results files of a stage's folder but `own`.
fn results_files(stage_dir: &Path, own: &str) -> Vec<String> {
    let mut files: Vec<String> = std::fs::read_dir(stage_dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            name.starts_with("results") && name != own
        })
        .map(|e| e.path().display().to_string())
        .collect();
    files.sort();
    files
}

/// The tallies of each pairing of `stage` (the pair's first player first).
pub(super) fn tallies(stage: &Stage) -> Vec<[Tally; 2]> {
    (0..stage.pairs.len())
        .map(|k| arena::tally_pairing(stage.results.iter().filter(|r| r.pairing == k)))
        .collect()
}

/// Games player `i` won in `stage`.
pub(super) fn wins(stage: &Stage, i: usize) -> usize {
    let tallies = tallies(stage);
    stage
        .pairs
        .iter()
        .zip(&tallies)
        .map(|(&(a, b), t)| {
            let me = if a == i {
                &t[0]
            } else if b == i {
                &t[1]
            } else {
                return 0;
            };
            me.wdl[0][0] + me.wdl[1][0]
        })
        .sum()
}
