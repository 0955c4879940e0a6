//! The sequential probability ratio test between two players, as engine
//! authors run it (fishtest, fastchess, cutechess-cli): play until the
//! evidence that the first player is `elo1` better outweighs the evidence
//! that it is only `elo0` better, or the other way round, by as much as
//! the error rates `alpha` (accepting `elo1` when `elo0` holds) and
//! `beta` (the reverse) allow. Wald's bounds are `ln(β / (1 − α))` and
//! `ln((1 − β) / α)`.
//!
//! The log-likelihood ratio is the generalised one over pair scores
//! ([`Pairs`], since a match's two games are correlated) in the logistic
//! Elo model, computed as fishtest and fastchess compute it (Michel Van
//! den Bergh, "Comparing the approximations for the generalized log
//! likelihood ratio of a multinomial distribution"): under each
//! hypothesis the distribution of the five pair scores closest to the one
//! observed that has the hypothesis's expected score, and the ratio of
//! their likelihoods. Classes not seen count as a thousandth of a pair,
//! so that no logarithm is of zero.

use std::fmt;
use std::str::FromStr;

use super::pentanomial::{Pairs, PAIR_SCORES};

/// A test between two hypotheses about the first player's Elo advantage.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// The advantage of the null hypothesis (no real gain).
    pub elo0: f64,
    /// The advantage of the alternative (the gain looked for).
    pub elo1: f64,
    /// The chance of accepting `elo1` when `elo0` holds.
    pub alpha: f64,
    /// The chance of accepting `elo0` when `elo1` holds.
    pub beta: f64,
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Decision {
    /// Neither bound crossed: play on.
    Continue,
    /// The lower bound crossed: the advantage is `elo0` (or less).
    AcceptElo0,
    /// The upper bound crossed: the advantage is `elo1` (or more).
    AcceptElo1,
}

/// A test's state after some pairs.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtStatus {
    /// The test.
    pub test: Sprt,
    /// The pairs it has read, from the first player's side.
    pub pairs: Pairs,
    /// The log-likelihood ratio of `elo1` against `elo0`.
    pub llr: f64,
    /// What it says.
    pub decision: Decision,
}

impl Sprt {
    /// A test, if its numbers make one: `elo0 < elo1`, both finite, and
    /// error rates between 0 and 1 that add up to less than 1.
    pub fn new(elo0: f64, elo1: f64, alpha: f64, beta: f64) -> Result<Sprt, String> {
        if !elo0.is_finite() || !elo1.is_finite() || elo0 >= elo1 {
            return Err(format!(
                "elo0 ({elo0}) must be less than elo1 ({elo1}), both finite"
            ));
        }
        if elo0.abs() >= 1_000.0 || elo1.abs() >= 1_000.0 {
            return Err("elo0 and elo1 must be within ±1000".into());
        }
        for (name, rate) in [("alpha", alpha), ("beta", beta)] {
            if !(rate > 0.0 && rate < 1.0) {
                return Err(format!("{name} ({rate}) must be between 0 and 1"));
            }
        }
        if alpha + beta >= 1.0 {
            return Err(format!(
                "alpha + beta ({}) must be less than 1",
                alpha + beta
            ));
        }
        Ok(Sprt {
            elo0,
            elo1,
            alpha,
            beta,
        })
    }

    /// Wald's bounds on the log-likelihood ratio: below the first, accept
    /// `elo0`; above the second, `elo1`.
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of `elo1` against `elo0` over `pairs`
    /// (from the first player's side); 0 without pairs.
    pub fn llr(&self, pairs: Pairs) -> f64 {
        if pairs.total() == 0 {
            return 0.0;
        }
        let counts = pairs
            .classes()
            .map(|count| if count == 0 { 1e-3 } else { f64::from(count) });
        let total: f64 = counts.iter().sum();
        let observed = counts.map(|count| count / total);
        let closest = |elo: f64| closest_with_score(&observed, expected_score(elo));
        let (under0, under1) = (closest(self.elo0), closest(self.elo1));
        total
            * observed
                .iter()
                .zip(under0.iter().zip(&under1))
                .map(|(p, (p0, p1))| p * (p1.ln() - p0.ln()))
                .sum::<f64>()
    }

