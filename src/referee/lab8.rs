//! A client for Lab 8 programs: a student's game program, which plays the
//! computer's side of the Part 1 transcript while the referee plays the
//! human's. The referee answers its two prompts (the board dimension, the
//! computer's colour), writes the opponent's moves as the handout's two
//! letters (`cd`: row c, column d), and reads the program's own moves from
//! its `Computer places W at cd.` lines.
//!
//! Student programs differ in everything else: prompts without a newline,
//! boards in other layouts, blank lines, wording slips, their own pass and
//! end-of-game lines. So the output is read tolerantly (a move is the
//! first `places <colour> at <row><col>` in it, in any case), but a move is
//! never guessed: the referee keeps its own board, checks every move, and
//! decides passes and the end of the game itself. A program that calls a
//! legal move invalid (`Invalid move`) has refused it. The verdict a
//! program prints is compared with the true result, and a wrong one is
//! noted, not scored. What it prints is capped ([`MAX_OUTPUT`]).
//!
//! Every line sent and received goes into the game's transcript, with its
//! time from the start.
//!
//! A move's time is its wall time, and its CPU time (user and system, of
//! the program and its children, as the handout's `getrusage` measures
//! it): with CPU time judged, a program that has used more than its limit
//! is stopped at once, and one that uses little CPU may take up to a wall
//! cap the referee gives (a busy grading machine does not forfeit it).

use super::sandbox::{Limits, Sandboxed};
use crate::rules::{Color, Square, printable};
use crossbeam_channel::RecvTimeoutError;
use std::collections::VecDeque;
use std::fmt::Write as _;
use std::time::{Duration, Instant};

/// The most bytes a program may print in one game (a board of 26x26 with
/// every line a program prints takes well under a megabyte).
pub const MAX_OUTPUT: usize = 8 << 20;
/// How many of the program's last lines a forfeit quotes.
const LAST_LINES: usize = 5;
/// How much of each of those lines is kept, in characters.
const LINE_CHARS: usize = 120;

/// Why a program gave no move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lab8Error {
    /// Its output ended (it exited or crashed): how, and its last lines.
    Died(String),
    /// Nothing that reads as a move in time.
    Timeout,
    /// No move by the wall-clock cap of a move judged on CPU time: the
    /// move's wall and CPU time so far.
    Hung(Took),
    /// More CPU time than a move judged on it may use (so far).
    LateCpu(Duration),
    /// It printed more than [`MAX_OUTPUT`].
    Flood,
    /// It called the referee's legal move invalid, with its last lines.
    Rejected(String),
    /// It moved for the other colour.
    WrongColour(String),
    /// A whole move line that names no square.
    Garbled(String),
    /// It said its own side has no move, where it has one.
    WrongPass(String),
    /// It could not be started.
    Spawn(String),
}

/// What a move took: wall time, and CPU time (zero where it is not judged).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Took {
    pub wall: Duration,
    pub cpu: Duration,
}

/// How long a move may take.
#[derive(Clone, Copy, Debug)]
pub struct MoveWait {
    /// When to give up on it (wall clock).
    pub deadline: Instant,
    /// With CPU time judged, the most CPU time it may use: it is stopped
    /// as soon as it has used more.
    pub cpu_limit: Option<Duration>,
}

/// How often a move judged on CPU time has its CPU time read while the
/// referee waits for it: it is forfeited at most this long after its limit.
const CPU_POLL: Duration = Duration::from_millis(20);

/// A program's verdict at the end of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Wins(Color),
    Draw,
    /// None that can be read.
    Missing,
}

