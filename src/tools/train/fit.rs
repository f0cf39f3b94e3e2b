//! The fit: stochastic gradient descent with AdaGrad steps, each
//! position's error shared by its two phases, a prior that holds the
//! weights near earlier ones, and the held-out report.

use super::{Sample, TrainConfig, TrainError};
use crate::search::pattern::{FEATURES, Layout, PHASES, PatternEval, SCALE, phase, phase_mix};
use rand::SeedableRng;
use rand::seq::SliceRandom;
use rand_chacha::ChaCha8Rng;
use std::fmt::Write as _;

/// Earlier weights that a fit starts from and pulls each weight back to,
/// so that new data refines them instead of replacing what the data they
/// were fitted on taught. The least-squares fit is convex: started from
/// the old weights but free, it ends at the new data's own optimum,
/// whatever the start. The pull stands for the old data weight by
/// weight (a diagonal approximation of its curvature): each time a
/// position touches a weight with share `p` of its value, the weight
/// also takes `strength * p * p * (w - prior)` of gradient, as if the old
/// data held `strength` times as many positions like the new ones, all
/// fitted at the prior, weight by weight. A position's value sums dozens
/// of weights, and the pull holds each alone, so it resists a change of
/// that whole sum far less than so many copies would (the unit test
/// `a_prior_holds_the_fit_near_it_as_strongly_as_asked`). So a data set
/// too long to make again in one session is added to by one fresh set.
/// One such refit was measured and not kept (docs/research/evaluation.md).
#[derive(Clone, Debug)]
pub struct Prior {
    /// The weights in discs, laid out as [`fit`] returns them.
    pub weights: Vec<f32>,
    /// How many times the training positions the prior counts for.
    pub strength: f32,
}

impl Prior {
    /// The prior of the weight file at `path`.
    pub fn read(path: &str, strength: f32) -> Result<Prior, TrainError> {
        let bytes = std::fs::read(path).map_err(|source| TrainError::File {
            path: path.to_string(),
            source,
        })?;
        Prior::from_bytes(&bytes, strength).map_err(|reason| TrainError::Weights {
            path: path.to_string(),
            reason,
        })
    }

    /// The prior of a weight file as [`PatternEval::to_bytes`] writes it.
    pub fn from_bytes(bytes: &[u8], strength: f32) -> Result<Prior, String> {
        let stored = PatternEval::stored_weights(bytes)?;
        Ok(Prior {
            weights: stored
                .iter()
                .map(|&w| f32::from(w) / SCALE as f32)
                .collect(),
            strength,
        })
    }
}

/// Mean absolute and root mean square error (discs) per phase.
fn errors(weights: &[f32], samples: &[Sample]) -> Vec<(usize, f64, f64)> {
    let layout = Layout::get();
    let mut acc = vec![(0usize, 0.0f64, 0.0f64); PHASES];
    let mut features = [0u32; FEATURES];
    for s in samples {
        let ph = phase(s.empties());
        layout.features(s.player, s.opponent, &mut features);
        let err = predict(weights, layout, s.empties(), &features) - s.target as f32;
        let a = &mut acc[ph];
        a.0 += 1;
        a.1 += err.abs() as f64;
        a.2 += (err * err) as f64;
    }
    acc.into_iter()
        .map(|(n, abs, sq)| {
            let n1 = n.max(1) as f64;
            (n, abs / n1, (sq / n1).sqrt())
        })
        .collect()
}

/// The value (discs) of a position with `empties` empty squares and region
/// indices `features`: the mix of two phases that [`phase_mix`] gives.
#[inline]
fn predict(weights: &[f32], layout: &Layout, empties: u32, features: &[u32]) -> f32 {
    mixed_value(weights, layout, phase_mix(empties), features)
}

