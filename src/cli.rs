//! The command line: every subcommand's options, their ranges and help,
//! as clap reads them. `main.rs` runs them.

use clap::{Parser, Subcommand};
use reversi::analysis;
use reversi::engine::{self, DEFAULT_HASH_MB};
use reversi::lab::Wording;
use reversi::players;
use reversi::protocol::Notation;
use reversi::referee::contestant::TimeControl;
use reversi::rules::printable;
use reversi::search::MAX_TIME;
use reversi::search::pattern::EvalKind;
use reversi::tools::perft::PerftBoard;
use reversi::tools::{bench, selfplay};
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
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
}

/// What a GUI that only starts a command line can choose.
#[derive(clap::Args, Clone, Debug)]
pub struct DaemonArgs {
    /// The player: strong, greedy, first, random[:<seed>], norvig:<depth>,
    /// weights:<seconds>, smarter, smartest (GTP: `set player`).
    #[arg(long, default_value = engine::DEFAULT_PLAYER)]
    pub player: String,
    /// Time per move in milliseconds, until a clock is set (GTP:
    /// `time_settings`; NBoard: the game's clock). Default 1000.
    #[arg(long, value_parser = millis_range(1))]
    pub movetime: Option<u64>,
    /// Search depth limit in plies, 1 to 1000 (NBoard: until `set depth`).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000))]
    pub depth: Option<u32>,
    /// Hash table size in MB, 1 to 4096.
    #[arg(long, default_value_t = DEFAULT_HASH_MB as u64, value_parser = clap::value_parser!(u64).range(1..=players::MAX_HASH_MB as u64))]
    pub hash: u64,
    /// Search threads, 1 to 256 (GTP: `set threads`). Default 1: two
    /// engines in a match each get a core, and fixed-depth moves are
    /// reproducible.
    #[arg(long, default_value_t = 1, value_parser = threads_range())]
    pub threads: u64,
    /// The opening book `strong` plays from on 8x8 (a move it holds is
    /// played at once): by default the repository's, built in
    /// (`data/book-8x8.bin`); a file (`reversi book build`); or `off`.
    #[arg(long, value_name = "FILE|off")]
    pub book: Option<String>,
    /// Draw the book's move among those within this many discs of the
    /// best (0 to 64; 0, the default, plays the best).
    #[arg(long, default_value_t = 0.0, value_parser = parse_discs)]
    pub book_randomness: f64,
    /// The 8x8 evaluation of `strong`: the pattern tables or the network
    /// (GTP: `set eval`).
    #[arg(long, default_value = "patterns", value_parser = parse_eval)]
    pub eval: EvalKind,
}

impl DaemonArgs {
    pub fn options(&self) -> anyhow::Result<engine::Options> {
        let book = match self.book.as_deref() {
            Some("off") => None,
            Some(path) => Some(std::sync::Arc::new(reversi::tools::book::load(path)?)),
            None => Some(reversi::book::repository()),
        }
        .map(|book| (book, self.book_randomness));
        Ok(engine::Options {
            player: self.player.clone(),
            resources: engine::Resources {
                hash_mb: self.hash as usize,
                threads: self.threads as usize,
                eval: self.eval,
            },
            move_time: self.movetime.map(Duration::from_millis),
            depth: self.depth,
            book,
        })
    }
}

/// A compile command: it must name the sources and the program.
fn parse_compile(s: &str) -> Result<String, String> {
    if s.contains("{sources}") && s.contains("{out}") {
        Ok(s.to_string())
    } else {
        Err(format!(
            "'{}' must hold {{sources}} (the submission's .c files) and {{out}} (the program)",
            printable(s)
        ))
    }
}

/// Discs: 0 to 64.
fn parse_discs(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=64.0).contains(&x) => Ok(x),
        _ => Err(format!(
            "'{}' is not a number of discs from 0 to 64",
            printable(s)
        )),
    }
}

/// How Lab 8 programs' moves are timed.
#[derive(clap::ValueEnum, Clone, Copy, Debug, PartialEq, Eq)]
pub enum TimeRule {
    Wall,
    Cpu,
}

