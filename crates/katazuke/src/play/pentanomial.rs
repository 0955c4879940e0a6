//! Pair statistics: a match is two games on one field with the roles
//! swapped, so its two game results are not independent (a field that
//! favours one start favours it in both games). Counting matches by the
//! points their two games give one entrant, 0, ½, 1, 1½ or 2, makes five
//! classes (the pentanomial model of fishtest and fastchess's
//! `-report penta=true`), and the spread of those pair scores, not of
//! single games, is what the error bar and the SPRT are computed from.
//!
//! A pair scores its points over 2: `s = (WW + ¾·WD + ½·(WL + DD) + ¼·LD) / n`
//! over `n` pairs, the variance is that of the five pair scores about
//! `s`, and the Elo bar is computed from it as [`super::elo`] does for
//! single results.

use std::fmt;

use super::elo::{rated, Elo};

/// Matches counted by what their two games gave one entrant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Pairs {
    /// Both games lost: 0 points.
    pub lost_lost: u32,
    /// One lost, one drawn: ½.
    pub lost_drawn: u32,
    /// One won, one lost: 1.
    pub won_lost: u32,
    /// Both drawn: 1.
    pub drawn_drawn: u32,
    /// One won, one drawn: 1½.
    pub won_drawn: u32,
    /// Both won: 2.
    pub won_won: u32,
}

impl Pairs {
    /// Counts one match in which the entrant won `won` games and lost
    /// `lost` (the rest of the two drawn).
    pub fn add(&mut self, won: u32, lost: u32) {
        let slot = match (won, lost) {
            (0, 2..) => &mut self.lost_lost,
            (0, 1) => &mut self.lost_drawn,
            (0, 0) => &mut self.drawn_drawn,
            (1, 1..) => &mut self.won_lost,
            (1, 0) => &mut self.won_drawn,
            (2.., _) => &mut self.won_won,
        };
        *slot += 1;
    }

    /// The same matches seen from the other entrant.
    pub fn reversed(self) -> Pairs {
        Pairs {
            lost_lost: self.won_won,
            lost_drawn: self.won_drawn,
            won_lost: self.won_lost,
            drawn_drawn: self.drawn_drawn,
            won_drawn: self.lost_drawn,
            won_won: self.lost_lost,
        }
    }

    /// Pairs in all.
    pub fn total(self) -> u32 {
        self.classes().iter().sum()
    }

    /// The five classes by pair score, 0 to 2 points: LL, LD, WL + DD, WD,
    /// WW (what fastchess prints as `Ptnml(0-2)`).
    pub fn classes(self) -> [u32; 5] {
        [
            self.lost_lost,
            self.lost_drawn,
            self.won_lost + self.drawn_drawn,
            self.won_drawn,
            self.won_won,
        ]
    }

    /// The score fraction per pair, none without pairs.
    pub fn fraction(self) -> Option<f64> {
        let total = self.total();
        (total > 0).then(|| {
            let points: f64 = self
                .classes()
                .iter()
                .zip(PAIR_SCORES)
                .map(|(&count, score)| f64::from(count) * score)
                .sum();
            points / f64::from(total)
        })
    }

    /// The Elo difference the pairs stand for, with its 95 % error bar
    /// from the spread of the pair scores.
    pub fn elo(self) -> Elo {
        let Some(p) = self.fraction() else {
            return Elo::Unrated;
        };
        if p >= 1.0 {
            return Elo::AllWon;
        }
        if p <= 0.0 {
            return Elo::AllLost;
        }
        let n = f64::from(self.total());
        let variance: f64 = self
            .classes()
            .iter()
            .zip(PAIR_SCORES)
            .map(|(&count, score)| f64::from(count) * (score - p).powi(2))
            .sum::<f64>()
            / n;
        rated(p, variance, n)
    }

    /// Pairs of these counts: LL, LD, WL, DD, WD, WW.
    pub fn from_counts([ll, ld, wl, dd, wd, ww]: [u32; 6]) -> Pairs {
        Pairs {
            lost_lost: ll,
            lost_drawn: ld,
            won_lost: wl,
            drawn_drawn: dd,
            won_drawn: wd,
            won_won: ww,
        }
    }
}

/// What each class of [`Pairs::classes`] scores, over 2.
pub const PAIR_SCORES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

impl fmt::Display for Pairs {
    /// `[LL, LD, WL+DD, WD, WW]`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [ll, ld, even, wd, ww] = self.classes();
        write!(f, "[{ll}, {ld}, {even}, {wd}, {ww}]")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs(ll: u32, ld: u32, wl: u32, dd: u32, wd: u32, ww: u32) -> Pairs {
        Pairs::from_counts([ll, ld, wl, dd, wd, ww])
    }

    fn rated(elo: Elo) -> (f64, f64) {
        match elo {
            Elo::Rated { difference, error } => (difference, error),
            other => panic!("expected a finite rating, found {other:?}"),
        }
    }

    #[test]
    fn the_published_pentanomial_figures() {
        // fastchess's tests (app/tests/elo_test.cpp), counts LL, LD, WL,
        // DD, WD, WW: 55.58 ± 27.65, −8.64 ± 10.33, −21.04 ± 2.95, and
        // scores 0.579, 0.488, 0.470.
        for (counts, elo, error, score) in [
            ((34, 54, 31, 32, 64, 75), 55.58, 27.65, 0.579),
            ((332, 433, 457, 41, 333, 334), -8.64, 10.33, 0.488),
            ((7895, 8757, 5485, 200, 568, 9999), -21.04, 2.95, 0.470),
        ] {
            let (ll, ld, wl, dd, wd, ww) = counts;
            let found = pairs(ll, ld, wl, dd, wd, ww);
            let (difference, bar) = rated(found.elo());
            assert!((difference - elo).abs() < 0.01, "{counts:?}: {difference}");
            assert!((bar - error).abs() < 0.01, "{counts:?}: {bar}");
            let fraction = found.fraction().unwrap_or_default();
            assert!((fraction - score).abs() < 0.0005, "{counts:?}: {fraction}");
        }
    }

    #[test]
    fn a_match_lands_in_the_class_of_its_points() {
        let mut counted = Pairs::default();
        for (won, lost) in [(0, 2), (0, 1), (1, 1), (0, 0), (1, 0), (2, 0), (2, 0)] {
            counted.add(won, lost);
        }
        assert_eq!(counted, pairs(1, 1, 1, 1, 1, 2));
        assert_eq!(counted.classes(), [1, 1, 2, 1, 2]);
        assert_eq!(counted.to_string(), "[1, 1, 2, 1, 2]");
        assert_eq!(counted.reversed().classes(), [2, 1, 2, 1, 1]);
        assert_eq!(counted.total(), 7);
    }

    #[test]
    fn pairs_that_agree_have_a_narrower_bar_than_their_games_alone() {
        // 20 pairs, each one win and one loss, is an even score known
        // exactly: the games (20 won, 20 lost) alone would not say so.
        let even = pairs(0, 0, 20, 0, 0, 0);
        assert_eq!(
            even.elo(),
            Elo::Rated {
                difference: 0.0,
                error: 0.0
            }
        );
        let games = super::super::elo::Score {
            wins: 20,
            draws: 0,
            losses: 20,
        };
        assert!(rated(games.elo()).1 > 100.0);
        assert_eq!(pairs(0, 0, 0, 0, 0, 3).elo(), Elo::AllWon);
        assert_eq!(pairs(2, 0, 0, 0, 0, 0).elo(), Elo::AllLost);
        assert_eq!(Pairs::default().elo(), Elo::Unrated);
    }
}
