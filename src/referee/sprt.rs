//! Statistics of a match played in pairs of games (each opening once with
//! each colour): the pentanomial counts, the score with its interval
//! computed from pairs, and the sequential probability ratio test (SPRT)
//! that stops a match as soon as it has decided between two Elo
//! differences.
//!
//! Both work on pairs, not games: the two games of an opening are
//! correlated (a lopsided opening tends to be won by whoever has the good
//! side), and a pair's score takes that out. The SPRT is the generalised
//! SPRT on the pentanomial model (M. Van den Bergh, as Fishtest computes
//! it): for each hypothesis, the distribution of pair outcomes nearest
//! the observed one (maximum likelihood) whose expected score is that of
//! its logistic Elo difference; the log-likelihood ratio of the observed
//! pairs under the two. The match stops when it leaves Wald's bounds: at
//! or below ln(beta / (1 - alpha)) H0 (elo0) is accepted, at or above
//! ln((1 - beta) / alpha) H1 (elo1). An outcome that no pair has had yet
//! counts as 0.001 pairs, so that the distributions exist (Fishtest
//! regularises so too); a run of pairs all alike then gains about
//! ln(s1 / s0) a pair, as the exact test would.

use super::arena::GameResult;
use std::collections::HashMap;
use std::fmt;

/// The results of the complete pairs of games of a pairing, for its first
/// player: how many pairs scored 0, 1/2, 1, 3/2 and 2 points (LL, LD,
/// DD or WL, WD, WW).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pentanomial(pub [usize; 5]);

/// Pairs counted as their games end: the complete pairs' counts, and the
/// first player's points in each game whose partner has not ended yet.
#[derive(Clone, Debug, Default)]
pub struct Pairs {
    pub counts: Pentanomial,
    halves: HashMap<(usize, usize), usize>,
}

impl Pairs {
    /// Counts the game `r` (games 2k and 2k+1 of a pairing make a pair).
    pub fn add(&mut self, r: &GameResult) {
        // The first player's points in the game: 2 a win, 1 a draw.
        let sign = if r.game.is_multiple_of(2) { 1 } else { -1 };
        let points = (r.winner() * sign + 1) as usize;
        match self.halves.remove(&(r.pairing, r.game / 2)) {
            Some(other) => self.counts.0[points + other] += 1,
            None => {
                self.halves.insert((r.pairing, r.game / 2), points);
            }
        }
    }
}

/// The score of the pair outcomes, in points a game.
const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// What an outcome no pair has had counts as (pairs).
const REGULARISE: f64 = 1e-3;

impl Pentanomial {
    /// The counts of the complete pairs among `results` (games 2k and
    /// 2k+1 of a pairing: its first player has Black in the even one).
    pub fn of<'a>(results: impl IntoIterator<Item = &'a GameResult>) -> Pentanomial {
        let mut pairs = Pairs::default();
        for r in results {
            pairs.add(r);
        }
        pairs.counts
    }

    /// Complete pairs.
    pub fn pairs(&self) -> usize {
        self.0.iter().sum()
    }

    /// The mean score a game and the variance of a pair's score.
    fn mean_and_variance(&self) -> (f64, f64) {
        let counts = self.0.map(|c| c as f64);
        let n: f64 = counts.iter().sum();
        let mean = counts
            .iter()
            .zip(PAIR_SCORES)
            .map(|(c, s)| c * s)
            .sum::<f64>()
            / n;
        let variance = counts
            .iter()
            .zip(PAIR_SCORES)
            .map(|(c, s)| c * (s - mean).powi(2))
            .sum::<f64>()
            / n;
        (mean, variance)
    }

    /// The first player's score a game and the half-width of its 95%
    /// interval, from the pairs; `None` without a pair.
    pub fn score(&self) -> Option<(f64, f64)> {
        let n = self.pairs();
        if n == 0 {
            return None;
        }
        let (mean, variance) = self.mean_and_variance();
        Some((mean, 1.96 * (variance / n as f64).sqrt()))
    }
}

