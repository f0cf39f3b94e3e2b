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

use super::eval::Evaluator;
use super::score::DISC;
use crate::rules::Bitboard;
use std::sync::OnceLock;

/// The shapes, as canonical masks (a1 = bit 0, row by row). Other sets of
/// the same cost, and larger ones, lowered the held-out error a little
/// and did not move the score against NTest
/// (docs/research/evaluation.md).
pub const SHAPES: [(&str, u64); 11] = [
    ("corner3x3", 0x0000_0000_0007_0707),
    ("corner2x5", 0x0000_0000_0000_1F1F),
    ("edge2x", 0x0000_0000_0000_42FF),
    ("row2", 0x0000_0000_0000_FF00),
    ("row3", 0x0000_0000_00FF_0000),
    ("row4", 0x0000_0000_FF00_0000),
    ("diag8", 0x8040_2010_0804_0201),
    ("diag7", 0x0080_4020_1008_0402),
    ("diag6", 0x0000_8040_2010_0804),
    ("diag5", 0x0000_0080_4020_1008),
    ("diag4", 0x0000_0000_8040_2010),
];

/// Number of game phases, each with its own weights: one for every four
/// empties, down to the end of the game (the solver's shallow searches and
/// its probcut read the evaluation near the end too). One for every two
/// empties did no better: each phase sees half the positions.
pub const PHASES: usize = 15;
/// Weights are stored in 1/SCALE discs.
pub const SCALE: i32 = 128;
/// Empty squares a position can have with a move still to play: the
/// evaluation keeps a table for each count from 0 to this.
const MAX_EMPTIES: u32 = 60;

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

fn flip_vertical(x: u64) -> u64 {
    x.swap_bytes()
}

