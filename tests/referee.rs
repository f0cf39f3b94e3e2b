//! The referee through the binary: fake engines written here as small
//! shell scripts that play an illegal move, answer late, die, hang or
//! babble each lose their games by forfeit while the match goes on, and the
//! records written are complete games.

mod common;

use common::{outcomes, reversi_ok};
use std::path::{Path, PathBuf};
use std::process::Command;

/// A fake engine: a shell script named `name` that appends every line it
/// reads to `<its path>.log` and answers it with the `case` arms `arms`.
fn fake_script(name: &str, arms: &str) -> PathBuf {
    let dir = common::shared_folder("fakes");
    let path = dir.join(name);
    let script = format!(
        "#!/bin/sh\nwhile IFS= read -r line; do\n  printf '%s\\n' \"$line\" >> \"$0.log\"\n  case \"$line\" in\n{arms}  esac\ndone\n"
    );
    std::fs::write(&path, script).unwrap();
    Command::new("chmod").arg("+x").arg(&path).status().unwrap();
    path
}

/// A fake GTP engine: answers `=` to everything except `genmove`, where it
/// runs `on_genmove` (shell code that should print a reply).
fn fake_engine(name: &str, on_genmove: &str) -> PathBuf {
    fake_script(
        name,
        &format!(
            "    genmove*) {on_genmove} ;;\n    quit*) printf '=\\n\\n'; exit 0 ;;\n    *) printf '=\\n\\n' ;;\n"
        ),
    )
}

/// Lateness allowed in these matches, in milliseconds: greedy answers at
/// once, and this is past any delay a loaded machine gives its reply.
const MARGIN_MS: &str = "2000";

/// How long a late fake engine takes: past 100 ms and the margin, and
/// short of the referee's wait for a reply (twice the limit, the margin
/// and 2 s), after which an engine is one that does not reply at all.
const LATE: &str = "sleep 3";

/// Runs `reversi match greedy cmd:<fake>` for `games` games; returns stdout.
fn referee(fake: &Path, games: usize) -> String {
    let fake = format!("cmd:{}", fake.display());
    let games = games.to_string();
    let args = ["match", "greedy", &fake, "--games", &games];
    reversi_ok(
        args.iter()
            .chain(&["--time-ms", "100", "--margin-ms", MARGIN_MS]),
    )
    .0
}

/// The table row of the player whose name starts with `prefix`.
fn row<'a>(table: &'a str, prefix: &str) -> &'a str {
    table
        .lines()
        .find(|l| l.starts_with(prefix))
        .expect("a row")
}

#[test]
fn an_illegal_move_loses() {
    let fake = fake_engine("illegal", "printf '= a1\\n\\n'");
    let table = referee(&fake, 2);
    assert!(row(&table, "greedy").contains(" 2-0-0 "), "{table}");
    assert!(row(&table, "cmd:").ends_with("2 illegal"), "{table}");
}

#[test]
fn a_late_move_loses() {
    let fake = fake_engine("late", &format!("{LATE}; printf '= d3\\n\\n'"));
    let table = referee(&fake, 2);
    assert!(row(&table, "cmd:").ends_with("2 late"), "{table}");
}

#[test]
fn a_game_clock_runs_over_moves_and_runs_out() {
    // A 5 s clock: the first move comes at once, the second after 6 s;
    // under a per-move limit of 5 s both would be in time, on the clock
    // the second is late whatever the machine's load.
    let fake = fake_engine(
        "clocked",
        "n=$(cat \"$0.n\" 2>/dev/null || echo 0); echo $((n + 1)) > \"$0.n\"; \
         [ \"$n\" -ge 1 ] && sleep 6; printf '= d3\\n\\n'",
    );
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["match", &format!("cmd:{}", fake.display()), "greedy"])
        .args(["--games", "1", "--openings", "none"])
        .args(["--game-time-ms", "5000", "--margin-ms", "50"])
        .output()
        .unwrap();
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains("5000 ms a game"), "{table}");
    assert!(row(&table, "cmd:").ends_with("1 late"), "{table}");
    let log = std::fs::read_to_string(fake.with_extension("log")).unwrap();
    assert!(log.contains("time_settings 5 0 0"), "{log}");
    let left: Vec<f64> = log
        .lines()
        .filter_map(|l| l.strip_prefix("time_left black "))
        .map(|l| l.split(' ').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(left.len(), 2, "{log}");
    assert_eq!(left[0], 5.0);
    // The first move's time is charged to the clock.
    assert!(left[1] > 0.0 && left[1] < 5.0, "{log}");
}

