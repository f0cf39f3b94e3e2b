//! A GTP client for an engine in another process: it sends one command at
//! a time and waits for its reply with a timeout. Whatever the engine
//! prints (garbage, endless output, nothing at all) or does (hang, crash)
//! ends up as a [`ClientError`], never as a panic or a hang of ours.
//!
//! The engine runs in a process group of its own, which is killed as a
//! whole at the end, so that an engine behind a wrapper script, or one
//! that started children, leaves nothing running. The last lines it wrote
//! to stderr are kept (a few, each cut short) to say why it died.

use crate::protocol::{Command, Setting};
use crate::rules::printable;
use crossbeam_channel::{Receiver, RecvTimeoutError, bounded};
use std::collections::VecDeque;
use std::fmt;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{self, Child, ChildStdin, Stdio};
use std::sync::{Arc, Mutex};
use std::thread;
use std::time::{Duration, Instant};

/// Longest reply we keep; longer ones are a protocol error.
const MAX_REPLY: usize = 1 << 20;
/// How many of the engine's last stderr lines are kept.
const STDERR_LINES: usize = 5;
/// How much of each stderr line is kept, in characters.
const STDERR_LINE_CHARS: usize = 200;

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
    child: Child,
    stdin: Option<ChildStdin>,
    replies: Receiver<RawReply>,
    stderr: StderrTail,
}

/// The last lines an engine wrote to stderr, read on a thread of their
/// own; the channel closes when the engine's stderr does.
struct StderrTail {
    lines: Arc<Mutex<VecDeque<String>>>,
    closed: Receiver<()>,
}

impl StderrTail {
    fn spawn(stderr: std::process::ChildStderr) -> std::io::Result<StderrTail> {
        let lines = Arc::new(Mutex::new(VecDeque::new()));
        let (done, closed) = bounded::<()>(0);
        let kept = lines.clone();
        thread::Builder::new()
            .name("gtp-stderr".into())
            .spawn(move || {
                let _done = done;
                let mut reader = BufReader::new(stderr);
                let mut line = Vec::new();
                // Lines are read whole but kept cut short, so an engine
                // that floods stderr costs time, not memory.
                while reader.read_until(b'\n', &mut line).is_ok_and(|n| n > 0) {
                    let text = String::from_utf8_lossy(&line);
                    let text: String = printable(text.trim_end_matches(['\n', '\r']))
                        .chars()
                        .take(STDERR_LINE_CHARS)
                        .collect();
                    line.clear();
                    let mut kept = kept.lock().unwrap_or_else(|e| e.into_inner());
                    if kept.len() == STDERR_LINES {
                        kept.pop_front();
                    }
                    kept.push_back(text);
                }
            })?;
        Ok(StderrTail { lines, closed })
    }

    /// The kept lines, oldest first, joined by ` | `; waits up to `wait`
    /// for the engine's stderr to close (a dead engine's last words may
    /// still be in the pipe).
    fn text(&self, wait: Duration) -> String {
        let _ = self.closed.recv_timeout(wait);
        let lines = self.lines.lock().unwrap_or_else(|e| e.into_inner());
        lines.iter().cloned().collect::<Vec<_>>().join(" | ")
    }
}

impl GtpClient {
    /// Starts `command_line` with `sh -c`, in a process group of its own.
    pub fn spawn(command_line: &str) -> Result<GtpClient, ClientError> {
        let mut command = process::Command::new("sh");
        command
            .arg("-c")
            .arg(format!("exec {command_line}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = command
            .spawn()
            .map_err(|e| ClientError::Spawn(e.to_string()))?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = StderrTail::spawn(child.stderr.take().expect("piped stderr"))
            .map_err(|e| ClientError::Spawn(e.to_string()))?;
        // One reply in flight at a time; a small buffer is plenty.
        let (tx, replies) = bounded(4);
        thread::Builder::new()
            .name("gtp-client".into())
            .spawn(move || {
                let mut reader = BufReader::new(stdout);
                loop {
                    let reply = read_reply(&mut reader);
                    let end = matches!(reply, Err(ClientError::Died));
                    if tx.send(reply).is_err() || end {
                        return;
                    }
                }
            })
            .map_err(|e| ClientError::Spawn(e.to_string()))?;
        Ok(GtpClient {
            command_line: command_line.to_string(),
            stdin: child.stdin.take(),
            child,
            replies,
            stderr,
        })
    }

    /// The engine's last lines on stderr (see [`StderrTail::text`]).
    pub fn last_stderr(&self, wait: Duration) -> String {
        self.stderr.text(wait)
    }

    /// The command line the engine was started with.
    pub fn command_line(&self) -> &str {
        &self.command_line
    }

    /// Sends `command` and waits up to `timeout` for its reply: the success
    /// text, or why there is none.
    pub fn send(&mut self, command: &Command, timeout: Duration) -> Result<String, ClientError> {
        let stdin = self.stdin.as_mut().ok_or(ClientError::Died)?;
        if stdin
            .write_all(format!("{command}\n").as_bytes())
            .and_then(|_| stdin.flush())
            .is_err()
        {
            return Err(ClientError::Died);
        }
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
        self.kill();
    }

    /// Ends the engine's whole process group, then reaps the engine.
    fn kill(&mut self) {
        self.stdin.take();
        #[cfg(unix)]
        if let Ok(group) = libc::pid_t::try_from(self.child.id()) {
            // SAFETY: kill(2) only sends a signal; the group is the one
            // the engine was started in (its id is the engine's pid), and
            // it still exists, since the engine is not reaped yet.
            unsafe {
                libc::kill(-group, libc::SIGKILL);
            }
        }
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for GtpClient {
    fn drop(&mut self) {
        self.kill();
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
