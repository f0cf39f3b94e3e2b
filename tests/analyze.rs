//! `reversi analyze` through the binary: exact losses on positions whose
//! every move is solved (data/evaltest), the summary's arithmetic, the
//! JSON's fields, the same output for one thread and two, and a broken
//! game refused with its line and ply named.

mod common;

use common::reversi_ok;

/// A GGF record of one move `mv` by the side to move of the OBF position
/// `board` (64 squares, `X` Black, `O` White, `-` empty) with `to_move`.
fn one_move(board: &str, to_move: char, mv: &str) -> String {
    let bo: String = board
        .chars()
        .map(|c| match c {
            'X' => '*',
            other => other,
        })
        .collect();
    let (side, tag) = if to_move == 'X' {
        ('*', 'B')
    } else {
        ('O', 'W')
    };
    format!("(;GM[Othello]PB[b]PW[w]RE[?]TY[8]BO[8 {bo} {side}]{tag}[{mv}];)")
}

/// `reversi analyze - <args>` on `input`: its stdout (it must succeed).
fn analyze_input(args: &[&str], input: &str) -> String {
    let run = common::run(&[&["analyze", "-"], args].concat(), input.as_bytes());
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    String::from_utf8(run.stdout).unwrap()
}

/// The first position of data/evaltest/wthor-exact-20-24.obf, its moves'
/// exact scores for White (to move): b7 -12 (the best), b3 -14, a6 -44.
const POSITION: &str = "--X-------X-OO--X-XOOOOOXXOOOXOO-XXXXOOO-XXXOXOO--XXXX---XXXXXX-";

#[test]
fn exact_losses_of_solved_positions() {
    let dir = common::fresh_folder("analyze", "exact");
    let games = dir.join("games.ggf");
    let text = ["b7", "b3", "a6"]
        .map(|m| one_move(POSITION, 'O', m))
        .join("\n");
    std::fs::write(&games, text).unwrap();
    let page = dir.join("analysis.html");
    let (json, _) = reversi_ok([
        "analyze",
        games.to_str().unwrap(),
        "--exact-empties",
        "30",
        "--json",
        "--html",
        page.to_str().unwrap(),
    ]);
    // The page: a graph and a table a game, the blunder highlighted.
    let page = std::fs::read_to_string(&page).unwrap();
    assert_eq!(page.matches("<svg").count(), 3);
    assert!(page.contains("<tr class=\"blunder exact\">"), "{page}");
    let doc: serde_json::Value = serde_json::from_str(&json).unwrap();
    let games = doc["games"].as_array().unwrap();
    assert_eq!(games.len(), 3);
    let expected = [
        ("b7", 0.0, None),
        ("b3", 2.0, Some("mistake")),
        ("a6", 32.0, Some("blunder")),
    ];
    for (game, (played, loss, mark)) in games.iter().zip(expected) {
        let m = &game["moves"][0];
        assert_eq!(m["played"], played, "{m}");
        assert_eq!(m["best"], "b7", "{m}");
        assert_eq!(m["best_score"], -12.0, "{m}");
        assert_eq!(m["loss"], loss, "{m}");
        assert_eq!(m["exact"], true, "{m}");
        assert_eq!(m["mark"].as_str(), mark, "{m}");
        assert_eq!(m["colour"], "white");
        // White's summary: one move; Black made none.
        let white = &game["white_summary"];
        assert_eq!(white["moves"], 1);
        assert_eq!(white["mean_loss"], loss);
        assert_eq!(white["best_share"], if loss == 0.0 { 1.0 } else { 0.0 });
        assert_eq!(game["black_summary"]["moves"], 0);
        // One move (21 empties) of the thirds' middle phase.
        let phases = white["phases"].as_array().unwrap();
        assert_eq!(phases.len(), 3);
        assert_eq!(
            (&phases[1]["from"], &phases[1]["to"]),
            (&40.into(), &21.into())
        );
        assert_eq!(
            (&phases[1]["moves"], &phases[1]["loss"]),
            (&1.into(), &loss.into())
        );
        // Black's value perfect play gives, and no result: one move only.
        assert_eq!(game["solved"], 12.0);
        assert_eq!(game["result"], serde_json::Value::Null);
    }
    // The players over the three games: w's moves, and what perfect
    // play from the first position solved gives it (three losses).
    let players = doc["players"].as_array().unwrap();
    let w = players.iter().find(|p| p["name"] == "w").unwrap();
    assert_eq!(w["games"], 3);
    assert_eq!(w["summary"]["moves"], 3);
    assert_eq!(w["summary"]["mean_loss"], 34.0 / 3.0);
    assert_eq!(w["summary"]["phases"][1]["loss"], 34.0);
    assert_eq!(
        (&w["solved"]["losses"], &w["solved"]["score"]),
        (&3.into(), &0.0.into())
    );
    assert_eq!(w["unfinished"], 3);
}

