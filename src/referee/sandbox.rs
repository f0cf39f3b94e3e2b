//! Untrusted programs (students' Lab 8 submissions), each run as a
//! terminal would run it, but fenced in:
//! - under a pseudo-terminal, so that C's standard output is line-buffered
//!   as on a terminal: a program that never calls `fflush` still shows each
//!   line as it prints it (through a pipe its moves would only arrive when
//!   it exits). Echo is off and our lines end in LF alone;
//! - as the leader of a session and process group of its own, ended as a
//!   whole when its game ends or the referee is interrupted
//!   ([`super::process::start_in_own_group`]);
//! - in a fresh, empty working directory, removed afterwards;
//! - with resource limits (setrlimit): CPU time, address space, processes,
//!   file size, and no core files.
//!
//! These limits stop a runaway program (a loop, a memory leak, a fork
//! bomb, a file that grows without end) from taking the machine down.
//! They are no security boundary: the program runs as the referee's user,
//! sees the whole file system and the network. A course runs the whole
//! leaderboard inside a container or `bwrap` for that (README).

use super::process::{Folder, end_group, start_in_own_group};
use crossbeam_channel::{Receiver, bounded};
use pty_process::blocking::{Command, Pty, open};
use std::io::{self, Read, Write};
use std::os::fd::AsRawFd;
use std::process::Child;
use std::sync::Arc;
use std::thread;

/// What an untrusted program may use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// CPU seconds in all (a game at 1 s a move uses at most about 30).
    pub cpu_seconds: u64,
    /// Bytes of address space.
    pub memory_bytes: u64,
    /// Processes of the user (Linux counts every process of the user, and
    /// does not limit root).
    pub processes: u64,
    /// Bytes of any file it writes.
    pub file_bytes: u64,
}

impl Default for Limits {
    fn default() -> Self {
        Limits {
            cpu_seconds: 60,
            memory_bytes: 1 << 30,
            processes: 512,
            file_bytes: 16 << 20,
        }
    }
}

/// Output chunks a reader holds before it waits for the referee to take
/// them: a program that floods its output blocks on its own writes.
const CHUNKS: usize = 64;

/// A program running in the sandbox.
pub struct Sandboxed {
    child: Child,
    pty: Arc<Pty>,
    output: Receiver<Vec<u8>>,
    /// Its working directory, removed when the program is dropped.
    _dir: Folder,
}

impl Sandboxed {
    /// Starts `command_line` (`sh -c "exec <command line>"`, as engines
    /// are started) under `limits`, in a fresh directory: the words of the
    /// command line that name files from the referee's own directory
    /// (`./alice/lab8`, `bot.py`) are given as absolute paths.
    pub fn spawn(command_line: &str, limits: Limits) -> io::Result<Sandboxed> {
        let command_line = absolute_paths(command_line);
        let dir = Folder::new("reversi-lab8-")?;
        let (pty, pts) = open().map_err(io::Error::other)?;
        no_echo(pts.as_raw_fd())?;
        let command = Command::new("sh")
            .arg("-c")
            .arg(format!("exec {command_line}"))
            .current_dir(dir.path());
        // SAFETY: setrlimit(2) is async-signal-safe and touches no memory
        // the parent shares.
        let command = unsafe { command.pre_exec(move || set_limits(limits)) };
        let child = start_in_own_group(|| command.spawn(pts).map_err(io::Error::other))?;
        let pty = Arc::new(pty);
        let (tx, output) = bounded(CHUNKS);
        let reader = pty.clone();
        thread::Builder::new()
            .name("lab8-output".into())
            .spawn(move || {
                let mut buffer = vec![0u8; 4096];
                // A read fails (EIO) once the program and everything it
                // started have closed the terminal: its output has ended.
                loop {
                    let n = match (&*reader).read(&mut buffer) {
                        Ok(0) => return,
                        Ok(n) => n,
                        Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                        Err(_) => return,
                    };
                    if tx.send(buffer[..n].to_vec()).is_err() {
                        return;
                    }
                }
            })?;
        Ok(Sandboxed {
            child,
            pty,
            output,
            _dir: dir,
        })
    }

    /// Writes `line` and a newline (LF alone: a CR or a space around a move
    /// makes some programs refuse it).
    pub fn write_line(&self, line: &str) -> io::Result<()> {
        (&*self.pty).write_all(format!("{line}\n").as_bytes())
    }

    /// The program's output, a chunk at a time; the channel closes when the
    /// output ends.
    pub fn output(&self) -> &Receiver<Vec<u8>> {
        &self.output
    }

