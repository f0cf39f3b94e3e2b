//! A pattern evaluation for 8x8, the kind the strongest Othello programs
//! use (Logistello, Edax): the board is cut into 46 overlapping lines and
//! regions (edges with their X squares, corner blocks, rows, columns and
//! diagonals), each region's cells are read as a base-3 number (empty,
//! mine, yours), and a learned weight per configuration is summed with one
//! for each side's count of legal moves and of potential mobility (see
//! [`SCALARS`]); the weights of the two phases nearest the position's
//! count of empty squares are mixed ([`phase_mix`]).
//!
//! The weights come from `reversi train` on tournament games and on games
//! of the engine against itself (`scripts/train-eval.sh`) and are compiled
//! into the binary. Near the end a position's target is its exact score;
//! before that, a tournament position's is a 4-ply search's score, a
//! self-play position's its game's first exact score. What each choice
//! and data set was worth is in `docs/research/evaluation.md`.
//!
//! Symmetric regions share one table: every region is read through the
//! board symmetry that maps it onto its canonical mask, so one bit
//! extraction per region gives its index.
//!
//! Far from its data the evaluation is no guide: it has seen no position
//! where one side has a handful of discs against many, and values some of
//! them absurdly. The search keeps ProbCut away from them
//! ([`tunables::WIPE_OUT_DISCS`](super::tunables::WIPE_OUT_DISCS)).

mod file;
mod layout;
mod network;
mod probcut;

pub use layout::{FEATURES, Layout, REGIONS, SCALARS, SHAPES, symmetry};
pub use network::{BUILTIN_NETWORK, Network, NetworkError};
pub use probcut::{PROBCUT_BANDS, PROBCUT_FIRST_BAND, probcut_band};

use super::eval::Evaluator;
use super::score::DISC;
use crate::rules::Bitboard;
use layout::LANES;
use std::sync::OnceLock;

/// Which 8x8 evaluation a search uses: the pattern tables
/// ([`PatternEval`]) or the network over the same features ([`Network`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum EvalKind {
    #[default]
    Patterns,
    Network,
}

impl EvalKind {
    /// Its name, as `set eval` and `--eval` take it.
    pub fn name(self) -> &'static str {
        match self {
            EvalKind::Patterns => "patterns",
            EvalKind::Network => "network",
        }
    }

    /// The kind named `name` (`patterns` or `network`, any case).
    pub fn parse(name: &str) -> Option<EvalKind> {
        [EvalKind::Patterns, EvalKind::Network]
            .into_iter()
            .find(|k| k.name().eq_ignore_ascii_case(name))
    }
}

/// Number of game phases, each with its own weights: one for every four
/// empties, down to the end of the game (the solver's shallow searches and
/// its probcut read the evaluation near the end too). One for every two
/// empties did no better: each phase sees half the positions.
pub const PHASES: usize = 15;
/// Weights are stored in 1/SCALE discs.
pub const SCALE: i32 = 128;
/// Empty squares a position can have with a move still to play: the
/// evaluation keeps a table for each count from 0 to this.
pub(crate) const MAX_EMPTIES: u32 = 60;

/// The phase of a position with `empties` empty squares (4 empties each,
/// 56-59 first).
#[inline]
pub fn phase(empties: u32) -> usize {
    ((59 - empties.min(59)) / 4) as usize
}

/// The two phases whose weights value a position with `empties` empty
/// squares, and the share of the second: each phase stands for the middle
/// of its 4 empties, and a position between two middles takes the mix of
/// the two in proportion, so that the evaluation changes a little at every
/// empty square instead of jumping every fourth. Positions beyond the first
/// or last middle take that phase alone. Trained the same way, each
/// position's error shared by the two phases in proportion.
#[inline]
pub fn phase_mix(empties: u32) -> (usize, f32) {
    let middle = (57.5 - empties as f32) / 4.0;
    let t = middle.clamp(0.0, (PHASES - 1) as f32);
    let first = (t as usize).min(PHASES - 2);
    (first, t - first as f32)
}

