//! Training positions: each game replayed and solved from some empties on,
//! every earlier position taking the first solved score, and the file a
//! run keeps them in.

use super::TrainConfig;
use crate::rules::{AnyBoard, Bitboard, Color, Game, Move, parse_move, split_move_list};
use crate::search::{Limits, Solver, TranspositionTable};

/// One training position: the side to move's discs, the other side's, and
/// the exact final score for the side to move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Sample {
    pub player: u64,
    pub opponent: u64,
    pub target: i8,
}

/// Reads one game line (`YEAR MOVES RESULT`, or just moves) into the moves.
pub(super) fn parse_game(line: &str) -> Option<Vec<Move>> {
    let line = line.split('#').next()?.trim();
    let words: Vec<&str> = line.split_whitespace().collect();
    let moves = words
        .iter()
        .find(|w| w.len() >= 4 && w.as_bytes()[0].is_ascii_alphabetic())?;
    split_move_list(moves)
        .iter()
        .map(|m| parse_move(m, 8).ok())
        .collect()
}

/// The positions of one game with their targets. Every position with at
/// most `solve_empties` empty squares is solved exactly; each earlier one
/// takes the exact score of the first solved position of the line played.
pub(super) fn game_samples(
    moves: &[Move],
    solve_empties: u32,
    solver: &mut Solver,
) -> Option<Vec<Sample>> {
    let mut game = Game::new(8).expect("8x8");
    // Each position the side to move has a move in, with its mover.
    let mut seen: Vec<(Bitboard, Color)> = Vec::new();
    let mut record = |game: &Game| {
        let pos = game.position();
        if let AnyBoard::Eight(b) = pos.board()
            && !pos.is_game_over()
            && pos.has_moves(pos.to_move())
        {
            seen.push((b, pos.to_move()));
        }
    };
    record(&game);
    for &mv in moves {
        if game.position().is_game_over() {
            break;
        }
        game.play_next(mv).ok()?;
        record(&game);
    }
    let first_solved = seen
        .iter()
        .position(|(b, _)| crate::rules::Board::empties(b).count_ones() <= solve_empties)
        .unwrap_or(seen.len());
    let (before, solved) = seen.split_at(first_solved);
    let scores: Vec<i32> = solved
        .iter()
        .map(|(b, _)| solver.solve(b, -65, 65))
        .collect();
    // The earlier positions' target: the first solved score, or the final
    // one when the game ended before `solve_empties`.
    let (score, scored_mover) = match solved.first() {
        Some((_, mover)) => (scores[0], *mover),
        None => {
            let pos = game.position();
            let AnyBoard::Eight(last) = pos.board() else {
                return None;
            };
            if !pos.is_game_over() {
                // The record stops early (a resignation or a loss on
                // time): there is no exact score to learn from.
                return None;
            }
            (crate::rules::Board::final_score(&last), pos.to_move())
        }
    };
    let earlier = before.iter().map(|(b, mover)| {
        let target = if *mover == scored_mover {
            score
        } else {
            -score
        };
        sample(b, target)
    });
    let exact = solved
        .iter()
        .zip(scores)
        .map(|((b, _), target)| sample(b, target));
    Some(earlier.chain(exact).collect())
}

/// A training position with its target (discs, side to move).
fn sample(b: &Bitboard, target: i32) -> Sample {
    Sample {
        player: b.player,
        opponent: b.opponent,
        target: target as i8,
    }
}

impl Sample {
    /// Empty squares of the position.
    pub fn empties(&self) -> u32 {
        (!(self.player | self.opponent)).count_ones()
    }
}

