//! What a team does in one turn (§4, §5): a duration and steps, or a
//! timeout.

use std::fmt;

use super::field::Cell;
use super::team::Team;

/// A cell and a number of objects: one entry of a clear or a place.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Item {
    /// The cell the objects are cleared from or placed on.
    pub cell: Cell,
    /// How many objects, at least 1.
    pub count: u32,
}

impl fmt::Display for Item {
    /// `b1:2`, or `b1` for one object (the canonical form of §11.6).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.count == 1 {
            write!(f, "{}", self.cell)
        } else {
            write!(f, "{}:{}", self.cell, self.count)
        }
    }
}

/// One step of a turn (§4.3, §5).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Step {
    /// Take objects from cells next to the current territory into the
    /// container.
    Clear(Vec<Item>),
    /// Put objects from the stock on cells next to the current territory.
    Place(Vec<Item>),
    /// Make another own cell the current territory.
    Move(Cell),
    /// Do nothing.
    Pass,
    /// Empty the container (not an action: it may go with any).
    Empty,
}

impl Step {
    /// True for the four actions; false for `Empty` (§4.4).
    pub fn is_action(&self) -> bool {
        !matches!(self, Step::Empty)
    }

    /// The step's word: `clear`, `place`, `move`, `pass`, `empty`.
    pub fn word(&self) -> &'static str {
        match self {
            Step::Clear(_) => "clear",
            Step::Place(_) => "place",
            Step::Move(_) => "move",
            Step::Pass => "pass",
            Step::Empty => "empty",
        }
    }
}

impl fmt::Display for Step {
    /// In the long, canonical form: `clear b1:2 a2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())?;
        match self {
            Step::Clear(items) | Step::Place(items) => {
                for item in items {
                    write!(f, " {item}")?;
                }
                Ok(())
            }
            Step::Move(cell) => write!(f, " {cell}"),
            Step::Pass | Step::Empty => Ok(()),
        }
    }
}

/// What a turn records.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Play {
    /// The turn took `duration` ms and did `steps`.
    Steps {
        /// Milliseconds, as recorded.
        duration: u64,
        /// In order.
        steps: Vec<Step>,
    },
    /// The turn was never ended: it charges what is left (§7.3).
    Timeout,
}

/// One team's go.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Turn {
    /// The team that plays it.
    pub team: Team,
    /// What it did.
    pub play: Play,
}

impl fmt::Display for Play {
    /// `3.0 clear b1:2 a2:2`, or `timeout`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Play::Timeout => f.write_str("timeout"),
            Play::Steps { duration, steps } => {
                write!(f, "{}", Seconds(*duration))?;
                for step in steps {
                    write!(f, " {step}")?;
                }
                Ok(())
            }
        }
    }
}

/// Milliseconds written as seconds with one to three decimals: `3.0`,
/// `2.5`, `1.234` (the canonical duration of §11.6).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seconds(pub u64);

impl fmt::Display for Seconds {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (whole, thousandths) = (self.0 / 1000, self.0 % 1000);
        let mut decimals = format!("{thousandths:03}");
        while decimals.len() > 1 && decimals.ends_with('0') {
            decimals.pop();
        }
        write!(f, "{whole}.{decimals}")
    }
}

/// Milliseconds as a clock shows them: `m:ss.s` (tenths, rounded down),
/// for the replay and reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClockTime(pub u64);

impl fmt::Display for ClockTime {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let tenths = self.0 / 100;
        write!(
            f,
            "{}:{:02}.{}",
            tenths / 600,
            tenths / 10 % 60,
            tenths % 10
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_and_clocks_are_written_as_the_spec_shows_them() {
        assert_eq!(Seconds(3000).to_string(), "3.0");
        assert_eq!(Seconds(2500).to_string(), "2.5");
        assert_eq!(Seconds(1234).to_string(), "1.234");
        assert_eq!(Seconds(62_050).to_string(), "62.05");
        assert_eq!(Seconds(0).to_string(), "0.0");
        assert_eq!(ClockTime(13_000).to_string(), "0:13.0");
        assert_eq!(ClockTime(62_549).to_string(), "1:02.5");
        let item = |count| Item {
            cell: Cell::parse("b1").unwrap(),
            count,
        };
        let play = Play::Steps {
            duration: 3000,
            steps: vec![Step::Clear(vec![item(2), item(1)]), Step::Empty],
        };
        assert_eq!(play.to_string(), "3.0 clear b1:2 b1 empty");
        assert_eq!(Play::Timeout.to_string(), "timeout");
    }
}