/// One Lab 8 program playing one game.
pub struct Lab8Program {
    program: Sandboxed,
    colour: Color,
    /// Output not looked at yet.
    pending: String,
    /// The start of a line not ended yet, for the transcript.
    partial: String,
    /// Every line sent (`>`) and received (`<`), with its time.
    transcript: String,
    last_lines: VecDeque<String>,
    start: Instant,
    /// When the move now awaited began to be timed: the last line sent or
    /// the last move read; and, where CPU time is judged, the program's CPU
    /// time then (it is read from `/proc` only for such a program).
    since: Instant,
    cpu_judged: bool,
    cpu_since: Duration,
    read: usize,
    ended: bool,
    /// Passes of its own side the referee has told it of, and the lines in
    /// which it announced one: one more announcement than passes is a
    /// pass where it has a move. (Counted, not matched to our moves: its
    /// output may come after the next line we send.)
    passes: usize,
    pass_lines: Vec<String>,
    /// Whether the referee told it of a pass of its own since the last
    /// line it sent.
    passed: bool,
}

/// How long the next line waits, after a pass of the program's own, for
/// the program to announce that pass (a program that never does costs
/// this much a pass).
const PASS_WAIT: Duration = Duration::from_millis(500);

impl Lab8Program {
    /// Starts `command_line` under `limits` and answers its prompts: an n x
    /// n board, the computer playing `colour`; its moves' CPU time is
    /// measured when `cpu_judged`.
    pub fn start(
        command_line: &str,
        limits: Limits,
        n: usize,
        colour: Color,
        cpu_judged: bool,
    ) -> Result<Lab8Program, Lab8Error> {
        let program =
            Sandboxed::spawn(command_line, limits).map_err(|e| Lab8Error::Spawn(e.to_string()))?;
        let now = Instant::now();
        let mut lab8 = Lab8Program {
            program,
            colour,
            pending: String::new(),
            partial: String::new(),
            transcript: String::new(),
            last_lines: VecDeque::new(),
            start: now,
            since: now,
            cpu_judged,
            cpu_since: Duration::ZERO,
            read: 0,
            ended: false,
            passes: 0,
            pass_lines: Vec::new(),
            passed: false,
        };
        lab8.send(&n.to_string())?;
        lab8.send(if colour == Color::Black { "B" } else { "W" })?;
        Ok(lab8)
    }

    /// Writes a line to the program and the transcript. What the program
    /// printed before it is no answer to it: it is not looked at again
    /// (a pass it announced for itself before our move is past). After a
    /// pass of its own, the line waits until the program has announced
    /// it: what it prints during that pass (some print `Computer places W
    /// at ..` and `Invalid move!` before `W player has no valid move.`)
    /// is drained with it, not read as the answer to this line.
    fn send(&mut self, line: &str) -> Result<(), Lab8Error> {
        if std::mem::take(&mut self.passed) {
            let deadline = Instant::now() + PASS_WAIT;
            while self.pass_lines.len() < self.passes && !self.ended {
                if self.receive(deadline).is_err() {
                    break;
                }
            }
        }
        self.flush_partial();
        self.pending.clear();
        let _ = writeln!(self.transcript, "{} > {line}", self.stamp());
        self.start_timing();
        self.program
            .write_line(line)
            .map_err(|_| Lab8Error::Died(format!("stopped reading; {}", self.last_words())))
    }

    /// The opponent's move on `sq`, as the human's input.
    pub fn tell(&mut self, sq: Square) -> Result<(), Lab8Error> {
        self.send(&sq.lab())
    }

    /// The colour it plays.
    pub fn colour(&self) -> Color {
        self.colour
    }

    /// A pass of its own side, which it announces itself.
    pub fn own_pass(&mut self) {
        self.passes += 1;
        self.passed = true;
    }

    /// Starts timing the move awaited now.
    fn start_timing(&mut self) {
        self.since = Instant::now();
        if self.cpu_judged {
            self.cpu_since = self.program.cpu_time();
        }
    }

    /// The time the awaited move has taken so far (no CPU time where it is
    /// not judged).
    fn took(&self) -> Took {
        let cpu = if self.cpu_judged {
            self.program.cpu_time().saturating_sub(self.cpu_since)
        } else {
            Duration::ZERO
        };
        Took {
            wall: self.since.elapsed(),
            cpu,
        }
    }