/// Solves every game (on `threads` threads); returns the samples of each
/// game in input order. `tick` is called once per game.
pub fn collect(
    games: &[Vec<Move>],
    cfg: &TrainConfig,
    tick: &(dyn Fn() + Sync),
) -> Vec<Vec<Sample>> {
    let chunk = games.len().div_ceil(cfg.threads.max(1)).max(1);
    std::thread::scope(|scope| {
        let handles: Vec<_> = games
            .chunks(chunk)
            .map(|part| {
                scope.spawn(move || {
                    let tt = TranspositionTable::new(32);
                    let limits = Limits::unlimited();
                    part.iter()
                        .map(|moves| {
                            let mut solver = Solver::new(&tt, &limits);
                            let s = game_samples(moves, cfg.solve_empties, &mut solver)
                                .unwrap_or_default();
                            tick();
                            s
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        handles
            .into_iter()
            .flat_map(|h| h.join().expect("solver threads do not panic"))
            .collect()
    })
}

/// Writes solved games (so that fitting can be repeated without solving
/// again): per game a u32 count, then per position player, opponent (u64
/// little-endian) and target (i8).
pub fn save_samples(games: &[Vec<Sample>]) -> Vec<u8> {
    let mut out = Vec::new();
    for g in games {
        out.extend_from_slice(&(g.len() as u32).to_le_bytes());
        for s in g {
            out.extend_from_slice(&s.player.to_le_bytes());
            out.extend_from_slice(&s.opponent.to_le_bytes());
            out.push(s.target as u8);
        }
    }
    out
}

/// Bytes of one sample in [`save_samples`]' format.
const SAMPLE_BYTES: usize = 8 + 8 + 1;

/// Reads what [`save_samples`] wrote; a count past the end, or a sample
/// that cannot be (discs on both sides of a square, a score past 64), is
/// an error that says where.
pub fn load_samples(bytes: &[u8]) -> Result<Vec<Vec<Sample>>, String> {
    let mut games = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let at = i;
        let count = bytes
            .get(i..i + 4)
            .map(|b| u32::from_le_bytes(b.try_into().expect("4 bytes")) as usize)
            .filter(|&c| c <= (bytes.len() - i - 4) / SAMPLE_BYTES)
            .ok_or_else(|| format!("game {} at byte {at} runs past the end", games.len()))?;
        i += 4;
        let g: Vec<Sample> = bytes[i..i + count * SAMPLE_BYTES]
            .chunks_exact(SAMPLE_BYTES)
            .map(|b| Sample {
                player: u64::from_le_bytes(b[..8].try_into().expect("8 bytes")),
                opponent: u64::from_le_bytes(b[8..16].try_into().expect("8 bytes")),
                target: b[16] as i8,
            })
            .collect();
        if g.iter()
            .any(|s| s.player & s.opponent != 0 || s.target.unsigned_abs() > 64)
        {
            return Err(format!(
                "game {} at byte {at} holds a position that cannot be",
                games.len()
            ));
        }
        i += count * SAMPLE_BYTES;
        games.push(g);
    }
    Ok(games)
}

/// Reads the game lines of a file.
pub fn read_games(text: &str) -> Vec<Vec<Move>> {
    text.lines()
        .filter_map(parse_game)
        .filter(|g| !g.is_empty())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn game_lines_are_read_with_or_without_year_and_result() {
        let g = parse_game("1977 f5d6c3 34-30").unwrap();
        assert_eq!(g.len(), 3);
        assert_eq!(parse_game("f5d6").unwrap().len(), 2);
        assert!(parse_game("# comment").is_none());
    }

    #[test]
    fn samples_survive_the_cache_file() {
        let games = vec![
            vec![Sample {
                player: 1,
                opponent: 2,
                target: -7,
            }],
            vec![],
            vec![
                Sample {
                    player: u64::MAX,
                    opponent: 0,
                    target: 64
                };
                3
            ],
        ];
        let back = load_samples(&save_samples(&games)).unwrap();
        assert_eq!(back, games);
        assert!(load_samples(&[1, 0, 0, 0, 5]).is_err());
        // A count past the end is refused before anything is allocated.
        assert!(load_samples(&[0xff; 4]).is_err());
        let mut both = save_samples(&games);
        both[4] = 3;
        assert!(load_samples(&both).is_err(), "a square of both sides");
    }

    #[test]
    fn targets_follow_the_side_to_move() {
        // A full game from the WTHOR file: solve at 14 empties.
        let line = "1977 f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7f1b3b1b2h7a7a8a1g1g2h2h1 34-30";
        let moves = parse_game(line).unwrap();
        let tt = TranspositionTable::new(4);
        let limits = Limits::unlimited();
        let mut solver = Solver::new(&tt, &limits);
        let samples = game_samples(&moves, 14, &mut solver).unwrap();
        // One position for each of 60 to 1 empties, but for the two
        // passes (at 7 and 4 empties).
        assert_eq!(samples.len(), 58);
        // Consecutive positions alternate sides, and the positions before
        // 14 empties take the score solved there.
        assert_eq!(samples[0].target, -samples[1].target);
        assert_eq!(samples[45].target, -samples[46].target);
        assert_eq!(samples[46].target, 10);
        // Later positions have scores of their own: the move at 14 empties
        // was a mistake.
        assert_eq!(samples[47].target, -8);
        // The last move is forced: white's final 30-34.
        assert_eq!(samples[57].target, -4);
        assert!(samples.iter().all(|s| s.target.abs() <= 64));
    }
}
