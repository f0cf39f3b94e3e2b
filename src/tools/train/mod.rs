//! `reversi train`: fits the pattern evaluation's weights on game records.
//!
//! Every game is replayed to its end. From [`TrainConfig::solve_empties`]
//! empty squares on, the exact endgame solver gives each position's score
//! with perfect play; the first of those scores (from each position's side
//! to move) is the target of every earlier position of the game. The
//! weights are then fitted by stochastic gradient descent on the squared
//! error (each position's error shared by the two phases it is valued
//! with), and a share of the games is held out to report how
//! well the evaluation predicts them.

mod export;
mod fit;
mod labels;
mod samples;

pub use export::{EXPORT_MAGIC, POSITION_BYTES};
pub use fit::{Prior, fit, quantize, report};
use labels::labelled;
pub use labels::{Labels, relabel};
pub use samples::{Sample, collect, load_samples, read_games, save_samples};

use super::{GamesError, progress, read_games as read_game_lines};
use crate::sealed::{self, Pending};
use crate::search::pattern::PatternEval;
use std::io::{self, Read, Write};

/// Why a training run stopped.
#[derive(Debug, thiserror::Error)]
pub enum TrainError {
    #[error(transparent)]
    Games(#[from] GamesError),
    #[error("{path}: {why}; it is left as it is (remove it to make it again)")]
    Samples { path: String, why: String },
    #[error(
        "{path} was not labelled at depth {depth} from {solve_empties} solved empties with these weights for these games: remove it to label again"
    )]
    LabelsMismatch {
        path: String,
        depth: u32,
        solve_empties: u32,
    },
    #[error(
        "no positions to train on ({games} games gave {positions} positions, {held_out} held out)"
    )]
    NoPositions {
        games: usize,
        positions: usize,
        held_out: usize,
    },
    #[error("{path}: {source}")]
    File { path: String, source: io::Error },
    #[error("{path}: {reason}")]
    Weights { path: String, reason: String },
    #[error("i/o error: {0}")]
    Io(#[from] io::Error),
}

impl From<crate::sealed::FileError> for TrainError {
    fn from(e: crate::sealed::FileError) -> Self {
        TrainError::File {
            path: e.path,
            source: e.source,
        }
    }
}

/// Settings of a training run.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// Positions with at most this many empty squares are solved exactly.
    pub solve_empties: u32,
    pub epochs: usize,
    /// Share of games (taken from the end of the input) kept for testing.
    pub holdout: f64,
    pub threads: usize,
    pub seed: u64,
    /// AdaGrad's base step, in discs.
    pub rate: f32,
    /// Label the positions before the solved ones by a search instead of
    /// the game's solved score.
    pub label: Option<Labels>,
    /// Weights to start from and be held near; `None`: start from zeros.
    pub prior: Option<Prior>,
}

/// The solved samples file (`--cache`), sealed: the samples as
/// [`save_samples`] writes them.
const CACHE_MAGIC: &[u8; 8] = b"RVSMP01\0";

/// The bytes of the file at `path`, or `None` when there is none.
fn read_if_there(path: &str) -> Result<Option<Vec<u8>>, TrainError> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(Some(bytes)),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(None),
        Err(source) => Err(TrainError::File {
            path: path.into(),
            source,
        }),
    }
}

/// The body of the sealed file of `kind` at `path`, whose bytes are
/// `bytes`.
fn read_sealed(
    path: &str,
    kind: &'static str,
    magic: &[u8; 8],
    bytes: &[u8],
) -> Result<Vec<u8>, TrainError> {
    sealed::unseal(kind, magic, bytes)
        .map(<[u8]>::to_vec)
        .map_err(|e| TrainError::Samples {
            path: path.into(),
            why: e.to_string(),
        })
}