/// The trained evaluation, as one weight table for every count of empty
/// squares (0 to [`MAX_EMPTIES`]), each mixed from the trained phases by
/// [`phase_mix`] when the weights are read: the search then reads one
/// table per position, as it did with one table per phase. Each count has
/// a second table, its regions' configurations read with the two sides'
/// discs exchanged: a [`PatternState`] keeps its digits for the same side
/// whoever is to move, and reads this one when the other side is. Other
/// layouts and huge pages were slower or no faster
/// (docs/research/evaluation.md).
pub struct PatternEval {
    weights: Vec<i16>,
    /// [`Layout::get`], kept at hand: the search reads it at every node.
    layout: &'static Layout,
}

/// The weight file compiled into the binary (`reversi train` writes it).
pub const BUILTIN_WEIGHTS: &[u8] = include_bytes!("../../../data/eval.bin");

impl PatternEval {
    /// The weights compiled into the binary.
    pub fn builtin() -> &'static PatternEval {
        static EVAL: OnceLock<PatternEval> = OnceLock::new();
        EVAL.get_or_init(|| {
            PatternEval::from_bytes(BUILTIN_WEIGHTS)
                .expect("the compiled-in weights match the layout")
        })
    }

    /// The value in 1/SCALE discs for the player to move.
    #[inline]
    pub fn raw(&self, player: u64, opponent: u64) -> i32 {
        let moves = Bitboard::moves_for(player, opponent);
        self.value(&self.state(player, opponent), player, opponent, moves)
    }

    /// The regions of the position of `player` (to move) against
    /// `opponent`, read off the board.
    #[inline]
    pub fn state(&self, player: u64, opponent: u64) -> PatternState {
        PatternState::read(self.layout, player, opponent)
    }

    /// The value in 1/SCALE discs, for the side to move, of the position
    /// of `player` (to move, with legal `moves`) against `opponent`, whose
    /// regions are `state`.
    #[inline]
    pub fn value(&self, state: &PatternState, player: u64, opponent: u64, moves: u64) -> i32 {
        let empties = (!(player | opponent)).count_ones();
        let layout = self.layout;
        let per_phase = layout.per_phase;
        let side = usize::from(!state.one_to_move);
        let base = (2 * empties.min(MAX_EMPTIES) as usize + side) * per_phase;
        let table = &self.weights[base..base + per_phase];
        let fixed = layout
            .scalars(player, opponent, moves)
            .iter()
            .fold(table[per_phase - 1] as i32, |sum, &i| sum + table[i] as i32);
        // Each region's weight index, computed for all lanes at once, and
        // one bounds check for all of them instead of one a read: the
        // reads are most of the search's time.
        let mut index = [0u32; LANES];
        for ((i, &d), &o) in index.iter_mut().zip(&state.digits).zip(&layout.offsets) {
            *i = o + u32::from(d);
        }
        let highest = index.iter().fold(0, |m, &i| m.max(i));
        assert!(
            (highest as usize) < per_phase,
            "a region index past its table"
        );
        index[..REGIONS].iter().fold(fixed, |sum, &i| {
            // SAFETY: every index is at most `highest`, checked above to
            // lie within `table`.
            sum + i32::from(unsafe { *table.get_unchecked(i as usize) })
        })
    }

    /// The regions of `state` after the side to move plays `sq`, flipping `flips`.
    #[inline]
    pub fn after_move(&self, state: &PatternState, sq: usize, flips: u64) -> PatternState {
        state.after_move(self.layout, sq, flips)
    }
}

/// The regions of a position as the search carries them down its path:
/// each child's are its parent's updated for the squares its move changes
/// (the new disc and the flipped ones), one vector addition each, instead
/// of read off the whole board again. The digits stay those of one side
/// ("one", digit 1, against 2 for the other), whoever is to move, so that
/// a move updates them by a fixed amount per square and a pass costs
/// nothing: the evaluation reads the table of whichever side is to move.
#[derive(Clone, Copy, Debug)]
pub struct PatternState {
    digits: [u16; LANES],
    one_to_move: bool,
}

impl PatternState {
    /// The regions of the position of `player` (to move) against
    /// `opponent`, read off the board.
    #[inline]
    fn read(layout: &Layout, player: u64, opponent: u64) -> PatternState {
        PatternState {
            digits: layout.digits(player, opponent),
            one_to_move: true,
        }
    }

