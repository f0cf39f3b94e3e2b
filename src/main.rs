//! The `reversi` binary: subcommands for the lab programs and the tools;
//! with no subcommand, the engine daemon. The options are `cli.rs`'s; each
//! subcommand's run function turns them into the library's types.

mod cli;

use clap::Parser;
use cli::{
    AnalyzeArgs, BenchArgs, BookArgs, BookCommand, Cli, Command, DaemonArgs, FileMoveArgs, GtpArgs,
    HelpArgs, Lab8Args, LatencyArgs, LeaderboardArgs, MatchArgs, MatchMergeArgs, NotationArg,
    OpeningsArgs, PerftArgs, ProbcutArgs, SelfplayArgs, SelfplayMergeArgs, SolveArgs, StateArgs,
    TimeRule, TrainArgs,
};
use reversi::analysis;
use reversi::engine::{self, DEFAULT_HASH_MB, Engine};
use reversi::lab;
use reversi::openings::Openings;
use reversi::players;
use reversi::protocol::Startup;
use reversi::referee::arena::MatchConfig;
use reversi::referee::contestant::{TimeControl, split_name};
use reversi::referee::latency::{self, LatencyConfig};
use reversi::referee::leaderboard::submissions::CompileConfig;
use reversi::referee::leaderboard::{self, Entry, LeaderboardConfig};
use reversi::referee::run::{MatchFiles, merge_results, run_match};
use reversi::referee::sprt::Sprt;
use reversi::rules::printable;
use reversi::search::StopToken;
use reversi::shard::Shard;
use reversi::tools::{
    analyze, bench, book, evaltest, file_move, openings, perft, probcut, selfplay, solve, state,
    train,
};
use std::io::{self, Write};
use std::process::ExitCode;
use std::time::Duration;

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn")).init();
    let cli = Cli::parse();
    let daemon = DaemonArgs {
        player: engine::DEFAULT_PLAYER.into(),
        movetime: None,
        depth: None,
        hash: DEFAULT_HASH_MB as u64,
        threads: 1,
        book: None,
        book_randomness: 0.0,
        eval: reversi::search::pattern::EvalKind::default(),
    };
    let gtp = Command::Gtp(GtpArgs {
        daemon,
        size: 8,
        notation: NotationArg::Standard,
    });
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
        Command::Gtp(args) => run_gtp(args, out)?,
        Command::Nboard(args) => {
            let (options, learning) = args.options()?;
            reversi::protocol::nboard::run(
                io::BufReader::new(io::stdin()),
                &mut *out,
                &options,
                learning,
            )?
        }
        Command::Help(HelpArgs { command }) => write!(out, "{}", help_text(command.as_deref())?)?,
        Command::Lab7 => lab::run_lab7(io::stdin().lock(), out)?,
        Command::Lab8(args) => run_lab8(args, out)?,
        Command::Latency(args) => run_latency(args, out)?,
        Command::Solve(args) => run_solve(args, out)?,
        Command::Evaltest(args) => evaltest::run(
            &args.file,
            evaltest::EvaltestConfig {
                depth: args.depth,
                eval: args.eval,
                hash_mb: args.hash as usize,
            },
            out,
        )?,
        Command::Openings(args) => run_openings(args, out)?,
        Command::Analyze(args) => run_analyze(args, out)?,
        Command::Probcut(args) => run_probcut(args, out)?,
        Command::Bench(args) => run_bench(args, out)?,
        Command::Train(args) => run_train(args, out)?,
        Command::Selfplay(args) => run_selfplay(args, out)?,
        Command::SelfplayMerge(SelfplayMergeArgs { out: path, inputs }) => {
            let games = selfplay::merge(&inputs, &path)?;
            writeln!(out, "{games} games merged into {path}")?;
        }
        Command::Book(args) => run_book(args, out)?,
        Command::Match(args) => run_match_command(args, out)?,
        Command::Leaderboard(args) => run_leaderboard(args, out)?,
        Command::MatchMerge(MatchMergeArgs { results }) => merge_results(&results, out)?,
        Command::FileMove(args) => run_file_move(args, out)?,
        Command::State(StateArgs { size, from, moves }) => writeln!(
            out,
            "{}",
            state::after_moves(size, from.as_deref(), &moves)?
        )?,
        Command::Perft(PerftArgs {
            size,
            depth,
            divide,
            board,
            baseline,
        }) => perft::run(size, depth, divide, board, baseline, out)?,
    }
    out.flush()?;
    Ok(())
}

