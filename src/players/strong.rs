//! The strong engine as a player: iterative-deepening PVS with a
//! transposition table that lives across moves (cleared for a new game),
//! the trained pattern evaluation and the exact solver on 8x8, the
//! hand-weighted evaluation on every other size.
//!
//! Where it stands against NTest, and what more time and threads are worth
//! there: `docs/research/strength.md`.

use super::{Analysis, Decision, Evaluation, MoveScore, Player, best_line};
use crate::rules::{Board, Move, Position, Square, SquareSet};
use crate::search::pattern::{EvalKind, Network, PatternEval};
use crate::search::tunables::MAP_SHARE;
use crate::search::{
    Endgame, Evaluator, Heuristic, Iteration, Limits, Search, TranspositionTable, proven_discs,
    score_text,
};
use crate::with_board;
use std::time::{Duration, Instant};

/// `body` with `e` the 8x8 evaluation `kind` names (each arm its own
/// monomorphised code).
macro_rules! with_eval {
    ($kind:expr, $e:ident => $body:expr) => {
        match $kind {
            EvalKind::Patterns => {
                let $e = PatternEval::builtin();
                $body
            }
            EvalKind::Network => {
                let $e = Network::builtin();
                $body
            }
        }
    };
}

/// Default transposition table size, in MB.
pub const DEFAULT_HASH_MB: usize = 64;
/// The largest table any front end accepts, in MB: a sixth of this
/// machine kind's memory, so that two engines and a match fit beside it.
pub const MAX_HASH_MB: usize = 4096;
/// The most search threads any front end accepts: far more than the
/// machines engines run on have cores, few enough that a typing error
/// does not start thousands of threads.
pub const MAX_THREADS: usize = 256;