    /// The program's next move, read as `wait` allows, and the time it
    /// took since it could start on it.
    pub fn next_move(&mut self, wait: MoveWait) -> Result<(Square, Took), Lab8Error> {
        loop {
            let found = match find_move(&self.pending) {
                Found::Move(colour, sq, end) => Some((colour, sq, end)),
                Found::Garbled(line) => return Err(Lab8Error::Garbled(line)),
                Found::Nothing => None,
            };
            if let Some((colour, sq, end)) = found {
                let took = self.took();
                self.pending.drain(..end);
                self.start_timing();
                let own = if self.colour == Color::Black {
                    'B'
                } else {
                    'W'
                };
                if colour != own {
                    return Err(Lab8Error::WrongColour(format!(
                        "it played {colour} {} for {own}",
                        sq.lab()
                    )));
                }
                return Ok((sq, took));
            }
            if self.pending.to_ascii_lowercase().contains("invalid") {
                return Err(Lab8Error::Rejected(self.last_words()));
            }
            if self.pass_lines.len() > self.passes {
                return Err(Lab8Error::WrongPass(self.pass_lines[self.passes].clone()));
            }
            self.receive_within(wait)?;
        }
    }

    /// Takes in the next chunk of output as `wait` allows, reading the
    /// CPU time every [`CPU_POLL`] when it is judged.
    fn receive_within(&mut self, wait: MoveWait) -> Result<(), Lab8Error> {
        let Some(limit) = wait.cpu_limit else {
            return self.receive(wait.deadline);
        };
        loop {
            let step = (Instant::now() + CPU_POLL).min(wait.deadline);
            match self.receive(step) {
                Err(Lab8Error::Timeout) => {
                    let took = self.took();
                    if took.cpu > limit {
                        return Err(Lab8Error::LateCpu(took.cpu));
                    }
                    if Instant::now() >= wait.deadline {
                        return Err(Lab8Error::Hung(took));
                    }
                }
                other => return other,
            }
        }
    }

    /// Takes in the next chunk of output, by `deadline`.
    fn receive(&mut self, deadline: Instant) -> Result<(), Lab8Error> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.program.output().recv_timeout(wait) {
            Ok(chunk) => {
                self.read += chunk.len();
                if self.read > MAX_OUTPUT {
                    return Err(Lab8Error::Flood);
                }
                let text = String::from_utf8_lossy(&chunk).replace('\r', "");
                self.pending.push_str(&text);
                self.log_output(&text);
                // A move is near the end of what was printed: the text
                // before the last few lines is no longer looked at.
                if self.pending.len() > 1 << 16 {
                    let cut = self.pending.len() - (1 << 12);
                    let cut = (cut..self.pending.len())
                        .find(|&i| self.pending.is_char_boundary(i))
                        .unwrap_or(cut);
                    self.pending.drain(..cut);
                }
                Ok(())
            }
            Err(RecvTimeoutError::Timeout) => Err(Lab8Error::Timeout),
            Err(RecvTimeoutError::Disconnected) => {
                self.ended = true;
                let how = self
                    .program
                    .how_it_ended(Duration::from_millis(500))
                    .unwrap_or_else(|| "closed its output".into());
                self.note(&format!("the program {how}"));
                Err(Lab8Error::Died(format!("{how}; {}", self.last_words())))
            }
        }
    }

    /// The program's verdict once the game is over, read for up to `wait`
    /// (or until its output ends); the program is then ended.
    pub fn verdict(&mut self, wait: Duration) -> Verdict {
        let deadline = Instant::now() + wait;
        while !self.ended && self.receive(deadline).is_ok() {}
        self.flush_partial();
        self.program.end();
        read_verdict(&self.pending)
    }

    /// Notes `text` in the transcript.
    pub fn note(&mut self, text: &str) {
        self.flush_partial();
        let _ = writeln!(self.transcript, "{} # {text}", self.stamp());
    }

    /// The transcript so far.
    pub fn transcript(&self) -> &str {
        &self.transcript
    }

    /// Ends the program now.
    pub fn end(&mut self) {
        self.program.end();
    }

    /// The program's last lines, joined by ` | `.
    pub fn last_words(&self) -> String {
        let mut lines: Vec<String> = self.last_lines.iter().cloned().collect();
        if !self.partial.trim().is_empty() {
            lines.push(cut_line(&self.partial));
        }
        let start = lines.len().saturating_sub(LAST_LINES);
        lines[start..].join(" | ")
    }

    fn stamp(&self) -> String {
        format!("{:9.3}", self.start.elapsed().as_secs_f64())
    }

    /// Adds output to the transcript, a whole line at a time.
    fn log_output(&mut self, text: &str) {
        self.partial.push_str(text);
        while let Some(i) = self.partial.find('\n') {
            let line: String = self.partial.drain(..=i).collect();
            let line = line.trim_end_matches('\n').to_string();
            self.log_line(&line);
        }
        // A line that runs on without end is logged in pieces.
        if self.partial.len() > 4096 {
            let line = std::mem::take(&mut self.partial);
            self.log_line(&line);
        }
    }

    fn log_line(&mut self, line: &str) {
        let _ = writeln!(self.transcript, "{} < {}", self.stamp(), printable(line));
        if announces_pass(line, self.colour) {
            self.pass_lines.push(cut_line(line));
        }
        if !line.trim().is_empty() {
            if self.last_lines.len() == LAST_LINES {
                self.last_lines.pop_front();
            }
            self.last_lines.push_back(cut_line(line));
        }
    }

    /// Logs a line the program has not ended (a prompt).
    fn flush_partial(&mut self) {
        if !self.partial.is_empty() {
            let line = std::mem::take(&mut self.partial);
            self.log_line(&line);
        }
    }
}

