//! Lab 8 programs as contestants (`lab8:<command line>`), through the real
//! binary: a C program written like students' (it never flushes its
//! output) built here with the system's C compiler, in each way it can
//! misbehave, and the project's own `reversi lab8`. Each game ends with
//! the right result and a clear reason.

mod common;

use common::reversi_ok;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::OnceLock;

/// The test program, compiled once.
fn student() -> &'static Path {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| {
        let dir = common::shared_folder("lab8");
        let exe = dir.join("student");
        let source = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/lab8/student.c");
        let status = Command::new("cc")
            .args(["-O2", "-o"])
            .arg(&exe)
            .arg(source)
            .status()
            .expect("a C compiler (cc) builds the test program");
        assert!(status.success());
        exe
    })
}

/// `reversi match <a> <b> --games 2 --openings none` with a limit of
/// 200 ms a move and 1 s of margin (no C move comes near them); returns
/// (stdout, stderr).
fn play(a: &str, b: &str, extra: &[&str]) -> (String, String) {
    let args = ["match", a, b, "--games", "2", "--openings", "none"];
    reversi_ok(
        args.iter()
            .chain(&["--time-ms", "200", "--margin-ms", "1000"])
            .chain(extra),
    )
}

/// The student program in `mode` against greedy: its table row and the
/// referee's stderr.
fn student_against_greedy(mode: &str) -> (String, String) {
    let spec = format!("lab8:{} {mode}", student().display());
    let (table, err) = play(&spec, "greedy", &[]);
    let row = table
        .lines()
        .find(|l| l.starts_with("lab8:"))
        .expect("a row")
        .to_string();
    (row, err)
}

#[test]
fn a_program_that_never_flushes_plays_whole_games() {
    for mode in ["", "layout"] {
        let (row, err) = student_against_greedy(mode);
        assert!(row.ends_with("  -"), "{mode}: {row}\n{err}");
        // Both games played to the end: one each, by the first legal
        // move against greedy.
        assert!(row.contains(" 1-0-1 "), "{mode}: {row}");
    }
}

#[test]
fn each_kind_of_misbehaviour_forfeits_with_its_reason() {
    let cases = [
        ("crash 3", "2 died", "killed by signal 6 (SIGABRT)"),
        ("hang 3", "2 no reply", "forfeits: no reply"),
        ("deaf 3", "2 no reply", "forfeits: no reply"),
        ("illegal", "2 illegal", "illegal move e5"),
        ("colour", "2 illegal", "it played W cd for B"),
        (
            "garbage",
            "2 unreadable",
            "unreadable move 'Computer places B at ??.'",
        ),
        ("flood 2", "2 flooded", "printed more than 8 MB"),
        (
            "falsepass 3",
            "2 illegal",
            "a pass ('B player has no valid move.') with a legal move",
        ),
        (
            "invalid 2",
            "2 rejected a move",
            "called a legal move invalid; its last lines:",
        ),
    ];
    for (mode, column, reason) in cases {
        let (row, err) = student_against_greedy(mode);
        assert!(row.ends_with(column), "{mode}: {row}\n{err}");
        assert!(err.contains(reason), "{mode}: {err}");
    }
}

#[test]
fn a_wrong_verdict_is_noted_in_the_transcript_not_scored() {
    let dir = common::fresh_folder("lab8", "tr");
    let spec = format!("lab8:{} verdict", student().display());
    let (table, err) = play(&spec, "greedy", &["--games-dir", dir.to_str().unwrap()]);
    assert!(table.contains(" 1-0-1 "), "{table}");
    assert_eq!(err.matches("disagreement").count(), 2, "{err}");
    let mut files: Vec<String> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    // Each game's record, and the program's transcript of it.
    let name = "lab8_";
    assert_eq!(files.len(), 4, "{files:?}");
    assert!(files[0].starts_with(&format!("p0-g0-{name}")), "{files:?}");
    assert_eq!(files[1], "p0-g0.ggf");
    assert_eq!(files[3], "p0-g1.ggf");
    let record = std::fs::read_to_string(dir.join("p0-g0.ggf")).unwrap();
    assert!(record.starts_with("(;GM[Othello]"), "{record}");
    let transcript = std::fs::read_to_string(dir.join(&files[0])).unwrap();
    // Every line sent and received, with its time, and the note.
    assert!(transcript.starts_with("    0.000 > 8\n"), "{transcript}");
    assert!(transcript.contains(" < Computer places B at cd."));
    assert!(transcript.contains(" # disagreement: "));
    assert!(transcript.contains(" # the program exited with status 0"));
}

