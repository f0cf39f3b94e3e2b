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

use super::sealed::{self, Pending};
use super::{GamesError, progress, read_games as read_game_lines};
use crate::rules::{AnyBoard, Bitboard, Color, Game, Move, parse_move, split_move_list};
use crate::search::pattern::{BUILTIN_WEIGHTS, PatternEval};
use crate::search::pattern::{FEATURES, Layout, PHASES, SCALE, phase, phase_mix};
use crate::search::{DISC, Limits, Search, Solver, TranspositionTable, proven_discs};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;
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

/// Earlier weights that a fit starts from and pulls each weight back to,
/// so that new data refines them instead of replacing what the data they
/// were fitted on taught. The least-squares fit is convex: started from
/// the old weights but free, it ends at the new data's own optimum,
/// whatever the start. The pull stands for the old data weight by
/// weight (a diagonal approximation of its curvature): each time a
/// position touches a weight with share `p` of its value, the weight
/// also takes `strength * p * p * (w - prior)` of gradient, as if the old
/// data held `strength` times as many positions like the new ones, all
/// fitted at the prior, weight by weight. A position's value sums dozens
/// of weights, and the pull holds each alone, so it resists a change of
/// that whole sum far less than so many copies would (the unit test
/// `a_prior_holds_the_fit_near_it_as_strongly_as_asked`). So a data set
/// too long to make again in one session is added to by one fresh set.
/// One such refit was measured and not kept (docs/research/evaluation.md).
#[derive(Clone, Debug)]
pub struct Prior {
    /// The weights in discs, laid out as [`fit`] returns them.
    pub weights: Vec<f32>,
    /// How many times the training positions the prior counts for.
    pub strength: f32,
}

impl Prior {
    /// The prior of the weight file at `path`.
    pub fn read(path: &str, strength: f32) -> Result<Prior, TrainError> {
        let bytes = std::fs::read(path).map_err(|source| TrainError::File {
            path: path.to_string(),
            source,
        })?;
        Prior::from_bytes(&bytes, strength).map_err(|reason| TrainError::Weights {
            path: path.to_string(),
            reason,
        })
    }

    /// The prior of a weight file as [`PatternEval::to_bytes`] writes it.
    pub fn from_bytes(bytes: &[u8], strength: f32) -> Result<Prior, String> {
        let stored = PatternEval::stored_weights(bytes)?;
        Ok(Prior {
            weights: stored
                .iter()
                .map(|&w| f32::from(w) / SCALE as f32)
                .collect(),
            strength,
        })
    }
}

/// How positions before the solved ones are labelled, and where the
/// labelled samples are kept.
#[derive(Clone, Debug)]
pub struct Labels {
    /// Plies of the search.
    pub depth: u32,
    /// The file of labelled samples: read when it exists, else written.
    pub file: Option<String>,
    /// The weight file the search evaluates with; `None`: the compiled-in
    /// weights. Labels from the weights a new evaluation replaces stay
    /// reproducible once it is compiled in.
    pub weights: Option<String>,
}

/// The labelled samples file, sealed ([`sealed::seal`]): label depth,
/// solved empties and the CRC-32 of the labelling weights' file (u32
/// little-endian: it tells a file labelled with other weights apart), then
/// the samples as [`save_samples`] writes them.
const LABELS_MAGIC: &[u8; 8] = b"RVLAB03\0";

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

/// Starts writing the file at `path` (its folder is checked now).
fn pending(path: &str) -> Result<Pending, TrainError> {
    Pending::new(path).map_err(|source| TrainError::File {
        path: path.into(),
        source,
    })
}

/// Writes a pending file.
fn commit(file: Pending, bytes: &[u8]) -> Result<(), TrainError> {
    let path = file.path().to_string_lossy().into_owned();
    file.commit(bytes)
        .map_err(|source| TrainError::File { path, source })
}