/// `reversi gtp`: the engine daemon.
fn run_gtp(args: GtpArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let GtpArgs {
        daemon,
        size,
        notation,
    } = args;
    let startup = Startup {
        size,
        notation: notation.into(),
    };
    let input = io::BufReader::new(io::stdin());
    reversi::protocol::run(input, out, &daemon.options()?, startup)?;
    Ok(())
}

/// `reversi lab8`: the Lab 8 Part 1 game.
fn run_lab8(args: Lab8Args, mut out: &mut dyn Write) -> anyhow::Result<()> {
    let Lab8Args {
        wording,
        player,
        move_time_ms,
    } = args;
    let mut computer = Engine::new(&player, engine::Resources::default())?;
    let move_time = Duration::from_millis(move_time_ms);
    lab::run_lab8(
        io::stdin().lock(),
        &mut out,
        wording,
        &mut computer,
        move_time,
    )?;
    Ok(())
}

/// `reversi latency`: an engine's reply times against its limit.
fn run_latency(args: LatencyArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let cfg = LatencyConfig {
        engine: args.engine.unwrap_or_else(this_binary),
        size: args.size,
        movetime: Duration::from_millis(args.movetime_ms),
        moves: args.moves as usize,
        opening_plies: args.opening_plies,
        seed: args.seed,
    };
    latency::run(&cfg, out)?;
    Ok(())
}

/// `reversi solve`: every position of an OBF file, solved.
fn run_solve(args: SolveArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let threads = args.threads.map_or_else(all_cores, |t| t as usize);
    let first = args.first.map(|f| f as usize);
    solve::run(&args.file, args.hash as usize, threads, first, out)?;
    Ok(())
}

/// `reversi probcut`: ProbCut's margins, measured.
fn run_probcut(args: ProbcutArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    probcut::run(
        args.max_depth,
        args.games as usize,
        args.per_game as usize,
        args.endgame,
        io::stdin().lock(),
        out,
    )?;
    Ok(())
}

/// `reversi bench`: fixed searches, a row each as it ends, and the total.
fn run_bench(args: BenchArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let mut written = Ok(());
    let results = bench::run(
        args.threads as usize,
        args.midgame_depth as u32,
        args.eval,
        |r| {
            if written.is_ok() {
                written = writeln!(out, "{}", bench::row(r));
            }
        },
    );
    written?;
    writeln!(out, "{}", bench::total(&results))?;
    Ok(())
}

/// `reversi train`: the pattern evaluation fitted on game records.
fn run_train(args: TrainArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let prior = args
        .prior
        .map(|path| train::Prior::read(&path, args.prior_strength))
        .transpose()?;
    let cfg = train::TrainConfig {
        solve_empties: args.solve_empties,
        epochs: args.epochs as usize,
        holdout: args.holdout,
        threads: args.threads as usize,
        seed: 1,
        rate: args.rate,
        label: args.label_depth.map(|depth| train::Labels {
            depth,
            file: args.labels,
            weights: args.label_weights,
        }),
        prior,
    };
    let mut extra = Vec::new();
    for path in &args.selfplay {
        extra.extend(selfplay::samples(
            &selfplay::read(path)?,
            args.selfplay_target,
        ));
    }
    let input = io::stdin().lock();
    let cache = args.cache.as_deref();
    let output = match (&args.out, &args.export) {
        (Some(path), _) => train::Output::Weights(path),
        (None, Some(path)) => train::Output::Export(path),
        (None, None) => unreachable!("clap requires --out or --export"),
    };
    train::run(output, &cfg, args.limit, cache, &extra, input, out)?;
    Ok(())
}

/// `reversi selfplay`: games of the engine against itself, labelled.
fn run_selfplay(args: SelfplayArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let cfg = selfplay::SelfplayConfig {
        games: args.games,
        seed: args.seed,
        shard: Shard::parse(&args.shard)?,
        opening: selfplay_openings(&args.openings)?,
        move_depth: args.move_depth,
        label_depth: args.label_depth,
        exact_empties: args.exact_empties,
        threads: args.threads as usize,
    };
    let played = selfplay::run(&cfg, &args.out)?;
    writeln!(out, "{played} games played into {}", args.out)?;
    Ok(())
}

