//! A sequential test over a tournament of two entrants: the SPRT reads
//! the matches in the schedule's order, the longest run of them finished
//! from the first, so that where it stops, and what it says there, does
//! not depend on how many matches were played at once or which of them
//! ended first. Matches past that run wait, counted, until the ones
//! before them end.

use super::{MatchOutcome, Pairing};
use crate::model::team::Team;
use crate::play::pentanomial::Pairs;
use crate::play::sprt::{Decision, Sprt, SprtStatus};

/// A test being read match by match.
pub(super) struct SequentialTest {
    test: Sprt,
    /// Each match's games won and lost by the first entrant, by index,
    /// once it has ended.
    games: Vec<Option<(u32, u32)>>,
    /// How many matches from the first have all ended and been read.
    read: usize,
    pairs: Pairs,
    /// The decision reached, frozen: matches that end after it are in the
    /// standings but not in the test.
    reached: Option<SprtStatus>,
}

impl SequentialTest {
    pub(super) fn new(test: Sprt, schedule_len: usize) -> SequentialTest {
        SequentialTest {
            test,
            games: vec![None; schedule_len],
            read: 0,
            pairs: Pairs::default(),
            reached: None,
        }
    }

    /// Takes `outcome`, the match of `pairing`, and says where the test
    /// stands over the matches read so far.
    pub(super) fn record(&mut self, pairing: &Pairing, outcome: &MatchOutcome) -> SprtStatus {
        let first = if pairing.a == 0 { Team::A } else { Team::B };
        if let Some(slot) = self.games.get_mut(pairing.index) {
            *slot = Some((outcome.wins[first], outcome.wins[first.other()]));
        }
        self.status()
    }

    /// Where the test stands: frozen at its decision once it has one.
    pub(super) fn status(&mut self) -> SprtStatus {
        if let Some(reached) = self.reached {
            return reached;
        }
        let mut status = self.test.status(self.pairs);
        while status.decision == Decision::Continue {
            let Some(&Some((won, lost))) = self.games.get(self.read) else {
                break;
            };
            self.pairs.add(won, lost);
            self.read += 1;
            status = self.test.status(self.pairs);
        }
        if status.decision != Decision::Continue {
            self.reached = Some(status);
        }
        status
    }
}
