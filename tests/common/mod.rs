//! What the tests that drive the real binary over pipes share.

use std::io::{BufRead, BufReader};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{Receiver, channel};
use std::thread;

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
