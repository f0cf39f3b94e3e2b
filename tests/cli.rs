//! Bad input to the subcommands through the real binary: every number is
//! bounded with a clear message (exit status 2, nothing written), and the
//! tools end on inputs that once made them loop or abort.

mod common;

use common::refused;
use std::process::{Command, Output, Stdio};

/// Runs `reversi args...` with `stdin` as input (killed after a minute).
fn reversi(args: &[&str], stdin: &str) -> Output {
    common::run(args, stdin.as_bytes())
}

#[test]
fn solve_bounds_its_table_and_refuses_an_empty_file() {
    let scratch = common::fresh_folder("cli", "solve-bounds");
    refused(
        &["solve", "--hash", "99999999", "x.obf"],
        "",
        "is not in 1..=4096",
    );
    refused(
        &["solve", "--hash", "18446744073709551615", "x.obf"],
        "",
        "is not in 1..=4096",
    );
    refused(&["solve", "--hash", "0", "x.obf"], "", "is not in 1..=4096");
    let empty = scratch.join("empty.obf");
    std::fs::write(&empty, "").unwrap();
    refused(&["solve", empty.to_str().unwrap()], "", "no positions");
    // A bad line is named by file and line.
    let bad = scratch.join("bad.obf");
    std::fs::write(&bad, "% a comment\nXXXX X\n").unwrap();
    let path = bad.to_str().unwrap();
    refused(
        &["solve", path],
        "",
        &format!("{path}, line 2: bad OBF line"),
    );
}

#[test]
fn solve_reports_search_and_wall_time() {
    let scratch = common::fresh_folder("cli", "solve-time");
    let file = concat!(env!("CARGO_MANIFEST_DIR"), "/data/ffo/fforum-20-39.obf");
    // FFO #20 alone (the first line), on a small table.
    let first = std::fs::read_to_string(file).unwrap();
    let one = scratch.join("ffo20.obf");
    std::fs::write(&one, first.lines().next().unwrap()).unwrap();
    let out = reversi(&["solve", "--hash", "8", one.to_str().unwrap()], "");
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let total = text.lines().last().unwrap();
    assert!(total.starts_with("total: 1 positions, 1/1 agree"), "{text}");
    assert!(total.ends_with(" s wall"), "{text}");
}

#[test]
fn latency_ends_when_openings_end_the_game_and_bounds_its_time() {
    let out = reversi(
        &[
            "latency",
            "--opening-plies",
            "70",
            "--moves",
            "1",
            "--movetime-ms",
            "20",
        ],
        "",
    );
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with("1 genmove replies on 8x8"), "{text}");
    refused(&["latency", "--movetime-ms", "0"], "", "is not in 1..=");
    refused(
        &["latency", "--movetime-ms", "18446744073709551615"],
        "",
        "is not in 1..=1000000000",
    );
}

#[test]
fn tool_times_counts_and_depths_are_bounded() {
    refused(
        &[
            "match",
            "greedy",
            "first",
            "--time-ms",
            "18446744073709551615",
        ],
        "",
        "is not in 1..=1000000000",
    );
    refused(
        &["match", "greedy", "first", "--game-time-ms", "0"],
        "",
        "is not in 1..=",
    );
    refused(
        &["match", "greedy", "first", "--games", "0"],
        "",
        "is not in 1..=",
    );
    refused(
        &["lab8", "--move-time-ms", "99999999999"],
        "",
        "is not in 1..=1000000000",
    );
    for depth in ["0", "25"] {
        refused(&["bench", "--midgame-depth", depth], "", "is not in 1..=24");
    }
}

