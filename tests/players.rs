//! The seed players against plain references written here from the seed
//! documents' descriptions (no pruning, no bit tricks), on random
//! positions; and the file mode of the small C program through the binary.

mod common;

use proptest::prelude::*;
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use reversi::players::{Norvig, Player, Smarter, Smartest, Weights, build};
use reversi::rules::{Bitboard, Color, Move, Position, Square, parse_move, parse_square};
use reversi::search::Limits;
use std::process::Command;
use std::time::Duration;

/// Norvig's table, typed in again from the COMP24011 handout.
#[rustfmt::skip]
const NORVIG: [[i32; 8]; 8] = [
    [120, -20, 20, 5, 5, 20, -20, 120],
    [-20, -40, -5, -5, -5, -5, -40, -20],
    [20, -5, 15, 3, 3, 15, -5, 20],
    [5, -5, 3, 3, 3, 3, -5, 5],
    [5, -5, 3, 3, 3, 3, -5, 5],
    [20, -5, 15, 3, 3, 15, -5, 20],
    [-20, -40, -5, -5, -5, -5, -40, -20],
    [120, -20, 20, 5, 5, 20, -20, 120],
];

fn board_eval(pos: &Position) -> i32 {
    let mut v = 0;
    for (r, row) in NORVIG.iter().enumerate() {
        for (c, weight) in row.iter().enumerate() {
            match pos.cell(Square::new(r, c)) {
                Some(Color::White) => v += weight,
                Some(Color::Black) => v -= weight,
                None => {}
            }
        }
    }
    v
}

/// Legal moves in the course code's order: column-major.
fn column_major(pos: &Position) -> Vec<Square> {
    let mut moves = pos.legal_moves(pos.to_move());
    moves.sort_by_key(|sq| (sq.col, sq.row));
    moves
}

/// Plain minimax, White maximising; a pass is a ply, the end is a leaf.
fn minimax(pos: &Position, depth: u32) -> i32 {
    if depth == 0 || pos.is_game_over() {
        return board_eval(pos);
    }
    let moves = column_major(pos);
    if moves.is_empty() {
        return minimax(&pos.play(Move::Pass).unwrap(), depth - 1);
    }
    let values = moves
        .iter()
        .map(|&sq| minimax(&pos.place(pos.to_move(), sq).unwrap(), depth - 1));
    if pos.to_move() == Color::White {
        values.max().unwrap()
    } else {
        values.min().unwrap()
    }
}

/// The reference agent's choice: the first best move, column-major.
fn norvig_reference(pos: &Position, depth: u32) -> Option<Square> {
    let mut best: Option<(i32, Square)> = None;
    for sq in column_major(pos) {
        let v = minimax(&pos.place(pos.to_move(), sq).unwrap(), depth - 1);
        let better = match best {
            None => true,
            Some((b, _)) if pos.to_move() == Color::White => v > b,
            Some((b, _)) => v < b,
        };
        if better {
            best = Some((v, sq));
        }
    }
    best.map(|(_, sq)| sq)
}

fn flips(pos: &Position, color: Color, sq: Square) -> usize {
    pos.flips(color, sq).map_or(0, |f| f.len())
}

fn greedy(pos: &Position) -> Option<Square> {
    let me = pos.to_move();
    let mut best: Option<(usize, Square)> = None;
    for sq in pos.legal_moves(me) {
        let f = flips(pos, me, sq);
        if best.is_none_or(|(b, _)| f > b) {
            best = Some((f, sq));
        }
    }
    best.map(|(_, sq)| sq)
}

fn smarter_reference(pos: &Position) -> Option<Square> {
    let me = pos.to_move();
    let mut best: Option<(f64, Square)> = None;
    for sq in pos.legal_moves(me) {
        let after = pos.place(me, sq).unwrap();
        let reply = after
            .legal_moves(me.other())
            .into_iter()
            .map(|m| flips(&after, me.other(), m))
            .max()
            .unwrap_or(0);
        let score = flips(pos, me, sq) as f64 - 0.001 * reply as f64;
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, sq));
        }
    }
    best.map(|(_, sq)| sq)
}

