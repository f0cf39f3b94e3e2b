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

use super::{Evaluation, Player};
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
        let unlimited = Limits::unlimited();
        let mut search = Searcher::new(&unlimited);
        search.root(board, white_to_move, self.depth).flatten()
    }
}

/// The search stopped on its limits; its result is discarded.
struct Stopped;

/// How many nodes pass between two looks at the limits.
const POLL_NODES: u64 = 1024;

/// One search under limits: it looks at them every [`POLL_NODES`] nodes.
struct Searcher<'a> {
    limits: &'a Limits,
    nodes: u64,
    /// The best root move searched in full so far, and its value.
    partial: Option<(usize, i32)>,
}

impl<'a> Searcher<'a> {
    fn new(limits: &'a Limits) -> Searcher<'a> {
        Searcher {
            limits,
            nodes: 0,
            partial: None,
        }
    }

    fn count(&mut self) -> Result<(), Stopped> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(POLL_NODES) && self.limits.must_stop() {
            return Err(Stopped);
        }
        Ok(())
    }

    /// The best move and its value at `depth` (`None` for a forced pass),
    /// or `None` when the limits stopped the search.
    fn root(
        &mut self,
        board: &Bitboard,
        white_to_move: bool,
        depth: u32,
    ) -> Option<Option<(usize, i32)>> {
        self.try_root(board, white_to_move, depth).ok()
    }

    fn try_root(
        &mut self,
        board: &Bitboard,
        white_to_move: bool,
        depth: u32,
    ) -> Result<Option<(usize, i32)>, Stopped> {
        self.partial = None;
        let moves = board.moves();
        let mut best: Option<(usize, i32)> = None;
        let (mut alpha, mut beta) = (i32::MIN, i32::MAX);
        for &sq in COLUMN_MAJOR.iter().filter(|&&sq| moves & (1 << sq) != 0) {
            let v = self.value(&board.play(sq), !white_to_move, depth - 1, alpha, beta)?;
            let better = match best {
                None => true,
                Some((_, b)) if white_to_move => v > b,
                Some((_, b)) => v < b,
            };
            if better {
                best = Some((sq, v));
                self.partial = best;
            }
            if white_to_move {
                alpha = alpha.max(v);
            } else {
                beta = beta.min(v);
            }
        }
        Ok(best)
    }

    /// Minimax value (White's view) of `board` with `depth` plies to go.
    fn value(
        &mut self,
        board: &Bitboard,
        white_to_move: bool,
        depth: u32,
        mut alpha: i32,
        mut beta: i32,
    ) -> Result<i32, Stopped> {
        self.count()?;
        let (white, black) = if white_to_move {
            (board.player, board.opponent)
        } else {
            (board.opponent, board.player)
        };
        if depth == 0 {
            return Ok(board_eval(white, black));
        }
        let moves = board.moves();
        if moves == 0 {
            if board.pass().moves() == 0 {
                return Ok(board_eval(white, black));
            }
            return self.value(&board.pass(), !white_to_move, depth - 1, alpha, beta);
        }
        let mut best = if white_to_move { i32::MIN } else { i32::MAX };
        for &sq in COLUMN_MAJOR.iter().filter(|&&sq| moves & (1 << sq) != 0) {
            let v = self.value(&board.play(sq), !white_to_move, depth - 1, alpha, beta)?;
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
        Ok(best)
    }
}

impl Player for Norvig {
    fn name(&self) -> String {
        format!("norvig:{}", self.depth)
    }

    fn supports(&self, n: usize) -> bool {
        n == 8
    }

    fn depth_defined(&self) -> bool {
        true
    }

    fn evaluate(&self, pos: &Position) -> Option<Evaluation> {
        let AnyBoard::Eight(b) = pos.board() else {
            return None;
        };
        let (white, black) = match pos.to_move() {
            Color::White => (b.player, b.opponent),
            Color::Black => (b.opponent, b.player),
        };
        Some(Evaluation::Points(board_eval(white, black)))
    }

    /// The move of the search to the agent's depth. Limits that cut it
    /// (a stop, or a time limit the user chose) get the move of the
    /// deepest depth that finished, found by searching depths 1, 2, ...
    /// in turn (each alone gives the same move as the course's agent at
    /// that depth), which is logged.
    fn choose(&mut self, pos: &Position, limits: &Limits) -> Move {
        let AnyBoard::Eight(board) = pos.board() else {
            // `supports` keeps other sizes away; never play illegally.
            return super::First.choose(pos, &Limits::unlimited());
        };
        let white = pos.to_move() == Color::White;
        let mut search = Searcher::new(limits);
        // Iterating costs time (the shallower depths are searched for
        // nothing), so it is done only where a time limit may cut the
        // search (docs/research/time.md, "Margins and spending").
        let first = if limits.hard.is_some() { 1 } else { self.depth };
        // A pass, or the first legal move in the agent's order, until a
        // depth finishes.
        let mut best = COLUMN_MAJOR
            .iter()
            .find(|&&sq| board.moves() & (1 << sq) != 0)
            .copied();
        let mut finished = 0;
        for depth in first..=self.depth {
            match search.root(&board, white, depth) {
                Some(found) => {
                    best = found.map(|(sq, _)| sq);
                    finished = depth;
                }
                None => {
                    // Stopped before any depth finished: the best root
                    // move searched in full so far.
                    if finished == 0 && search.partial.is_some() {
                        best = search.partial.map(|(sq, _)| sq);
                    }
                    log::info!(
                        "{}: stopped after {} nodes; the move of depth {finished}{}",
                        self.name(),
                        search.nodes,
                        if finished == 0 {
                            " (none finished: the best root move so far)"
                        } else {
                            ""
                        }
                    );
                    break;
                }
            }
        }
        best.map_or(Move::Pass, |sq| Move::Place(Square::from_index(sq, 8)))
    }
}
