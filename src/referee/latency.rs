//! How late does an engine answer `genmove`? Drives an engine process
//! through self-play games (both colours asked in turn, from random
//! openings) and records, for every `genmove`, the time from writing the
//! command to reading the whole reply, against the per-move limit.

use super::client::{ClientError, GtpClient};
use crate::openings::random_opening;
use crate::progress::progress;
use crate::protocol::Command;
use crate::rules::{is_supported_size, parse_move, printable};
use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;
use std::fmt;
use std::time::Duration;

/// What to measure.
#[derive(Clone, Debug)]
pub struct LatencyConfig {
    /// The engine's command line.
    pub engine: String,
    pub size: usize,
    /// Per-move limit given to the engine.
    pub movetime: Duration,
    /// Number of `genmove` calls.
    pub moves: usize,
    /// Random plies played (with `play`) at the start of each game.
    pub opening_plies: usize,
    pub seed: u64,
}

/// The measured reply times.
#[derive(Clone, Debug)]
pub struct LatencyReport {
    pub size: usize,
    pub limit: Duration,
    /// Reply times, sorted.
    pub samples: Vec<Duration>,
    pub games: usize,
}

/// Why a measurement could not go on.
#[derive(Debug, thiserror::Error)]
pub enum LatencyError {
    #[error(transparent)]
    Client(#[from] ClientError),
    #[error("engine '{}' died{}", printable(.command), if .last_words.is_empty() { String::new() } else { format!(": {}", .last_words) })]
    Died { command: String, last_words: String },
    #[error("engine played an illegal move: {0}")]
    IllegalMove(String),
    #[error("unsupported board size {0} (even sizes 4 to 26)")]
    Size(usize),
    #[error("i/o error: {0}")]
    Io(#[from] std::io::Error),
}

/// The `latency` subcommand: measures, with a progress bar on stderr, and
/// writes the report to `out`.
pub fn run(cfg: &LatencyConfig, out: &mut dyn std::io::Write) -> Result<(), LatencyError> {
    if !is_supported_size(cfg.size) {
        return Err(LatencyError::Size(cfg.size));
    }
    let bar = progress(
        cfg.moves as u64,
        "{bar:40} {pos}/{len} genmoves, {elapsed} (eta {eta})",
    );
    let report = measure(cfg, || bar.inc(1))?;
    bar.finish_and_clear();
    writeln!(out, "{report}")?;
    Ok(())
}

/// Runs the measurement; `tick` is called after every `genmove`. An
/// engine that dies is an error with its last lines on stderr (the
/// shell's, when the command cannot be run).
pub fn measure(cfg: &LatencyConfig, tick: impl FnMut()) -> Result<LatencyReport, LatencyError> {
    let mut engine = GtpClient::spawn(&cfg.engine)?;
    match drive(cfg, &mut engine, tick) {
        Err(LatencyError::Client(ClientError::Died)) => Err(LatencyError::Died {
            command: cfg.engine.clone(),
            last_words: engine.last_stderr(Duration::from_millis(500)),
        }),
        result => {
            engine.quit();
            result
        }
    }
}

/// The measurement on a started engine.
fn drive(
    cfg: &LatencyConfig,
    engine: &mut GtpClient,
    mut tick: impl FnMut(),
) -> Result<LatencyReport, LatencyError> {
    let setup_timeout = Duration::from_secs(10);
    let move_timeout = cfg.movetime * 4 + Duration::from_secs(5);
    engine.send(&Command::BoardSize(cfg.size as u64), setup_timeout)?;
    engine.set_move_time(cfg.movetime, setup_timeout)?;
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let mut samples = Vec::with_capacity(cfg.moves);
    let mut games = 0;
    while samples.len() < cfg.moves {
        games += 1;
        engine.send(&Command::ClearBoard, setup_timeout)?;
        let mut game = random_opening(cfg.size, cfg.opening_plies, &mut rng);
        // An opening that ends the game would leave nothing to ask: it is
        // cut back to its last position with a move to play.
        while game.position().is_game_over() {
            game.undo().expect("the start position is not over");
        }
        for (color, mv) in game.moves() {
            engine.send(&Command::Play(color, mv), setup_timeout)?;
        }
        while samples.len() < cfg.moves && !game.position().is_game_over() {
            let color = game.position().to_move();
            let (reply, took) = engine.timed(&Command::Genmove(color), move_timeout);
            let text = reply?;
            let mv = parse_move(text.trim(), cfg.size)
                .map_err(|_| LatencyError::IllegalMove(text.clone()))?;
            game.play(color, mv)
                .map_err(|e| LatencyError::IllegalMove(format!("{text}: {e}")))?;
            samples.push(took);
            tick();
        }
    }
    samples.sort();
    Ok(LatencyReport {
        size: cfg.size,
        limit: cfg.movetime,
        samples,
        games,
    })
}

impl LatencyReport {
    fn percentile(&self, p: f64) -> Duration {
        let i = ((self.samples.len() as f64 - 1.0) * p).round() as usize;
        self.samples[i.min(self.samples.len() - 1)]
    }

    /// Replies later than the limit.
    pub fn late(&self) -> usize {
        self.samples.iter().filter(|&&s| s > self.limit).count()
    }
}

impl fmt::Display for LatencyReport {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let ms = |d: Duration| d.as_secs_f64() * 1000.0;
        let n = self.samples.len();
        writeln!(
            f,
            "{n} genmove replies on {0}x{0} ({1} games), limit {2:.0} ms",
            self.size,
            self.games,
            ms(self.limit)
        )?;
        if n == 0 {
            return Ok(());
        }
        let mean = self.samples.iter().sum::<Duration>() / n as u32;
        writeln!(
            f,
            "latency ms: min {:.1}  median {:.1}  mean {:.1}  p90 {:.1}  p99 {:.1}  max {:.1}",
            ms(self.samples[0]),
            ms(self.percentile(0.5)),
            ms(mean),
            ms(self.percentile(0.9)),
            ms(self.percentile(0.99)),
            ms(self.samples[n - 1])
        )?;
        writeln!(f, "share of the limit   replies")?;
        let bounds = [0.5, 0.9, 0.95, 0.98, 1.0, 1.05, 1.2, f64::INFINITY];
        let mut lower = 0.0;
        for upper in bounds {
            let count = self
                .samples
                .iter()
                .filter(|s| {
                    let r = s.as_secs_f64() / self.limit.as_secs_f64();
                    r > lower && r <= upper || (lower == 0.0 && r == 0.0)
                })
                .count();
            let label = if upper.is_infinite() {
                format!("> {:.0}%", lower * 100.0)
            } else {
                format!("{:.0}% - {:.0}%", lower * 100.0, upper * 100.0)
            };
            writeln!(f, "{label:>16}   {count}")?;
            lower = upper;
        }
        write!(f, "late (past the limit): {}", self.late())
    }
}
