//! Students' submissions, built from source as the course builds them.
//!
//! A submissions folder holds one entry a student, named after the
//! student: a `.c` file, or a folder (a `lab8part3/` folder, or a checked
//! out repository whose `lab8part3/` is used when it has one) whose `.c`
//! and `.h` files are the submission. Each is compiled with the course's
//! command in a folder of its own, in the sandbox (a process group, limits,
//! a wall-clock limit), with the course header `lab8part2.h` supplied when
//! the submission lacks it.
//!
//! A build is known by the digest of what was compiled (the command and
//! every file's name and bytes): `programs/<digest>/` in the leaderboard's
//! folder holds the sources as compiled, the compiler's output
//! (`compile.txt`) and the program (`lab8`), and is made once. A changed
//! submission is a new program; the games of an unchanged one are kept.

use crate::referee::sandbox::{self, Ended, Limits};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime};

/// The course header, supplied to a submission without one.
const COURSE_HEADER: &str = include_str!("lab8part2.h");
/// Its file name.
const COURSE_HEADER_NAME: &str = "lab8part2.h";

/// The course's compile command by default: `{sources}` stands for the
/// submission's `.c` files, `{out}` for the program's file.
pub const DEFAULT_COMPILE: &str = "gcc -std=c99 -O2 -o {out} {sources} -lm";

/// How submissions are built.
#[derive(Clone, Debug)]
pub struct CompileConfig {
    /// The command, with `{sources}` and `{out}`.
    pub command: String,
    /// Wall-clock time a build may take.
    pub time: Duration,
}

/// Why the submissions could not be read.
#[derive(Debug, thiserror::Error)]
pub enum SubmissionsError {
    #[error("{path}: {source}")]
    File {
        path: String,
        source: std::io::Error,
    },
    #[error("'{0}' and '{1}' are one name once made fit for file names: rename one")]
    SameName(String, String),
}

/// One student's submission as read from the folder.
#[derive(Clone, Debug)]
pub struct Submission {
    /// The student's name: the entry's, made of letters, digits, `-`,
    /// `_` and `.` (others become `_`).
    pub name: String,
    /// Where it was read from.
    pub path: PathBuf,
    /// Its `.c` and `.h` files: name and bytes, by name.
    pub files: Vec<(String, Vec<u8>)>,
    /// When its newest file last changed.
    pub changed: SystemTime,
}

/// What building a submission gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Build {
    /// A program, with the compiler's warnings (empty when none).
    Program { exe: PathBuf, warnings: String },
    /// No program: why (the compiler's errors, or what was missing).
    Failed { errors: String },
}

/// A submission and its build.
#[derive(Clone, Debug)]
pub struct Built {
    pub submission: Submission,
    /// The digest of what was compiled: the program's identity.
    pub digest: String,
    pub build: Build,
}

/// The submissions in `dir`, by name. Hidden entries (`.git`) and entries
/// that are neither a `.c` file nor a folder are left out.
pub fn discover(dir: &Path) -> Result<Vec<Submission>, SubmissionsError> {
    let mut found: Vec<Submission> = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(file_error(dir))? {
        let entry = entry.map_err(file_error(dir))?;
        let path = entry.path();
        let file_name = entry.file_name().to_string_lossy().into_owned();
        if file_name.starts_with('.') {
            continue;
        }
        let (stem, files) = if path.is_dir() {
            let folder = match path.join("lab8part3") {
                inner if inner.is_dir() => inner,
                _ => path.clone(),
            };
            (
                file_name.clone(),
                sources(&folder).map_err(file_error(&folder))?,
            )
        } else if let Some(stem) = file_name.strip_suffix(".c") {
            let bytes = std::fs::read(&path).map_err(file_error(&path))?;
            let changed = modified(&path);
            (stem.to_string(), vec![(file_name.clone(), bytes, changed)])
        } else {
            continue;
        };
        let name = fit_name(&stem);
        if let Some(other) = found.iter().find(|s| s.name == name) {
            return Err(SubmissionsError::SameName(
                other.path.display().to_string(),
                path.display().to_string(),
            ));
        }
        // A folder with no source: when the folder itself changed.
        let changed = files
            .iter()
            .map(|(_, _, t)| *t)
            .max()
            .unwrap_or_else(|| modified(&path));
        found.push(Submission {
            name,
            path,
            files: files.into_iter().map(|(n, b, _)| (n, b)).collect(),
            changed,
        });
    }
    found.sort_by(|a, b| a.name.cmp(&b.name));
    Ok(found)
}

/// The error of a file operation on `path`.
fn file_error(path: &Path) -> impl FnOnce(std::io::Error) -> SubmissionsError {
    let path = path.display().to_string();
    move |source| SubmissionsError::File { path, source }
}

/// The `.c` and `.h` files of `folder` (not its subfolders), by name, with
/// their bytes and when each changed.
fn sources(folder: &Path) -> std::io::Result<Vec<(String, Vec<u8>, SystemTime)>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(folder)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if (name.ends_with(".c") || name.ends_with(".h")) && entry.path().is_file() {
            files.push((name, std::fs::read(entry.path())?, modified(&entry.path())));
        }
    }
    files.sort();
    Ok(files)
}

fn modified(path: &Path) -> SystemTime {
    std::fs::metadata(path)
        .and_then(|m| m.modified())
        .unwrap_or(SystemTime::UNIX_EPOCH)
}