/// [`predict`] for a position whose [`phase_mix`] is known.
#[inline]
fn mixed_value(
    weights: &[f32],
    layout: &Layout,
    (first, share): (usize, f32),
    features: &[u32],
) -> f32 {
    let value = |ph: usize| {
        let table = &weights[ph * layout.per_phase..(ph + 1) * layout.per_phase];
        features
            .iter()
            .fold(table[layout.per_phase - 1], |sum, &f| {
                sum + table[f as usize]
            })
    };
    (1.0 - share) * value(first) + share * value(first + 1)
}

/// Fits weights (in discs) by stochastic gradient descent with a step
/// size of its own for every weight (AdaGrad: weights of rare
/// configurations move faster than those seen in every game);
/// `epoch_done` sees each epoch's number and its mean squared training
/// error. Each position's error is shared between its two phases as
/// [`phase_mix`] mixes them. The recipe's settings (the initial
/// accumulator, the epochs) are not what limits the fit.
pub fn fit(
    train: &[Sample],
    cfg: &TrainConfig,
    mut epoch_done: impl FnMut(usize, f64),
) -> Vec<f32> {
    let layout = Layout::get();
    let mut weights = match &cfg.prior {
        Some(prior) => prior.weights.clone(),
        None => vec![0f32; PHASES * layout.per_phase],
    };
    let mut squares = vec![1f32; PHASES * layout.per_phase];
    let mut order: Vec<u32> = (0..train.len() as u32).collect();
    let mut rng = ChaCha8Rng::seed_from_u64(cfg.seed);
    let mut features = [0u32; FEATURES];
    for epoch in 0..cfg.epochs {
        order.shuffle(&mut rng);
        let mut loss = 0.0f64;
        for &i in &order {
            let s = &train[i as usize];
            layout.features(s.player, s.opponent, &mut features);
            let mix = phase_mix(s.empties());
            let err = mixed_value(&weights, layout, mix, &features) - s.target as f32;
            loss += (err * err) as f64;
            let (first, share) = mix;
            for (ph, part) in [(first, 1.0 - share), (first + 1, share)] {
                if part == 0.0 {
                    continue;
                }
                let base = ph * layout.per_phase;
                let grad = part * err.clamp(-64.0, 64.0);
                for f in features
                    .iter()
                    .map(|&f| base + f as usize)
                    .chain([base + layout.per_phase - 1])
                {
                    let grad = match &cfg.prior {
                        Some(p) => grad + p.strength * part * part * (weights[f] - p.weights[f]),
                        None => grad,
                    };
                    squares[f] += grad * grad;
                    weights[f] -= cfg.rate * grad / squares[f].sqrt();
                }
            }
        }
        epoch_done(epoch + 1, loss / train.len().max(1) as f64);
    }
    weights
}

/// The weights in the stored form (1/SCALE discs, i16).
pub fn quantize(weights: &[f32]) -> Vec<i16> {
    weights
        .iter()
        .map(|w| {
            (w * SCALE as f32)
                .round()
                .clamp(i16::MIN as f32, i16::MAX as f32) as i16
        })
        .collect()
}