#[test]
fn selfplay_refuses_bad_openings_before_writing() {
    let scratch = common::fresh_folder("cli", "selfplay");
    let out = scratch.join("selfplay.bin");
    let out = out.to_str().unwrap();
    let games = scratch.join("games.txt");
    std::fs::write(&games, "2001 f5d6c3d3c4 33-31\n").unwrap();
    let spec = |plies: &str| format!("wthor:{}:{plies}", games.display());
    for (plies, message) in [
        ("20-10", "the least first"),
        ("10-61", "0 to 60 plies"),
        ("10+61", "0 to 60 plies"),
        ("10+x", "'x' is not a number of plies"),
        ("-5", "'' is not a number of plies"),
    ] {
        refused(
            &["selfplay", "--out", out, "--openings", &spec(plies)],
            "",
            message,
        );
    }
    refused(
        &["selfplay", "--out", out, "--openings", "book:3"],
        "",
        "unknown openings",
    );
    std::fs::remove_file(&games).unwrap();
    assert!(!std::path::Path::new(out).exists());
}

#[test]
fn train_refuses_bad_settings_and_writes_only_where_told() {
    let scratch = common::fresh_folder("cli", "train");
    let out = scratch.join("train.bin");
    let out = out.to_str().unwrap();
    refused(&["train"], "f5d6\n", "--out");
    refused(&["train", "--out", out, "--holdout", "2"], "", "share");
    refused(&["train", "--out", out, "--rate", "nan"], "", "above 0");
    refused(
        &["train", "--out", out, "--prior-strength", "2"],
        "",
        "--prior",
    );
    refused(
        &[
            "train",
            "--out",
            out,
            "--prior",
            "Cargo.toml",
            "--prior-strength",
            "1001",
        ],
        "",
        "from 0 to 1000",
    );
    refused(
        &["train", "--out", out, "--prior", "Cargo.toml"],
        "f5d6\n",
        "Cargo.toml: not a pattern weight file",
    );
    // Every game held out and no self-play positions: nothing to train on.
    refused(
        &["train", "--out", out, "--holdout", "1"],
        "f5d6\n",
        "no positions to train on",
    );
    refused(
        &["train", "--out", out, "--threads", "0"],
        "",
        "is not in 1..=256",
    );
    refused(
        &["train", "--out", out],
        "f5d6\n",
        "no positions to train on",
    );
    assert!(!std::path::Path::new(out).exists());
}

#[test]
fn help_for_every_subcommand_and_for_help() {
    for args in [&["help", "--help"][..], &["help", "solve"], &["help"]] {
        let out = reversi(args, "");
        assert!(out.status.success(), "{args:?}");
        assert!(String::from_utf8_lossy(&out.stdout).contains("Usage: reversi"));
    }
    refused(&["help", "nothing\u{1b}[2J"], "", "'nothing\\u{1b}[2J'");
}

#[test]
fn messages_escape_control_characters() {
    refused(&["state", "--from", "[\u{7}]"], "", "bad state '[\\u{7}]'");
    refused(
        &["match", "x\u{1b}y", "first"],
        "",
        "unknown player 'x\\u{1b}y'",
    );
}

#[test]
fn a_closed_output_pipe_ends_a_tool_quietly() {
    // The reader goes away before the count is printed.
    let mut child = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["perft", "--size", "8", "--depth", "8", "--divide"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stdout.take());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}

#[test]
fn daemons_take_their_settings_from_the_command_line() {
    // The player, depth and time chosen on the command line are in force
    // from the first command: norvig:3 evaluates with COMP24011's integer
    // score, strong with discs.
    let out = reversi(&["gtp", "--player", "norvig:3"], "evaluate\nquit\n");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "= 0\n\n=\n\n");
    let out = reversi(
        &["gtp", "--depth", "1", "--hash", "8", "--book", "off"],
        "analyze 1\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.ends_with(" depth 1\n\n=\n\n"), "{text}");
    // greedy gives no score: the NBoard answer's eval field is blank.
    let out = reversi(
        &["nboard", "--player", "greedy"],
        "nboard 2\nping 1\ngo\nquit\n",
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(text.starts_with("set myname reversi\npong 1\n"), "{text}");
    assert!(text.contains("\n=== ") && text.contains("//"), "{text}");
    // GoGui's rules engine is never sent boardsize: size and coordinates
    // come from the command line (our e4 d5 g6 f7 on 10x10).
    let out = reversi(
        &["gtp", "--size", "10", "--notation", "gogui"],
        "legal\nquit\n",
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout),
        "= E7 D6 G5 F4\n\n=\n\n"
    );
    // Bad settings are refused before anything is read.
    refused(&["gtp", "--size", "7"], "", "--size");
    refused(&["gtp", "--notation", "go"], "", "--notation");
    refused(&["gtp", "--player", "nobody"], "", "unknown player");
    refused(
        &["gtp", "--player", "norvig:21"],
        "",
        "norvig's depth must be 1 to 20",
    );
    refused(
        &["nboard", "--player", "weights:0"],
        "",
        "weights' seconds must be above 0 and at most 1000000 (not 'weights:0')",
    );
    refused(&["nboard", "--depth", "0"], "", "--depth");
    refused(&["gtp", "--hash", "0"], "", "--hash");
    refused(&["gtp", "--movetime", "0"], "", "--movetime");
}

