//! `reversi train --export`: the labelled training positions, with the
//! pattern layout's feature indices, in a file that a training library
//! reads directly (`scripts/train-network.py` maps it into numpy).
//!
//! The file is sealed ([`sealed::seal`]): the magic `RVNNDAT1`, then
//! - u32 features per position ([`FEATURES`]: the regions, then the scalar
//!   terms), u32 rows (the number of distinct feature indices: every index
//!   is below it);
//! - u64 positions, u64 held out (the last ones, from the held-out games);
//! - each position, packed: player and opponent (u64, the side to move's
//!   discs first), target (i8, discs for the side to move), empty squares
//!   (u8), then its feature indices (u32 each) as
//!   [`Layout::features`] gives them;
//!
//! and the CRC-32 of everything before it. Every number is little-endian.

use super::{Sample, TrainError};
use crate::sealed;
use crate::sealed::Pending;
use crate::search::pattern::{FEATURES, Layout};

/// The export file's magic.
pub const EXPORT_MAGIC: &[u8; 8] = b"RVNNDAT1";

/// Bytes of one position in the export file.
pub const POSITION_BYTES: usize = 8 + 8 + 1 + 1 + 4 * FEATURES;

/// The export file's body for `training` then `held_out` positions.
pub fn body(training: &[Sample], held_out: &[Sample]) -> Vec<u8> {
    let layout = Layout::get();
    let count = training.len() + held_out.len();
    let mut out = Vec::with_capacity(24 + count * POSITION_BYTES);
    out.extend_from_slice(&(FEATURES as u32).to_le_bytes());
    out.extend_from_slice(&((layout.per_phase - 1) as u32).to_le_bytes());
    out.extend_from_slice(&(count as u64).to_le_bytes());
    out.extend_from_slice(&(held_out.len() as u64).to_le_bytes());
    let mut features = [0u32; FEATURES];
    for s in training.iter().chain(held_out) {
        out.extend_from_slice(&s.player.to_le_bytes());
        out.extend_from_slice(&s.opponent.to_le_bytes());
        out.push(s.target as u8);
        out.push(s.empties() as u8);
        layout.features(s.player, s.opponent, &mut features);
        for f in features {
            out.extend_from_slice(&f.to_le_bytes());
        }
    }
    out
}

/// Writes the export file at `path`.
pub fn write(path: &str, training: &[Sample], held_out: &[Sample]) -> Result<(), TrainError> {
    let file = Pending::start(path)?;
    file.finish(&sealed::seal(EXPORT_MAGIC, &body(training, held_out)))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_are_packed_with_their_features() {
        let s = Sample {
            player: 0x0000_0008_1000_0000,
            opponent: 0x0000_0010_0800_0000,
            target: -3,
        };
        let b = body(&[s], &[s]);
        assert_eq!(b.len(), 24 + 2 * POSITION_BYTES);
        assert_eq!(&b[8..16], &2u64.to_le_bytes());
        assert_eq!(&b[16..24], &1u64.to_le_bytes());
        let first = &b[24..24 + POSITION_BYTES];
        assert_eq!(first[16] as i8, -3);
        assert_eq!(first[17], 60);
        let mut features = [0u32; FEATURES];
        Layout::get().features(s.player, s.opponent, &mut features);
        assert_eq!(&first[18..22], &features[0].to_le_bytes());
    }
}
