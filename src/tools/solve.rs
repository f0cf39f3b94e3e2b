//! `reversi solve <file.obf>`: solves every position of an OBF file exactly
//! and prints, per position, the best move, the score, the work done and
//! whether it agrees with the file.

use crate::players::{MAX_HASH_MB, MAX_THREADS, Player, Strong};
use crate::rules::obf::{ObfError, Problem};
use crate::rules::{AnyBoard, Move, Square, text_lines};
use crate::search::{Limits, Solver as EndgameSolver, TranspositionTable, proven_discs};
use std::fmt::Write as _;
use std::io::{self, Write};
use std::time::{Duration, Instant};

/// Why problems could not be solved or reported.
#[derive(Debug, thiserror::Error)]
pub enum SolveError {
    #[error("{path}: {source}")]
    Read { path: String, source: io::Error },
    #[error("{path}, line {line}: {source}")]
    Obf {
        path: String,
        line: usize,
        source: ObfError,
    },
    #[error("{0}: no positions")]
    NoPositions(String),
    #[error("hash must be 1 to {MAX_HASH_MB} MB")]
    Hash,
    #[error("threads must be 1 to {MAX_THREADS}")]
    Threads,
    #[error("only 8x8 problems can be solved")]
    NotEight,
    #[error("the search did not reach the end")]
    Unsolved,
    #[error("i/o error: {0}")]
    Io(#[from] io::Error),
}

/// One solved position.
#[derive(Clone, Debug)]
pub struct Solution {
    pub number: usize,
    pub empties: u32,
    pub best: Move,
    pub score: i32,
    pub nodes: u64,
    pub time: Duration,
    /// Whether the move and score agree with the file (`None`: the file
    /// gives no answer).
    pub agrees: Option<bool>,
    pub expected: Option<i32>,
}

/// Reads the problems of the OBF file at `path`; an error names the line.
pub fn read_problems(path: &str) -> Result<Vec<Problem>, SolveError> {
    let bytes = std::fs::read(path).map_err(|source| SolveError::Read {
        path: path.into(),
        source,
    })?;
    let mut problems = Vec::new();
    for (line, text) in text_lines(&bytes) {
        let bad = |source| SolveError::Obf {
            path: path.into(),
            line,
            source,
        };
        if let Some(p) = Problem::parse(text.map_err(|why| bad(ObfError(why)))?).map_err(bad)? {
            problems.push(p);
        }
    }
    Ok(problems)
}

/// The number of the first problem from a file name like
/// `fforum-40-59.obf` (at most 100,000,000), else 1.
pub fn first_number(path: &str) -> usize {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.split(|c: char| !c.is_ascii_digit())
        .find(|s| !s.is_empty())
        .and_then(|s| s.parse().ok())
        .filter(|&n| n <= 100_000_000)
        .unwrap_or(1)
}

/// Solves problems one after the other with one engine, whose table is
/// allocated once and cleared between positions (allocating afresh for
/// each position cost more wall time than the solves of FFO #1-#19).
pub struct ObfSolver {
    engine: Strong,
}

impl ObfSolver {
    /// A solver with a table of `hash_mb` MB (1 to [`MAX_HASH_MB`]),
    /// searching on `threads` threads (1 to [`MAX_THREADS`]).
    pub fn new(hash_mb: usize, threads: usize) -> Result<ObfSolver, SolveError> {
        if !(1..=MAX_HASH_MB).contains(&hash_mb) {
            return Err(SolveError::Hash);
        }
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(SolveError::Threads);
        }
        let mut engine = Strong::new(hash_mb);
        engine.set_threads(threads);
        engine.commit_table();
        Ok(ObfSolver { engine })
    }

    /// Solves one problem from an empty table, the way the engine plays:
    /// iterative deepening whose midgame iterations fill the table with
    /// best moves, then a win/loss/draw and an exact search. The time
    /// reported is the search's.
    pub fn solve(&mut self, problem: &Problem, number: usize) -> Result<Solution, SolveError> {
        solve_with(&mut self.engine, problem, number)
    }
}