/// `games` with the positions before the solved ones labelled as `label`
/// says, from its file when that was made with the same settings.
fn labelled(
    mut games: Vec<Vec<Sample>>,
    label: &Labels,
    cfg: &TrainConfig,
) -> Result<Vec<Vec<Sample>>, TrainError> {
    // The weights are parsed only to label: a labels file made with them
    // is read as it is, so that an evaluation of another layout (more
    // shapes, other phases) can train on the present one's labels.
    let read = match &label.weights {
        Some(path) => Some(std::fs::read(path).map_err(|source| TrainError::File {
            path: path.clone(),
            source,
        })?),
        None => None,
    };
    let weights = read.as_deref().unwrap_or(BUILTIN_WEIGHTS);
    let mut header = label.depth.to_le_bytes().to_vec();
    header.extend_from_slice(&cfg.solve_empties.to_le_bytes());
    header.extend_from_slice(&crc32fast::hash(weights).to_le_bytes());
    let mut out = None;
    if let Some(path) = &label.file {
        match read_if_there(path)? {
            None => out = Some(pending(path)?),
            Some(bytes) => return read_labels(path, &bytes, &header, label, cfg, games.len()),
        }
    }
    let parsed;
    let eval = match &label.weights {
        Some(path) => {
            parsed = PatternEval::from_bytes(weights).map_err(|reason| TrainError::Weights {
                path: path.clone(),
                reason,
            })?;
            &parsed
        }
        None => PatternEval::builtin(),
    };
    let bar = progress(
        games.len() as u64,
        "{bar:40} {pos}/{len} games labelled, {elapsed} (eta {eta})",
    );
    relabel(
        &mut games,
        label.depth,
        cfg.solve_empties,
        cfg.threads,
        eval,
        &|| bar.inc(1),
    );
    bar.finish_and_clear();
    if let Some(out) = out {
        header.extend(save_samples(&games));
        commit(out, &sealed::seal(LABELS_MAGIC, &header))?;
    }
    Ok(games)
}

/// The labelled samples of the labels file `bytes` at `path`, if it was
/// made with the settings `header` says, for `games` games.
fn read_labels(
    path: &str,
    bytes: &[u8],
    header: &[u8],
    label: &Labels,
    cfg: &TrainConfig,
    games: usize,
) -> Result<Vec<Vec<Sample>>, TrainError> {
    let mismatch = || TrainError::LabelsMismatch {
        path: path.into(),
        depth: label.depth,
        solve_empties: cfg.solve_empties,
    };
    let body = read_sealed(path, "labelled samples", LABELS_MAGIC, bytes)?;
    let samples = body.strip_prefix(header).ok_or_else(mismatch)?;
    let read = load_samples(samples).map_err(|why| TrainError::Samples {
        path: path.into(),
        why,
    })?;
    if read.len() != games {
        return Err(mismatch());
    }
    Ok(read)
}

/// One training position: the side to move's discs, the other side's, and
/// the exact final score for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub player: u64,
    pub opponent: u64,
    pub target: i8,
}

/// Reads one game line (`YEAR MOVES RESULT`, or just moves) into the moves.
fn parse_game(line: &str) -> Option<Vec<Move>> {
    let line = line.split('#').next()?.trim();
    let words: Vec<&str> = line.split_whitespace().collect();
    let moves = words
        .iter()
        .find(|w| w.len() >= 4 && w.as_bytes()[0].is_ascii_alphabetic())?;
    split_move_list(moves)
        .iter()
        .map(|m| parse_move(m, 8).ok())
        .collect()
}

