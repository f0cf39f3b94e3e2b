//! The `reversi` binary: subcommands for the lab programs and the tools;
//! with no subcommand, the engine daemon.

use clap::{Parser, Subcommand, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use reversi::lab::{self, LabError, Wording};
use reversi::players;
use reversi::referee::arena::{self, MatchConfig, Openings, split_move_list};
use reversi::referee::contestant::{Contestant, TimeControl};
use reversi::referee::latency::{self, LatencyConfig};
use reversi::rules::{Board, MailboxBoard, Position, Square, WideBoard, is_supported_size, perft};
use reversi::rules::{Color, Game, Move, comp, parse_move, printable};
use reversi::search::MAX_TIME;
use reversi::tools::{bench, file_move, probcut, solve, train};
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
#[command(disable_help_subcommand = true)]
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
        #[arg(long, default_value_t = 1000, value_parser = millis(1))]
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
        #[arg(long, default_value_t = 100, value_parser = millis(1))]
        movetime_ms: u64,
        /// Number of genmove calls.
        #[arg(long, default_value_t = 1000, value_parser = count())]
        moves: u64,
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
        /// Hash table size in MB, 1 to 4096 (one table, cleared for each
        /// position).
        #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=players::MAX_HASH_MB as u64))]
        hash: u64,
        /// Number of the first position (default: from the file name).
        #[arg(long)]
        first: Option<usize>,
    },
    /// One move on a board file (the small C program's file mode): reads
    /// `<name>-<NN>`, writes `<name>-<NN+1>`.
    FileMove {
        /// The board file, named `<name>-<NN>`.
        file: String,
        /// The colour to move: black or white.
        color: String,
        /// Seconds for the computer's move, or a human move XY (column then
        /// row digit, 1-8; write whole seconds such as 12 as 12.0).
        action: String,
        /// The C program's extra argument after a human move (any text).
        human: Option<String>,
    },
    /// Prints the COMP24011 state (`[....|....]`) after a sequence of moves.
    State {
        /// Board side n.
        #[arg(long, default_value_t = 8)]
        size: usize,
        /// Start from this state instead of the start position.
        #[arg(long)]
        from: Option<String>,
        /// Moves to play, as `f5d6c3` or `f5 d6 c3` (passes as `pass`).
        moves: Vec<String>,
    },
    /// Plays a match (two players) or a round-robin tournament (more) and
    /// prints the results. Players are built-in names (strong, greedy,
    /// first, random:<seed>, norvig:<depth>, weights:<seconds>, smarter,
    /// smartest) or `cmd:<command line>` for an engine speaking the protocol.
    Match {
        /// Two or more players.
        #[arg(required = true, num_args = 2..)]
        players: Vec<String>,
        /// Games per pairing (colours alternate; each opening is played twice).
        #[arg(long, default_value_t = 10, value_parser = count())]
        games: u64,
        /// Board side n.
        #[arg(long, default_value_t = 8)]
        size: usize,
        /// Time per move, in milliseconds.
        #[arg(long, default_value_t = 100, value_parser = millis(1))]
        time_ms: u64,
        /// A clock for the whole game instead: each side gets this many
        /// milliseconds for all its moves, and loses when it runs out.
        #[arg(long, value_parser = millis(1))]
        game_time_ms: Option<u64>,
        /// Lateness allowed before a move is forfeited, in milliseconds.
        #[arg(long, default_value_t = 50, value_parser = millis(0))]
        margin_ms: u64,
        /// none, random:<plies> or file:<path> (move lists, one a line).
        #[arg(long, default_value = "random:4")]
        openings: String,
        /// Stop each game this many plies after the opening and score it by
        /// discs (the COMP24011 automarker plays 20).
        #[arg(long)]
        max_plies: Option<usize>,
        /// Seed of the random openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Write every game to this file as GGF, one a line.
        #[arg(long)]
        records: Option<String>,
        /// Write every game to this file as a move list, one a line.
        #[arg(long)]
        move_lists: Option<String>,
    },
    /// Fits the pattern evaluation on game records read from stdin (lines
    /// `YEAR MOVES RESULT`, e.g. `xz -dc games.txt.xz | reversi train`).
    Train {
        /// Where to write the weights (the engine's own are data/eval.bin).
        #[arg(long)]
        out: String,
        /// Every position with at most this many empty squares is solved
        /// exactly (earlier ones take the first solved score); 0 to 30.
        #[arg(long, default_value_t = 18, value_parser = clap::value_parser!(u32).range(0..=30))]
        solve_empties: u32,
        /// Passes of gradient descent over the positions (1 to 1000).
        #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u64).range(1..=1000))]
        epochs: u64,
        /// Share of the games held out for testing (0 to less than 1).
        #[arg(long, default_value_t = 0.05, value_parser = share)]
        holdout: f64,
        /// Solver threads (1 to 256).
        #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u64).range(1..=256))]
        threads: u64,
        /// Use only the first N games.
        #[arg(long)]
        limit: Option<usize>,
        /// AdaGrad's base step size, in discs (more than 0, at most 100).
        #[arg(long, default_value_t = 1.0, value_parser = positive)]
        rate: f32,
        /// Weight with which each position also trains the two neighbouring
        /// phases (0: only its own; at most 100).
        #[arg(long, default_value_t = 0.0, value_parser = non_negative)]
        smooth: f32,
        /// Reuse the solved positions saved in this file (written there on
        /// the first run); stdin is then not read.
        #[arg(long)]
        cache: Option<String>,
    },
    /// Measures how well a shallow search predicts a deep one with the 8x8
    /// pattern evaluation (ProbCut's margins), on positions from game
    /// records read from stdin (`xz -dc games.txt.xz | reversi probcut`).
    Probcut {
        /// Deepest search measured (2 to 30).
        #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(i32).range(2..=30))]
        max_depth: i32,
        /// Use only the first N games.
        #[arg(long, default_value_t = 200, value_parser = count())]
        games: u64,
        /// Positions taken from each game.
        #[arg(long, default_value_t = 2, value_parser = count())]
        per_game: u64,
        /// Measure shallow searches against exact endgame scores instead
        /// (positions with 12 to 23 empties; `--max-depth` is ignored).
        #[arg(long)]
        endgame: bool,
    },
    /// Searches a fixed set of positions to fixed depths (table cleared):
    /// the total node count changes only when the search does.
    Bench,
    /// Prints the help of `reversi` or of one of its subcommands.
    Help {
        /// The subcommand.
        command: Option<String>,
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

/// The most games, moves or positions a count option takes.
const MAX_COUNT: u64 = 100_000_000;

/// A count option: 1 to [`MAX_COUNT`].
fn count() -> clap::builder::RangedU64ValueParser {
    clap::value_parser!(u64).range(1..=MAX_COUNT)
}

/// A time option in milliseconds: `least` to the longest time any limit
/// may be ([`MAX_TIME`]).
fn millis(least: u64) -> clap::builder::RangedU64ValueParser {
    clap::value_parser!(u64).range(least..=MAX_TIME.as_millis() as u64)
}

/// A share: at least 0, below 1.
fn share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..1.0).contains(&x) => Ok(x),
        _ => Err(format!(
            "'{}' is not a share from 0 to below 1",
            printable(s)
        )),
    }
}

