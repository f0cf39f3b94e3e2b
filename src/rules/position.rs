//! The safe layer over the fast boards: a [`Position`] knows absolute
//! colours and the side to move, works on every supported size through
//! [`AnyBoard`], and checks every move it is given.

use super::bitboard::Bitboard;
use super::board::Board;
use super::notation::{Color, Move, Square};
use super::set::SquareSet;
use super::wide::{WideBoard, is_supported_size, words_for};
use std::fmt;

/// A fast board of whichever type suits the size: the `u64` board for 8x8,
/// and for every other size the wide board on the fewest words of a few
/// widths (2 words up to 10x10, 4 up to 16x16, 7 up to 20x20, 11 up to
/// 26x26), so that each size pays for the words it uses and not much more,
/// while the search is compiled only five times. Generic code reaches the
/// inner board through [`with_board!`](crate::with_board).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum AnyBoard {
    Eight(Bitboard),
    Wide2(WideBoard<2>),
    Wide4(WideBoard<4>),
    Wide7(WideBoard<7>),
    Wide11(WideBoard<11>),
}

/// Runs `$body` with `$b` bound to the concrete board inside an
/// [`AnyBoard`], so that generic code is monomorphised once per board type.
/// The second form gives the 8x8 board its own body (for code that only
/// exists for it, such as the pattern evaluation).
#[macro_export]
macro_rules! with_board {
    ($any:expr, $b:ident => $body:expr) => {
        $crate::with_board!($any, $b => $body, $b => $body)
    };
    ($any:expr, $e:ident => $eight:expr, $b:ident => $body:expr) => {
        match $any {
            $crate::rules::AnyBoard::Eight($e) => $eight,
            $crate::rules::AnyBoard::Wide2($b) => $body,
            $crate::rules::AnyBoard::Wide4($b) => $body,
            $crate::rules::AnyBoard::Wide7($b) => $body,
            $crate::rules::AnyBoard::Wide11($b) => $body,
        }
    };
}

/// The same variant of [`AnyBoard`] around `$body`, with `$b` bound to the
/// board inside `$any`.
macro_rules! map_board {
    ($any:expr, $b:ident => $body:expr) => {
        match $any {
            AnyBoard::Eight($b) => AnyBoard::Eight($body),
            AnyBoard::Wide2($b) => AnyBoard::Wide2($body),
            AnyBoard::Wide4($b) => AnyBoard::Wide4($body),
            AnyBoard::Wide7($b) => AnyBoard::Wide7($body),
            AnyBoard::Wide11($b) => AnyBoard::Wide11($body),
        }
    };
}

impl AnyBoard {
    /// The board of side `n` with the given discs of the side to move
    /// (`player`) and of the other side, as row-major indices.
    fn from_indices(n: usize, player: &[usize], opponent: &[usize]) -> AnyBoard {
        fn build<B: Board>(n: usize, player: &[usize], opponent: &[usize]) -> B {
            let set = |v: &[usize]| v.iter().fold(B::Set::EMPTY, |s, &i| s.with(i));
            B::from_sets(n, set(player), set(opponent))
        }
        if n == 8 {
            return AnyBoard::Eight(build(n, player, opponent));
        }
        match words_for(n) {
            0..=2 => AnyBoard::Wide2(build(n, player, opponent)),
            3..=4 => AnyBoard::Wide4(build(n, player, opponent)),
            5..=7 => AnyBoard::Wide7(build(n, player, opponent)),
            _ => AnyBoard::Wide11(build(n, player, opponent)),
        }
    }

    /// Side length of the board.
    pub fn size(&self) -> usize {
        with_board!(self, b => b.size())
    }

    /// The same discs with the other side to move.
    pub fn pass(&self) -> AnyBoard {
        map_board!(self, b => b.pass())
    }
}

/// Why a position or move was refused. Every refusal leaves the position
/// as it was.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// The board size is not an even number from 4 to 26.
    UnsupportedSize(usize),
    /// The square is not on the board.
    OffBoard(Square),
    /// The square already holds a disc.
    Occupied(Square),
    /// A disc there would flip nothing.
    NoFlips(Square),
    /// It is the other colour's turn.
    NotYourTurn(Color),
    /// A pass while the side to move has a legal move.
    PassNotAllowed,
    /// Neither side can move.
    GameOver,
    /// Undo with no move played.
    NothingToUndo,
}

