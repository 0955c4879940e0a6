//! The match parameters (§2.1): the field, the container capacity, the
//! stock, the team clock and the game clock. Times are whole milliseconds
//! (§7.1).

use serde::{Deserialize, Serialize};

use super::field::Field;
use super::team::Role;

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
