//! The command-line tools behind `reversi solve` and `reversi bench`:
//! measurements of the engine that print tables, kept out of `main.rs` so
//! that the binary only parses arguments.

pub mod solve;
