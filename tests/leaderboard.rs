//! `reversi leaderboard` over a folder of submissions built from source:
//! builds and their errors, a second run that plays only the games of a
//! changed submission, a removed one leaving the standings, one run at a
//! time on a folder, names that clash.

mod common;

use std::path::{Path, PathBuf};

/// The Lab 8 program of the referee's tests, as a student submits it.
const STUDENT: &str = include_str!("data/lab8/student.c");

/// A submissions folder: alice (a `.c` file), bob (a repository with its
/// `lab8part3/`), carol (a folder), and dave's, which does not compile.
fn submissions(dir: &Path) -> PathBuf {
    let subs = dir.join("submissions");
    std::fs::create_dir_all(subs.join("bob/lab8part3")).unwrap();
    std::fs::create_dir_all(subs.join("carol")).unwrap();
    std::fs::write(subs.join("alice.c"), STUDENT).unwrap();
    std::fs::write(subs.join("bob/lab8part3/lab8part3.c"), STUDENT).unwrap();
    std::fs::write(subs.join("bob/README.md"), "not compiled\n").unwrap();
    // A warning, and a program all the same.
    let warned = format!("{STUDENT}\nstatic int big(void) {{ int x = 1e100; return x; }}\n");
    std::fs::write(subs.join("carol/main.c"), warned).unwrap();
    std::fs::write(subs.join("dave.c"), "int main( { return 0 }\n").unwrap();
    subs
}

/// `reversi leaderboard --submissions <subs> --out <out>` on 4x4 against
/// `first` and `greedy` (two wins make a finalist); returns its stdout
/// after its stderr (what it built, played and kept).
fn board(subs: &Path, out: &Path, extra: &[&str]) -> String {
    let mut args = vec![
        "leaderboard",
        "--submissions",
        subs.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
        "--size",
        "4",
        "--qualifiers",
        "first,greedy",
        "--wins",
        "2",
    ];
    args.extend(extra);
    let (out, err) = common::reversi_ok(args);
    format!("{err}{out}")
}

#[test]
fn submissions_are_built_and_a_changed_one_replays_only_its_games() {
    let dir = common::fresh_folder("board", "replay");
    let subs = submissions(&dir);
    let out = dir.join("board");
    let first = board(&subs, &out, &["--analyze"]);
    assert!(
        first.starts_with("submissions: 4, 3 built, 1 not\n"),
        "{first}"
    );
    // Three programs, two qualifiers, both colours; three finalists.
    assert!(
        first.contains("\nqualify: 12 games, 12 played now, 0 kept"),
        "{first}"
    );
    // Each game is analysed once, for the page.
    assert!(
        first.contains("\nqualify: 12 games reviewed now, 0 kept\n"),
        "{first}"
    );
    assert!(
        first.contains("\nfinal: 6 games, 6 played now, 0 kept"),
        "{first}"
    );
    // The build that failed is listed with the compiler's error, and plays
    // no game; the warning is kept beside its program.
    assert!(
        first.contains("Submissions that did not build (1"),
        "{first}"
    );
    assert!(first.contains("  dave (changed "), "{first}");
    assert!(first.contains("error: expected"), "{first}");
    assert!(!first.contains("\ndave "), "{first}");
    let page = std::fs::read_to_string(out.join("index.html")).unwrap();
    assert!(
        page.contains("error: expected"),
        "the page shows the errors"
    );
    let warnings: Vec<String> = std::fs::read_dir(out.join("programs"))
        .unwrap()
        .filter_map(|e| std::fs::read_to_string(e.unwrap().path().join("compile.txt")).ok())
        .filter(|t| t.contains("warning"))
        .collect();
    assert_eq!(warnings.len(), 1, "{warnings:?}");
    // The page shows each game's graph, and the review of each move.
    assert_eq!(page.matches("-graph.svg\"").count(), 18, "a graph a game");
    assert!(page.contains("\"mark\": \"blunder\""), "{page}");
    // Bob changes his program: his 4 qualification games and his 4 finals
    // games (against two finalists) are played again, no other.
    let bob = subs.join("bob/lab8part3/lab8part3.c");
    std::fs::write(&bob, format!("{STUDENT}\n/* faster */\n")).unwrap();
    let second = board(&subs, &out, &["--analyze"]);
    assert!(
        second.contains("\nqualify: 12 games, 4 played now, 8 kept"),
        "{second}"
    );
    assert!(
        second.contains("\nqualify: 4 games reviewed now, 8 kept\n"),
        "{second}"
    );
    assert!(
        second.contains("\nfinal: 4 games reviewed now, 2 kept\n"),
        "{second}"
    );
    assert!(
        second.contains("\nfinal: 6 games, 4 played now, 2 kept"),
        "{second}"
    );
    // Carol's submission is removed: she leaves the standings, and nothing
    // is played.
    std::fs::remove_dir_all(subs.join("carol")).unwrap();
    let third = board(&subs, &out, &[]);
    assert!(
        third.contains("\nqualify: 8 games, 0 played now, 8 kept"),
        "{third}"
    );
    assert!(
        third.contains("\nfinal: 2 games, 0 played now, 2 kept"),
        "{third}"
    );
    assert!(!third.contains("carol"), "{third}");
}

#[test]
fn one_run_at_a_time_works_on_a_part_of_a_folder() {
    let dir = common::fresh_folder("board", "lock");
    let subs = submissions(&dir);
    let out = dir.join("board");
    std::fs::create_dir_all(&out).unwrap();
    let held = std::fs::File::create(out.join("lock-1-of-1")).unwrap();
    held.try_lock().unwrap();
    let args = [
        "leaderboard",
        "--submissions",
        subs.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    common::refused(&args, "", "in use by another run");
    // Another shard of the same folder is not held up.
    drop(held);
}

#[test]
fn a_compile_command_without_its_sources_or_program_is_refused() {
    common::refused(
        &[
            "leaderboard",
            "--submissions",
            ".",
            "--out",
            "x",
            "--compile",
            "gcc -o lab8 *.c",
        ],
        "",
        "must hold {sources}",
    );
    assert!(!std::path::Path::new("x").exists());
}

#[test]
fn a_program_named_as_a_submission_is_refused() {
    let dir = common::fresh_folder("board", "names");
    let subs = submissions(&dir);
    let out = dir.join("board");
    let args = [
        "leaderboard",
        "alice=greedy",
        "--submissions",
        subs.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    common::refused(&args, "", "two programs are named 'alice'");
}

#[test]
fn a_build_only_run_builds_and_plays_nothing() {
    let dir = common::fresh_folder("board", "build-only");
    let subs = submissions(&dir);
    let out = dir.join("board");
    let said = board(&subs, &out, &["--build-only"]);
    assert_eq!(said, "submissions: 4, 3 built, 1 not\n");
    assert_eq!(std::fs::read_dir(out.join("programs")).unwrap().count(), 4);
    assert!(!out.join("qualify").exists());
    // The run that follows finds every build done.
    let played = board(&subs, &out, &[]);
    assert!(
        played.contains("qualify: 12 games, 12 played now"),
        "{played}"
    );
}
