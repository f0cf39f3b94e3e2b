//! The `reversi` binary: subcommands for the lab programs and the tools;
//! with no subcommand, the engine daemon.

use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use reversi::lab::{self, LabError, Wording};
use reversi::players;
use reversi::referee::latency::{self, LatencyConfig};
use reversi::rules::{
    AnyBoard, Board, MailboxBoard, Position, Square, WideBoard, is_supported_size, perft,
};
use reversi::tools::solve;
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

#[derive(Parser)]
#[command(
    name = "reversi",
    version,
    about = "Reversi/Othello on every even board size from 4x4 to 26x26",
    long_about = "Reversi/Othello on every even board size from 4x4 to 26x26.\n\n\
        With no subcommand (or `gtp`), runs the engine daemon: GTP-style commands \
        on stdin, one reply each on stdout (see protocol.md). Logs go to stderr; \
        set RUST_LOG (error, warn, info, debug) to choose how much."
)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// The engine daemon (the default): GTP commands on stdin, replies on stdout.
    Gtp,
    /// The Lab 7 program: board set-up, available moves, one checked move.
    Lab7,
    /// The Lab 8 Part 1 game: you against a computer player.
    Lab8 {
        /// Prompt wording: the 2025 handout's or the course builds'.
        #[arg(long, value_enum, default_value_t = Wording::Handout)]
        wording: Wording,
        /// The computer's player.
        #[arg(long, default_value = "greedy")]
        player: String,
        /// Time limit for each computer move, in milliseconds.
        #[arg(long, default_value_t = 1000)]
        move_time_ms: u64,
    },
    /// Measures how late an engine answers `genmove` against its time limit.
    Latency {
        /// The engine's command line (default: this binary's daemon).
        #[arg(long)]
        engine: Option<String>,
        /// Board side n.
        #[arg(long, default_value_t = 8)]
        size: usize,
        /// Time limit per move, in milliseconds.
        #[arg(long, default_value_t = 100)]
        movetime_ms: u64,
        /// Number of genmove calls.
        #[arg(long, default_value_t = 1000)]
        moves: usize,
        /// Random plies at the start of each game.
        #[arg(long, default_value_t = 4)]
        opening_plies: usize,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Solves every position of an OBF file exactly (8x8).
    Solve {
        /// The OBF file (e.g. ../shared/data/ffo/fforum-40-59.obf).
        file: String,
        /// Hash table size in MB (a fresh table for each position).
        #[arg(long, default_value_t = 256)]
        hash: usize,
        /// Number of the first position (default: from the file name).
        #[arg(long)]
        first: Option<usize>,
    },
    /// Counts the leaves of the game tree from the start position.
    Perft {
        /// Board side n (even, 4 to 26).
        #[arg(long, default_value_t = 8)]
        size: usize,
        /// Depth in plies (a forced pass is a ply).
        #[arg(long)]
        depth: u32,
        /// Print the count below each first move.
        #[arg(long)]
        divide: bool,
        /// Board implementation to count with.
        #[arg(long, value_enum, default_value_t = PerftBoard::Fast)]
        board: PerftBoard,
        /// Also count with this implementation and print the speed ratio.
        #[arg(long, value_enum)]
        baseline: Option<PerftBoard>,
    },
}

/// Board implementations perft can run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum PerftBoard {
    /// The fastest for the size: the u64 board on 8x8, the wide board otherwise.
    Fast,
    /// The wide bit-set board, on every size.
    Wide,
    /// The plain one-cell-per-square reference board.
    Mailbox,
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let result = match cli.command {
        None | Some(Command::Gtp) => {
            reversi::protocol::run(io::BufReader::new(io::stdin()), io::stdout().lock())
                .map_err(|e| e.to_string())
        }
        Some(Command::Lab7) => run_lab(lab::run_lab7),
        Some(Command::Lab8 {
            wording,
            player,
            move_time_ms,
        }) => match players::build(&player) {
            Ok(mut computer) => run_lab(|input, out| {
                lab::run_lab8(
                    input,
                    out,
                    wording,
                    computer.as_mut(),
                    Duration::from_millis(move_time_ms),
                )
            }),
            Err(e) => Err(e.to_string()),
        },
        Some(Command::Latency {
            engine,
            size,
            movetime_ms,
            moves,
            opening_plies,
            seed,
        }) => run_latency(LatencyConfig {
            engine: engine.unwrap_or_else(this_binary),
            size,
            movetime: Duration::from_millis(movetime_ms),
            moves,
            opening_plies,
            seed,
        }),
        Some(Command::Solve { file, hash, first }) => run_solve(&file, hash, first),
        Some(Command::Perft {
            size,
            depth,
            divide,
            board,
            baseline,
        }) => run_perft(size, depth, divide, board, baseline),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("reversi: {msg}");
            ExitCode::from(2)
        }
    }
}