/// A per-phase error table for held-out samples.
pub fn report(weights: &[f32], test: &[Sample]) -> String {
    let mut out = String::from("phase  empties    positions  mean |error|  rms error (discs)\n");
    for (ph, (n, mae, rms)) in errors(weights, test).into_iter().enumerate() {
        let hi = 59 - 4 * ph as u32;
        let lo = if ph + 1 == PHASES { 0 } else { hi - 3 };
        let _ = writeln!(
            out,
            "{ph:>5}  {lo:>2}-{hi:<2}   {n:>12}  {mae:>12.2}  {rms:>17.2}"
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A position with 20 empties (discs on the first 44 squares,
    /// alternating by pairs) valued at `target`.
    fn twenty_empties(target: i8) -> Sample {
        let discs = (1u64 << 44) - 1;
        let player = discs & 0x3333_3333_3333_3333;
        Sample {
            player,
            opponent: discs & !player,
            target,
        }
    }

    /// A fit of `epochs` passes on one thread over every position (none
    /// held out), with no labelling search and no prior.
    fn one_thread_fit(epochs: usize) -> TrainConfig {
        TrainConfig {
            solve_empties: 18,
            epochs,
            holdout: 0.0,
            threads: 1,
            seed: 1,
            rate: 1.0,
            label: None,
            prior: None,
        }
    }

    #[test]
    fn a_position_trains_the_two_phases_it_lies_between_in_proportion() {
        // 3/8 of the way from the middle of the 20-23 phase to that of the
        // 16-19 one.
        let sample = twenty_empties(10);
        let near = phase(23);
        assert_eq!(phase_mix(sample.empties()), (near, 0.375));
        let layout = Layout::get();
        let constant = |w: &[f32], ph: usize| w[(ph + 1) * layout.per_phase - 1];
        let cfg = one_thread_fit(20);
        let weights = fit(&[sample; 8], &cfg, |_, _| {});
        let (a, b) = (constant(&weights, near), constant(&weights, near + 1));
        assert!(a > b && b > 0.0, "{a} {b}");
        for ph in (0..PHASES).filter(|&ph| ph != near && ph != near + 1) {
            assert_eq!(constant(&weights, ph), 0.0, "phase {ph}");
        }
        let mut features = [0u32; FEATURES];
        layout.features(sample.player, sample.opponent, &mut features);
        let value = predict(&weights, layout, sample.empties(), &features);
        assert!((value - 10.0).abs() < 0.5, "{value}");
        // Between the first two middles, and past the first or last.
        assert_eq!(phase_mix(57).1, 0.125);
        assert_eq!(phase_mix(59), (0, 0.0));
        assert_eq!(phase_mix(0), (PHASES - 2, 1.0));
    }

    #[test]
    fn a_prior_holds_the_fit_near_it_as_strongly_as_asked() {
        // Weights fitted to value a position at +10, then a prior of them
        // refitted on the same position valued -10: free, the fit moves
        // all the way; pulled, it stops between, nearer the prior the
        // stronger the pull; weights the new position does not touch keep
        // the prior's values exactly.
        let at = twenty_empties;
        let layout = Layout::get();
        let mut features = [0u32; FEATURES];
        layout.features(at(0).player, at(0).opponent, &mut features);
        let value = |w: &[f32]| predict(w, layout, at(0).empties(), &features);
        let cfg = one_thread_fit(40);
        let first = fit(&[at(10); 8], &cfg, |_, _| {});
        assert!((value(&first) - 10.0).abs() < 0.5);
        // Through the weight file, as `reversi train --prior` reads it.
        let file = PatternEval::to_bytes(&quantize(&first));
        let refit = |strength| {
            let mut cfg = cfg.clone();
            cfg.prior = Some(Prior::from_bytes(&file, strength).unwrap());
            fit(&[at(-10); 8], &cfg, |_, _| {})
        };
        let (free, weak, strong) = (refit(0.0), refit(50.0), refit(1000.0));
        assert!((value(&free) + 10.0).abs() < 0.5, "{}", value(&free));
        let (weak, strong) = (value(&weak), value(&strong));
        assert!(
            -9.0 < weak && weak < strong && strong < 10.0,
            "{weak} {strong}"
        );
        assert!(strong > 8.0, "{strong}");
        let prior = Prior::from_bytes(&file, 1.0).unwrap();
        let touched = |i: usize| {
            let (ph, f) = (i / layout.per_phase, i % layout.per_phase);
            let (near, _) = phase_mix(at(0).empties());
            (ph == near || ph == near + 1)
                && (f == layout.per_phase - 1 || features.contains(&(f as u32)))
        };
        for (i, (&w, &p)) in free.iter().zip(&prior.weights).enumerate() {
            assert!(touched(i) || w == p, "weight {i}: {w} against {p}");
        }
        assert!(Prior::from_bytes(&file[..file.len() - 2], 1.0).is_err());
        assert!(Prior::from_bytes(b"RVPAT02\0", 1.0).is_err());
    }
}
