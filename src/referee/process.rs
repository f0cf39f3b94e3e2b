//! An engine in another process, whatever its protocol: started with
//! `sh -c` in a process group of its own, which is killed as a whole at
//! the end (an engine behind a wrapper script, or one that started
//! children, leaves nothing running); its stdout read on a thread of its
//! own into messages; the last lines it wrote to stderr kept (a few, each
//! cut short) to say why it died.
//!
//! A group of its own keeps a terminal's Ctrl-C from reaching the engine,
//! so the referee ends the groups itself: every running engine's group is
//! in a list, and once the first engine starts, a thread waits for
//! SIGINT, SIGTERM and SIGHUP, kills every group on the list and exits
//! with the signal's status (128 + its number).

use super::client::ClientError;
use crate::rules::printable;
use crossbeam_channel::{Receiver, bounded};
use std::collections::VecDeque;
use std::io::{BufRead, BufReader, Write};
use std::process::{self, Child, ChildStdin, ChildStdout, Stdio};
use std::sync::{Arc, Mutex, Once};
use std::thread;
use std::time::Duration;

/// How many of the engine's last stderr lines are kept.
const STDERR_LINES: usize = 5;
/// How much of each stderr line is kept, in characters.
const STDERR_LINE_CHARS: usize = 200;

/// The process groups of the engines running now. Starting an engine and
/// putting it here, and taking it off and killing it, each hold the lock,
/// as the signal thread does from a signal to the exit: no engine starts
/// unseen or outlives an interrupted referee.
static GROUPS: Mutex<Vec<libc::pid_t>> = Mutex::new(Vec::new());

/// The working folders of the sandboxed programs running now, which an
/// interrupted referee removes once their groups are ended (its exit runs
/// no destructor).
static FOLDERS: Mutex<Vec<std::path::PathBuf>> = Mutex::new(Vec::new());

/// A program's working folder, removed when dropped, and by an
/// interrupted referee.
pub(super) struct Folder(tempfile::TempDir);

impl Folder {
    /// A fresh folder in the temporary directory, named `prefix...`.
    pub(super) fn new(prefix: &str) -> std::io::Result<Folder> {
        // Made and listed under the lock, as the signal thread removes
        // them under it: none is made unseen.
        let mut folders = FOLDERS.lock().unwrap_or_else(|e| e.into_inner());
        let dir = tempfile::Builder::new().prefix(prefix).tempdir()?;
        folders.push(dir.path().to_path_buf());
        Ok(Folder(dir))
    }

    pub(super) fn path(&self) -> &std::path::Path {
        self.0.path()
    }
}

impl Drop for Folder {
    fn drop(&mut self) {
        let mut folders = FOLDERS.lock().unwrap_or_else(|e| e.into_inner());
        folders.retain(|f| f != self.0.path());
    }
}

/// Starts, once, the thread that ends every group on [`GROUPS`] and exits
/// when the referee is interrupted or terminated.
fn watch_signals() {
    static WATCH: Once = Once::new();
    WATCH.call_once(|| {
        use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
        let mut signals = match signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) {
            Ok(s) => s,
            Err(e) => {
                log::warn!(
                    "cannot watch for signals ({e}): an interrupt may leave engines running"
                );
                return;
            }
        };
        let watcher = thread::Builder::new()
            .name("signals".into())
            .spawn(move || {
                if let Some(signal) = signals.forever().next() {
                    let groups = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
                    for &group in groups.iter() {
                        // SAFETY: kill(2) only sends a signal, to a group this
                        // process started and has not reaped.
                        unsafe {
                            libc::kill(-group, libc::SIGKILL);
                        }
                    }
                    end_orphans(&[]);
                    let folders = FOLDERS.lock().unwrap_or_else(|e| e.into_inner());
                    for folder in folders.iter() {
                        let _ = std::fs::remove_dir_all(folder);
                    }
                    eprintln!(
                        "reversi: stopped by signal {signal}; {} engine(s) ended",
                        groups.len()
                    );
                    process::exit(128 + signal);
                }
            });
        if let Err(e) = watcher {
            log::warn!("cannot watch for signals ({e}): an interrupt may leave engines running");
        }
    });
}

/// Whether the referee adopts the orphans of its programs
/// ([`adopt_orphans`]).
static ADOPTING: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Makes this process the subreaper of everything its programs start: a
/// process that leaves its program's group (`setsid()`) and outlives its
/// parent becomes the referee's child instead of init's, and is ended
/// with its program's game. For the referee's own process only: every
/// child of the process that is no running program's is then ended.
pub fn adopt_orphans() {
    #[cfg(target_os = "linux")]
    {
        // SAFETY: prctl(PR_SET_CHILD_SUBREAPER) changes only this
        // process's own attribute.
        if unsafe { libc::prctl(libc::PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) } == 0 {
            ADOPTING.store(true, std::sync::atomic::Ordering::Relaxed);
        } else {
            log::warn!(
                "cannot adopt orphans: a program that leaves its group may outlive its game"
            );
        }
    }
}

