//! A leaderboard's stage: its games played (or resumed, or taken from
//! other shards' results files in its folder), and what they add up to.

use super::{Entry, LeaderboardConfig, LeaderboardError, file_error, match_config};
use crate::referee::arena::{self, GameId, GameResult, Tally};
use crate::referee::run::{MatchFiles, heading, read_results, run_pairs};
use crate::shard::Shard;
use std::collections::HashMap;
use std::path::{Path, PathBuf};

/// One stage's games: who played, in which pairings, and the results
/// (this run's and those of other shards' files in the folder).
pub(super) struct Stage {
    pub(super) folder: &'static str,
    pub(super) entries: Vec<Entry>,
    pub(super) pairs: Vec<(usize, usize)>,
    pub(super) results: Vec<GameResult>,
    /// Where each result's game has its files.
    pub(super) files: Vec<GameFiles>,
    /// How many of the games this run played.
    pub(super) played: usize,
}

impl Stage {
    /// Whether every game of the stage has a result.
    pub(super) fn complete(&self) -> bool {
        self.results.len() == 2 * self.pairs.len()
    }

    /// What this run played of it and what it kept, as a sentence.
    pub(super) fn summary(&self) -> String {
        format!(
            "{}: {} games, {} played now, {} kept from earlier runs and other shards",
            self.folder,
            self.results.len(),
            self.played,
            self.results.len() - self.played
        )
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

/// Where a game's own files are: its stage's games folder and its label
/// there (`p3-g1`: `p3-g1.ggf`, `p3-g1-<name>.txt`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct GameFiles {
    pub(super) dir: PathBuf,
    pub(super) label: String,
}

impl GameFiles {
    /// The game's GGF record.
    pub(super) fn record(&self) -> PathBuf {
        self.dir.join(format!("{}.ggf", self.label))
    }