    /// How the program ended, waiting up to `wait` for it to (its output
    /// ends a moment before): `exited with status 3`, `killed by signal 6
    /// (SIGABRT)`; `None` while it runs. The program is not reaped here:
    /// its group stays on the referee's list, and its id in use, until
    /// [`Sandboxed::end`] ends and reaps it.
    pub fn how_it_ended(&mut self, wait: std::time::Duration) -> Option<String> {
        let deadline = std::time::Instant::now() + wait;
        loop {
            if let Some(how) = ended_unreaped(self.child.id()) {
                return Some(how.to_string());
            }
            if std::time::Instant::now() >= deadline {
                return None;
            }
            thread::sleep(std::time::Duration::from_millis(5));
        }
    }

    /// The CPU time (user and system) the program and the processes of
    /// its group have used so far, with their children that they waited
    /// for, as `getrusage` counts it for the program itself. Read from
    /// `/proc`, in clock ticks (10 ms on Linux); a process that left the
    /// group (`setsid`) is not counted.
    pub fn cpu_time(&self) -> std::time::Duration {
        group_cpu_ticks(self.child.id() as i32)
            .map(ticks_to_time)
            .unwrap_or_default()
    }

    /// Ends the program and everything it started.
    pub fn end(&mut self) {
        end_group(&mut self.child);
    }
}

impl Drop for Sandboxed {
    fn drop(&mut self) {
        self.end();
    }
}

/// How a program ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ended {
    /// It exited with this status.
    Exited(i32),
    /// This signal killed it.
    Killed(i32),
    /// It ran past its wall-clock limit and was ended.
    TimedOut,
}

impl std::fmt::Display for Ended {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match *self {
            Ended::Exited(status) => write!(f, "exited with status {status}"),
            Ended::Killed(signal) => write!(f, "killed by signal {signal}{}", signal_name(signal)),
            Ended::TimedOut => write!(f, "ran out of time"),
        }
    }
}

/// Runs `command_line` (`sh -c`) to its end in the folder `dir`, under
/// `limits`, in a process group of its own that is ended as a whole when
/// it ends, after `wall` at most, or when the referee is interrupted; its
/// standard output and error go together to the file `output`. For the
/// compiler a submission is built with: its input is the untrusted
/// source.
pub fn run_to_end(
    command_line: &str,
    dir: &std::path::Path,
    limits: Limits,
    wall: std::time::Duration,
    output: &std::path::Path,
) -> io::Result<Ended> {
    use std::os::unix::process::CommandExt;
    let out = std::fs::File::create(output)?;
    let mut command = std::process::Command::new("sh");
    command
        .arg("-c")
        .arg(command_line)
        .current_dir(dir)
        .stdin(std::process::Stdio::null())
        .stdout(out.try_clone()?)
        .stderr(out)
        .process_group(0);
    // SAFETY: setrlimit(2) is async-signal-safe and touches no memory the
    // parent shares.
    unsafe { command.pre_exec(move || set_limits(limits)) };
    let mut child = start_in_own_group(|| command.spawn())?;
    let start = std::time::Instant::now();
    let ended = loop {
        if let Some(how) = ended_unreaped(child.id()) {
            break how;
        }
        if start.elapsed() >= wall {
            break Ended::TimedOut;
        }
        thread::sleep(std::time::Duration::from_millis(10));
    };
    end_group(&mut child);
    Ok(ended)
}

/// The CPU ticks of every process in the process group `group`:
/// `utime`, `stime`, `cutime` and `cstime` of `/proc/<pid>/stat`; `None`
/// when `/proc` cannot be read.
fn group_cpu_ticks(group: i32) -> Option<u64> {
    let mut ticks = 0;
    for entry in std::fs::read_dir("/proc").ok()?.flatten() {
        let name = entry.file_name();
        let Some(pid) = name
            .to_str()
            .filter(|n| n.bytes().all(|b| b.is_ascii_digit()))
        else {
            continue;
        };
        // A process may end between the listing and the read.
        let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
            continue;
        };
        if let Some((pgrp, cpu)) = parse_stat(&stat)
            && pgrp == group
        {
            ticks += cpu;
        }
    }
    Some(ticks)
}

/// The process group and CPU ticks (`utime + stime + cutime + cstime`) of
/// a `/proc/<pid>/stat` line. Its second field, the command's name in
/// parentheses, may hold spaces and parentheses: the fields are counted
/// from the last `)`.
fn parse_stat(stat: &str) -> Option<(i32, u64)> {
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    // After the name: state (3), ppid, pgrp (5), ..., utime (14), stime,
    // cutime, cstime (17).
    let field = |k: usize| fields.get(k - 3).copied();
    let pgrp = field(5)?.parse().ok()?;
    let cpu = (14..=17)
        .map(|k| field(k)?.parse::<i64>().ok())
        .sum::<Option<i64>>()?;
    Some((pgrp, cpu.max(0) as u64))
}

/// Clock ticks as a duration.
fn ticks_to_time(ticks: u64) -> std::time::Duration {
    // SAFETY: sysconf only reads a system setting.
    let per_second = unsafe { libc::sysconf(libc::_SC_CLK_TCK) };
    let per_second = if per_second > 0 {
        per_second as u64
    } else {
        100
    };
    std::time::Duration::from_micros(ticks * 1_000_000 / per_second)
}

