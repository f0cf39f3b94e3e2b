//! The strong engine as a player: iterative-deepening PVS with a
//! transposition table that lives across moves (cleared for a new game).

use super::Player;
use crate::rules::{AnyBoard, Move, Position, Square};
use crate::search::{
    DISC, Endgame, Heuristic, Iteration, Limits, Search, TranspositionTable, proven_discs,
};

/// Default transposition table size, in MB.
pub const DEFAULT_HASH_MB: usize = 64;

/// The strong engine.
pub struct Strong {
    tt: TranspositionTable,
}

impl Default for Strong {
    fn default() -> Self {
        Strong::new(DEFAULT_HASH_MB)
    }
}

impl Strong {
    /// The engine with a table of `hash_mb` MB.
    pub fn new(hash_mb: usize) -> Strong {
        Strong {
            tt: TranspositionTable::new(hash_mb),
        }
    }

    /// Searches `board` (side `n`) within `limits`; the last finished
    /// iteration.
    fn search<B: Endgame>(&mut self, board: B, n: usize, limits: &Limits) -> Iteration {
        let eval = Heuristic::<B::Set>::new(n);
        let mut search = Search::new(n, &mut self.tt, &eval, limits);
        search.run(&board, |it| {
            log::debug!(
                "depth {} move {} score {} nodes {} time {:.3}s",
                it.depth,
                Square::from_index(it.best, n),
                describe(it.score, it.exact),
                it.nodes,
                it.elapsed.as_secs_f64()
            )
        })
    }
}

/// A score for people: discs for the side to move, `exact` when proven.
fn describe(score: i32, exact: bool) -> String {
    match proven_discs(score) {
        Some(d) if exact || score != 0 => format!("{d:+} (exact)"),
        _ => format!("{:+.2}", score as f64 / DISC as f64),
    }
}

impl Player for Strong {
    fn name(&self) -> String {
        "strong".to_string()
    }

    fn choose(&mut self, pos: &Position, limits: &Limits) -> Move {
        let n = pos.size();
        let moves = pos.legal_moves(pos.to_move());
        match moves.len() {
            0 => return Move::Pass,
            1 => return Move::Place(moves[0]),
            _ => {}
        }
        let it = match pos.board() {
            AnyBoard::Eight(b) => self.search(b, n, limits),
            AnyBoard::Wide(b) => self.search(b, n, limits),
        };
        log::info!(
            "strong: {} depth {} score {} nodes {} time {:.3}s",
            Square::from_index(it.best, n),
            it.depth,
            describe(it.score, it.exact),
            it.nodes,
            it.elapsed.as_secs_f64()
        );
        Move::Place(Square::from_index(it.best, n))
    }

    fn new_game(&mut self) {
        self.tt.clear();
    }

    fn set_hash_mb(&mut self, megabytes: usize) {
        self.tt = TranspositionTable::new(megabytes);
    }
}