/// `--notation` values.
#[derive(clap::ValueEnum, Clone, Copy, Debug)]
pub enum NotationArg {
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
fn parse_board_size(s: &str) -> Result<usize, String> {
    match s.parse::<usize>() {
        Ok(n) if reversi::rules::is_supported_size(n) => Ok(n),
        _ => Err(format!(
            "'{}' is not an even size from 4 to 26",
            printable(s)
        )),
    }
}

#[derive(Subcommand)]
pub enum Command {
    /// The engine daemon (the default): GTP commands on stdin, replies on
    /// stdout. For a GTP GUI such as Quarry, register `reversi gtp` with
    /// any options below as the engine's command.
    Gtp(GtpArgs),
    /// The engine for the NBoard GUI (and NTest-style referees): the NBoard
    /// protocol version 2 on stdin/stdout. In NBoard: Engine > Select
    /// Opponent > Add engine, command `reversi nboard` (its first word is
    /// looked up in the working directory: choose the folder that holds
    /// `reversi`).
    Nboard(NboardArgs),
    /// The Lab 7 program: board set-up, available moves, one checked move.
    Lab7,
    /// The Lab 8 Part 1 game: you against a computer player.
    Lab8(Lab8Args),
    /// Measures how late an engine answers `genmove` against its time limit.
    Latency(LatencyArgs),
    /// Solves every position of an OBF file exactly (8x8).
    Solve(SolveArgs),
    /// How well a fixed-depth search with one evaluation knows positions
    /// of known best moves and scores (an OBF file): the share of best
    /// moves found, of scores within 3 discs, and the mean error.
    Evaltest(EvaltestArgs),
    /// Where each game was won and lost: every move against the best
    /// move of its position, the discs it lost (exact near the end),
    /// mistakes and blunders, and each player's summary; as a table,
    /// JSON, or a graph of the score over the game (SVG).
    Analyze(AnalyzeArgs),
    /// Makes a balanced 8x8 opening suite from recorded games: the first
    /// plies that enough games share (up to the start's symmetry), kept
    /// where a fixed-depth search finds them near even. The file is for
    /// `match --openings file:FILE`.
    Openings(OpeningsArgs),
    /// One move on a board file (the small C program's file mode): reads
    /// `<name>-<NN>`, writes `<name>-<NN+1>`.
    FileMove(FileMoveArgs),
    /// Prints the COMP24011 state (`[....|....]`) after a sequence of moves.
    State(StateArgs),
    /// Plays a match (two players) or a round-robin tournament (more) and
    /// prints the results. Players are built-in names (strong, greedy,
    /// first, random:<seed>, norvig:<depth>, weights:<seconds>, smarter,
    /// smartest), `cmd:<command line>` for an engine speaking the protocol
    /// (GTP), `nboard:<command line>` for one speaking NBoard (NTest, Edax
    /// -nboard), or `lab8:<command line>` for a Lab 8 program (the Part 1
    /// transcript, the referee playing the human's side).
    Match(MatchArgs),
    /// The Lab 8 Part 3 leaderboard: every program plays the course's
    /// players (`smarter`, `smartest`) with both colours, and those that
    /// win enough of those games play every other one twice. Writes one
    /// folder: each game's record and transcripts, the standings as text
    /// and as a page (`index.html`) that needs no server.
    Leaderboard(LeaderboardArgs),
    /// Puts the `--results` files of a match's shards together and prints
    /// the whole match's tables.
    MatchMerge(MatchMergeArgs),
    /// Fits the pattern evaluation on game records read from stdin (lines
    /// `YEAR MOVES RESULT`, e.g. `xz -dc games.txt.xz | reversi train`).
    Train(TrainArgs),
    /// Plays the engine against itself from varied openings and writes
    /// every position with the label of a deeper search (exact near the
    /// end), for training; resumable, deterministic for a seed, and split
    /// into shards that any batch scheduler can run (see README).
    Selfplay(SelfplayArgs),
    /// Merges self-play shard files into one, every game once, in game
    /// order (the same file whichever order the shards are given in).
    SelfplayMerge(SelfplayMergeArgs),
    /// The 8x8 opening book: `build` from game records (whole, or a
    /// shard's part), `merge` the parts, `show` its moves at a position.
    Book(BookArgs),
    /// Measures how well a shallow search predicts a deep one with the 8x8
    /// pattern evaluation (ProbCut's margins), on positions from game
    /// records read from stdin (`xz -dc games.txt.xz | reversi probcut`).
    Probcut(ProbcutArgs),
    /// Searches a fixed set of positions to fixed depths (table cleared):
    /// the total node count changes only when the search does.
    Bench(BenchArgs),
    /// Prints the help of `reversi` or of one of its subcommands.
    Help(HelpArgs),
    /// Counts the leaves of the game tree from the start position.
    Perft(PerftArgs),
}

/// The options of `reversi nboard`.
#[derive(clap::Args)]
pub struct NboardArgs {
    #[command(flatten)]
    pub daemon: DaemonArgs,
    /// Your own book file that `learn` (sent by the GUI after a game)
    /// adds finished games to, and that `strong` then plays from; begun
    /// as a copy of --book (or empty) when the file does not exist. The
    /// --book file itself is never written.
    #[arg(long)]
    pub learn: Option<String>,
}

impl NboardArgs {
    /// The engine's options and the book learned into: with --learn,
    /// `strong` plays from the learning book.
    pub fn options(
        &self,
    ) -> anyhow::Result<(engine::Options, Option<reversi::tools::book::LearningBook>)> {
        let mut options = self.daemon.options()?;
        let Some(path) = &self.learn else {
            return Ok((options, None));
        };
        let base = options.book.as_ref().map(|(b, _)| b.clone());
        let base_file = self.daemon.book.as_deref().filter(|b| *b != "off");
        let learning = reversi::tools::book::LearningBook::open(path, base, base_file)?;
        options.book = Some((learning.book(), self.daemon.book_randomness));
        Ok((options, Some(learning)))
    }
}

/// The options of `reversi gtp`.
#[derive(clap::Args)]
pub struct GtpArgs {
    #[command(flatten)]
    pub daemon: DaemonArgs,
    /// Board side n at start (even, 4 to 26), for GUIs that never send
    /// `boardsize` (GoGui's rules engine).
    #[arg(long, default_value_t = 8, value_parser = parse_board_size)]
    pub size: usize,
    /// How moves are written and read: standard (d3), upper (D3), lab
    /// (cd) or gogui (GoGui's coordinates: D6 for d3 on 8x8, rows from
    /// the bottom, no column I).
    #[arg(long, value_enum, default_value_t = NotationArg::Standard)]
    pub notation: NotationArg,
}

/// The options of `reversi lab8`.
#[derive(clap::Args)]
pub struct Lab8Args {
    /// Prompt wording: the 2025 handout's or the course builds'.
    #[arg(long, value_enum, default_value_t = Wording::Handout)]
    pub wording: Wording,
    /// The computer's player.
    #[arg(long, default_value = "greedy")]
    pub player: String,
    /// Time limit for each computer move, in milliseconds.
    #[arg(long, default_value_t = 1000, value_parser = millis_range(1))]
    pub move_time_ms: u64,
}

/// The options of `reversi latency`.
#[derive(clap::Args)]
pub struct LatencyArgs {
    /// The engine's command line (default: this binary's daemon).
    #[arg(long)]
    pub engine: Option<String>,
    /// Board side n.
    #[arg(long, default_value_t = 8)]
    pub size: usize,
    /// Time limit per move, in milliseconds.
    #[arg(long, default_value_t = 100, value_parser = millis_range(1))]
    pub movetime_ms: u64,
    /// Number of genmove calls.
    #[arg(long, default_value_t = 1000, value_parser = count_range())]
    pub moves: u64,
    /// Random plies at the start of each game.
    #[arg(long, default_value_t = 4)]
    pub opening_plies: usize,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
}

/// The options of `reversi evaltest`.
#[derive(clap::Args)]
pub struct EvaltestArgs {
    /// The OBF file, its lines giving the moves' scores
    /// (data/evaltest/*.obf, data/ffo/*.obf).
    pub file: String,
    /// Plies of each search, 1 to 30 (1: the evaluation after each move).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: u32,
    /// The evaluation: patterns or network.
    #[arg(long, default_value = "patterns", value_parser = parse_eval)]
    pub eval: EvalKind,
    /// Hash table size in MB, 1 to 4096 (cleared for each position).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=players::MAX_HASH_MB as u64))]
    pub hash: u64,
}

/// The options of `reversi openings`.
#[derive(clap::Args)]
pub struct OpeningsArgs {
    /// The game records, one a line (move lists, or WTHOR lines `YEAR
    /// MOVES SCORE`); `-` for standard input.
    #[arg(long, default_value = "-")]
    pub games: String,
    /// The suite's file, written whole once every opening is searched.
    #[arg(long)]
    pub out: String,
    /// Plies of each opening, 1 to 30.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub plies: u32,
    /// Games that must share an opening, 1 or more.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    pub min_games: u32,
    /// Plies of each opening's search, 1 to 30.
    #[arg(long, default_value_t = 14, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub depth: u32,
    /// Keep openings whose value is at most this many discs from even
    /// (0 to 64).
    #[arg(long, default_value_t = 2.0, value_parser = parse_discs)]
    pub max_discs: f64,
}

/// The options of `reversi analyze`.
#[derive(clap::Args)]
pub struct AnalyzeArgs {
    /// The games: a file of GGF records or move lists, one a line, or `-`
    /// for standard input.
    pub games: String,
    /// Board side of the move lists (GGF records give their own).
    #[arg(long, default_value_t = 8, value_parser = parse_board_size)]
    pub size: usize,
    /// Plies of each search outside the exact region, 1 to 30.
    #[arg(long, default_value_t = analysis::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(1..=analysis::MAX_DEPTH as i64))]
    pub depth: u32,
    /// Instead of a depth, this many milliseconds for each search outside
    /// the exact region, 1 to 3,600,000 (the best move's, then the played
    /// move's): the analysis then depends on the machine and the run.
    #[arg(long, conflicts_with = "depth", value_parser = clap::value_parser!(u64).range(1..=3_600_000))]
    pub time_ms: Option<u64>,
    /// Where the phases of the summaries end, in empty squares, largest
    /// first (`24,22,20`: the moves with more than 24 empties, 24-23,
    /// 22-21, and 20 or fewer); by default the thirds of the game.
    #[arg(long, value_delimiter = ',', value_parser = clap::value_parser!(u32).range(1..=672))]
    pub phases: Vec<u32>,
    /// From this many empty squares on (8x8) moves are solved exactly, 0
    /// to 30; 20 takes the solver well under a second a move.
    #[arg(long, default_value_t = analysis::DEFAULT_EXACT_EMPTIES, value_parser = clap::value_parser!(u32).range(0..=30))]
    pub exact_empties: u32,
    /// Positions analysed at once, each on one search thread, 1 to 256
    /// (the output is the same for any number).
    #[arg(long, default_value_t = 1, value_parser = threads_range())]
    pub threads: u64,
    /// A move that loses at least this many discs is a mistake.
    #[arg(long, default_value_t = analysis::DEFAULT_MISTAKE, value_parser = parse_discs)]
    pub mistake: f64,
    /// A move that loses at least this many discs is a blunder.
    #[arg(long, default_value_t = analysis::DEFAULT_BLUNDER, value_parser = parse_discs)]
    pub blunder: f64,
    /// The 8x8 evaluation: patterns or network.
    #[arg(long, default_value = "patterns", value_parser = parse_eval)]
    pub eval: EvalKind,
    /// Hash table of each thread in MB, 1 to 4096 (cleared for each
    /// position).
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=players::MAX_HASH_MB as u64))]
    pub hash: u64,
    /// JSON on standard output instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Also writes the graphs of the score over each game to this SVG file.
    #[arg(long)]
    pub svg: Option<String>,
    /// Also writes a page with each game's graph, summaries and moves to
    /// this HTML file.
    #[arg(long)]
    pub html: Option<String>,
    /// Analyse only this part of the games: K/N takes those numbered K-1
    /// modulo N (K from 1).
    #[arg(long, default_value = "1/1")]
    pub shard: String,
}