/// `name` with anything but letters, digits, `-`, `_` and `.` as `_`, at
/// most 60 characters: a name the referee and file names take.
fn fit_name(name: &str) -> String {
    let fit: String = name
        .chars()
        .take(60)
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if fit.is_empty() { "_".into() } else { fit }
}

/// The files compiled for `submission`: its own, and the course header
/// when it has none.
fn compiled_files(submission: &Submission) -> Vec<(String, Vec<u8>)> {
    let mut files = submission.files.clone();
    if !files.iter().any(|(n, _)| n == COURSE_HEADER_NAME) {
        files.push((COURSE_HEADER_NAME.into(), COURSE_HEADER.as_bytes().to_vec()));
        files.sort();
    }
    files
}

/// The digest of building `files` with `command`: 16 hex digits of a
/// SHA-256 over the command and each file's name, length and bytes.
fn digest(command: &str, files: &[(String, Vec<u8>)]) -> String {
    let mut hash = Sha256::new();
    hash.update(command.as_bytes());
    for (name, bytes) in files {
        hash.update([0u8]);
        hash.update(name.as_bytes());
        hash.update((bytes.len() as u64).to_le_bytes());
        hash.update(bytes);
    }
    hash.finalize()[..8]
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// What the sandbox allows a compiler.
fn compile_limits() -> Limits {
    Limits {
        cpu_seconds: 120,
        memory_bytes: 2 << 30,
        processes: 512,
        file_bytes: 64 << 20,
    }
}

/// Builds `submission` with `cfg` into `programs/<digest>/`, or takes the
/// build already there. A build is made in a folder of its own and moved
/// into place once done, so that a stopped run (or a shard building the
/// same program at once) never leaves half a build that reads as done.
pub fn build(
    submission: Submission,
    cfg: &CompileConfig,
    programs: &Path,
) -> Result<Built, SubmissionsError> {
    let files = compiled_files(&submission);
    let digest = digest(&cfg.command, &files);
    let home = programs.join(&digest);
    if !home.join("build.txt").is_file() {
        make(&files, cfg, programs, &home)?;
    }
    let read = |name: &str| std::fs::read_to_string(home.join(name)).unwrap_or_default();
    let exe = home.join("lab8");
    let build = if read("build.txt").trim() == "ok" && exe.is_file() {
        Build::Program {
            exe,
            warnings: read("compile.txt"),
        }
    } else {
        Build::Failed {
            errors: read("compile.txt"),
        }
    };
    Ok(Built {
        submission,
        digest,
        build,
    })
}

/// Compiles `files` with `cfg` and moves the build to `home`.
fn make(
    files: &[(String, Vec<u8>)],
    cfg: &CompileConfig,
    programs: &Path,
    home: &Path,
) -> Result<(), SubmissionsError> {
    std::fs::create_dir_all(programs).map_err(file_error(programs))?;
    let work = tempfile::Builder::new()
        .prefix(".build-")
        .tempdir_in(programs)
        .map_err(file_error(programs))?;
    let src = work.path().join("src");
    std::fs::create_dir_all(&src).map_err(file_error(&src))?;
    for (name, bytes) in files {
        std::fs::write(src.join(name), bytes).map_err(file_error(&src.join(name)))?;
    }
    let sources: Vec<String> = files
        .iter()
        .filter(|(n, _)| n.ends_with(".c"))
        .map(|(n, _)| quoted(n))
        .collect();
    let output = work.path().join("compile.txt");
    let status = if sources.is_empty() {
        std::fs::write(&output, "no .c file in the submission\n").map_err(file_error(&output))?;
        "failed".to_string()
    } else {
        let command = cfg
            .command
            .replace("{sources}", &sources.join(" "))
            .replace("{out}", "../lab8");
        let ended = sandbox::run_to_end(&command, &src, compile_limits(), cfg.time, &output)
            .map_err(file_error(&src))?;
        match ended {
            Ended::Exited(0) => "ok".to_string(),
            Ended::TimedOut => {
                append(
                    &output,
                    &format!("the build took longer than {:?}\n", cfg.time),
                );
                "failed".into()
            }
            other => {
                append(&output, &format!("the compiler {other}\n"));
                "failed".into()
            }
        }
    };
    std::fs::write(work.path().join("build.txt"), format!("{status}\n"))
        .map_err(file_error(work.path()))?;
    let work = work.keep();
    // Another run may have moved the same build into place first: its
    // files are the same.
    if std::fs::rename(&work, home).is_err() {
        let _ = std::fs::remove_dir_all(&work);
    }
    Ok(())
}

/// Adds a line to the compiler's output.
fn append(path: &Path, line: &str) {
    use std::io::Write;
    if let Ok(mut file) = std::fs::OpenOptions::new().append(true).open(path) {
        let _ = file.write_all(line.as_bytes());
    }
}

/// A file name as one shell word.
fn quoted(name: &str) -> String {
    format!("'{}'", name.replace('\'', "'\\''"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_fit_file_names_and_digests_follow_every_byte() {
        assert_eq!(fit_name("Ann Lee (2)"), "Ann_Lee__2_");
        let files = vec![("a.c".to_string(), b"int main(){}".to_vec())];
        let d = digest(DEFAULT_COMPILE, &files);
        assert_eq!(d.len(), 16);
        let mut changed = files.clone();
        changed[0].1.push(b' ');
        assert_ne!(digest(DEFAULT_COMPILE, &changed), d);
        assert_ne!(digest("cc -o {out} {sources}", &files), d);
    }
}
