//! `reversi nboard` through the real binary over pipes, driven as the
//! NBoard GUI drives it: every request after `ping N`, the next only once
//! `pong N` (or `===`) came back. A session against the GUI's own
//! exchange, `ping` ending a long `hint` at once, bad input that changes
//! nothing, and random command streams checked against a reference replay.

mod common;

use proptest::prelude::*;
use reversi::rules::{Color, Game, Move, Position, Square, ggf, parse_move};
use std::io::Write;
use std::process::{Child, ChildStdin};
use std::sync::mpsc::{Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// Bound for what should take milliseconds; only a hang fails it.
const PATIENCE: Duration = Duration::from_secs(20);

struct Nboard {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
}

impl Nboard {
    /// `reversi nboard` with its search alone: the opening book, on by
    /// default, would answer hints and moves near the start without one
    /// (tests/book.rs tries it).
    fn start(args: &[&str]) -> Nboard {
        let args = [&["nboard", "--hash", "16", "--book", "off"][..], args].concat();
        let (child, stdin, lines) = common::spawn(&args, Some);
        Nboard {
            stdin: Some(stdin),
            child,
            lines,
        }
    }

    fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        writeln!(stdin, "{line}").unwrap();
        stdin.flush().unwrap();
    }

    /// Every line up to and including the first that starts with `end`.
    fn until(&mut self, end: &str) -> Vec<String> {
        let deadline = Instant::now() + PATIENCE;
        let mut got = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.lines.recv_timeout(left) {
                Ok(line) => {
                    let done = line.starts_with(end);
                    got.push(line);
                    if done {
                        return got;
                    }
                }
                Err(RecvTimeoutError::Timeout) => panic!("no '{end}' after {got:?}"),
                Err(RecvTimeoutError::Disconnected) => panic!("ended before '{end}': {got:?}"),
            }
        }
    }

    /// `ping n` and everything up to its `pong n`.
    fn sync(&mut self, n: u32) -> Vec<String> {
        self.send(&format!("ping {n}"));
        self.until(&format!("pong {n}"))
    }

    fn quit(mut self) {
        self.send("quit");
        self.stdin.take();
        common::wait_exit(&mut self.child, PATIENCE);
    }
}

const START: &str = "(;GM[Othello]PC[NBoard]DT[2026-11-22 02:55:59 GMT]PB[]PW[]RE[?]TI[5:00]TY[8]BO[8 ---------------------------O*------*O--------------------------- *];)";

/// The GUI's text for a move.
fn upper(mv: Move) -> String {
    match mv {
        Move::Pass => "PA".into(),
        Move::Place(sq) => sq.standard().to_ascii_uppercase(),
    }
}

fn read_move(text: &str) -> Move {
    parse_move(text, 8).unwrap_or_else(|_| panic!("a move: {text}"))
}

/// One `search <pv> <eval> 0 <depth>` line.
struct Hint {
    mv: Move,
    eval: String,
    depth: String,
}

/// The hints in `lines`, in order.
fn hints(lines: &[String]) -> Vec<Hint> {
    lines
        .iter()
        .filter_map(|l| l.strip_prefix("search "))
        .map(|rest| {
            let f: Vec<&str> = rest.split(' ').collect();
            assert_eq!(f.len(), 4, "search <pv> <eval> 0 <depth>: {rest}");
            f[1].parse::<f64>().expect("eval in discs");
            assert_eq!(f[2], "0");
            Hint {
                mv: read_move(f[0]),
                eval: f[1].to_string(),
                depth: f[3].to_string(),
            }
        })
        .collect()
}

