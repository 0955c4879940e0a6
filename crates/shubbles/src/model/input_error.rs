//! What can be wrong with the input (BOX.md §2, §3). Every variant names the
//! problem and where it is, so a message can point the user at it.

use std::fmt;

use super::creature::Creature;
use super::geometry::{list_cells, CellSet, CELL_COUNT};

/// What is wrong with a state string, an operation string or the input
/// they come in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InputError {
    /// Nothing was given at all.
    Empty,
    /// The state string does not have 29 characters.
    StateLength {
        /// How many it has.
        found: usize,
        /// The characters past cell 28, as many as a message can show
        /// (empty for a state that is too short).
        extra: String,
    },
    /// A character other than `. o x @` in the state.
    StateCharacter {
        /// Its place, counted from 1.
        position: usize,
        /// The character.
        found: char,
    },
    /// Not exactly two smoles.
    SmoleCount {
        /// The cells holding them.
        cells: CellSet,
    },
    /// Not exactly one stot.
    StotCount {
        /// The cells holding them.
        cells: CellSet,
    },
    /// A creature sits in cell 28, over the opening.
    AboveOpening {
        /// Which kind.
        creature: Creature,
    },
    /// Creatures that would fall in the standard orientation.
    Unstable {
        /// Their cells.
        floating: CellSet,
    },
    /// A character other than `+ - | < > ^ v` in the operations.
    OperationCharacter {
        /// Its place, counted from 1.
        position: usize,
        /// The character.
        found: char,
    },
    /// More than the state and the operations were given.
    ExtraTokens {
        /// The first extra token.
        first: String,
        /// How many extra tokens there are.
        count: usize,
    },
}

impl fmt::Display for InputError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputError::Empty => write!(
                f,
                "no input: expected a 29-character state and, optionally, an operation string"
            ),
            InputError::StateLength { found, extra } => {
                write!(
                    f,
                    "the state has {found} character{}, expected 29 (one per cell)",
                    plural(*found)
                )?;
                match found.saturating_sub(CELL_COUNT) {
                    0 => Ok(()),
                    1 => write!(f, ": character 30, {extra:?}, is one too many"),
                    more => write!(
                        f,
                        ": the {more} from character 30 on ({extra:?}{}) are too many",
                        if more > extra.chars().count() { "…" } else { "" }
                    ),
                }
            }
            InputError::StateCharacter { position, found } => write!(
                f,
                "the state has {found:?} at character {position} (cell {}); expected one of . o x @",
                position - 1
            ),
            InputError::SmoleCount { cells } => write!(
                f,
                "the state has {} smole{}{}, expected exactly 2",
                cells.len(),
                plural(cells.len() as usize),
                in_cells(*cells)
            ),
            InputError::StotCount { cells } => write!(
                f,
                "the state has {} stot{}{}, expected exactly 1",
                cells.len(),
                plural(cells.len() as usize),
                in_cells(*cells)
            ),
            InputError::AboveOpening { creature } => write!(
                f,
                "cell 28 holds a {}: it would fall through the opening (a start state must be stable; --settle lets it fall first)",
                creature.name()
            ),
            InputError::Unstable { floating } => write!(
                f,
                "the state is not stable: the creature{} in cell{} {} would fall (--settle lets them fall first)",
                plural(floating.len() as usize),
                plural(floating.len() as usize),
                list_cells(*floating)
            ),
            InputError::OperationCharacter { position, found } => write!(
                f,
                "the operations have {found:?} at character {position}; expected one of + - | < > ^ v"
            ),
            InputError::ExtraTokens { first, count } => write!(
                f,
                "unexpected extra input {first:?}{}: expected only a state and an operation string",
                if *count > 1 {
                    format!(" and {} more", count - 1)
                } else {
                    String::new()
                }
            ),
        }
    }
}

impl std::error::Error for InputError {}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn in_cells(cells: CellSet) -> String {
    if cells.is_empty() {
        String::new()
    } else {
        format!(
            " (cell{} {})",
            plural(cells.len() as usize),
            list_cells(cells)
        )
    }
}