#[test]
fn our_own_lab8_program_plays_as_the_built_in_player_does() {
    // The lab program driven through its transcript makes the moves the
    // built-in player makes: the same games, the same discs.
    let lab8 = format!(
        "lab8:{} lab8 --player smartest",
        env!("CARGO_BIN_EXE_reversi")
    );
    let (through_lab8, _) = play(&lab8, "smarter", &[]);
    let (built_in, _) = play("smartest", "smarter", &[]);
    let columns = |table: &str, prefix: &str| {
        let row = table.lines().find(|l| l.starts_with(prefix)).unwrap();
        let words: Vec<&str> = row.split_whitespace().collect();
        words[words.len() - 10..words.len() - 4].join(" ")
    };
    assert_eq!(
        columns(&through_lab8, "lab8:"),
        columns(&built_in, "smartest"),
        "{through_lab8}\n{built_in}"
    );
    assert!(
        through_lab8
            .lines()
            .any(|l| l.starts_with("lab8:") && l.ends_with("  -"))
    );
    // Two programs against each other, each in its own terminal.
    let greedy = format!(
        "lab8:{} lab8 --player greedy",
        env!("CARGO_BIN_EXE_reversi")
    );
    let (table, err) = play(&lab8, &greedy, &[]);
    assert!(
        table.lines().filter(|l| l.ends_with("  -")).count() == 2,
        "{table}\n{err}"
    );
}

#[test]
fn lab8_programs_play_from_the_start_and_refuse_openings() {
    let spec = format!("lab8:{}", student().display());
    // With no --openings, a match with a Lab 8 program plays from the start.
    let (table, _) = reversi_ok(["match", "first", &spec, "--games", "2"]);
    assert!(table.contains("openings none"), "{table}");
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["match", &spec, "greedy", "--openings", "random:4"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("--openings none"));
}