#[test]
fn an_engine_that_dies_loses_and_is_restarted() {
    let fake = fake_engine("dies", "exit 3");
    let table = referee(&fake, 2);
    assert!(row(&table, "cmd:").ends_with("2 died"), "{table}");
}

#[test]
fn garbage_and_silence_lose() {
    let babble = fake_engine("babble", "printf 'hello\\n= not-a-move\\n\\n'");
    let table = referee(&babble, 2);
    assert!(row(&table, "cmd:").ends_with("2 unreadable"), "{table}");
    let silent = fake_engine("silent", "sleep 30");
    let table = referee(&silent, 1);
    assert!(row(&table, "cmd:").ends_with("1 no reply"), "{table}");
}

#[test]
fn records_hold_every_game() {
    let dir = common::fresh_folder("records", "dir");
    let ggf = dir.join("games.ggf");
    let lists = dir.join("games.txt");
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args([
            "match",
            "greedy",
            "smarter",
            "--games",
            "4",
            "--size",
            "6",
            "--openings",
            "random:2",
        ])
        .arg("--records")
        .arg(&ggf)
        .arg("--move-lists")
        .arg(&lists)
        .output()
        .unwrap();
    assert!(out.status.success());
    let ggf = std::fs::read_to_string(&ggf).unwrap();
    let lists = std::fs::read_to_string(&lists).unwrap();
    assert_eq!(ggf.lines().count(), 4);
    assert_eq!(lists.lines().count(), 4);
    for (g, l) in ggf.lines().zip(lists.lines()) {
        assert!(g.starts_with("(;GM[Othello]") && g.ends_with(";)") && g.contains("TY[6]BO[6 "));
        // Replay the move list: every move legal, and the game is over.
        let state = Command::new(env!("CARGO_BIN_EXE_reversi"))
            .args(["state", "--size", "6", l])
            .output()
            .unwrap();
        assert!(state.status.success(), "{l}");
    }
    let table = String::from_utf8(out.stdout).unwrap();
    assert!(table.contains("6x6, 4 games per pairing"));
}

#[test]
fn a_tournament_ranks_by_lab8_points() {
    let (text, _) = reversi_ok([
        "match",
        "first",
        "greedy",
        "norvig:2",
        "--games",
        "2",
        "--openings",
        "none",
    ]);
    let board = text.split("leaderboard").nth(1).expect("a leaderboard");
    let points: f64 = board
        .lines()
        .filter(|l| l.trim_start().starts_with('1'))
        .map(|l| l.split_whitespace().nth(2).unwrap().parse::<f64>().unwrap())
        .next()
        .unwrap();
    // 3 players, 2 games each pairing: 6 games, 12 points in all; the
    // winner has at least a third of them.
    assert!(points >= 4.0, "{text}");
    let total: f64 = board
        .lines()
        .skip(2)
        .filter_map(|l| l.split_whitespace().nth(2)?.parse::<f64>().ok())
        .sum();
    assert!((total - 12.0).abs() < 1e-6, "{text}");
}

/// Runs `reversi match greedy <contestant>` for `games` games with records;
/// returns (stdout, stderr, the GGF records).
fn referee_with_records(contestant: &str, games: usize) -> (String, String, String) {
    // One file per call: tests run in parallel.
    static CALLS: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
    let call = CALLS.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
    let scratch = common::fresh_folder("records", &format!("call-{call}"));
    let ggf = scratch.join("records.ggf");
    let games = games.to_string();
    let (stdout, stderr) = reversi_ok([
        "match",
        "greedy",
        contestant,
        "--games",
        &games,
        "--time-ms",
        "100",
        "--margin-ms",
        MARGIN_MS,
        "--records",
        ggf.to_str().unwrap(),
    ]);
    let records = std::fs::read_to_string(&ggf).unwrap();
    (stdout, stderr, records)
}

