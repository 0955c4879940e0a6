//! Who wins a match (§9.2–§9.4): the five criteria in order, from the two
//! games' results.

use serde::Serialize;

use crate::model::event::Event;
use crate::model::state::GameState;
use crate::model::team::{PerTeam, Team};

/// A game's results (§9.1), as its `GameEnd` event gives them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GameResult {
    /// Cells owned at the end.
    pub territory: PerTeam<u32>,
    /// Objects cleared.
    pub objects: PerTeam<u32>,
    /// Time charged, ms.
    pub time_used: PerTeam<u64>,
    /// More territory; none for a drawn game.
    pub winner: Option<Team>,
}

/// The match's totals and the decision (as `check --json` writes them,
/// without the janken).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct MatchResult {
    /// Games won.
    pub wins: PerTeam<u32>,
    /// Territory over both games.
    pub territory: PerTeam<u32>,
    /// Objects over both games.
    pub objects: PerTeam<u32>,
    /// Time over both games, ms.
    pub time_used: PerTeam<u64>,
    /// The winner, when a criterion separates the teams.
    pub winner: Option<Team>,
    /// The deciding criterion, 1 to 5.
    pub criterion: Option<u8>,
    /// The janken the log records, needed or not.
    #[serde(skip)]
    pub janken: Option<Team>,
}

/// The names of the five criteria of §9.2, by number.
pub const CRITERIA: [&str; 5] = [
    "two game wins",
    "territory total",
    "objects total",
    "time total",
    "janken",
];

impl MatchResult {
    /// Decides the match from its games' results and the janken the log
    /// records (§9.2). Criterion 1 decides only when a team won both games;
    /// otherwise criteria 2 to 4 in turn (§9.3); janken only when all four
    /// are level, and never drawn by the program (§9.4).
    pub fn decide(games: &[GameResult], janken: Option<Team>) -> MatchResult {
        let wins = PerTeam::from_fn(|team| {
            games
                .iter()
                .filter(|game| game.winner == Some(team))
                .count() as u32
        });
        let territory: PerTeam<u32> =
            PerTeam::from_fn(|team| games.iter().map(|g| g.territory[team]).sum());
        let objects: PerTeam<u32> =
            PerTeam::from_fn(|team| games.iter().map(|g| g.objects[team]).sum());
        let time_used: PerTeam<u64> =
            PerTeam::from_fn(|team| games.iter().map(|g| g.time_used[team]).sum());
        MatchResult::from_totals(
            games.len() as u32,
            wins,
            territory,
            objects,
            time_used,
            janken,
        )
    }

    /// Decides a match of `games` games from its totals alone, as
    /// [`MatchResult::decide`] does: what a result written down without
    /// its games (a tournament's results line) must agree with.
    pub fn from_totals(
        games: u32,
        wins: PerTeam<u32>,
        territory: PerTeam<u32>,
        objects: PerTeam<u32>,
        time_used: PerTeam<u64>,
        janken: Option<Team>,
    ) -> MatchResult {
        let more = |a: u64, b: u64| match a.cmp(&b) {
            std::cmp::Ordering::Greater => Some(Team::A),
            std::cmp::Ordering::Less => Some(Team::B),
            std::cmp::Ordering::Equal => None,
        };
        let two_wins = Team::BOTH
            .into_iter()
            .find(|&team| wins[team] == games && games > 0);
        let decided = two_wins
            .map(|team| (team, 1))
            .or_else(|| more(territory.a.into(), territory.b.into()).map(|team| (team, 2)))
            .or_else(|| more(objects.a.into(), objects.b.into()).map(|team| (team, 3)))
            .or_else(|| more(time_used.b, time_used.a).map(|team| (team, 4)))
            .or_else(|| janken.map(|team| (team, 5)));
        MatchResult {
            wins,
            territory,
            objects,
            time_used,
            winner: decided.map(|(team, _)| team),
            criterion: decided.map(|(_, criterion)| criterion),
            janken,
        }
    }

    /// True when criteria 1 to 4 leave the teams level.
    pub fn needs_janken(&self) -> bool {
        matches!(self.criterion, None | Some(5))
    }

    /// The `MatchEnd` event of this result.
    pub fn event(&self) -> Event {
        Event::MatchEnd {
            wins: self.wins,
            territory: self.territory,
            objects: self.objects,
            time_used: self.time_used,
            winner: self.winner,
            criterion: self.criterion,
            janken: self.janken,
        }
    }