    /// The regions after the side to move plays `sq`, flipping `flips`.
    #[inline]
    fn after_move(&self, layout: &Layout, sq: usize, flips: u64) -> PatternState {
        let place = &layout.place;
        let mut digits = self.digits;
        let add = |digits: &mut [u16; LANES], row: &[u16; LANES], times: u16| {
            for (d, p) in digits.iter_mut().zip(row) {
                *d = d.wrapping_add(times.wrapping_mul(*p));
            }
        };
        // Side one's new disc is a 1, the other's a 2; a flipped disc goes
        // from the other digit to the mover's: down one for side one, up
        // one for the other.
        let (new, flipped) = if self.one_to_move {
            (1, u16::MAX)
        } else {
            (2, 1)
        };
        add(&mut digits, &place[sq], new);
        let mut f = flips;
        while f != 0 {
            add(&mut digits, &place[f.trailing_zeros() as usize], flipped);
            f &= f - 1;
        }
        PatternState {
            digits,
            one_to_move: !self.one_to_move,
        }
    }

    /// The regions once the side to move passes.
    #[inline]
    fn passed(&self) -> PatternState {
        PatternState {
            one_to_move: !self.one_to_move,
            ..*self
        }
    }
}

impl Evaluator<Bitboard> for PatternEval {
    type State = PatternState;

    fn state(&self, board: &Bitboard) -> PatternState {
        PatternEval::state(self, board.player, board.opponent)
    }

    fn play(
        &self,
        state: &PatternState,
        board: &Bitboard,
        sq: usize,
        child: &Bitboard,
    ) -> PatternState {
        // The discs the move took from the child's side to move.
        self.after_move(state, sq, board.opponent & !child.player)
    }

    fn pass(&self, state: &PatternState) -> PatternState {
        state.passed()
    }

    fn value(&self, state: &PatternState, board: &Bitboard, moves: u64) -> i32 {
        PatternEval::value(self, state, board.player, board.opponent, moves) * DISC / SCALE
    }

    fn probcut_error(&self, depth: i32, empties: u32) -> Option<(i32, i32)> {
        probcut::error(depth, empties)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Board, SquareSet};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn a_state_carried_through_moves_and_passes_reads_as_the_board_does() {
        // Random games from the start, the state carried along them (the
        // search's door to it too), each position's value checked against
        // a reading of its board from scratch; passes swap the side to
        // move without a move.
        let eval = PatternEval::builtin();
        let mut rng = ChaCha8Rng::seed_from_u64(0x2545_F491_4F6C_DD1Du64);
        let (mut checked, mut passes) = (0, 0);
        for _ in 0..300 {
            let mut board = Bitboard {
                player: 0x0000_0008_1000_0000,
                opponent: 0x0000_0010_0800_0000,
            };
            let mut state = Evaluator::state(eval, &board);
            loop {
                let moves = board.moves();
                if moves == 0 {
                    if board.pass().moves() == 0 {
                        break;
                    }
                    board = board.pass();
                    state = Evaluator::pass(eval, &state);
                    passes += 1;
                    continue;
                }
                // Every move's child, as the frontier evaluates them.
                let mut m = moves;
                while m != 0 {
                    let sq = m.trailing_zeros() as usize;
                    m &= m - 1;
                    let child = board.play(sq);
                    let cs = Evaluator::play(eval, &state, &board, sq, &child);
                    assert_eq!(
                        Evaluator::value(eval, &cs, &child, child.moves()),
                        eval.evaluate(&child, child.moves())
                    );
                    checked += 1;
                }
                let (p, o) = (board.player, board.opponent);
                assert_eq!(
                    PatternEval::value(eval, &state, p, o, moves),
                    eval.raw(p, o)
                );
                let pick = moves.count_ones() as usize;
                let sq = moves.iter().nth(rng.random_range(0..pick)).unwrap();
                let child = board.play(sq);
                state = Evaluator::play(eval, &state, &board, sq, &child);
                board = child;
            }
        }
        assert!(checked > 10_000, "only {checked} moves");
        assert!(passes > 10, "only {passes} passes");
    }

    #[test]
    fn features_are_the_same_for_symmetric_positions() {
        let l = Layout::get();
        let (p, o) = (0x0000_0018_1C00_0000u64, 0x0000_2420_0000_0000u64);
        let mut a = [0u32; FEATURES];
        l.features(p, o, &mut a);
        a.sort();
        for k in 1..8 {
            let mut b = [0u32; FEATURES];
            l.features(symmetry(p, k), symmetry(o, k), &mut b);
            b.sort();
            assert_eq!(a, b, "symmetry {k}");
        }
    }
}
