//! A network evaluation for 8x8 over the pattern layout's features, as
//! NNUE engines and neural-reversi build theirs: each of a position's
//! feature indices (its 46 regions' configurations and its 4 scalar terms,
//! [`Layout::features`]) selects a learned vector of [`DIM`] numbers; the
//! vectors and a bias are summed (the accumulator), clipped to [0, 1], and
//! a fully connected layer of [`HIDDEN`] units (clipped to [0, 1]) and one
//! output give the score; each game phase ([`phase`], 4 empty squares) has
//! its own two layers.
//!
//! Everything is integer arithmetic, so that the vector code (AVX2, chosen
//! at run time) and the portable code give the same scores: the
//! accumulator and the hidden units in 1/[`QA`], the hidden layer's
//! weights in 1/[`QW`], the output layer's in 1/[`QO`] discs. The
//! accumulator is summed in 16 bits; the trainer warns when a sum of its
//! weights could wrap.
//!
//! `scripts/train-network.py` trains it with PyTorch and writes the
//! weight file, `data/network.bin`, compiled into the binary. Its format,
//! every number little-endian: the magic `RVNNET01`; u32 rows, [`DIM`],
//! [`HIDDEN`], [`PHASES`], [`QA`], [`QW`], [`QO`]; the embedding (rows x
//! DIM i16, one row per feature index); the bias (DIM i16); the hidden
//! layers' weights (PHASES x HIDDEN x DIM i16, each unit's row) and
//! biases (PHASES x HIDDEN i32, in 1/(QA*QW)); the output layers' weights
//! (PHASES x HIDDEN i16) and biases (PHASES i32, in 1/(QA*QO) discs); the
//! CRC-32 of everything before it.

use super::{FEATURES, Layout, PHASES, PatternState, REGIONS, phase, probcut};
use crate::rules::Bitboard;
use crate::search::eval::Evaluator;
use crate::search::score::DISC;
use std::sync::OnceLock;

/// Numbers in a feature's vector, and in the accumulator.
pub const DIM: usize = 32;
/// Units of the hidden layer.
pub const HIDDEN: usize = 32;
/// The accumulator's and the hidden units' scale: 1.0 is `QA`.
pub const QA: i32 = 256;
/// The hidden layer's weights' scale.
pub const QW: i32 = 256;
/// The output layer's weights' scale, per disc.
pub const QO: i32 = 64;

/// The network's file magic.
const MAGIC: &[u8; 8] = b"RVNNET01";

/// The weight file compiled into the binary (`scripts/train-network.py`
/// writes it).
pub const BUILTIN_NETWORK: &[u8] = include_bytes!("../../../data/network.bin");

/// One feature's vector, a cache line: a position reads 50 of them, from
/// all over a table of 10 MB.
#[derive(Clone, Copy)]
#[repr(C, align(64))]
struct Row([i16; DIM]);

/// One phase's layers after the accumulator.
struct Head {
    /// Each hidden unit's weights, DIM apiece.
    w1: [[i16; DIM]; HIDDEN],
    /// The same weights by pairs of inputs: for inputs 2p and 2p+1, each
    /// unit's two weights side by side, as the vector code multiplies
    /// them.
    pairs: [[i16; 2 * HIDDEN]; DIM / 2],
    b1: [i32; HIDDEN],
    w2: [i16; HIDDEN],
    b2: i32,
}

/// The network evaluation.
pub struct Network {
    /// One vector per feature index.
    embedding: Vec<Row>,
    bias: [i16; DIM],
    heads: Vec<Head>,
    /// For each region configuration as the search carries it (digit 1
    /// for side one), the embedding row when side one is to move, and
    /// when the other side is (the configuration with the sides'
    /// digits exchanged).
    rows: [Vec<u32>; 2],
    layout: &'static Layout,
    /// Whether this CPU runs the AVX2 code.
    avx2: bool,
}

