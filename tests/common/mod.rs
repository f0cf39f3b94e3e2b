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
    group: impl FnMut(String) -> Option<String> + Send + 'static,
) -> (Child, ChildStdin, Receiver<String>) {
    let (child, stdin, units, _) = spawn_logged(args, None, group);
    (child, stdin, units)
}

/// [`spawn`] with `RUST_LOG=<log>` (when given) and every line the
/// binary logs on the last receiver: the tests wait for a log line
/// (`search started`) where a sleep would guess.
pub fn spawn_logged(
    args: &[&str],
    log: Option<&str>,
    mut group: impl FnMut(String) -> Option<String> + Send + 'static,
) -> (Child, ChildStdin, Receiver<String>, Receiver<String>) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_reversi"));
    command
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped());
    match log {
        Some(level) => command.env("RUST_LOG", level).stderr(Stdio::piped()),
        None => command.stderr(Stdio::null()),
    };
    let mut child = command.spawn().expect("binary runs");
    let (log_tx, logs) = channel();
    if let Some(stderr) = child.stderr.take() {
        thread::spawn(move || {
            for line in BufReader::new(stderr).lines() {
                let Ok(line) = line else { break };
                // A test that stopped listening still drains the pipe.
                let _ = log_tx.send(line);
            }
        });
    }
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
    (child, stdin, rx, logs)
}

/// Waits for `child` to exit; one still running after `patience` is
/// killed and fails the test (only a hang takes that long).
pub fn wait_exit(child: &mut Child, patience: Duration) -> std::process::ExitStatus {
    let pid = child.id();
    let (tx, rx) = channel();
    thread::scope(|scope| {
        scope.spawn(move || {
            let _ = tx.send(child.wait());
        });
        match rx.recv_timeout(patience) {
            Ok(status) => status.expect("a status"),
            Err(_) => {
                let _ = Command::new("kill").args(["-9", &pid.to_string()]).status();
                panic!("the process did not exit");
            }
        }
    })
}

/// Waits until process `pid` has ended (a zombie counts as ended), at
/// most `patience`: the kernel says when, through a pidfd, instead of a
/// poll of `/proc`. Whether it ended.
pub fn wait_gone(pid: i32, patience: Duration) -> bool {
    // SAFETY: pidfd_open takes a pid and flags and returns a new file
    // descriptor or -1; poll reads one pollfd we own; the fd is closed
    // once, below.
    unsafe {
        let fd = libc::syscall(libc::SYS_pidfd_open, pid, 0) as i32;
        if fd < 0 {
            // No such process: ended (and reaped) already.
            return true;
        }
        let mut poll = libc::pollfd {
            fd,
            events: libc::POLLIN,
            revents: 0,
        };
        let ready = libc::poll(&mut poll, 1, patience.as_millis() as i32);
        libc::close(fd);
        ready == 1
    }
}

/// The processes of process group `group` that have not ended.
pub fn group_members(group: &str) -> Vec<i32> {
    std::fs::read_dir("/proc")
        .unwrap()
        .flatten()
        .filter_map(|entry| {
            let pid: i32 = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            // After the command's closing parenthesis: state, ppid, pgrp.
            let fields: Vec<&str> = stat.rsplit_once(") ")?.1.split(' ').collect();
            (fields.len() > 2 && fields[0] != "Z" && fields[2] == group).then_some(pid)
        })
        .collect()
}

/// A named pipe made at `path`, and what a program writes into it,
/// read on a thread: the program's signal that it has got somewhere
/// (make the pipe before the program starts).
pub fn fifo(path: &std::path::Path) -> Receiver<String> {
    let _ = std::fs::remove_file(path);
    let status = Command::new("mkfifo")
        .arg(path)
        .status()
        .expect("mkfifo runs");
    assert!(status.success(), "mkfifo {}", path.display());
    let (tx, rx) = channel();
    let path = path.to_path_buf();
    thread::spawn(move || {
        let text = std::fs::read_to_string(&path).unwrap_or_default();
        let _ = tx.send(text.trim().to_string());
    });
    rx
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

/// Runs the protocol loop in this process on `input` (its end is the end
/// of input, as for the binary) and returns everything it wrote.
pub fn run_in_process(input: &[u8]) -> String {
    let mut out = Vec::new();
    reversi::protocol::run(
        std::io::Cursor::new(input.to_vec()),
        &mut out,
        &reversi::engine::Options::default(),
        reversi::protocol::Startup::default(),
    )
    .expect("no i/o error");
    String::from_utf8(out).expect("replies are UTF-8")
}

/// Runs `reversi args...` with no input and returns (stdout, stderr);
/// fails the test, showing stderr, unless it succeeds.
pub fn reversi_ok<I, S>(args: I) -> (String, String)
where
    I: IntoIterator<Item = S>,
    S: AsRef<std::ffi::OsStr>,
{
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .stdin(Stdio::null())
        .output()
        .expect("binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{}\n{stderr}", out.status);
    (String::from_utf8(out.stdout).expect("UTF-8 output"), stderr)
}

/// Asserts that `reversi args...`, given `stdin`, is refused: status 2, a
/// message on stderr containing `message`, and nothing on stdout.
pub fn refused(args: &[&str], stdin: &str, message: &str) {
    let out = run(args, stdin.as_bytes());
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.contains(message), "{args:?}: {err}");
    assert!(out.stdout.is_empty(), "{args:?}");
}

/// A test's own folder, `reversi-<kind>-<pid>-<name>` in the temporary
/// directory (tests run in parallel: each names its own), removed with
/// all it holds when the value is dropped, at the test's end, passed or
/// failed.
pub struct Folder(std::path::PathBuf);

impl std::ops::Deref for Folder {
    type Target = std::path::Path;
    fn deref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::path::Path> for Folder {
    fn as_ref(&self) -> &std::path::Path {
        &self.0
    }
}

impl AsRef<std::ffi::OsStr> for Folder {
    fn as_ref(&self) -> &std::ffi::OsStr {
        self.0.as_os_str()
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A folder that the tests of one test process share (built programs,
/// fake engines), `reversi-<kind>-<pid>` in Cargo's temporary folder for
/// integration tests under `target/` (never the system's: nothing is
/// left in /tmp), made if missing.
pub fn shared_folder(kind: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR"))
        .join(format!("reversi-{kind}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// A new, empty [`Folder`].
pub fn fresh_folder(kind: &str, name: &str) -> Folder {
    let dir = std::env::temp_dir().join(format!("reversi-{kind}-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    Folder(dir)
}