/// The options of `reversi solve`.
#[derive(clap::Args)]
pub struct SolveArgs {
    /// The OBF file (e.g. data/ffo/fforum-40-59.obf).
    pub file: String,
    /// Hash table size in MB, 1 to 4096 (one table, cleared for each
    /// position).
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..=players::MAX_HASH_MB as u64))]
    pub hash: u64,
    /// Search threads, 1 to 256 (default: every core of the machine).
    #[arg(long, value_parser = threads_range())]
    pub threads: Option<u64>,
    /// Number of the first position, 0 to 100000000 (default: from
    /// the file name).
    #[arg(long, value_parser = clap::value_parser!(u64).range(0..=MAX_COUNT))]
    pub first: Option<u64>,
}

/// The options of `reversi file-move`.
#[derive(clap::Args)]
pub struct FileMoveArgs {
    /// The board file, named `<name>-<NN>`.
    pub file: String,
    /// The colour to move: black or white.
    pub color: String,
    /// Seconds for the computer's move, or a human move XY (column then
    /// row digit, 1-8; write whole seconds such as 12 as 12.0).
    pub action: String,
    /// The C program's extra argument after a human move (any text).
    pub human: Option<String>,
}

/// The options of `reversi state`.
#[derive(clap::Args)]
pub struct StateArgs {
    /// Board side n.
    #[arg(long, default_value_t = 8)]
    pub size: usize,
    /// Start from this state instead of the start position.
    #[arg(long)]
    pub from: Option<String>,
    /// Moves to play, as `f5d6c3` or `f5 d6 c3` (passes as `pass`).
    pub moves: Vec<String>,
}

