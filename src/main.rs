//! The `reversi` binary: subcommands for the lab programs and the tools;
//! with no subcommand, the engine daemon.

use clap::{Parser, Subcommand};
use reversi::engine::{self, DEFAULT_HASH_MB, Engine};
use reversi::lab::{self, Wording};
use reversi::players;
use reversi::protocol::{Notation, Startup};
use reversi::referee::arena::{MatchConfig, Openings};
use reversi::referee::contestant::TimeControl;
use reversi::referee::latency::{self, LatencyConfig};
use reversi::referee::run::{MatchFiles, merge_results, run_match};
use reversi::rules::printable;
use reversi::search::MAX_TIME;
use reversi::shard::Shard;
use reversi::tools::perft::PerftBoard;
use reversi::tools::{bench, file_move, perft, probcut, selfplay, solve, state, train};
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Duration;

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

/// What a GUI that only starts a command line can choose.
#[derive(clap::Args, Clone, Debug)]
struct DaemonArgs {
    /// The player: strong, greedy, first, random[:<seed>], norvig:<depth>,
    /// weights:<seconds>, smarter, smartest (GTP: `set player`).
    #[arg(long, default_value = engine::DEFAULT_PLAYER)]
    player: String,
    /// Time per move in milliseconds, until a clock is set (GTP:
    /// `time_settings`; NBoard: the game's clock). Default 1000.
    #[arg(long, value_parser = millis(1))]
    movetime: Option<u64>,
    /// Search depth limit in plies, 1 to 1000 (NBoard: until `set depth`).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000))]
    depth: Option<u32>,
    /// Hash table size in MB, 1 to 4096.
    #[arg(long, default_value_t = DEFAULT_HASH_MB as u64, value_parser = clap::value_parser!(u64).range(1..=players::MAX_HASH_MB as u64))]
    hash: u64,
    /// Search threads, 1 to 256 (GTP: `set threads`). Default 1: two
    /// engines in a match each get a core, and fixed-depth moves are
    /// reproducible.
    #[arg(long, default_value_t = 1, value_parser = threads())]
    threads: u64,
}

impl DaemonArgs {
    fn options(&self) -> engine::Options {
        engine::Options {
            player: self.player.clone(),
            resources: engine::Resources {
                hash_mb: self.hash as usize,
                threads: self.threads as usize,
            },
            move_time: self.movetime.map(Duration::from_millis),
            depth: self.depth,
        }
    }
}

/// `--notation` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
enum NotationArg {
    Standard,
    Upper,
    Lab,
    Gogui,
}

impl From<NotationArg> for Notation {
    fn from(n: NotationArg) -> Notation {
        match n {
            NotationArg::Standard => Notation::Standard,
            NotationArg::Upper => Notation::Upper,
            NotationArg::Lab => Notation::Lab,
            NotationArg::Gogui => Notation::GoGui,
        }
    }
}

/// An even board side from 4 to 26.
fn board_size(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if reversi::rules::is_supported_size(n) => Ok(n),
        _ => Err(format!(
            "'{}' is not an even size from 4 to 26",
            printable(s)
        )),
    }
}