fn mirror_horizontal(x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0F0F_0F0F_0F0F_0F0F;
    let x = ((x >> 1) & K1) | ((x & K1) << 1);
    let x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

fn transpose(mut x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0F0F_0F0F_0000_0000;
    let t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = K1 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// Symmetry `k` (0-7): vertical flip if bit 0, then horizontal mirror if
/// bit 1, then transpose if bit 2.
#[inline]
pub fn symmetry(mut x: u64, k: usize) -> u64 {
    if k & 1 != 0 {
        x = flip_vertical(x);
    }
    if k & 2 != 0 {
        x = mirror_horizontal(x);
    }
    if k & 4 != 0 {
        x = transpose(x);
    }
    x
}

/// The inverse of [`symmetry`] `k`.
fn inverse(mut x: u64, k: usize) -> u64 {
    if k & 4 != 0 {
        x = transpose(x);
    }
    if k & 2 != 0 {
        x = mirror_horizontal(x);
    }
    if k & 1 != 0 {
        x = flip_vertical(x);
    }
    x
}

#[inline]
fn pext(x: u64, mask: u64) -> u64 {
    #[cfg(target_feature = "bmi2")]
    {
        // SAFETY: the instruction exists on every CPU this build targets.
        unsafe { std::arch::x86_64::_pext_u64(x, mask) }
    }
    #[cfg(not(target_feature = "bmi2"))]
    {
        let (mut out, mut bit, mut m) = (0u64, 0, mask);
        while m != 0 {
            let low = m & m.wrapping_neg();
            if x & low != 0 {
                out |= 1 << bit;
            }
            bit += 1;
            m &= m - 1;
        }
        out
    }
}

/// For each configuration of a shape (base-3 index over its squares in bit
/// order), the smallest index among the configurations the shape's own
/// symmetries (those mapping its mask onto itself) turn it into.
fn canonical_indices(mask: u64) -> Vec<u32> {
    let squares: Vec<u64> = (0..64).filter(|b| mask & (1 << b) != 0).collect();
    let n = squares.len();
    // For each self-symmetry, where each square's content goes.
    let perms: Vec<Vec<usize>> = (0..8)
        .filter(|&k| symmetry(mask, k) == mask)
        .map(|k| {
            squares
                .iter()
                .map(|&sq| {
                    let to = symmetry(1 << sq, k).trailing_zeros() as u64;
                    squares
                        .iter()
                        .position(|&s| s == to)
                        .expect("mask maps onto itself")
                })
                .collect()
        })
        .collect();
    let size = 3usize.pow(n as u32);
    (0..size)
        .map(|index| {
            let digits: Vec<usize> = (0..n).map(|j| index / 3usize.pow(j as u32) % 3).collect();
            perms
                .iter()
                .map(|perm| {
                    let mut moved = vec![0; n];
                    for (j, &d) in digits.iter().enumerate() {
                        moved[perm[j]] = d;
                    }
                    moved
                        .iter()
                        .enumerate()
                        .map(|(j, &d)| d * 3usize.pow(j as u32))
                        .sum::<usize>()
                })
                .min()
                .unwrap_or(index) as u32
        })
        .collect()
}

/// One region: its squares on the board, which symmetry maps it onto its
/// shape, and where its shape's weights start.
#[derive(Clone, Copy, Debug)]
struct Region {
    squares: u64,
    symmetry: usize,
    offset: usize,
}

/// Squares of the largest shape: a region's bit patterns index tables of
/// `1 << MAX_SQUARES` entries.
const MAX_SQUARES: usize = 10;

/// Number of regions on the board.
pub const REGIONS: usize = 46;
/// Weight indices a position reads: one per region, then its scalar
/// terms ([`SCALARS`]).
pub const FEATURES: usize = REGIONS + SCALARS;
/// Scalar terms, each a weight per count: the side to move's legal moves,
/// the opponent's (as if it were to move), and each side's potential
/// mobility (the empty squares next to the other side's discs). The last
/// three paid in play only with ProbCut's table measured again for them.
pub const SCALARS: usize = 4;
/// Counts of potential mobility with a weight of their own (more count as
/// the last).
const POTENTIAL_SLOTS: usize = 40;
/// Weights of the scalar terms, in the order [`Layout::scalars`] reads them.
const SCALAR_WEIGHTS: usize = 2 * MOBILITY_SLOTS + 2 * POTENTIAL_SLOTS;
/// Counts of the side to move's legal moves with a weight of their own:
/// 0 to 31, more counting as 31. The midgame search generates a
/// position's moves before it evaluates it, so there the term costs one
/// more table read (the solver's move ordering generates them for it).
const MOBILITY_SLOTS: usize = 32;
/// [`REGIONS`] rounded up to whole vector registers.
const LANES: usize = 48;

/// Every region of the board and the size of one phase's weight table.
pub struct Layout {
    regions: Vec<Region>,
    /// Weights per phase: the regions' configurations, the scalar terms'
    /// counts, and last the phase's constant term.
    pub per_phase: usize,
    /// Where the scalar terms' weights start (the mover's mobility first).
    scalars_at: usize,
    /// For each region, the base-3 value (digits in its shape's square
    /// order) of each pattern of its squares' bits as read off the board:
    /// the board is read once per region, with no symmetry applied.
    ternary: Vec<[u16; 1 << MAX_SQUARES]>,
    /// For every configuration of every shape (by offset + index), the
    /// index of its canonical twin: configurations that a symmetry of the
    /// shape itself maps onto each other share one weight.
    canon: Vec<u32>,
    /// For each square, its digit's place value (a power of 3) in every
    /// region (0 in the regions it is not in): a disc that changes moves
    /// every region index by one vector addition.
    place: Vec<[u16; LANES]>,
    /// Where each region's shape's weights start (0 past the last region).
    offsets: [u32; LANES],
    /// For every weight index, that of the same configuration with the
    /// two sides' discs exchanged (the mobility and constant terms map
    /// to themselves).
    swap: Vec<u32>,
}

impl Layout {
    fn new() -> Layout {
        let mut regions = Vec::new();
        let mut offset = 0;
        for (_, mask) in SHAPES {
            let mut seen = Vec::new();
            for k in 0..8 {
                let squares = inverse(mask, k);
                if !seen.contains(&squares) {
                    seen.push(squares);
                    regions.push(Region {
                        squares,
                        symmetry: k,
                        offset,
                    });
                }
            }
            offset += 3usize.pow(mask.count_ones());
        }
        let mut ternary = vec![[0u16; 1 << MAX_SQUARES]; regions.len()];
        for (table, region) in ternary.iter_mut().zip(&regions) {
            let mask = symmetry(region.squares, region.symmetry);
            // The shape digit of each of the region's squares, lowest first.
            let digits: Vec<u32> = (0..64)
                .filter(|b| region.squares & (1 << b) != 0)
                .map(|b| {
                    let at = symmetry(1 << b, region.symmetry);
                    (mask & (at - 1)).count_ones()
                })
                .collect();
            for (bits, value) in table[..1 << digits.len()].iter_mut().enumerate() {
                *value = digits
                    .iter()
                    .enumerate()
                    .filter(|(i, _)| bits & (1 << i) != 0)
                    .map(|(_, &d)| 3u16.pow(d))
                    .sum();
            }
        }
        let mut place = vec![[0; LANES]; 64];
        for (sq, row) in place.iter_mut().enumerate() {
            for (r, region) in regions.iter().enumerate() {
                if region.squares & (1 << sq) != 0 {
                    let below = region.squares & ((1 << sq) - 1);
                    row[r] = ternary[r][1 << below.count_ones()];
                }
            }
        }
        assert_eq!(regions.len(), REGIONS);
        let mut offsets = [0; LANES];
        for (o, region) in offsets.iter_mut().zip(&regions) {
            *o = region.offset as u32;
        }
        let mut canon: Vec<u32> = Vec::with_capacity(offset);
        let mut swap: Vec<u32> = Vec::with_capacity(offset + SCALAR_WEIGHTS + 1);
        for (_, mask) in SHAPES {
            let start = canon.len() as u32;
            canon.extend(canonical_indices(mask).into_iter().map(|i| start + i));
            swap.extend(exchanged_indices(mask.count_ones()).map(|i| start + i));
        }
        swap.extend(offset as u32..(offset + SCALAR_WEIGHTS + 1) as u32);
        Layout {
            regions,
            per_phase: offset + SCALAR_WEIGHTS + 1,
            scalars_at: offset,
            ternary,
            canon,
            place,
            offsets,
            swap,
        }
    }

    /// The shared layout.
    pub fn get() -> &'static Layout {
        static LAYOUT: OnceLock<Layout> = OnceLock::new();
        LAYOUT.get_or_init(Layout::new)
    }

    /// Number of regions (46).
    pub fn regions(&self) -> usize {
        self.regions.len()
    }

    /// The weight index of every region of the position (player to
    /// move), then that of its mobility, within one phase's table
    /// ([`FEATURES`] in all).
    #[inline]
    pub fn features(&self, player: u64, opponent: u64, out: &mut [u32; FEATURES]) {
        let digits = self.digits(player, opponent);
        for ((f, &d), &o) in out.iter_mut().zip(&digits).zip(&self.offsets[..REGIONS]) {
            *f = self.canon[(o + d as u32) as usize];
        }
        let moves = Bitboard::moves_for(player, opponent);
        let scalars = self.scalars(player, opponent, moves);
        for (f, i) in out[REGIONS..].iter_mut().zip(scalars) {
            *f = i as u32;
        }
    }

    /// The weight indices of the scalar terms of the position of `player`
    /// (to move, with legal `moves`) against `opponent`.
    #[inline]
    fn scalars(&self, player: u64, opponent: u64, moves: u64) -> [usize; SCALARS] {
        let empty = !(player | opponent);
        let counts = [
            (moves.count_ones(), MOBILITY_SLOTS),
            (
                Bitboard::moves_for(opponent, player).count_ones(),
                MOBILITY_SLOTS,
            ),
            (
                (Bitboard::neighbours_of(opponent) & empty).count_ones(),
                POTENTIAL_SLOTS,
            ),
            (
                (Bitboard::neighbours_of(player) & empty).count_ones(),
                POTENTIAL_SLOTS,
            ),
        ];
        let mut at = self.scalars_at;
        counts.map(|(count, slots)| {
            let index = at + (count as usize).min(slots - 1);
            at += slots;
            index
        })
    }

    /// Every region's configuration (within its shape, before twin
    /// configurations are merged) with digit 1 for the discs of `one`, 2
    /// for those of `two`.
    #[inline]
    fn digits(&self, one: u64, two: u64) -> [u16; LANES] {
        const ALL: u64 = (1 << MAX_SQUARES) - 1;
        let mut digits = [0; LANES];
        for ((d, r), t) in digits.iter_mut().zip(&self.regions).zip(&self.ternary) {
            *d = t[(pext(one, r.squares) & ALL) as usize]
                + 2 * t[(pext(two, r.squares) & ALL) as usize];
        }
        digits
    }
}

/// For each configuration of a shape of `squares` squares (base-3 index),
/// the index of the configuration with digits 1 and 2 exchanged.
fn exchanged_indices(squares: u32) -> impl Iterator<Item = u32> {
    (0..3u32.pow(squares)).map(move |index| {
        (0..squares).fold(0, |out, j| {
            let place = 3u32.pow(j);
            let digit = index / place % 3;
            out + [0, 2, 1][digit as usize] * place
        })
    })
}

/// The trained evaluation, as one weight table for every count of empty
/// squares (0 to [`MAX_EMPTIES`]), each mixed from the trained phases by
/// [`phase_mix`] when the weights are read: the search then reads one
/// table per position, as it did with one table per phase. Each count has
/// a second table, its regions' configurations read with the two sides'
/// discs exchanged: a [`PatternState`] keeps its digits for the same side
/// whoever is to move, and reads this one when the other side is. Other
/// layouts (each configuration's weights side by side, one table for both
/// sides) and huge pages were slower or no faster.
pub struct PatternEval {
    weights: Vec<i16>,
    /// [`Layout::get`], kept at hand: the search reads it at every node.
    layout: &'static Layout,
}

/// The weight file compiled into the binary (`reversi train` writes it).
pub const BUILTIN_WEIGHTS: &[u8] = include_bytes!("../../data/eval.bin");

/// The file format: magic, phases, weights per phase, scale, then the
/// weights as little-endian i16.
const MAGIC: &[u8; 8] = b"RVPAT01\0";

impl PatternEval {
    /// Reads weights written by [`PatternEval::to_bytes`].
    pub fn from_bytes(bytes: &[u8]) -> Result<PatternEval, String> {
        let layout = Layout::get();
        let per_phase = layout.per_phase;
        let mut weights = PatternEval::stored_weights(bytes)?;
        // Every configuration gets its own copy of its twins' shared
        // weight, so that the evaluation reads one table, not two.
        for table in weights.chunks_exact_mut(per_phase) {
            for (i, &c) in layout.canon.iter().enumerate() {
                table[i] = table[c as usize];
            }
        }
        let phase_table = |ph: usize| &weights[ph * per_phase..(ph + 1) * per_phase];
        let mut mixed = Vec::with_capacity(2 * (MAX_EMPTIES as usize + 1) * per_phase);
        for empties in 0..=MAX_EMPTIES {
            let (first, share) = phase_mix(empties);
            let next = phase_table(first + 1);
            let start = mixed.len();
            mixed.extend(
                phase_table(first)
                    .iter()
                    .zip(next)
                    .map(|(&a, &b)| ((1.0 - share) * a as f32 + share * b as f32).round() as i16),
            );
            for &i in &layout.swap {
                mixed.push(mixed[start + i as usize]);
            }
        }
        Ok(PatternEval {
            weights: mixed,
            layout,
        })
    }

    /// The weights as a file.
    pub fn to_bytes(weights: &[i16]) -> Vec<u8> {
        let layout = Layout::get();
        let mut out = MAGIC.to_vec();
        for w in [PHASES as u32, layout.per_phase as u32, SCALE as u32] {
            out.extend_from_slice(&w.to_le_bytes());
        }
        for w in weights {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out
    }

    /// The weights of a file as [`PatternEval::to_bytes`] wrote them
    /// (phase by phase, in 1/SCALE discs), checked against this build's
    /// layout: a training run starts from them.
    pub fn stored_weights(bytes: &[u8]) -> Result<Vec<i16>, String> {
        let layout = Layout::get();
        let header = 8 + 12;
        if bytes.len() < header || &bytes[..8] != MAGIC {
            return Err("not a pattern weight file".into());
        }
        let word = |i: usize| {
            u32::from_le_bytes(bytes[8 + 4 * i..12 + 4 * i].try_into().expect("4 bytes"))
        };
        let (phases, per_phase, scale) = (word(0) as usize, word(1) as usize, word(2) as i32);
        if phases != PHASES || per_phase != layout.per_phase || scale != SCALE {
            return Err("pattern weight file does not match this build's layout".into());
        }
        let body = &bytes[header..];
        if body.len() != phases * per_phase * 2 {
            return Err("pattern weight file has the wrong length".into());
        }
        Ok(body
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]))
            .collect())
    }

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
        PatternState {
            digits: self.layout.digits(player, opponent),
            one_to_move: true,
        }
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
        let place = &self.layout.place;
        let mut digits = state.digits;
        let add = |digits: &mut [u16; LANES], row: &[u16; LANES], times: u16| {
            for (d, p) in digits.iter_mut().zip(row) {
                *d = d.wrapping_add(times.wrapping_mul(*p));
            }
        };
        // Side one's new disc is a 1, the other's a 2; a flipped disc goes
        // from the other digit to the mover's: down one for side one, up
        // one for the other.
        let (new, flipped) = if state.one_to_move {
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
            one_to_move: !state.one_to_move,
        }
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
        PatternState {
            one_to_move: !state.one_to_move,
            ..*state
        }
    }

    fn value(&self, state: &PatternState, board: &Bitboard, moves: u64) -> i32 {
        PatternEval::value(self, state, board.player, board.opponent, moves) * DISC / SCALE
    }

    fn probcut_error(&self, depth: i32, empties: u32) -> Option<(i32, i32)> {
        if depth < 1 {
            return None;
        }
        // Deeper than measured: the deepest row of the same parity.
        let last = PROBCUT_ERROR.len() as i32;
        let depth = if depth > last {
            last - ((depth - last) & 1)
        } else {
            depth
        };
        Some(PROBCUT_ERROR[(depth - 1) as usize][probcut_band(empties)])
    }
}

