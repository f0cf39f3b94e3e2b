//! `reversi solve <file.obf>`: solves every position of an OBF file exactly
//! and prints, per position, the best move, the score, the work done and
//! whether it agrees with the file.

use crate::players::{Player, Strong};
use crate::rules::obf::Problem;
use crate::rules::{AnyBoard, Move, Square};
use crate::search::{Limits, Solver, TranspositionTable, proven_discs};
use std::fmt::Write as _;
use std::time::{Duration, Instant};

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

/// Reads an OBF file's problems; the first is numbered `first`.
pub fn read_problems(text: &str) -> Result<Vec<Problem>, String> {
    let mut problems = Vec::new();
    for line in text.lines() {
        if let Some(p) = Problem::parse(line).map_err(|e| e.to_string())? {
            problems.push(p);
        }
    }
    Ok(problems)
}

/// The number of the first problem from a file name like
/// `fforum-40-59.obf`, else 1.
pub fn first_number(path: &str) -> usize {
    let name = path.rsplit('/').next().unwrap_or(path);
    name.split(|c: char| !c.is_ascii_digit())
        .find(|s| !s.is_empty())
        .and_then(|s| s.parse().ok())
        .unwrap_or(1)
}

/// Solves one problem with a fresh table of `hash_mb` MB, the way the
/// engine plays: iterative deepening whose midgame iterations fill the
/// table with best moves, then a win/loss/draw and an exact search.
pub fn solve_one(problem: &Problem, number: usize, hash_mb: usize) -> Result<Solution, String> {
    if problem.position.size() != 8 {
        return Err("only 8x8 problems can be solved".into());
    }
    let mut engine = Strong::new(hash_mb);
    engine.new_game();
    let start = Instant::now();
    let it = engine.search_position(&problem.position, &Limits::unlimited());
    let time = start.elapsed();
    let (best, score, nodes) = match it {
        Some(it) => (
            Move::Place(Square::from_index(it.best, 8)),
            proven_discs(it.score).ok_or("the search did not reach the end")?,
            it.nodes,
        ),
        None => {
            // No move: the score after the pass (or of the finished game).
            let AnyBoard::Eight(board) = problem.position.board() else {
                unreachable!("8x8 checked above")
            };
            let mut tt = TranspositionTable::new(1);
            let limits = Limits::unlimited();
            let mut solver = Solver::new(&mut tt, &limits);
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

/// The totals line.
pub fn totals(solutions: &[Solution]) -> String {
    let nodes: u64 = solutions.iter().map(|s| s.nodes).sum();
    let time: f64 = solutions.iter().map(|s| s.time.as_secs_f64()).sum();
    let agree = solutions.iter().filter(|s| s.agrees == Some(true)).count();
    let checked = solutions.iter().filter(|s| s.agrees.is_some()).count();
    let mut out = String::new();
    let _ = write!(
        out,
        "total: {} positions, {agree}/{checked} agree, {nodes} nodes, {time:.3} s, {:.1} Mnodes/s",
        solutions.len(),
        nodes as f64 / time.max(1e-9) / 1e6
    );
    out
}
