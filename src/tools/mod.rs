//! The command-line tools behind `reversi solve`, `file-move` and others:
//! measurements of the engine that print tables, kept out of `main.rs` so
//! that the binary only parses arguments.

pub mod bench;
pub mod file_move;
pub mod probcut;
pub mod solve;
pub mod train;
