//! Search labels: the positions before the solved ones labelled by a
//! fixed-depth search, and the sealed file they are kept in.

use super::progress;
use super::{
    Sample, TrainConfig, TrainError, load_samples, read_if_there, read_sealed, save_samples,
};
use crate::rules::Bitboard;
use crate::sealed::{self, Pending};
use crate::search::pattern::{BUILTIN_WEIGHTS, PatternEval};
use crate::search::{DISC, Limits, Search, TranspositionTable, proven_discs};

/// How positions before the solved ones are labelled, and where the
/// labelled samples are kept.
#[derive(Clone, Debug)]
pub struct Labels {
    /// Plies of the search.
    pub depth: u32,
    /// The file of labelled samples: read when it exists, else written.
    pub file: Option<String>,
    /// The weight file the search evaluates with; `None`: the compiled-in
    /// weights. Labels from the weights a new evaluation replaces stay
    /// reproducible once it is compiled in.
    pub weights: Option<String>,
}

/// The labelled samples file, sealed ([`sealed::seal`]): label depth,
/// solved empties and the CRC-32 of the labelling weights' file (u32
/// little-endian: it tells a file labelled with other weights apart), then
/// the samples as [`save_samples`] writes them.
const LABELS_MAGIC: &[u8; 8] = b"RVLAB03\0";

/// `games` with the positions before the solved ones labelled as `label`
/// says, from its file when that was made with the same settings.
pub(super) fn labelled(
    mut games: Vec<Vec<Sample>>,
    label: &Labels,
    cfg: &TrainConfig,
) -> Result<Vec<Vec<Sample>>, TrainError> {
    // The weights are parsed only to label: a labels file made with them
    // is read as it is, so that an evaluation of another layout (more
    // shapes, other phases) can train on the present one's labels.
    let read = match &label.weights {
        Some(path) => Some(std::fs::read(path).map_err(|source| TrainError::File {
            path: path.clone(),
            source,
        })?),
        None => None,
    };
    let weights = read.as_deref().unwrap_or(BUILTIN_WEIGHTS);
    let mut header = label.depth.to_le_bytes().to_vec();
    header.extend_from_slice(&cfg.solve_empties.to_le_bytes());
    header.extend_from_slice(&crc32fast::hash(weights).to_le_bytes());
    let mut out = None;
    if let Some(path) = &label.file {
        match read_if_there(path)? {
            None => out = Some(Pending::start(path)?),
            Some(bytes) => return read_labels(path, &bytes, &header, label, cfg, games.len()),
        }
    }
    let parsed;
    let eval = match &label.weights {
        Some(path) => {
            parsed = PatternEval::from_bytes(weights).map_err(|reason| TrainError::Weights {
                path: path.clone(),
                reason,
            })?;
            &parsed
        }
        None => PatternEval::builtin(),
    };
    let bar = progress(
        games.len() as u64,
        "{bar:40} {pos}/{len} games labelled, {elapsed} (eta {eta})",
    );
    relabel(
        &mut games,
        label.depth,
        cfg.solve_empties,
        cfg.threads,
        eval,
        &|| bar.inc(1),
    );
    bar.finish_and_clear();
    if let Some(out) = out {
        header.extend(save_samples(&games));
        out.finish(&sealed::seal(LABELS_MAGIC, &header))?;
    }
    Ok(games)
}

/// The labelled samples of the labels file `bytes` at `path`, if it was
/// made with the settings `header` says, for `games` games.
fn read_labels(
    path: &str,
    bytes: &[u8],
    header: &[u8],
    label: &Labels,
    cfg: &TrainConfig,
    games: usize,
) -> Result<Vec<Vec<Sample>>, TrainError> {
    let mismatch = || TrainError::LabelsMismatch {
        path: path.into(),
        depth: label.depth,
        solve_empties: cfg.solve_empties,
    };
    let body = read_sealed(path, "labelled samples", LABELS_MAGIC, bytes)?;
    let samples = body.strip_prefix(header).ok_or_else(mismatch)?;
    let read = load_samples(samples).map_err(|why| TrainError::Samples {
        path: path.into(),
        why,
    })?;
    if read.len() != games {
        return Err(mismatch());
    }
    Ok(read)
}

/// Replaces the target of every position with more than `solve_empties`
/// empty squares by the score of a `depth`-ply search with `eval` (on
/// `threads` threads, each taking the next game; the table is cleared for
/// every game, so a game's labels do not depend on which thread labels
/// it). `tick` is called once per game.
///
/// A position's solved score is the game's result under perfect play
/// from about 18 empties on, but what was played before that (human
/// errors of many discs) is in it too: a search's score says what the
/// position itself is worth. The search is fixed-depth iterative
/// deepening with no jump to the solver, so that its cost is bounded,
/// and with no ProbCut, whose margins belong to the compiled-in weights.
/// A search's labels made a better evaluation than the solved scores, and
/// 4 plies did as well as 6 (docs/research/evaluation.md).
pub fn relabel(
    games: &mut [Vec<Sample>],
    depth: u32,
    solve_empties: u32,
    threads: usize,
    eval: &PatternEval,
    tick: &(dyn Fn() + Sync),
) {
    let queue = std::sync::Mutex::new(games.iter_mut());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut tt = TranspositionTable::new(16);
                let limits = Limits::unlimited();
                loop {
                    let next = queue.lock().expect("no labelling thread panics").next();
                    let Some(game) = next else { break };
                    tt.clear();
                    for s in game.iter_mut().filter(|s| s.empties() > solve_empties) {
                        let board = Bitboard {
                            player: s.player,
                            opponent: s.opponent,
                        };
                        let mut search = Search::new(8, &tt, eval, &limits);
                        search.set_probcut(None);
                        let mut score = 0;
                        for d in 1..=depth as i32 {
                            score = search.value_at(&board, d).expect("no limit");
                        }
                        let discs = proven_discs(score)
                            .unwrap_or_else(|| (score as f64 / DISC as f64).round() as i32);
                        s.target = discs.clamp(-64, 64) as i8;
                    }
                    tick();
                }
            });
        }
    });
}

