//! The rules of n x n Reversi (n even, 4 to 26): bit sets, the fast
//! relative boards the search uses, the checked game layer the front ends
//! use, move notation and perft. Knows nothing of protocols or search.

mod bitboard;
mod board;
pub mod comp;
mod game;
pub mod ggf;
mod mailbox;
mod notation;
pub mod obf;
pub mod perft;
mod position;
mod set;
mod wide;

pub use bitboard::Bitboard;
pub use board::Board;
pub use game::Game;
pub use mailbox::MailboxBoard;
pub use notation::{
    Color, Move, NotationError, Square, parse_lab_square, parse_move, parse_square, printable,
    split_move_list, text_lines,
};
pub use position::{AnyBoard, Position, RulesError};
pub use set::{SetIter, SquareSet, WORDS, WideSet};
pub use wide::{MAX_SIZE, MIN_SIZE, WideBoard, is_supported_size};
