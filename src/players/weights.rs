//! The small C program of the seeds (`004_...`): disc count plus square
//! values from a quarter-board table mirrored to 8x8, searched by
//! iterative deepening as deep as its time allows.
//!
//! - Evaluation, from the mover's view: (own discs - opponent's) + (own
//!   square values - opponent's); with fewer than 4 empty squares (and in
//!   finished games) only the discs count, as that program's README says.
//! - Negamax with alpha-beta; a forced pass is a ply. Among equal scores
//!   the first move in row-then-column order wins. The answer is the best
//!   move of the last finished iteration.
//!
//! The table is for 8x8, so the player plays only 8x8 boards.

use super::{Evaluation, Player};
use crate::rules::{AnyBoard, Bitboard, Board, Move, Position, Square};
use crate::search::Limits;
use std::time::{Duration, Instant};

/// The quarter table of the README, top-left quadrant.
const QUARTER: [[i32; 4]; 4] = [
    [30, -4, 12, 10],
    [-4, -8, -4, 2],
    [12, -4, 2, 2],
    [10, 2, 2, -4],
];

/// The quarter table mirrored over the whole board.
pub const SQUARE_VALUES: [i32; 64] = {
    let mut t = [0i32; 64];
    let mut i = 0;
    while i < 64 {
        let (r, c) = (i / 8, i % 8);
        let r = if r < 4 { r } else { 7 - r };
        let c = if c < 4 { c } else { 7 - c };
        t[i] = QUARTER[r][c];
        i += 1;
    }
    t
};

/// The evaluation for the side to move.
pub fn evaluate(board: &Bitboard) -> i32 {
    let discs = board.disc_diff();
    if board.empties().count_ones() < 4 {
        return discs;
    }
    let value = |set: u64| -> i32 {
        let mut s = 0;
        let mut bits = set;
        while bits != 0 {
            s += SQUARE_VALUES[bits.trailing_zeros() as usize];
            bits &= bits - 1;
        }
        s
    };
    discs + value(board.player) - value(board.opponent)
}

/// The time-limited square-value player.
#[derive(Debug, Clone, Copy)]
pub struct Weights {
    seconds: f64,
}

impl Weights {
    /// The player thinking `seconds` per move (further bounded by limits).
    pub fn new(seconds: f64) -> Weights {
        Weights {
            seconds: seconds.max(0.0),
        }
    }
}

/// A stopped search.
struct Stopped;

struct Searcher<'a> {
    deadline: Instant,
    limits: &'a Limits,
    nodes: u64,
}

impl Searcher<'_> {
    fn check(&mut self) -> Result<(), Stopped> {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024)
            && (Instant::now() >= self.deadline || self.limits.must_stop())
        {
            return Err(Stopped);
        }
        Ok(())
    }

    fn negamax(
        &mut self,
        b: &Bitboard,
        depth: u32,
        mut alpha: i32,
        beta: i32,
    ) -> Result<i32, Stopped> {
        self.check()?;
        let moves = b.moves();
        if moves == 0 {
            if b.pass().moves() == 0 {
                return Ok(b.disc_diff());
            }
            if depth == 0 {
                return Ok(evaluate(b));
            }
            return Ok(-self.negamax(&b.pass(), depth - 1, -beta, -alpha)?);
        }
        if depth == 0 {
            return Ok(evaluate(b));
        }
        let mut best = i32::MIN + 1;
        let mut bits = moves;
        while bits != 0 {
            let sq = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let v = -self.negamax(&b.play(sq), depth - 1, -beta, -alpha)?;
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        Ok(best)
    }

    /// The first best move at `depth`.
    fn root(&mut self, b: &Bitboard, depth: u32) -> Result<usize, Stopped> {
        let mut best: Option<(i32, usize)> = None;
        let mut alpha = i32::MIN + 1;
        let mut bits = b.moves();
        while bits != 0 {
            let sq = bits.trailing_zeros() as usize;
            bits &= bits - 1;
            let v = -self.negamax(&b.play(sq), depth - 1, i32::MIN + 1, -alpha)?;
            if best.is_none_or(|(score, _)| v > score) {
                best = Some((v, sq));
            }
            alpha = alpha.max(v);
        }
        Ok(best.map_or(0, |(_, sq)| sq))
    }
}

impl Player for Weights {
    fn name(&self) -> String {
        format!("weights:{}", self.seconds)
    }

    fn supports(&self, n: usize) -> bool {
        n == 8
    }

    fn evaluate(&self, pos: &Position) -> Option<Evaluation> {
        match pos.board() {
            AnyBoard::Eight(b) => Some(Evaluation::Points(evaluate(&b))),
            _ => None,
        }
    }

    fn choose(&mut self, pos: &Position, limits: &Limits) -> Move {
        let AnyBoard::Eight(board) = pos.board() else {
            return super::First.choose(pos, &Limits::unlimited());
        };
        let moves = board.moves();
        if moves == 0 {
            return Move::Pass;
        }
        let own = Instant::now() + Duration::from_secs_f64(self.seconds.min(1e6));
        let deadline = limits.hard.map_or(own, |h| h.min(own));
        let mut searcher = Searcher {
            deadline,
            limits,
            nodes: 0,
        };
        // Depth 1 always finishes: a legal move at any time limit.
        let mut best = moves.trailing_zeros() as usize;
        let empties = board.empties().count_ones();
        for depth in 1..=empties.max(1) {
            match searcher.root(&board, depth) {
                Ok(sq) => best = sq,
                Err(Stopped) => break,
            }
            if Instant::now() >= deadline {
                break;
            }
        }
        Move::Place(Square::from_index(best, 8))
    }
}