fn smartest_reference(pos: &Position) -> Option<Square> {
    let me = pos.to_move();
    let mut best: Option<(i64, Square)> = None;
    for sq in pos.legal_moves(me) {
        let mut p = pos.place(me, sq).unwrap();
        // Ten steps; a side that must pass passes within the step and the
        // other side plays in it.
        for _ in 0..10 {
            if p.is_game_over() {
                break;
            }
            if greedy(&p).is_none() {
                p = p.play(Move::Pass).unwrap();
            }
            let m = greedy(&p).unwrap();
            p = p.place(p.to_move(), m).unwrap();
        }
        let diff = p.count(me) as f64 - p.count(me.other()) as f64;
        let replies = p.legal_moves(me.other()).len() as f64;
        let replies = if replies == 0.0 { 0.1 } else { replies };
        let score = (diff + 0.1 / replies) as i64;
        if best.is_none_or(|(b, _)| score > b) {
            best = Some((score, sq));
        }
    }
    best.map(|(_, sq)| sq)
}

fn random_position(n: usize, plies: usize, seed: u64) -> Position {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut pos = Position::start(n).unwrap();
    for _ in 0..plies {
        if pos.is_game_over() {
            break;
        }
        let moves = pos.legal_moves(pos.to_move());
        if moves.is_empty() {
            pos = pos.play(Move::Pass).unwrap();
            continue;
        }
        pos = pos
            .place(pos.to_move(), moves[rng.random_range(0..moves.len())])
            .unwrap();
    }
    pos
}