/// The options of `reversi match`.
#[derive(clap::Args)]
pub struct MatchArgs {
    /// Two or more players.
    #[arg(required = true, num_args = 2..)]
    pub players: Vec<String>,
    /// Games per pairing (colours alternate; each opening is played twice).
    #[arg(long, default_value_t = 10, value_parser = count_range())]
    pub games: u64,
    /// Board side n.
    #[arg(long, default_value_t = 8)]
    pub size: usize,
    /// Time per move, in milliseconds.
    #[arg(long, default_value_t = 100, value_parser = millis_range(1))]
    pub time_ms: u64,
    /// A clock for the whole game instead: each side gets this many
    /// milliseconds for all its moves, and loses when it runs out.
    #[arg(long, value_parser = millis_range(1))]
    pub game_time_ms: Option<u64>,
    /// A Fischer clock instead: BASE+INC in seconds (`60+0.5`): each side
    /// starts with BASE, and each of its moves adds INC as it starts.
    #[arg(long, value_parser = parse_fischer, conflicts_with = "game_time_ms")]
    pub tc: Option<(Duration, Duration)>,
    /// One player's own time control (repeat for more): PLAYER is its
    /// number on the command line (1, 2, ...) or the NAME it was given;
    /// TIME is milliseconds a move (`200`), a game clock (`game:20000`)
    /// or a Fischer clock (`tc:60+0.5`). The others keep the match's.
    #[arg(long, value_name = "PLAYER=TIME", value_parser = parse_player_time)]
    pub time_for: Vec<(String, TimeControl)>,
    /// Lateness allowed before a move is forfeited, in milliseconds.
    #[arg(long, default_value_t = 50, value_parser = millis_range(0))]
    pub margin_ms: u64,
    /// How Lab 8 programs' moves are timed: `wall` (the default), or `cpu`
    /// (their CPU time, user and system, as the handout's getrusage
    /// measures it, with a wall-clock cap of 5 times the limit).
    #[arg(long, value_enum, default_value_t = TimeRule::Wall)]
    pub lab8_time: TimeRule,
    /// none, random:<plies>, or a suite used in turn: file:<path> (move
    /// lists, one a line: f5d6c3 or f5 d6 c3), ggf:<plies>:<path> (GGF
    /// games, one a line, cut after that many plies) or obf:<path> (OBF
    /// positions); # starts a comment. data/openings-8x8.txt is a
    /// balanced 8x8 suite from WTHOR. Default: random:4, or none when a
    /// player is a Lab 8 program (which plays from the start).
    #[arg(long)]
    pub openings: Option<String>,
    /// Stop each game this many plies after the opening and score it by
    /// discs (the COMP24011 automarker plays 20).
    #[arg(long)]
    pub max_plies: Option<usize>,
    /// Seed of the random openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// Write every game to this file as GGF, one a line.
    #[arg(long)]
    pub records: Option<String>,
    /// Write every game to this file as a move list, one a line.
    #[arg(long)]
    pub move_lists: Option<String>,
    /// Play only this part of the games: K/N plays game numbers K-1
    /// modulo N of each pairing (K from 1); `match-merge` puts the
    /// parts' `--results` together.
    #[arg(long, default_value = "1/1")]
    pub shard: String,
    /// Write every game's result to this file, for `match-merge`; the
    /// same command run again goes on where the file ends.
    #[arg(long)]
    pub results: Option<String>,
    /// Write each game into this folder as its own GGF record
    /// (`p0-g3.ggf`: pairing 0, game 3), with the transcript of each
    /// `lab8:` program's game (`p0-g3-<name>.txt`: every line sent and
    /// received, with its time).
    #[arg(long)]
    pub games_dir: Option<String>,
    /// The midgame depth (1 to 60) given to `nboard:` engines with
    /// `set depth`, as the NBoard GUI's level; 60 leaves them to their
    /// clock.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub nboard_depth: u32,
    /// Search threads of each built-in player, 1 to 256 (external
    /// engines choose their own).
    #[arg(long, default_value_t = 1, value_parser = threads_range())]
    pub threads: u64,
    /// Games played at once, 1 to 256, each with its own engine processes
    /// and players (leave a core to each game's players: a game's
    /// results do not depend on it, but its timing does).
    #[arg(long, default_value_t = 1, value_parser = threads_range())]
    pub concurrency: u64,
    /// Stop as soon as an SPRT decides: `elo0=0,elo1=5,alpha=0.05,beta=0.05`
    /// (logistic Elo of the first player over the second; alpha and beta
    /// default to 0.05), on pairs of games; `--games` is then the most
    /// that are played.
    #[arg(long)]
    pub sprt: Option<String>,
}