#[test]
fn tools_say_which_option_or_file_is_wrong() {
    let scratch = common::fresh_folder("cli", "tools");
    // Depth 0 is the start position itself, divided or not.
    for divide in [&[][..], &["--divide"][..]] {
        let out = reversi(
            &[&["perft", "--size", "8", "--depth", "0"][..], divide].concat(),
            "",
        );
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(text.contains("depth 0: 1 leaves"), "{text}");
    }
    refused(
        &["solve", "--first", "18446744073709551615", "x.obf"],
        "",
        "--first",
    );
    refused(
        &["selfplay", "--out", "x.bin", "--openings", "random:-1"],
        "",
        "--openings random:<plies>: '-1' is not a number of plies",
    );
    refused(
        &["match", "greedy", "first", "--openings", "random:-1"],
        "",
        "--openings random:<plies>: '-1' is not a number of plies",
    );
    // The shell's own words when the engine cannot be run.
    refused(
        &["latency", "--engine", "/nonexistent/engine", "--moves", "1"],
        "",
        "/nonexistent/engine: not found",
    );
    // A bad OBF line is quoted by its start, not whole.
    let obf = scratch.join("long.obf");
    std::fs::write(&obf, format!("{} X\n", "Z".repeat(1 << 20))).unwrap();
    let out = reversi(&["solve", obf.to_str().unwrap()], "");
    assert_eq!(out.status.code(), Some(2));
    assert!(
        out.stderr.len() < 400,
        "{} bytes on stderr",
        out.stderr.len()
    );
    // An OS error says its cause once.
    let out = reversi(&["solve", "/nonexistent/x.obf"], "");
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.matches("No such file or directory").count(), 1, "{err}");
}

#[test]
fn evaltest_finds_every_best_move_of_a_solved_suite_and_refuses_bad_files() {
    let scratch = common::fresh_folder("cli", "evaltest");
    // Searched past their empties, FFO #1-#19 are solved: every best move
    // found, every score exact, with either evaluation.
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/ffo/fforum-1-19.obf");
    for eval in ["patterns", "network"] {
        let out = reversi(&["evaltest", path, "--depth", "30", "--eval", eval], "");
        assert!(out.status.success());
        let text = String::from_utf8(out.stdout).unwrap();
        assert!(
            text.contains(&format!("19 positions, {eval} evaluation, depth 30")),
            "{text}"
        );
        let all = text.lines().last().unwrap();
        let words: Vec<&str> = all.split_whitespace().collect();
        assert_eq!(
            words[..5],
            ["all", "19", "100.0%", "100.0%", "0.00"],
            "{text}"
        );
    }
    let bad = scratch.join("evaltest.obf");
    std::fs::write(&bad, "% no scores\n").unwrap();
    refused(&["evaltest", bad.to_str().unwrap()], "", "no positions");
    refused(
        &["evaltest", path, "--depth", "0"],
        "",
        "0 is not in 1..=30",
    );
    refused(
        &["evaltest", path, "--eval", "tables"],
        "",
        "patterns or network",
    );
}
