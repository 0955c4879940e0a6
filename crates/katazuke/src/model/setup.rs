//! What a match is played with: as a parameters file gives it ([`Setup`],
//! unchecked) and as it is played ([`MatchSetup`], checked: one set of
//! parameters within §2.1's ranges for both games, and both games' starts).

use std::fmt;

use super::event::{GameStart, MatchStart};
use super::field::{Cell, Size};
use super::params::{ParamError, Params};
use super::team::{PerTeam, Team};

/// How one game is to begin (§3.1): who takes turn 1 and each team's start
/// cells. The game's [`GameStart`] event is what it began with once the
/// start cells were cleared (§3.2).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameSetup {
    /// Who takes turn 1.
    pub first: Team,
    /// Each team's start cells: one for the first, two for the second.
    pub start: PerTeam<Vec<Cell>>,
    /// Each team's current one.
    pub current: PerTeam<Cell>,
}

impl GameSetup {
    /// The game of `cells` (the first team's cell, then the second's two,
    /// the first of them current) with `first` first.
    pub fn of_cells(first: Team, cells: [Cell; 3]) -> GameSetup {
        let second = first.other();
        let mut start = PerTeam::<Vec<Cell>>::default();
        start[first] = vec![cells[0]];
        start[second] = vec![cells[1], cells[2]];
        let mut current = PerTeam {
            a: cells[0],
            b: cells[0],
        };
        current[second] = cells[1];
        GameSetup {
            first,
            start,
            current,
        }
    }

    /// The same game with the teams' roles exchanged: each starts from the
    /// other's cells, and the other team is first (game 2 of a match whose
    /// record names only game 1's starts).
    pub fn swapped(&self) -> GameSetup {
        GameSetup {
            first: self.first.other(),
            start: PerTeam::from_fn(|team| self.start[team.other()].clone()),
            current: PerTeam::from_fn(|team| self.current[team.other()]),
        }
    }

    /// Game 1 with A first on `cells`, and game 2 the same cells with B
    /// first: each team plays each role from the same start.
    pub fn swapped_pair(cells: [Cell; 3]) -> [GameSetup; 2] {
        [
            GameSetup::of_cells(Team::A, cells),
            GameSetup::of_cells(Team::B, cells),
        ]
    }

    /// How the game that began with `start` was set up.
    pub fn of_start(start: &GameStart) -> GameSetup {
        GameSetup {
            first: start.first,
            start: start.start.clone(),
            current: start.current,
        }
    }
}

/// What a parameters file says a match is played with (§15.1 `--params`),
/// unchecked: the header's names and parameters, any of them missing, and
/// both games' starts when the file gives them (each game with its own
/// parameters). [`MatchSetup::from_setup`] makes a match of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The header.
    pub start: MatchStart,
    /// None, or the games' starts, in order.
    pub games: Vec<GameStart>,
}

/// Why a setup cannot be played as a match.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SetupProblem {
    /// Its two games have different parameters; a match is played with one
    /// set for both.
    GamesDiffer,
    /// It gives one game's `first:` and start lines but not the other's.
    OneGameOnly,
    /// Its header lacks a parameter without a default (§2.1): `field`,
    /// `capacity` or `stock`.
    Missing(&'static str),
    /// A parameter is outside the range §2.1 allows.
    OutOfRange(ParamError),
}

impl fmt::Display for SetupProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupProblem::GamesDiffer => {
                f.write_str("the two games have different parameters; play takes one set for both")
            }
            SetupProblem::OneGameOnly => {
                f.write_str("give both games' first: and start lines, or neither")
            }
            SetupProblem::Missing(what) => write!(f, "the parameters give no {what} (§2.1)"),
            SetupProblem::OutOfRange(error) => error.fmt(f),
        }
    }
}

impl std::error::Error for SetupProblem {}

/// What a match is played with, checked: one set of parameters for both
/// games, each within the range §2.1 allows, and both games' starts. Made
/// only by [`MatchSetup::new`] and [`MatchSetup::from_setup`], so that a
/// match in code is held to the same ranges as a match read from a file.
/// Whether the start cells are ones §3.1 allows is the referee's to say
/// when the game begins.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MatchSetup {
    params: Params,
    games: [GameSetup; 2],
}

impl MatchSetup {
    /// The match of `params` and `games`, if the parameters are within
    /// §2.1's ranges.
    pub fn new(params: Params, games: [GameSetup; 2]) -> Result<MatchSetup, SetupProblem> {
        params.check().map_err(SetupProblem::OutOfRange)?;
        Ok(MatchSetup { params, games })
    }