#[test]
fn forfeits_are_recorded_as_ggf_forfeits_and_scored_as_whole_boards() {
    let late = fake_engine("late-records", &format!("{LATE}; printf '= d3\\n\\n'"));
    let (table, _, records) = referee_with_records(&format!("cmd:{}", late.display()), 2);
    // Greedy has Black in game 1, White in game 2.
    let lines: Vec<&str> = records.lines().collect();
    assert!(lines[0].contains("RE[+64:t]"), "{records}");
    assert!(lines[1].contains("RE[-64:t]"), "{records}");
    assert!(row(&table, "greedy").contains(" +64.0 "), "{table}");
    let dies = fake_engine("dies-records", "exit 3");
    let (_, _, records) = referee_with_records(&format!("cmd:{}", dies.display()), 1);
    assert!(records.contains("RE[+64:r]"), "{records}");
}

#[test]
fn why_an_engine_died_is_shown_with_its_forfeit() {
    let (table, stderr, _) = referee_with_records("cmd:/nonexistent/engine", 1);
    assert!(row(&table, "cmd:").ends_with("1 died"), "{table}");
    assert!(
        stderr.contains("forfeits: engine died; its stderr ended: ")
            && stderr.contains("/nonexistent/engine")
            && stderr.contains("not found"),
        "{stderr}"
    );
    // A flood on stderr is cut to its last lines, each cut short.
    let flood = fake_engine(
        "flood",
        "i=0; while [ $i -lt 2000 ]; do printf '%0500d\\n' $i >&2; i=$((i+1)); done; exit 1",
    );
    let (_, stderr, _) = referee_with_records(&format!("cmd:{}", flood.display()), 1);
    let line = stderr
        .lines()
        .find(|l| l.contains("forfeits"))
        .expect("a forfeit line");
    assert!(line.len() < 5 * 220 + 200, "{} bytes", line.len());
    assert!(line.contains("|"), "{line}");
}

#[test]
fn an_engine_and_its_children_are_ended_after_the_match() {
    // The engine starts a child that would outlive it, writes the child's
    // pid, then hangs on genmove.
    let dir = common::shared_folder("fakes");
    let pid_file = dir.join("child.pid");
    let spawner = fake_engine(
        "spawner",
        &format!("sleep 1000 & echo $! > '{}'; sleep 30", pid_file.display()),
    );
    let table = referee(&spawner, 1);
    assert!(row(&table, "cmd:").ends_with("1 no reply"), "{table}");
    let pid = std::fs::read_to_string(&pid_file).unwrap();
    let pid = pid.trim();
    // A killed child may linger a moment as a zombie of init's.
    let alive = || {
        std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .is_ok_and(|s| !s.split(") ").nth(1).unwrap_or("").starts_with('Z'))
    };
    common::wait_gone(pid.parse().unwrap(), std::time::Duration::from_secs(5));
    assert!(!alive(), "the engine's child {pid} still runs");
}

/// A fake NBoard engine: answers `pong N` to `ping N`, runs `on_go` (shell
/// code) on `go`, ignores the rest.
fn fake_nboard_engine(name: &str, on_go: &str) -> PathBuf {
    fake_script(
        name,
        &format!(
            "    ping*) echo \"pong ${{line#ping }}\" ;;\n    go) {on_go} ;;\n    quit) exit 0 ;;\n"
        ),
    )
}

#[test]
fn nboard_engines_that_lie_crash_or_hang_lose() {
    let nboard = |fake: &Path| format!("nboard:{}", fake.display());
    let liar = fake_nboard_engine("nb-liar", "echo 'status thinking'; echo '=== A1/0.00/0.01'");
    let (table, _, records) = referee_with_records(&nboard(&liar), 2);
    assert!(row(&table, "nboard:").ends_with("2 illegal"), "{table}");
    assert_eq!(records.lines().count(), 2);
    // What it was told: the protocol, the depth and a ping that waits for
    // it to be ready, then for each move the whole game with a clock (a
    // time per move: no main time, 100 ms of increment), a ping and `go`.
    let log = std::fs::read_to_string(liar.with_extension("log")).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    assert_eq!(&lines[..3], ["nboard 2", "set depth 60", "ping 1"], "{log}");
    assert!(
        lines[3].starts_with("set game (;GM[Othello]")
            && lines[3].contains("RE[?]TI[0:00.000/0:00.100]"),
        "{log}"
    );
    assert_eq!(&lines[4..6], ["ping 2", "go"], "{log}");
    let crasher = fake_nboard_engine("nb-crash", "echo 'it broke' >&2; exit 4");
    let (table, stderr, _) = referee_with_records(&nboard(&crasher), 1);
    assert!(row(&table, "nboard:").ends_with("1 died"), "{table}");
    assert!(stderr.contains("its stderr ended: it broke"), "{stderr}");
    let hanger = fake_nboard_engine("nb-hang", "sleep 30");
    let (table, _, _) = referee_with_records(&nboard(&hanger), 1);
    assert!(row(&table, "nboard:").ends_with("1 no reply"), "{table}");
}