#[cfg(test)]
mod tests {
    use super::super::samples::{game_samples, parse_game};
    use super::*;
    use crate::search::Solver;

    #[test]
    fn positions_before_the_solved_ones_take_a_search_score_kept_in_a_file() {
        let line = "1977 f5d6c3f3f4d3c4g6f6e6c5c6d7d8e7g5e3d2g4h3f7b5h5g3b4b6c8b8c7e8f8g8h4h6e2d1c1a3a6a5e1f2g7c2a4h8a2b7f1b3b1b2h7a7a8a1g1g2h2h1 34-30";
        let tt = TranspositionTable::new(4);
        let limits = Limits::unlimited();
        let mut solver = Solver::new(&tt, &limits);
        let solved = game_samples(&parse_game(line).unwrap(), 14, &mut solver).unwrap();
        let path = std::env::temp_dir().join(format!("labels-{}.bin", std::process::id()));
        let file = path.to_str().unwrap().to_string();
        let _ = std::fs::remove_file(&file);
        let cfg = TrainConfig {
            solve_empties: 14,
            epochs: 1,
            holdout: 0.0,
            threads: 2,
            seed: 1,
            rate: 1.0,
            label: None,
            prior: None,
        };
        let label = Labels {
            depth: 3,
            file: Some(file.clone()),
            weights: None,
        };
        let games = vec![solved.clone(); 3];
        let made = labelled(games.clone(), &label, &cfg).unwrap();
        // The reference: each position searched alone, 1 to 3 plies.
        let eval = PatternEval::builtin();
        for (got, was) in made[2].iter().zip(&solved) {
            if was.empties() <= 14 {
                assert_eq!(got.target, was.target);
                continue;
            }
            let board = Bitboard {
                player: was.player,
                opponent: was.opponent,
            };
            let tt = TranspositionTable::new(4);
            let mut search = Search::new(8, &tt, eval, &limits);
            search.set_probcut(None);
            let score = (1..=3).map(|d| search.value_at(&board, d).unwrap()).last();
            let discs = (score.unwrap() as f64 / DISC as f64).round() as i8;
            assert_eq!(got.target, discs, "{} empties", was.empties());
        }
        assert_ne!(made[0], solved, "the early positions are labelled anew");
        assert_eq!(
            made[0], made[2],
            "a game's labels are the same on any thread"
        );
        // Read back from the file, and refused for other settings.
        assert_eq!(labelled(games.clone(), &label, &cfg).unwrap(), made);
        let deeper = Labels {
            depth: 4,
            ..label.clone()
        };
        let refused = labelled(games.clone(), &deeper, &cfg).unwrap_err();
        assert!(refused.to_string().contains("remove it"), "{refused}");
        // Other weights: the file is refused too, and a file that holds
        // no weights is an error that names it.
        let weights = std::env::temp_dir().join(format!("weights-{}.bin", std::process::id()));
        let weights = weights.to_str().unwrap().to_string();
        let mut other = BUILTIN_WEIGHTS.to_vec();
        let last = other.len() - 1;
        other[last] ^= 1;
        std::fs::write(&weights, &other).unwrap();
        let reweighted = Labels {
            weights: Some(weights.clone()),
            ..label.clone()
        };
        let refused = labelled(games.clone(), &reweighted, &cfg).unwrap_err();
        assert!(
            refused.to_string().contains("with these weights"),
            "{refused}"
        );
        // Weights this build cannot read (another layout's) are not read
        // at all while their labels file stands, and are an error that
        // names them once labelling is due.
        std::fs::write(&weights, b"not weights").unwrap();
        let mut kept = sealed::unseal("labels", LABELS_MAGIC, &std::fs::read(&file).unwrap())
            .unwrap()
            .to_vec();
        // The weights' CRC follows the depth and the empties.
        kept[8..12].copy_from_slice(&crc32fast::hash(b"not weights").to_le_bytes());
        std::fs::write(&file, sealed::seal(LABELS_MAGIC, &kept)).unwrap();
        assert_eq!(labelled(games.clone(), &reweighted, &cfg).unwrap(), made);
        std::fs::remove_file(&file).unwrap();
        let refused = labelled(games, &reweighted, &cfg).unwrap_err();
        assert!(refused.to_string().starts_with(&weights), "{refused}");
        std::fs::remove_file(&weights).unwrap();
    }
}
