//! Operations on the box (BOX.md §3) and their one-character spelling.

use std::fmt;

use super::geometry::Direction;
use super::input_error::InputError;

/// A rotation of the whole box: how far an operation turns it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Rotation {
    /// `+`: 90° clockwise.
    Clockwise,
    /// `-`: 90° counter-clockwise.
    CounterClockwise,
    /// `|`: 180°, shown as two clockwise quarters with no falling between.
    Half,
}

/// One character of an operation string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Operation {
    /// Turn the whole box.
    Rotate(Rotation),
    /// Move the stot one cell in a direction of the standard frame, whatever
    /// the box's orientation.
    StotMove(Direction),
}

impl Operation {
    /// Every operation, in the order the solver tries them: the turns, then
    /// the stot moves.
    pub const ALL: [Operation; 7] = [
        Operation::Rotate(Rotation::Clockwise),
        Operation::Rotate(Rotation::CounterClockwise),
        Operation::Rotate(Rotation::Half),
        Operation::StotMove(Direction::Left),
        Operation::StotMove(Direction::Right),
        Operation::StotMove(Direction::Up),
        Operation::StotMove(Direction::Down),
    ];

    /// The operation a character of an operation string stands for.
    pub const fn from_char(c: char) -> Option<Operation> {
        Some(match c {
            '+' => Operation::Rotate(Rotation::Clockwise),
            '-' => Operation::Rotate(Rotation::CounterClockwise),
            '|' => Operation::Rotate(Rotation::Half),
            '<' => Operation::StotMove(Direction::Left),
            '>' => Operation::StotMove(Direction::Right),
            '^' => Operation::StotMove(Direction::Up),
            'v' => Operation::StotMove(Direction::Down),
            _ => return None,
        })
    }

    /// The character that stands for it.
    pub const fn to_char(self) -> char {
        match self {
            Operation::Rotate(Rotation::Clockwise) => '+',
            Operation::Rotate(Rotation::CounterClockwise) => '-',
            Operation::Rotate(Rotation::Half) => '|',
            Operation::StotMove(Direction::Left) => '<',
            Operation::StotMove(Direction::Right) => '>',
            Operation::StotMove(Direction::Up) => '^',
            Operation::StotMove(Direction::Down) => 'v',
        }
    }

    /// What the operation does, in words (`half turn`, `stot left`).
    pub const fn description(self) -> &'static str {
        match self {
            Operation::Rotate(Rotation::Clockwise) => "turn clockwise",
            Operation::Rotate(Rotation::CounterClockwise) => "turn counter-clockwise",
            Operation::Rotate(Rotation::Half) => "half turn",
            Operation::StotMove(Direction::Left) => "stot left",
            Operation::StotMove(Direction::Right) => "stot right",
            Operation::StotMove(Direction::Up) => "stot up",
            Operation::StotMove(Direction::Down) => "stot down",
        }
    }
}

impl fmt::Display for Operation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.to_char())
    }
}

/// Parses an operation string; the empty string is no operations.
pub fn parse_operations(text: &str) -> Result<Vec<Operation>, InputError> {
    text.chars()
        .enumerate()
        .map(|(i, c)| {
            Operation::from_char(c).ok_or(InputError::OperationCharacter {
                position: i + 1,
                found: c,
            })
        })
        .collect()
}

/// The operations written back as a string.
pub fn format_operations(ops: &[Operation]) -> String {
    ops.iter().map(|op| op.to_char()).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_operation_round_trips_through_its_character() {
        for op in Operation::ALL {
            assert_eq!(Operation::from_char(op.to_char()), Some(op));
        }
        assert_eq!(
            format_operations(&parse_operations("+>|<-v+^+").unwrap()),
            "+>|<-v+^+"
        );
        assert_eq!(parse_operations("").unwrap(), vec![]);
    }

    #[test]
    fn a_foreign_character_is_named_with_its_position() {
        assert_eq!(
            parse_operations("+>a"),
            Err(InputError::OperationCharacter {
                position: 3,
                found: 'a'
            })
        );
        assert_eq!(
            parse_operations("+>a").unwrap_err().to_string(),
            "the operations have 'a' at character 3; expected one of + - | < > ^ v"
        );
    }
}