/// Bands of empty squares ProbCut's errors are measured in: 10 empties
/// each from [`PROBCUT_FIRST_BAND`] (fewer count in the first band, more in the
/// last).
pub const PROBCUT_BANDS: usize = 5;
pub const PROBCUT_FIRST_BAND: u32 = 10;

/// The band of a position with `empties` empty squares.
pub fn probcut_band(empties: u32) -> usize {
    ((empties.max(PROBCUT_FIRST_BAND) - PROBCUT_FIRST_BAND) / 10).min(PROBCUT_BANDS as u32 - 1)
        as usize
}

/// For each depth from 1 and each band of empties: the mean and standard
/// deviation (score units) of a search's score minus that of the shallow
/// ProbCut search, measured with ProbCut off by `xz -dc games.txt.xz | tail
/// -n 20000 | reversi probcut --games 4000 --per-game 2 --max-depth 10`
/// (the WTHOR games of `../shared/data/wthor/`), with the weights they
/// belong to: a new evaluation needs them measured again. Deeper searches
/// take the deepest row of their parity: measured rows for deeper searches
/// did not pay (docs/research/selectivity.md).
const PROBCUT_ERROR: [[(i32, i32); PROBCUT_BANDS]; 10] = [
    [(91, 405), (236, 341), (231, 290), (193, 232), (289, 296)],
    [(-22, 487), (5, 384), (1, 348), (-21, 252), (29, 205)],
    [(-14, 437), (-36, 343), (-23, 294), (1, 233), (-53, 185)],
    [(-30, 382), (11, 313), (0, 259), (-4, 203), (29, 153)],
    [(-26, 380), (-33, 296), (-10, 240), (-14, 189), (-35, 154)],
    [(-33, 522), (52, 398), (21, 328), (25, 243), (44, 175)],
    [(-53, 516), (-59, 375), (-19, 291), (-33, 222), (-60, 175)],
    [(11, 483), (59, 335), (38, 267), (52, 206), (28, 157)],
    [(-23, 448), (-39, 319), (-13, 258), (-37, 199), (-14, 143)],
    [(34, 533), (63, 381), (53, 293), (72, 222), (19, 168)],
];

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::{Board, SquareSet};
    use rand::{RngExt, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn symmetries_are_a_group_with_inverses() {
        let x = 0x0123_4567_89AB_CDEFu64;
        for k in 0..8 {
            assert_eq!(inverse(symmetry(x, k), k), x);
            assert_eq!(symmetry(x, k).count_ones(), x.count_ones());
        }
        // Transpose sends b1 (bit 1) to a2 (bit 8).
        assert_eq!(transpose(1 << 1), 1 << 8);
        assert_eq!(mirror_horizontal(1), 1 << 7);
        assert_eq!(flip_vertical(1), 1 << 56);
    }

    #[test]
    fn the_layout_has_46_regions() {
        let l = Layout::get();
        assert_eq!(l.regions(), 46);
        // Every square is read by some region.
        let covered = l.regions.iter().fold(0u64, |acc, r| acc | r.squares);
        assert_eq!(covered, u64::MAX);
        assert_eq!(l.ternary[0][0b101], 10);
    }

    #[test]
    fn features_match_reading_each_region_through_its_symmetry() {
        // The reference: turn the board so the region lands on its shape's
        // mask, then read the mask's squares in order as base-3 digits.
        let l = Layout::get();
        let mut rng = ChaCha8Rng::seed_from_u64(0x9E37_79B9_7F4A_7C15u64);
        for _ in 0..200 {
            let x: u64 = rng.random();
            let (p, o) = (x & 0x5A5A_3C3C_F00F_1248, !x & 0x24A5_C3C3_0FF0_8421);
            let mut got = [0u32; FEATURES];
            l.features(p, o, &mut got);
            // The scalar terms, counted square by square.
            let moves = |a: u64, b: u64| Bitboard::moves_for(a, b).count_ones() as usize;
            let next_to = |discs: u64| {
                (0..64)
                    .filter(|&sq| (p | o) & (1u64 << sq) == 0)
                    .filter(|&sq: &i32| {
                        (-1..=1).any(|dr: i32| {
                            (-1..=1).any(|dc: i32| {
                                let (r, c) = (sq / 8 + dr, sq % 8 + dc);
                                (0..8).contains(&r)
                                    && (0..8).contains(&c)
                                    && discs & (1u64 << (r * 8 + c)) != 0
                            })
                        })
                    })
                    .count()
            };
            let at = l.scalars_at;
            assert_eq!(got[REGIONS] as usize, at + moves(p, o).min(31));
            assert_eq!(got[REGIONS + 1] as usize, at + 32 + moves(o, p).min(31));
            assert_eq!(got[REGIONS + 2] as usize, at + 64 + next_to(o).min(39));
            assert_eq!(got[REGIONS + 3] as usize, at + 104 + next_to(p).min(39));
            for (r, region) in l.regions.iter().enumerate() {
                let (vp, vo) = (symmetry(p, region.symmetry), symmetry(o, region.symmetry));
                let mask = symmetry(region.squares, region.symmetry);
                let mut index = 0;
                for (j, b) in (0..64).filter(|b| mask & (1u64 << b) != 0).enumerate() {
                    let digit = if vp & (1 << b) != 0 {
                        1
                    } else if vo & (1 << b) != 0 {
                        2
                    } else {
                        0
                    };
                    index += digit * 3usize.pow(j as u32);
                }
                assert_eq!(got[r], l.canon[region.offset + index], "region {r}");
            }
        }
    }

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