/// This process's children that are not the leaders `running`.
fn children_but(running: &[libc::pid_t]) -> Vec<libc::pid_t> {
    let me = std::process::id().to_string();
    let Ok(dir) = std::fs::read_dir("/proc") else {
        return Vec::new();
    };
    dir.flatten()
        .filter_map(|entry| {
            let pid: libc::pid_t = entry.file_name().to_str()?.parse().ok()?;
            let stat = std::fs::read_to_string(entry.path().join("stat")).ok()?;
            // After the command's closing parenthesis: state, then ppid.
            let ppid = stat.rsplit_once(") ")?.1.split(' ').nth(1)?;
            (ppid == me && !running.contains(&pid)).then_some(pid)
        })
        .collect()
}

/// Ends and reaps every adopted orphan: each child of this process that
/// is not one of the programs `running`, until none is left (ending one
/// hands its own children to this process).
fn end_orphans(running: &[libc::pid_t]) {
    if !ADOPTING.load(std::sync::atomic::Ordering::Relaxed) {
        return;
    }
    for _ in 0..1000 {
        let orphans = children_but(running);
        if orphans.is_empty() {
            return;
        }
        for pid in orphans {
            // SAFETY: kill(2) and waitpid(2) on a child of this process
            // that no Child value owns (an adopted orphan), so no other
            // code waits for it.
            unsafe {
                libc::kill(pid, libc::SIGKILL);
                libc::waitpid(pid, std::ptr::null_mut(), 0);
            }
        }
    }
}

/// Starts a child with `start`, which must put it in a process group of
/// its own (whose id is its pid), and puts that group on the list of those
/// an interrupted referee ends.
pub(super) fn start_in_own_group(
    start: impl FnOnce() -> std::io::Result<Child>,
) -> std::io::Result<Child> {
    watch_signals();
    let mut groups = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
    let child = start()?;
    groups.extend(libc::pid_t::try_from(child.id()));
    Ok(child)
}

/// Ends the whole process group of `child` (started by
/// [`start_in_own_group`]), then reaps the child. A group already ended
/// is not signalled again: its id may belong to another group by now.
pub(super) fn end_group(child: &mut Child) {
    // Under the lock throughout: no other program starts or ends while its
    // orphans are told from the running programs.
    let mut groups = GROUPS.lock().unwrap_or_else(|e| e.into_inner());
    if let Ok(group) = libc::pid_t::try_from(child.id())
        && let Some(i) = groups.iter().position(|&g| g == group)
    {
        groups.swap_remove(i);
        // SAFETY: kill(2) only sends a signal; the group is the one the
        // child was started in (its id is the child's pid), and it still
        // exists, since the child is not reaped yet (it was on the list).
        unsafe {
            libc::kill(-group, libc::SIGKILL);
        }
    }
    let _ = child.kill();
    let _ = child.wait();
    end_orphans(&groups);
}

/// A running engine process.
pub(super) struct EngineProcess {
    child: Child,
    stdin: Option<ChildStdin>,
    stderr: StderrTail,
}

impl EngineProcess {
    /// Starts `command_line`; a thread named `reader` calls `read` on its
    /// stdout and sends what it returns, until `read` says the output ended
    /// (its second value) or nobody listens.
    pub(super) fn spawn<T: Send + 'static>(
        command_line: &str,
        reader: &str,
        mut read: impl FnMut(&mut BufReader<ChildStdout>) -> (T, bool) + Send + 'static,
    ) -> Result<(EngineProcess, Receiver<T>), ClientError> {
        let mut command = process::Command::new("sh");
        command
            .arg("-c")
            .arg(format!("exec {command_line}"))
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        std::os::unix::process::CommandExt::process_group(&mut command, 0);
        let mut child = start_in_own_group(|| command.spawn())
            .map_err(|e| ClientError::Spawn(e.to_string()))?;
        let stdout = child.stdout.take().expect("piped stdout");
        let stderr = StderrTail::spawn(child.stderr.take().expect("piped stderr"))
            .map_err(|e| ClientError::Spawn(e.to_string()))?;
        // Replies are waited for one at a time; a small buffer is plenty.
        let (tx, messages) = bounded(4);
        thread::Builder::new()
            .name(reader.into())
            .spawn(move || {
                let mut out = BufReader::new(stdout);
                loop {
                    let (message, end) = read(&mut out);
                    if tx.send(message).is_err() || end {
                        return;
                    }
                }
            })
            .map_err(|e| ClientError::Spawn(e.to_string()))?;
        let process = EngineProcess {
            stdin: child.stdin.take(),
            child,
            stderr,
        };
        Ok((process, messages))
    }

    /// Writes `line` and a newline, flushed.
    pub(super) fn write_line(&mut self, line: &str) -> Result<(), ClientError> {
        let stdin = self.stdin.as_mut().ok_or(ClientError::Died)?;
        stdin
            .write_all(format!("{line}\n").as_bytes())
            .and_then(|_| stdin.flush())
            .map_err(|_| ClientError::Died)
    }

    /// The engine's last lines on stderr (see [`StderrTail::text`]).
    pub(super) fn last_stderr(&self, wait: Duration) -> String {
        self.stderr.text(wait)
    }

    /// Ends the engine's whole process group, then reaps the engine.
    pub(super) fn kill(&mut self) {
        self.stdin.take();
        end_group(&mut self.child);
    }
}

impl Drop for EngineProcess {
    fn drop(&mut self) {
        self.kill();
    }
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