fn solve_with(
    engine: &mut Strong,
    problem: &Problem,
    number: usize,
) -> Result<Solution, SolveError> {
    if problem.position.size() != 8 {
        return Err(SolveError::NotEight);
    }
    engine.new_game(None);
    let start = Instant::now();
    let it = engine.search_position(&problem.position, &Limits::unlimited());
    let time = start.elapsed();
    let (best, score, nodes) = match it {
        Some(it) => (
            Move::Place(Square::from_index(it.best, 8)),
            proven_discs(it.score).ok_or(SolveError::Unsolved)?,
            it.nodes,
        ),
        None => {
            // No move: the score after the pass (or of the finished game).
            let AnyBoard::Eight(board) = problem.position.board() else {
                unreachable!("8x8 checked above")
            };
            let tt = TranspositionTable::new(1);
            let limits = Limits::unlimited();
            let mut solver = EndgameSolver::new(&tt, &limits);
            (Move::Pass, solver.solve(&board, -65, 65), solver.nodes())
        }
    };
    Ok(Solution {
        number,
        empties: problem.position.empties(),
        best,
        score,
        nodes,
        time,
        agrees: problem.agrees(best, score),
        expected: problem.best_score(),
    })
}

/// Solves every problem of the OBF file at `path` (the first numbered
/// `first`, else from the file name) with a `hash_mb` MB table, writing a
/// row per problem as it is solved, then the totals.
pub fn run(
    path: &str,
    hash_mb: usize,
    threads: usize,
    first: Option<usize>,
    out: &mut dyn Write,
) -> Result<(), SolveError> {
    let start = Instant::now();
    let problems = read_problems(path)?;
    if problems.is_empty() {
        return Err(SolveError::NoPositions(path.into()));
    }
    let first = first.unwrap_or_else(|| first_number(path));
    let mut solver = ObfSolver::new(hash_mb, threads)?;
    writeln!(out, "{}", header())?;
    out.flush()?;
    let mut solutions = Vec::new();
    for (i, problem) in problems.iter().enumerate() {
        let s = solver.solve(problem, first.saturating_add(i))?;
        writeln!(out, "{}", row(&s))?;
        out.flush()?;
        solutions.push(s);
    }
    writeln!(out, "{}", totals(&solutions, start.elapsed()))?;
    Ok(())
}

/// The table header.
pub fn header() -> String {
    format!(
        "{:>4} {:>7} {:>5} {:>6} {:>6} {:>6} {:>14} {:>10} {:>9}",
        "#", "empties", "move", "score", "file", "agrees", "nodes", "time", "Mnodes/s"
    )
}

/// One row of the table.
pub fn row(s: &Solution) -> String {
    let secs = s.time.as_secs_f64();
    format!(
        "{:>4} {:>7} {:>5} {:>+6} {:>6} {:>6} {:>14} {:>9.3}s {:>9.1}",
        s.number,
        s.empties,
        s.best.standard(),
        s.score,
        s.expected.map_or("?".into(), |e| format!("{e:+}")),
        match s.agrees {
            Some(true) => "yes",
            Some(false) => "NO",
            None => "-",
        },
        s.nodes,
        secs,
        s.nodes as f64 / secs.max(1e-9) / 1e6
    )
}

/// The totals line: the searches' nodes and time, and the wall time of
/// the whole run (`wall`), which also counts reading, clearing the table
/// and writing.
pub fn totals(solutions: &[Solution], wall: Duration) -> String {
    let nodes: u64 = solutions.iter().map(|s| s.nodes).sum();
    let time: f64 = solutions.iter().map(|s| s.time.as_secs_f64()).sum();
    let agree = solutions.iter().filter(|s| s.agrees == Some(true)).count();
    let checked = solutions.iter().filter(|s| s.agrees.is_some()).count();
    let mut out = String::new();
    let _ = write!(
        out,
        "total: {} positions, {agree}/{checked} agree, {nodes} nodes, {time:.3} s, {:.1} Mnodes/s, {:.3} s wall",
        solutions.len(),
        nodes as f64 / time.max(1e-9) / 1e6,
        wall.as_secs_f64()
    );
    out
}