    /// The test over `pairs`.
    pub fn status(&self, pairs: Pairs) -> SprtStatus {
        let llr = self.llr(pairs);
        let (lower, upper) = self.bounds();
        let decision = if llr >= upper {
            Decision::AcceptElo1
        } else if llr <= lower {
            Decision::AcceptElo0
        } else {
            Decision::Continue
        };
        SprtStatus {
            test: *self,
            pairs,
            llr,
            decision,
        }
    }
}

/// The expected score of an advantage of `elo` in the logistic model.
fn expected_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The distribution over the pair scores nearest to `observed` (in the
/// likelihood of what was observed) whose expected score is `score`:
/// `p_i = p̂_i / (1 + θ(a_i − s))` with `θ` the root of
/// `Σ p̂_i (a_i − s) / (1 + θ(a_i − s)) = 0`, which falls as `θ` rises
/// over the interval where every `1 + θ(a_i − s)` is positive, so
/// bisection finds it.
fn closest_with_score(observed: &[f64; 5], score: f64) -> [f64; 5] {
    let (first, last) = (PAIR_SCORES[0], PAIR_SCORES[4]);
    let slope = |theta: f64| -> f64 {
        observed
            .iter()
            .zip(PAIR_SCORES)
            .map(|(p, a)| p * (a - score) / (1.0 + theta * (a - score)))
            .sum()
    };
    let (mut low, mut high) = (-1.0 / (last - score), -1.0 / (first - score));
    for _ in 0..200 {
        let middle = (low + high) / 2.0;
        if slope(middle) > 0.0 {
            low = middle;
        } else {
            high = middle;
        }
    }
    let theta = (low + high) / 2.0;
    let mut closest = [0.0; 5];
    for (p, (&seen, a)) in closest.iter_mut().zip(observed.iter().zip(PAIR_SCORES)) {
        *p = seen / (1.0 + theta * (a - score));
    }
    closest
}

impl FromStr for Sprt {
    type Err = String;

    /// `elo0=0 elo1=5 alpha=0.05 beta=0.05`: words separated by spaces or
    /// commas, in any order; alpha and beta are 0.05 unless given.
    fn from_str(text: &str) -> Result<Sprt, String> {
        let (mut elo0, mut elo1, mut alpha, mut beta) = (None, None, 0.05, 0.05);
        for word in text.split([' ', ',']).filter(|word| !word.is_empty()) {
            let Some((key, value)) = word.split_once('=') else {
                return Err(format!(
                    "{word:?} is not KEY=VALUE (elo0, elo1, alpha or beta)"
                ));
            };
            let number: f64 = value
                .parse()
                .map_err(|_| format!("{key}={value}: {value:?} is not a number"))?;
            match key {
                "elo0" => elo0 = Some(number),
                "elo1" => elo1 = Some(number),
                "alpha" => alpha = number,
                "beta" => beta = number,
                _ => {
                    return Err(format!(
                        "unknown SPRT parameter {key:?}: elo0, elo1, alpha or beta"
                    ))
                }
            }
        }
        let (Some(elo0), Some(elo1)) = (elo0, elo1) else {
            return Err("an SPRT needs elo0 and elo1 (for example elo0=0 elo1=20)".into());
        };
        Sprt::new(elo0, elo1, alpha, beta)
    }
}

impl fmt::Display for Sprt {
    /// `elo0=0 elo1=5 alpha=0.05 beta=0.05`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "elo0={} elo1={} alpha={} beta={}",
            self.elo0, self.elo1, self.alpha, self.beta
        )
    }
}

