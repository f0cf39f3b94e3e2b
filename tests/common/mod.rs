//! What the tests that drive the real binary over pipes share.

// Each test crate that includes this module uses only part of it.
#![allow(dead_code)]

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Output, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread;
use std::time::Duration;

/// Runs `reversi args...` on `input` to its end and returns what it wrote
/// and how it ended; the process is killed if it runs longer than a
/// minute (only a hang fails that).
pub fn run(args: &[&str], input: &[u8]) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("binary runs");
    let mut stdin = child.stdin.take().unwrap();
    let data = input.to_vec();
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(&data);
    });
    let pid = child.id().to_string();
    let (tx, rx) = channel();
    thread::spawn(move || {
        let _ = tx.send(child.wait_with_output());
    });
    let Ok(output) = rx.recv_timeout(Duration::from_secs(60)) else {
        let _ = Command::new("kill").args(["-9", &pid]).status();
        panic!("reversi {args:?} did not end");
    };
    writer.join().unwrap();
    output.expect("output read")
}

/// Starts `reversi args...` with stdin and stdout piped (stderr dropped)
/// and a thread that reads its output line by line: `group` gets each
/// line and returns what to send on the receiver once a unit (a reply, a
/// line) is complete.
pub fn spawn(
    args: &[&str],
    mut group: impl FnMut(String) -> Option<String> + Send + 'static,
) -> (Child, ChildStdin, Receiver<String>) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("binary runs");
    let stdout = child.stdout.take().unwrap();
    let (tx, rx) = channel();
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            if let Some(unit) = group(line)
                && tx.send(unit).is_err()
            {
                break;
            }
        }
    });
    let stdin = child.stdin.take().unwrap();
    (child, stdin, rx)
}

/// The results lines of a match's results file without their times and
/// checksum (pairing, game, Black's discs, forfeit), sorted.
pub fn outcomes(bytes: &[u8]) -> Vec<String> {
    let mut lines: Vec<String> = String::from_utf8_lossy(bytes)
        .lines()
        .filter(|l| l.starts_with("result "))
        .map(|l| l.split(' ').take(6).collect::<Vec<_>>().join(" "))
        .collect();
    lines.sort();
    lines
}