fn chosen(player: &mut dyn Player, pos: &Position) -> Option<Square> {
    match player.choose(pos, &Limits::unlimited()) {
        Move::Place(sq) => Some(sq),
        Move::Pass => None,
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    #[test]
    fn norvig_picks_the_reference_move(seed in any::<u64>(), plies in 0usize..58, depth in 1u32..=4) {
        let pos = random_position(8, plies, seed);
        prop_assume!(!pos.is_game_over());
        prop_assert_eq!(chosen(&mut Norvig::new(depth), &pos), norvig_reference(&pos, depth));
    }

    #[test]
    fn smarter_and_smartest_pick_the_reference_move(half in 2usize..=13, seed in any::<u64>(), fill in 0.0f64..1.0) {
        let n = 2 * half;
        let pos = random_position(n, (fill * (n * n - 4) as f64) as usize, seed);
        prop_assume!(!pos.is_game_over());
        prop_assert_eq!(chosen(&mut Smarter, &pos), smarter_reference(&pos));
        prop_assert_eq!(chosen(&mut Smartest, &pos), smartest_reference(&pos));
    }

    #[test]
    fn every_player_plays_legal_moves(name in prop::sample::select(vec!["first", "random:7", "greedy", "smarter", "smartest", "norvig:2", "weights:0.01", "strong"]), seed in any::<u64>(), plies in 0usize..60) {
        let pos = random_position(8, plies, seed);
        prop_assume!(!pos.is_game_over());
        let mut player = build(name).unwrap();
        let mv = player.choose(&pos, &Limits::movetime(Duration::from_millis(20)));
        prop_assert!(pos.play(mv).is_ok(), "{} played {}", name, mv);
    }
}

#[test]
fn norvig_at_depth_8_on_the_handout_position() {
    // The COMP24011 handout's position after Black's (5,4): White to move.
    let (n, cells, to_move) = reversi::rules::comp::parse_state(
        "{........|........|........|...wb...|...bbb..|........|........|........}",
    )
    .unwrap();
    let pos = Position::from_cells(n, &cells, to_move).unwrap();
    for depth in [1, 2, 3, 4, 5] {
        assert_eq!(
            chosen(&mut Norvig::new(depth), &pos),
            norvig_reference(&pos, depth),
            "depth {depth}"
        );
    }
    assert!(Norvig::new(8).choose(&pos, &Limits::unlimited()) != Move::Pass);
    assert!(!Norvig::new(2).supports(10));
}

#[test]
fn smartest_passes_within_a_step_as_the_course_library_does() {
    // Found against the course library: Black to move (rows a-h from the
    // top, lab notation), which plays `dg`; counting a pass as a step of
    // the look-ahead gives b1 (`ab`) instead.
    let rows = [
        "BUBBUWUU", "BBWWWWUW", "BWBBWWWU", "BBWWBBUW", "BWWWBBWW", "BUWBBBBB", "BUWWBBBU",
        "UWWWWBUB",
    ];
    let cells: String = rows.concat();
    let cells: Vec<Option<Color>> = cells
        .chars()
        .map(|c| match c {
            'B' => Some(Color::Black),
            'W' => Some(Color::White),
            _ => None,
        })
        .collect();
    let pos = Position::from_cells(8, &cells, Color::Black).unwrap();
    assert_eq!(chosen(&mut Smartest, &pos), Some(Square::new(3, 6)));
    assert_eq!(smartest_reference(&pos), Some(Square::new(3, 6)));
}

#[test]
fn weights_evaluation_and_time() {
    // Start position: equal discs on four squares of equal value (-4).
    let b: Bitboard = Position::start(8).unwrap().board_as();
    assert_eq!(reversi::players::weights_eval(&b), 0);
    // Black a1 (30) and b1 (-4) against White's two centre discs (-4 each):
    // discs 2-2 = 0, squares 26 - (-8) = 34.
    let mut cells = vec![None; 64];
    cells[0] = Some(Color::Black);
    cells[1] = Some(Color::Black);
    cells[27] = Some(Color::White);
    cells[36] = Some(Color::White);
    for i in [9, 10, 11, 12, 13, 14] {
        cells[i] = Some(Color::White);
        cells[i + 40] = Some(Color::Black);
    }
    let pos = Position::from_cells(8, &cells, Color::Black).unwrap();
    // Rows 2 and 7 cancel by symmetry (same values, 6 discs each side).
    assert_eq!(reversi::players::weights_eval(&pos.board_as()), 34);
    assert_eq!(reversi::players::Weights::new(1.0).name(), "weights:1");
    // It keeps its own 50 ms: its CPU time, which a loaded machine does
    // not stretch as it does the wall time, stays well under 500 ms.
    let mut w = Weights::new(0.05);
    let start = thread_cpu_time();
    let mv = w.choose(&Position::start(8).unwrap(), &Limits::unlimited());
    assert!(thread_cpu_time() - start < Duration::from_millis(500));
    assert!(Position::start(8).unwrap().play(mv).is_ok());
}

/// The CPU time the calling thread has used.
fn thread_cpu_time() -> Duration {
    let mut t = libc::timespec {
        tv_sec: 0,
        tv_nsec: 0,
    };
    // SAFETY: clock_gettime only writes the timespec it is given.
    assert_eq!(
        unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) },
        0
    );
    Duration::new(t.tv_sec as u64, t.tv_nsec as u32)
}

fn binary() -> Command {
    Command::new(env!("CARGO_BIN_EXE_reversi"))
}

const START: &str =
    "        \n        \n        \n   WB   \n   BW   \n        \n        \n        \n";