/// Why a network file was refused.
#[derive(Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetworkError {
    #[error("not a network file (no RVNNET01 header)")]
    Magic,
    #[error("damaged network file ({0})")]
    Damaged(&'static str),
    #[error(
        "a network of {found} for this engine's {expected} (rows, dim, hidden, phases, scales): trained for another layout or engine"
    )]
    Shape { found: String, expected: String },
}

/// Reads little-endian numbers off the front of a byte slice.
struct Reader<'a>(&'a [u8]);

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Result<[u8; N], NetworkError> {
        if self.0.len() < N {
            return Err(NetworkError::Damaged("it ends early"));
        }
        let (head, rest) = self.0.split_at(N);
        self.0 = rest;
        Ok(head.try_into().expect("N bytes"))
    }
    fn u32(&mut self) -> Result<u32, NetworkError> {
        self.take().map(u32::from_le_bytes)
    }
    fn i32(&mut self) -> Result<i32, NetworkError> {
        self.take().map(i32::from_le_bytes)
    }
    fn i16(&mut self) -> Result<i16, NetworkError> {
        self.take().map(i16::from_le_bytes)
    }
    fn i16s<const N: usize>(&mut self) -> Result<[i16; N], NetworkError> {
        let mut out = [0; N];
        for v in &mut out {
            *v = self.i16()?;
        }
        Ok(out)
    }
}

