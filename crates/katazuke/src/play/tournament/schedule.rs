//! Who meets whom: the format, the pairings in a fixed order, and the
//! limits on a schedule's size.

use std::fmt;
use std::str::FromStr;

use super::{Tournament, TournamentError};
use crate::model::team::Team;

/// The most matches a schedule may hold. The schedule, and on a resumed
/// run every result, are kept in memory; a million matches is already
/// days of play for programs that take a second a game.
pub const MAX_MATCHES: usize = 1_000_000;

/// The most entrants a tournament may have: its cross table has a cell
/// for every two of them, and a column each when printed.
pub const MAX_ENTRANTS: usize = 1_000;

/// Who meets whom.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TournamentKind {
    /// Every entrant against every other.
    RoundRobin,
    /// The first entrant against each of the others: a new player
    /// measured against a set of known ones.
    Gauntlet,
}

impl TournamentKind {
    /// `round-robin` or `gauntlet`.
    pub const fn name(self) -> &'static str {
        match self {
            TournamentKind::RoundRobin => "round-robin",
            TournamentKind::Gauntlet => "gauntlet",
        }
    }

    /// How many pairs of `entrants` meet.
    pub(super) fn pairs_among(self, entrants: usize) -> u128 {
        let n = entrants as u128;
        match self {
            TournamentKind::RoundRobin => n * n.saturating_sub(1) / 2,
            TournamentKind::Gauntlet => n.saturating_sub(1),
        }
    }
}

impl fmt::Display for TournamentKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for TournamentKind {
    type Err = String;

    fn from_str(text: &str) -> Result<TournamentKind, String> {
        match text {
            "round-robin" => Ok(TournamentKind::RoundRobin),
            "gauntlet" => Ok(TournamentKind::Gauntlet),
            _ => Err(format!(
                "unknown tournament format {text:?}: round-robin or gauntlet"
            )),
        }
    }
}

/// One match of the schedule: entrant `a` as team A against `b` as team B
/// on field `field`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    /// Its place in the schedule, from 0.
    pub index: usize,
    /// Team A's entrant.
    pub a: usize,
    /// Team B's entrant.
    pub b: usize,
    /// The field, an index into [`Tournament::fields`].
    pub field: usize,
}

impl Pairing {
    /// The entrant playing `team`.
    pub fn entrant(&self, team: Team) -> usize {
        match team {
            Team::A => self.a,
            Team::B => self.b,
        }
    }
}

impl Tournament {
    /// Every match to play, in a fixed order: field by field, and on each
    /// field the pairs in entrant order, so that a run cut short has
    /// played every pair about equally often. Refused when there would be
    /// more than [`MAX_MATCHES`].
    pub fn schedule(&self) -> Result<Vec<Pairing>, TournamentError> {
        self.check_size()?;
        Ok(schedule_of(
            self.kind,
            self.entrants.len(),
            self.fields.len(),
        ))
    }

    /// The number of matches, if it is within [`MAX_MATCHES`] and the
    /// entrants within [`MAX_ENTRANTS`]: counted before anything the size
    /// of the schedule is made.
    pub(super) fn check_size(&self) -> Result<usize, TournamentError> {
        let (entrants, fields) = (self.entrants.len(), self.fields.len());
        let matches = self.kind.pairs_among(entrants) * fields as u128;
        if matches > MAX_MATCHES as u128 {
            return Err(TournamentError::Setup(format!(
                "a {} of {entrants} entrants on {fields} field{} is {matches} matches; \
                 a tournament may have at most {MAX_MATCHES} (fewer entrants or fields)",
                self.kind,
                if fields == 1 { "" } else { "s" },
            )));
        }
        if entrants > MAX_ENTRANTS {
            return Err(TournamentError::Setup(format!(
                "{entrants} entrants: a tournament may have at most {MAX_ENTRANTS} \
                 (its cross table has a row and a column for each)"
            )));
        }
        // Within MAX_MATCHES, so within usize.
        Ok(matches as usize)
    }
}

/// The schedule of a `kind` of `entrants` over `fields` (see
/// [`Tournament::schedule`]), its size checked by the caller.
pub(super) fn schedule_of(kind: TournamentKind, entrants: usize, fields: usize) -> Vec<Pairing> {
    let pairs = pairs_of(kind, entrants);
    let mut schedule = Vec::with_capacity(pairs.len() * fields);
    for field in 0..fields {
        for &(earlier, later) in &pairs {
            let (a, b) = if field % 2 == 0 {
                (earlier, later)
            } else {
                (later, earlier)
            };
            schedule.push(Pairing {
                index: schedule.len(),
                a,
                b,
                field,
            });
        }
    }
    schedule
}

/// The pairs that meet, the earlier entrant first.
fn pairs_of(kind: TournamentKind, n: usize) -> Vec<(usize, usize)> {
    match kind {
        TournamentKind::RoundRobin => (0..n)
            .flat_map(|i| (i + 1..n).map(move |j| (i, j)))
            .collect(),
        TournamentKind::Gauntlet => (1..n).map(|j| (0, j)).collect(),
    }
}