#[derive(Subcommand)]
enum Command {
    /// The engine daemon (the default): GTP commands on stdin, replies on
    /// stdout. For a GTP GUI such as Quarry, register `reversi gtp` with
    /// any options below as the engine's command.
    Gtp {
        #[command(flatten)]
        daemon: DaemonArgs,
        /// Board side n at start (even, 4 to 26), for GUIs that never send
        /// `boardsize` (GoGui's rules engine).
        #[arg(long, default_value_t = 8, value_parser = board_size)]
        size: usize,
        /// How moves are written and read: standard (d3), upper (D3), lab
        /// (cd) or gogui (GoGui's coordinates: D6 for d3 on 8x8, rows from
        /// the bottom, no column I).
        #[arg(long, value_enum, default_value_t = NotationArg::Standard)]
        notation: NotationArg,
    },
    /// The engine for the NBoard GUI (and NTest-style referees): the NBoard
    /// protocol version 2 on stdin/stdout. In NBoard: Engine > Select
    /// Opponent > Add engine, command `reversi nboard` (its first word is
    /// looked up in the working directory: choose the folder that holds
    /// `reversi`).
    Nboard(#[command(flatten)] DaemonArgs),
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
        /// Search threads, 1 to 256 (default: every core of the machine).
        #[arg(long, value_parser = threads())]
        threads: Option<u64>,
        /// Number of the first position, 0 to 100000000 (default: from
        /// the file name).
        #[arg(long, value_parser = clap::value_parser!(u64).range(0..=MAX_COUNT))]
        first: Option<u64>,
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
    /// smartest), `cmd:<command line>` for an engine speaking the protocol
    /// (GTP) or `nboard:<command line>` for one speaking NBoard (NTest, Edax
    /// -nboard).
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
        /// Play only this part of the games: K/N plays game numbers K-1
        /// modulo N of each pairing (K from 1); `match-merge` puts the
        /// parts' `--results` together.
        #[arg(long, default_value = "1/1")]
        shard: String,
        /// Write every game's result to this file, for `match-merge`; the
        /// same command run again goes on where the file ends.
        #[arg(long)]
        results: Option<String>,
        /// The midgame depth (1 to 60) given to `nboard:` engines with
        /// `set depth`, as the NBoard GUI's level; 60 leaves them to their
        /// clock.
        #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..=60))]
        nboard_depth: u32,
        /// Search threads of each built-in player, 1 to 256 (external
        /// engines choose their own).
        #[arg(long, default_value_t = 1, value_parser = threads())]
        threads: u64,
    },
    /// Puts the `--results` files of a match's shards together and prints
    /// the whole match's tables.
    MatchMerge {
        /// The shards' results files, in any order.
        #[arg(required = true)]
        results: Vec<String>,
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
        /// Share of the games held out for testing (0 to 1; at 1 only the
        /// self-play positions train).
        #[arg(long, default_value_t = 0.05, value_parser = share)]
        holdout: f64,
        /// Solver threads (1 to 256).
        #[arg(long, default_value_t = 2, value_parser = threads())]
        threads: u64,
        /// Use only the first N games.
        #[arg(long)]
        limit: Option<usize>,
        /// AdaGrad's base step size, in discs (more than 0, at most 100).
        #[arg(long, default_value_t = 1.0, value_parser = positive)]
        rate: f32,
        /// Reuse the solved positions saved in this file (written there on
        /// the first run); stdin is then not read.
        #[arg(long)]
        cache: Option<String>,
        /// Also train on the labelled positions of this self-play file
        /// (`reversi selfplay`; repeat the option for more); the held-out
        /// games stay the input's.
        #[arg(long)]
        selfplay: Vec<String>,
        /// What the self-play positions are trained towards: their own
        /// search labels, or their game's outcome (the first exact label,
        /// as WTHOR positions take their game's solved score).
        #[arg(long, value_enum, default_value_t = selfplay::Target::Search)]
        selfplay_target: selfplay::Target,
        /// Label each position before the solved ones by a search this
        /// deep (1 to 16 plies) instead of its game's solved score.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=16))]
        label_depth: Option<u32>,
        /// Keep the labelled positions in this file (read when it
        /// exists: labelling all of WTHOR at depth 8 takes 25 minutes on
        /// 2 cores).
        #[arg(long, requires = "label_depth")]
        labels: Option<String>,
        /// The weight file the labelling search evaluates with (default:
        /// the compiled-in weights); `scripts/train-eval.sh` labels with
        /// the weights the new ones replace.
        #[arg(long, requires = "label_depth")]
        label_weights: Option<String>,
        /// Start from this weight file and hold every weight near it (see
        /// --prior-strength): new data refines the weights instead of
        /// replacing what they were fitted on.
        #[arg(long)]
        prior: Option<String>,
        /// How many times the training positions the prior counts for,
        /// weight by weight (0 to 1000; 0 only starts from it).
        #[arg(long, default_value_t = 1.0, requires = "prior", value_parser = strength)]
        prior_strength: f32,
    },
    /// Plays the engine against itself from varied openings and writes
    /// every position with the label of a deeper search (exact near the
    /// end), for training; resumable, deterministic for a seed, and split
    /// into shards that any batch scheduler can run (see README).
    Selfplay {
        /// The output file (appended to: a stopped run goes on).
        #[arg(long)]
        out: String,
        /// Games in all shards together.
        #[arg(long, default_value_t = 1000, value_parser = count())]
        games: u64,
        /// Seed of the openings.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// This run's part: K/N plays the games whose number is K-1 modulo
        /// N (K from 1).
        #[arg(long, default_value = "1/1")]
        shard: String,
        /// random:<plies>, or wthor:<file>:<plies>[-<most>][+<random>]
        /// (the first plies of the games of a WTHOR move-list file, in
        /// turn: as many as drawn between the two numbers for each game,
        /// then that many random plies).
        #[arg(long, default_value = "random:8")]
        openings: String,
        /// Depth of the search that plays each move (1 to 30).
        #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
        move_depth: u32,
        /// Depth of the search that labels each position (1 to 30).
        #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=30))]
        label_depth: u32,
        /// Positions with at most this many empties get the exact score
        /// (0 to 24).
        #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=24))]
        exact_empties: u32,
        /// Threads (1 to 256).
        #[arg(long, default_value_t = 2, value_parser = threads())]
        threads: u64,
    },
    /// Merges self-play shard files into one, every game once, in game
    /// order (the same file whichever order the shards are given in).
    SelfplayMerge {
        /// The merged file.
        #[arg(long)]
        out: String,
        /// The shard files.
        #[arg(required = true)]
        inputs: Vec<String>,
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
    Bench {
        /// Search threads (1 to 256); with 1, the node total is the
        /// reference a change of the search is checked against.
        #[arg(long, default_value_t = 1, value_parser = threads())]
        threads: u64,
        /// Depth of the 8x8 middle-game positions (1 to 24); the pinned
        /// node total is at the default; 18 times a search change better.
        #[arg(long, default_value_t = bench::MIDGAME_DEPTH as u64,
              value_parser = clap::value_parser!(u64).range(1..=24))]
        midgame_depth: u64,
    },
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

