//! `reversi bench`: a fixed set of positions searched to fixed depths with
//! a cleared table, one thread. The total node count changes only when the
//! search does (a check that a change meant to be pure speed is), and the
//! nodes per second measure speed.

use crate::openings::{fixed_opening, recorded_prefix};
use crate::players::{Player, Strong};
use crate::rules::Position;
use crate::rules::obf::Problem;
use crate::search::Limits;
use crate::search::pattern::EvalKind;
use std::time::{Duration, Instant};

/// One benchmark position and its search depth.
#[derive(Clone, Debug)]
pub struct BenchPosition {
    pub label: String,
    pub position: Position,
    pub depth: u32,
}

/// The depth the 8x8 middle-game positions are searched to by default:
/// the pinned node total is at this depth.
pub const MIDGAME_DEPTH: u32 = 14;

/// Positions from the FFO suite (8x8 middle and end games), 8x8 middle
/// games searched to `midgame_depth` plies, and fixed pseudo-random games
/// on larger boards, early and late.
pub fn positions(midgame_depth: u32) -> Vec<BenchPosition> {
    let mut out = Vec::new();
    let ffo = include_str!("../../data/ffo/fforum-20-39.obf");
    for (i, line) in ffo.lines().enumerate().step_by(4) {
        if let Ok(Some(p)) = Problem::parse(line) {
            out.push(BenchPosition {
                label: format!("ffo#{}", 20 + i),
                // Solved exactly: a depth limit short of the end would
                // stop short of the solver.
                depth: p.position.empties(),
                position: p.position,
            });
        }
    }
    // Time to depth on 8x8 in the middle game: WTHOR games (lines 1,000,
    // 20,000, 50,000, 80,000, 110,000 and 130,000 of the shared file)
    // after 20 and 30 plies. At the default 14 plies they take 0.2 s in
    // all, and their time moves by 5-8% from run to run; at 18 (0.8 s)
    // a change of the search shows in the time as well as the nodes.
    for (i, game) in MIDGAME_GAMES.iter().enumerate() {
        for plies in [20, 30] {
            out.push(BenchPosition {
                label: format!("wthor{}+{plies}", i + 1),
                position: recorded_prefix(game, plies),
                depth: midgame_depth,
            });
        }
    }
    for (n, plies, depth) in [
        (8, 12, 13),
        (10, 16, 9),
        (12, 20, 8),
        (16, 30, 7),
        (26, 40, 6),
        // Late games on wide boards, where the empties are few and
        // scattered and the search must go deep to hold its lead.
        (16, 220, 9),
        (26, 644, 8),
    ] {
        out.push(BenchPosition {
            label: format!("{n}x{n}+{plies}"),
            position: fixed_opening(n, plies),
            depth,
        });
    }
    out
}

/// The first 32 moves of the WTHOR games of the middle-game positions.
const MIDGAME_GAMES: [&str; 6] = [
    "f5d6c5f4e3c6d3f6e6d7c7f3e8c8d8f8g5g4h4h3h2e2d2g3e1b8e7f7g6c1h5f2",
    "f5d6c3d3c4f4c5b4b5c6f3f6e3e2d2d1e6c2d7c7b6g6g5f7e7f8e8d8a3h4h5h6",
    "f5d6c4d3c3f4c5b3c2e3d2b6b4a4c6e6b5a5d7f7f6e2g3c7c8e7f1e8d8f8a3a2",
    "f5d6c4d3e6f4e3f3c6b4b3b5g4g5c3c2e2d2f2c5a6a5a3a4g3f6h6f7e7b6g6c7",
    "f5f6e6f4g5e7f7c5f3g3h3f2e1h6h4g6g4f8d8g7e2h5c4d3d6e3b5f1g2d1c2c3",
    "f5d6c4f4f6g5g6e3d3f3h5c5e6e7f7c6c3b4e8e2b5c2d2g4h4g3h3f2d1f1a4b6",
];

/// One measured search.
#[derive(Clone, Debug)]
pub struct BenchResult {
    pub label: String,
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
}

/// Searches every position to its depth (the 8x8 middle games to
/// `midgame_depth`) with a fresh 64 MB table, on `threads` threads, the
/// 8x8 positions evaluated with `eval`.
pub fn run(
    threads: usize,
    midgame_depth: u32,
    eval: EvalKind,
    mut each: impl FnMut(&BenchResult),
) -> Vec<BenchResult> {
    positions(midgame_depth)
        .into_iter()
        .map(|b| {
            let mut player = Strong::new(64);
            player.set_threads(threads);
            player.set_eval(eval);
            let limits = Limits {
                depth: Some(b.depth),
                ..Limits::unlimited()
            };
            // The table's pages are touched before the clock starts.
            player.commit_table();
            let start = Instant::now();
            let it = player.search_position(&b.position, &limits);
            let result = BenchResult {
                label: b.label,
                depth: b.depth,
                nodes: it.map_or(0, |i| i.nodes),
                time: start.elapsed(),
            };
            each(&result);
            result
        })
        .collect()
}

/// A table row.
pub fn row(r: &BenchResult) -> String {
    format!(
        "{:<10} depth {:>2} {:>13} nodes {:>8.3} s {:>8.2} Mnodes/s",
        r.label,
        r.depth,
        r.nodes,
        r.time.as_secs_f64(),
        r.nodes as f64 / r.time.as_secs_f64().max(1e-9) / 1e6
    )
}

/// The totals line.
pub fn total(results: &[BenchResult]) -> String {
    let nodes: u64 = results.iter().map(|r| r.nodes).sum();
    let secs: f64 = results.iter().map(|r| r.time.as_secs_f64()).sum();
    format!(
        "total {nodes} nodes {secs:.3} s {:.2} Mnodes/s",
        nodes as f64 / secs.max(1e-9) / 1e6
    )
}