#[test]
fn our_nboard_engine_keeps_a_time_per_move() {
    let bin = env!("CARGO_BIN_EXE_reversi");
    for (ms, plies) in [("100", "60"), ("1000", "12")] {
        let scratch = common::fresh_folder("nboard-time", ms);
        let log = scratch.join("engine.log");
        let engine = format!("nboard:sh -c 'tee {} | {bin} nboard'", log.display());
        let out = Command::new(bin)
            .args([
                "match",
                "greedy",
                &engine,
                "--games",
                "2",
                "--openings",
                "none",
            ])
            .args([
                "--time-ms",
                ms,
                "--max-plies",
                plies,
                "--margin-ms",
                MARGIN_MS,
            ])
            .output()
            .unwrap();
        let table = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success() && row(&table, "nboard:").ends_with("  -"),
            "{table}"
        );
        // Each move's GGF gives no main time and the limit as increment,
        // and charges each earlier move of the engine a whole increment:
        // it has the limit for this move, and nothing saved.
        let told = std::fs::read_to_string(&log).unwrap();
        let limit = format!("{:.3}", ms.parse::<f64>().unwrap() / 1000.0);
        let clock = format!("TI[0:00.000/0:0{limit}]");
        let games: Vec<&str> = told.lines().filter(|l| l.starts_with("set game")).collect();
        assert!(games.iter().all(|g| g.contains(&clock)), "{told}");
        // Greedy has Black in the first game: the engine's moves are White's.
        assert!(
            games
                .iter()
                .any(|g| g.matches("]W[").count() >= 2 && g.contains(&format!("//{limit}]"))),
            "{told}"
        );
    }
}

/// The deterministic columns of a table's rows (name to discs), the times
/// left out.
fn outcome_columns(table: &str) -> Vec<String> {
    table
        .lines()
        .filter(|l| l.starts_with("first") || l.starts_with("greedy") || l.starts_with("smarter"))
        .map(|l| l.split_whitespace().take(6).collect::<Vec<_>>().join(" "))
        .collect()
}

#[test]
fn match_shards_merge_into_the_whole_match() {
    let dir = common::fresh_folder("shards", "dir");
    let run = |extra: &[&str]| {
        let args = ["match", "first", "greedy", "smarter", "--games", "6"];
        reversi_ok(
            args.iter()
                .chain(&["--size", "6", "--seed", "5"])
                .chain(extra),
        )
        .0
    };
    let whole = run(&[]);
    let mut files = Vec::new();
    for k in [3, 1, 2] {
        let path = dir.join(format!("r{k}.txt"));
        let part = run(&[
            "--shard",
            &format!("{k}/3"),
            "--results",
            path.to_str().unwrap(),
        ]);
        assert!(part.contains(&format!(", shard {k}/3")), "{part}");
        files.push(path);
    }
    let (merged, _) = reversi_ok(
        std::iter::once("match-merge".as_ref()).chain(files.iter().map(|f| f.as_os_str())),
    );
    assert_eq!(
        outcome_columns(&merged),
        outcome_columns(&whole),
        "{merged}\n{whole}"
    );
    assert_eq!(merged.lines().next(), whole.lines().next());
    // Two shards of three: the games no file holds are named (shard 3/3
    // holds games 2 and 5 of each of the three pairings).
    let (heading, warning) = reversi_ok(
        std::iter::once("match-merge".as_ref()).chain(files[1..].iter().map(|f| f.as_os_str())),
    );
    assert!(
        warning.contains("6 of the 18 games are in no file") && warning.contains("0:2 0:5 1:2"),
        "{warning}"
    );
    assert!(
        heading
            .lines()
            .next()
            .unwrap()
            .ends_with(", 12 of 18 games"),
        "{heading}"
    );
    // Results of another match do not merge in.
    let other = dir.join("other.txt");
    reversi_ok([
        "match",
        "first",
        "greedy",
        "--games",
        "2",
        "--results",
        other.to_str().unwrap(),
    ]);
    let mixed = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .arg("match-merge")
        .arg(&files[0])
        .arg(&other)
        .output()
        .unwrap();
    assert_eq!(mixed.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&mixed.stderr).contains("different matches"));
}