#[test]
fn a_leaderboard_qualifies_plays_its_finals_and_writes_its_folder() {
    let dir = common::fresh_folder("leaderboard", "dir");
    let bin = env!("CARGO_BIN_EXE_reversi");
    let programs = [
        format!("ours=lab8:{bin} lab8 --player smartest"),
        "builtin=smartest".to_string(),
        format!("crashy=lab8:{} crash 5", student().display()),
        format!("first=lab8:{}", student().display()),
    ];
    let run = || {
        Command::new(bin)
            .arg("leaderboard")
            .args(&programs)
            .args(["--out", dir.to_str().unwrap()])
            // No program here hangs: a margin that a loaded machine's
            // delays to `lab8 --player smartest` (whose search the Part 1
            // transcript does not time) never reach.
            .args(["--time-ms", "200", "--margin-ms", "5000"])
            .output()
            .unwrap()
    };
    let out = run();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{stderr}");
    let standings = std::fs::read_to_string(dir.join("standings.txt")).unwrap();
    assert_eq!(String::from_utf8_lossy(&out.stdout), standings);
    let row = |name: &str| {
        standings
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no {name} in {standings}"))
            .to_string()
    };
    // smartest beats smarter with both colours and smartest with one.
    assert!(row("ours ").ends_with("3  yes"), "{standings}");
    assert!(row("builtin ").ends_with("3  yes"), "{standings}");
    assert!(row("crashy ").contains("L -64 (died)"), "{standings}");
    assert!(row("first ").ends_with("0  -"), "{standings}");
    // The finals: one win each, with the colour that wins.
    let finals: Vec<&str> = standings
        .lines()
        .skip_while(|l| !l.starts_with("Finals"))
        .skip(2)
        .take(2)
        .collect();
    assert_eq!(finals.len(), 2, "{standings}");
    for line in finals {
        let words: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(words[2..5], ["2.00", "2", "1-0-1"], "{standings}");
    }
    assert!(
        standings.contains("Forfeits by reason: 4 died"),
        "{standings}"
    );
    // One record a game, the transcripts of the Lab 8 programs beside them.
    let games_dir = |stage: &str| {
        let found = std::fs::read_dir(dir.join(stage))
            .unwrap()
            .map(|e| e.unwrap().path())
            .find(|p| {
                p.file_name()
                    .unwrap()
                    .to_string_lossy()
                    .starts_with("games-")
            });
        found.expect("a games folder")
    };
    let count = |stage: &str, ext: &str| {
        std::fs::read_dir(games_dir(stage))
            .unwrap()
            .filter(|e| {
                e.as_ref()
                    .unwrap()
                    .file_name()
                    .to_string_lossy()
                    .ends_with(ext)
            })
            .count()
    };
    assert_eq!(count("qualify", ".ggf"), 16);
    assert_eq!(count("final", ".ggf"), 2);
    assert_eq!(count("qualify", ".txt"), 12);
    let page = std::fs::read_to_string(dir.join("index.html")).unwrap();
    assert!(page.contains("const GAMES = ["), "no games in the page");
    assert!(page.contains("qualify-p0-g0") && page.contains("final-p0-g1"));
    // The same command again finds every game played.
    let again = run();
    assert!(again.status.success());
    let after = std::fs::read_to_string(dir.join("standings.txt")).unwrap();
    assert_eq!(String::from_utf8_lossy(&again.stdout), after);
    let unstamped = |s: &str| -> Vec<String> {
        s.lines()
            .filter(|l| !l.starts_with("Updated "))
            .map(str::to_string)
            .collect()
    };
    assert_eq!(unstamped(&after), unstamped(&standings));
    assert!(String::from_utf8_lossy(&again.stderr).contains("16 games played, 0 to play"));
}