impl Network {
    /// The network compiled into the binary.
    pub fn builtin() -> &'static Network {
        static NETWORK: OnceLock<Network> = OnceLock::new();
        NETWORK.get_or_init(|| {
            Network::from_bytes(BUILTIN_NETWORK)
                .expect("the compiled-in network matches the layout")
        })
    }

    /// Reads a network file, every size and the checksum checked.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetworkError> {
        if !bytes.starts_with(MAGIC) {
            return Err(NetworkError::Magic);
        }
        let Some(split) = bytes.len().checked_sub(4).filter(|&s| s >= MAGIC.len()) else {
            return Err(NetworkError::Damaged("it ends early"));
        };
        let (body, crc) = bytes.split_at(split);
        if crc32fast::hash(body).to_le_bytes() != crc {
            return Err(NetworkError::Damaged("its checksum fails"));
        }
        let layout = Layout::get();
        let mut r = Reader(&body[MAGIC.len()..]);
        let shape: Vec<u32> = (0..7).map(|_| r.u32()).collect::<Result<_, _>>()?;
        let expected = [
            (layout.per_phase - 1) as u32,
            DIM as u32,
            HIDDEN as u32,
            PHASES as u32,
            QA as u32,
            QW as u32,
            QO as u32,
        ];
        if shape != expected {
            return Err(NetworkError::Shape {
                found: format!("{shape:?}"),
                expected: format!("{expected:?}"),
            });
        }
        let embedding = (0..expected[0])
            .map(|_| r.i16s::<DIM>().map(Row))
            .collect::<Result<Vec<_>, _>>()?;
        let bias = r.i16s::<DIM>()?;
        let mut w1 = Vec::with_capacity(PHASES);
        for _ in 0..PHASES {
            let mut units = [[0; DIM]; HIDDEN];
            for u in &mut units {
                *u = r.i16s::<DIM>()?;
            }
            w1.push(units);
        }
        let mut b1 = vec![[0; HIDDEN]; PHASES];
        for b in b1.iter_mut().flatten() {
            *b = r.i32()?;
        }
        let mut w2 = Vec::with_capacity(PHASES);
        for _ in 0..PHASES {
            w2.push(r.i16s::<HIDDEN>()?);
        }
        let mut b2 = [0; PHASES];
        for b in &mut b2 {
            *b = r.i32()?;
        }
        if !r.0.is_empty() {
            return Err(NetworkError::Damaged("bytes past its end"));
        }
        let heads = (0..PHASES)
            .map(|p| Head {
                w1: w1[p],
                pairs: std::array::from_fn(|pair| {
                    std::array::from_fn(|k| w1[p][k / 2][2 * pair + k % 2])
                }),
                b1: b1[p],
                w2: w2[p],
                b2: b2[p],
            })
            .collect();
        let shapes = layout.scalars_at;
        let rows = [
            (0..shapes).map(|raw| layout.canon[raw]).collect(),
            (0..shapes)
                .map(|raw| layout.canon[layout.swap[raw] as usize])
                .collect(),
        ];
        Ok(Network {
            embedding,
            bias,
            heads,
            rows,
            layout,
            avx2: avx2_detected(),
        })
    }

    /// The value in discs times [`QA`] * [`QO`], for the side to move, of
    /// the position of `player` (to move, with legal `moves`) against
    /// `opponent`, whose regions are `state`.
    #[inline]
    pub fn raw_value(&self, state: &PatternState, player: u64, opponent: u64, moves: u64) -> i32 {
        let rows = self.feature_rows(state, player, opponent, moves);
        let empties = (!(player | opponent)).count_ones();
        let head = &self.heads[phase(empties)];
        #[cfg(target_arch = "x86_64")]
        if self.avx2 {
            // SAFETY: the CPU runs AVX2 (checked when the network was made).
            return unsafe { avx2::value(&self.embedding, &self.bias, &rows, head) };
        }
        portable::value(&self.embedding, &self.bias, &rows, head)
    }

    /// The value as the portable code computes it, whatever the CPU.
    #[cfg(test)]
    fn portable_value(&self, state: &PatternState, player: u64, opponent: u64, moves: u64) -> i32 {
        let rows = self.feature_rows(state, player, opponent, moves);
        let empties = (!(player | opponent)).count_ones();
        portable::value(
            &self.embedding,
            &self.bias,
            &rows,
            &self.heads[phase(empties)],
        )
    }

    /// The embedding rows of a position's features: its regions', read
    /// for the side to move, then its scalar terms'.
    #[inline]
    fn feature_rows(
        &self,
        state: &PatternState,
        player: u64,
        opponent: u64,
        moves: u64,
    ) -> [u32; FEATURES] {
        let table = &self.rows[usize::from(!state.one_to_move)];
        let mut out = [0u32; FEATURES];
        for ((o, &d), &at) in out
            .iter_mut()
            .zip(&state.digits[..REGIONS])
            .zip(&self.layout.offsets[..REGIONS])
        {
            *o = table[(at + u32::from(d)) as usize];
        }
        let scalars = self.layout.scalars(player, opponent, moves);
        for (o, s) in out[REGIONS..].iter_mut().zip(scalars) {
            *o = s as u32;
        }
        out
    }

    /// The state of a position read off the board, as the pattern
    /// evaluation reads it (the two share the regions' digits).
    #[inline]
    pub fn state(&self, player: u64, opponent: u64) -> PatternState {
        PatternState::read(self.layout, player, opponent)
    }
}

/// Whether this CPU has AVX2.
fn avx2_detected() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        std::arch::is_x86_feature_detected!("avx2")
    }
    #[cfg(not(target_arch = "x86_64"))]
    {
        false
    }
}

/// The network's arithmetic in plain Rust: the reference the vector code
/// must equal.
mod portable {
    use super::{DIM, HIDDEN, Head, QA, QW, Row};

    pub(super) fn value(embedding: &[Row], bias: &[i16; DIM], rows: &[u32], head: &Head) -> i32 {
        let mut acc = *bias;
        for &r in rows {
            for (a, &e) in acc.iter_mut().zip(&embedding[r as usize].0) {
                *a = a.wrapping_add(e);
            }
        }
        let x = acc.map(|a| i32::from(a).clamp(0, QA));
        let mut out = head.b2;
        for h in 0..HIDDEN {
            let dot = head.w1[h]
                .iter()
                .zip(&x)
                .fold(head.b1[h], |s, (&w, &x)| s + i32::from(w) * x);
            // Floor division, as the trainer's.
            let unit = (dot >> QW.trailing_zeros()).clamp(0, QA);
            out += unit * i32::from(head.w2[h]);
        }
        out
    }
}

