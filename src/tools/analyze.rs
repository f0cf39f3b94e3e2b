//! `reversi analyze`'s input: games one a line, as GGF records, move
//! lists or WTHOR lines (the analysis itself is [`crate::analysis`]).

use crate::analysis::{InputGame, opening_of};
use crate::rules::{Game, ggf, parse_move, printable, split_move_list};

/// Why games could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    #[error("line {line}: {why}")]
    Game { line: usize, why: String },
    #[error("no game in the input")]
    NoGames,
}

/// Reads games, one a line: GGF records (`(;GM[Othello]...;)`), move
/// lists (`f5d6c3...`, on an n x n board) or WTHOR lines (`1987 f5d6...
/// 40-24`); blank lines and `#` comments are skipped. A match's opening
/// ([`opening_of`]) is not the players' and is left out of the analysis. A line that is no
/// legal game is an error that names it and the ply. Each game's label is
/// its line: `line 3`.
pub fn read_games(text: &str, n: usize) -> Result<Vec<InputGame>, ReadError> {
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_number = i + 1;
        let line = line.trim().trim_start_matches('\u{feff}');
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let bad = |why: String| ReadError::Game {
            line: line_number,
            why,
        };
        let label = format!("line {line_number}");
        if line.starts_with("(;") {
            let record = ggf::parse(line).map_err(|e| bad(e.to_string()))?;
            games.push(InputGame {
                label,
                opening: opening_of(&record),
                black: record.black,
                white: record.white,
                game: record.game,
            });
            continue;
        }
        // A WTHOR line: `YEAR MOVES SCORE`.
        let words: Vec<&str> = line.split_whitespace().collect();
        let moves = match words.as_slice() {
            [year, moves, ..] if year.bytes().all(|b| b.is_ascii_digit()) => moves,
            _ => line,
        };
        let mut game = Game::new(n).map_err(|e| bad(e.to_string()))?;
        for (k, word) in split_move_list(moves).iter().enumerate() {
            let mv = parse_move(word, n)
                .map_err(|e| bad(format!("ply {}: '{}': {e}", k + 1, printable(word))))?;
            game.play_next(mv)
                .map_err(|e| bad(format!("ply {} ({}): {e}", k + 1, printable(word))))?;
        }
        games.push(InputGame {
            label,
            black: String::new(),
            white: String::new(),
            game,
            opening: 0,
        });
    }
    if games.is_empty() {
        return Err(ReadError::NoGames);
    }
    Ok(games)
}