#[test]
fn a_session_as_the_gui_runs_it() {
    let mut e = Nboard::start(&[]);
    e.send("nboard 2");
    assert_eq!(e.until("set myname"), ["set myname reversi"]);
    e.send(START);
    e.send("set game ".to_string().as_str()); // blank game: refused, ignored
    e.send(&format!("set game {START}"));
    e.send("set depth 4");
    e.sync(1);
    // The engine moves: a legal move with eval and time, not played.
    e.send("go");
    let reply = e.until("===");
    let answer = reply.last().unwrap();
    let fields: Vec<&str> = answer["=== ".len()..].split('/').collect();
    assert_eq!(fields.len(), 3, "{answer}");
    let mv = read_move(fields[0]);
    let start = Position::start(8).unwrap();
    assert!(start.play(mv).is_ok(), "{answer}");
    fields[1].parse::<f64>().unwrap();
    fields[2].parse::<f64>().unwrap();
    // The GUI sends it back with `move`, then asks for 2 hints.
    e.send(&format!("move {}/{}/{}", fields[0], fields[1], fields[2]));
    e.sync(2);
    e.send("hint 2");
    let block = e.until("status");
    let block = [block, e.until("status")].concat();
    let found = hints(&block);
    let after = start.play(mv).unwrap();
    let legal = after.legal_moves(after.to_move());
    assert!(
        found
            .iter()
            .all(|h| matches!(h.mv, Move::Place(sq) if legal.contains(&sq)))
    );
    // Two moves at each of the depths 1 to 4, in order.
    let depths: Vec<&str> = found.iter().map(|h| h.depth.as_str()).collect();
    assert_eq!(
        depths,
        ["1", "1", "2", "2", "3", "3", "4", "4"],
        "{block:?}"
    );
    assert!(block.iter().any(|l| l.starts_with("nodestats ")));
    assert_eq!(block.last().unwrap(), "status");
    e.send("learn");
    assert_eq!(e.until("learned"), ["learned"]);
    e.quit();
}

#[test]
fn ping_ends_a_long_hint_at_once() {
    let mut e = Nboard::start(&[]);
    e.send("nboard 2");
    e.send(&format!("set game {START}"));
    e.send("set depth 60");
    e.sync(1);
    e.send("hint 64");
    // The search is under way and deep: an iteration takes a while.
    let mut deepest = 0;
    while deepest < 14 {
        deepest = e
            .until("search ")
            .last()
            .and_then(|l| l.split(' ').nth(4))
            .and_then(|depth| depth.parse::<u32>().ok())
            .unwrap_or(0);
    }
    // Ended at once, not at the end of an iteration (of hours at depth
    // 60): the pong comes (a search left running would never give it) with
    // at most the iteration under way finished after the ping.
    let lines = e.sync(2);
    let after = lines
        .iter()
        .filter_map(|l| {
            l.strip_prefix("search ")?
                .split(' ')
                .nth(3)?
                .parse::<u32>()
                .ok()
        })
        .max()
        .unwrap_or(deepest);
    assert!(after <= deepest + 1, "{lines:?}");
    // The hint was closed before the pong.
    let status = lines.iter().rposition(|l| l == "status").expect("status");
    assert!(status < lines.len() - 1);
    e.quit();
}

#[test]
fn go_spends_the_game_clock_and_plays_solved_endings_exactly() {
    // Half a second left of 5:00 after Black's recorded time: the move's
    // share is tens of milliseconds, where the default is a second.
    let mut e = Nboard::start(&[]);
    let game = START.replace(";)", "B[F5//299.5]W[D6];)");
    e.send(&format!("set game {game}"));
    e.sync(1);
    e.send("go");
    let answer = e.until("===").pop().unwrap();
    let seconds: f64 = answer.rsplit('/').next().unwrap().parse().unwrap();
    assert!(seconds < 0.5, "{answer}");
    // A 4x4 game near its end, two moves to choose from: the answer
    // carries the exact score, in whole discs.
    e.send("set game (;GM[Othello]TY[4]BO[4 -O*- OO*O O*O* OO** *];)");
    e.sync(2);
    e.send("go");
    let answer = e.until("===").pop().unwrap();
    let eval = answer.split('/').nth(1).unwrap();
    assert!(
        !eval.is_empty() && !eval.contains('.'),
        "exact scores are whole discs: {answer}"
    );
    e.quit();
}

#[test]
fn a_win_found_before_the_solver_reads_as_its_disc_count() {
    // Black (a1, a2) takes White's only disc (b2) with C2 or C3 and wins
    // 64-0: at depth 1 the search sees the finished game, and the eval is
    // +64 discs, not the internal score that ranks wins above evaluations
    // (the NBoard GUI showed +10064.00 in its move list).
    let mut e = Nboard::start(&[]);
    let board = format!("*{}*O{}", "-".repeat(7), "-".repeat(54));
    e.send(&format!(
        "set game (;GM[Othello]TI[5:00]TY[8]BO[8 {board} *];)"
    ));
    e.send("set depth 1");
    e.sync(1);
    e.send("go");
    let answer = e.until("===").pop().unwrap();
    let fields: Vec<&str> = answer["=== ".len()..].split('/').collect();
    assert!(["C2", "C3"].contains(&fields[0]), "{answer}");
    assert_eq!(fields[1], "+64.00", "{answer}");
    e.sync(2);
    e.send("hint 2");
    let block = e.until("status");
    let block = [block, e.until("status")].concat();
    let found = hints(&block);
    assert!(
        !found.is_empty() && found.iter().all(|h| h.eval == "+64.00"),
        "{block:?}"
    );
    e.quit();
}