/// A shell-quoted command line that runs this binary's daemon.
fn this_binary() -> String {
    let path = std::env::current_exe().expect("the running binary has a path");
    format!("'{}'", path.display().to_string().replace('\'', "'\\''"))
}

fn run_latency(cfg: LatencyConfig) -> Result<(), String> {
    if !is_supported_size(cfg.size) {
        return Err(format!(
            "unsupported board size {} (even sizes 4 to 26)",
            cfg.size
        ));
    }
    let bar = ProgressBar::new(cfg.moves as u64).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} genmoves, {elapsed} (eta {eta})")
            .expect("valid template"),
    );
    let report = latency::measure(&cfg, || bar.inc(1)).map_err(|e| e.to_string())?;
    bar.finish_and_clear();
    println!("{report}");
    Ok(())
}

fn run_solve(path: &str, hash: usize, first: Option<usize>) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let problems = solve::read_problems(&text)?;
    let first = first.unwrap_or_else(|| solve::first_number(path));
    let mut out = io::stdout().lock();
    let mut emit = |line: String| writeln!(out, "{line}").and_then(|_| out.flush());
    emit(solve::header()).map_err(|e| e.to_string())?;
    let mut solutions = Vec::new();
    for (i, problem) in problems.iter().enumerate() {
        let s = solve::solve_one(problem, first + i, hash)?;
        emit(solve::row(&s)).map_err(|e| e.to_string())?;
        solutions.push(s);
    }
    emit(solve::totals(&solutions)).map_err(|e| e.to_string())
}

/// Runs a lab program on stdin/stdout; a closed stdout ends it quietly.
fn run_lab(
    f: impl FnOnce(io::StdinLock<'static>, &mut io::StdoutLock<'static>) -> Result<(), LabError>,
) -> Result<(), String> {
    let mut out = io::stdout().lock();
    match f(io::stdin().lock(), &mut out) {
        Err(LabError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => Ok(()),
        other => other.map_err(|e| e.to_string()),
    }
}

/// One perft run: the count, or per-move counts, and the time taken.
struct PerftRun {
    divided: Vec<(Option<usize>, u64)>,
    total: u64,
    seconds: f64,
}

fn count_with<B: Board>(board: B, depth: u32, divide: bool) -> PerftRun {
    let start = Instant::now();
    let (divided, total) = if divide {
        let d = perft::divide(&board, depth);
        let t = d.iter().map(|(_, c)| c).sum();
        (d, t)
    } else {
        (Vec::new(), perft::perft(&board, depth))
    };
    PerftRun {
        divided,
        total,
        seconds: start.elapsed().as_secs_f64(),
    }
}

fn perft_on(kind: PerftBoard, n: usize, depth: u32, divide: bool) -> PerftRun {
    let start = Position::start(n).expect("size checked");
    match (kind, start.board()) {
        (PerftBoard::Fast, AnyBoard::Eight(b)) => count_with(b, depth, divide),
        (PerftBoard::Fast, AnyBoard::Wide(b)) => count_with(b, depth, divide),
        (PerftBoard::Wide, _) => count_with(start.board_as::<WideBoard>(), depth, divide),
        (PerftBoard::Mailbox, _) => count_with(start.board_as::<MailboxBoard>(), depth, divide),
    }
}

fn run_perft(
    n: usize,
    depth: u32,
    divide: bool,
    board: PerftBoard,
    baseline: Option<PerftBoard>,
) -> Result<(), String> {
    if !is_supported_size(n) {
        return Err(format!("unsupported board size {n} (even sizes 4 to 26)"));
    }
    let run = perft_on(board, n, depth, divide);
    let mut out = io::stdout().lock();
    let mut text = String::new();
    for (sq, count) in &run.divided {
        let name = sq.map_or("pass".to_string(), |i| Square::from_index(i, n).standard());
        text.push_str(&format!("{name} {count}\n"));
    }
    let rate = |r: &PerftRun| r.total as f64 / r.seconds.max(1e-9) / 1e6;
    text.push_str(&format!(
        "perft size {n} depth {depth}: {} leaves in {:.3} s, {:.1} M leaves/s ({:?} board)\n",
        run.total,
        run.seconds,
        rate(&run),
        board
    ));
    if let Some(base) = baseline {
        let b = perft_on(base, n, depth, false);
        if b.total != run.total {
            return Err(format!(
                "baseline {base:?} counted {} leaves, {board:?} {}",
                b.total, run.total
            ));
        }
        text.push_str(&format!(
            "baseline: {:.3} s, {:.1} M leaves/s ({base:?} board); speed ratio {:.2}\n",
            b.seconds,
            rate(&b),
            b.seconds / run.seconds.max(1e-9)
        ));
    }
    out.write_all(text.as_bytes()).map_err(|e| e.to_string())
}