/// What a training run makes.
#[derive(Clone, Copy, Debug)]
pub enum Output<'a> {
    /// The fitted pattern weights, at this path.
    Weights(&'a str),
    /// The labelled positions with their features, at this path, for a
    /// training library ([`export`]): nothing is fitted.
    Export(&'a str),
}

/// A training run: the positions of the games on `input` (at most
/// `limit`), solved from [`TrainConfig::solve_empties`] on (or read from
/// `cache`, which a first run writes), and the `extra` games' positions
/// (self-play, only ever trained on: the held-out games are the input's),
/// fitted, reported on `out` with the held-out error per phase, and
/// written to `weights_path`. Progress goes to stderr.
pub fn run(
    output: Output,
    cfg: &TrainConfig,
    limit: Option<usize>,
    cache: Option<&str>,
    extra: &[Vec<Sample>],
    input: impl Read,
    out: &mut dyn Write,
) -> Result<(), TrainError> {
    // Every file to write is started now: a folder that cannot take one
    // fails before the work.
    let (Output::Weights(path) | Output::Export(path)) = output;
    let file_out = Pending::start(path)?;
    if let Some(Labels {
        file: Some(path), ..
    }) = &cfg.label
        && read_if_there(path)?.is_none()
    {
        drop(Pending::start(path)?);
    }
    let cached = match cache {
        Some(path) => read_if_there(path)?.map(|bytes| (path, bytes)),
        None => None,
    };
    let cache_out = match (cache, &cached) {
        (Some(path), None) => Some(Pending::start(path)?),
        _ => None,
    };
    let mut per_game = match cached {
        Some((path, bytes)) => {
            let body = read_sealed(path, "solved samples", CACHE_MAGIC, &bytes)?;
            load_samples(&body).map_err(|why| TrainError::Samples {
                path: path.into(),
                why,
            })?
        }
        None => {
            let games = read_game_lines(input, limit)?;
            let bar = progress(
                games.len() as u64,
                "{bar:40} {pos}/{len} games solved at the end, {elapsed} (eta {eta})",
            );
            let per_game = collect(&games, cfg, &|| bar.inc(1));
            bar.finish_and_clear();
            if let Some(out) = cache_out {
                out.finish(&sealed::seal(CACHE_MAGIC, &save_samples(&per_game)))?;
            }
            per_game
        }
    };
    if let Some(l) = limit {
        per_game.truncate(l);
    }
    let outcomes = cfg.label.as_ref().map(|_| per_game.clone());
    if let Some(label) = &cfg.label {
        per_game = labelled(per_game, label, cfg)?;
    }
    let games = &per_game;
    let split = ((games.len() as f64) * (1.0 - cfg.holdout)).round() as usize;
    let flat = |g: &[Vec<Sample>]| g.iter().flatten().copied().collect::<Vec<_>>();
    let (mut training, test) = (flat(&games[..split]), flat(&games[split..]));
    training.extend(flat(extra));
    if training.is_empty() {
        return Err(TrainError::NoPositions {
            games: games.len(),
            positions: training.len() + test.len(),
            held_out: test.len(),
        });
    }
    eprintln!(
        "{} games, {} training positions, {} held out",
        games.len(),
        training.len(),
        test.len()
    );
    if let Output::Export(path) = output {
        drop(file_out);
        export::write(path, &training, &test)?;
        writeln!(
            out,
            "{} positions ({} held out) written to {path}",
            training.len() + test.len(),
            test.len()
        )?;
        return Ok(());
    }
    if let Some(prior) = &cfg.prior {
        writeln!(
            out,
            "the prior's weights on the held-out positions:\n{}",
            report(&prior.weights, &test)
        )?;
    }
    let weights = fit(&training, cfg, |epoch, mse| {
        eprintln!("epoch {epoch}: training rms error {:.2} discs", mse.sqrt())
    });
    writeln!(out, "{}", report(&weights, &test))?;
    if let Some(outcomes) = outcomes {
        let test = flat(&outcomes[split..]);
        writeln!(
            out,
            "against the games' solved scores:\n{}",
            report(&weights, &test)
        )?;
    }
    file_out.finish(&PatternEval::to_bytes(&quantize(&weights)))?;
    writeln!(out, "weights written to {path}")?;
    Ok(())
}