/// Whether any process of group `group` runs (zombies, which init reaps
/// in its own time, do not count).
fn group_runs(group: &str) -> bool {
    !common::group_members(group).is_empty()
}

#[test]
fn an_interrupted_referee_ends_its_engines() {
    for (signal, status) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        // An engine that ignores those signals and EOF, says its group
        // once it runs, and hangs on genmove with a child of its own.
        let pid_file = common::shared_folder("fakes").join(format!("stubborn-{signal}.pid"));
        let pid_sent = common::fifo(&pid_file);
        let stubborn = fake_script(
            &format!("stubborn-{signal}"),
            &format!(
                "    genmove*) echo $$ > '{}'; sleep 1000 ;;\n    *) printf '=\\n\\n' ;;\n",
                pid_file.display()
            ),
        );
        let script = std::fs::read_to_string(&stubborn).unwrap();
        let script = script.replacen("#!/bin/sh\n", "#!/bin/sh\ntrap '' INT TERM HUP\n", 1)
            + "while :; do sleep 1; done\n";
        std::fs::write(&stubborn, script).unwrap();
        let referee = Command::new(env!("CARGO_BIN_EXE_reversi"))
            .args(["match", &format!("cmd:{}", stubborn.display()), "greedy"])
            .args(["--games", "2", "--time-ms", "600000", "--openings", "none"])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // The engine is thinking once its pid is written.
        let group = pid_sent
            .recv_timeout(std::time::Duration::from_secs(60))
            .expect("the engine gets genmove");
        assert!(group_runs(&group));
        Command::new("kill")
            .args([&format!("-{signal}"), &referee.id().to_string()])
            .status()
            .unwrap();
        let out = referee.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(status), "SIG{signal}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("1 engine(s) ended"), "{err}");
        // The group was killed before the referee exited; its processes
        // may take a moment to end.
        for pid in common::group_members(&group) {
            common::wait_gone(pid, std::time::Duration::from_secs(10));
        }
        assert!(
            !group_runs(&group),
            "SIG{signal}: engine group {group} still runs"
        );
    }
}

/// `reversi match <args>`: (stdout, stderr); it must succeed.
fn match_run(args: &[&str]) -> (String, String) {
    let out = common::run(&[&["match"], args].concat(), b"");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{err}");
    (String::from_utf8(out.stdout).unwrap(), err)
}