/// One command of a random stream, with what the reference makes of it.
#[derive(Clone, Debug)]
enum Step {
    /// `set game` with the first `k` plies of the game (or a broken copy).
    SetGame {
        plies: usize,
        broken: bool,
    },
    /// `move` with the `i`-th square (any, legal or not), or `PA`.
    Move(Option<usize>),
    Go,
    Hint(u32),
    Depth(u32),
    Junk(String),
}

fn step() -> impl Strategy<Value = Step> {
    prop_oneof![
        1 => (0..40usize, any::<bool>()).prop_map(|(plies, broken)| Step::SetGame { plies, broken }),
        4 => prop::option::weighted(0.9, 0..64usize).prop_map(Step::Move),
        1 => Just(Step::Go),
        1 => (0..4u32).prop_map(Step::Hint),
        1 => prop_oneof![0..8u32, Just(100_000)].prop_map(Step::Depth),
        1 => "[a-z ]{0,12}".prop_map(Step::Junk),
    ]
}

/// A fixed full game to take `set game` records from.
fn source_game() -> Vec<(Color, Move)> {
    let mut g = Game::new(8).unwrap();
    while !g.position().is_game_over() {
        let pos = *g.position();
        let mv = pos
            .legal_moves(pos.to_move())
            .first()
            .map_or(Move::Pass, |&sq| Move::Place(sq));
        g.play(pos.to_move(), mv).unwrap();
    }
    g.moves().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, ..ProptestConfig::default() })]

    #[test]
    fn random_streams_keep_the_game_of_a_reference_replay(steps in prop::collection::vec(step(), 1..30)) {
        let source = source_game();
        let mut e = Nboard::start(&["--movetime", "50"]);
        e.send("nboard 2");
        let mut reference = Game::new(8).unwrap();
        let mut ping = 0;
        for s in &steps {
            match s {
                Step::SetGame { plies, broken } => {
                    let moves = &source[..(*plies).min(source.len())];
                    let header = ggf::Header {
                        black: "a",
                        white: "b",
                        ..ggf::Header::unnamed(ggf::Clocks::Both("0:02"))
                    };
                    let mut text = ggf::write(&header, &Position::start(8).unwrap(), moves);
                    if *broken {
                        text = text.replace("BO[8 ", "BO[8 -");
                    } else {
                        let mut g = Game::new(8).unwrap();
                        for &(c, m) in moves {
                            g.play(c, m).unwrap();
                        }
                        reference = g;
                    }
                    e.send(&format!("set game {text}"));
                }
                Step::Move(i) => {
                    let mv = i.map_or(Move::Pass, |i| Move::Place(Square::from_index(i, 8)));
                    let color = reference.position().to_move();
                    let _ = reference.play(color, mv);
                    e.send(&format!("move {}", upper(mv)));
                }
                Step::Go => {
                    ping += 1;
                    e.sync(ping);
                    e.send("go");
                    let pos = *reference.position();
                    if !pos.is_game_over() {
                        let answer = e.until("===").pop().unwrap();
                        let text = answer["=== ".len()..].split('/').next().unwrap();
                        let mv = read_move(text);
                        prop_assert!(pos.play(mv).is_ok(), "{} in {:?}", answer, pos);
                    }
                }
                Step::Hint(k) => e.send(&format!("hint {k}")),
                Step::Depth(d) => e.send(&format!("set depth {d}")),
                Step::Junk(j) => e.send(j),
            }
        }
        // The engine's game is the reference's: its hints are all the
        // legal moves there.
        ping += 1;
        e.sync(ping);
        e.send("set depth 1");
        e.send("hint 64");
        ping += 1;
        let lines = e.sync(ping);
        let pos = *reference.position();
        let begun = lines.iter().rposition(|l| l.starts_with("status reversi"));
        let mut shown: Vec<Move> = match begun {
            Some(i) => hints(&lines[i..]).into_iter().map(|h| h.mv).collect(),
            None => Vec::new(),
        };
        shown.sort_by_key(|m| upper(*m));
        let mut legal: Vec<Move> = if pos.is_game_over() {
            Vec::new()
        } else if pos.must_pass() {
            vec![Move::Pass]
        } else {
            pos.legal_moves(pos.to_move()).into_iter().map(Move::Place).collect()
        };
        legal.sort_by_key(|m| upper(*m));
        prop_assert_eq!(shown, legal, "{:?}", lines);
        e.quit();
    }
}
