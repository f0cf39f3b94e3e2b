//! Static evaluation of a position from the side to move's view, in
//! hundredths of a disc ([`DISC`](super::DISC)), for any board size.
//!
//! The features are the classic ones of Othello programs: mobility and
//! potential mobility (frontier), corners and the X and C squares next to
//! empty corners, edges and (from 10x10 up) the edge discs anchored on a
//! corner, and late in the game discs and parity, each weighted by how
//! full the board is. The search only sees the [`Evaluator`] trait, so a
//! learned pattern evaluation can replace this one without touching it.

use crate::rules::{Board, SquareSet};
use crate::search::tunables::heuristic as weights;

/// A static evaluation function for boards of type `B`.
pub trait Evaluator<B: Board>: Send {
    /// What the evaluation reads of a position, carried along the search
    /// path: a child's is its parent's updated for the move
    /// ([`Evaluator::play`]), which for the pattern evaluation costs a few
    /// vector additions where reading the board costs 92 bit extractions.
    type State: Copy;

    /// The [`Evaluator::State`] of `board`, read off the board.
    fn state(&self, board: &B) -> Self::State;

    /// The state of `child`, the position after the move to `sq` on
    /// `board`, whose state is `state`.
    fn play(&self, state: &Self::State, board: &B, sq: usize, child: &B) -> Self::State;

    /// The state once the side to move of a position with `state` passes.
    fn pass(&self, state: &Self::State) -> Self::State;

    /// The value of `board` (whose state is `state`) for the side to move,
    /// given its legal moves.
    fn value(&self, state: &Self::State, board: &B, moves: B::Set) -> i32;

    /// The value of `board` for the side to move, given its legal moves.
    fn evaluate(&self, board: &B, moves: B::Set) -> i32 {
        self.value(&self.state(board), board, moves)
    }

    /// How a search of `depth` plies differs from one of
    /// [`probcut_depth`]`(depth)` plies on positions with `empties` empty
    /// squares: the mean and the standard deviation of deep minus shallow,
    /// in score units. `None` where it has not been measured, which turns
    /// ProbCut off.
    fn probcut_error(&self, _depth: i32, _empties: u32) -> Option<(i32, i32)> {
        None
    }
}

/// The depth of the shallow search that predicts a search of `depth`
/// plies in ProbCut: about a quarter of it, doubled, and of the same
/// parity (Othello evaluations swing between odd and even depths). One
/// or two plies are predicted by the evaluation alone: for one ply the
/// parity differs, and the measured mean error (up to 3.4 discs for the
/// side to move) makes up for it.
pub fn probcut_depth(depth: i32) -> i32 {
    if depth <= 2 {
        0
    } else {
        2 * (depth / 4) + (depth & 1)
    }
}

/// One corner with the squares whose value depends on it being empty.
#[derive(Clone, Copy, Debug)]
struct CornerZone<S> {
    corner: S,
    x_square: S,
    c_squares: S,
}

/// The hand-weighted evaluation for every size.
#[derive(Clone, Debug)]
pub struct Heuristic<S> {
    zones: [CornerZone<S>; 4],
    corners: S,
    edges: S,
    squares: i32,
    /// Weight of potential mobility (frontier discs).
    potential: i32,
    /// Weight of a disc at the start of the game; it grows towards the end.
    discs: i32,
    /// Disc count below which a side is penalised for wipe-out risk.
    few_discs: i32,
    /// Each edge twice, as squares walking away from one of its corners;
    /// none below 10x10, where [`Heuristic::anchored`] is not counted.
    edge_walks: Vec<Vec<usize>>,
}

impl<S: SquareSet> Heuristic<S> {
    /// The evaluation for boards of side `n`.
    pub fn new(n: usize) -> Heuristic<S> {
        let sq = |r: usize, c: usize| S::single(r * n + c);
        let last = n - 1;
        let zone = |r: usize, c: usize, dr: isize, dc: isize| {
            let step = |x: usize, d: isize| (x as isize + d) as usize;
            CornerZone {
                corner: sq(r, c),
                x_square: sq(step(r, dr), step(c, dc)),
                c_squares: sq(step(r, dr), c) | sq(r, step(c, dc)),
            }
        };
        // Each corner, with the directions into the board from it.
        let corner_steps = [
            (0, 0, 1, 1),
            (0, last, 1, -1),
            (last, 0, -1, 1),
            (last, last, -1, -1),
        ];
        let zones = corner_steps.map(|(r, c, dr, dc)| zone(r, c, dr, dc));
        let walk = |r: usize, c: usize, dr: isize, dc: isize| {
            (0..n as isize)
                .map(|i| (r as isize + i * dr) as usize * n + (c as isize + i * dc) as usize)
                .collect::<Vec<_>>()
        };
        let edge_walks = if n >= 10 {
            corner_steps
                .iter()
                .flat_map(|&(r, c, dr, dc)| [walk(r, c, dr, 0), walk(r, c, 0, dc)])
                .collect()
        } else {
            Vec::new()
        };
        let corners = zones.iter().fold(S::EMPTY, |s, z| s | z.corner);
        let c_squares = zones.iter().fold(S::EMPTY, |s, z| s | z.c_squares);
        let mut edges = S::EMPTY;
        for i in 0..n {
            edges |= sq(0, i) | sq(last, i) | sq(i, 0) | sq(i, last);
        }
        Heuristic {
            zones,
            corners,
            edges: edges & !corners & !c_squares,
            squares: (n * n) as i32,
            potential: weights::potential(n),
            discs: weights::early_disc(n),
            few_discs: weights::few_discs(n),
            edge_walks,
        }
    }