/// The positions of one game with their targets. Every position with at
/// most `solve_empties` empty squares is solved exactly; each earlier one
/// takes the exact score of the first solved position of the line played.
fn game_samples(moves: &[Move], solve_empties: u32, solver: &mut Solver) -> Option<Vec<Sample>> {
    let mut game = Game::new(8).expect("8x8");
    // Each position the side to move has a move in, with its mover.
    let mut seen: Vec<(Bitboard, Color)> = Vec::new();
    let mut record = |game: &Game| {
        let pos = game.position();
        if let AnyBoard::Eight(b) = pos.board()
            && !pos.is_game_over()
            && pos.has_moves(pos.to_move())
        {
            seen.push((b, pos.to_move()));
        }
    };
    record(&game);
    for &mv in moves {
        if game.position().is_game_over() {
            break;
        }
        game.play_next(mv).ok()?;
        record(&game);
    }
    let first_solved = seen
        .iter()
        .position(|(b, _)| crate::rules::Board::empties(b).count_ones() <= solve_empties)
        .unwrap_or(seen.len());
    let (before, solved) = seen.split_at(first_solved);
    let scores: Vec<i32> = solved
        .iter()
        .map(|(b, _)| solver.solve(b, -65, 65))
        .collect();
    // The earlier positions' target: the first solved score, or the final
    // one when the game ended before `solve_empties`.
    let (score, scored_mover) = match solved.first() {
        Some((_, mover)) => (scores[0], *mover),
        None => {
            let pos = game.position();
            let AnyBoard::Eight(last) = pos.board() else {
                return None;
            };
            if !pos.is_game_over() {
                // The record stops early (a resignation or a loss on
                // time): there is no exact score to learn from.
                return None;
            }
            (crate::rules::Board::final_score(&last), pos.to_move())
        }
    };
    let earlier = before.iter().map(|(b, mover)| {
        let target = if *mover == scored_mover {
            score
        } else {
            -score
        };
        sample(b, target)
    });
    let exact = solved
        .iter()
        .zip(scores)
        .map(|((b, _), target)| sample(b, target));
    Some(earlier.chain(exact).collect())
}

/// A training position with its target (discs, side to move).
fn sample(b: &Bitboard, target: i32) -> Sample {
    Sample {
        player: b.player,
        opponent: b.opponent,
        target: target as i8,
    }
}

impl Sample {
    /// Empty squares of the position.
    pub fn empties(&self) -> u32 {
        (!(self.player | self.opponent)).count_ones()
    }
}

/// Solves every game (on `threads` threads); returns the samples of each
/// game in input order. `tick` is called once per game.
pub fn collect(
    games: &[Vec<Move>],
    cfg: &TrainConfig,
    tick: &(dyn Fn() + Sync),
) -> Vec<Vec<Sample>> {
    let chunk = games.len().div_ceil(cfg.threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = games
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let tt = TranspositionTable::new(32);
                    let limits = Limits::unlimited();
                    part.iter()
                        .map(|moves| {
                            let mut solver = Solver::new(&tt, &limits);
                            let s = game_samples(moves, cfg.solve_empties, &mut solver)
                                .unwrap_or_default();
                            tick();
                            s
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("solver threads do not panic"))
            .collect()
    })
}

/// Replaces the target of every position with more than `solve_empties`
/// empty squares by the score of a `depth`-ply search with `eval` (on
/// `threads` threads, each taking the next game; the table is cleared for
/// every game, so a game's labels do not depend on which thread labels
/// it). `tick` is called once per game.
///
/// A position's solved score is the game's result under perfect play
/// from about 18 empties on, but what was played before that (human
/// errors of many discs) is in it too: a search's score says what the
/// position itself is worth. The search is fixed-depth iterative
/// deepening with no jump to the solver, so that its cost is bounded,
/// and with no ProbCut, whose margins belong to the compiled-in weights.
/// A search's labels made a better evaluation than the solved scores, and
/// 4 plies did as well as 6 (docs/research/evaluation.md).
pub fn relabel(
    games: &mut [Vec<Sample>],
    depth: u32,
    solve_empties: u32,
    threads: usize,
    eval: &PatternEval,
    tick: &(dyn Fn() + Sync),
) {
    let queue = std::sync::Mutex::new(games.iter_mut());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut tt = TranspositionTable::new(16);
                let limits = Limits::unlimited();
                loop {
                    let next = queue.lock().expect("no labelling thread panics").next();
                    let Some(game) = next else { break };
                    tt.clear();
                    for s in game.iter_mut().filter(|s| s.empties() > solve_empties) {
                        let board = Bitboard {
                            player: s.player,
                            opponent: s.opponent,
                        };
                        let mut search = Search::new(8, &tt, eval, &limits);
                        search.set_probcut(None);
                        let mut score = 0;
                        for d in 1..=depth as i32 {
                            score = search.value_at(&board, d).expect("no limit");
                        }
                        let discs = proven_discs(score)
                            .unwrap_or_else(|| (score as f64 / DISC as f64).round() as i32);
                        s.target = discs.clamp(-64, 64) as i8;
                    }
                    tick();
                }
            });
        }
    });
}

