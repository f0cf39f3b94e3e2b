//! Adapters that reproduce the course's lab programs byte for byte on top of
//! the rules core: Lab 7 (board set-up and move legality) and Lab 8 Part 1
//! (a human against a computer player). They read whitespace-separated
//! tokens, as the C originals' `scanf` calls do, and never echo input.

mod lab7;
mod lab8;

pub use lab7::run_lab7;
pub use lab8::{Wording, run_lab8};

use crate::engine::UnsupportedSize;
use crate::rules::{Color, Position, Square, printable};
use std::collections::VecDeque;
use std::io::{self, BufRead, Write};

/// Why a lab program stopped before its normal end.
#[derive(Debug, thiserror::Error)]
pub enum LabError {
    /// Reading stdin or writing stdout failed.
    #[error("i/o error: {0}")]
    Io(#[from] io::Error),
    /// The board dimension is not an even number from 4 to 26.
    #[error("board dimension '{}' is not an even number from 4 to 26", printable(.0))]
    BadDimension(String),
    /// The computer's colour is not `B` or `W`.
    #[error("computer colour '{}' is not B or W", printable(.0))]
    BadColor(String),
    /// The chosen computer player does not play this board size.
    #[error(transparent)]
    UnsupportedSize(#[from] UnsupportedSize),
}

/// Whitespace-separated tokens read lazily, a line at a time, so that an
/// interactive user sees each prompt before typing the answer.
struct Tokens<R> {
    reader: R,
    pending: VecDeque<String>,
}

impl<R: BufRead> Tokens<R> {
    fn new(reader: R) -> Self {
        Tokens {
            reader,
            pending: VecDeque::new(),
        }
    }

    /// The next token, or `None` at end of input.
    fn next(&mut self) -> io::Result<Option<String>> {
        while self.pending.is_empty() {
            let mut line = Vec::new();
            if self.reader.read_until(b'\n', &mut line)? == 0 {
                return Ok(None);
            }
            let line = String::from_utf8_lossy(&line);
            self.pending
                .extend(line.split_ascii_whitespace().map(str::to_string));
        }
        Ok(self.pending.pop_front())
    }
}

/// Reads the board dimension; `None` at end of input.
fn read_dimension<R: BufRead>(tokens: &mut Tokens<R>) -> Result<Option<Position>, LabError> {
    let Some(tok) = tokens.next()? else {
        return Ok(None);
    };
    let n: usize = tok
        .parse()
        .map_err(|_| LabError::BadDimension(tok.clone()))?;
    Position::start(n)
        .map(Some)
        .map_err(|_| LabError::BadDimension(tok))
}

/// Prints the board as the labs do: a header of two spaces and the column
/// letters, then each row's letter, a space and its cells as `U`/`B`/`W`.
fn print_board<W: Write>(out: &mut W, pos: &Position) -> io::Result<()> {
    let n = pos.size();
    let letters: String = (0..n).map(|i| (b'a' + i as u8) as char).collect();
    let mut text = format!("  {letters}\n");
    for row in 0..n {
        text.push(letters.as_bytes()[row] as char);
        text.push(' ');
        for col in 0..n {
            text.push(match pos.cell(Square::new(row, col)) {
                None => 'U',
                Some(c) => c.letter(),
            });
        }
        text.push('\n');
    }
    out.write_all(text.as_bytes())
}

/// Reads a colour letter as the labs write it: `B` or `W`.
fn lab_color(c: u8) -> Option<Color> {
    match c {
        b'B' => Some(Color::Black),
        b'W' => Some(Color::White),
        _ => None,
    }
}