impl RulesError {
    /// The message, with squares named by `name` (a front end's own
    /// coordinates; [`fmt::Display`] uses the standard names).
    pub fn describe(&self, name: impl Fn(Square) -> String) -> String {
        match self {
            RulesError::UnsupportedSize(n) => {
                format!("unsupported board size {n} (even sizes 4 to 26)")
            }
            RulesError::OffBoard(sq) => format!("{} is off the board", name(*sq)),
            RulesError::Occupied(sq) => format!("illegal move: {} is occupied", name(*sq)),
            RulesError::NoFlips(sq) => format!("illegal move: {} flips no disc", name(*sq)),
            RulesError::NotYourTurn(c) => format!("illegal move: {c} is not to move"),
            RulesError::PassNotAllowed => "illegal move: pass while a move is legal".into(),
            RulesError::GameOver => "game over".into(),
            RulesError::NothingToUndo => "nothing to undo".into(),
        }
    }
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.describe(Square::standard))
    }
}

impl std::error::Error for RulesError {}

/// A position with absolute colours and a side to move, on any supported size.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Position {
    board: AnyBoard,
    to_move: Color,
}

impl Position {
    /// The start position on an n x n board: White on the two centre squares
    /// of the main diagonal, Black on the other two, Black to move.
    pub fn start(n: usize) -> Result<Position, RulesError> {
        let mut cells = vec![None; n * n];
        if is_supported_size(n) {
            let h = n / 2;
            cells[(h - 1) * n + h - 1] = Some(Color::White);
            cells[h * n + h] = Some(Color::White);
            cells[(h - 1) * n + h] = Some(Color::Black);
            cells[h * n + h - 1] = Some(Color::Black);
        }
        Position::from_cells(n, &cells, Color::Black)
    }

    /// A position from its cells in row-major order (any arrangement, legal
    /// or not) and the side to move.
    pub fn from_cells(
        n: usize,
        cells: &[Option<Color>],
        to_move: Color,
    ) -> Result<Position, RulesError> {
        if !is_supported_size(n) {
            return Err(RulesError::UnsupportedSize(n));
        }
        assert_eq!(cells.len(), n * n, "cells must cover the board");
        let of = |c: Color| -> Vec<usize> { (0..n * n).filter(|&i| cells[i] == Some(c)).collect() };
        Ok(Position {
            board: AnyBoard::from_indices(n, &of(to_move), &of(to_move.other())),
            to_move,
        })
    }

    /// A position around an existing fast board whose player is `to_move`.
    pub fn from_board(board: AnyBoard, to_move: Color) -> Position {
        Position { board, to_move }
    }

    /// The fast board, seen from the side to move.
    pub fn board(&self) -> AnyBoard {
        self.board
    }

    /// The same discs on a board of type `B` (any implementation that
    /// supports this size), seen from the side to move.
    pub fn board_as<B: Board>(&self) -> B {
        let me = Some(self.to_move);
        let them = Some(self.to_move.other());
        let (mut player, mut opponent) = (B::Set::EMPTY, B::Set::EMPTY);
        for (i, cell) in self.cells().into_iter().enumerate() {
            if cell == me {
                player = player.with(i);
            } else if cell == them {
                opponent = opponent.with(i);
            }
        }
        B::from_sets(self.size(), player, opponent)
    }

    /// Side length n.
    pub fn size(&self) -> usize {
        self.board.size()
    }

    /// The side to move.
    pub fn to_move(&self) -> Color {
        self.to_move
    }

    /// Every cell in row-major order.
    pub fn cells(&self) -> Vec<Option<Color>> {
        let n = self.size();
        (0..n * n)
            .map(|i| self.cell(Square::from_index(i, n)))
            .collect()
    }

    /// The disc on `sq`, if any (`None` also off the board).
    pub fn cell(&self, sq: Square) -> Option<Color> {
        let n = self.size();
        if !sq.on_board(n) {
            return None;
        }
        let i = sq.index(n);
        let (mine, theirs) =
            with_board!(self.board, b => (b.player().contains(i), b.opponent().contains(i)));
        if mine {
            Some(self.to_move)
        } else if theirs {
            Some(self.to_move.other())
        } else {
            None
        }
    }

    /// The same position with `sq` set to `disc` (no legality check: the
    /// labs' board configuration phase).
    pub fn with_cell(&self, sq: Square, disc: Option<Color>) -> Result<Position, RulesError> {
        let n = self.size();
        if !sq.on_board(n) {
            return Err(RulesError::OffBoard(sq));
        }
        let mut cells = self.cells();
        cells[sq.index(n)] = disc;
        Position::from_cells(n, &cells, self.to_move)
    }

    /// The same discs with `color` to move.
    pub fn with_side_to_move(&self, color: Color) -> Position {
        if color == self.to_move {
            *self
        } else {
            Position {
                board: self.board.pass(),
                to_move: color,
            }
        }
    }

    /// The board as seen by `color` (its discs as the player's).
    fn board_for(&self, color: Color) -> AnyBoard {
        self.with_side_to_move(color).board
    }