/// The strong engine.
pub struct Strong {
    tt: TranspositionTable,
    /// Threads a search runs on (at least 1).
    threads: usize,
    /// The 8x8 evaluation.
    eval: EvalKind,
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
            tt: TranspositionTable::on_demand(hash_mb),
            threads: 1,
            eval: EvalKind::default(),
        }
    }

    /// Maps the whole table now (see [`TranspositionTable::commit`]).
    pub fn commit_table(&mut self) {
        self.tt.commit();
    }

    /// Maps more of the table for the search about to start: all of it
    /// without a time limit, else for at most a [`MAP_SHARE`]th of the time
    /// left, and never past a `stop`.
    fn map_table(&mut self, limits: &Limits) {
        let start = Instant::now();
        let until = limits
            .hard
            .map(|h| start + h.saturating_duration_since(start) / MAP_SHARE);
        self.tt
            .map_until(|| limits.stop.is_raised() || until.is_some_and(|u| Instant::now() >= u));
    }

    /// Searches `board` (side `n`) within `limits` with `eval`; the last
    /// finished iteration. With `all_exact`, every root move gets an exact
    /// score at each depth, not just the best one.
    fn search<B: Endgame + Sync, E: Evaluator<B> + Sync>(
        &mut self,
        board: B,
        n: usize,
        eval: &E,
        limits: &Limits,
        all_exact: bool,
        report: &mut dyn FnMut(&Iteration),
    ) -> Iteration {
        self.map_table(limits);
        let mut search = Search::new(n, &self.tt, eval, limits);
        search.set_all_exact(all_exact);
        search.run_parallel(&board, self.threads - 1, |it| {
            report(it);
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

    /// The last finished iteration of a search of `pos` within `limits`;
    /// `None` when the side to move has no legal move.
    pub fn search_position(&mut self, pos: &Position, limits: &Limits) -> Option<Iteration> {
        self.run(pos, limits, false, &mut |_| {})
    }

    fn run(
        &mut self,
        pos: &Position,
        limits: &Limits,
        all_exact: bool,
        report: &mut dyn FnMut(&Iteration),
    ) -> Option<Iteration> {
        if !pos.has_moves(pos.to_move()) {
            return None;
        }
        let n = pos.size();
        Some(with_board!(pos.board(),
            b => with_eval!(self.eval, e => self.search(b, n, e, limits, all_exact, report)),
            b => self.search(b, n, &Heuristic::new(n), limits, all_exact, report)))
    }
}

/// Every legal move of `board` with the static evaluation after it, for
/// the side to move.
fn one_ply<B: Board, E: Evaluator<B>>(board: &B, eval: &E) -> Vec<(usize, i32)> {
    board
        .moves()
        .iter()
        .map(|sq| {
            let child = board.play(sq);
            (sq, -eval.evaluate(&child, child.moves()))
        })
        .collect()
}

/// A score for people: discs for the side to move, `exact` when proven;
/// a final score that is not (a win/loss/draw bound, a selective solve's
/// guess, a midgame line to the end) says so.
pub fn describe(score: i32, exact: bool) -> String {
    match proven_discs(score) {
        Some(_) if exact => format!("{} (exact)", score_text(score, true)),
        Some(_) if score != 0 => format!("{} (final, not exact)", score_text(score, true)),
        _ => score_text(score, false),
    }
}

impl Player for Strong {
    fn name(&self) -> String {
        "strong".to_string()
    }

    fn choose(&mut self, pos: &Position, limits: &Limits) -> Move {
        self.decide(pos, limits).mv
    }

    fn decide(&mut self, pos: &Position, limits: &Limits) -> Decision {
        let n = pos.size();
        let moves: Vec<Square> = pos
            .legal_moves(pos.to_move())
            .into_iter()
            .filter(|sq| !limits.excluded.contains(&sq.index(n)))
            .collect();
        let only = |mv| Decision {
            mv,
            score: None,
            nodes: 0,
        };
        match moves.len() {
            0 => return only(Move::Pass),
            1 => return only(Move::Place(moves[0])),
            _ => {}
        }
        let it = self
            .search_position(pos, limits)
            .expect("the side to move has moves");
        log::info!(
            "strong: {} depth {} score {} nodes {} time {:.3}s",
            Square::from_index(it.best, n),
            it.depth,
            describe(it.score, it.exact),
            it.nodes,
            it.elapsed.as_secs_f64()
        );
        let mv = Move::Place(Square::from_index(it.best, n));
        Decision {
            mv,
            // Depth 0: stopped before the first iteration, no score.
            score: (it.depth > 0).then_some(MoveScore {
                mv,
                score: it.score,
                exact: it.exact,
                depth: it.depth,
            }),
            nodes: it.nodes,
        }
    }

    /// Every legal move with the best score known: the last finished
    /// iteration's, and for moves it did not score (a search stopped
    /// before its first iteration finished) the static evaluation after
    /// the move, at depth 1. `report` sees each finished iteration's
    /// analysis in the same form.
    fn analyse(
        &mut self,
        pos: &Position,
        limits: &Limits,
        report: &mut dyn FnMut(&Analysis),
    ) -> Option<Analysis> {
        let n = pos.size();
        let statics: Vec<MoveScore> = with_board!(pos.board(),
            b => with_eval!(self.eval, e => one_ply(&b, e)),
            b => one_ply(&b, &Heuristic::new(n)))
        .into_iter()
        .filter(|(sq, _)| !limits.excluded.contains(sq))
        .map(|(sq, score)| MoveScore {
            mv: Move::Place(Square::from_index(sq, n)),
            score,
            exact: false,
            depth: 1,
        })
        .collect();
        let analysis = |it: &Iteration| {
            let mut scores: Vec<MoveScore> = it
                .root_scores
                .iter()
                .map(|&(sq, score)| MoveScore {
                    mv: Move::Place(Square::from_index(sq, n)),
                    score,
                    exact: it.exact,
                    depth: it.depth,
                })
                .collect();
            let mut rest: Vec<MoveScore> = statics
                .iter()
                .filter(|m| scores.iter().all(|s| s.mv != m.mv))
                .copied()
                .collect();
            rest.sort_by_key(|m| -m.score);
            scores.extend(rest);
            Analysis {
                scores,
                nodes: it.nodes,
                elapsed: it.elapsed,
            }
        };
        let Some(it) = self.run(pos, limits, true, &mut |it| report(&analysis(it))) else {
            return Some(Analysis {
                scores: vec![MoveScore {
                    mv: Move::Pass,
                    score: 0,
                    exact: false,
                    depth: 0,
                }],
                nodes: 0,
                elapsed: Duration::ZERO,
            });
        };
        Some(analysis(&it))
    }

    /// `genmove`'s search: only the best move's score is proved, where
    /// [`Player::analyse`] proves every move's (several times as long on a
    /// solved position). A search with no score to give (a single legal
    /// move, or stopped before its first iteration) falls back to the
    /// whole analysis.
    fn analyse_best(&mut self, pos: &Position, limits: &Limits) -> Option<Analysis> {
        let start = Instant::now();
        let decision = self.decide(pos, limits);
        match decision.score {
            Some(best) => Some(Analysis {
                scores: vec![best],
                nodes: decision.nodes,
                elapsed: start.elapsed(),
            }),
            None => best_line(self.analyse(pos, limits, &mut |_| {})),
        }
    }

    fn evaluate(&self, pos: &Position) -> Option<Evaluation> {
        let n = pos.size();
        Some(Evaluation::Discs(with_board!(pos.board(),
            b => with_eval!(self.eval, e => e.evaluate(&b, b.moves())),
            b => Heuristic::new(n).evaluate(&b, b.moves()))))
    }

    /// Prepares for a new game: the table is cleared and the evaluation
    /// loaded, before the first move's clock runs. The table's pages are
    /// not written here: that took long enough to make a first move late
    /// when a GUI sends `clear_board` and `genmove` together; the searches
    /// map them, each within its clock ([`Strong::map_table`]).
    fn new_game(&mut self, _: Option<u64>) {
        self.tt.clear();
        PatternEval::builtin();
    }

    fn set_hash_mb(&mut self, megabytes: usize) {
        self.tt = TranspositionTable::on_demand(megabytes);
    }

    fn set_threads(&mut self, threads: usize) {
        self.threads = threads.clamp(1, MAX_THREADS);
    }

    /// Loads the network when it is chosen, here (off any move's clock)
    /// rather than in the first search that evaluates with it.
    fn set_eval(&mut self, eval: EvalKind) {
        self.eval = eval;
        if eval == EvalKind::Network {
            Network::builtin();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::to_table;

    #[test]
    fn scores_say_whether_they_are_exact() {
        assert_eq!(describe(to_table(6), true), "+6 (exact)");
        assert_eq!(describe(to_table(0), true), "+0 (exact)");
        assert_eq!(describe(to_table(-4), false), "-4 (final, not exact)");
        assert_eq!(describe(-150, false), "-1.50");
    }

    #[test]
    fn excluded_root_moves_are_never_played_nor_scored() {
        let mut game = crate::rules::Game::new(8).unwrap();
        for m in ["f5", "d6", "c3", "d3", "c4"] {
            game.play_next(crate::rules::parse_move(m, 8).unwrap())
                .unwrap();
        }
        let pos = *game.position();
        let legal = pos.legal_moves(pos.to_move());
        let mut strong = Strong::default();
        let limits = |excluded: Vec<usize>| Limits {
            depth: Some(4),
            excluded,
            ..Limits::unlimited()
        };
        let all = strong.analyse(&pos, &limits(vec![]), &mut |_| {}).unwrap();
        // Each move left out in turn: the best of the others, with the
        // score the whole analysis gives it.
        for left_out in &legal {
            let excluded = vec![left_out.index(8)];
            let d = strong.decide(&pos, &limits(excluded.clone()));
            assert_ne!(d.mv, Move::Place(*left_out));
            let rest = strong
                .analyse(&pos, &limits(excluded), &mut |_| {})
                .unwrap();
            assert_eq!(rest.scores.len(), legal.len() - 1);
            assert!(rest.scores.iter().all(|s| s.mv != Move::Place(*left_out)));
            let best = all.scores.iter().find(|s| s.mv != Move::Place(*left_out));
            assert_eq!(rest.scores[0].score, best.unwrap().score);
        }
    }
}