/// A line as a forfeit quotes it: trimmed, printable, cut short.
fn cut_line(line: &str) -> String {
    printable(line.trim()).chars().take(LINE_CHARS).collect()
}

/// What the output holds so far.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Found {
    /// A move: its colour letter (upper case), its square, and where it
    /// ends in the text.
    Move(char, Square, usize),
    /// A whole line that announces a move (`places <colour> at`) but names
    /// no square.
    Garbled(String),
    /// No move yet (none, or one still being printed).
    Nothing,
}

/// The first `places <colour> at <row><col>` in `text` (any case, any
/// spaces).
fn find_move(text: &str) -> Found {
    let lower = text.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let skip = |mut i: usize| {
        while i < bytes.len() && bytes[i].is_ascii_whitespace() && bytes[i] != b'\n' {
            i += 1;
        }
        i
    };
    for (at, _) in lower.match_indices("places") {
        let i = skip(at + "places".len());
        let colour = match bytes.get(i) {
            Some(b'b') => 'B',
            Some(b'w') => 'W',
            _ => continue,
        };
        let i = skip(i + 1);
        if !lower[i..].starts_with("at") {
            continue;
        }
        let i = skip(i + 2);
        match (bytes.get(i), bytes.get(i + 1)) {
            (Some(&r), Some(&c)) if r.is_ascii_lowercase() && c.is_ascii_lowercase() => {
                let sq = Square::new(usize::from(r - b'a'), usize::from(c - b'a'));
                return Found::Move(colour, sq, i + 2);
            }
            _ => {
                // Garbled once its line is whole; else still being printed.
                let line_end = lower[at..].find('\n').map(|e| at + e);
                return match line_end {
                    Some(end) => {
                        let start = lower[..at].rfind('\n').map_or(0, |s| s + 1);
                        Found::Garbled(cut_line(&text[start..end]))
                    }
                    None => Found::Nothing,
                };
            }
        }
    }
    Found::Nothing
}

/// Whether the program says in `line` that `colour` has no move (`B
/// player has no valid move.`, `W Player has no move.`). A line that names
/// no colour (`No available moves.`) is not taken for either.
fn announces_pass(line: &str, colour: Color) -> bool {
    let own = if colour == Color::Black { "b" } else { "w" };
    let lower = line.to_ascii_lowercase();
    let says_pass = [
        "no valid move",
        "no available move",
        "no legal move",
        "has no move",
    ]
    .iter()
    .any(|p| lower.contains(p));
    says_pass
        && lower
            .split(|c: char| !c.is_ascii_alphanumeric())
            .any(|w| w == own)
}

