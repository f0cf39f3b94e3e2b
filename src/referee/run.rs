//! The `match` subcommand: contestants from their names, games played by
//! the arena, each game's record written as it ends, forfeits told on
//! stderr with why, and the table (or the tournament's leaderboard) at the
//! end.

use super::arena::{self, MatchConfig};
use super::contestant::Contestant;
use crate::engine::UnsupportedSize;
use crate::players::UnknownPlayer;
use crate::progress::progress;
use crate::rules::{Color, is_supported_size};
use std::fs::File;
use std::io::{self, Write};

/// Why a match could not be played or reported.
#[derive(Debug, thiserror::Error)]
pub enum MatchError {
    #[error("unsupported board size {0} (even sizes 4 to 26)")]
    Size(usize),
    #[error(transparent)]
    Player(#[from] UnknownPlayer),
    #[error(transparent)]
    Unsupported(#[from] UnsupportedSize),
    #[error("{path}: {source}")]
    File { path: String, source: io::Error },
    #[error("i/o error: {0}")]
    Io(#[from] io::Error),
}

/// Plays a match between the players `names` (two) or a round robin
/// (more) under `config`, writing every game to `records` (GGF) and
/// `move_lists` as it ends, and the results to `out`.
pub fn run_match(
    names: &[String],
    config: &MatchConfig,
    records: Option<&str>,
    move_lists: Option<&str>,
    out: &mut dyn Write,
) -> Result<(), MatchError> {
    if !is_supported_size(config.size) {
        return Err(MatchError::Size(config.size));
    }
    let mut players = names
        .iter()
        .map(|n| Contestant::new(n, config.nboard_depth))
        .collect::<Result<Vec<_>, _>>()?;
    for p in &players {
        p.check_size(config.size)?;
    }
    let open = |path: Option<&str>| -> Result<Option<(String, File)>, MatchError> {
        path.map(|p| {
            File::create(p)
                .map(|f| (p.to_string(), f))
                .map_err(|source| MatchError::File {
                    path: p.into(),
                    source,
                })
        })
        .transpose()
    };
    let (mut ggf, mut lists) = (open(records)?, open(move_lists)?);
    let pairs = players.len() * (players.len() - 1) / 2;
    let bar = progress(
        (pairs * config.games) as u64,
        "{bar:40} {pos}/{len} games, {elapsed} (eta {eta}) {msg}",
    );
    let mut write_error = None;
    let mut on_game = |o: &arena::Outcome| {
        bar.inc(1);
        if let Some((c, f)) = &o.forfeit {
            let who = match c {
                Color::Black => &o.record.black,
                Color::White => &o.record.white,
            };
            bar.set_message(format!("last forfeit: {c} {}", f.kind()));
            // On stderr even when the bar is hidden (not a terminal).
            let game = bar.position();
            bar.suspend(|| eprintln!("game {game}: {who} ({c}) forfeits: {f}"));
        }
        let mut put = |file: &mut Option<(String, File)>, line: String| {
            if let Some((path, f)) = file
                && let Err(source) = writeln!(f, "{line}")
            {
                write_error = Some(MatchError::File {
                    path: path.clone(),
                    source,
                });
            }
        };
        put(&mut ggf, o.record.ggf());
        put(&mut lists, o.record.move_list());
    };
    let text = if players.len() == 2 {
        let (a, b) = players.split_at_mut(1);
        let tallies = arena::play_pairing(&mut a[0], &mut b[0], config, &mut on_game);
        arena::match_table([a[0].name(), b[0].name()], &tallies)
    } else {
        let (pairings, board) = arena::round_robin(&mut players, config, &mut on_game);
        format!(
            "{}\nleaderboard (Lab 8 Part 3 points: win 2, loss 0, tie 0-1 by share of time used)\n{board}",
            pairings.join("\n")
        )
    };
    bar.finish_and_clear();
    for p in &mut players {
        p.finish();
    }
    writeln!(
        out,
        "{n}x{n}, {} games per pairing, {} (+{} ms margin), openings {}, seed {}\n{text}",
        config.games,
        config.time.label(),
        config.margin.as_millis(),
        config.openings_label(),
        config.seed,
        n = config.size
    )?;
    write_error.map_or(Ok(()), Err)
}
