//! What a match is played with, from a parameters file (§15.1 `--params`):
//! the parameters both games share, the games' starts when the file gives
//! them, and the symmetric start cells `play` chooses otherwise.

use std::fmt;

use super::arena::GameSetup;
use crate::log::reader::Setup;
use crate::model::event::GameStart;
use crate::model::field::{Cell, Size};
use crate::model::params::Params;

/// Why a parameters file cannot set up a match to play.
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
        }
    }
}

impl std::error::Error for SetupProblem {}

/// The parameters both games of `setup` are played with, and both games'
/// starts when the file gives them.
pub fn match_params(setup: &Setup) -> Result<(Params, Option<[GameSetup; 2]>), SetupProblem> {
    let game = |start: &GameStart| GameSetup {
        first: start.first,
        start: start.start.clone(),
        current: start.current,
    };
    let games = match setup.games.as_slice() {
        [] => None,
        [one, two] if one.params != two.params => return Err(SetupProblem::GamesDiffer),
        [one, two] => Some([game(one), game(two)]),
        _ => return Err(SetupProblem::OneGameOnly),
    };
    let params = match setup.games.first() {
        Some(game) => game.params.clone(),
        None => {
            let header = &setup.start.params;
            Params {
                field: header.field.clone().ok_or(SetupProblem::Missing("field"))?,
                capacity: header.capacity.ok_or(SetupProblem::Missing("capacity"))?,
                stock: header.stock.ok_or(SetupProblem::Missing("stock"))?,
                team_time: header.team_time,
                game_time: header.game_time,
            }
        }
    };
    Ok((params, games))
}

/// The first team in the centre, the second at the two ends of the centre
/// row (or column, on a field one or two cells wide).
pub fn symmetric_start(size: Size) -> [Cell; 3] {
    let (rows, columns) = (size.rows, size.columns);
    let centre = Cell {
        column: columns / 2,
        row: rows / 2,
    };
    if columns >= 3 {
        [
            centre,
            Cell {
                column: 0,
                ..centre
            },
            Cell {
                column: columns - 1,
                ..centre
            },
        ]
    } else if rows >= 3 {
        [
            centre,
            Cell { row: 0, ..centre },
            Cell {
                row: rows - 1,
                ..centre
            },
        ]
    } else {
        // 2 × 2: three of the four corners.
        [size.cell(0), size.cell(1), size.cell(3)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::reader::read_setup;

    const HEADER: &str = "katazuke 1\ncapacity: 4\nstock: 2\nfield:\n  1 2 1\n  2 1 3\n  1 3 1\n";

    #[test]
    fn a_header_alone_gives_its_parameters_and_no_starts() {
        let setup = read_setup(HEADER.as_bytes()).expect("a setup");
        let (params, games) = match_params(&setup).expect("playable");
        assert_eq!(
            (params.capacity, params.field.size().to_string()),
            (4, "3x3".into())
        );
        assert_eq!(games, None);
        let no_stock = HEADER.replace("stock: 2\n", "");
        let setup = read_setup(no_stock.as_bytes()).expect("a setup");
        assert_eq!(match_params(&setup), Err(SetupProblem::Missing("stock")));
    }

    #[test]
    fn symmetric_starts_are_the_centre_and_the_ends_of_its_row_or_column() {
        let names = |size: Size| symmetric_start(size).map(|cell| cell.to_string());
        assert_eq!(
            names(Size {
                rows: 5,
                columns: 5
            }),
            ["c3", "a3", "e3"]
        );
        assert_eq!(
            names(Size {
                rows: 4,
                columns: 2
            }),
            ["b3", "b1", "b4"]
        );
        assert_eq!(
            names(Size {
                rows: 2,
                columns: 2
            }),
            ["a1", "b1", "b2"]
        );
    }
}