/// A threads option: 1 to [`players::MAX_THREADS`].
fn threads() -> clap::builder::RangedU64ValueParser {
    clap::value_parser!(u64).range(1..=players::MAX_THREADS as u64)
}

/// The cores this process may use (1 when the system cannot say).
fn all_cores() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(players::MAX_THREADS)
}

/// A time option in milliseconds: `least` to the longest time any limit
/// may be ([`MAX_TIME`]).
fn millis(least: u64) -> clap::builder::RangedU64ValueParser {
    clap::value_parser!(u64).range(least..=MAX_TIME.as_millis() as u64)
}

/// A share: 0 to 1.
fn share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("'{}' is not a share from 0 to 1", printable(s))),
    }
}

/// A prior's strength: 0 to 1000.
fn strength(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(x) if (0.0..=1000.0).contains(&x) => Ok(x),
        _ => Err(format!("'{}' is not a number from 0 to 1000", printable(s))),
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

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let daemon = DaemonArgs {
        player: engine::DEFAULT_PLAYER.into(),
        movetime: None,
        depth: None,
        hash: DEFAULT_HASH_MB as u64,
        threads: 1,
    };
    let gtp = Command::Gtp {
        daemon,
        size: 8,
        notation: NotationArg::Standard,
    };
    match run(cli.command.unwrap_or(gtp)) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed output (`reversi ... | head`) ends the run quietly.
        Err(e) if closed_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("reversi: {}", describe(&e));
            ExitCode::from(2)
        }
    }
}

/// An error and its causes, each said once: the library's errors put
/// their cause in their own message, so a cause already said is skipped.
fn describe(e: &anyhow::Error) -> String {
    let mut text = String::new();
    for cause in e.chain().map(|c| c.to_string()) {
        if !text.contains(&cause) {
            if !text.is_empty() {
                text.push_str(": ");
            }
            text.push_str(&cause);
        }
    }
    text
}

/// Whether an error comes from writing to a closed pipe.
fn closed_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}