#[test]
fn an_sprt_stops_once_it_has_decided() {
    // Greedy against random (about +80 Elo here): H1 of +50 is accepted
    // long before the 2,000 games.
    let (table, err) = match_run(&[
        "greedy",
        "random",
        "--games",
        "2000",
        "--sprt",
        "elo0=0,elo1=50",
        "--concurrency",
        "2",
        "--margin-ms",
        MARGIN_MS,
    ]);
    let sprt = table.lines().last().unwrap();
    assert!(sprt.contains("H1 accepted (elo 50 or more)"), "{table}");
    assert!(err.contains("H1 accepted"), "{err}");
    let games: usize = row(&table, "greedy")
        .split_whitespace()
        .nth(1)
        .unwrap()
        .parse()
        .unwrap();
    // Two games at once: a game of the next pair may have ended before
    // the deciding one, so the games are the pairs' and at most one more
    // a worker.
    assert!(games < 400, "{table}");
    let pairs: usize = table
        .lines()
        .find_map(|l| l.strip_suffix(", for greedy"))
        .and_then(|l| l.split(' ').next())
        .and_then(|n| n.parse().ok())
        .expect("a pairs line");
    assert!(2 * pairs <= games && games <= 2 * pairs + 2, "{table}"); // Identical players: H0 of no difference is accepted.
    let (table, _) = match_run(&[
        "greedy",
        "greedy",
        "--games",
        "2000",
        "--sprt",
        "elo0=0,elo1=20",
        "--margin-ms",
        MARGIN_MS,
    ]);
    assert!(table.contains("H0 accepted (elo 0 or less)"), "{table}");
    // A round robin has no single pair of players to test.
    let out = common::run(
        &[
            "match",
            "greedy",
            "random",
            "first",
            "--sprt",
            "elo0=0,elo1=5",
        ],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--sprt needs a match of two players"));
}

#[test]
fn games_in_parallel_come_out_as_one_at_a_time() {
    // Fixed-depth and seeded players, a round robin on random openings:
    // each game's result depends on its number alone, in a run that
    // resumes a stopped one too.
    let dir = common::fresh_folder("concurrency", "dir");
    // A run's results (resuming what `keep` of the results file's lines
    // hold, when given).
    let played = |concurrency: &str, keep: Option<usize>| {
        let results = dir.join(format!("r{concurrency}.txt"));
        match keep {
            Some(lines) => {
                let text = std::fs::read_to_string(&results).unwrap();
                let kept: String = text.split_inclusive('\n').take(lines).collect();
                std::fs::write(&results, kept).unwrap();
            }
            None => {
                let _ = std::fs::remove_file(&results);
            }
        }
        match_run(&[
            "norvig:2",
            "random:7",
            "greedy",
            "--games",
            "8",
            "--concurrency",
            concurrency,
            "--results",
            results.to_str().unwrap(),
            "--margin-ms",
            MARGIN_MS,
        ]);
        outcomes(&std::fs::read(&results).unwrap())
    };
    let one = played("1", None);
    assert_eq!(one.len(), 24);
    assert_eq!(played("2", None), one);
    assert_eq!(played("3", None), one);
    // Stopped after 10 results (the header is 8 lines): the same command
    // plays the other 14, and the whole comes out the same.
    assert_eq!(played("2", Some(8 + 10)), one);
}

#[test]
fn opening_suites_start_every_kind_of_contestant_alike() {
    // Two OBF positions (FFO #40 and #41, 20 empties), each played with
    // both colours by greedy against our own daemon over GTP (told the
    // position with `setup`) and over NBoard (in the GGF's BO).
    let dir = common::fresh_folder("suites", "dir");
    let obf = dir.join("two.obf");
    std::fs::write(
        &obf,
        "% two FFO positions\n\
         O--OOOOX-OOOOOOXOOXXOOOXOOXOOOXXOOOOOOXX---OOOOX----O--X-------- X; A2:+38;\n\
         -OOOOO----OOOOX--OOOOOO-XXXXXOO--XXOOX--OOXOXX----OXXO---OOO--O- X; H4:+0;\n",
    )
    .unwrap();
    let bin = env!("CARGO_BIN_EXE_reversi");
    let spec = format!("obf:{}", obf.display());
    for engine in [format!("cmd:{bin} gtp"), format!("nboard:{bin} nboard")] {
        let results = dir.join("results.txt");
        let _ = std::fs::remove_file(&results);
        let (table, err) = match_run(&[
            "greedy",
            &engine,
            "--games",
            "4",
            "--openings",
            &spec,
            "--time-ms",
            "200",
            "--margin-ms",
            MARGIN_MS,
            "--results",
            results.to_str().unwrap(),
        ]);
        assert!(row(&table, "greedy").ends_with("  -"), "{table}\n{err}");
        assert!(
            table.starts_with(
                "8x8, 4 games per pairing, 200 ms a move (+2000 ms margin), openings 2 from obf"
            ),
            "{table}"
        );
        // Games that start with 20 empties last at most about 20 plies.
        let games: Vec<usize> = std::fs::read_to_string(&results)
            .unwrap()
            .lines()
            .filter_map(|l| l.strip_prefix("result "))
            .map(|l| {
                let w: Vec<&str> = l.split(' ').collect();
                w[6].parse::<usize>().unwrap() + w[9].parse::<usize>().unwrap()
            })
            .collect();
        assert_eq!(games.len(), 4);
        assert!(games.iter().all(|&moves| moves <= 22), "{games:?}");
    }
}

#[test]
fn a_fischer_clock_reaches_every_kind_of_contestant() {
    let bin = env!("CARGO_BIN_EXE_reversi");
    let dir = common::fresh_folder("fischer", "dir");
    let (gtp_log, nboard_log) = (dir.join("gtp.log"), dir.join("nboard.log"));
    let engines = [
        "strong".to_string(),
        format!("cmd:sh -c 'tee {} | {bin} gtp'", gtp_log.display()),
        format!("nboard:sh -c 'tee {} | {bin} nboard'", nboard_log.display()),
    ];
    for engine in &engines {
        let records = dir.join("games.ggf");
        let _ = std::fs::remove_file(&records);
        let (table, err) = match_run(&[
            "greedy",
            engine,
            "--games",
            "2",
            "--tc",
            "0.5+0.05",
            "--margin-ms",
            MARGIN_MS,
            "--records",
            records.to_str().unwrap(),
        ]);
        assert!(table.contains("500 ms a game + 50 ms a move"), "{table}");
        let row = table.lines().nth(3).unwrap();
        assert!(row.ends_with("  -"), "{table}\n{err}");
        let ggf = std::fs::read_to_string(&records).unwrap();
        assert_eq!(ggf.matches("TI[0.5/0.05]").count(), 2, "{ggf}");
    }
    // GTP: main time and the increment as a byo-yomi of one move, then
    // what is left (before the move's increment) before each genmove.
    let told = std::fs::read_to_string(&gtp_log).unwrap();
    assert!(told.contains("time_settings 0.5 0.05 1"), "{told}");
    assert!(told.lines().any(|l| l.starts_with("time_left ")), "{told}");
    // NBoard: the clock in TI, each move's time beside it.
    let told = std::fs::read_to_string(&nboard_log).unwrap();
    assert!(told.contains("TI[0:00.500/0:00.050]"), "{told}");
}

#[test]
fn each_engine_is_told_its_own_time() {
    // Two engines of one match on different times, as a time-odds match
    // gives them: each is told its own, and the records give both.
    let bin = env!("CARGO_BIN_EXE_reversi");
    let dir = common::fresh_folder("time", "for");
    let (fast_log, slow_log) = (dir.join("fast.log"), dir.join("slow.log"));
    let records = dir.join("games.ggf");
    let (table, err) = match_run(&[
        &format!("fast=cmd:sh -c 'tee {} | {bin} gtp'", fast_log.display()),
        &format!(
            "slow=nboard:sh -c 'tee {} | {bin} nboard'",
            slow_log.display()
        ),
        "--games",
        "2",
        "--time-ms",
        "30",
        "--time-for",
        "slow=tc:0.5+0.05",
        "--margin-ms",
        MARGIN_MS,
        "--records",
        records.to_str().unwrap(),
    ]);
    assert!(
        table.starts_with(
            "8x8, 2 games per pairing, 30 ms a move, player 2 500 ms a game + 50 ms a move"
        ),
        "{table}"
    );
    assert!(
        table.lines().nth(2).unwrap().ends_with("  -"),
        "{table}\n{err}"
    );
    let told = std::fs::read_to_string(&fast_log).unwrap();
    assert!(told.contains("set movetime 30"), "{told}");
    let told = std::fs::read_to_string(&slow_log).unwrap();
    assert!(told.contains("TI[0:00.500/0:00.050]"), "{told}");
    let ggf = std::fs::read_to_string(&records).unwrap();
    assert!(
        ggf.contains("PB[fast]PW[slow]RE[") && ggf.contains("TB[0/0.03]TW[0.5/0.05]"),
        "{ggf}"
    );
    assert!(
        ggf.contains("PB[slow]PW[fast]RE[") && ggf.contains("TB[0.5/0.05]TW[0/0.03]"),
        "{ggf}"
    );
    // A player that is not in the match is refused before any game.
    let out = common::run(
        &["match", "greedy", "first", "--time-for", "third=100"],
        b"",
    );
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no player third"));
}

#[test]
fn a_process_that_leaves_its_engines_group_is_ended_with_the_game() {
    // The engine starts a child in a session of its own (out of reach of
    // its group's kill), says the child's pid, then dies on genmove.
    let dir = common::shared_folder("fakes");
    let pid_file = dir.join("escaped.pid");
    let _ = std::fs::remove_file(&pid_file);
    let escaper = fake_engine(
        "escaper",
        &format!(
            "setsid sh -c 'echo $$ > {0}.part; mv {0}.part {0}; exec sleep 1000' </dev/null >/dev/null 2>&1 & \
             while [ ! -s {0} ]; do sleep 0.01; done; exit 3",
            pid_file.display()
        ),
    );
    let table = referee(&escaper, 1);
    assert!(row(&table, "cmd:").ends_with("1 died"), "{table}");
    let pid: i32 = std::fs::read_to_string(&pid_file)
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    // The referee has exited: the child must be gone already.
    assert!(
        common::wait_gone(pid, std::time::Duration::ZERO),
        "the escaped child {pid} still runs"
    );
}
