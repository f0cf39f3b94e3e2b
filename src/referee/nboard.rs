//! A client for engines that speak the NBoard protocol (version 2), such as
//! NTest and Edax (`-nboard`), so that the referee plays them with no
//! adapter. The protocol is asynchronous and stateful on the engine's
//! side; the client keeps it simple and stateless: before every move it
//! sends the whole game (`set game` with a GGF record whose clock, `TI`,
//! and the times beside the engine's own moves leave it the time it may
//! use, [`super::contestant`] says how), synchronises with `ping`/`pong`,
//! then asks `go` and waits for the `=== <move>` line, ignoring everything
//! else the engine says (`status`, `nodestats`, `set myname`, ...).

use super::client::ClientError;
use super::process::EngineProcess;
use crate::rules::ggf;
use crate::rules::{Color, Move, Position};
use crossbeam_channel::{Receiver, RecvTimeoutError};
use std::io::{BufRead, Read};
use std::time::{Duration, Instant};

/// Longest line we keep; longer ones are a protocol error.
const MAX_LINE: usize = 1 << 20;

/// An engine process spoken to over NBoard.
pub struct NboardClient {
    process: EngineProcess,
    lines: Receiver<Result<String, ClientError>>,
    next_ping: u64,
}

/// One line of the engine's output (without its end), or why there is
/// none.
fn read_line<R: BufRead>(reader: &mut R) -> (Result<String, ClientError>, bool) {
    let mut line = Vec::new();
    match reader
        .by_ref()
        .take((MAX_LINE + 1) as u64)
        .read_until(b'\n', &mut line)
    {
        Ok(0) | Err(_) => (Err(ClientError::Died), true),
        Ok(_) if line.len() > MAX_LINE => {
            (Err(ClientError::Garbled("line too long".into())), false)
        }
        Ok(_) => {
            let text = String::from_utf8_lossy(&line);
            (Ok(text.trim_end_matches(['\n', '\r']).to_string()), false)
        }
    }
}

impl NboardClient {
    /// Starts `command_line` in NBoard mode (`nboard 2`) with its midgame
    /// depth limited to `depth` (`set depth`, as NBoard's level), and waits
    /// up to `setup` until it answers a `ping`. NBoard's set-up commands
    /// have no reply: without the wait the engine would still be loading
    /// (NTest: a quarter of a second of CPU) while the other side's first
    /// move is on the clock, and take the CPU from it.
    pub fn spawn(
        command_line: &str,
        depth: u32,
        setup: Duration,
    ) -> Result<NboardClient, ClientError> {
        let (process, lines) = EngineProcess::spawn(command_line, "nboard-client", read_line)?;
        let mut client = NboardClient {
            process,
            lines,
            next_ping: 1,
        };
        client.process.write_line("nboard 2")?;
        client.process.write_line(&format!("set depth {depth}"))?;
        client.ping(Instant::now() + setup)?;
        Ok(client)
    }

    /// The engine's last lines on stderr, waiting up to `wait` for them.
    pub fn last_stderr(&self, wait: Duration) -> String {
        self.process.last_stderr(wait)
    }

    /// The next line within `deadline`.
    fn line(&self, deadline: Instant) -> Result<String, ClientError> {
        match self
            .lines
            .recv_timeout(deadline.saturating_duration_since(Instant::now()))
        {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => Err(ClientError::Timeout),
            Err(RecvTimeoutError::Disconnected) => Err(ClientError::Died),
        }
    }

    /// The engine's move after `plies` (each with the seconds to write
    /// beside it, if any) from `start`, under the GGF clock `time`
    /// (`TI`'s text): the game is sent and synchronised within `setup`,
    /// then the move is waited for up to `wait`. Returns the move's text
    /// (`F5`, `PA`) and the time from `go` to the move.
    pub fn genmove(
        &mut self,
        start: &Position,
        plies: &[(Color, Move, Option<f64>)],
        time: &str,
        setup: Duration,
        wait: Duration,
    ) -> (Result<String, ClientError>, Duration) {
        let since = Instant::now();
        let result = self
            .synchronise(start, plies, time, setup)
            .map(|()| Instant::now())
            .and_then(|asked| {
                self.process.write_line("go")?;
                let deadline = asked + wait;
                loop {
                    let line = self.line(deadline)?;
                    if let Some(rest) = line.strip_prefix("===") {
                        // `=== F5/1.00/0.5`, or Edax's `=== f5 1.00 0.5`.
                        let mv = rest.split_whitespace().next().unwrap_or("");
                        let mv = mv.split('/').next().unwrap_or("").to_string();
                        return Ok((mv, asked.elapsed()));
                    }
                }
            });
        match result {
            Ok((mv, took)) => (Ok(mv), took),
            Err(e) => (Err(e), since.elapsed()),
        }
    }

    /// Sends the game and waits for the engine to confirm it with `pong`.
    fn synchronise(
        &mut self,
        start: &Position,
        plies: &[(Color, Move, Option<f64>)],
        time: &str,
        setup: Duration,
    ) -> Result<(), ClientError> {
        let header = ggf::Header::unnamed(ggf::Clocks::Both(time));
        let game = ggf::write_timed(&header, start, plies);
        self.process.write_line(&format!("set game {game}"))?;
        self.ping(Instant::now() + setup)
    }

    /// Sends the next `ping` and waits until `deadline` for its `pong`.
    fn ping(&mut self, deadline: Instant) -> Result<(), ClientError> {
        let ping = self.next_ping;
        self.next_ping += 1;
        self.process.write_line(&format!("ping {ping}"))?;
        let pong = format!("pong {ping}");
        while self.line(deadline)?.trim() != pong {}
        Ok(())
    }

    /// Asks the engine to quit, then makes sure it is gone.
    pub fn quit(mut self) {
        let _ = self.process.write_line("quit");
        let deadline = Instant::now() + Duration::from_millis(500);
        while self.line(deadline).is_ok() {}
        self.process.kill();
    }
}