/// The verdict in a program's last output: a line saying who wins (`B
/// player wins.`, `W wins`), or one saying draw or tie.
fn read_verdict(text: &str) -> Verdict {
    for line in text.lines().rev() {
        let lower = line.to_ascii_lowercase();
        if lower.contains("draw") || lower.contains("tie") {
            return Verdict::Draw;
        }
        if lower.contains("win") {
            let colour = lower
                .split(|c: char| !c.is_ascii_alphanumeric())
                .find_map(|w| match w {
                    "b" | "black" => Some(Color::Black),
                    "w" | "white" => Some(Color::White),
                    _ => None,
                });
            if let Some(c) = colour {
                return Verdict::Wins(c);
            }
        }
    }
    Verdict::Missing
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_program_prints_during_its_own_pass_is_not_its_next_move() {
        // White passes first: the program prints its pass slowly, with a
        // move of no square before the announcement, and then answers the
        // referee's move with its own.
        let script = "read n; read c; sleep 0.3; \
            printf 'Computer places W at ..\\nInvalid move!\\nW player has no valid move.\\n'; \
            read m; printf 'Computer places W at cd.\\n'; read x";
        let command = format!("sh -c \"{script}\"");
        let mut p =
            Lab8Program::start(&command, Limits::default(), 4, Color::White, false).unwrap();
        p.own_pass();
        p.tell(Square::new(0, 1)).unwrap();
        let wait = MoveWait {
            deadline: Instant::now() + Duration::from_secs(10),
            cpu_limit: None,
        };
        let (sq, _) = p.next_move(wait).unwrap();
        assert_eq!(sq, Square::new(2, 3));
        p.end();
    }

    #[test]
    fn moves_are_read_in_any_wording_and_never_guessed() {
        let sq = |r, c| Square::new(r, c);
        assert_eq!(
            find_move("  abcd\nComputer places W at cd.\n"),
            Found::Move('W', sq(2, 3), 30)
        );
        assert_eq!(
            find_move("computer  PLACES b  at  ab\n"),
            Found::Move('B', sq(0, 1), 26)
        );
        // One letter of two so far: wait for the rest.
        assert_eq!(find_move("Computer places W at c"), Found::Nothing);
        assert_eq!(
            find_move("Enter move for colour B (RowCol): "),
            Found::Nothing
        );
        // "places" elsewhere is passed over.
        assert_eq!(
            find_move("It places nothing.\nComputer places B at aa"),
            Found::Move('B', sq(0, 0), 42)
        );
        // A whole move line with no square in it.
        assert_eq!(
            find_move("Computer places W at ??.\n"),
            Found::Garbled("Computer places W at ??.".into())
        );
        assert_eq!(find_move("Computer places W at ??"), Found::Nothing);
    }

    #[test]
    fn a_pass_is_taken_for_the_side_it_names() {
        let line = "W player has no valid move.";
        assert!(announces_pass(line, Color::White));
        assert!(!announces_pass(line, Color::Black));
        assert!(announces_pass("B Player has no move.", Color::Black));
        assert!(announces_pass(
            "B player has no available move.",
            Color::Black
        ));
        assert!(!announces_pass("No available moves.", Color::Black));
        assert!(!announces_pass(
            "Enter move for colour B (RowCol): ",
            Color::Black
        ));
    }

    #[test]
    fn verdicts_in_the_forms_programs_print() {
        assert_eq!(read_verdict("B player wins."), Verdict::Wins(Color::Black));
        assert_eq!(
            read_verdict("W player wins.   "),
            Verdict::Wins(Color::White)
        );
        assert_eq!(read_verdict("White wins!"), Verdict::Wins(Color::White));
        assert_eq!(read_verdict("Draw!"), Verdict::Draw);
        assert_eq!(read_verdict("It's a draw."), Verdict::Draw);
        assert_eq!(read_verdict("Its a tie."), Verdict::Draw);
        assert_eq!(read_verdict("  abcd\na BBBB\n"), Verdict::Missing);
    }
}
