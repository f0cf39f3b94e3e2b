//! Reversi (Othello) on every even board size from 4x4 to 26x26: the rules
//! core, the players and search, and the front ends of the `reversi`
//! binary (the engine daemon and the lab-program adapters).

// The documentation is for the people who work on the engine, read with
// `cargo doc --document-private-items`: public items may link to the
// private ones that explain them.
#![allow(rustdoc::private_intra_doc_links)]

pub mod analysis;
pub mod book;
pub mod engine;
pub mod lab;
pub mod openings;
pub mod players;
pub mod progress;
pub mod protocol;
pub mod referee;
pub mod rules;
pub mod sealed;
pub mod search;
pub mod shard;
pub mod tools;