/// `command_line` with each word that is a relative path to an existing
/// file (plain characters only: no quotes, no shell syntax) made absolute.
fn absolute_paths(command_line: &str) -> String {
    let plain = |w: &str| {
        w.chars()
            .all(|c| c.is_ascii_alphanumeric() || "./_-+,=@%".contains(c))
    };
    command_line
        .split(' ')
        .map(|word| {
            let path = std::path::Path::new(word);
            match std::fs::canonicalize(path) {
                Ok(full) if plain(word) && path.is_relative() && !word.is_empty() => {
                    let full = full.to_string_lossy().into_owned();
                    format!("'{}'", full.replace('\'', "'\\''"))
                }
                _ => word.to_string(),
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// How the child `pid` ended, if it has, leaving it to be reaped
/// (waitid with WNOWAIT): its group stays in being until it is ended.
fn ended_unreaped(pid: u32) -> Option<Ended> {
    let pid = libc::id_t::from(pid);
    // SAFETY: siginfo_t is plain data that waitid fills in; WNOHANG makes
    // the call return at once, WNOWAIT leaves the child as it is.
    let info = unsafe {
        let mut info: libc::siginfo_t = std::mem::zeroed();
        let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
        if libc::waitid(libc::P_PID, pid, &mut info, flags) != 0 || info.si_pid() == 0 {
            return None;
        }
        info
    };
    // SAFETY: the fields of a child's state change, filled in above.
    let status = unsafe { info.si_status() };
    Some(match info.si_code {
        libc::CLD_EXITED => Ended::Exited(status),
        _ => Ended::Killed(status),
    })
}

/// A signal's name, for the few a crash or a limit brings, as ` (SIGKILL)`.
fn signal_name(signal: i32) -> &'static str {
    match signal {
        libc::SIGABRT => " (SIGABRT)",
        libc::SIGSEGV => " (SIGSEGV)",
        libc::SIGFPE => " (SIGFPE)",
        libc::SIGBUS => " (SIGBUS)",
        libc::SIGKILL => " (SIGKILL)",
        libc::SIGXCPU => " (SIGXCPU: CPU time limit)",
        libc::SIGXFSZ => " (SIGXFSZ: file size limit)",
        _ => "",
    }
}

/// Turns the terminal's echo off: what we type is not the program's output.
fn no_echo(fd: i32) -> io::Result<()> {
    // SAFETY: termios is plain data, filled in by tcgetattr before use, and
    // `fd` is an open terminal for the duration of both calls.
    unsafe {
        let mut termios: libc::termios = std::mem::zeroed();
        if libc::tcgetattr(fd, &mut termios) != 0 {
            return Err(io::Error::last_os_error());
        }
        termios.c_lflag &= !(libc::ECHO | libc::ECHONL);
        if libc::tcsetattr(fd, libc::TCSANOW, &termios) != 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(())
}

/// Applies `limits` to the calling process (the child, before exec).
fn set_limits(limits: Limits) -> io::Result<()> {
    let set = |resource, value: u64| {
        let limit = libc::rlimit {
            rlim_cur: value as libc::rlim_t,
            rlim_max: value as libc::rlim_t,
        };
        // SAFETY: setrlimit only reads the struct it is given.
        if unsafe { libc::setrlimit(resource, &limit) } == 0 {
            Ok(())
        } else {
            Err(io::Error::last_os_error())
        }
    };
    set(libc::RLIMIT_CPU, limits.cpu_seconds)?;
    set(libc::RLIMIT_AS, limits.memory_bytes)?;
    set(libc::RLIMIT_NPROC, limits.processes)?;
    set(libc::RLIMIT_FSIZE, limits.file_bytes)?;
    set(libc::RLIMIT_CORE, 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stat_lines_are_read_from_the_end_of_the_name() {
        let line = "4242 (a (strange) name) R 1 4200 4200 0 -1 4194304 100 0 0 0 \
                    250 30 7 3 20 0 1 0 12345 1000 100 18446744073709551615";
        assert_eq!(parse_stat(line), Some((4200, 290)));
        assert_eq!(parse_stat("12 (x) S 1"), None);
    }

    #[test]
    fn a_busy_program_shows_its_cpu_time_and_a_sleeping_one_none() {
        let busy = Sandboxed::spawn("sh -c 'while :; do :; done'", Limits::default()).unwrap();
        let idle = Sandboxed::spawn("sleep 30", Limits::default()).unwrap();
        // The busy loop reaches a tenth of a second of CPU, however loaded
        // the machine: the test waits for it, not for a time.
        while busy.cpu_time() < std::time::Duration::from_millis(100) {
            thread::yield_now();
        }
        assert!(idle.cpu_time() < std::time::Duration::from_millis(50));
    }
}
