//! The lab programs, byte for byte, through the real binary on piped stdin:
//! the four handout transcripts, and random sessions on every even size
//! from 4 to 26 against a plain reference written here the way the
//! handouts describe the C programs (a `char board[26][26]`, eight
//! direction checks), independent of the library.

mod common;

use proptest::prelude::*;

/// Runs `reversi <args>` with `input` on stdin; returns (stdout, status).
fn run(args: &[&str], input: &str) -> (String, i32) {
    let out = common::run(args, input.as_bytes());
    (
        String::from_utf8(out.stdout).unwrap(),
        out.status.code().unwrap_or(-1),
    )
}

fn fixture(name: &str) -> (String, String) {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/handout/");
    let read = |ext: &str| std::fs::read_to_string(format!("{dir}{name}.{ext}")).unwrap();
    (read("in"), read("out"))
}

#[test]
fn lab7_handout_transcripts() {
    for name in ["lab7-1", "lab7-2"] {
        let (input, expected) = fixture(name);
        assert_eq!(run(&["lab7"], &input), (expected, 0), "{name}");
    }
}

#[test]
fn lab8_handout_transcripts() {
    for name in ["lab8-1", "lab8-2"] {
        let (input, expected) = fixture(name);
        assert_eq!(run(&["lab8"], &input), (expected, 0), "{name}");
    }
}

#[test]
fn lab8_course_wording_differs_only_in_the_prompts() {
    let (input, expected) = fixture("lab8-1");
    let expected = expected
        .replace("Computer plays (B/W) : ", "Computer plays (B/W): ")
        .replace("for color", "for colour");
    assert_eq!(run(&["lab8", "--wording", "course"], &input), (expected, 0));
}

#[test]
fn early_end_of_input_exits_quietly() {
    assert_eq!(
        run(&["lab7"], ""),
        ("Enter the board dimension: ".into(), 0)
    );
    let (out, code) = run(&["lab8"], "8\nW\n");
    assert_eq!(code, 0);
    assert!(out.ends_with("Enter move for color B (RowCol): "));
}

#[test]
fn bad_dimension_or_colour_is_an_error_on_stderr() {
    for dim in ["5", "2", "28", "x"] {
        let (out, code) = run(&["lab7"], &format!("{dim}\n"));
        assert_eq!(
            (out.as_str(), code),
            ("Enter the board dimension: ", 2),
            "{dim}"
        );
    }
    let (_, code) = run(&["lab8"], "8\nX\n");
    assert_eq!(code, 2);
}

// ---- The reference: the lab programs as the handouts describe them. ----

struct RefBoard {
    n: usize,
    cells: [[u8; 26]; 26],
}

impl RefBoard {
    fn new(n: usize) -> RefBoard {
        let mut cells = [[b'U'; 26]; 26];
        cells[n / 2 - 1][n / 2 - 1] = b'W';
        cells[n / 2][n / 2] = b'W';
        cells[n / 2 - 1][n / 2] = b'B';
        cells[n / 2][n / 2 - 1] = b'B';
        RefBoard { n, cells }
    }

    fn print(&self, out: &mut String) {
        out.push_str("  ");
        for c in 0..self.n {
            out.push((b'a' + c as u8) as char);
        }
        out.push('\n');
        for r in 0..self.n {
            out.push((b'a' + r as u8) as char);
            out.push(' ');
            for c in 0..self.n {
                out.push(self.cells[r][c] as char);
            }
            out.push('\n');
        }
    }

    fn in_bounds(&self, r: i32, c: i32) -> bool {
        r >= 0 && c >= 0 && (r as usize) < self.n && (c as usize) < self.n
    }

    /// Number of discs flipped in direction (dr, dc), 0 if none.
    fn flips_in_direction(&self, r: usize, c: usize, color: u8, dr: i32, dc: i32) -> usize {
        let other = if color == b'B' { b'W' } else { b'B' };
        let (mut rr, mut cc, mut k) = (r as i32 + dr, c as i32 + dc, 0);
        while self.in_bounds(rr, cc) && self.cells[rr as usize][cc as usize] == other {
            rr += dr;
            cc += dc;
            k += 1;
        }
        if k > 0 && self.in_bounds(rr, cc) && self.cells[rr as usize][cc as usize] == color {
            k
        } else {
            0
        }
    }