#[test]
fn a_sharded_leaderboard_comes_to_the_same_standings() {
    let base = common::fresh_folder("lb", "shards");
    let bin = env!("CARGO_BIN_EXE_reversi");
    let programs = [
        format!("ours=lab8:{bin} lab8 --player smartest"),
        "builtin=smartest".to_string(),
        "greedy=greedy".to_string(),
        format!("first=lab8:{}", student().display()),
    ];
    let run = |dir: &Path, shard: &str| {
        let out = Command::new(bin)
            .arg("leaderboard")
            .args(&programs)
            .args(["--out", dir.to_str().unwrap(), "--shard", shard])
            // As above: no program here hangs.
            .args(["--time-ms", "200", "--margin-ms", "5000"])
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{err}");
        // No program here misbehaves.
        assert!(!err.contains("forfeits"), "{err}");
        String::from_utf8(out.stdout).unwrap()
    };
    // The standings but for times (the finals' order between equal
    // points, the timing columns, the largest move time).
    let results = |standings: &str| {
        let mut lines: Vec<String> = standings
            .lines()
            .filter(|l| !l.starts_with("Largest move time") && !l.starts_with("Updated "))
            .map(|l| {
                let words: Vec<&str> = l.split_whitespace().collect();
                if words.first().is_some_and(|w| w.parse::<usize>().is_ok()) {
                    words[1..6].join(" ")
                } else {
                    l.to_string()
                }
            })
            .collect();
        lines.sort();
        lines
    };
    let whole = run(&base.join("whole"), "1/1");
    let shared = base.join("shared");
    // The qualification's shards, then (it complete) the finals' shards.
    let first = run(&shared, "1/2");
    assert!(
        first.starts_with("qualify: 8 of 16 games played"),
        "{first}"
    );
    // Two finalists, one pairing: shard 1's.
    let second = run(&shared, "2/2");
    assert!(second.starts_with("final: 0 of 2 games played"), "{second}");
    assert_eq!(results(&run(&shared, "1/2")), results(&whole));
    // Run whole, the folder plays nothing more: every game is in the
    // shards' results files.
    assert_eq!(results(&run(&shared, "1/1")), results(&whole));
    let own: Vec<String> = std::fs::read_dir(shared.join("qualify"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|f| f.starts_with("results-") && !f.contains("-of-"))
        .collect();
    assert_eq!(own.len(), 1, "{own:?}");
    let own = std::fs::read_to_string(shared.join("qualify").join(&own[0])).unwrap();
    assert!(!own.contains("\nresult "), "{own}");
}

#[test]
fn an_interrupted_referee_leaves_no_sandbox_folder() {
    // A program that says it runs (through a named pipe) and hangs; the
    // referee, its temporary folder a fresh one, is interrupted then.
    let tmp = common::fresh_folder("lab8", "tmp");
    let pipes = common::fresh_folder("lab8", "fifo");
    let fifo = pipes.join("started");
    let started = common::fifo(&fifo);
    let program = format!("lab8:sh -c 'echo $$ > {}; sleep 1000'", fifo.display());
    let referee = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args([
            "match",
            &program,
            "greedy",
            "--games",
            "2",
            "--openings",
            "none",
        ])
        .args(["--time-ms", "600000"])
        .env("TMPDIR", &tmp)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    started
        .recv_timeout(std::time::Duration::from_secs(60))
        .expect("the program starts");
    Command::new("kill")
        .args(["-INT", &referee.id().to_string()])
        .status()
        .unwrap();
    let out = referee.wait_with_output().unwrap();
    assert_eq!(out.status.code(), Some(130));
    let left: Vec<_> = std::fs::read_dir(&tmp)
        .unwrap()
        .flatten()
        .map(|e| e.path())
        .collect();
    assert!(left.is_empty(), "left behind: {left:?}");
}

#[test]
fn programs_whose_transcripts_would_collide_are_refused() {
    // Unnamed command lines that share their first 60 characters, and one
    // name given twice, would write the same transcript files.
    let dir = common::fresh_folder("lab8", "same");
    let long = format!("lab8:{} {}", student().display(), "x".repeat(60));
    for (a, b) in [
        (format!("{long} 1"), format!("{long} 2")),
        ("bob=lab8:true".to_string(), "bob=lab8:false".to_string()),
    ] {
        let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
            .args(["match", &a, &b, "--openings", "none", "--games-dir"])
            .arg(&dir)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains("players 1 and 2 would write their transcripts to the same files"),
            "{err}"
        );
    }
}

/// `reversi match <program> first` on 4x4, two games at 1 s a move (50 ms
/// margin), Lab 8 moves timed by `rule`; returns the program's table row
/// and the referee's stderr.
fn timed_by(program: &str, rule: &str) -> (String, String) {
    let spec = format!("prog=lab8:{} {program}", student().display());
    let (table, err) = reversi_ok([
        "match",
        &spec,
        "first",
        "--games",
        "2",
        "--openings",
        "none",
        "--size",
        "4",
        "--time-ms",
        "1000",
        "--lab8-time",
        rule,
    ]);
    let row = table
        .lines()
        .find(|l| l.starts_with("prog "))
        .expect("a row");
    (format!("{}\n{row}", table.lines().next().unwrap()), err)
}

#[test]
fn a_program_asleep_for_1_5_s_a_move_is_within_1_s_of_cpu_time() {
    let (row, err) = timed_by("slow 2", "cpu");
    assert!(row.contains("Lab 8 programs on CPU time"), "{row}");
    assert!(row.ends_with("  -"), "{row}\n{err}");
    // On the wall clock, the same moves are late.
    let (row, err) = timed_by("slow 2", "wall");
    assert!(row.ends_with("2 late"), "{row}\n{err}");
}

#[test]
fn a_program_that_spins_1_5_s_of_cpu_time_is_late() {
    let (row, err) = timed_by("spin 1", "cpu");
    assert!(row.ends_with("2 late"), "{row}\n{err}");
    assert!(err.contains(" ms of CPU)"), "{err}");
}