/// The options of `reversi leaderboard`.
#[derive(clap::Args)]
#[command(group = clap::ArgGroup::new("contestants").required(true).multiple(true).args(["programs", "submissions"]))]
pub struct LeaderboardArgs {
    /// Programs already built: `lab8:<command line>` for a Lab 8 program,
    /// or any player a match takes; `NAME=<player>` names one
    /// (`alice=lab8:./alice/lab8`).
    pub programs: Vec<String>,
    /// A folder of students' submissions, built from source: one entry a
    /// student, named after the student, a `.c` file or a folder (its
    /// `lab8part3/` when it has one) of `.c` and `.h` files.
    #[arg(long, value_name = "DIR")]
    pub submissions: Option<String>,
    /// The command that builds a submission, run in a folder holding its
    /// files (and the course's lab8part2.h when it has none): `{sources}`
    /// stands for its .c files, `{out}` for the program.
    #[arg(long, default_value = reversi::referee::leaderboard::submissions::DEFAULT_COMPILE, value_parser = parse_compile)]
    pub compile: String,
    /// Seconds a build may take (wall clock), 1 to 3600.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u64).range(1..=3600))]
    pub compile_time_s: u64,
    /// Only build the submissions, and play nothing: the first step of a
    /// leaderboard run in shards, so that the shards find every build done.
    #[arg(long, requires = "submissions")]
    pub build_only: bool,
    /// Analyse every game for the page (`reversi analyze`'s defaults: 10
    /// plies, exact from 20 empties on 8x8): its graph of the score beside
    /// the board, a click on it stepping the board there, and its biggest
    /// mistakes. Each game once, kept beside its record; a shard analyses
    /// its own pairings' games.
    #[arg(long)]
    pub analyze: bool,
    /// The folder it writes (a folder of a stopped run goes on).
    #[arg(long)]
    pub out: String,
    /// Board side n.
    #[arg(long, default_value_t = 8, value_parser = parse_board_size)]
    pub size: usize,
    /// Time per move, in milliseconds (the handout's 1 s).
    #[arg(long, default_value_t = 1000, value_parser = millis_range(1))]
    pub time_ms: u64,
    /// Lateness allowed past it before a move is forfeited, in milliseconds.
    #[arg(long, default_value_t = 50, value_parser = millis_range(0))]
    pub margin_ms: u64,
    /// How a move's time is judged: `cpu` (the default: its CPU time,
    /// user and system, as the handout's getrusage measures it, with a
    /// wall-clock cap of 5 times the limit, so that a busy grading machine
    /// forfeits nobody; ties are split by CPU time), or `wall`.
    #[arg(long, value_enum, default_value_t = TimeRule::Cpu)]
    pub time_rule: TimeRule,
    /// The players a program must beat to reach the finals, comma-separated.
    #[arg(long, default_value = "smarter,smartest", value_delimiter = ',')]
    pub qualifiers: Vec<String>,
    /// Wins against them (two games each) a finalist needs.
    #[arg(long, default_value_t = 3)]
    pub wins: usize,
    /// Play only this part of each stage: K/N plays the pairings numbered
    /// K-1 modulo N (K from 1), beside the other shards' results in the
    /// same folder; the finals start once the qualification is complete.
    #[arg(long, default_value = "1/1")]
    pub shard: String,
    /// Games played at once, 1 to 256, each with its own engine processes
    /// and players (leave a core to each game's players: a game's
    /// results do not depend on it, but its timing does).
    #[arg(long, default_value_t = 1, value_parser = threads_range())]
    pub concurrency: u64,
}