#[test]
fn one_thread_and_two_give_the_same_analysis() {
    let dir = common::fresh_folder("analyze", "threads");
    let games = dir.join("games.txt");
    std::fs::write(
        &games,
        "1987 f5d6c5f4e3c4f3e6c6b5e7g4d3g5d7c3b6c2d2f7b3c1g3d8h4c7e1e8h6e2f2a4d1h5g6f1f6b4a5a6a2h3h2g1a3b7c8g7a8a7b8a1b1b2h1g2f8h7g8h8 40-24\n",
    )
    .unwrap();
    let run = |threads: &str| {
        let path = games.to_str().unwrap();
        reversi_ok([
            "analyze",
            path,
            "--depth",
            "6",
            "--exact-empties",
            "14",
            "--threads",
            threads,
        ])
        .0
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    // Every move but the forced ones is in the table, and the summaries
    // count them.
    assert!(
        one.starts_with("game of line 1: Black against White\n"),
        "{one}"
    );
    assert!(one.contains("\nBlack: "), "{one}");
}

#[test]
fn a_broken_game_is_refused_with_its_line_and_ply() {
    for (text, said) in [
        ("f5d6c3\n# a comment\nf5d6z9\n", "line 3: ply 3"),
        ("f5d6c3\nf5f5\n", "line 2: ply 2"),
        ("(;GM[Othello]BO[8 nonsense *];)\n", "line 1:"),
        ("\n# nothing\n", "no game"),
    ] {
        common::refused(&["analyze", "-"], text, said);
    }
    common::refused(
        &["analyze", "-", "--phases", "20,24"],
        "f5d6",
        "largest first",
    );
    common::refused(
        &["analyze", "-", "--depth", "4", "--time-ms", "10"],
        "f5d6",
        "cannot be used with",
    );
}

#[test]
fn a_timed_analysis_scores_every_move_and_adds_up_the_players() {
    // Two games of the same players, colours swapped: their totals.
    let text = "(;GM[Othello]PB[ann]PW[bob]RE[?]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[d6]B[c3]W[d3]B[c4];)\n\
                (;GM[Othello]PB[bob]PW[ann]RE[?]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[f5]W[f6]B[e6]W[f4];)\n";
    let out = analyze_input(&["--time-ms", "5", "--phases", "58"], text);
    assert!(
        out.contains("game of line 1: ann (Black) against bob (White)\n"),
        "{out}"
    );
    assert!(out.contains("\nann: 2 games, 5 moves, mean loss "), "{out}");
    assert!(out.contains("loss a game by empties 60-59 "), "{out}");
    assert!(out.contains("\nbob: 2 games, 4 moves"), "{out}");
    assert!(
        out.contains("  played: 0-0-0, 0.0% (2 not finished, left out)\n"),
        "{out}"
    );
}

#[test]
fn shards_take_every_other_game() {
    let text = "f5d6c3d3c4\n# a comment\nf5f6e6f4\nc4c3\n";
    let shard = |k: &str| {
        analyze_input(&["--depth", "2", "--shard", k], text)
            .lines()
            .filter_map(|l| l.strip_prefix("game of "))
            .map(|l| l.split(':').next().unwrap().to_string())
            .collect::<Vec<_>>()
    };
    assert_eq!(shard("1/2"), ["line 1", "line 4"]);
    assert_eq!(shard("2/2"), ["line 3"]);
    common::refused(&["analyze", "-", "--shard", "3/2"], text, "bad shard");
}

#[test]
fn a_match_records_opening_is_not_the_players_and_is_left_out() {
    // The referee's records: the opening's plies without a time, the
    // players' with theirs.
    let start = "---------------------------O*------*O---------------------------";
    let text = format!(
        "(;GM[Othello]PB[a]PW[b]RE[?]TY[8]BO[8 {start} *]B[f5]W[d6]B[c3//0.1]W[d3//0.2]B[c4//0.1];)\n\
         (;GM[Othello]PB[a]PW[b]RE[?]TY[8]BO[8 {start} *]B[f5]W[d6]B[c3]W[d3]B[c4];)\n"
    );
    let doc: serde_json::Value =
        serde_json::from_str(&analyze_input(&["--depth", "2", "--json"], &text)).unwrap();
    let plies = |g: usize| -> Vec<u64> {
        doc["games"][g]["moves"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| m["ply"].as_u64().unwrap())
            .collect()
    };
    assert_eq!(plies(0), [3, 4, 5]);
    // A record without times: every move is the players'.
    assert_eq!(plies(1), [1, 2, 3, 4, 5]);
}
