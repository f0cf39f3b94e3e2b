//! The daemons' reader thread, shared by GTP and NBoard: it only reads
//! lines (never more than [`MAX_LINE`] bytes held), hands them to the
//! protocol's parser, and raises the stop signal itself for the commands
//! that must end a search at once (GTP's `stop`/`quit`, NBoard's
//! `ping`/`quit`) and at end of input, since the controller may be busy
//! waiting for that very search.

use crate::search::{StopSignal, StopToken};
use crossbeam_channel::{Sender, unbounded};
use std::io::{self, BufRead};
use std::thread;
use std::time::Instant;

/// Longest line the daemon reads; longer ones are answered with an error.
pub const MAX_LINE: usize = 64 * 1024;

/// What the reader hands the controller.
enum Input<T> {
    /// A line the protocol parsed, with the stop token taken when it was
    /// read and the time it arrived.
    Line {
        request: T,
        token: StopToken,
        received: Instant,
    },
    /// End of input.
    End,
}

/// What a protocol makes of a line: the request, and whether it stops the
/// search under way (`stop`) and ends the input (`last`).
pub struct Parsed<T> {
    pub request: T,
    pub stop: bool,
    pub last: bool,
}

/// Runs a daemon: the reader thread on `input` sends each line through
/// `parse` (`None`: nothing to answer, as a blank line), and `answer`
/// takes the requests in order, with the stop token taken when each was
/// read and its arrival time, until it returns `false` or input ends.
pub fn serve<R, T, F>(
    input: R,
    parse: F,
    mut answer: impl FnMut(T, StopToken, Instant) -> io::Result<bool>,
) -> io::Result<()>
where
    R: BufRead + Send + 'static,
    T: Send + 'static,
    F: Fn(Line) -> Option<Parsed<T>> + Send + 'static,
{
    let (tx, rx) = unbounded();
    let signal = StopSignal::new();
    thread::Builder::new()
        .name("reader".into())
        .spawn(move || read_lines(input, tx, signal, parse))?;
    for input in rx {
        match input {
            Input::End => break,
            Input::Line {
                request,
                token,
                received,
            } => {
                if !answer(request, token, received)? {
                    break;
                }
            }
        }
    }
    Ok(())
}

fn read_lines<R, T, F>(mut input: R, tx: Sender<Input<T>>, signal: StopSignal, parse: F)
where
    R: BufRead,
    F: Fn(Line) -> Option<Parsed<T>>,
{
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
        let Some(parsed) = parse(line) else { continue };
        let token = signal.token();
        if parsed.stop {
            signal.raise();
        }
        let sent = tx.send(Input::Line {
            request: parsed.request,
            token,
            received,
        });
        if sent.is_err() || parsed.last {
            return;
        }
    }
}

/// A raw input line, without its ending.
pub enum Line {
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

#[cfg(test)]
mod tests {
    use super::*;

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
