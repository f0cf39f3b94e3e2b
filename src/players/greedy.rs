//! The Lab 8 Part 1 computer: the move that flips the most discs, ties to
//! the lowest row, then the lowest column.

use super::Player;
use crate::rules::{AnyBoard, Board, Move, Position, Square, SquareSet};
use crate::search::Limits;
use crate::with_board;

/// The greedy player of Lab 8 Part 1.
#[derive(Debug, Clone, Copy, Default)]
pub struct Greedy;

/// The greedy move on a relative board: most flips, first in row-major
/// order among equals; `None` when the side to move has no move.
pub fn greedy_index<B: Board>(board: &B) -> Option<usize> {
    let mut best: Option<(u32, usize)> = None;
    for sq in board.moves().iter() {
        let flips = board.flips(sq).count();
        if best.is_none_or(|(f, _)| flips > f) {
            best = Some((flips, sq));
        }
    }
    best.map(|(_, sq)| sq)
}

impl Player for Greedy {
    fn name(&self) -> String {
        "greedy".to_string()
    }

    fn choose(&mut self, pos: &Position, _limits: &Limits) -> Move {
        let board: AnyBoard = pos.board();
        match with_board!(board, b => greedy_index(&b)) {
            Some(i) => Move::Place(Square::from_index(i, pos.size())),
            None => Move::Pass,
        }
    }
}