/// Runs one subcommand: parsed arguments to the library's types, output
/// to stdout.
fn run(command: Command) -> anyhow::Result<()> {
    let stdout = io::stdout();
    let out = &mut stdout.lock();
    match command {
        Command::Gtp {
            daemon,
            size,
            notation,
        } => {
            let startup = Startup {
                size,
                notation: notation.into(),
            };
            let input = io::BufReader::new(io::stdin());
            reversi::protocol::run(input, &mut *out, &daemon.options(), startup)?
        }
        Command::Nboard(args) => reversi::protocol::nboard::run(
            io::BufReader::new(io::stdin()),
            &mut *out,
            &args.options(),
        )?,
        Command::Help { command } => {
            let help = help_text(command.as_deref())?;
            write!(out, "{help}")?;
        }
        Command::Lab7 => lab::run_lab7(io::stdin().lock(), out)?,
        Command::Lab8 {
            wording,
            player,
            move_time_ms,
        } => {
            let mut computer = Engine::new(&player, engine::Resources::default())?;
            let move_time = Duration::from_millis(move_time_ms);
            lab::run_lab8(io::stdin().lock(), out, wording, &mut computer, move_time)?;
        }
        Command::Latency {
            engine,
            size,
            movetime_ms,
            moves,
            opening_plies,
            seed,
        } => {
            let cfg = LatencyConfig {
                engine: engine.unwrap_or_else(this_binary),
                size,
                movetime: Duration::from_millis(movetime_ms),
                moves: moves as usize,
                opening_plies,
                seed,
            };
            latency::run(&cfg, out)?;
        }
        Command::Solve {
            file,
            hash,
            threads,
            first,
        } => {
            let threads = threads.map_or_else(all_cores, |t| t as usize);
            solve::run(
                &file,
                hash as usize,
                threads,
                first.map(|f| f as usize),
                out,
            )?
        }
        Command::Probcut {
            max_depth,
            games,
            per_game,
            endgame,
        } => probcut::run(
            max_depth,
            games as usize,
            per_game as usize,
            endgame,
            io::stdin().lock(),
            out,
        )?,
        Command::Bench {
            threads,
            midgame_depth,
        } => {
            let mut written = Ok(());
            let results = bench::run(threads as usize, midgame_depth as u32, |r| {
                if written.is_ok() {
                    written = writeln!(out, "{}", bench::row(r));
                }
            });
            written?;
            writeln!(out, "{}", bench::total(&results))?;
        }
        Command::Train {
            out: weights,
            solve_empties,
            epochs,
            holdout,
            threads,
            limit,
            rate,
            cache,
            selfplay,
            selfplay_target,
            label_depth,
            labels,
            label_weights,
            prior,
            prior_strength,
        } => {
            let prior = prior
                .map(|path| train::Prior::read(&path, prior_strength))
                .transpose()?;
            let cfg = train::TrainConfig {
                solve_empties,
                epochs: epochs as usize,
                holdout,
                threads: threads as usize,
                seed: 1,
                rate,
                label: label_depth.map(|depth| train::Labels {
                    depth,
                    file: labels,
                    weights: label_weights,
                }),
                prior,
            };
            let mut extra = Vec::new();
            for path in &selfplay {
                extra.extend(selfplay::samples(&selfplay::read(path)?, selfplay_target));
            }
            let input = io::stdin().lock();
            train::run(&weights, &cfg, limit, cache.as_deref(), &extra, input, out)?;
        }
        Command::Selfplay {
            out: path,
            games,
            seed,
            shard,
            openings,
            move_depth,
            label_depth,
            exact_empties,
            threads,
        } => {
            let cfg = selfplay::SelfplayConfig {
                games,
                seed,
                shard: Shard::parse(&shard)?,
                opening: selfplay_openings(&openings)?,
                move_depth,
                label_depth,
                exact_empties,
                threads: threads as usize,
            };
            let played = selfplay::run(&cfg, &path)?;
            writeln!(out, "{played} games played into {path}")?;
        }
        Command::SelfplayMerge { out: path, inputs } => {
            let games = selfplay::merge(&inputs, &path)?;
            writeln!(out, "{games} games merged into {path}")?;
        }
        Command::Match {
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
            shard,
            results,
            nboard_depth,
            threads,
        } => {
            let config = MatchConfig {
                size,
                games: games as usize,
                time: match game_time_ms {
                    Some(ms) => TimeControl::PerGame(Duration::from_millis(ms)),
                    None => TimeControl::PerMove(Duration::from_millis(time_ms)),
                },
                margin: Duration::from_millis(margin_ms),
                openings: Openings::parse(&openings, size)?,
                max_plies,
                seed,
                nboard_depth,
                threads: threads as usize,
            };
            let files = MatchFiles {
                records: records.as_deref(),
                move_lists: move_lists.as_deref(),
                results: results.as_deref(),
            };
            run_match(&players, &config, Shard::parse(&shard)?, files, out)?;
        }
        Command::MatchMerge { results } => {
            merge_results(&results, out)?;
        }
        Command::FileMove {
            file,
            color,
            action,
            human,
        } => writeln!(
            out,
            "{}",
            file_move::run(&file, &color, &action, human.is_some())?
        )?,
        Command::State { size, from, moves } => writeln!(
            out,
            "{}",
            state::after_moves(size, from.as_deref(), &moves)?
        )?,
        Command::Perft {
            size,
            depth,
            divide,
            board,
            baseline,
        } => perft::run(size, depth, divide, board, baseline, out)?,
    }
    out.flush()?;
    Ok(())
}