/// A step size: more than 0, at most 100.
fn positive(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(x) if x > 0.0 && x <= 100.0 => Ok(x),
        _ => Err(format!(
            "'{}' is not a number above 0 and at most 100",
            printable(s)
        )),
    }
}

/// A weight: 0 to 100.
fn non_negative(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(x) if (0.0..=100.0).contains(&x) => Ok(x),
        _ => Err(format!("'{}' is not a number from 0 to 100", printable(s))),
    }
}

/// Board implementations perft can run on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum PerftBoard {
    /// The board the engine plays the size on: the u64 board on 8x8, the
    /// wide board on the fewest words of its widths otherwise.
    Fast,
    /// The wide bit-set board on 11 words (enough for 26x26), on every size.
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
        Some(Command::Help { command }) => print_help(command.as_deref()),
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
            moves: moves as usize,
            opening_plies,
            seed,
        }),
        Some(Command::Solve { file, hash, first }) => run_solve(&file, hash as usize, first),
        Some(Command::Probcut {
            max_depth,
            games,
            per_game,
            endgame,
        }) => run_probcut(max_depth, games as usize, per_game as usize, endgame),
        Some(Command::Bench) => {
            let results = bench::run(|r| println!("{}", bench::row(r)));
            println!("{}", bench::total(&results));
            Ok(())
        }
        Some(Command::Train {
            out,
            solve_empties,
            epochs,
            holdout,
            threads,
            limit,
            rate,
            smooth,
            cache,
        }) => run_train(
            &out,
            train::TrainConfig {
                solve_empties,
                epochs: epochs as usize,
                holdout,
                threads: threads as usize,
                seed: 1,
                rate,
                smooth,
            },
            limit,
            cache.as_deref(),
        ),
        Some(Command::Match {
            players,
            games,
            size,
            time_ms,
            game_time_ms,
            margin_ms,
            openings,
            max_plies,
            seed,
            records,
            move_lists,
        }) => Openings::parse(&openings, size).and_then(|openings| {
            run_match(
                &players,
                MatchConfig {
                    size,
                    games: games as usize,
                    time: match game_time_ms {
                        Some(ms) => TimeControl::PerGame(Duration::from_millis(ms)),
                        None => TimeControl::PerMove(Duration::from_millis(time_ms)),
                    },
                    margin: Duration::from_millis(margin_ms),
                    openings,
                    max_plies,
                    seed,
                },
                records.as_deref(),
                move_lists.as_deref(),
            )
        }),
        Some(Command::FileMove {
            file,
            color,
            action,
            human,
        }) => run_file_move(&file, &color, &action, human.is_some()),
        Some(Command::State { size, from, moves }) => run_state(size, from.as_deref(), &moves),
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

