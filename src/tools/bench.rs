//! `reversi bench`: a fixed set of positions searched to fixed depths with
//! a cleared table, one thread. The total node count changes only when the
//! search does (a check that a change meant to be pure speed is), and the
//! nodes per second measure speed.

use crate::players::Strong;
use crate::rules::obf::Problem;
use crate::rules::{Move, Position};
use crate::search::Limits;
use std::time::{Duration, Instant};

/// One benchmark position and its search depth.
#[derive(Clone, Debug)]
pub struct BenchPosition {
    pub label: String,
    pub position: Position,
    pub depth: u32,
}

/// Positions from the FFO suite (8x8 middle and end games) and from fixed
/// pseudo-random games on larger boards, early and late.
pub fn positions() -> Vec<BenchPosition> {
    let mut out = Vec::new();
    let ffo = include_str!("../../data/ffo/fforum-20-39.obf");
    for (i, line) in ffo.lines().enumerate().step_by(4) {
        if let Ok(Some(p)) = Problem::parse(line) {
            out.push(BenchPosition {
                label: format!("ffo#{}", 20 + i),
                position: p.position,
                depth: 12,
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
            position: opening(n, plies),
            depth,
        });
    }
    out
}

/// The position after `plies` moves chosen by a fixed rule (the legal move
/// at a pseudo-random rank), the same in every build.
fn opening(n: usize, plies: usize) -> Position {
    let mut pos = Position::start(n).expect("supported size");
    let mut state: u64 = 0x9E37_79B9_7F4A_7C15 ^ n as u64;
    for _ in 0..plies {
        let moves = pos.legal_moves(pos.to_move());
        if moves.is_empty() {
            match pos.play(Move::Pass) {
                Ok(p) => pos = p,
                Err(_) => break,
            }
            continue;
        }
        state = state
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let sq = moves[((state >> 33) % moves.len() as u64) as usize];
        pos = pos.place(pos.to_move(), sq).expect("legal");
    }
    pos
}

/// One measured search.
#[derive(Clone, Debug)]
pub struct BenchResult {
    pub label: String,
    pub depth: u32,
    pub nodes: u64,
    pub time: Duration,
}

/// Searches every position to its depth with a fresh 64 MB table.
pub fn run(mut each: impl FnMut(&BenchResult)) -> Vec<BenchResult> {
    positions()
        .into_iter()
        .map(|b| {
            let mut player = Strong::new(64);
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