impl fmt::Display for Pentanomial {
    /// `12 pairs: LL 1, LD 2, DD/WL 5, WD 3, WW 1; score 54.2% ± 6.1`.
    fn fmt(&self, f: &mut fmt::Formatter) -> fmt::Result {
        let [ll, ld, dd, wd, ww] = self.0;
        write!(
            f,
            "{} pairs: LL {ll}, LD {ld}, DD/WL {dd}, WD {wd}, WW {ww}",
            self.pairs()
        )?;
        if let Some((score, ci)) = self.score() {
            write!(f, "; score {:.1}% ± {:.1}", score * 100.0, ci * 100.0)?;
        }
        Ok(())
    }
}

/// An SPRT between two logistic Elo differences of the first player over
/// the second.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    pub elo0: f64,
    pub elo1: f64,
    /// The chance of accepting H1 when H0 holds.
    pub alpha: f64,
    /// The chance of accepting H0 when H1 holds.
    pub beta: f64,
}

/// What an SPRT has found so far.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Decision {
    /// Neither bound is reached: play on.
    Open,
    /// elo0 is accepted.
    H0,
    /// elo1 is accepted.
    H1,
}

/// A `--sprt` that cannot be read.
#[derive(Debug, thiserror::Error)]
#[error(
    "--sprt '{0}': {1} (elo0=<Elo>,elo1=<Elo>,alpha=<0 to 0.5>,beta=<0 to 0.5>, elo0 < elo1, logistic Elo)"
)]
pub struct SprtError(String, String);