/// The same arithmetic with AVX2: the accumulator in two registers of 16
/// lanes, the hidden layer by pairs of products (`madd`).
#[cfg(target_arch = "x86_64")]
mod avx2 {
    use super::{DIM, HIDDEN, Head, QA, QW, Row};
    use std::arch::x86_64::*;

    #[target_feature(enable = "avx2")]
    pub(super) unsafe fn value(
        embedding: &[Row],
        bias: &[i16; DIM],
        rows: &[u32],
        head: &Head,
    ) -> i32 {
        // SAFETY (every load and store below): each pointer is to a
        // [i16; 32] or [i16; HIDDEN] array of at least 32 bytes past the
        // offset read, and unaligned loads are used.
        unsafe {
            let p = bias.as_ptr() as *const __m256i;
            let (mut lo, mut hi) = (_mm256_loadu_si256(p), _mm256_loadu_si256(p.add(1)));
            for &r in rows {
                let e = embedding[r as usize].0.as_ptr() as *const __m256i;
                lo = _mm256_add_epi16(lo, _mm256_loadu_si256(e));
                hi = _mm256_add_epi16(hi, _mm256_loadu_si256(e.add(1)));
            }
            let (zero, top) = (_mm256_setzero_si256(), _mm256_set1_epi16(QA as i16));
            let x_lo = _mm256_min_epi16(_mm256_max_epi16(lo, zero), top);
            let x_hi = _mm256_min_epi16(_mm256_max_epi16(hi, zero), top);
            // Each pair of inputs, broadcast, times every unit's two
            // weights: 8 units a register, no horizontal sums.
            let mut inputs = [0i16; DIM];
            _mm256_storeu_si256(inputs.as_mut_ptr() as *mut __m256i, x_lo);
            _mm256_storeu_si256(inputs.as_mut_ptr().add(16) as *mut __m256i, x_hi);
            let b = head.b1.as_ptr() as *const __m256i;
            let mut sums: [__m256i; HIDDEN / 8] =
                std::array::from_fn(|k| _mm256_loadu_si256(b.add(k)));
            for (pair, w) in head.pairs.iter().enumerate() {
                let two =
                    (inputs[2 * pair] as u16 as u32) | ((inputs[2 * pair + 1] as u16 as u32) << 16);
                let x = _mm256_set1_epi32(two as i32);
                let w = w.as_ptr() as *const __m256i;
                for (k, s) in sums.iter_mut().enumerate() {
                    *s = _mm256_add_epi32(*s, _mm256_madd_epi16(x, _mm256_loadu_si256(w.add(k))));
                }
            }
            let mut dots = [0i32; HIDDEN];
            for (k, s) in sums.iter().enumerate() {
                _mm256_storeu_si256(dots.as_mut_ptr().add(8 * k) as *mut __m256i, *s);
            }
            let mut out = head.b2;
            for (d, &w) in dots.iter().zip(&head.w2) {
                out += (d >> QW.trailing_zeros()).clamp(0, QA) * i32::from(w);
            }
            out
        }
    }
}

impl Evaluator<Bitboard> for Network {
    type State = PatternState;

    fn state(&self, board: &Bitboard) -> PatternState {
        Network::state(self, board.player, board.opponent)
    }

    fn play(
        &self,
        state: &PatternState,
        board: &Bitboard,
        sq: usize,
        child: &Bitboard,
    ) -> PatternState {
        state.after_move(self.layout, sq, board.opponent & !child.player)
    }

    fn pass(&self, state: &PatternState) -> PatternState {
        state.passed()
    }