/// The options of `reversi match-merge`.
#[derive(clap::Args)]
pub struct MatchMergeArgs {
    /// The shards' results files, in any order.
    #[arg(required = true)]
    pub results: Vec<String>,
}

/// The options of `reversi train`.
#[derive(clap::Args)]
#[command(group = clap::ArgGroup::new("output").required(true).args(["out", "export"]))]
pub struct TrainArgs {
    /// Where to write the weights (the engine's own are data/eval.bin).
    #[arg(long)]
    pub out: Option<String>,
    /// Write the labelled positions with their pattern features to this
    /// file instead of fitting (for `scripts/train-network.py`; the
    /// format is documented in `src/tools/train/export.rs`).
    #[arg(long)]
    pub export: Option<String>,
    /// Every position with at most this many empty squares is solved
    /// exactly (earlier ones take the first solved score); 0 to 30.
    #[arg(long, default_value_t = 18, value_parser = clap::value_parser!(u32).range(0..=30))]
    pub solve_empties: u32,
    /// Passes of gradient descent over the positions (1 to 1000).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u64).range(1..=1000))]
    pub epochs: u64,
    /// Share of the games held out for testing (0 to 1; at 1 only the
    /// self-play positions train).
    #[arg(long, default_value_t = 0.05, value_parser = parse_share)]
    pub holdout: f64,
    /// Solver threads (1 to 256).
    #[arg(long, default_value_t = 2, value_parser = threads_range())]
    pub threads: u64,
    /// Use only the first N games.
    #[arg(long)]
    pub limit: Option<usize>,
    /// AdaGrad's base step size, in discs (more than 0, at most 100).
    #[arg(long, default_value_t = 1.0, value_parser = parse_step_size)]
    pub rate: f32,
    /// Reuse the solved positions saved in this file (written there on
    /// the first run); stdin is then not read.
    #[arg(long)]
    pub cache: Option<String>,
    /// Also train on the labelled positions of this self-play file
    /// (`reversi selfplay`; repeat the option for more); the held-out
    /// games stay the input's.
    #[arg(long)]
    pub selfplay: Vec<String>,
    /// What the self-play positions are trained towards: their own
    /// search labels, or their game's outcome (the first exact label,
    /// as WTHOR positions take their game's solved score).
    #[arg(long, value_enum, default_value_t = selfplay::Target::Search)]
    pub selfplay_target: selfplay::Target,
    /// Label each position before the solved ones by a search this
    /// deep (1 to 16 plies) instead of its game's solved score.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=16))]
    pub label_depth: Option<u32>,
    /// Keep the labelled positions in this file (read when it
    /// exists: labelling all of WTHOR at depth 8 takes 25 minutes on
    /// 2 cores).
    #[arg(long, requires = "label_depth")]
    pub labels: Option<String>,
    /// The weight file the labelling search evaluates with (default:
    /// the compiled-in weights); `scripts/train-eval.sh` labels with
    /// the weights the new ones replace.
    #[arg(long, requires = "label_depth")]
    pub label_weights: Option<String>,
    /// Start from this weight file and hold every weight near it (see
    /// --prior-strength): new data refines the weights instead of
    /// replacing what they were fitted on.
    #[arg(long)]
    pub prior: Option<String>,
    /// How many times the training positions the prior counts for,
    /// weight by weight (0 to 1000; 0 only starts from it).
    #[arg(long, default_value_t = 1.0, requires = "prior", value_parser = parse_prior_strength)]
    pub prior_strength: f32,
}

/// The options of `reversi selfplay`.
#[derive(clap::Args)]
pub struct SelfplayArgs {
    /// The output file (appended to: a stopped run goes on).
    #[arg(long)]
    pub out: String,
    /// Games in all shards together.
    #[arg(long, default_value_t = 1000, value_parser = count_range())]
    pub games: u64,
    /// Seed of the openings.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// This run's part: K/N plays the games whose number is K-1 modulo
    /// N (K from 1).
    #[arg(long, default_value = "1/1")]
    pub shard: String,
    /// random:<plies>, or wthor:<file>:<plies>[-<most>][+<random>]
    /// (the first plies of the games of a WTHOR move-list file, in
    /// turn: as many as drawn between the two numbers for each game,
    /// then that many random plies).
    #[arg(long, default_value = "random:8")]
    pub openings: String,
    /// Depth of the search that plays each move (1 to 30).
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub move_depth: u32,
    /// Depth of the search that labels each position (1 to 30).
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=30))]
    pub label_depth: u32,
    /// Positions with at most this many empties get the exact score
    /// (0 to 24).
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u32).range(0..=24))]
    pub exact_empties: u32,
    /// Threads (1 to 256).
    #[arg(long, default_value_t = 2, value_parser = threads_range())]
    pub threads: u64,
}