impl Sprt {
    /// `elo0=0,elo1=5,alpha=0.05,beta=0.05` (alpha and beta default to
    /// 0.05; Elo differences are logistic, -1000 to 1000).
    pub fn parse(spec: &str) -> Result<Sprt, SprtError> {
        let bad = |why: &str| SprtError(crate::rules::printable(spec), why.into());
        let (mut elo0, mut elo1) = (None, None);
        let (mut alpha, mut beta) = (0.05, 0.05);
        for part in spec.split(',') {
            let (key, value) = part.split_once('=').ok_or_else(|| bad("no '='"))?;
            let value: f64 = value
                .trim()
                .parse()
                .map_err(|_| bad(&format!("'{}' is not a number", value.trim())))?;
            match key.trim() {
                "elo0" => elo0 = Some(value),
                "elo1" => elo1 = Some(value),
                "alpha" => alpha = value,
                "beta" => beta = value,
                other => return Err(bad(&format!("unknown key '{other}'"))),
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err(bad("elo0 and elo1 are needed"));
        };
        let elo = -1000.0..=1000.0;
        if !elo.contains(&elo0) || !elo.contains(&elo1) || elo0 >= elo1 {
            return Err(bad(
                "the Elo differences must be -1000 to 1000, elo0 < elo1",
            ));
        }
        let chance = |p: f64| p > 0.0 && p < 0.5;
        if !chance(alpha) || !chance(beta) {
            return Err(bad("alpha and beta must be over 0 and under 0.5"));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Wald's bounds on the LLR: (accept H0 at or below, accept H1 at or
    /// above).
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 after `pairs`.
    pub fn llr(&self, pairs: &Pentanomial) -> f64 {
        if pairs.pairs() == 0 {
            return 0.0;
        }
        let counts = pairs.0.map(|c| if c == 0 { REGULARISE } else { c as f64 });
        let n: f64 = counts.iter().sum();
        let observed = counts.map(|c| c / n);
        let p0 = nearest_with_score(&observed, expected_score(self.elo0));
        let p1 = nearest_with_score(&observed, expected_score(self.elo1));
        (0..5).map(|i| counts[i] * (p1[i] / p0[i]).ln()).sum()
    }

    /// What the test says after `pairs`.
    pub fn decide(&self, pairs: &Pentanomial) -> Decision {
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        if llr >= upper {
            Decision::H1
        } else if llr <= lower {
            Decision::H0
        } else {
            Decision::Open
        }
    }

    /// A line on where the test stands: `SPRT elo0=0 elo1=5 alpha=0.05
    /// beta=0.05 (logistic Elo): LLR 1.23 in (-2.94, 2.94) after 40
    /// pairs, open`.
    pub fn report(&self, pairs: &Pentanomial) -> String {
        let (lower, upper) = self.bounds();
        let verdict = match self.decide(pairs) {
            Decision::Open => "open".to_string(),
            Decision::H0 => format!("H0 accepted (elo {} or less)", self.elo0),
            Decision::H1 => format!("H1 accepted (elo {} or more)", self.elo1),
        };
        format!(
            "SPRT elo0={} elo1={} alpha={} beta={} (logistic Elo): LLR {:.2} in ({lower:.2}, {upper:.2}) after {} pairs, {verdict}",
            self.elo0,
            self.elo1,
            self.alpha,
            self.beta,
            self.llr(pairs),
            pairs.pairs()
        )
    }
}

/// The distribution of pair outcomes of expected score `score` that
/// gives the `observed` frequencies (all above 0) the highest likelihood.
/// It is `observed[i] / (1 + lambda (a_i - score))`, a_i the outcomes'
/// scores, with lambda the root of `sum observed[i] (a_i - score) / (1 +
/// lambda (a_i - score)) = 0`, which falls as lambda rises over the
/// interval where every denominator is positive: bisection finds it.
fn nearest_with_score(observed: &[f64; 5], score: f64) -> [f64; 5] {
    let gaps = PAIR_SCORES.map(|a| a - score);
    let slope = |lambda: f64| -> f64 {
        (0..5)
            .map(|i| observed[i] * gaps[i] / (1.0 + lambda * gaps[i]))
            .sum()
    };
    // Denominators stay positive for -1 / (1 - score) < lambda < 1 / score.
    let (mut low, mut high) = (-1.0 / (1.0 - score), 1.0 / score);
    for _ in 0..200 {
        let mid = 0.5 * (low + high);
        if slope(mid) > 0.0 {
            low = mid;
        } else {
            high = mid;
        }
    }
    let lambda = 0.5 * (low + high);
    let p = (0..5).map(|i| observed[i] / (1.0 + lambda * gaps[i]));
    let p: Vec<f64> = p.collect();
    let total: f64 = p.iter().sum();
    [0, 1, 2, 3, 4].map(|i| p[i] / total)
}

/// The expected score of a logistic Elo difference.
fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::Color;
    use std::time::Duration;

    fn result(game: usize, black_discs: i32) -> GameResult {
        GameResult {
            pairing: 0,
            game,
            black_discs,
            forfeit: None,
            time: [(Duration::ZERO, 0); 2],
            max_time: [Duration::ZERO; 2],
            cpu: [None; 2],
            reason: None,
        }
    }

    #[test]
    fn pairs_count_the_first_players_points_in_both_colours() {
        let results = [
            // Pair 0: first player wins as Black (+10), draws as White.
            result(0, 10),
            result(1, 0),
            // Pair 1: loses as Black, wins as White (Black -4).
            result(2, -6),
            result(3, -4),
            // Pair 2: a forfeit by White (the first player) and a loss.
            GameResult {
                forfeit: Some((Color::White, "late".into())),
                ..result(5, 0)
            },
            result(4, -2),
            // Pair 3, incomplete.
            result(6, 8),
        ];
        let p = Pentanomial::of(&results);
        assert_eq!(p, Pentanomial([1, 0, 1, 1, 0]));
        let (score, ci) = p.score().unwrap();
        assert!((score - 5.0 / 12.0).abs() < 1e-12);
        // Pair scores 0.75, 0.5, 0: variance 0.0972 (per pair), over 3.
        assert!((ci - 1.96 * (0.097_222_222_2_f64 / 3.0).sqrt()).abs() < 1e-9);
    }

    #[test]
    fn bounds_and_llr_follow_the_published_formulas() {
        let sprt = Sprt::parse("elo0=0,elo1=10,alpha=0.05,beta=0.1").unwrap();
        // Wald: ln(0.1 / 0.95) and ln(0.9 / 0.05).
        let (lower, upper) = sprt.bounds();
        assert!((lower - -2.251_291_798_606_495).abs() < 1e-12);
        assert!((upper - 2.890_371_757_896_165).abs() < 1e-12);
        // The nearest distributions have the hypotheses' scores and sum
        // to 1.
        let pairs = Pentanomial([5, 15, 40, 25, 15]);
        let observed = pairs.0.map(|c| c as f64 / 100.0);
        for score in [0.5, 0.514_387] {
            let p = nearest_with_score(&observed, score);
            assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            let mean: f64 = (0..5).map(|i| p[i] * PAIR_SCORES[i]).sum();
            assert!((mean - score).abs() < 1e-9, "{mean} {score}");
        }
        // By hand, with the normal approximation of the same test
        // (LLR = N (s1 - s0) (2m - s0 - s1) / (2v)): mean score m =
        // (15*0.25 + 40*0.5 + 25*0.75 + 15) / 100 = 0.575; variance of a
        // pair's score v = (5*0.330625 + 15*0.105625 + 40*0.005625
        // + 25*0.030625 + 15*0.180625) / 100 = 0.069375; s0 = 0.5,
        // s1 = 1 / (1 + 10^(-10/400)) = 0.514387; LLR = 100 * 0.014387 *
        // (1.15 - 1.014387) / (2 * 0.069375) = 1.406. The exact test
        // gives 1.3149 (the same bisection in a few lines of Python): the
        // approximation, with the variance of the observed pairs, counts
        // a mean beyond both hypotheses' scores for more than it is.
        let llr = sprt.llr(&pairs);
        assert!((llr - 1.314_924).abs() < 1e-5, "{llr}");
        assert!(llr < 1.406);
        assert_eq!(sprt.decide(&pairs), Decision::Open);
        // Three times the pairs, alike: three times the LLR, past the
        // upper bound.
        let more = Pentanomial([15, 45, 120, 75, 45]);
        assert!((sprt.llr(&more) - 3.0 * llr).abs() < 1e-9);
        assert_eq!(sprt.decide(&more), Decision::H1);
        // The mirror image (mean 0.425) accepts H0.
        let worse = Pentanomial([45, 75, 120, 45, 15]);
        assert_eq!(sprt.decide(&worse), Decision::H0);
    }

    #[test]
    fn pairs_all_alike_gain_what_the_exact_test_gives() {
        // Every pair won twice: the likeliest distributions of scores s0
        // and s1 put s0 and s1 on WW (and the rest on LL), so the LLR
        // grows by ln(s1 / s0) a pair.
        let sprt = Sprt::parse("elo0=0,elo1=50").unwrap();
        let s1 = expected_score(50.0);
        let per_pair = (s1 / 0.5).ln();
        for n in [1, 10, 40] {
            let llr = sprt.llr(&Pentanomial([0, 0, 0, 0, n]));
            assert!((llr / n as f64 - per_pair).abs() < 0.01, "{n}: {llr}");
        }
        // One pair decides nothing; 40 (LLR 5.7) accept H1.
        assert_eq!(sprt.decide(&Pentanomial([0, 0, 0, 0, 1])), Decision::Open);
        assert_eq!(sprt.decide(&Pentanomial([0, 0, 0, 0, 40])), Decision::H1);
    }

    #[test]
    fn no_pairs_decide_nothing() {
        let sprt = Sprt::parse("elo0=0,elo1=5").unwrap();
        assert_eq!(sprt.llr(&Pentanomial::default()), 0.0);
        assert_eq!(sprt.decide(&Pentanomial::default()), Decision::Open);
    }

    #[test]
    fn bad_specs_say_why() {
        for (spec, why) in [
            ("elo0=5,elo1=0", "elo0 < elo1"),
            ("elo0=0", "elo0 and elo1 are needed"),
            ("elo0=0,elo1=5,alpha=0.7", "under 0.5"),
            ("elo0=0,elo1=x", "'x' is not a number"),
            ("elo0=0,elo1=5,gamma=1", "unknown key 'gamma'"),
        ] {
            let e = Sprt::parse(spec).unwrap_err().to_string();
            assert!(e.contains(why), "{spec}: {e}");
        }
    }
}
