//! The weight file: the magic `RVPAT01`, then phases, weights per phase
//! and scale (u32 little-endian), then the weights of every phase as
//! little-endian i16 in 1/SCALE discs. `reversi train` writes it; the
//! engine compiles in `data/eval.bin`.

use super::{Layout, MAX_EMPTIES, PHASES, PatternEval, SCALE, phase_mix};

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
}
