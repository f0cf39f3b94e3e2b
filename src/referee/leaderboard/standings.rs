//! The standings as rows and as text.

use super::stage::{Stage, tallies, wins};
use super::{LeaderboardConfig, Roll, rule_text};
use crate::referee::arena::Tally;
use crate::rules::Color;
use serde::Serialize;
use std::fmt::Write as _;
use std::time::Duration;

/// One player's line of the finals.
#[derive(Clone, Debug, Serialize)]
pub(super) struct FinalRow {
    rank: usize,
    pub(super) name: String,
    points: String,
    games: usize,
    wdl: String,
    discs: String,
    mean_ms: String,
    max_ms: String,
    /// Mean and largest CPU time a move, where moves were judged on it.
    cpu_mean_ms: String,
    cpu_max_ms: String,
    forfeits: String,
}

/// The time a tally's moves used, as the tie rule counts it: CPU time
/// where they were judged on it, else wall time.
fn used(t: &Tally) -> Duration {
    t.cpu.map_or(t.time, |c| c.total)
}

/// The finals' standings, best first: by points, ties by the less time
/// used.
pub(super) fn final_rows(stage: &Stage) -> Vec<FinalRow> {
    let mut totals = vec![Tally::default(); stage.entries.len()];
    for (&(i, j), t) in stage.pairs.iter().zip(tallies(stage)) {
        totals[i].merge(&t[0]);
        totals[j].merge(&t[1]);
    }
    let mut order: Vec<usize> = (0..totals.len()).collect();
    order.sort_by(|&a, &b| {
        totals[b]
            .points
            .total_cmp(&totals[a].points)
            .then(used(&totals[a]).cmp(&used(&totals[b])))
    });
    order
        .iter()
        .enumerate()
        .map(|(rank, &i)| {
            let t = &totals[i];
            let [w, d, l] = [0, 1, 2].map(|k| t.wdl[0][k] + t.wdl[1][k]);
            FinalRow {
                rank: rank + 1,
                name: stage.entries[i].name.clone(),
                points: format!("{:.2}", t.points),
                games: t.games(),
                wdl: format!("{w}-{d}-{l}"),
                discs: format!("{:+.1}", t.disc_sum as f64 / t.games().max(1) as f64),
                mean_ms: format!(
                    "{:.1}",
                    t.time.as_secs_f64() * 1000.0 / t.moves.max(1) as f64
                ),
                max_ms: format!("{:.1}", t.max_time.as_secs_f64() * 1000.0),
                cpu_mean_ms: t.cpu.map_or("-".into(), |c| {
                    format!(
                        "{:.1}",
                        c.total.as_secs_f64() * 1000.0 / t.moves.max(1) as f64
                    )
                }),
                cpu_max_ms: t.cpu.map_or("-".into(), |c| {
                    format!("{:.1}", c.max.as_secs_f64() * 1000.0)
                }),
                forfeits: forfeit_text(&t.forfeits),
            }
        })
        .collect()
}

fn forfeit_text(forfeits: &[(String, usize)]) -> String {
    if forfeits.is_empty() {
        "-".into()
    } else {
        forfeits
            .iter()
            .map(|(k, n)| format!("{n} {k}"))
            .collect::<Vec<_>>()
            .join(", ")
    }
}

/// One program's line of the qualification.
#[derive(Clone, Debug, Serialize)]
pub(super) struct QualifyRow {
    pub(super) name: String,
    /// Per qualifier and colour (Black first).
    games: Vec<GameCell>,
    wins: usize,
    finalist: bool,
}

/// One game's result for one of its players, and the game's id on the
/// page (`qualify-p3-g1`).
#[derive(Clone, Debug, Serialize)]
pub(super) struct GameCell {
    /// `W +12`, `L -64 (late)`, `D +0`, or `-` when it is not played.
    pub(super) text: String,
    pub(super) id: String,
}

/// The result of game `game` of pairing `pairing` for its first player
/// (`first` false: for its second).
pub(super) fn game_cell(stage: &Stage, pairing: usize, game: usize, first: bool) -> GameCell {
    let id = format!("{}-p{pairing}-g{game}", stage.folder);
    let Some(r) = stage
        .results
        .iter()
        .find(|r| r.pairing == pairing && r.game == game)
    else {
        return GameCell {
            text: "-".into(),
            id,
        };
    };
    let first_black = game.is_multiple_of(2) == first;
    let discs = if first_black {
        r.black_discs
    } else {
        -r.black_discs
    };
    let letter = match discs.signum() {
        1 => "W",
        -1 => "L",
        _ => "D",
    };
    let forfeit = match &r.forfeit {
        Some((c, kind)) => {
            let who = if (*c == Color::Black) == first_black {
                ""
            } else {
                "opponent "
            };
            format!(" ({who}{kind})")
        }
        None => String::new(),
    };
    GameCell {
        text: format!("{letter} {discs:+}{forfeit}"),
        id,
    }
}

