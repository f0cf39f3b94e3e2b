//! `reversi probcut`: measures how well a shallow search predicts a deep
//! one with the 8x8 pattern evaluation, the numbers behind ProbCut's
//! margins (`PatternEval::probcut_error`).
//!
//! Positions are taken from game records at random plies; each is searched
//! with ProbCut off, the table cleared before every search, to each depth
//! `d` and to `probcut_depth(d)`; the error of the prediction (deep minus
//! shallow, in discs) is summarised per depth and per band of empty
//! squares.

use crate::rules::{AnyBoard, Bitboard, Game, Move};
use crate::search::pattern::{PROBCUT_BANDS, PROBCUT_FIRST_BAND, PatternEval, probcut_band};
use crate::search::{DISC, Limits, Search, Solver, TranspositionTable, probcut_depth};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;
use std::ops::RangeInclusive;

/// One measurement: a position's empties, the deep depth, and both scores
/// (search units).
#[derive(Clone, Copy, Debug)]
pub struct Pair {
    pub empties: u32,
    pub depth: i32,
    pub shallow: i32,
    pub deep: i32,
}

/// Calls `visit` (empties, board) on `per_game` positions drawn at random
/// (with replacement) from each game's positions whose number of empties
/// lies in `empties` and whose side to move has a move; calls `progress`
/// after each game.
fn sample_positions(
    games: &[Vec<Move>],
    empties: RangeInclusive<u32>,
    per_game: usize,
    seed: u64,
    progress: &dyn Fn(),
    mut visit: impl FnMut(u32, &Bitboard),
) {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    for moves in games {
        let mut positions = Vec::new();
        let mut game = Game::new(8).expect("8x8");
        for &mv in moves {
            if game.play_next(mv).is_err() {
                break;
            }
            let pos = *game.position();
            if empties.contains(&pos.empties()) && pos.has_moves(pos.to_move()) {
                positions.push(pos);
            }
        }
        for _ in 0..per_game.min(positions.len()) {
            let pos = positions[rng.random_range(0..positions.len())];
            let AnyBoard::Eight(board) = pos.board() else {
                unreachable!("8x8 games")
            };
            visit(pos.empties(), &board);
        }
        progress();
    }
}

/// The value of `board` searched to `depth` with ProbCut off and a cleared
/// table, so that no measurement leans on another.
fn searched_value(tt: &mut TranspositionTable, board: &Bitboard, depth: i32) -> i32 {
    tt.clear();
    let limits = Limits::unlimited();
    let mut search = Search::new(8, tt, PatternEval::builtin(), &limits);
    search.set_probcut(None);
    search.value_at(board, depth).expect("no limit")
}

/// Searches `per_game` random positions of each game (from
/// [`PROBCUT_FIRST_BAND`] to 58 empties, the side to move with a move) at
/// every depth from 1 to `max_depth` (at most two short of the end);
/// calls `progress` after each game.
pub fn measure(
    games: &[Vec<Move>],
    max_depth: i32,
    per_game: usize,
    seed: u64,
    progress: &dyn Fn(),
) -> Vec<Pair> {
    let mut tt = TranspositionTable::new(16);
    let mut out = Vec::new();
    let range = PROBCUT_FIRST_BAND..=58;
    sample_positions(games, range, per_game, seed, progress, |empties, board| {
        for depth in 1..=max_depth.min(empties as i32 - 2) {
            out.push(Pair {
                empties,
                depth,
                shallow: searched_value(&mut tt, board, probcut_depth(depth)),
                deep: searched_value(&mut tt, board, depth),
            });
        }
    });
    out
}

/// Writes the count, mean and standard deviation of `errors` as a summary
/// table's cell (`-` for fewer than two) and returns the mean and the
/// standard deviation.
fn mean_sd(out: &mut String, errors: &[f64]) -> Option<(f64, f64)> {
    let n = errors.len() as f64;
    if n < 2.0 {
        let _ = write!(out, " {:>16}", "-");
        return None;
    }
    let mean = errors.iter().sum::<f64>() / n;
    let sd = (errors.iter().map(|e| (e - mean).powi(2)).sum::<f64>() / (n - 1.0)).sqrt();
    let _ = write!(out, " {:>5} {:+5.2}/{:<5.2}", errors.len(), mean, sd);
    Some((mean, sd))
}

/// Per depth and band: count, mean error and standard deviation (discs).
pub fn summary(pairs: &[Pair], max_depth: i32) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "depth shallow | error mean/sd (discs) per band of empties, from {PROBCUT_FIRST_BAND} by 10"
    );
    let mut table = Vec::new();
    for depth in 1..=max_depth {
        let _ = write!(out, "{depth:>5} {:>7} |", probcut_depth(depth));
        let mut row = Vec::new();
        for b in 0..PROBCUT_BANDS {
            let errors: Vec<f64> = pairs
                .iter()
                .filter(|p| p.depth == depth && probcut_band(p.empties) == b)
                .filter(|p| p.deep.abs() < DISC * 64 && p.shallow.abs() < DISC * 64)
                .map(|p| (p.deep - p.shallow) as f64 / DISC as f64)
                .collect();
            let units = |x: f64| (x * DISC as f64).round() as i32;
            row.push(match mean_sd(&mut out, &errors) {
                Some((mean, sd)) => (units(mean), units(sd)),
                None => (0, 0),
            });
        }
        let _ = writeln!(out);
        table.push(row);
    }
    let _ = writeln!(out, "(mean, sd) table (score units), depth 1 on:");
    for row in table {
        let _ = writeln!(out, "    {row:?},");
    }
    out
}