    /// The files of game `game` of pairing `pairing` in the games folder
    /// `dir`.
    fn of(dir: &Path, pairing: usize, game: usize) -> GameFiles {
        GameFiles {
            dir: dir.to_path_buf(),
            label: GameId { pairing, game }.label(),
        }
    }
}

/// Plays (or resumes) this run's part of one stage in `dir/<folder>`: its
/// shard's pairings, but for the games the folder's results files already
/// hold. Those are found by who played them, not by their numbers: a
/// stage whose players changed (a new, changed or removed submission)
/// keeps every game between players that are still in it, played under
/// the same settings, and plays only the others.
///
/// Each set of players and pairings has its results file and games
/// folder, named by a digest of them (`results-<digest>` or, for a shard,
/// `results-<digest>-K-of-N`, and `games-<digest>/`); a stopped run of the
/// same set goes on in its own file.
pub(super) fn play_stage(
    folder: &'static str,
    entries: Vec<Entry>,
    pairs: Vec<(usize, usize)>,
    cfg: &LeaderboardConfig,
    dir: &Path,
) -> Result<Stage, LeaderboardError> {
    let stage_dir = dir.join(folder);
    std::fs::create_dir_all(&stage_dir).map_err(file_error(&stage_dir))?;
    let config = match_config(cfg);
    let heading = heading(&config);
    let texts: Vec<String> = entries.iter().map(|e| e.text.clone()).collect();
    let digest = set_digest(&heading, &texts, &pairs);
    let own = if cfg.shard == Shard::ALL {
        format!("results-{digest}")
    } else {
        format!(
            "results-{digest}-{}-of-{}",
            cfg.shard.index, cfg.shard.count
        )
    };
    let games_dir = stage_dir.join(format!("games-{digest}"));
    let known = known_games(&stage_dir, &own, &heading, &texts, &pairs)?;
    let shard = cfg.shard;
    let select = |pairing: usize, game: usize| {
        shard.has(pairing as u64) && !known.contains_key(&(pairing, game))
    };
    let results_path = stage_dir.join(&own).display().to_string();
    let games_path = games_dir.display().to_string();
    let files = MatchFiles {
        records: None,
        move_lists: None,
        results: Some(&results_path),
        games_dir: Some(&games_path),
    };
    // A stopped run's results, which the run goes on from.
    let resumed = read_results(&results_path).map_or(0, |f| f.results.len());
    let (mine, written) = run_pairs(&texts, &pairs, &config, shard, &select, files)?;
    written?;
    let played = mine.len().saturating_sub(resumed);
    let mut games: HashMap<(usize, usize), (GameResult, GameFiles)> = known;
    for r in mine {
        let files = GameFiles::of(&games_dir, r.pairing, r.game);
        games.insert((r.pairing, r.game), (r, files));
    }
    let mut games: Vec<(GameResult, GameFiles)> = games.into_values().collect();
    games.sort_by_key(|(r, _)| (r.pairing, r.game));
    let (results, files) = games.into_iter().unzip();
    Ok(Stage {
        folder,
        entries,
        pairs,
        results,
        files,
        played,
    })
}

/// A digest of a stage's settings, players and pairings: 8 hex digits of
/// their CRC-32.
fn set_digest(heading: &str, texts: &[String], pairs: &[(usize, usize)]) -> String {
    let mut text = format!("{heading}\n");
    for t in texts {
        text.push_str(t);
        text.push('\n');
    }
    for (i, j) in pairs {
        text.push_str(&format!("{i}:{j} "));
    }
    format!("{:08x}", crc32fast::hash(text.as_bytes()))
}

/// Games by their (pairing, game) in a stage, with their files.
type KnownGames = HashMap<(usize, usize), (GameResult, GameFiles)>;

/// The games of the stage's results files but `own` that were played
/// under `heading`'s settings between players of `texts` that `pairs`
/// pairs, by their (pairing, game) in this stage, with their files.
fn known_games(
    stage_dir: &Path,
    own: &str,
    heading: &str,
    texts: &[String],
    pairs: &[(usize, usize)],
) -> Result<KnownGames, LeaderboardError> {
    // Each ordered pair of players (Black's first) as this stage numbers
    // its game: pairing k's first player has Black in game 0.
    let mut game_of: HashMap<(&str, &str), (usize, usize)> = HashMap::new();
    for (k, &(i, j)) in pairs.iter().enumerate() {
        game_of.insert((&texts[i], &texts[j]), (k, 0));
        game_of.insert((&texts[j], &texts[i]), (k, 1));
    }
    let mut known = HashMap::new();
    for (path, games_dir) in results_files(stage_dir, own) {
        let file = read_results(&path.display().to_string())?;
        if file.heading != heading {
            log::info!(
                "{}: played under other settings ({}), left out",
                path.display(),
                file.heading
            );
            continue;
        }
        for r in file.results {
            let (a, b) = file.pairs[r.pairing];
            let (black, white) = if r.game.is_multiple_of(2) {
                (a, b)
            } else {
                (b, a)
            };
            let Some(&(pairing, game)) =
                game_of.get(&(file.players[black].as_str(), file.players[white].as_str()))
            else {
                continue;
            };
            let files = GameFiles::of(&games_dir, r.pairing, r.game);
            known
                .entry((pairing, game))
                .or_insert((GameResult { pairing, game, ..r }, files));
        }
    }
    Ok(known)
}

/// The results files of a stage's folder but `own`, each with its games
/// folder (`results-<digest>...` has `games-<digest>/`; the single
/// `results` and `results-K-of-N` of earlier versions have `games/`), in
/// name order.
fn results_files(stage_dir: &Path, own: &str) -> Vec<(PathBuf, PathBuf)> {
    let mut files: Vec<(PathBuf, PathBuf)> = std::fs::read_dir(stage_dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().to_string_lossy().into_owned();
            if !name.starts_with("results") || name == own {
                return None;
            }
            let digest = name
                .strip_prefix("results-")
                .map(|rest| rest.split('-').next().unwrap_or(rest))
                .filter(|d| d.len() == 8 && d.bytes().all(|b| b.is_ascii_hexdigit()));
            let games = match digest {
                Some(d) => stage_dir.join(format!("games-{d}")),
                None => stage_dir.join("games"),
            };
            Some((e.path(), games))
        })
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
