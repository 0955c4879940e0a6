//! The match parameters (§2.1): the field, the container capacity, the
//! stock, the team clock and the game clock. Times are whole milliseconds
//! (§7.1).

use std::fmt;

use serde::{Deserialize, Serialize};

use super::field::Field;
use super::team::Role;
use super::turn::Seconds;

/// Capacities accepted (§2.1).
pub const CAPACITIES: std::ops::RangeInclusive<u32> = 1..=999;
/// Stocks accepted, per team (§2.1).
pub const STOCKS: std::ops::RangeInclusive<u32> = 0..=99;
/// Team clocks accepted, in ms: 0.001 s to one hour (§2.1).
pub const TEAM_TIMES: std::ops::RangeInclusive<u64> = 1..=3_600_000;
/// Game clocks accepted, in ms: 0.001 s to two hours (§2.1).
pub const GAME_TIMES: std::ops::RangeInclusive<u64> = 1..=7_200_000;
/// The team clock when none is given: 120 s (§2.1).
pub const DEFAULT_TEAM_TIME: u64 = 120_000;
/// The game clock when none is given: 180 s (§2.1).
pub const DEFAULT_GAME_TIME: u64 = 180_000;

/// Everything a game is played with, resolved from the match header and
/// the game's overrides.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Params {
    /// The initial counts.
    pub field: Field,
    /// Objects a container holds.
    pub capacity: u32,
    /// The stock of the first team, then of the second (§2.1: one number
    /// gives both the same).
    pub stock: Stock,
    /// Each team's clock, ms.
    pub team_time: u64,
    /// The game clock, ms.
    pub game_time: u64,
}

impl Params {
    /// Whether every parameter is within the range §2.1 allows (the field
    /// is by construction: a [`Field`] is only ever a valid one).
    pub fn check(&self) -> Result<(), ParamError> {
        check_capacity(self.capacity)?;
        check_stock(self.stock.first)?;
        check_stock(self.stock.second)?;
        check_team_time(self.team_time)?;
        check_game_time(self.game_time)?;
        Ok(())
    }
}

/// A parameter outside the range §2.1 allows. Its message is the one a
/// log's parameter line gets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParamError {
    /// Not one capacity in [`CAPACITIES`].
    Capacity,
    /// Not one or two stocks in [`STOCKS`].
    Stock,
    /// A team clock outside [`TEAM_TIMES`].
    TeamTime,
    /// A game clock outside [`GAME_TIMES`].
    GameTime,
}

impl fmt::Display for ParamError {
    // The ranges in the messages are the ranges checked, so that the two
    // cannot drift apart.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (lowest, highest) = (CAPACITIES.start(), CAPACITIES.end());
        let (none, most) = (STOCKS.start(), STOCKS.end());
        let seconds = |ms: &u64| Seconds(*ms);
        let whole_seconds = |ms: &u64| ms / 1000;
        match self {
            ParamError::Capacity => {
                write!(f, "capacity must be one number {lowest}..{highest} (§2.1)")
            }
            ParamError::Stock => write!(
                f,
                "stock must be one or two numbers {none}..{most} (first team's, then second's) (§2.1)"
            ),
            ParamError::TeamTime => write!(
                f,
                "team time must be {}..{} s (§2.1)",
                seconds(TEAM_TIMES.start()),
                whole_seconds(TEAM_TIMES.end())
            ),
            ParamError::GameTime => write!(
                f,
                "game time must be {}..{} s (§2.1)",
                seconds(GAME_TIMES.start()),
                whole_seconds(GAME_TIMES.end())
            ),
        }
    }
}

impl std::error::Error for ParamError {}

/// `value`, if `range` holds it; else `error`.
fn within<T: PartialOrd>(
    value: T,
    range: &std::ops::RangeInclusive<T>,
    error: ParamError,
) -> Result<T, ParamError> {
    if range.contains(&value) {
        Ok(value)
    } else {
        Err(error)
    }
}

/// `capacity`, if §2.1 allows it.
pub fn check_capacity(capacity: u32) -> Result<u32, ParamError> {
    within(capacity, &CAPACITIES, ParamError::Capacity)
}

/// One team's `stock`, if §2.1 allows it.
pub fn check_stock(stock: u32) -> Result<u32, ParamError> {
    within(stock, &STOCKS, ParamError::Stock)
}

/// A team clock of `ms`, if §2.1 allows it.
pub fn check_team_time(ms: u64) -> Result<u64, ParamError> {
    within(ms, &TEAM_TIMES, ParamError::TeamTime)
}

/// A game clock of `ms`, if §2.1 allows it.
pub fn check_game_time(ms: u64) -> Result<u64, ParamError> {
    within(ms, &GAME_TIMES, ParamError::GameTime)
}

/// The stock per role.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Stock {
    /// The first team's.
    pub first: u32,
    /// The second team's.
    pub second: u32,
}

impl Stock {
    /// The stock of the team in `role`.
    pub fn of(self, role: Role) -> u32 {
        match role {
            Role::First => self.first,
            Role::Second => self.second,
        }
    }
}