/// Bands of empty squares for the endgame measurement: 4 empties each from
/// [`ENDGAME_FIRST`].
pub const ENDGAME_FIRST: u32 = 12;
pub const ENDGAME_BANDS: usize = 3;
/// Deepest shallow search measured against the exact score.
pub const ENDGAME_MAX_DEPTH: i32 = 8;

/// One endgame measurement: a position's empties, its exact score
/// (discs) and the shallow searches' scores at depths 0 to
/// [`ENDGAME_MAX_DEPTH`] (score units).
#[derive(Clone, Debug)]
pub struct EndgamePair {
    pub empties: u32,
    pub exact: i32,
    pub shallow: Vec<i32>,
}

/// Like [`measure`], but the deep score is the exact one: positions with
/// [`ENDGAME_FIRST`] to `ENDGAME_FIRST + 4 * ENDGAME_BANDS - 1` empties are
/// solved and searched to each shallow depth: how far the evaluation is
/// from the truth where the solver orders by it.
pub fn measure_endgame(
    games: &[Vec<Move>],
    per_game: usize,
    seed: u64,
    progress: &dyn Fn(),
) -> Vec<EndgamePair> {
    let mut tt = TranspositionTable::new(16);
    let limits = Limits::unlimited();
    let mut out = Vec::new();
    let range = ENDGAME_FIRST..=ENDGAME_FIRST + 4 * ENDGAME_BANDS as u32 - 1;
    sample_positions(games, range, per_game, seed, progress, |empties, board| {
        tt.clear();
        let exact = Solver::new(&tt, &limits).solve(board, -65, 65);
        let shallow = (0..=ENDGAME_MAX_DEPTH)
            .map(|depth| searched_value(&mut tt, board, depth))
            .collect();
        out.push(EndgamePair {
            empties,
            exact,
            shallow,
        });
    });
    out
}

/// Per shallow depth and band of empties: count, mean error and standard
/// deviation (discs) of the exact score minus the shallow one. This is
/// how far the evaluation is from the truth where the solver orders its
/// moves by it, and the margin a selective endgame search would need.
pub fn endgame_summary(pairs: &[EndgamePair]) -> String {
    let mut out = String::new();
    let _ = writeln!(
        out,
        "shallow | exact minus shallow, mean/sd (discs) per band of empties, from {ENDGAME_FIRST} by 4"
    );
    for depth in 0..=ENDGAME_MAX_DEPTH {
        let _ = write!(out, "{depth:>7} |");
        for b in 0..ENDGAME_BANDS as u32 {
            let band = ENDGAME_FIRST + 4 * b..ENDGAME_FIRST + 4 * (b + 1);
            let errors: Vec<f64> = pairs
                .iter()
                .filter(|p| band.contains(&p.empties))
                .map(|p| (p.shallow[depth as usize], p.exact))
                .filter(|&(s, _)| s.abs() < DISC * 64)
                .map(|(s, e)| e as f64 - s as f64 / DISC as f64)
                .collect();
            mean_sd(&mut out, &errors);
        }
        let _ = writeln!(out);
    }
    out
}

/// Measures the margins on the games of `input` (at most `games` of
/// them, `per_game` positions each): a shallow search against a deep one
/// up to `max_depth`, or with `endgame` against exact scores; the table
/// goes to `out`, progress to stderr.
pub fn run(
    max_depth: i32,
    games: usize,
    per_game: usize,
    endgame: bool,
    input: impl std::io::Read,
    out: &mut dyn std::io::Write,
) -> Result<(), super::GamesError> {
    let games = super::read_games(input, Some(games))?;
    let bar = super::progress(
        games.len() as u64,
        "{bar:40} {pos}/{len} games measured, {elapsed} (eta {eta})",
    );
    let text = if endgame {
        endgame_summary(&measure_endgame(&games, per_game, 1, &|| bar.inc(1)))
    } else {
        summary(
            &measure(&games, max_depth, per_game, 1, &|| bar.inc(1)),
            max_depth,
        )
    };
    bar.finish_and_clear();
    write!(out, "{text}")?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn endgame_errors_are_exact_minus_shallow_per_band() {
        let pair = |empties, exact, shallow: i32| EndgamePair {
            empties,
            exact,
            shallow: vec![shallow * DISC; ENDGAME_MAX_DEPTH as usize + 1],
        };
        // Band 12-15: errors +2 and +4 (mean +3, sd 1.41); band 16-19:
        // one position only; a finished-game score is left out.
        let pairs = [
            pair(12, 10, 8),
            pair(15, -2, -6),
            pair(17, 0, 5),
            pair(13, 64, 1_000_000),
        ];
        let text = endgame_summary(&pairs);
        let first = text.lines().nth(1).unwrap();
        assert!(first.starts_with("      0 |"), "{text}");
        assert!(first.contains("    2 +3.00/1.41"), "{text}");
        assert_eq!(
            first.split_whitespace().filter(|w| *w == "-").count(),
            2,
            "{text}"
        );
        assert_eq!(text.lines().count(), ENDGAME_MAX_DEPTH as usize + 2);
    }
}
