//! A GTP client for an engine in another process: it sends one command at
//! a time and waits for its reply with a timeout. Whatever the engine
//! prints (garbage, endless output, nothing at all) or does (hang, crash)
//! ends up as a [`ClientError`], never as a panic or a hang of ours. The
//! process itself (its group, its stderr) is [`super::process`]'s.

use super::process::EngineProcess;
use crate::protocol::{Command, Setting};
use crate::rules::printable;
use crossbeam_channel::{Receiver, RecvTimeoutError};
use std::fmt;
use std::io::{BufRead, Read};
use std::time::{Duration, Instant};

/// Longest reply we keep; longer ones are a protocol error.
const MAX_REPLY: usize = 1 << 20;

/// Why a command did not get a success reply.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClientError {
    /// The engine answered `? message`.
    Refused(String),
    /// No reply within the time allowed.
    Timeout,
    /// The engine exited or closed its output.
    Died,
    /// The engine printed something that is not a GTP reply.
    Garbled(String),
    /// The engine could not be started.
    Spawn(String),
}

impl fmt::Display for ClientError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ClientError::Refused(m) => write!(f, "refused: {m}"),
            ClientError::Timeout => write!(f, "no reply in time"),
            ClientError::Died => write!(f, "engine died"),
            ClientError::Garbled(m) => write!(f, "garbled reply: {m}"),
            ClientError::Spawn(m) => write!(f, "cannot start engine: {m}"),
        }
    }
}

impl std::error::Error for ClientError {}

/// One reply as read: success or failure and its text (id removed).
type RawReply = Result<Result<String, String>, ClientError>;

/// An engine process spoken to over GTP.
pub struct GtpClient {
    command_line: String,
    process: EngineProcess,
    replies: Receiver<RawReply>,
}

impl GtpClient {
    /// Starts `command_line` (see [`EngineProcess::spawn`]).
    pub fn spawn(command_line: &str) -> Result<GtpClient, ClientError> {
        let (process, replies) = EngineProcess::spawn(command_line, "gtp-client", |out| {
            let reply = read_reply(out);
            let end = matches!(reply, Err(ClientError::Died));
            (reply, end)
        })?;
        Ok(GtpClient {
            command_line: command_line.to_string(),
            process,
            replies,
        })
    }

    /// The engine's last lines on stderr, waiting up to `wait` for them.
    pub fn last_stderr(&self, wait: Duration) -> String {
        self.process.last_stderr(wait)
    }

    /// The command line the engine was started with.
    pub fn command_line(&self) -> &str {
        &self.command_line
    }

    /// Sends `command` and waits up to `timeout` for its reply: the success
    /// text, or why there is none.
    pub fn send(&mut self, command: &Command, timeout: Duration) -> Result<String, ClientError> {
        self.process.write_line(&command.to_string())?;
        match self.replies.recv_timeout(timeout) {
            Ok(Ok(Ok(text))) => Ok(text),
            Ok(Ok(Err(message))) => Err(ClientError::Refused(message)),
            Ok(Err(e)) => Err(e),
            Err(RecvTimeoutError::Timeout) => Err(ClientError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ClientError::Died),
        }
    }

    /// Sends `command` and measures the time until its reply.
    pub fn timed(
        &mut self,
        command: &Command,
        timeout: Duration,
    ) -> (Result<String, ClientError>, Duration) {
        let start = Instant::now();
        let result = self.send(command, timeout);
        (result, start.elapsed())
    }

    /// A fixed time per move: our daemon's `set movetime`, else (an engine
    /// that refuses it) GTP byo-yomi of one move per period.
    pub fn set_move_time(&mut self, limit: Duration, timeout: Duration) -> Result<(), ClientError> {
        let ms = (limit.as_millis() as u64).max(1);
        match self.send(&Command::Set(Setting::MoveTime(ms)), timeout) {
            Ok(_) => Ok(()),
            Err(e @ (ClientError::Died | ClientError::Timeout)) => Err(e),
            Err(_) => {
                let settings = Command::TimeSettings {
                    main: 0.0,
                    byoyomi: limit.as_secs_f64(),
                    stones: 1,
                };
                self.send(&settings, timeout).map(|_| ())
            }
        }
    }

    /// Asks the engine to quit, then makes sure it is gone.
    pub fn quit(mut self) {
        let _ = self.send(&Command::Quit, Duration::from_millis(500));
        self.process.kill();
    }
}

/// Reads one reply: lines up to an empty line, the first starting with
/// `=` or `?` (lines before it that do not are skipped as noise).
fn read_reply<R: BufRead>(reader: &mut R) -> RawReply {
    let mut text = String::new();
    let mut started = false;
    let mut success = true;
    loop {
        let mut line = Vec::new();
        let read = reader
            .by_ref()
            .take((MAX_REPLY + 1) as u64)
            .read_until(b'\n', &mut line)
            .map_err(|_| ClientError::Died)?;
        if read == 0 {
            return Err(ClientError::Died);
        }
        if line.len() > MAX_REPLY || text.len() > MAX_REPLY {
            return Err(ClientError::Garbled("reply too long".into()));
        }
        let line = String::from_utf8_lossy(&line);
        let line = line.trim_end_matches(['\n', '\r']);
        if !started {
            let Some(first) = line.chars().next() else {
                continue; // blank lines between replies
            };
            if first != '=' && first != '?' {
                log::warn!("engine printed '{}' outside a reply", printable(line));
                continue;
            }
            started = true;
            success = first == '=';
            // Drop the marker and the id.
            let rest = line[1..].trim_start_matches(|c: char| c.is_ascii_digit());
            text.push_str(rest.strip_prefix(' ').unwrap_or(rest));
            continue;
        }
        if line.is_empty() {
            return Ok(if success { Ok(text) } else { Err(text) });
        }
        text.push('\n');
        text.push_str(line);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_lose_their_marker_and_id() {
        let mut input = &b"noise\n=12 d3\n\n? bad move\n\n= a\nb\n\n=\n\n"[..];
        assert_eq!(read_reply(&mut input), Ok(Ok("d3".into())));
        assert_eq!(read_reply(&mut input), Ok(Err("bad move".into())));
        assert_eq!(read_reply(&mut input), Ok(Ok("a\nb".into())));
        assert_eq!(read_reply(&mut input), Ok(Ok("".into())));
        assert_eq!(read_reply(&mut input), Err(ClientError::Died));
    }
}