    fn value(&self, state: &PatternState, board: &Bitboard, moves: u64) -> i32 {
        let raw = self.raw_value(state, board.player, board.opponent, moves);
        // Rounded to the nearest score unit.
        (raw * DISC + QA * QO / 2).div_euclid(QA * QO)
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

    /// Random games' positions, each with its state carried along.
    fn positions(games: usize, seed: u64) -> Vec<(Bitboard, PatternState)> {
        let net = Network::builtin();
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        for _ in 0..games {
            let mut board = Bitboard {
                player: 0x0000_0008_1000_0000,
                opponent: 0x0000_0010_0800_0000,
            };
            let mut state = Evaluator::state(net, &board);
            loop {
                let moves = board.moves();
                if moves == 0 {
                    if board.pass().moves() == 0 {
                        break;
                    }
                    board = board.pass();
                    state = Evaluator::pass(net, &state);
                    continue;
                }
                out.push((board, state));
                let pick = rng.random_range(0..moves.count_ones() as usize);
                let sq = moves.iter().nth(pick).unwrap();
                let child = board.play(sq);
                state = Evaluator::play(net, &state, &board, sq, &child);
                board = child;
            }
        }
        out
    }

    #[test]
    fn a_carried_state_reads_as_the_board_does_and_the_vector_code_as_the_portable() {
        let net = Network::builtin();
        for (board, state) in positions(200, 7) {
            let moves = board.moves();
            let fresh = Network::state(net, board.player, board.opponent);
            let v = net.raw_value(&state, board.player, board.opponent, moves);
            assert_eq!(
                v,
                net.raw_value(&fresh, board.player, board.opponent, moves)
            );
            assert_eq!(
                v,
                net.portable_value(&state, board.player, board.opponent, moves)
            );
        }
    }

    #[test]
    fn the_engine_gives_the_trainers_scores() {
        // Positions the trainer held out, with its float scores and its
        // own integer arithmetic's (scripts/train-network.py --fixture).
        let net = Network::builtin();
        let text = include_str!("../../../tests/data/network-fixture.txt");
        let mut checked = 0;
        for line in text.lines().filter(|l| !l.starts_with('#')) {
            let f: Vec<&str> = line.split_whitespace().collect();
            let player = u64::from_str_radix(f[0], 16).unwrap();
            let opponent = u64::from_str_radix(f[1], 16).unwrap();
            let (float, integer): (f64, f64) = (f[2].parse().unwrap(), f[3].parse().unwrap());
            let moves = Bitboard::moves_for(player, opponent);
            let raw = net.raw_value(&net.state(player, opponent), player, opponent, moves);
            let discs = f64::from(raw) / f64::from(QA * QO);
            assert!(
                (discs - integer).abs() < 1e-3,
                "{line}: the engine says {discs}"
            );
            assert!(
                (discs - float).abs() < 1.5,
                "{line}: the engine says {discs}"
            );
            checked += 1;
        }
        assert!(checked >= 100, "only {checked} positions");
    }

    #[test]
    fn a_damaged_or_foreign_file_is_refused() {
        let good = BUILTIN_NETWORK;
        assert!(Network::from_bytes(good).is_ok());
        let mut flipped = good.to_vec();
        flipped[5000] ^= 1;
        assert_eq!(
            Network::from_bytes(&flipped).err(),
            Some(NetworkError::Damaged("its checksum fails"))
        );
        assert_eq!(
            Network::from_bytes(&good[..good.len() - 9]).err(),
            Some(NetworkError::Damaged("its checksum fails"))
        );
        assert_eq!(
            Network::from_bytes(b"RVPAT01\0").err(),
            Some(NetworkError::Magic)
        );
        // Another shape, sealed right: refused for its shape.
        let mut other = good[..good.len() - 4].to_vec();
        other[12..16].copy_from_slice(&64u32.to_le_bytes());
        let crc = crc32fast::hash(&other);
        other.extend_from_slice(&crc.to_le_bytes());
        assert!(matches!(
            Network::from_bytes(&other),
            Err(NetworkError::Shape { .. })
        ));
    }
}