    fn score(&self, r: usize, c: usize, color: u8) -> usize {
        if self.cells[r][c] != b'U' {
            return 0;
        }
        let mut total = 0;
        for dr in -1..=1 {
            for dc in -1..=1 {
                if dr != 0 || dc != 0 {
                    total += self.flips_in_direction(r, c, color, dr, dc);
                }
            }
        }
        total
    }

    fn moves(&self, color: u8) -> Vec<(usize, usize)> {
        let mut v = Vec::new();
        for r in 0..self.n {
            for c in 0..self.n {
                if self.score(r, c, color) > 0 {
                    v.push((r, c));
                }
            }
        }
        v
    }

    fn apply(&mut self, r: usize, c: usize, color: u8) {
        for dr in -1..=1i32 {
            for dc in -1..=1i32 {
                if (dr != 0 || dc != 0) && self.flips_in_direction(r, c, color, dr, dc) > 0 {
                    let (mut rr, mut cc) = (r as i32 + dr, c as i32 + dc);
                    while self.cells[rr as usize][cc as usize] != color {
                        self.cells[rr as usize][cc as usize] = color;
                        rr += dr;
                        cc += dc;
                    }
                }
            }
        }
        self.cells[r][c] = color;
    }

    fn count(&self, color: u8) -> usize {
        (0..self.n)
            .flat_map(|r| (0..self.n).map(move |c| (r, c)))
            .filter(|&(r, c)| self.cells[r][c] == color)
            .count()
    }
}

fn sq(r: usize, c: usize) -> String {
    format!("{}{}", (b'a' + r as u8) as char, (b'a' + c as u8) as char)
}

/// A small deterministic generator driven by the proptest seed.
struct Rng(u64);
impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

/// A random Lab 7 session on an n x n board: (stdin, expected stdout).
fn lab7_session(n: usize, rng: &mut Rng) -> (String, String) {
    let mut b = RefBoard::new(n);
    let mut input = format!("{n}\n");
    let mut out = String::from("Enter the board dimension: ");
    b.print(&mut out);
    out.push_str("Enter board configuration:\n");
    for _ in 0..rng.below(3 * n) {
        let color = if rng.below(2) == 0 { b'B' } else { b'W' };
        let (r, c) = (rng.below(n), rng.below(n));
        b.cells[r][c] = color;
        input.push_str(&format!("{}{}\n", color as char, sq(r, c)));
    }
    input.push_str("!!!\n");
    b.print(&mut out);
    for color in [b'W', b'B'] {
        out.push_str(&format!("Available moves for {}:\n", color as char));
        for (r, c) in b.moves(color) {
            out.push_str(&sq(r, c));
            out.push('\n');
        }
    }
    out.push_str("Enter a move:\n");
    let color = if rng.below(2) == 0 { b'B' } else { b'W' };
    let legal = b.moves(color);
    // Half the time a legal move, otherwise any square (often invalid).
    let (r, c) = if !legal.is_empty() && rng.below(2) == 0 {
        legal[rng.below(legal.len())]
    } else {
        (rng.below(n), rng.below(n))
    };
    input.push_str(&format!("{}{}\n", color as char, sq(r, c)));
    if b.score(r, c, color) > 0 {
        out.push_str("Valid move.\n");
        b.apply(r, c, color);
    } else {
        out.push_str("Invalid move.\n");
    }
    b.print(&mut out);
    (input, out)
}