#[test]
fn file_move_writes_the_next_board() {
    let dir = common::fresh_folder("file", "move");
    let first = dir.join("game-07");
    std::fs::write(&first, START).unwrap();
    // Human black move 43: column 4, row 3 (d3), flips d4.
    let out = binary()
        .arg("file-move")
        .arg(&first)
        .args(["black", "43"])
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let next = std::fs::read_to_string(dir.join("game-08")).unwrap();
    assert_eq!(
        next,
        "        \n        \n   B    \n   BB   \n   BW   \n        \n        \n        \n"
    );
    // The computer answers for White within its time.
    let out = binary()
        .arg("file-move")
        .arg(dir.join("game-08"))
        .args(["white", "0.1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let after = std::fs::read_to_string(dir.join("game-09")).unwrap();
    assert_eq!(after.lines().count(), 8);
    assert_eq!(
        after.matches('W').count(),
        3,
        "one white disc placed, one flipped"
    );
    // The C program's form with a fourth argument is a human move too.
    let out = binary()
        .arg("file-move")
        .arg(dir.join("game-09"))
        .args(["black", "11", "x"])
        .output()
        .unwrap();
    assert!(!out.status.success(), "a1 is illegal here");
    assert!(
        !dir.join("game-10").exists(),
        "nothing written after an error"
    );
    // A full board: the computer passes, and says nothing on stderr.
    let full = dir.join("full-01");
    std::fs::write(&full, "BBBBBBBB\n".repeat(8)).unwrap();
    let out = binary()
        .arg("file-move")
        .arg(&full)
        .args(["white", "0.1"])
        .output()
        .unwrap();
    assert!(out.status.success());
    assert!(String::from_utf8_lossy(&out.stdout).starts_with("white plays pass -> "));
    assert_eq!(String::from_utf8_lossy(&out.stderr), "");
    assert_eq!(
        std::fs::read_to_string(dir.join("full-02")).unwrap(),
        "BBBBBBBB\n".repeat(8)
    );
}

#[test]
fn file_move_errors_write_nothing() {
    let dir = common::fresh_folder("file", "errors");
    let board = dir.join("b-01");
    std::fs::write(&board, START).unwrap();
    let bad_board = dir.join("bad-01");
    std::fs::write(&bad_board, "xx\n").unwrap();
    let cases: Vec<(std::path::PathBuf, &str, &str)> = vec![
        (board.clone(), "black", "11"),  // illegal
        (board.clone(), "purple", "43"), // bad colour
        (board.clone(), "black", "x9"),  // neither move nor seconds
        (board.clone(), "black", "-1"),  // negative seconds
        (dir.join("missing-01"), "black", "43"),
        (dir.join("noname"), "black", "43"), // no -NN suffix
        (bad_board.clone(), "black", "43"),
    ];
    for (path, color, action) in cases {
        let out = binary()
            .arg("file-move")
            .arg(&path)
            .args([color, action])
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(2), "{path:?} {color} {action}");
        assert!(!out.stderr.is_empty());
    }
    let files: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(files.len(), 2, "only the two input files");
}

/// The position after `moves` (standard notation, no passes) from the
/// 8x8 start.
fn after(moves: &str) -> Position {
    moves
        .split_whitespace()
        .fold(Position::start(8).unwrap(), |pos, m| {
            pos.play(parse_move(m, 8).unwrap()).unwrap()
        })
}

/// Whether `attacker` can force the other side's wipe-out from `pos`
/// within `plies` plies, whatever the other side plays.
fn forces_wipe_out(pos: &Position, attacker: Color, plies: u32) -> bool {
    if pos.count(attacker.other()) == 0 {
        return true;
    }
    if plies == 0 || pos.is_game_over() {
        return false;
    }
    let moves = pos.legal_moves(pos.to_move());
    let mut children = moves
        .iter()
        .map(|&sq| pos.place(pos.to_move(), sq).unwrap());
    if moves.is_empty() {
        forces_wipe_out(&pos.play(Move::Pass).unwrap(), attacker, plies - 1)
    } else if pos.to_move() == attacker {
        children.any(|c| forces_wipe_out(&c, attacker, plies - 1))
    } else {
        children.all(|c| forces_wipe_out(&c, attacker, plies - 1))
    }
}

#[test]
fn strong_does_not_walk_into_a_wipe_out() {
    // From a game `strong` lost to `smartest` by 64 discs (with
    // a first guard that left ProbCut on above 4 discs):
    // black, with 3 discs against 15, played f4, and White's f3 wiped it
    // out by force within four more plies. The evaluation puts a side
    // with so few discs far ahead (+47 after f4 at 8 plies); only a search
    // that does not trust it there sees the wipe-out.
    let pos = after("c4 c5 e6 e3 c3 c2 b4 f6 d6 a4 f5 c6 d3 g6");
    let f4 = parse_square("f4", 8).unwrap();
    assert!(forces_wipe_out(
        &pos.place(Color::Black, f4).unwrap(),
        Color::White,
        5
    ));
    let limits = Limits {
        depth: Some(8),
        ..Limits::unlimited()
    };
    let mv = build("strong").unwrap().choose(&pos, &limits);
    assert!(
        !forces_wipe_out(&pos.play(mv).unwrap(), Color::White, 5),
        "{mv}"
    );
}