    /// Discs that no move can flip because they run unbroken along an edge
    /// from a corner of their colour, ours minus the opponent's (a corner
    /// counts once for each of its edges). On boards this large an edge is
    /// long, so a corner taken late can make a whole edge stable at once,
    /// a swing a shallow search does not see coming.
    fn anchored(&self, me: S, you: S) -> i32 {
        let mut anchored = 0;
        for walk in &self.edge_walks {
            let (owner, sign) = if me.contains(walk[0]) {
                (me, 1)
            } else if you.contains(walk[0]) {
                (you, -1)
            } else {
                continue;
            };
            anchored += sign * walk.iter().take_while(|&&sq| owner.contains(sq)).count() as i32;
        }
        anchored
    }
}

impl<B: Board> Evaluator<B> for Heuristic<B::Set> {
    /// Every term reads the whole board: there is nothing to carry.
    type State = ();

    fn state(&self, _board: &B) {}

    fn play(&self, _state: &(), _board: &B, _sq: usize, _child: &B) {}

    fn pass(&self, _state: &()) {}

    fn value(&self, _state: &(), board: &B, moves: B::Set) -> i32 {
        let (me, you) = (board.player(), board.opponent());
        let empty = board.empties();
        let empties = empty.count() as i32;
        // 0 at the start of the game, 1024 when the board is full.
        let progress = 1024 - empties * 1024 / self.squares;
        let count = |s: B::Set| s.count() as i32;

        let mobility = count(moves) - count(board.pass().moves());
        // The frontier costs two neighbour sets: skip it where its weight is 0.
        let potential = if self.potential == 0 {
            0
        } else {
            count(empty & board.neighbours(you)) - count(empty & board.neighbours(me))
        };
        let corners = count(me & self.corners) - count(you & self.corners);
        let edges = count(me & self.edges) - count(you & self.edges);
        let mut danger = 0;
        for z in &self.zones {
            if (empty & z.corner) != B::Set::EMPTY {
                danger +=
                    weights::X_SQUARE_DANGER * (count(you & z.x_square) - count(me & z.x_square));
                danger += count(you & z.c_squares) - count(me & z.c_squares);
            }
        }
        let anchored = self.anchored(me, you);
        let (my_discs, your_discs) = (count(me), count(you));
        let discs = my_discs - your_discs;

        let mut score = mobility * (weights::MOBILITY - progress * weights::MOBILITY_FADE / 1024)
            + potential * self.potential
            + corners * weights::CORNER
            + danger * weights::DANGER
            + edges * (weights::EDGE + progress * weights::EDGE_GROWTH / 1024)
            + anchored * weights::ANCHORED
            + discs * (progress * progress / (1024 * 1024 / weights::LATE_DISC) + self.discs);
        let few = |d: i32| (self.few_discs - d).max(0).pow(2);
        score += (few(your_discs) - few(my_discs)) * weights::WIPE_OUT;
        if progress > weights::PARITY_PROGRESS && empties % 2 == 1 {
            score += weights::PARITY;
        }
        score
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Bitboard, Position, WideBoard};

    #[test]
    fn the_start_position_is_balanced() {
        let b = Position::start(8).unwrap().board_as::<Bitboard>();
        let h = Heuristic::<u64>::new(8);
        assert_eq!(
            h.evaluate(&b, b.moves()),
            -h.evaluate(&b.pass(), b.pass().moves())
        );
    }

    #[test]
    fn edge_runs_from_an_owned_corner_are_anchored() {
        use crate::rules::WideSet;
        let n = 10;
        let h = Heuristic::<WideSet>::new(n);
        let set = |squares: &[(usize, usize)]| {
            squares
                .iter()
                .fold(WideSet::EMPTY, |s, &(r, c)| s | WideSet::single(r * n + c))
        };
        // Ours: a1-c1 along the top edge and a1-a2 down the left one (the
        // run stops at the gap at d1); theirs: the bottom-right corner
        // and one disc next to it. A run from an empty corner counts for
        // nobody.
        let me = set(&[(0, 0), (0, 1), (0, 2), (0, 4), (1, 0), (9, 1)]);
        let you = set(&[(9, 9), (9, 8), (9, 2)]);
        assert_eq!(h.anchored(me, you), (3 + 2) - (2 + 1));
        assert_eq!(h.anchored(you, me), -2);
    }

    #[test]
    fn a_corner_is_worth_more_than_an_x_square() {
        let n = 10;
        let h = Heuristic::<crate::rules::WideSet>::new(n);
        let base = Position::start(n).unwrap();
        let corner = base
            .with_cell(
                crate::rules::Square::new(0, 0),
                Some(crate::rules::Color::Black),
            )
            .unwrap()
            .board_as::<WideBoard>();
        let x = base
            .with_cell(
                crate::rules::Square::new(1, 1),
                Some(crate::rules::Color::Black),
            )
            .unwrap()
            .board_as::<WideBoard>();
        assert!(h.evaluate(&corner, corner.moves()) > h.evaluate(&x, x.moves()) + 300);
    }
}
