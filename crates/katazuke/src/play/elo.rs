//! Elo differences with 95 % error bars from wins, draws and losses, the
//! way cutechess-cli and fastchess print `Elo difference: X +/- Y`.
//!
//! A score fraction `p` (a win 1, a draw ½, a loss 0, over `n` trials)
//! stands for the Elo difference `−400 · log10(1/p − 1)`, the one at which
//! the logistic model expects that score. The error bar comes from the
//! spread of the single results: their variance is
//! `σ² = (w(1 − p)² + d(½ − p)² + l·p²) / n`, so `p` itself is known to
//! `± 1.96 · σ/√n` at 95 %, and the bar is half the Elo width of that
//! interval of scores. A score of 0 or 1 has no finite difference, and an
//! interval that reaches 0 or 1 no finite bar: both are said as such
//! rather than clamped to a number that would look like a measurement.
//!
//! In a tournament every entrant is rated by its score against all its
//! opponents together: the difference to the average of the opponents it
//! met (a performance rating, as cutechess-cli's standings give). In a
//! round robin the opponents are the rest of the field, so the ratings
//! are relative to the field; in a gauntlet the first entrant's is against
//! all the others and each other one's against the first alone. Ratings
//! of this kind do not add up exactly (they are not fitted jointly as
//! BayesElo or Ordo do), which is a fair price for a number that anyone
//! can recompute from the table.

use std::fmt;

/// Two-sided 95 % quantile of the normal distribution.
pub const Z_95: f64 = 1.959_963_984_540_054;

/// Trials won, drawn and lost: what an estimate is made from.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Score {
    /// Won (1 point each).
    pub wins: u32,
    /// Drawn (½ point each).
    pub draws: u32,
    /// Lost (0 points).
    pub losses: u32,
}

impl Score {
    /// Trials in all.
    pub fn total(self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points: a win 1, a draw ½.
    pub fn points(self) -> f64 {
        f64::from(self.wins) + f64::from(self.draws) / 2.0
    }

    /// The score fraction, none without trials.
    pub fn fraction(self) -> Option<f64> {
        let total = self.total();
        (total > 0).then(|| self.points() / f64::from(total))
    }

    /// The Elo difference this score stands for, with its error bar.
    pub fn elo(self) -> Elo {
        let Some(p) = self.fraction() else {
            return Elo::Unrated;
        };
        if self.losses == 0 && self.draws == 0 {
            return Elo::AllWon;
        }
        if self.wins == 0 && self.draws == 0 {
            return Elo::AllLost;
        }
        let n = f64::from(self.total());
        let variance = (f64::from(self.wins) * (1.0 - p).powi(2)
            + f64::from(self.draws) * (0.5 - p).powi(2)
            + f64::from(self.losses) * p.powi(2))
            / n;
        rated(p, variance, n)
    }
}

/// The rating of a mean score `p` (strictly between 0 and 1) over `n`
/// trials whose scores vary by `variance` about it: `p` is known to
/// `± 1.96 · σ/√n` at 95 %, and the bar is half the Elo width of that
/// interval, infinite when it reaches a score of 0 or 1.
pub fn rated(p: f64, variance: f64, n: f64) -> Elo {
    let margin = Z_95 * (variance / n).sqrt();
    let (low, high) = (p - margin, p + margin);
    let error = if low <= 0.0 || high >= 1.0 {
        f64::INFINITY
    } else {
        (difference(high) - difference(low)) / 2.0
    };
    Elo::Rated {
        difference: difference(p),
        error,
    }
}

/// The Elo difference at which the logistic model expects the score
/// fraction `p`, strictly between 0 and 1 (±∞ at the ends). Written as
/// `log10(p / (1 − p))`, the same number, so that an even score is +0
/// rather than −0.
pub fn difference(p: f64) -> f64 {
    400.0 * (p / (1.0 - p)).log10()
}

/// An Elo difference and its 95 % error bar.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Elo {
    /// No trials: nothing to say.
    Unrated,
    /// Every trial won: +∞.
    AllWon,
    /// Every trial lost: −∞.
    AllLost,
    /// A finite difference; `error` is the half-width of its 95 %
    /// interval, infinite when that interval reaches a score of 0 or 1.
    Rated {
        /// Elo points.
        difference: f64,
        /// Elo points either side.
        error: f64,
    },
}