/// The options of `reversi selfplay-merge`.
#[derive(clap::Args)]
pub struct SelfplayMergeArgs {
    /// The merged file.
    #[arg(long)]
    pub out: String,
    /// The shard files.
    #[arg(required = true)]
    pub inputs: Vec<String>,
}

/// `reversi book`.
#[derive(clap::Args)]
pub struct BookArgs {
    #[command(subcommand)]
    pub command: BookCommand,
}

/// What `reversi book` does.
#[derive(Subcommand)]
pub enum BookCommand {
    /// Builds a book from game records: every position of their first
    /// plies that enough games reach, up to symmetry, its best move that
    /// no game played searched, and the values backed up by negamax.
    Build(BookBuildArgs),
    /// Deepens a book: the deviations of the positions enough games
    /// reached are searched again, deeper, and the values backed up.
    Extend(BookExtendArgs),
    /// Puts the parts of a book's shards together into the book.
    Merge(BookMergeArgs),
    /// The book's moves after a move list from the start, best first.
    Show(BookShowArgs),
}

/// The options of `reversi book build`.
#[derive(clap::Args)]
pub struct BookBuildArgs {
    /// The game records, one a line (move lists, or WTHOR lines `YEAR
    /// MOVES SCORE`); `-` for standard input.
    #[arg(long, default_value = "-")]
    pub games: String,
    /// Plies of each game taken, 1 to 60.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub plies: u32,
    /// Games a position needs to be in the book, 1 or more.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..))]
    pub min_games: u32,
    /// Depth of the searches of the moves no game played, 1 to 60.
    #[arg(long, default_value_t = 12, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// The book (or, with --shard, the shard's part) to write.
    #[arg(long)]
    pub out: String,
    /// Search only part of the positions: K/N takes those numbered K-1
    /// modulo N and writes a part for `book merge`.
    #[arg(long, default_value = "1/1")]
    pub shard: String,
}

/// The options of `reversi book extend`.
#[derive(clap::Args)]
pub struct BookExtendArgs {
    /// The book to deepen (it is not written).
    #[arg(long)]
    pub book: String,
    /// The new depth of the deviations' searches, 1 to 60.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=60))]
    pub depth: u32,
    /// Only positions that at least this many games reached, 0 or more.
    #[arg(long, default_value_t = 0)]
    pub min_games: u32,
    /// The deeper book (or, with --shard, the shard's part) to write.
    #[arg(long)]
    pub out: String,
    /// Search only part of the positions: K/N takes those numbered K-1
    /// modulo N and writes a part for `book merge --base`.
    #[arg(long, default_value = "1/1")]
    pub shard: String,
}

/// The options of `reversi book merge`.
#[derive(clap::Args)]
pub struct BookMergeArgs {
    /// The book to write.
    #[arg(long)]
    pub out: String,
    /// The book that the parts of `book extend` deepen.
    #[arg(long)]
    pub base: Option<String>,
    /// The parts, one of each shard.
    #[arg(required = true)]
    pub parts: Vec<String>,
}

/// The options of `reversi book show`.
#[derive(clap::Args)]
pub struct BookShowArgs {
    /// The book file; the one built into the binary when left out.
    #[arg(long)]
    pub book: Option<String>,
    /// Moves from the start (`f5 d6` or `f5d6`); none for the start.
    pub moves: Vec<String>,
}

/// The options of `reversi probcut`.
#[derive(clap::Args)]
pub struct ProbcutArgs {
    /// Deepest search measured (2 to 30).
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(i32).range(2..=30))]
    pub max_depth: i32,
    /// Use only the first N games.
    #[arg(long, default_value_t = 200, value_parser = count_range())]
    pub games: u64,
    /// Positions taken from each game.
    #[arg(long, default_value_t = 2, value_parser = count_range())]
    pub per_game: u64,
    /// Measure shallow searches against exact endgame scores instead
    /// (positions with 12 to 23 empties; `--max-depth` is ignored).
    #[arg(long)]
    pub endgame: bool,
}

/// The options of `reversi bench`.
#[derive(clap::Args)]
pub struct BenchArgs {
    /// Search threads (1 to 256); with 1, the node total is the
    /// reference a change of the search is checked against.
    #[arg(long, default_value_t = 1, value_parser = threads_range())]
    pub threads: u64,
    /// Depth of the 8x8 middle-game positions (1 to 24); the pinned
    /// node total is at the default; 18 times a search change better.
    #[arg(long, default_value_t = bench::MIDGAME_DEPTH as u64,
          value_parser = clap::value_parser!(u64).range(1..=24))]
    pub midgame_depth: u64,
    /// The 8x8 evaluation: patterns (the default; the pinned node total
    /// is theirs) or network.
    #[arg(long, default_value = "patterns", value_parser = parse_eval)]
    pub eval: EvalKind,
}