/// `reversi analyze`: every move of each game against the best.
fn run_analyze(args: AnalyzeArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let text = if args.games == "-" {
        io::read_to_string(io::stdin().lock())?
    } else {
        std::fs::read_to_string(&args.games).map_err(|e| anyhow::anyhow!("{}: {e}", args.games))?
    };
    let games = analyze::read_games(&text, args.size)?;
    if !args.phases.is_sorted_by(|a, b| a > b) {
        anyhow::bail!("--phases must be given largest first, each once");
    }
    let svg = args
        .svg
        .as_deref()
        .map(reversi::sealed::Pending::start)
        .transpose()?;
    let html = args
        .html
        .as_deref()
        .map(reversi::sealed::Pending::start)
        .transpose()?;
    let cfg = analysis::AnalyzeConfig {
        budget: match args.time_ms {
            Some(ms) => analysis::Budget::Time(Duration::from_millis(ms)),
            None => analysis::Budget::Depth(args.depth),
        },
        exact_empties: args.exact_empties,
        threads: args.threads as usize,
        mistake: args.mistake,
        blunder: args.blunder,
        eval: args.eval,
        hash_mb: args.hash as usize,
        shard: Shard::parse(&args.shard)?,
        phases: args.phases,
        stop: StopToken::new(),
    };
    let bar = reversi::tools::progress(0, "{bar:40} {pos}/{len} moves, {elapsed} (eta {eta})");
    let analyses = analysis::analyze(&games, &cfg, &|done, all| {
        bar.set_length(all as u64);
        bar.set_position(done as u64);
    });
    bar.finish_and_clear();
    if let Some(file) = html {
        let page = analysis::picture::html(&analyses, &cfg)
            .map_err(|e| anyhow::anyhow!("the page: {e}"))?;
        file.finish(page.as_bytes())?;
    }
    if let Some(file) = svg {
        file.finish(
            analysis::picture::svg(&analyses)
                .map_err(|e| anyhow::anyhow!("the graph: {e}"))?
                .as_bytes(),
        )?;
    }
    if args.json {
        analysis::report::write_json(&analyses, out)?;
    } else {
        analysis::report::write_text(&analyses, out)?;
    }
    Ok(())
}

/// `reversi openings`: a balanced opening suite from recorded games.
fn run_openings(args: OpeningsArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let games = if args.games == "-" {
        book::read_games(io::stdin().lock())?
    } else {
        let file =
            std::fs::File::open(&args.games).map_err(|e| anyhow::anyhow!("{}: {e}", args.games))?;
        book::read_games(io::BufReader::new(file))?
    };
    let cfg = openings::SuiteConfig {
        plies: args.plies as usize,
        min_games: args.min_games,
        depth: args.depth,
        max_discs: args.max_discs,
    };
    let bar = reversi::tools::progress(
        0,
        "{bar:40} {pos}/{len} openings searched, {elapsed} (eta {eta})",
    );
    let (kept, of) = openings::make_suite(&games, &cfg, &args.out, |done, all| {
        bar.set_length(all as u64);
        bar.set_position(done as u64);
    })?;
    bar.finish_and_clear();
    writeln!(out, "{}: {kept} of {of} openings kept", args.out)?;
    Ok(())
}

/// `reversi book`: build, merge or show an opening book.
fn run_book(args: BookArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    match args.command {
        BookCommand::Build(b) => {
            let games = if b.games == "-" {
                book::read_games(io::stdin().lock())?
            } else {
                let file = std::fs::File::open(&b.games)
                    .map_err(|e| anyhow::anyhow!("{}: {e}", b.games))?;
                book::read_games(io::BufReader::new(file))?
            };
            let settings = reversi::book::Settings {
                plies: b.plies,
                min_games: b.min_games,
                depth: b.depth,
            };
            let what = book::build_book(games, settings, Shard::parse(&b.shard)?, &b.out)?;
            writeln!(out, "{}: {what}", b.out)?;
        }
        BookCommand::Extend(e) => {
            let shard = Shard::parse(&e.shard)?;
            let what = book::extend_book(&e.book, e.depth, e.min_games, shard, &e.out)?;
            writeln!(out, "{}: {what}", e.out)?;
        }
        BookCommand::Merge(m) => {
            let what = book::merge_parts(&m.parts, m.base.as_deref(), &m.out)?;
            writeln!(out, "{}: {what}", m.out)?;
        }
        BookCommand::Show(s) => {
            let shown = match &s.book {
                Some(path) => std::sync::Arc::new(book::load(path)?),
                None => reversi::book::repository(),
            };
            book::show(&shown, &s.moves.join(" "), out)?
        }
    }
    Ok(())
}

