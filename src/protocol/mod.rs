//! The engine daemon: GTP framing over stdin/stdout (see `protocol.md`).
//!
//! Three threads: a reader that only reads, cleans and parses lines (and
//! raises the stop signal itself on `stop`, `quit` and end of input, so a
//! search in progress ends at once); the controller, which owns the game
//! and the only writer of stdout and answers every line in order; and the
//! engine's search thread (see [`crate::engine`]).

mod command;
mod controller;

pub use command::{COMMANDS, Command, Notation, Rejection, Request, Setting, Setup, parse_line};

use crate::search::{StopSignal, StopToken};
use controller::Controller;
use crossbeam_channel::{Sender, unbounded};
use std::io::{self, BufRead, Write};
use std::thread;
use std::time::Instant;

/// Longest line the daemon reads; longer ones are answered with an error.
pub const MAX_LINE: usize = 64 * 1024;

/// What the reader hands the controller.
enum Input {
    /// A non-empty line, parsed, with the stop token taken when it was read
    /// and the time it arrived.
    Line {
        request: Result<Request, Rejection>,
        token: StopToken,
        received: Instant,
    },
    /// End of input.
    End,
}

/// Runs the daemon until `quit` or end of input; returns when stdout is
/// closed too. `input` is read on a thread of its own.
pub fn run<R, W>(input: R, output: W) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    W: Write,
{
    let (tx, rx) = unbounded();
    let signal = StopSignal::new();
    let reader_signal = signal.clone();
    thread::Builder::new()
        .name("reader".into())
        .spawn(move || read_lines(input, tx, reader_signal))?;
    let mut controller = Controller::new(output);
    for input in rx {
        match input {
            Input::End => break,
            Input::Line {
                request,
                token,
                received,
            } => {
                if !controller.answer(request, token, received)? {
                    break;
                }
            }
        }
    }
    Ok(())
}

/// The reader thread: lines in, parsed requests out, stop raised early.
fn read_lines<R: BufRead>(mut input: R, tx: Sender<Input>, signal: StopSignal) {
    loop {
        let line = match read_line(&mut input) {
            Ok(Some(line)) => line,
            Ok(None) | Err(_) => {
                signal.raise();
                let _ = tx.send(Input::End);
                return;
            }
        };
        let received = Instant::now();
        let request = match line {
            Line::TooLong => Err(Rejection {
                id: None,
                message: format!("line too long (more than {MAX_LINE} bytes)"),
            }),
            Line::Text(bytes) => {
                let text = clean(&bytes);
                if text.trim_matches(' ').is_empty() {
                    continue;
                }
                parse_line(&text)
            }
        };
        let token = signal.token();
        let command = request.as_ref().ok().map(|r| &r.command);
        let quit = matches!(command, Some(Command::Quit));
        if quit || matches!(command, Some(Command::Stop)) {
            signal.raise();
        }
        if tx
            .send(Input::Line {
                request,
                token,
                received,
            })
            .is_err()
            || quit
        {
            return;
        }
    }
}

/// A raw input line.
enum Line {
    Text(Vec<u8>),
    TooLong,
}

/// Reads up to the next `\n` (dropping a `\r` before it), never holding
/// more than [`MAX_LINE`] bytes; `None` at end of input.
fn read_line<R: BufRead>(input: &mut R) -> io::Result<Option<Line>> {
    let mut line = Vec::new();
    let mut too_long = false;
    let mut any = false;
    loop {
        let buf = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if buf.is_empty() {
            break;
        }
        any = true;
        let (chunk, used, done) = match buf.iter().position(|&b| b == b'\n') {
            Some(pos) => (&buf[..pos], pos + 1, true),
            None => (buf, buf.len(), false),
        };
        if !too_long {
            line.extend_from_slice(chunk);
            // One byte more for the `\r` of a `\r\n` ending.
            if line.len() > MAX_LINE + 1 {
                too_long = true;
                line = Vec::new();
            }
        }
        input.consume(used);
        if done {
            break;
        }
    }
    if !any {
        return Ok(None);
    }
    if line.last() == Some(&b'\r') {
        line.pop();
    }
    if too_long || line.len() > MAX_LINE {
        return Ok(Some(Line::TooLong));
    }
    Ok(Some(Line::Text(line)))
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

    #[test]
    fn long_lines_are_cut_and_the_next_line_survives() {
        let mut data = vec![b'x'; MAX_LINE + 10];
        data.extend_from_slice(b"\r\nname\r\n");
        let mut input = &data[..];
        assert!(matches!(
            read_line(&mut input).unwrap(),
            Some(Line::TooLong)
        ));
        let Some(Line::Text(t)) = read_line(&mut input).unwrap() else {
            panic!()
        };
        assert_eq!(t, b"name");
        assert!(read_line(&mut input).unwrap().is_none());
    }

    #[test]
    fn a_line_of_the_longest_length_fits_with_either_ending() {
        for ending in [&b"\n"[..], b"\r\n"] {
            let mut data = vec![b'x'; MAX_LINE];
            data.extend_from_slice(ending);
            data.extend_from_slice(&[b'y'; MAX_LINE + 1]);
            data.extend_from_slice(ending);
            let mut input = &data[..];
            let Some(Line::Text(t)) = read_line(&mut input).unwrap() else {
                panic!("a {MAX_LINE}-byte line is read")
            };
            assert_eq!(t.len(), MAX_LINE);
            assert!(matches!(
                read_line(&mut input).unwrap(),
                Some(Line::TooLong)
            ));
        }
    }
}