    /// Legal moves of `color` (whoever is to move), row by row, column by column.
    pub fn legal_moves(&self, color: Color) -> Vec<Square> {
        let n = self.size();
        with_board!(self.board_for(color), b => b.moves().iter().map(|i| Square::from_index(i, n)).collect())
    }

    /// Whether `color` has a legal move.
    pub fn has_moves(&self, color: Color) -> bool {
        with_board!(self.board_for(color), b => !b.moves().is_empty())
    }

    /// Discs `color` would flip by playing `sq`: why the move is legal, or
    /// the reason it is not.
    pub fn flips(&self, color: Color, sq: Square) -> Result<Vec<Square>, RulesError> {
        let n = self.size();
        if !sq.on_board(n) {
            return Err(RulesError::OffBoard(sq));
        }
        if self.cell(sq).is_some() {
            return Err(RulesError::Occupied(sq));
        }
        let i = sq.index(n);
        let flipped: Vec<Square> = with_board!(self.board_for(color), b => b.flips(i).iter().map(|j| Square::from_index(j, n)).collect());
        if flipped.is_empty() {
            Err(RulesError::NoFlips(sq))
        } else {
            Ok(flipped)
        }
    }

    /// The position after `color` places a disc on `sq` (legality checked),
    /// with the other colour to move, whoever was to move before.
    pub fn place(&self, color: Color, sq: Square) -> Result<Position, RulesError> {
        self.flips(color, sq)?;
        let i = sq.index(self.size());
        let board = map_board!(self.board_for(color), b => b.play(i));
        Ok(Position {
            board,
            to_move: color.other(),
        })
    }

    /// The position after the side to move plays `mv`, checked: a pass only
    /// when it has no legal move and the game is not over.
    pub fn play(&self, mv: Move) -> Result<Position, RulesError> {
        if self.is_game_over() {
            return Err(RulesError::GameOver);
        }
        match mv {
            Move::Place(sq) => self.place(self.to_move, sq),
            Move::Pass if self.has_moves(self.to_move) => Err(RulesError::PassNotAllowed),
            Move::Pass => Ok(self.with_side_to_move(self.to_move.other())),
        }
    }

    /// Whether the side to move has no move but the game goes on.
    pub fn must_pass(&self) -> bool {
        !self.has_moves(self.to_move) && self.has_moves(self.to_move.other())
    }

    /// Whether neither side can move (board full or blocked).
    pub fn is_game_over(&self) -> bool {
        with_board!(self.board, b => b.is_game_over())
    }

    /// Discs of `color` on the board.
    pub fn count(&self, color: Color) -> u32 {
        with_board!(self.board_for(color), b => b.player().count())
    }

    /// Number of empty squares.
    pub fn empties(&self) -> u32 {
        with_board!(self.board, b => b.empties().count())
    }

    /// Black's disc difference; once the game is over, with the empty
    /// squares given to the winner, as a finished game is scored.
    pub fn black_margin(&self) -> i32 {
        let diff = self.count(Color::Black) as i32 - self.count(Color::White) as i32;
        if self.is_game_over() {
            diff + diff.signum() * self.empties() as i32
        } else {
            diff
        }
    }

    /// The side with more discs, `None` for equal counts.
    pub fn leader(&self) -> Option<Color> {
        let (b, w) = (self.count(Color::Black), self.count(Color::White));
        match b.cmp(&w) {
            std::cmp::Ordering::Greater => Some(Color::Black),
            std::cmp::Ordering::Less => Some(Color::White),
            std::cmp::Ordering::Equal => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_matches_the_handouts_on_4x4() {
        let p = Position::start(4).unwrap();
        assert_eq!(p.cell(Square::new(1, 1)), Some(Color::White));
        assert_eq!(p.cell(Square::new(1, 2)), Some(Color::Black));
        assert_eq!(p.cell(Square::new(2, 1)), Some(Color::Black));
        assert_eq!(p.cell(Square::new(2, 2)), Some(Color::White));
        assert_eq!(p.to_move(), Color::Black);
    }

    #[test]
    fn unsupported_sizes_are_refused() {
        for n in [0, 2, 3, 7, 28, 100] {
            assert_eq!(Position::start(n), Err(RulesError::UnsupportedSize(n)));
        }
    }

    #[test]
    fn illegal_moves_name_the_reason() {
        let p = Position::start(8).unwrap();
        let d4 = Square::new(3, 3);
        let a1 = Square::new(0, 0);
        assert_eq!(p.place(Color::Black, d4), Err(RulesError::Occupied(d4)));
        assert_eq!(p.place(Color::Black, a1), Err(RulesError::NoFlips(a1)));
        assert_eq!(p.play(Move::Pass), Err(RulesError::PassNotAllowed));
        let off = Square::new(8, 0);
        assert_eq!(p.place(Color::Black, off), Err(RulesError::OffBoard(off)));
    }
}