/// Each player's own time control from `--time-for`, by its number: a
/// player is named by its number (from 1) or the NAME it was given.
fn player_times(
    players: &[String],
    times: &[(String, TimeControl)],
) -> anyhow::Result<Vec<Option<TimeControl>>> {
    let mut out = vec![None; players.len()];
    for (who, time) in times {
        let by_number = who
            .parse::<usize>()
            .ok()
            .filter(|&k| (1..=players.len()).contains(&k))
            .map(|k| k - 1);
        let by_name = || {
            players.iter().position(|p| {
                let (name, spec) = split_name(p);
                name != spec && name == who
            })
        };
        let Some(k) = by_number.or_else(by_name) else {
            anyhow::bail!(
                "--time-for {}: no player {} (a number from 1 to {}, or a NAME= given)",
                printable(who),
                printable(who),
                players.len()
            );
        };
        if out[k].replace(*time).is_some() {
            anyhow::bail!("--time-for: player {} is given two times", k + 1);
        }
    }
    Ok(out)
}

/// The openings of a match: those given, else none when a player is a
/// Lab 8 program (it plays from the start position only), else 4 random
/// plies.
fn match_openings(args: &MatchArgs) -> String {
    let lab8 = args
        .players
        .iter()
        .any(|p| split_name(p).1.starts_with("lab8:"));
    match &args.openings {
        Some(spec) => spec.clone(),
        None if lab8 => "none".into(),
        None => "random:4".into(),
    }
}

/// `reversi match`: a match or a round robin, by the referee.
fn run_match_command(args: MatchArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    reversi::referee::adopt_orphans();
    let config = MatchConfig {
        size: args.size,
        games: args.games as usize,
        time: match (args.tc, args.game_time_ms) {
            (Some((main, increment)), _) => TimeControl::PerGame { main, increment },
            (None, Some(ms)) => TimeControl::PerGame {
                main: Duration::from_millis(ms),
                increment: Duration::ZERO,
            },
            (None, None) => TimeControl::PerMove(Duration::from_millis(args.time_ms)),
        },
        player_times: player_times(&args.players, &args.time_for)?,
        margin: Duration::from_millis(args.margin_ms),
        openings: Openings::parse(&match_openings(&args), args.size)?,
        max_plies: args.max_plies,
        seed: args.seed,
        nboard_depth: args.nboard_depth,
        threads: args.threads as usize,
        concurrency: args.concurrency as usize,
        sprt: args.sprt.as_deref().map(Sprt::parse).transpose()?,
        lab8_cpu: args.lab8_time == TimeRule::Cpu,
    };
    let files = MatchFiles {
        records: args.records.as_deref(),
        move_lists: args.move_lists.as_deref(),
        results: args.results.as_deref(),
        games_dir: args.games_dir.as_deref(),
    };
    run_match(
        &args.players,
        &config,
        Shard::parse(&args.shard)?,
        files,
        out,
    )?;
    Ok(())
}

/// `reversi leaderboard`: the Lab 8 Part 3 tournament, into a folder.
fn run_leaderboard(args: LeaderboardArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    reversi::referee::adopt_orphans();
    let cfg = LeaderboardConfig {
        size: args.size,
        time: Duration::from_millis(args.time_ms),
        margin: Duration::from_millis(args.margin_ms),
        qualifiers: args.qualifiers,
        wins_needed: args.wins,
        shard: Shard::parse(&args.shard)?,
        concurrency: args.concurrency as usize,
        cpu_time: args.time_rule == TimeRule::Cpu,
        submissions: args.submissions.map(std::path::PathBuf::from),
        compile: CompileConfig {
            command: args.compile,
            time: Duration::from_secs(args.compile_time_s),
        },
        build_only: args.build_only,
        analyze: args.analyze,
    };
    let programs: Vec<Entry> = args.programs.iter().map(|p| Entry::parse(p)).collect();
    let dir = std::path::Path::new(&args.out);
    leaderboard::run(&programs, &cfg, dir, out, &mut io::stderr())?;
    Ok(())
}

/// `reversi file-move`: one move on a board file.
fn run_file_move(args: FileMoveArgs, out: &mut dyn Write) -> anyhow::Result<()> {
    let line = file_move::run(&args.file, &args.color, &args.action, args.human.is_some())?;
    writeln!(out, "{line}")?;
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

/// The cores this process may use (1 when the system cannot say).
fn all_cores() -> usize {
    std::thread::available_parallelism()
        .map_or(1, |n| n.get())
        .min(players::MAX_THREADS)
}
