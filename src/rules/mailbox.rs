//! A plain, obviously correct board: one cell per square, moves found by
//! walking the eight directions square by square. It is the reference the
//! fast boards are tested against, and the baseline perft speed is
//! measured against.

use super::board::Board;
use super::set::{SquareSet, WideSet};
use super::wide::is_supported_size;

/// The eight directions as (row step, column step).
const DIRECTIONS: [(i32, i32); 8] = [
    (-1, -1),
    (-1, 0),
    (-1, 1),
    (0, -1),
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
];

/// A cell: empty, the side to move's disc, or the other side's.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
enum Cell {
    Empty,
    Mine,
    Theirs,
}

/// An n x n board as an array of cells, seen from the side to move.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct MailboxBoard {
    n: usize,
    cells: [Cell; 26 * 26],
}

impl MailboxBoard {
    fn at(&self, r: i32, c: i32) -> Option<Cell> {
        let n = self.n as i32;
        (r >= 0 && r < n && c >= 0 && c < n).then(|| self.cells[(r * n + c) as usize])
    }

    /// The squares flipped in one direction by a disc at (row, col).
    fn flips_in(&self, row: i32, col: i32, dr: i32, dc: i32) -> Vec<usize> {
        let mut line = Vec::new();
        let (mut r, mut c) = (row + dr, col + dc);
        while self.at(r, c) == Some(Cell::Theirs) {
            line.push((r * self.n as i32 + c) as usize);
            r += dr;
            c += dc;
        }
        if self.at(r, c) == Some(Cell::Mine) {
            line
        } else {
            Vec::new()
        }
    }
}

impl Board for MailboxBoard {
    type Set = WideSet;

    fn from_sets(n: usize, player: WideSet, opponent: WideSet) -> Self {
        assert!(is_supported_size(n), "unsupported board size {n}");
        let mut cells = [Cell::Empty; 26 * 26];
        for (i, cell) in cells.iter_mut().enumerate().take(n * n) {
            if player.contains(i) {
                *cell = Cell::Mine;
            } else if opponent.contains(i) {
                *cell = Cell::Theirs;
            }
        }
        MailboxBoard { n, cells }
    }
    fn size(&self) -> usize {
        self.n
    }
    fn player(&self) -> WideSet {
        (0..self.n * self.n)
            .filter(|&i| self.cells[i] == Cell::Mine)
            .fold(WideSet::EMPTY, |s, i| s.with(i))
    }
    fn opponent(&self) -> WideSet {
        (0..self.n * self.n)
            .filter(|&i| self.cells[i] == Cell::Theirs)
            .fold(WideSet::EMPTY, |s, i| s.with(i))
    }
    fn all_squares(&self) -> WideSet {
        (0..self.n * self.n).fold(WideSet::EMPTY, |s, i| s.with(i))
    }
    fn moves(&self) -> WideSet {
        (0..self.n * self.n)
            .filter(|&i| self.cells[i] == Cell::Empty && !self.flips(i).is_empty())
            .fold(WideSet::EMPTY, |s, i| s.with(i))
    }
    fn flips(&self, sq: usize) -> WideSet {
        let (row, col) = ((sq / self.n) as i32, (sq % self.n) as i32);
        DIRECTIONS
            .iter()
            .flat_map(|&(dr, dc)| self.flips_in(row, col, dr, dc))
            .fold(WideSet::EMPTY, |s, i| s.with(i))
    }
    fn play(&self, sq: usize) -> Self {
        let mut next = *self;
        for i in self.flips(sq).iter() {
            next.cells[i] = Cell::Mine;
        }
        next.cells[sq] = Cell::Mine;
        for cell in next.cells.iter_mut().take(self.n * self.n) {
            *cell = match *cell {
                Cell::Mine => Cell::Theirs,
                Cell::Theirs => Cell::Mine,
                Cell::Empty => Cell::Empty,
            };
        }
        next
    }
    fn neighbours(&self, set: WideSet) -> WideSet {
        let n = self.n as i32;
        let mut out = WideSet::EMPTY;
        for sq in set.iter() {
            let (r, c) = ((sq / self.n) as i32, (sq % self.n) as i32);
            for (dr, dc) in DIRECTIONS {
                if self.at(r + dr, c + dc).is_some() {
                    out = out.with(((r + dr) * n + c + dc) as usize);
                }
            }
        }
        out & !set
    }

    fn hash_key(&self) -> u64 {
        use std::hash::{DefaultHasher, Hash, Hasher};
        let mut h = DefaultHasher::new();
        self.hash(&mut h);
        h.finish()
    }
}