/// The help text of `reversi` or of its subcommand `name`.
fn print_help(name: Option<&str>) -> Result<(), String> {
    let mut cli = <Cli as clap::CommandFactory>::command();
    cli.build();
    let help = match name {
        None => cli.render_long_help(),
        Some(name) => cli
            .find_subcommand_mut(name)
            .ok_or_else(|| format!("no subcommand '{}' (see reversi --help)", printable(name)))?
            .render_long_help(),
    };
    print!("{help}");
    Ok(())
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
    let start = Instant::now();
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let problems = solve::read_problems(&text)?;
    if problems.is_empty() {
        return Err(format!("{path}: no positions"));
    }
    let first = first.unwrap_or_else(|| solve::first_number(path));
    let mut solver = solve::ObfSolver::new(hash)?;
    let mut out = io::stdout().lock();
    let mut emit = |line: String| writeln!(out, "{line}").and_then(|_| out.flush());
    emit(solve::header()).map_err(|e| e.to_string())?;
    let mut solutions = Vec::new();
    for (i, problem) in problems.iter().enumerate() {
        let s = solver.solve(problem, first + i)?;
        emit(solve::row(&s)).map_err(|e| e.to_string())?;
        solutions.push(s);
    }
    emit(solve::totals(&solutions, start.elapsed())).map_err(|e| e.to_string())
}

