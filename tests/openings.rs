//! `reversi openings` through the binary: a suite made from a few games,
//! its values those of the daemon's own search, played by the referee;
//! a bad game refused by its line, with nothing written.

mod common;

use common::reversi_ok;
use std::io::Write;

/// Four games: the first three the same two plies up to the start's
/// symmetry (f5 d6, d3 c5, e6 f4), the last another (f5 f6).
const GAMES: &str = "1990 f5d6c3d3c4f4 34-30\nd3c5f6f5e6e3\ne6f4c3c4d3d6\nf5f6e6f4e3c5\n";

#[test]
fn a_suite_keeps_the_shared_openings_with_the_daemons_values() {
    let dir = common::fresh_folder("openings", "suite");
    let games = dir.join("games.txt");
    std::fs::write(&games, GAMES).unwrap();
    let suite = dir.join("suite.txt");
    let (out, _) = reversi_ok([
        "openings",
        "--games",
        games.to_str().unwrap(),
        "--out",
        suite.to_str().unwrap(),
        "--plies",
        "2",
        "--min-games",
        "2",
        "--depth",
        "3",
        "--max-discs",
        "64",
    ]);
    assert!(out.ends_with("suite.txt: 1 of 1 openings kept\n"), "{out}");
    let text = std::fs::read_to_string(&suite).unwrap();
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(
        text.starts_with("# 1 balanced 8x8 openings of 2 plies"),
        "{text}"
    );
    assert!(text.contains("from 4 games: the 1 openings"), "{text}");
    // The value is Black's, from the daemon's 3-ply search on a cleared
    // table with no book.
    let (mut daemon, mut stdin, replies) = common::spawn(&["gtp", "--book", "off"], |line| {
        line.starts_with("= ").then_some(line)
    });
    // Sent at once, `quit` would stop the search: it waits for the reply.
    stdin
        .write_all(b"set depth 3\nloadgame f5d6\nanalyze 1\n")
        .unwrap();
    let reply = replies.recv().unwrap();
    stdin.write_all(b"quit\n").unwrap();
    common::wait_exit(&mut daemon, std::time::Duration::from_secs(60));
    assert!(reply.ends_with(" depth 3"), "{reply}");
    let value: f64 = reply.split(' ').nth(2).unwrap().parse().unwrap();
    assert_eq!(lines, [format!("f5d6 # 3 games, {value:+.2}")], "{reply}");
    // The referee plays from it.
    let spec = format!("file:{}", suite.display());
    let (table, _) = reversi_ok(["match", "greedy", "first", "--openings", &spec]);
    assert!(table.contains("openings 1 from a file"), "{table}");
}

#[test]
fn an_illegal_game_is_refused_by_its_line_and_nothing_is_written() {
    let dir = common::fresh_folder("openings", "illegal");
    let suite = dir.join("suite.txt");
    common::refused(
        &["openings", "--out", suite.to_str().unwrap(), "--plies", "2"],
        "f5d6\nf5a1\n",
        "line 2",
    );
    assert!(!suite.exists());
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
}
