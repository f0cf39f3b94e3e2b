//! Each game's review (`leaderboard --analyze`): its analysis made once,
//! beside its record, for the page: the graph of its score
//! (`<label>-graph.svg`) and, in `<label>-review.json`, where each ply
//! lies on the graph and each move's best move and loss.
//!
//! A review names the record and settings it was made from (a digest of
//! both): a game played again, or other settings, get a new one; the
//! others are kept. A shard reviews the games of its own pairings, so a
//! scheduler's tasks share the work; a whole run (no shard) reviews what
//! is left.

use super::stage::{GameFiles, Stage};
use super::{LeaderboardConfig, LeaderboardError, file_error};
use crate::analysis::picture::graph;
use crate::analysis::report::summary_lines;
use crate::analysis::{self, AnalyzeConfig, GameAnalysis, InputGame, Mark};
use crate::rules::ggf;
use crate::sealed::Pending;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// One analysed move, as the page steps to it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct ReviewMove {
    pub(super) ply: usize,
    /// `Black` or `White`.
    pub(super) colour: String,
    pub(super) played: String,
    pub(super) best: String,
    /// Discs the move gave away.
    pub(super) loss: f64,
    /// `mistake`, `blunder`, or empty.
    pub(super) mark: String,
    pub(super) exact: bool,
}

/// A game's review, as its file keeps it and the page reads it.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub(super) struct Review {
    /// The digest of the record and settings it was made from.
    pub(super) key: String,
    /// The graph's file name, beside the record.
    pub(super) graph: String,
    /// The graph's width, and where ply k (from 0) lies across it, in
    /// pixels.
    pub(super) width: u32,
    pub(super) plies_x: Vec<i32>,
    pub(super) moves: Vec<ReviewMove>,
    /// Each side's summary, in words.
    pub(super) summaries: Vec<String>,
}

/// The settings of every review: the analysis's defaults, one search
/// thread a game, as many games at once as games are played.
fn settings(cfg: &LeaderboardConfig) -> AnalyzeConfig {
    AnalyzeConfig {
        threads: cfg.concurrency.max(1),
        ..AnalyzeConfig::default()
    }
}

/// The digest that names a review: the record's text and the settings.
fn key(record: &str, settings: &AnalyzeConfig) -> String {
    let mut hash = Sha256::new();
    hash.update(format!(
        "{:?} {}\n",
        settings.budget, settings.exact_empties
    ));
    hash.update(record.trim());
    hash.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn review_path(files: &GameFiles) -> std::path::PathBuf {
    files.dir.join(format!("{}-review.json", files.label))
}

/// The review of a game whose record is `record`, if one was made from
/// it under `cfg`'s settings.
pub(super) fn read(files: &GameFiles, record: &str, cfg: &LeaderboardConfig) -> Option<Review> {
    let text = std::fs::read_to_string(review_path(files)).ok()?;
    let review: Review = serde_json::from_str(&text).ok()?;
    (review.key == key(record, &settings(cfg))).then_some(review)
}

/// Reviews the games of `stage` that this run's shard holds (all of them
/// for a whole run) and that have no review of their record yet; says how
/// many on `progress`.
pub(super) fn review_stage(
    stage: &Stage,
    cfg: &LeaderboardConfig,
    progress: &mut dyn std::io::Write,
) -> Result<(), LeaderboardError> {
    let settings = settings(cfg);
    // The games to review, and where and under which key each goes.
    let mut games: Vec<InputGame> = Vec::new();
    let mut places: Vec<(&GameFiles, String)> = Vec::new();
    let mut kept = 0;
    for (r, files) in stage.results.iter().zip(&stage.files) {
        if !cfg.shard.has(r.pairing as u64) {
            continue;
        }
        let Ok(record) = std::fs::read_to_string(files.record()) else {
            continue;
        };
        if read(files, &record, cfg).is_some() {
            kept += 1;
            continue;
        }
        let Ok(parsed) = ggf::parse(record.trim()) else {
            continue;
        };
        games.push(InputGame {
            label: format!("{}-{}", stage.folder, files.label),
            opening: analysis::opening_of(&parsed),
            black: parsed.black,
            white: parsed.white,
            game: parsed.game,
        });
        places.push((files, key(&record, &settings)));
    }
    let analyses = analysis::analyze(&games, &settings, &|_, _| {});
    for ((files, key), a) in places.iter().zip(&analyses) {
        write(files, key, a)?;
    }
    writeln!(
        progress,
        "{}: {} games reviewed now, {} kept",
        stage.folder,
        analyses.len(),
        kept
    )
    .map_err(file_error(std::path::Path::new("stderr")))
}

/// Writes `a`'s graph and review beside the game's record, each whole.
fn write(files: &GameFiles, key: &str, a: &GameAnalysis) -> Result<(), LeaderboardError> {
    let picture = graph(a).map_err(|e| LeaderboardError::File {
        path: files.label.clone(),
        source: std::io::Error::other(e),
    })?;
    let graph_name = format!("{}-graph.svg", files.label);
    let review = Review {
        key: key.to_string(),
        graph: graph_name.clone(),
        width: picture.width,
        plies_x: picture.plies_x,
        moves: a
            .moves
            .iter()
            .map(|m| ReviewMove {
                ply: m.ply,
                colour: analysis::colour_title(m.colour).to_string(),
                played: m.played.standard(),
                best: m.best.standard(),
                loss: m.loss,
                mark: Mark::name(m.mark).to_string(),
                exact: m.exact,
            })
            .collect(),
        summaries: summary_lines(a).to_vec(),
    };
    let json = serde_json::to_string(&review).expect("a review serialises");
    for (path, bytes) in [
        (files.dir.join(&graph_name), picture.svg.as_bytes()),
        (review_path(files), json.as_bytes()),
    ] {
        Pending::new(&path.to_string_lossy())
            .and_then(|p| p.commit(bytes))
            .map_err(file_error(&path))?;
    }
    Ok(())
}
