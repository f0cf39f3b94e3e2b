//! The [`Board`] trait: the fast, unchecked, relative view of a position
//! (the side to move is "player", the other side "opponent") that move
//! generation, perft and the search are written against once and
//! monomorphised for each implementation.

use super::set::SquareSet;
use std::fmt::Debug;
use std::hash::Hash;

/// Direction steps (row, column): four towards higher bit indices, then
/// the same four towards lower ones, in the order of the 8x8 board's rays
/// and of its shifts.
pub(crate) const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, -1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// A position seen from the side to move. Implementations: [`super::Bitboard`]
/// (8x8 on two `u64`s) and [`super::WideBoard`] (every even size from 4 to 26).
///
/// Square indices are `row * n + col` with row 0 at the top. Methods taking a
/// square assume it is on the board; [`Board::play`] assumes the move is legal.
pub trait Board: Copy + Eq + Hash + Debug + Send + Sync + 'static {
    /// The bit set type holding squares of this board.
    type Set: SquareSet;

    /// Builds a board of side `n` from the discs of the side to move and of
    /// the other side. Panics if `n` is not a size this type supports.
    fn from_sets(n: usize, player: Self::Set, opponent: Self::Set) -> Self;
    /// Side length n of the n x n board.
    fn size(&self) -> usize;
    /// Discs of the side to move.
    fn player(&self) -> Self::Set;
    /// Discs of the side not to move.
    fn opponent(&self) -> Self::Set;
    /// Every square of the board.
    fn all_squares(&self) -> Self::Set;
    /// Legal moves of the side to move.
    fn moves(&self) -> Self::Set;
    /// Discs the side to move would flip by playing at `sq` (empty if the
    /// move is illegal, as long as `sq` is empty).
    fn flips(&self, sq: usize) -> Self::Set;
    /// The position after the side to move plays the legal move `sq`; the
    /// other side is then to move.
    fn play(&self, sq: usize) -> Self;
    /// A key for hash tables; equal boards give equal keys.
    fn hash_key(&self) -> u64;
    /// Squares of the board next to (in any of the eight directions) a
    /// square of `set`, excluding `set` itself: frontier and potential
    /// mobility for evaluation.
    fn neighbours(&self, set: Self::Set) -> Self::Set;

    /// The same discs with the other side to move.
    #[inline]
    fn pass(&self) -> Self {
        Self::from_sets(self.size(), self.opponent(), self.player())
    }
    /// Empty squares.
    #[inline]
    fn empties(&self) -> Self::Set {
        self.all_squares() & !(self.player() | self.opponent())
    }
    /// Whether neither side can move (which includes a full board).
    #[inline]
    fn is_game_over(&self) -> bool {
        self.moves().is_empty() && self.pass().moves().is_empty()
    }
    /// Player's discs minus opponent's discs.
    #[inline]
    fn disc_diff(&self) -> i32 {
        self.player().count() as i32 - self.opponent().count() as i32
    }
    /// The final score with the usual convention that empty squares go to
    /// the winner (as in the FFO suites and every Othello engine).
    #[inline]
    fn final_score(&self) -> i32 {
        let diff = self.disc_diff();
        let empties = self.empties().count() as i32;
        match diff.cmp(&0) {
            std::cmp::Ordering::Greater => diff + empties,
            std::cmp::Ordering::Less => diff - empties,
            std::cmp::Ordering::Equal => 0,
        }
    }
}
