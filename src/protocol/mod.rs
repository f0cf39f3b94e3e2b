//! The engine daemons: GTP (here; see `protocol.md`) and NBoard
//! ([`nboard`]) over stdin/stdout.
//!
//! Three threads each: a reader that only reads and parses lines (and
//! raises the stop signal itself for the commands that end a search, see
//! [`reader`]); the controller, which owns the game and the only writer of
//! stdout and answers every line in order; and the engine's search thread
//! (see [`crate::engine`]). Controllers only translate between their
//! protocol and the [`crate::engine::Engine`].

mod command;
mod controller;
mod grammar;
pub mod nboard;
pub mod reader;

pub use command::{Command, Notation, Setting, Setup};
pub use grammar::{COMMANDS, Rejection, Request, parse_line};

use crate::engine::Options;
use controller::Controller;
use reader::{Line, MAX_LINE, Parsed};
use std::io::{self, BufRead, Write};

/// What the GTP daemon starts with besides its engine, for GUIs that set
/// it up only from the command line: GoGui never sends `boardsize` to its
/// rules engine, and speaks its own coordinates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Startup {
    pub size: usize,
    pub notation: Notation,
}

impl Default for Startup {
    fn default() -> Self {
        Startup {
            size: 8,
            notation: Notation::Standard,
        }
    }
}

/// Runs the GTP daemon until `quit` or end of input; returns when stdout
/// is closed too. `input` is read on a thread of its own.
pub fn run<R, W>(input: R, output: W, options: &Options, startup: Startup) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let mut controller = Controller::new(output, options, startup)?;
    reader::serve(input, parse, |request, token, received| {
        controller.answer(request, token, received)
    })
}

/// One GTP line read: blank lines are skipped, `stop` and `quit` stop the
/// search at once.
fn parse(line: Line) -> Option<Parsed<Result<Request, Rejection>>> {
    let request = match line {
        Line::TooLong => Err(Rejection {
            id: None,
            message: format!("line too long (more than {MAX_LINE} bytes)"),
        }),
        Line::Text(bytes) => {
            let text = clean(&bytes);
            if text.trim_matches(' ').is_empty() {
                return None;
            }
            parse_line(&text)
        }
    };
    let command = request.as_ref().ok().map(|r| &r.command);
    let last = matches!(command, Some(Command::Quit));
    Some(Parsed {
        stop: last || matches!(command, Some(Command::Stop)),
        last,
        request,
    })
}

/// GTP preprocessing: text after `#` removed, tabs made spaces, other
/// control characters dropped; invalid UTF-8 becomes U+FFFD.
fn clean(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    let text = text.split('#').next().unwrap_or("");
    text.chars()
        .filter_map(|c| match c {
            '\t' => Some(' '),
            c if c.is_control() => None,
            c => Some(c),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cleaning_follows_gtp_preprocessing() {
        assert_eq!(clean(b"play\tblack d3 # comment"), "play black d3 ");
        assert_eq!(clean(b"na\x01me\x7f"), "name");
        assert_eq!(clean(b"# only a comment"), "");
    }
}
