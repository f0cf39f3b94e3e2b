//! Perft: the number of move sequences of a given length from a position,
//! the standard check that move generation is exact. Convention (as in
//! `../shared/data/perft.txt`): a forced pass is a ply; a finished game is
//! one leaf whatever depth remains.

use super::board::Board;
use super::set::SquareSet;

/// Leaves of the game tree `depth` plies below `board`.
pub fn perft<B: Board>(board: &B, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = board.moves();
    if moves.is_empty() {
        let passed = board.pass();
        if depth == 1 || passed.moves().is_empty() {
            // Either the pass is the last ply, or the game is over.
            return 1;
        }
        return perft(&passed, depth - 1);
    }
    if depth == 1 {
        // Bulk counting: the leaves are the legal moves themselves.
        return moves.count() as u64;
    }
    moves
        .iter()
        .map(|sq| perft(&board.play(sq), depth - 1))
        .sum()
}

/// Perft split by first move: each root move (square index, or `None` for a
/// forced pass) with its leaf count at `depth`.
pub fn divide<B: Board>(board: &B, depth: u32) -> Vec<(Option<usize>, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    let moves = board.moves();
    if moves.is_empty() {
        if board.pass().moves().is_empty() {
            return Vec::new();
        }
        return vec![(None, perft(&board.pass(), depth - 1))];
    }
    moves
        .iter()
        .map(|sq| (Some(sq), perft(&board.play(sq), depth - 1)))
        .collect()
}
