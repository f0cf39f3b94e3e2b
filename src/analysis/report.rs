//! The analysis as text and as JSON.

use super::{GameAnalysis, Mark, PlayerTotals, Summary, colour_title, name_in, players};
use crate::rules::{Color, Move};
use serde::Serialize;
use std::io::Write;

/// A player as a game's text names it: `alice (Black)`, or `Black` for a
/// record without names.
pub fn player_name(a: &GameAnalysis, colour: Color) -> String {
    match name_in(a, colour) {
        "" => colour_title(colour).to_string(),
        name => format!("{name} ({})", colour_title(colour)),
    }
}

/// A summary in words: `30 moves, mean loss 1.20 discs a move, 2
/// mistakes, 0 blunders, best move 40.0%; loss by empties 60-41 3.20,
/// 40-21 1.00, 20-1 0.00`, each phase's loss divided by `games`.
pub fn summary_text(s: &Summary, games: usize) -> String {
    let phases: Vec<String> = s
        .phases
        .iter()
        .map(|p| format!("{}-{} {:.2}", p.from, p.to, p.loss / games.max(1) as f64))
        .collect();
    let per_game = if games > 1 { " a game" } else { "" };
    format!(
        "{} moves, mean loss {:.2} discs a move, {} mistakes, {} blunders, best move {:.1}%; loss{per_game} by empties {}",
        s.moves,
        s.mean_loss,
        s.mistakes,
        s.blunders,
        s.best_share * 100.0,
        phases.join(", ")
    )
}

/// Each side's summary of one game, in words, Black's first:
/// `alice (Black): 30 moves, ...`.
pub fn summary_lines(a: &GameAnalysis) -> [String; 2] {
    [
        (Color::Black, &a.black_summary),
        (Color::White, &a.white_summary),
    ]
    .map(|(colour, s)| format!("{}: {}", player_name(a, colour), summary_text(s, 1)))
}

/// A game's table of moves, one a line under a header, each move as
/// `notation` writes it; then the players' summaries.
pub fn write_moves(
    a: &GameAnalysis,
    notation: &dyn Fn(Move) -> String,
    out: &mut dyn Write,
) -> std::io::Result<()> {
    writeln!(
        out,
        "{:>4} {:<6} {:>7} {:>6} {:>6} {:>8} {:>8} {:>6}  mark",
        "ply", "colour", "empties", "played", "best", "best", "played", "loss"
    )?;
    for m in &a.moves {
        let mark = Mark::name(m.mark);
        let exact = if m.exact { " exact" } else { "" };
        let line = format!(
            "{:>4} {:<6} {:>7} {:>6} {:>6} {:>+8.2} {:>+8.2} {:>6.2}  {mark}{exact}",
            m.ply,
            m.colour.name(),
            m.empties,
            notation(m.played),
            notation(m.best),
            m.best_score,
            m.played_score,
            m.loss
        );
        writeln!(out, "{}", line.trim_end())?;
    }
    for line in summary_lines(a) {
        writeln!(out, "{line}")?;
    }
    if !a.complete {
        writeln!(out, "stopped before every move was analysed")?;
    }
    Ok(())
}

/// The analyses as text: a table a game, then, for more than one game,
/// each player's totals ([`write_players`]).
pub fn write_text(analyses: &[GameAnalysis], out: &mut dyn Write) -> std::io::Result<()> {
    for a in analyses {
        writeln!(
            out,
            "game of {}: {} against {}",
            a.label,
            player_name(a, Color::Black),
            player_name(a, Color::White)
        )?;
        write_moves(a, &|mv| mv.standard(), out)?;
        writeln!(out)?;
    }
    if analyses.len() > 1 {
        write_players(&players(analyses), out)?;
    }
    Ok(())
}

/// Each player's totals: its moves summed up with the loss of each phase
/// a game, its results, and those perfect play from the first position
/// solved would have given.
pub fn write_players(totals: &[PlayerTotals], out: &mut dyn Write) -> std::io::Result<()> {
    for t in totals {
        writeln!(
            out,
            "{}: {} games, {}",
            t.name,
            t.games,
            summary_text(&t.summary, t.games)
        )?;
        let r = &t.results;
        let unfinished = match t.unfinished {
            0 => String::new(),
            u => format!(" ({u} not finished, left out)"),
        };
        writeln!(
            out,
            "  played: {}-{}-{}, {:.1}%{unfinished}",
            r.wins,
            r.draws,
            r.losses,
            r.score * 100.0
        )?;
        let s = &t.solved;
        let solved = s.wins + s.draws + s.losses;
        if solved > 0 {
            writeln!(
                out,
                "  perfect play from the first position solved ({solved} games): {}-{}-{}, {:.1}%",
                s.wins,
                s.draws,
                s.losses,
                s.score * 100.0
            )?;
        }
    }
    Ok(())
}

/// The analyses as JSON: `{"games": [...], "players": [...]}`, each game
/// with its moves and the two summaries (the fields of
/// [`GameAnalysis`]), each player's totals those of [`PlayerTotals`].
pub fn write_json(analyses: &[GameAnalysis], out: &mut dyn Write) -> std::io::Result<()> {
    #[derive(Serialize)]
    struct Document<'a> {
        games: &'a [GameAnalysis],
        players: Vec<PlayerTotals>,
    }
    let doc = Document {
        games: analyses,
        players: players(analyses),
    };
    serde_json::to_writer_pretty(&mut *out, &doc)?;
    writeln!(out)
}
