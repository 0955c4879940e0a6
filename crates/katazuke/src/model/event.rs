//! What happens in a match (§12): refereeing a log produces these events,
//! a game's state is a fold over them, and results, frames and messages are
//! derived from them. [`Entry`] is one line of `katazuke events`, written and read as JSON by
//! [`crate::formats::event_json`].

use std::fmt;

use super::code::Code;
use super::field::{Cell, Field};
use super::params::{Params, Stock};
use super::team::{PerTeam, Role, Team};
use super::turn::Item;

/// Why a game ended (§8.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum End {
    /// No cell holds any object.
    Cleared,
    /// The game clock is 0.
    Time,
    /// Both teams are out of time.
    BothOut,
}

impl End {
    /// `cleared`, `time` or `both-out`, as in JSON.
    pub const fn name(self) -> &'static str {
        match self {
            End::Cleared => "cleared",
            End::Time => "time",
            End::BothOut => "both-out",
        }
    }

    /// The end named so by [`End::name`].
    pub fn from_name(name: &str) -> Option<End> {
        [End::Cleared, End::Time, End::BothOut]
            .into_iter()
            .find(|end| end.name() == name)
    }
}

impl fmt::Display for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The match's parameters as its header gives them: a game may override
/// each, so any may be absent here.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HeaderParams {
    /// The field, if the header gives one.
    pub field: Option<Field>,
    /// The capacity, if given.
    pub capacity: Option<u32>,
    /// The stock, if given.
    pub stock: Option<Stock>,
    /// The team clock, ms (the default when not given).
    pub team_time: u64,
    /// The game clock, ms (the default when not given).
    pub game_time: u64,
}

/// What the match begins with.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchStart {
    /// The teams' names.
    pub teams: PerTeam<String>,
    /// The header's parameters.
    pub params: HeaderParams,
}

/// What a game begins with, after the start cells were cleared (§3).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameStart {
    /// Who takes turn 1.
    pub first: Team,
    /// The field's counts after §3.2.
    pub field: Vec<Vec<u32>>,
    /// Each team's start cells.
    pub start: PerTeam<Vec<Cell>>,
    /// Each team's current territory.
    pub current: PerTeam<Cell>,
    /// The objects removed from each start cell.
    pub removed: Vec<Item>,
    /// The game's parameters, resolved.
    pub params: Params,
}

/// One thing that happens (§12.2). Events inside a turn carry the game
/// time of the turn's start; `TurnEnd` the time after charging.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// The match begins (boxed, as it is large and comes once).
    MatchStart(Box<MatchStart>),
    /// A game begins, after the start cells were cleared (§3).
    GameStart(Box<GameStart>),
    /// A turn begins.
    TurnStart {
        /// Whose turn.
        team: Team,
        /// Its role in this game.
        role: Role,
        /// Its clock, ms.
        team_left: u64,
        /// The game clock, ms.
        game_left: u64,
    },
    /// Objects cleared into the team's container.
    Clear {
        /// Who cleared.
        team: Team,
        /// From where, how many.
        items: Vec<Item>,
        /// The container's load after.
        load: u32,
    },
    /// A cell whose last object the team cleared is its territory.
    Claim {
        /// The new owner.
        team: Team,
        /// The cell.
        cell: Cell,
    },
    /// Objects placed from the team's stock.
    Place {
        /// Who placed.
        team: Team,
        /// Where, how many.
        items: Vec<Item>,
        /// The stock left after.
        stock: u32,
    },
    /// A territory cell became neutral: objects were placed on it.
    Cancel {
        /// The cell.
        cell: Cell,
        /// The team that lost it.
        owner: Team,
        /// It was that team's current territory.
        was_current: bool,
    },
    /// The team's current territory moved.
    Move {
        /// The team whose current territory moved.
        team: Team,
        /// From where (none when the team had none).
        from: Option<Cell>,
        /// To where.
        to: Cell,
    },
    /// The team emptied its container.
    Empty {
        /// The team that emptied its container.
        team: Team,
        /// Objects emptied.
        amount: u32,
    },
    /// The team did nothing.
    Pass {
        /// The team that passed.
        team: Team,
    },
    /// The turn ran out of time: nothing of it was applied (§7.2, §7.3).
    Timeout {
        /// The team whose turn ran out of time.
        team: Team,
        /// The duration recorded, ms, or none for a `timeout` turn.
        recorded: Option<u64>,
        /// The time charged: all that was left.
        charged: u64,
    },
    /// An illegal turn, counted as a pass (`--illegal=pass`, §10.5).
    Illegal {
        /// The team whose turn broke a rule.
        team: Team,
        /// The rule broken.
        code: Code,
        /// What was wrong.
        message: String,
    },
    /// The team's clock reached 0: it takes no more turns (§7.4).
    TeamOut {
        /// The team that is out of time.
        team: Team,
    },
    /// A turn ends: its time is charged.
    TurnEnd {
        /// Whose turn it was.
        team: Team,
        /// Ms taken from its clock and the game clock.
        charged: u64,
        /// Both clocks after.
        team_left: PerTeam<u64>,
        /// The game clock after.
        game_left: u64,
        /// The turn's comment in the log, if any.
        comment: Option<String>,
    },
    /// A game ends (§8, §9.1).
    GameEnd {
        /// What ended it: the board, the game clock or both teams' clocks.
        reason: End,
        /// Cells owned at the end.
        territory: PerTeam<u32>,
        /// Objects cleared.
        objects: PerTeam<u32>,
        /// Time charged, ms.
        time_used: PerTeam<u64>,
        /// More territory; none for a drawn game.
        winner: Option<Team>,
    },
    /// The match ends (§9.2).
    MatchEnd {
        /// Games won.
        wins: PerTeam<u32>,
        /// Territory over both games.
        territory: PerTeam<u32>,
        /// Objects over both games.
        objects: PerTeam<u32>,
        /// Time over both games, ms.
        time_used: PerTeam<u64>,
        /// The winner, if a criterion decides.
        winner: Option<Team>,
        /// The deciding criterion, 1 to 5.
        criterion: Option<u8>,
        /// The janken winner the log records, if any.
        janken: Option<Team>,
    },
}

impl Event {
    /// The `ev` of the event's line.
    pub const fn name(&self) -> &'static str {
        match self {
            Event::MatchStart { .. } => "match_start",
            Event::GameStart { .. } => "game_start",
            Event::TurnStart { .. } => "turn_start",
            Event::Clear { .. } => "clear",
            Event::Claim { .. } => "claim",
            Event::Place { .. } => "place",
            Event::Cancel { .. } => "cancel",
            Event::Move { .. } => "move",
            Event::Empty { .. } => "empty",
            Event::Pass { .. } => "pass",
            Event::Timeout { .. } => "timeout",
            Event::Illegal { .. } => "illegal",
            Event::TeamOut { .. } => "team_out",
            Event::TurnEnd { .. } => "turn_end",
            Event::GameEnd { .. } => "game_end",
            Event::MatchEnd { .. } => "match_end",
        }
    }
}

/// An event and where in the match it happens: one line of the event log.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The game, 1 or 2; none for the match's own events.
    pub game: Option<u8>,
    /// The turn, from 1 (0 before the first).
    pub turn: u32,
    /// Game time elapsed, ms.
    pub t: u64,
    /// What happened.
    pub event: Event,
}