fn run_match(
    names: &[String],
    config: MatchConfig,
    records: Option<&str>,
    move_lists: Option<&str>,
) -> Result<(), String> {
    if !is_supported_size(config.size) {
        return Err(format!(
            "unsupported board size {} (even sizes 4 to 26)",
            config.size
        ));
    }
    let mut players = names
        .iter()
        .map(|n| Contestant::new(n))
        .collect::<Result<Vec<_>, _>>()?;
    if let Some(p) = players.iter().find(|p| !p.supports(config.size)) {
        return Err(format!(
            "{} does not play {n}x{n} boards",
            p.name(),
            n = config.size
        ));
    }
    let open = |path: Option<&str>| -> Result<Option<std::fs::File>, String> {
        path.map(|p| std::fs::File::create(p).map_err(|e| format!("{p}: {e}")))
            .transpose()
    };
    let (mut ggf, mut lists) = (open(records)?, open(move_lists)?);
    let pairs = players.len() * (players.len() - 1) / 2;
    let bar = ProgressBar::new((pairs * config.games) as u64).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games, {elapsed} (eta {eta}) {msg}")
            .expect("valid template"),
    );
    let mut write_error = None;
    let mut on_game = |o: &arena::Outcome| {
        bar.inc(1);
        if let Some((c, f)) = &o.forfeit {
            let who = match c {
                Color::Black => &o.record.black,
                Color::White => &o.record.white,
            };
            bar.set_message(format!("last forfeit: {c} {}", f.kind()));
            // On stderr even when the bar is hidden (not a terminal).
            let game = bar.position();
            bar.suspend(|| eprintln!("game {game}: {who} ({c}) forfeits: {f}"));
        }
        let mut put = |file: &mut Option<std::fs::File>, line: String| {
            if let Some(f) = file
                && let Err(e) = writeln!(f, "{line}")
            {
                write_error = Some(e.to_string());
            }
        };
        put(&mut ggf, o.record.ggf());
        put(&mut lists, o.record.move_list());
    };
    let text = if players.len() == 2 {
        let (a, b) = players.split_at_mut(1);
        let tallies = arena::play_pairing(&mut a[0], &mut b[0], &config, &mut on_game);
        arena::match_table([a[0].name(), b[0].name()], &tallies)
    } else {
        let (pairings, board) = arena::round_robin(&mut players, &config, &mut on_game);
        format!(
            "{}\nleaderboard (Lab 8 Part 3 points: win 2, loss 0, tie 0-1 by share of time used)\n{board}",
            pairings.join("\n")
        )
    };
    bar.finish_and_clear();
    for p in &mut players {
        p.finish();
    }
    println!(
        "{n}x{n}, {} games per pairing, {} (+{} ms margin), openings {}, seed {}\n{text}",
        config.games,
        config.time.label(),
        config.margin.as_millis(),
        config.openings_label(),
        config.seed,
        n = config.size
    );
    write_error.map_or(Ok(()), Err)
}

/// The game records on stdin (at most `limit`), or an error if none.
fn stdin_games(limit: Option<usize>) -> Result<Vec<Vec<Move>>, String> {
    let mut text = String::new();
    io::Read::read_to_string(&mut io::stdin(), &mut text).map_err(|e| e.to_string())?;
    let mut games = train::read_games(&text);
    if let Some(l) = limit {
        games.truncate(l);
    }
    if games.is_empty() {
        return Err("no games on stdin".into());
    }
    Ok(games)
}

fn run_probcut(max_depth: i32, limit: usize, per_game: usize, endgame: bool) -> Result<(), String> {
    let games = stdin_games(Some(limit))?;
    let bar = ProgressBar::new(games.len() as u64).with_style(
        ProgressStyle::with_template("{bar:40} {pos}/{len} games measured, {elapsed} (eta {eta})")
            .expect("valid template"),
    );
    if endgame {
        let pairs = probcut::measure_endgame(&games, per_game, 1, &|| bar.inc(1));
        bar.finish_and_clear();
        print!("{}", probcut::endgame_summary(&pairs));
        return Ok(());
    }
    let pairs = probcut::measure(&games, max_depth, per_game, 1, &|| bar.inc(1));
    bar.finish_and_clear();
    print!("{}", probcut::summary(&pairs, max_depth));
    Ok(())
}