    /// The match a parameters file sets up: the parameters both its games
    /// share, and its games' starts, or when it gives none, those `starts`
    /// makes for the field's size.
    pub fn from_setup(
        setup: &Setup,
        starts: impl FnOnce(Size) -> [GameSetup; 2],
    ) -> Result<MatchSetup, SetupProblem> {
        let (params, games) = match setup.games.as_slice() {
            [] => {
                let header = &setup.start.params;
                let params = Params {
                    field: header.field.clone().ok_or(SetupProblem::Missing("field"))?,
                    capacity: header.capacity.ok_or(SetupProblem::Missing("capacity"))?,
                    stock: header.stock.ok_or(SetupProblem::Missing("stock"))?,
                    team_time: header.team_time,
                    game_time: header.game_time,
                };
                let games = starts(params.field.size());
                (params, games)
            }
            [one, two] if one.params != two.params => return Err(SetupProblem::GamesDiffer),
            [one, two] => (
                one.params.clone(),
                [GameSetup::of_start(one), GameSetup::of_start(two)],
            ),
            _ => return Err(SetupProblem::OneGameOnly),
        };
        MatchSetup::new(params, games)
    }

    /// The same parameters with other starts.
    pub fn with_games(&self, games: [GameSetup; 2]) -> MatchSetup {
        MatchSetup {
            params: self.params.clone(),
            games,
        }
    }

    /// The parameters both games are played with.
    pub fn params(&self) -> &Params {
        &self.params
    }

    /// How game 1 and game 2 begin.
    pub fn games(&self) -> &[GameSetup; 2] {
        &self.games
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::reader::read_setup;

    const HEADER: &str = "katazuke 1\ncapacity: 4\nstock: 2\nfield:\n  1 2 1\n  2 1 3\n  1 3 1\n";

    #[test]
    fn game_one_swapped_is_game_two_of_a_swapped_pair_and_back() {
        let size = Size {
            rows: 3,
            columns: 3,
        };
        let [one, two] = GameSetup::swapped_pair([size.cell(0), size.cell(4), size.cell(8)]);
        assert_eq!(one.swapped(), two);
        assert_eq!(two.swapped(), one);
    }

    fn centre_start(size: Size) -> [GameSetup; 2] {
        GameSetup::swapped_pair([size.cell(4), size.cell(3), size.cell(5)])
    }

    #[test]
    fn a_header_alone_gives_its_parameters_and_the_starts_asked_for() {
        let setup = read_setup(HEADER.as_bytes()).expect("a setup");
        let checked = MatchSetup::from_setup(&setup, centre_start).expect("playable");
        assert_eq!(
            (
                checked.params().capacity,
                checked.params().field.size().to_string()
            ),
            (4, "3x3".into())
        );
        assert_eq!(checked.games()[0].first, Team::A);
        assert_eq!(checked.games()[0].start.a[0].to_string(), "b2");
        let no_stock = HEADER.replace("stock: 2\n", "");
        let setup = read_setup(no_stock.as_bytes()).expect("a setup");
        assert_eq!(
            MatchSetup::from_setup(&setup, centre_start),
            Err(SetupProblem::Missing("stock"))
        );
    }

    #[test]
    fn a_match_in_code_is_held_to_the_ranges_a_log_is() {
        let setup = read_setup(HEADER.as_bytes()).expect("a setup");
        let checked = MatchSetup::from_setup(&setup, centre_start).expect("playable");
        let games = checked.games().clone();
        for (change, error) in [
            (
                (|params: &mut Params| params.capacity = 0) as fn(&mut Params),
                ParamError::Capacity,
            ),
            (|params| params.stock.second = 100, ParamError::Stock),
            (|params| params.team_time = 3_600_001, ParamError::TeamTime),
            (|params| params.game_time = 0, ParamError::GameTime),
        ] {
            let mut params = checked.params().clone();
            change(&mut params);
            assert_eq!(
                MatchSetup::new(params, games.clone()),
                Err(SetupProblem::OutOfRange(error))
            );
            // The message is the one a log's parameter line gets.
            let (given, wrong) = match error {
                ParamError::Capacity => ("capacity: 4\n", "capacity: 0\n"),
                ParamError::Stock => ("stock: 2\n", "stock: 2 100\n"),
                ParamError::TeamTime => ("stock: 2\n", "stock: 2\nteam time: 3600.001\n"),
                ParamError::GameTime => ("stock: 2\n", "stock: 2\ngame time: 0\n"),
            };
            let log = HEADER.replace(given, wrong);
            let refused = read_setup(log.as_bytes()).expect_err("out of range");
            assert!(
                refused.message.starts_with(&error.to_string()),
                "{}",
                refused.message
            );
        }
        assert_eq!(
            MatchSetup::new(checked.params().clone(), games),
            Ok(checked)
        );
    }
}