    /// The result a `MatchEnd` event carries, or `None` for another event.
    pub fn of(event: &Event) -> Option<MatchResult> {
        match *event {
            Event::MatchEnd {
                wins,
                territory,
                objects,
                time_used,
                winner,
                criterion,
                janken,
            } => Some(MatchResult {
                wins,
                territory,
                objects,
                time_used,
                winner,
                criterion,
                janken,
            }),
            _ => None,
        }
    }
}

impl GameResult {
    /// A game's results from its totals: the team with more territory
    /// wins the game, equal territory is a drawn game (§9.1).
    pub fn from_totals(
        territory: PerTeam<u32>,
        objects: PerTeam<u32>,
        time_used: PerTeam<u64>,
    ) -> GameResult {
        let winner = match territory.a.cmp(&territory.b) {
            std::cmp::Ordering::Greater => Some(Team::A),
            std::cmp::Ordering::Less => Some(Team::B),
            std::cmp::Ordering::Equal => None,
        };
        GameResult {
            territory,
            objects,
            time_used,
            winner,
        }
    }

    /// The results of the game as `state` stands (its results once it has
    /// ended).
    pub fn of_state(state: &GameState) -> GameResult {
        GameResult::from_totals(
            PerTeam::from_fn(|team| state.territory(team)),
            state.cleared,
            state.time_used,
        )
    }

    /// The results a `GameEnd` event carries, or `None` for another event.
    pub fn of(event: &Event) -> Option<GameResult> {
        match *event {
            Event::GameEnd {
                territory,
                objects,
                time_used,
                winner,
                ..
            } => Some(GameResult {
                territory,
                objects,
                time_used,
                winner,
            }),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn game(territory: (u32, u32), objects: (u32, u32), time: (u64, u64)) -> GameResult {
        GameResult::from_totals(
            PerTeam {
                a: territory.0,
                b: territory.1,
            },
            PerTeam {
                a: objects.0,
                b: objects.1,
            },
            PerTeam {
                a: time.0,
                b: time.1,
            },
        )
    }

    #[test]
    fn the_worked_example_is_decided_by_objects() {
        // §11.5: 1-1, 11-11 territory, objects 14 to 20.
        let games = [
            game((5, 6), (8, 10), (20_000, 16_000)),
            game((6, 5), (6, 10), (18_000, 18_000)),
        ];
        let result = MatchResult::decide(&games, None);
        assert_eq!((result.winner, result.criterion), (Some(Team::B), Some(3)));
        assert_eq!(result.wins, PerTeam { a: 1, b: 1 });
        assert_eq!(result.territory, PerTeam { a: 11, b: 11 });
    }

    #[test]
    fn each_criterion_in_turn() {
        let two = [game((3, 1), (0, 9), (9, 1)), game((2, 1), (0, 9), (9, 1))];
        assert_eq!(MatchResult::decide(&two, None).criterion, Some(1));
        // One win and one drawn game: criterion 2, never 1 (§9.3).
        let win_and_draw = [game((3, 1), (0, 0), (0, 0)), game((2, 2), (0, 0), (0, 0))];
        let result = MatchResult::decide(&win_and_draw, None);
        assert_eq!((result.winner, result.criterion), (Some(Team::A), Some(2)));
        let time = [
            game((1, 1), (4, 4), (10, 20)),
            game((1, 1), (4, 4), (10, 20)),
        ];
        let result = MatchResult::decide(&time, None);
        assert_eq!((result.winner, result.criterion), (Some(Team::A), Some(4)));
        let level = [
            game((1, 1), (4, 4), (10, 10)),
            game((1, 1), (4, 4), (10, 10)),
        ];
        let result = MatchResult::decide(&level, None);
        assert_eq!((result.winner, result.criterion), (None, None));
        assert!(result.needs_janken());
        let result = MatchResult::decide(&level, Some(Team::B));
        assert_eq!((result.winner, result.criterion), (Some(Team::B), Some(5)));
        // A janken that was not needed changes nothing.
        let result = MatchResult::decide(&time, Some(Team::B));
        assert_eq!((result.winner, result.criterion), (Some(Team::A), Some(4)));
        assert!(!result.needs_janken());
    }
}