/// Writes solved games (so that fitting can be repeated without solving
/// again): per game a u32 count, then per position player, opponent (u64
/// little-endian) and target (i8).
pub fn save_samples(games: &[Vec<Sample>]) -> Vec<u8> {
    let mut out = Vec::new();
    for g in games {
        out.extend_from_slice(&(g.len() as u32).to_le_bytes());
        for s in g {
            out.extend_from_slice(&s.player.to_le_bytes());
            out.extend_from_slice(&s.opponent.to_le_bytes());
            out.push(s.target as u8);
        }
    }
    out
}

/// Bytes of one sample in [`save_samples`]' format.
const SAMPLE_BYTES: usize = 8 + 8 + 1;

/// Reads what [`save_samples`] wrote; a count past the end, or a sample
/// that cannot be (discs on both sides of a square, a score past 64), is
/// an error that says where.
pub fn load_samples(bytes: &[u8]) -> Result<Vec<Vec<Sample>>, String> {
    let mut games = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let at = i;
        let count = bytes
            .get(i..i + 4)
            .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize)
            .filter(|&c| c <= (bytes.len() - i - 4) / SAMPLE_BYTES)
            .ok_or_else(|| format!("game {} at byte {at} runs past the end", games.len()))?;
        i += 4;
        let g: Vec<Sample> = bytes[i..i + count * SAMPLE_BYTES]
            .chunks_exact(SAMPLE_BYTES)
            .map(|b| Sample {
                player: u64::from_le_bytes(b[..8].try_into().expect("8 bytes")),
                opponent: u64::from_le_bytes(b[8..16].try_into().expect("8 bytes")),
                target: b[16] as i8,
            })
            .collect();
        if g.iter()
            .any(|s| s.player & s.opponent != 0 || s.target.unsigned_abs() > 64)
        {
            return Err(format!(
                "game {} at byte {at} holds a position that cannot be",
                games.len()
            ));
        }
        i += count * SAMPLE_BYTES;
        games.push(g);
    }
    Ok(games)
}

/// Reads the game lines of a file.
pub fn read_games(text: &str) -> Vec<Vec<Move>> {
    text.lines()
        .filter_map(parse_game)
        .filter(|g| !g.is_empty())
        .collect()
}