pub(super) fn qualify_rows(
    stage: &Stage,
    qualifiers: usize,
    finalists: &[usize],
) -> Vec<QualifyRow> {
    let programs = stage.entries.len() - qualifiers;
    (0..programs)
        .map(|i| QualifyRow {
            name: stage.entries[i].name.clone(),
            games: (0..qualifiers)
                .flat_map(|q| {
                    let k = i * qualifiers + q;
                    [game_cell(stage, k, 0, true), game_cell(stage, k, 1, true)]
                })
                .collect(),
            wins: wins(stage, i),
            finalist: finalists.contains(&i),
        })
        .collect()
}

/// The largest move time measured in `stage`, in milliseconds.
fn max_move_ms(stage: &Stage) -> f64 {
    stage
        .results
        .iter()
        .flat_map(|r| r.max_time)
        .max()
        .unwrap_or_default()
        .as_secs_f64()
        * 1000.0
}

/// The forfeits of `stage` by reason.
fn forfeits_by_reason(stage: &Stage) -> Vec<(String, usize)> {
    let mut counts: Vec<(String, usize)> = Vec::new();
    for (_, kind) in stage.results.iter().filter_map(|r| r.forfeit.as_ref()) {
        match counts.iter_mut().find(|(k, _)| k == kind) {
            Some((_, n)) => *n += 1,
            None => counts.push((kind.clone(), 1)),
        }
    }
    counts
}

/// The width of the program column: the longest name, at least 24.
fn name_width(stage: &Stage) -> usize {
    stage
        .entries
        .iter()
        .map(|e| e.name.chars().count())
        .max()
        .unwrap_or(0)
        .max(24)
}

/// The standings as text.
pub(super) fn standings(
    cfg: &LeaderboardConfig,
    qualification: &Stage,
    finalists: &[usize],
    finals: Option<&Stage>,
    roll: &Roll,
) -> String {
    let mut text = String::new();
    let _ = writeln!(
        text,
        "Lab 8 Part 3 leaderboard: {n}x{n}, {} ms a move (+{} ms margin){}\n",
        cfg.time.as_millis(),
        cfg.margin.as_millis(),
        rule_text(cfg),
        n = cfg.size
    );
    let _ = writeln!(text, "Updated {}\n", roll.updated);
    let _ = writeln!(
        text,
        "Qualification: {} of {} wins against {}, each with both colours, make a finalist",
        cfg.wins_needed,
        2 * cfg.qualifiers.len(),
        cfg.qualifiers.join(" and ")
    );
    let width = name_width(qualification);
    let mut head = format!("{:<width$}", "program");
    for q in &cfg.qualifiers {
        for colour in ["B", "W"] {
            let _ = write!(head, " {:>20}", format!("{q} ({colour})"));
        }
    }
    let _ = writeln!(text, "{head} {:>5}  finalist", "wins");
    for row in qualify_rows(qualification, cfg.qualifiers.len(), finalists) {
        let mut line = format!("{:<width$}", row.name);
        for g in &row.games {
            let _ = write!(line, " {:>20}", g.text);
        }
        let mark = if row.finalist { "yes" } else { "-" };
        let _ = writeln!(text, "{line} {:>5}  {mark}", row.wins);
    }
    let _ = writeln!(text);
    match finals {
        Some(stage) => {
            let _ = writeln!(
                text,
                "Finals (win 2, loss 0, tie 0-1 by share of time used; ties ranked by time)"
            );
            let _ = writeln!(
                text,
                "{:>4} {:<width$} {:>7} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}  forfeits",
                "rank",
                "program",
                "points",
                "games",
                "W-D-L",
                "discs",
                "mean ms",
                "max ms",
                "CPU mean",
                "CPU max"
            );
            for r in final_rows(stage) {
                let _ = writeln!(
                    text,
                    "{:>4} {:<width$} {:>7} {:>6} {:>9} {:>9} {:>9} {:>9} {:>9} {:>9}  {}",
                    r.rank,
                    r.name,
                    r.points,
                    r.games,
                    r.wdl,
                    r.discs,
                    r.mean_ms,
                    r.max_ms,
                    r.cpu_mean_ms,
                    r.cpu_max_ms,
                    r.forfeits
                );
            }
        }
        None => {
            let _ = writeln!(text, "No finals: fewer than two finalists.");
        }
    }
    let stages: Vec<&Stage> = std::iter::once(qualification).chain(finals).collect();
    let mut forfeits: Vec<(String, usize)> = Vec::new();
    for stage in &stages {
        for (kind, n) in forfeits_by_reason(stage) {
            match forfeits.iter_mut().find(|(k, _)| *k == kind) {
                Some((_, c)) => *c += n,
                None => forfeits.push((kind, n)),
            }
        }
    }
    let max = stages.iter().map(|s| max_move_ms(s)).fold(0.0, f64::max);
    let _ = writeln!(
        text,
        "\nForfeits by reason: {}\nLargest move time measured: {max:.1} ms",
        forfeit_text(&forfeits)
    );
    if !roll.unbuilt.is_empty() {
        let _ = writeln!(
            text,
            "\nSubmissions that did not build ({}; the whole compiler output is on the page):",
            roll.unbuilt.len()
        );
        for u in &roll.unbuilt {
            let _ = writeln!(text, "  {} (changed {}): {}", u.name, u.changed, u.summary);
        }
    }
    text
}
