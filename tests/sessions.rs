//! The daemon's byte-exact sessions per command family
//! (`tests/data/sessions/*.cmds` -> `*.out`, each reply checked against
//! protocol.md when the transcript was made), run in-process through the
//! protocol loop on a reader and a writer, once through the real binary,
//! and GoGui's sessions as GoGui had them with the binary.

mod common;

use common::run_in_process;

/// A session's commands and the replies expected, from
/// `tests/data/sessions/<name>.cmds` and `.out`.
fn session_files(name: &str) -> (Vec<u8>, String) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sessions/");
    let input = std::fs::read(format!("{dir}{name}.cmds")).unwrap();
    let expected = std::fs::read_to_string(format!("{dir}{name}.out")).unwrap();
    (input, expected)
}

fn session(name: &str) {
    let (input, expected) = session_files(name);
    assert_eq!(run_in_process(&input), expected, "session {name}");
}

#[test]
fn a_session_through_the_binary_is_the_same_as_in_process() {
    let (input, expected) = session_files("play");
    let out = common::run(&[], &input);
    let (out, status) = (out.stdout, out.status);
    assert_eq!(String::from_utf8(out).unwrap(), expected);
    assert!(status.success());
}

#[test]
fn session_standard_commands() {
    session("standard");
}

#[test]
fn session_play_undo_and_illegal_moves() {
    session("play");
}

#[test]
fn session_passes_and_game_end() {
    session("pass");
}

#[test]
fn session_setup_forms() {
    session("setup");
}

#[test]
fn session_options_time_and_notation() {
    session("options");
}

#[test]
fn session_game_records_in_and_out() {
    session("records");
}

#[test]
fn session_gogui_coordinates() {
    session("gogui");
}

/// Replays a session GoGui 1.6 had with the binary started as `reversi
/// gtp --size <size> --notation gogui`, captured on the pipe under Xvfb,
/// and checks every reply byte for byte against what was captured.
fn gogui_session(name: &str, size: &str) {
    let (input, expected) = session_files(name);
    let out = common::run(&["gtp", "--size", size, "--notation", "gogui"], &input);
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        expected,
        "session {name}"
    );
    assert!(out.status.success());
}

/// GoGui's rules engine in an engine-against-engine 6x6 game: the start-up
/// queries, the first move's replay, and the last replay of the whole
/// game (GoGui replays the game from `clear_board` after every move), with
/// Black's pass and the final result. No `boardsize` is ever sent.
#[test]
fn gogui_rules_engine_session_6x6() {
    gogui_session("gogui-ruler-6x6", "6");
}

/// GoGui's rules engine at the end of an engine-against-engine 26x26
/// game: the last replay, 672 moves, 26 of them in the `AA` column.
#[test]
fn gogui_rules_engine_session_26x26() {
    gogui_session("gogui-ruler-26x26", "26");
}

/// GoGui's player in a 10x10 game against a person clicking (the ninth
/// column is `J`); each `genmove w` GoGui sent is replaced by `play W`
/// of the move the engine answered, so the session replays exactly.
#[test]
fn gogui_player_session_10x10() {
    gogui_session("gogui-player-10x10", "10");
}