impl fmt::Display for SprtStatus {
    /// `LLR 1.23 (-2.94, 2.94) [0, 5]: continue`, then the pairs.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (lower, upper) = self.test.bounds();
        let decision = match self.decision {
            Decision::Continue => "play on".to_string(),
            Decision::AcceptElo0 => format!("accept elo0 = {} (H0)", self.test.elo0),
            Decision::AcceptElo1 => format!("accept elo1 = {} (H1)", self.test.elo1),
        };
        write!(
            f,
            "SPRT [{}, {}]: LLR {:.2} ({:.2}, {:.2}), {}; pairs (0-2) {}",
            self.test.elo0, self.test.elo1, self.llr, lower, upper, decision, self.pairs
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_published_log_likelihood_ratios() {
        // fastchess's tests (app/tests/sprt_test.cpp, "logistic
        // pentanomial"), counts LL, LD, WL, DD, WD, WW: −3.07 and −4.98.
        let test = Sprt::new(0.5, 2.5, 0.05, 0.05).unwrap();
        let llr = test.llr(Pairs::from_counts([223, 9863, 20279, 1000, 10037, 246]));
        assert!((llr - -3.07).abs() < 0.01, "{llr}");
        let test = Sprt::new(0.0, 2.0, 0.05, 0.05).unwrap();
        let llr = test.llr(Pairs::from_counts([871, 26175, 55003, 980, 26678, 821]));
        assert!((llr - -4.98).abs() < 0.01, "{llr}");
    }

    #[test]
    fn wald_bounds_at_five_percent() {
        let (lower, upper) = Sprt::new(0.0, 5.0, 0.05, 0.05).unwrap().bounds();
        assert!((lower - -2.944_438_979).abs() < 1e-9, "{lower}");
        assert!((upper - 2.944_438_979).abs() < 1e-9, "{upper}");
        let (lower, upper) = Sprt::new(0.0, 5.0, 0.05, 0.1).unwrap().bounds();
        assert!((lower - (0.1f64 / 0.95).ln()).abs() < 1e-12);
        assert!((upper - (0.9f64 / 0.05).ln()).abs() < 1e-12);
    }

    #[test]
    fn a_sequence_of_pairs_crosses_where_its_ratio_does() {
        // A player that wins both games of every other pair and splits the
        // rest is far above elo1 = 50: the ratio rises with each pair won
        // and the upper bound is crossed after a handful of them.
        let test: Sprt = "elo0=0 elo1=50".parse().unwrap();
        let mut seen = Pairs::default();
        let mut crossed = None;
        let mut last = 0.0;
        for index in 0..100 {
            if index % 2 == 0 {
                seen.add(2, 0);
            } else {
                seen.add(1, 1);
            }
            let status = test.status(seen);
            if index % 2 == 0 {
                assert!(
                    status.llr > last,
                    "pair {index}: {} after {last}",
                    status.llr
                );
            }
            last = status.llr;
            if status.decision != Decision::Continue {
                crossed = Some((index + 1, status.decision));
                break;
            }
        }
        let (after, decision) = crossed.expect("the test ends");
        assert_eq!(decision, Decision::AcceptElo1);
        assert!((5..=40).contains(&after), "{after}");
        // The mirror image accepts elo0.
        let losing = Pairs::from_counts([10, 0, 10, 0, 0, 0]);
        assert_eq!(test.status(losing).decision, Decision::AcceptElo0);
        assert!(
            test.llr(losing.reversed()) > 1.0,
            "{}",
            test.llr(losing.reversed())
        );
        assert_eq!(test.llr(Pairs::default()), 0.0);
    }

    #[test]
    fn parameters_are_read_and_refused_with_their_reason() {
        let test: Sprt = "elo0=-1.5,elo1=3 alpha=0.1 beta=0.2".parse().unwrap();
        assert_eq!(test, Sprt::new(-1.5, 3.0, 0.1, 0.2).unwrap());
        assert_eq!(test.to_string(), "elo0=-1.5 elo1=3 alpha=0.1 beta=0.2");
        for (text, problem) in [
            ("elo0=5 elo1=5", "must be less than elo1"),
            ("elo1=5", "needs elo0 and elo1"),
            ("elo0=0 elo1=5 alpha=0", "alpha (0) must be between 0 and 1"),
            ("elo0=0 elo1=5 alpha=0.6 beta=0.5", "alpha + beta"),
            ("elo0=0 elo1=x", "\"x\" is not a number"),
            ("elo0=0 elo1=5 gamma=1", "unknown SPRT parameter \"gamma\""),
            ("elo0=0 elo1", "not KEY=VALUE"),
        ] {
            let error = text.parse::<Sprt>().unwrap_err();
            assert!(error.contains(problem), "{text}: {error}");
        }
    }
}
