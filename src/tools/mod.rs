//! The command-line tools behind `reversi solve`, `evaltest`, `bench`, `train`,
//! `perft` and the others: each takes its settings, a reader or files for
//! its input and a writer for its output, so that the binary only parses
//! arguments (and a closed output pipe is an error, not a panic).

pub mod analyze;
pub mod bench;
pub mod book;
pub mod evaltest;
pub mod file_move;
pub mod openings;
pub mod perft;
pub mod probcut;
pub mod selfplay;
pub mod solve;
pub mod state;
pub mod train;

pub use crate::progress::progress;
use crate::rules::Move;
use std::io::{self, Read};

/// Why no game records could be read.
#[derive(Debug, thiserror::Error)]
pub enum GamesError {
    #[error("cannot read the games: {0}")]
    Io(#[from] io::Error),
    #[error("no games in the input")]
    None,
}

/// The game records of `input` (lines `YEAR MOVES RESULT`, or just moves),
/// at most `limit` of them; an error if there are none.
pub fn read_games(
    mut input: impl Read,
    limit: Option<usize>,
) -> Result<Vec<Vec<Move>>, GamesError> {
    let mut text = String::new();
    input.read_to_string(&mut text)?;
    let mut games = train::read_games(&text);
    if let Some(l) = limit {
        games.truncate(l);
    }
    if games.is_empty() {
        return Err(GamesError::None);
    }
    Ok(games)
}