/// Self-play openings from the command line: `random:<plies>` or
/// `wthor:<file>:<plies>[-<most>][+<random>]`.
fn selfplay_openings(spec: &str) -> anyhow::Result<selfplay::Opening> {
    if let Some(plies) = spec.strip_prefix("random:") {
        return plies.parse().map(selfplay::Opening::Random).map_err(|_| {
            anyhow::anyhow!(
                "--openings random:<plies>: '{}' is not a number of plies",
                printable(plies)
            )
        });
    }
    if let Some(rest) = spec.strip_prefix("wthor:")
        && let Some((path, plies)) = rest.rsplit_once(':')
    {
        let (plies, random) = plies.split_once('+').unwrap_or((plies, "0"));
        let (least, most) = plies.split_once('-').unwrap_or((plies, plies));
        let number = |text: &str| {
            text.parse::<usize>().map_err(|_| {
                anyhow::anyhow!(
                    "wthor openings: '{}' is not a number of plies",
                    printable(text)
                )
            })
        };
        let (least, most, random) = (number(least)?, number(most)?, number(random)?);
        anyhow::ensure!(
            least <= most && most <= 60 && random <= 60,
            "wthor openings take 0 to 60 plies, the least first (got '{}')",
            printable(spec)
        );
        let file = std::fs::File::open(path).map_err(|e| anyhow::anyhow!("{path}: {e}"))?;
        let games = reversi::tools::read_games(file, None)?;
        anyhow::ensure!(!games.is_empty(), "{path}: no games");
        return Ok(selfplay::Opening::Prefixes {
            games,
            plies: least..=most,
            random,
        });
    }
    anyhow::bail!(
        "unknown openings '{}' (random:<plies> or wthor:<file>:<plies>[-<most>][+<random>])",
        printable(spec)
    )
}

/// The help text of `reversi` or of its subcommand `name`.
fn help_text(name: Option<&str>) -> anyhow::Result<String> {
    let mut cli = <Cli as clap::CommandFactory>::command();
    cli.build();
    let help = match name {
        None => cli.render_long_help(),
        Some(name) => cli
            .find_subcommand_mut(name)
            .ok_or_else(|| {
                anyhow::anyhow!("no subcommand '{}' (see reversi --help)", printable(name))
            })?
            .render_long_help(),
    };
    Ok(help.to_string())
}

/// A shell-quoted command line that runs this binary's daemon.
fn this_binary() -> String {
    let path = std::env::current_exe().expect("the running binary has a path");
    format!("'{}'", path.display().to_string().replace('\'', "'\\''"))
}
