//! Sparring partners that behave like the course's Lab 8 Part 2 grading
//! opponents, on every board size.
//!
//! - `smarter`: score = discs flipped - 0.001 x the most discs the opponent
//!   could then flip with one move (0 if it must pass).
//! - `smartest`: play the move, then 10 more steps in each of which the
//!   side to move plays the greedy move (stopping at the end of the game);
//!   a side with no move passes within the step, and the other side plays
//!   in the same step, as the course library does, so a pass uses up no
//!   step. Score = the mover's disc difference plus 0.1 / (the opponent's
//!   number of legal moves then, 0 counted as 0.1), truncated toward zero.
//!
//! Both scan the legal moves in row-then-column order and keep the first
//! strict maximum. They take at most a few milliseconds (6 ms for
//! `smartest` on 26x26), and still look at their limits between two moves
//! so that a stop or a tight limit ends them at once.

use super::Player;
use super::greedy::greedy_index;
use crate::rules::{Board, Move, Position, Square, SquareSet};
use crate::search::Limits;
use crate::with_board;

/// The first strict maximum of `score` over the legal moves, row-major;
/// once `limits` say stop, the best of the moves scored so far.
fn first_best<B: Board, S: PartialOrd>(
    board: &B,
    limits: &Limits,
    score: impl Fn(usize) -> S,
) -> Option<usize> {
    let mut best: Option<(S, usize)> = None;
    for sq in board.moves().iter() {
        if best.is_some() && limits.must_stop() {
            break;
        }
        let s = score(sq);
        if best.as_ref().is_none_or(|(b, _)| s > *b) {
            best = Some((s, sq));
        }
    }
    best.map(|(_, sq)| sq)
}

/// The `smarter` move on a relative board.
pub fn smarter_index<B: Board>(board: &B, limits: &Limits) -> Option<usize> {
    first_best(board, limits, |sq| {
        let flips = board.flips(sq).count() as f64;
        let child = board.play(sq);
        let reply = child
            .moves()
            .iter()
            .map(|m| child.flips(m).count())
            .max()
            .unwrap_or(0);
        flips - 0.001 * reply as f64
    })
}

/// Steps of greedy play `smartest` looks ahead after each move (a pass
/// does not use one up).
const LOOKAHEAD: u32 = 10;

/// The `smartest` move on a relative board.
pub fn smartest_index<B: Board>(board: &B, limits: &Limits) -> Option<usize> {
    first_best(board, limits, |sq| {
        // `b` is seen from the side to move; `mover_to_move` says whether
        // that side is the one choosing the move now.
        let mut b = board.play(sq);
        let mut mover_to_move = false;
        for _ in 0..LOOKAHEAD {
            if b.is_game_over() {
                break;
            }
            let m = match greedy_index(&b) {
                Some(m) => m,
                None => {
                    b = b.pass();
                    mover_to_move = !mover_to_move;
                    greedy_index(&b).expect("the game is not over")
                }
            };
            b = b.play(m);
            mover_to_move = !mover_to_move;
        }
        let (mover, opponent) = if mover_to_move {
            (b, b.pass())
        } else {
            (b.pass(), b)
        };
        let diff = mover.disc_diff() as f64;
        let replies = opponent.moves().count() as f64;
        let replies = if replies == 0.0 { 0.1 } else { replies };
        (diff + 0.1 / replies).trunc() as i64
    })
}

/// The `smarter` grading opponent.
#[derive(Debug, Clone, Copy, Default)]
pub struct Smarter;

/// The `smartest` grading opponent.
#[derive(Debug, Clone, Copy, Default)]
pub struct Smartest;

fn to_move(index: Option<usize>, n: usize) -> Move {
    index.map_or(Move::Pass, |i| Move::Place(Square::from_index(i, n)))
}

impl Player for Smarter {
    fn name(&self) -> String {
        "smarter".into()
    }

    fn choose(&mut self, pos: &Position, limits: &Limits) -> Move {
        to_move(
            with_board!(pos.board(), b => smarter_index(&b, limits)),
            pos.size(),
        )
    }
}

impl Player for Smartest {
    fn name(&self) -> String {
        "smartest".into()
    }

    fn choose(&mut self, pos: &Position, limits: &Limits) -> Move {
        to_move(
            with_board!(pos.board(), b => smartest_index(&b, limits)),
            pos.size(),
        )
    }
}
