//! `reversi evaltest FILE.obf`: how well a fixed-depth search with one
//! evaluation knows positions whose best moves and scores are known (an
//! OBF file whose lines give every move's score, or the best ones'): the
//! share of positions where it picks a best move, the share of its scores
//! within 3 discs of the true score, and the mean absolute error of its
//! scores. Cheap feedback on an evaluation before a match.

use super::solve::{SolveError, read_problems};
use crate::players::{Player, Strong};
use crate::rules::{Move, Square};
use crate::search::pattern::EvalKind;
use crate::search::{Limits, in_discs};
use std::io::Write;
use std::time::Instant;

/// How each position is searched.
#[derive(Clone, Copy, Debug)]
pub struct EvaltestConfig {
    /// Plies of the search (1: the evaluation after each move).
    pub depth: u32,
    pub eval: EvalKind,
    pub hash_mb: usize,
}

/// What the search found on one position.
#[derive(Clone, Copy, Debug)]
struct Verdict {
    empties: u32,
    best: bool,
    error: f64,
    nodes: u64,
}

/// Searches every position of the OBF file at `path` that gives scores
/// and writes the accuracy table to `out`: one row per band of 10 empty
/// squares, then the whole file.
pub fn run(path: &str, cfg: EvaltestConfig, out: &mut dyn Write) -> Result<(), SolveError> {
    let problems: Vec<_> = read_problems(path)?
        .into_iter()
        .filter(|p| p.best_score().is_some() && p.position.size() == 8)
        .filter(|p| p.position.has_moves(p.position.to_move()))
        .collect();
    if problems.is_empty() {
        return Err(SolveError::NoPositions(path.into()));
    }
    let mut engine = Strong::new(cfg.hash_mb);
    engine.set_eval(cfg.eval);
    let limits = Limits {
        depth: Some(cfg.depth),
        ..Limits::unlimited()
    };
    let start = Instant::now();
    let mut verdicts = Vec::new();
    for p in &problems {
        engine.new_game(None);
        let it = engine
            .search_position(&p.position, &limits)
            .expect("the side to move has a move");
        let mv = Move::Place(Square::from_index(it.best, 8));
        let score = in_discs(it.score);
        let truth = p.best_score().expect("filtered");
        verdicts.push(Verdict {
            empties: p.position.empties(),
            best: p.scores.iter().any(|&(m, s)| m == mv && s == truth),
            error: (score - f64::from(truth)).abs(),
            nodes: it.nodes,
        });
    }
    writeln!(
        out,
        "{path}: {} positions, {} evaluation, depth {}, {:.1} s",
        verdicts.len(),
        cfg.eval.name(),
        cfg.depth,
        start.elapsed().as_secs_f64()
    )?;
    writeln!(
        out,
        "{:>9} {:>9} {:>9} {:>9} {:>9} {:>12}",
        "empties", "positions", "best move", "within 3", "mean err", "nodes"
    )?;
    let mut bands: Vec<u32> = verdicts.iter().map(|v| v.empties / 10).collect();
    bands.sort_unstable();
    bands.dedup();
    for band in bands {
        let part: Vec<Verdict> = verdicts
            .iter()
            .copied()
            .filter(|v| v.empties / 10 == band)
            .collect();
        let label = format!("{}-{}", band * 10, band * 10 + 9);
        writeln!(out, "{}", row(&label, &part))?;
    }
    writeln!(out, "{}", row("all", &verdicts))?;
    Ok(())
}

/// A table row for `verdicts`.
fn row(label: &str, verdicts: &[Verdict]) -> String {
    let n = verdicts.len() as f64;
    let share =
        |f: &dyn Fn(&Verdict) -> bool| 100.0 * verdicts.iter().filter(|v| f(v)).count() as f64 / n;
    format!(
        "{label:>9} {:>9} {:>8.1}% {:>8.1}% {:>9.2} {:>12}",
        verdicts.len(),
        share(&|v| v.best),
        share(&|v| v.error <= 3.0),
        verdicts.iter().map(|v| v.error).sum::<f64>() / n,
        verdicts.iter().map(|v| v.nodes).sum::<u64>()
    )
}