impl fmt::Display for Elo {
    /// `+70.4 ± 62.6`, `+inf`, `-inf` or `-` (unrated); the precision,
    /// if given, is the number of decimals (1 by default).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let decimals = f.precision().unwrap_or(1);
        match *self {
            Elo::Unrated => f.write_str("-"),
            Elo::AllWon => f.write_str("+inf"),
            Elo::AllLost => f.write_str("-inf"),
            Elo::Rated { difference, error } if error.is_finite() => {
                write!(f, "{difference:+.decimals$} ± {error:.decimals$}")
            }
            Elo::Rated { difference, .. } => write!(f, "{difference:+.decimals$} ± inf"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(wins: u32, draws: u32, losses: u32) -> Score {
        Score {
            wins,
            draws,
            losses,
        }
    }

    fn rated(elo: Elo) -> (f64, f64) {
        match elo {
            Elo::Rated { difference, error } => (difference, error),
            other => panic!("expected a finite rating, found {other:?}"),
        }
    }

    #[test]
    fn sixty_percent_over_a_hundred_games() {
        // 50 wins, 20 draws, 30 losses: p = (50 + 10) / 100 = 0.6, and
        // −400 · log10(1/0.6 − 1) = −400 · log10(2/3) = 70.437.
        // σ² = (50 · 0.4² + 20 · 0.1² + 30 · 0.6²) / 100
        //    = (8 + 0.2 + 10.8) / 100 = 0.19; σ/√n = 0.043589;
        // × 1.96 = 0.085433, so p is in [0.514567, 0.685433]:
        // Elo 10.125 to 135.300, half the width 62.588.
        let (difference, error) = rated(score(50, 20, 30).elo());
        assert!((difference - 70.437).abs() < 1e-3, "{difference}");
        assert!((error - 62.588).abs() < 1e-3, "{error}");
        assert_eq!(format!("{:.1}", score(50, 20, 30).elo()), "+70.4 ± 62.6");
        assert_eq!(format!("{:.0}", score(50, 20, 30).elo()), "+70 ± 63");
    }

    #[test]
    fn an_even_score_is_zero_and_the_bar_is_symmetric() {
        // 3-4-3: p = ½, σ² = (3 · ¼ + 0 + 3 · ¼) / 10 = 0.15, σ/√n =
        // 0.122474, × 1.96 = 0.240046: [0.259954, 0.740046], that is
        // Elo −181.74 to +181.74.
        let (difference, error) = rated(score(3, 4, 3).elo());
        assert!(difference.abs() < 1e-9, "{difference}");
        assert!((error - 181.74).abs() < 0.01, "{error}");
    }

    #[test]
    fn losing_is_the_mirror_of_winning() {
        let (up, up_error) = rated(score(50, 20, 30).elo());
        let (down, down_error) = rated(score(30, 20, 50).elo());
        assert!((up + down).abs() < 1e-9);
        assert!((up_error - down_error).abs() < 1e-9);
    }

    #[test]
    fn the_ends_are_infinite_and_no_games_unrated() {
        assert_eq!(score(0, 0, 0).elo(), Elo::Unrated);
        assert_eq!(score(0, 0, 0).fraction(), None);
        assert_eq!(score(4, 0, 0).elo(), Elo::AllWon);
        assert_eq!(score(0, 0, 4).elo(), Elo::AllLost);
        assert_eq!(score(4, 0, 0).elo().to_string(), "+inf");
        assert_eq!(Elo::Unrated.to_string(), "-");
        // All draws: exactly even, and no spread at all.
        assert_eq!(
            score(0, 5, 0).elo(),
            Elo::Rated {
                difference: 0.0,
                error: 0.0
            }
        );
    }

    #[test]
    fn a_bar_that_reaches_a_perfect_score_is_infinite() {
        // 1 win, 1 draw: p = 0.75, σ² = (0.0625 + 0.0625) / 2, σ/√2 =
        // 0.177, × 1.96 = 0.347: the interval passes 1.
        let elo = score(1, 1, 0).elo();
        let (difference, error) = rated(elo);
        assert!((difference - 190.85).abs() < 0.01, "{difference}");
        assert!(error.is_infinite());
        assert_eq!(format!("{elo:.0}"), "+191 ± inf");
    }
}