/// The options of `reversi help`.
#[derive(clap::Args)]
pub struct HelpArgs {
    /// The subcommand.
    pub command: Option<String>,
}

/// The options of `reversi perft`.
#[derive(clap::Args)]
pub struct PerftArgs {
    /// Board side n (even, 4 to 26).
    #[arg(long, default_value_t = 8)]
    pub size: usize,
    /// Depth in plies (a forced pass is a ply).
    #[arg(long)]
    pub depth: u32,
    /// Print the count below each first move.
    #[arg(long)]
    pub divide: bool,
    /// Board implementation to count with.
    #[arg(long, value_enum, default_value_t = PerftBoard::Fast)]
    pub board: PerftBoard,
    /// Also count with this implementation and print the speed ratio.
    #[arg(long, value_enum)]
    pub baseline: Option<PerftBoard>,
}

/// The most games, moves or positions a count option takes.
const MAX_COUNT: u64 = 100_000_000;

/// A count option: 1 to [`MAX_COUNT`].
fn count_range() -> clap::builder::RangedU64ValueParser {
    clap::value_parser!(u64).range(1..=MAX_COUNT)
}

/// An evaluation's name: `patterns` or `network`.
fn parse_eval(text: &str) -> Result<EvalKind, String> {
    EvalKind::parse(text).ok_or_else(|| "patterns or network".to_string())
}

/// A threads option: 1 to [`players::MAX_THREADS`].
fn threads_range() -> clap::builder::RangedU64ValueParser {
    clap::value_parser!(u64).range(1..=players::MAX_THREADS as u64)
}

/// A time option in milliseconds: `least` to the longest time any limit
/// may be ([`MAX_TIME`]).
fn millis_range(least: u64) -> clap::builder::RangedU64ValueParser {
    clap::value_parser!(u64).range(least..=MAX_TIME.as_millis() as u64)
}

/// A Fischer clock, `BASE+INC` in seconds: each part 0 to the longest
/// search time, BASE above 0.
fn parse_fischer(s: &str) -> Result<(Duration, Duration), String> {
    let bad = || {
        format!(
            "'{}' is not BASE+INC in seconds (60+0.5; each at most {} s, BASE above 0)",
            printable(s),
            MAX_TIME.as_secs()
        )
    };
    let (base, inc) = s.split_once('+').ok_or_else(bad)?;
    let seconds = |t: &str| -> Result<Duration, String> {
        match t.trim().parse::<f64>() {
            Ok(x) if (0.0..=MAX_TIME.as_secs_f64()).contains(&x) => Ok(Duration::from_secs_f64(x)),
            _ => Err(bad()),
        }
    };
    let (base, inc) = (seconds(base)?, seconds(inc)?);
    if base.is_zero() {
        return Err(bad());
    }
    Ok((base, inc))
}

/// `PLAYER=TIME` of `--time-for`: the player as written, and its time.
fn parse_player_time(s: &str) -> Result<(String, TimeControl), String> {
    let (player, time) = s
        .split_once('=')
        .filter(|(p, t)| !p.is_empty() && !t.is_empty())
        .ok_or_else(|| format!("'{}' is not PLAYER=TIME", printable(s)))?;
    let millis = |t: &str| -> Result<Duration, String> {
        match t.parse::<u64>() {
            Ok(ms) if ms >= 1 && ms <= MAX_TIME.as_millis() as u64 => Ok(Duration::from_millis(ms)),
            _ => Err(format!(
                "'{}' is not a time of 1 to {} ms",
                printable(t),
                MAX_TIME.as_millis()
            )),
        }
    };
    let control = if let Some(ms) = time.strip_prefix("game:") {
        TimeControl::PerGame {
            main: millis(ms)?,
            increment: Duration::ZERO,
        }
    } else if let Some(fischer) = time.strip_prefix("tc:") {
        let (main, increment) = parse_fischer(fischer)?;
        TimeControl::PerGame { main, increment }
    } else {
        TimeControl::PerMove(millis(time)?)
    };
    Ok((player.to_string(), control))
}

/// A share: 0 to 1.
fn parse_share(s: &str) -> Result<f64, String> {
    match s.parse::<f64>() {
        Ok(x) if (0.0..=1.0).contains(&x) => Ok(x),
        _ => Err(format!("'{}' is not a share from 0 to 1", printable(s))),
    }
}

/// A prior's strength: 0 to 1000.
fn parse_prior_strength(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(x) if (0.0..=1000.0).contains(&x) => Ok(x),
        _ => Err(format!("'{}' is not a number from 0 to 1000", printable(s))),
    }
}

/// A step size: more than 0, at most 100.
fn parse_step_size(s: &str) -> Result<f32, String> {
    match s.parse::<f32>() {
        Ok(x) if x > 0.0 && x <= 100.0 => Ok(x),
        _ => Err(format!(
            "'{}' is not a number above 0 and at most 100",
            printable(s)
        )),
    }
}