/// A training run: the positions of the games on `input` (at most
/// `limit`), solved from [`TrainConfig::solve_empties`] on (or read from
/// `cache`, which a first run writes), and the `extra` games' positions
/// (self-play, only ever trained on: the held-out games are the input's),
/// fitted, reported on `out` with the held-out error per phase, and
/// written to `weights_path`. Progress goes to stderr.
pub fn run(
    weights_path: &str,
    cfg: &TrainConfig,
    limit: Option<usize>,
    cache: Option<&str>,
    extra: &[Vec<Sample>],
    input: impl Read,
    out: &mut dyn Write,
) -> Result<(), TrainError> {
    // Every file to write is started now: a folder that cannot take one
    // fails before the work.
    let weights_out = pending(weights_path)?;
    if let Some(Labels {
        file: Some(path), ..
    }) = &cfg.label
        && read_if_there(path)?.is_none()
    {
        drop(pending(path)?);
    }
    let cached = match cache {
        Some(path) => read_if_there(path)?.map(|bytes| (path, bytes)),
        None => None,
    };
    let cache_out = match (cache, &cached) {
        (Some(path), None) => Some(pending(path)?),
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
                commit(out, &sealed::seal(CACHE_MAGIC, &save_samples(&per_game)))?;
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
    commit(weights_out, &PatternEval::to_bytes(&quantize(&weights)))?;
    writeln!(out, "weights written to {weights_path}")?;
    Ok(())
}

/// Mean absolute and root mean square error (discs) per phase.
fn errors(weights: &[f32], samples: &[Sample]) -> Vec<(usize, f64, f64)> {
    let layout = Layout::get();
    let mut acc = vec![(0usize, 0.0f64, 0.0f64); PHASES];
    let mut features = [0u32; FEATURES];
    for s in samples {
        let ph = phase(s.empties());
        layout.features(s.player, s.opponent, &mut features);
        let err = predict(weights, layout, s.empties(), &features) - s.target as f32;
        let a = &mut acc[ph];
        a.0 += 1;
        a.1 += err.abs() as f64;
        a.2 += (err * err) as f64;
    }
    acc.into_iter()
        .map(|(n, abs, sq)| {
            let n1 = n.max(1) as f64;
            (n, abs / n1, (sq / n1).sqrt())
        })
        .collect()
}

/// The value (discs) of a position with `empties` empty squares and region
/// indices `features`: the mix of two phases that [`phase_mix`] gives.
#[inline]
fn predict(weights: &[f32], layout: &Layout, empties: u32, features: &[u32]) -> f32 {
    mixed_value(weights, layout, phase_mix(empties), features)
}

/// [`predict`] for a position whose [`phase_mix`] is known.
#[inline]
fn mixed_value(
    weights: &[f32],
    layout: &Layout,
    (first, share): (usize, f32),
    features: &[u32],
) -> f32 {
    let value = |ph: usize| {
        let table = &weights[ph * layout.per_phase..(ph + 1) * layout.per_phase];
        features
            .iter()
            .fold(table[layout.per_phase - 1], |sum, &f| {
                sum + table[f as usize]
            })
    };
    (1.0 - share) * value(first) + share * value(first + 1)
}

/// Fits weights (in discs) by stochastic gradient descent with a step
/// size of its own for every weight (AdaGrad: weights of rare
/// configurations move faster than those seen in every game);
/// `epoch_done` sees each epoch's number and its mean squared training
/// error. Each position's error is shared between its two phases as
/// [`phase_mix`] mixes them. The recipe's settings (the initial
/// accumulator, the epochs) are not what limits the fit.
pub fn fit(
    train: &[Sample],
    cfg: &TrainConfig,
    mut epoch_done: impl FnMut(usize, f64),
) -> Vec<f32> {
    let layout = Layout::get();
    let mut weights = match &cfg.prior {
        Some(prior) => prior.weights.clone(),
        None => vec![0f32; PHASES * layout.per_phase],
    };
    let mut squares = vec![1f32; PHASES * layout.per_phase];
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let mut features = [0u32; FEATURES];
    for epoch in 0..cfg.epochs {
        order.shuffle(&mut rng);
        let mut loss = 0.0f64;
        for &i in &order {
            let s = &train[i as usize];
            layout.features(s.player, s.opponent, &mut features);
            let mix = phase_mix(s.empties());
            let err = mixed_value(&weights, layout, mix, &features) - s.target as f32;
            loss += (err * err) as f64;
            let (first, share) = mix;
            for (ph, part) in [(first, 1.0 - share), (first + 1, share)] {
                if part == 0.0 {
                    continue;
                }
                let base = ph * layout.per_phase;
                let grad = part * err.clamp(-64.0, 64.0);
                for f in features
                    .iter()
                    .map(|&f| base + f as usize)
                    .chain([base + layout.per_phase - 1])
                {
                    let grad = match &cfg.prior {
                        Some(p) => grad + p.strength * part * part * (weights[f] - p.weights[f]),
                        None => grad,
                    };
                    squares[f] += grad * grad;
                    weights[f] -= cfg.rate * grad / squares[f].sqrt();
                }
            }
        }
        epoch_done(epoch + 1, loss / train.len().max(1) as f64);
    }
    weights
}

/// The weights in the stored form (1/SCALE discs, i16).
pub fn quantize(weights: &[f32]) -> Vec<i16> {
    weights
        .iter()
        .map(|w| {
            (w * SCALE as f32)
                .round()
                .clamp(i16::MIN as f32, i16::MAX as f32) as i16
        })
        .collect()
}

/// A per-phase error table for held-out samples.
pub fn report(weights: &[f32], test: &[Sample]) -> String {
    let mut out = String::from("phase  empties    positions  mean |error|  rms error (discs)\n");
    for (ph, (n, mae, rms)) in errors(weights, test).into_iter().enumerate() {
        let hi = 59 - 4 * ph as u32;
        let lo = if ph + 1 == PHASES { 0 } else { hi - 3 };
        let _ = writeln!(
            out,
            "{ph:>5}  {lo:>2}-{hi:<2}   {n:>12}  {mae:>12.2}  {rms:>17.2}"
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_lines_are_read_with_or_without_year_and_result() {
        let g = parse_game("1977 f5d6c3 34-30").unwrap();
        assert_eq!(g.len(), 3);
        assert_eq!(parse_game("f5d6").unwrap().len(), 2);
        assert!(parse_game("# comment").is_none());
    }

    /// A position with 20 empties (discs on the first 44 squares,
    /// alternating by pairs) valued at `target`.
    fn twenty_empties(target: i8) -> Sample {
        let discs = (1u64 << 44) - 1;
        let player = discs & 0x3333_3333_3333_3333;
        Sample {
            player,
            opponent: discs & !player,
            target,
        }
    }

    /// A fit of `epochs` passes on one thread over every position (none
    /// held out), with no labelling search and no prior.
    fn one_thread_fit(epochs: usize) -> TrainConfig {
        TrainConfig {
            solve_empties: 18,
            epochs,
            holdout: 0.0,
            threads: 1,
            seed: 1,
            rate: 1.0,
            label: None,
            prior: None,
        }
    }

    #[test]
    fn a_position_trains_the_two_phases_it_lies_between_in_proportion() {
        // 3/8 of the way from the middle of the 20-23 phase to that of the
        // 16-19 one.
        let sample = twenty_empties(10);
        let near = phase(23);
        assert_eq!(phase_mix(sample.empties()), (near, 0.375));
        let layout = Layout::get();
        let constant = |w: &[f32], ph: usize| w[(ph + 1) * layout.per_phase - 1];
        let cfg = one_thread_fit(20);
        let weights = fit(&[sample; 8], &cfg, |_, _| {});
        let (a, b) = (constant(&weights, near), constant(&weights, near + 1));
        assert!(a > b && b > 0.0, "{a} {b}");
        for ph in (0..PHASES).filter(|&ph| ph != near && ph != near + 1) {
            assert_eq!(constant(&weights, ph), 0.0, "phase {ph}");
        }
        let mut features = [0u32; FEATURES];
        layout.features(sample.player, sample.opponent, &mut features);
        let value = predict(&weights, layout, sample.empties(), &features);
        assert!((value - 10.0).abs() < 0.5, "{value}");
        // Between the first two middles, and past the first or last.
        assert_eq!(phase_mix(57).1, 0.125);
        assert_eq!(phase_mix(59), (0, 0.0));
        assert_eq!(phase_mix(0), (PHASES - 2, 1.0));
    }

    #[test]
    fn a_prior_holds_the_fit_near_it_as_strongly_as_asked() {
        // Weights fitted to value a position at +10, then a prior of them
        // refitted on the same position valued -10: free, the fit moves
        // all the way; pulled, it stops between, nearer the prior the
        // stronger the pull; weights the new position does not touch keep
        // the prior's values exactly.
        let at = twenty_empties;
        let layout = Layout::get();
        let mut features = [0u32; FEATURES];
        layout.features(at(0).player, at(0).opponent, &mut features);
        let value = |w: &[f32]| predict(w, layout, at(0).empties(), &features);
        let cfg = one_thread_fit(40);
        let first = fit(&[at(10); 8], &cfg, |_, _| {});
        assert!((value(&first) - 10.0).abs() < 0.5);
        // Through the weight file, as `reversi train --prior` reads it.
        let file = PatternEval::to_bytes(&quantize(&first));
        let refit = |strength| {
            let mut cfg = cfg.clone();
            cfg.prior = Some(Prior::from_bytes(&file, strength).unwrap());
            fit(&[at(-10); 8], &cfg, |_, _| {})
        };
        let (free, weak, strong) = (refit(0.0), refit(50.0), refit(1000.0));
        assert!((value(&free) + 10.0).abs() < 0.5, "{}", value(&free));
        let (weak, strong) = (value(&weak), value(&strong));
        assert!(
            -9.0 < weak && weak < strong && strong < 10.0,
            "{weak} {strong}"
        );
        assert!(strong > 8.0, "{strong}");
        let prior = Prior::from_bytes(&file, 1.0).unwrap();
        let touched = |i: usize| {
            let (ph, f) = (i / layout.per_phase, i % layout.per_phase);
            let (near, _) = phase_mix(at(0).empties());
            (ph == near || ph == near + 1)
                && (f == layout.per_phase - 1 || features.contains(&(f as u32)))
        };
        for (i, (&w, &p)) in free.iter().zip(&prior.weights).enumerate() {
            assert!(touched(i) || w == p, "weight {i}: {w} against {p}");
        }
        assert!(Prior::from_bytes(&file[..file.len() - 2], 1.0).is_err());
        assert!(Prior::from_bytes(b"RVPAT02\0", 1.0).is_err());
    }

    #[test]
    fn samples_survive_the_cache_file() {
        let games = vec![
            vec![Sample {
                player: 1,
                opponent: 2,
                target: -7,
            }],
            vec![],
            vec![
                Sample {
                    player: u64::MAX,
                    opponent: 0,
                    target: 64
                };
                3
            ],
        ];
        let back = load_samples(&save_samples(&games)).unwrap();
        assert_eq!(back, games);
        assert!(load_samples(&[1, 0, 0, 0, 5]).is_err());
        // A count past the end is refused before anything is allocated.
        assert!(load_samples(&[0xff; 4]).is_err());
        let mut both = save_samples(&games);
        both[4] = 3;
        assert!(load_samples(&both).is_err(), "a square of both sides");
    }

    #[test]
    fn targets_follow_the_side_to_move() {
        // A full game from the WTHOR file: solve at 14 empties.
        let line = "1977 f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7f1b3b1b2h7a7a8a1g1g2h2h1 34-30";
        let moves = parse_game(line).unwrap();
        let tt = TranspositionTable::new(4);
        let limits = Limits::unlimited();
        let mut solver = Solver::new(&tt, &limits);
        let samples = game_samples(&moves, 14, &mut solver).unwrap();
        // One position for each of 60 to 1 empties, but for the two
        // passes (at 7 and 4 empties).
        assert_eq!(samples.len(), 58);
        // Consecutive positions alternate sides, and the positions before
        // 14 empties take the score solved there.
        assert_eq!(samples[0].target, -samples[1].target);
        assert_eq!(samples[45].target, -samples[46].target);
        assert_eq!(samples[46].target, 10);
        // Later positions have scores of their own: the move at 14 empties
        // was a mistake.
        assert_eq!(samples[47].target, -8);
        // The last move is forced: white's final 30-34.
        assert_eq!(samples[57].target, -4);
        assert!(samples.iter().all(|s| s.target.abs() <= 64));
    }

    #[test]
    fn positions_before_the_solved_ones_take_a_search_score_kept_in_a_file() {
        let line = "1977 f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7f1b3b1b2h7a7a8a1g1g2h2h1 34-30";
        let tt = TranspositionTable::new(4);
        let limits = Limits::unlimited();
        let mut solver = Solver::new(&tt, &limits);
        let solved = game_samples(&parse_game(line).unwrap(), 14, &mut solver).unwrap();
        let path = std::env::temp_dir().join(format!("labels-{}.bin", std::process::id()));
        let file = path.to_str().unwrap().to_string();
        let _ = std::fs::remove_file(&file);
        let cfg = TrainConfig {
            solve_empties: 14,
            epochs: 1,
            holdout: 0.0,
            threads: 2,
            seed: 1,
            rate: 1.0,
            label: None,
            prior: None,
        };
        let label = Labels {
            depth: 3,
            file: Some(file.clone()),
            weights: None,
        };
        let games = vec![solved.clone(); 3];
        let made = labelled(games.clone(), &label, &cfg).unwrap();
        // The reference: each position searched alone, 1 to 3 plies.
        let eval = PatternEval::builtin();
        for (got, was) in made[2].iter().zip(&solved) {
            if was.empties() <= 14 {
                assert_eq!(got.target, was.target);
                continue;
            }
            let board = Bitboard {
                player: was.player,
                opponent: was.opponent,
            };
            let tt = TranspositionTable::new(4);
            let mut search = Search::new(8, &tt, eval, &limits);
            search.set_probcut(None);
            let score = (1..=3).map(|d| search.value_at(&board, d).unwrap()).last();
            let discs = (score.unwrap() as f64 / DISC as f64).round() as i8;
            assert_eq!(got.target, discs, "{} empties", was.empties());
        }
        assert_ne!(made[0], solved, "the early positions are labelled anew");
        assert_eq!(
            made[0], made[2],
            "a game's labels are the same on any thread"
        );
        // Read back from the file, and refused for other settings.
        assert_eq!(labelled(games.clone(), &label, &cfg).unwrap(), made);
        let deeper = Labels {
            depth: 4,
            ..label.clone()
        };
        let refused = labelled(games.clone(), &deeper, &cfg).unwrap_err();
        assert!(refused.to_string().contains("remove it"), "{refused}");
        // Other weights: the file is refused too, and a file that holds
        // no weights is an error that names it.
        let weights = std::env::temp_dir().join(format!("weights-{}.bin", std::process::id()));
        let weights = weights.to_str().unwrap().to_string();
        let mut other = BUILTIN_WEIGHTS.to_vec();
        let last = other.len() - 1;
        other[last] ^= 1;
        std::fs::write(&weights, &other).unwrap();
        let reweighted = Labels {
            weights: Some(weights.clone()),
            ..label.clone()
        };
        let refused = labelled(games.clone(), &reweighted, &cfg).unwrap_err();
        assert!(
            refused.to_string().contains("with these weights"),
            "{refused}"
        );
        // Weights this build cannot read (another layout's) are not read
        // at all while their labels file stands, and are an error that
        // names them once labelling is due.
        std::fs::write(&weights, b"not weights").unwrap();
        let mut kept = sealed::unseal("labels", LABELS_MAGIC, &std::fs::read(&file).unwrap())
            .unwrap()
            .to_vec();
        // The weights' CRC follows the depth and the empties.
        kept[8..12].copy_from_slice(&crc32fast::hash(b"not weights").to_le_bytes());
        std::fs::write(&file, sealed::seal(LABELS_MAGIC, &kept)).unwrap();
        assert_eq!(labelled(games.clone(), &reweighted, &cfg).unwrap(), made);
        std::fs::remove_file(&file).unwrap();
        let refused = labelled(games, &reweighted, &cfg).unwrap_err();
        assert!(refused.to_string().starts_with(&weights), "{refused}");
        std::fs::remove_file(&weights).unwrap();
    }
}