fn run_train(
    out: &str,
    cfg: train::TrainConfig,
    limit: Option<usize>,
    cache: Option<&str>,
) -> Result<(), String> {
    let cached = cache.and_then(|c| std::fs::read(c).ok());
    let mut per_game = match cached {
        Some(bytes) => train::load_samples(&bytes)?,
        None => {
            let games = stdin_games(limit)?;
            let bar = ProgressBar::new(games.len() as u64).with_style(
                ProgressStyle::with_template(
                    "{bar:40} {pos}/{len} games solved at the end, {elapsed} (eta {eta})",
                )
                .expect("valid template"),
            );
            let per_game = train::collect(&games, &cfg, &|| bar.inc(1));
            bar.finish_and_clear();
            if let Some(c) = cache {
                std::fs::write(c, train::save_samples(&per_game))
                    .map_err(|e| format!("{c}: {e}"))?;
            }
            per_game
        }
    };
    if let Some(l) = limit {
        per_game.truncate(l);
    }
    let games = &per_game;
    let split = ((games.len() as f64) * (1.0 - cfg.holdout)).round() as usize;
    let flat = |g: &[Vec<train::Sample>]| g.iter().flatten().copied().collect::<Vec<_>>();
    let (training, test) = (flat(&games[..split]), flat(&games[split..]));
    if training.is_empty() {
        return Err(format!(
            "no positions to train on ({} games gave {} positions, {} held out)",
            games.len(),
            training.len() + test.len(),
            test.len()
        ));
    }
    eprintln!(
        "{} games, {} training positions, {} held out",
        games.len(),
        training.len(),
        test.len()
    );
    let weights = train::fit(&training, &cfg, |epoch, mse| {
        eprintln!("epoch {epoch}: training rms error {:.2} discs", mse.sqrt())
    });
    println!("{}", train::report(&weights, &test));
    let bytes = reversi::search::pattern::PatternEval::to_bytes(&train::quantize(&weights));
    std::fs::write(out, bytes).map_err(|e| format!("{out}: {e}"))?;
    println!("weights written to {out}");
    Ok(())
}

fn run_file_move(file: &str, color: &str, action: &str, human: bool) -> Result<(), String> {
    let color = Color::parse(color)
        .ok_or_else(|| file_move::FileMoveError::BadColor(color.into()).to_string())?;
    let action = file_move::parse_action(action, human).map_err(|e| e.to_string())?;
    let (next, mv) = file_move::file_move(std::path::Path::new(file), color, action)
        .map_err(|e| e.to_string())?;
    println!(
        "{} plays {} -> {}",
        color,
        file_move_square(mv),
        next.display()
    );
    Ok(())
}

/// A move as the C program writes squares: column digit, row digit.
fn file_move_square(mv: Move) -> String {
    match mv {
        Move::Place(sq) => format!("{}{}", sq.col + 1, sq.row + 1),
        Move::Pass => "pass".into(),
    }
}

fn run_state(size: usize, from: Option<&str>, moves: &[String]) -> Result<(), String> {
    let start = match from {
        Some(state) => {
            let (n, cells, to_move) = comp::parse_state(state)
                .ok_or_else(|| format!("bad state '{}'", printable(state)))?;
            Position::from_cells(n, &cells, to_move).map_err(|e| e.to_string())?
        }
        None => Position::start(size).map_err(|e| e.to_string())?,
    };
    let mut game = Game::from_position(start);
    for mv in split_move_list(&moves.join(" ")) {
        let n = game.position().size();
        let parsed = parse_move(&mv, n).map_err(|e| e.to_string())?;
        game.play_next(parsed).map_err(|e| format!("{mv}: {e}"))?;
    }
    println!("{}", game.position().comp_state());
    Ok(())
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
        (PerftBoard::Fast, any) => reversi::with_board!(any, b => count_with(b, depth, divide)),
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