/// A random Lab 8 game: the human plays random legal moves and, now and
/// then, a bad one; the computer is greedy. Returns (stdin, stdout).
fn lab8_session(n: usize, computer: u8, course: bool, rng: &mut Rng) -> (String, String) {
    let mut b = RefBoard::new(n);
    let mut input = format!("{n}\n{}\n", computer as char);
    let mut out = String::from("Enter the board dimension: ");
    out.push_str(if course {
        "Computer plays (B/W): "
    } else {
        "Computer plays (B/W) : "
    });
    b.print(&mut out);
    let mut turn = b'B';
    let other = |c: u8| if c == b'B' { b'W' } else { b'B' };
    loop {
        let mine = b.moves(turn);
        if mine.is_empty() && b.moves(other(turn)).is_empty() {
            let (bl, wh) = (b.count(b'B'), b.count(b'W'));
            out.push_str(match bl.cmp(&wh) {
                std::cmp::Ordering::Greater => "B player wins.\n",
                std::cmp::Ordering::Less => "W player wins.\n",
                std::cmp::Ordering::Equal => "Draw!\n",
            });
            break;
        }
        if mine.is_empty() {
            out.push_str(&format!("{} player has no valid move.\n", turn as char));
            turn = other(turn);
            continue;
        }
        if turn == computer {
            let mut best = (0, 0, 0);
            for &(r, c) in &mine {
                let s = b.score(r, c, turn);
                if s > best.0 {
                    best = (s, r, c);
                }
            }
            b.apply(best.1, best.2, turn);
            out.push_str(&format!(
                "Computer places {} at {}.\n",
                turn as char,
                sq(best.1, best.2)
            ));
        } else {
            out.push_str(&format!(
                "Enter move for {} {} (RowCol): ",
                if course { "colour" } else { "color" },
                turn as char
            ));
            if rng.below(40) == 0 {
                let bad = ["zz", "a", "abc", "A1", "!!"][rng.below(5)];
                let (r, c) = (rng.below(n), rng.below(n));
                let token = if rng.below(2) == 0 {
                    sq(r, c)
                } else {
                    bad.to_string()
                };
                if token.len() == 2 && token.bytes().all(|x| x.is_ascii_lowercase()) {
                    let (r, c) = (
                        (token.as_bytes()[0] - b'a') as usize,
                        (token.as_bytes()[1] - b'a') as usize,
                    );
                    if r < n && c < n && b.score(r, c, turn) > 0 {
                        // Happened to be legal: play it.
                        input.push_str(&token);
                        input.push('\n');
                        b.apply(r, c, turn);
                        b.print(&mut out);
                        turn = other(turn);
                        continue;
                    }
                }
                input.push_str(&token);
                input.push('\n');
                out.push_str(&format!(
                    "Invalid move.\n{} player wins.\n",
                    computer as char
                ));
                break;
            }
            let (r, c) = mine[rng.below(mine.len())];
            input.push_str(&format!("{}\n", sq(r, c)));
            b.apply(r, c, turn);
        }
        b.print(&mut out);
        turn = other(turn);
    }
    (input, out)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    #[test]
    fn lab7_matches_the_reference(half in 2usize..=13, seed in any::<u64>()) {
        let (input, expected) = lab7_session(2 * half, &mut Rng(seed | 1));
        let (out, code) = run(&["lab7"], &input);
        prop_assert_eq!(code, 0);
        prop_assert_eq!(out, expected);
    }

    #[test]
    fn lab8_matches_the_reference(half in 2usize..=13, seed in any::<u64>(), black in any::<bool>(), course in any::<bool>()) {
        let computer = if black { b'B' } else { b'W' };
        let (input, expected) = lab8_session(2 * half, computer, course, &mut Rng(seed | 1));
        let wording = if course { "course" } else { "handout" };
        let (out, code) = run(&["lab8", "--wording", wording], &input);
        prop_assert_eq!(code, 0);
        prop_assert_eq!(out, expected);
    }
}

#[test]
fn lab_sessions_on_every_size() {
    // Each even size at least once, with both colours, whatever proptest drew.
    for n in (4..=26).step_by(2) {
        let mut rng = Rng(n as u64 * 7919);
        let (input, expected) = lab7_session(n, &mut rng);
        assert_eq!(run(&["lab7"], &input), (expected, 0), "lab7 n={n}");
        for computer in [b'B', b'W'] {
            let (input, expected) = lab8_session(n, computer, false, &mut rng);
            assert_eq!(run(&["lab8"], &input), (expected, 0), "lab8 n={n}");
        }
    }
}
