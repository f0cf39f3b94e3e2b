//! `reversi state`: the COMP24011 state (`[....|....]`) after a list of
//! moves, from the start position or from a given state.

use crate::rules::split_move_list;
use crate::rules::{Game, NotationError, Position, RulesError, comp, parse_move, printable};

/// Why the moves could not be played.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    #[error("bad state '{}'", printable(.0))]
    BadState(String),
    #[error(transparent)]
    Rules(#[from] RulesError),
    #[error(transparent)]
    Notation(#[from] NotationError),
    #[error("{0}: {1}")]
    Illegal(String, RulesError),
}

/// The state after `moves` (each `f5d6c3`-style lists, passes as `pass`),
/// from `from` or the n x n start position.
pub fn after_moves(n: usize, from: Option<&str>, moves: &[String]) -> Result<String, StateError> {
    let start = match from {
        Some(state) => {
            let (n, cells, to_move) =
                comp::parse_state(state).ok_or_else(|| StateError::BadState(state.into()))?;
            Position::from_cells(n, &cells, to_move)?
        }
        None => Position::start(n)?,
    };
    let mut game = Game::from_position(start);
    for mv in split_move_list(&moves.join(" ")) {
        let n = game.position().size();
        let parsed = parse_move(&mv, n)?;
        game.play_next(parsed)
            .map_err(|e| StateError::Illegal(mv.clone(), e))?;
    }
    Ok(game.position().comp_state())
}
