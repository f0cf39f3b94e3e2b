//! The COMP24011 Lab 1 agent: minimax with alpha-beta to a fixed depth over
//! Norvig's square weights, exactly as the course's reference agent plays.
//!
//! - Evaluation: the weights of White's discs minus those of Black's, from
//!   the table in the handout; no bonus for a finished game.
//! - A forced pass is a ply; a finished game (or depth 0) is a leaf.
//! - White maximises, Black minimises; among equal scores the first move
//!   wins, in the order the course code lists moves: column-major (a1, a2,
//!   ..., a8, b1, ...).
//!
//! The table is 8x8, so the agent plays only 8x8 boards.

use super::Player;
use crate::rules::{AnyBoard, Bitboard, Board, Color, Move, Position, Square};
use crate::search::Limits;

/// Norvig's square weights, row by row from a1.
#[rustfmt::skip]
pub const WEIGHTS: [i32; 64] = [
    120, -20, 20,  5,  5, 20, -20, 120,
    -20, -40, -5, -5, -5, -5, -40, -20,
     20,  -5, 15,  3,  3, 15,  -5,  20,
      5,  -5,  3,  3,  3,  3,  -5,   5,
      5,  -5,  3,  3,  3,  3,  -5,   5,
     20,  -5, 15,  3,  3, 15,  -5,  20,
    -20, -40, -5, -5, -5, -5, -40, -20,
    120, -20, 20,  5,  5, 20, -20, 120,
];

/// Square indices in column-major order: a1, a2, ..., a8, b1, ...
const COLUMN_MAJOR: [usize; 64] = {
    let mut order = [0usize; 64];
    let mut i = 0;
    while i < 64 {
        order[i] = (i % 8) * 8 + i / 8;
        i += 1;
    }
    order
};

/// The board value from White's view.
pub fn board_eval(white: u64, black: u64) -> i32 {
    let sum = |set: u64| -> i32 {
        let mut s = 0;
        let mut bits = set;
        while bits != 0 {
            s += WEIGHTS[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        s
    };
    sum(white) - sum(black)
}

/// The fixed-depth alpha-beta agent.
#[derive(Debug, Clone, Copy)]
pub struct Norvig {
    depth: u32,
}

impl Norvig {
    /// The agent searching `depth` plies (at least 1).
    pub fn new(depth: u32) -> Norvig {
        Norvig {
            depth: depth.max(1),
        }
    }

    /// The agent's move and its minimax value on an 8x8 position: `None`
    /// for a forced pass (or a finished game).
    pub fn decide(&self, board: &Bitboard, white_to_move: bool) -> Option<(usize, i32)> {
        let moves = board.moves();
        let mut best: Option<(usize, i32)> = None;
        let (mut alpha, mut beta) = (i32::MIN, i32::MAX);
        for &sq in COLUMN_MAJOR.iter().filter(|&&sq| moves & (1 << sq) != 0) {
            let v = value(&board.play(sq), !white_to_move, self.depth - 1, alpha, beta);
            let better = match best {
                None => true,
                Some((_, b)) if white_to_move => v > b,
                Some((_, b)) => v < b,
            };
            if better {
                best = Some((sq, v));
            }
            if white_to_move {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
        }
        best
    }
}

/// Minimax value (White's view) of `board` with `depth` plies to go.
fn value(board: &Bitboard, white_to_move: bool, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
    let (white, black) = if white_to_move {
        (board.player, board.opponent)
    } else {
        (board.opponent, board.player)
    };
    if depth == 0 {
        return board_eval(white, black);
    }
    let moves = board.moves();
    if moves == 0 {
        if board.pass().moves() == 0 {
            return board_eval(white, black);
        }
        return value(&board.pass(), !white_to_move, depth - 1, alpha, beta);
    }
    let mut best = if white_to_move { i32::MIN } else { i32::MAX };
    for &sq in COLUMN_MAJOR.iter().filter(|&&sq| moves & (1 << sq) != 0) {
        let v = value(&board.play(sq), !white_to_move, depth - 1, alpha, beta);
        if white_to_move {
            best = best.max(v);
            alpha = alpha.max(v);
        } else {
            best = best.min(v);
            beta = beta.min(v);
        }
        if alpha >= beta {
            break;
        }
    }
    best
}

impl Player for Norvig {
    fn name(&self) -> String {
        format!("norvig:{}", self.depth)
    }

    fn supports(&self, n: usize) -> bool {
        n == 8
    }

    fn choose(&mut self, pos: &Position, _: &Limits) -> Move {
        let AnyBoard::Eight(board) = pos.board() else {
            // `supports` keeps other sizes away; never play illegally.
            return super::First.choose(pos, &Limits::unlimited());
        };
        match self.decide(&board, pos.to_move() == Color::White) {
            Some((sq, _)) => Move::Place(Square::from_index(sq, 8)),
            None => Move::Pass,
        }
    }
}
