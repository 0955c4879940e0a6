//! What a team can do in a turn, as a searcher counts it: one action of at
//! most four cells (a current cell has four neighbours at most) with an
//! optional emptying, or letting the clock run out. Which ones are legal in
//! a position is [`super::legal`]'s business.

use std::fmt;

use crate::model::field::Size;
use crate::model::team::Team;
use crate::model::turn::{Item, Step};

/// The kind of a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// Objects from cells next to the current territory into the container.
    Clear,
    /// Objects from the stock onto cells next to the current territory.
    Place,
    /// Another own cell becomes current.
    Move,
    /// No step: the turn passes (§4.3).
    Pass,
    /// The turn is never ended: the clock runs out (§7.3).
    Timeout,
}

/// Where a turn's emptying stands, if it has one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum EmptyAt {
    /// No emptying.
    None,
    /// Before the action (never before a clear, §5.5).
    Before,
    /// After the action.
    After,
}

/// One turn: a kind, its cells and counts (a move's one cell), and the
/// emptying.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Action {
    /// What it does.
    pub kind: Kind,
    /// Where the emptying stands.
    pub empty: EmptyAt,
    len: u8,
    cells: [u8; 4],
    counts: [u32; 4],
}

impl Action {
    const fn bare(kind: Kind, empty: EmptyAt) -> Action {
        Action {
            kind,
            empty,
            len: 0,
            cells: [0; 4],
            counts: [0; 4],
        }
    }

    /// A pass, with or without an emptying.
    pub const fn pass(empty: EmptyAt) -> Action {
        Action::bare(Kind::Pass, empty)
    }

    /// Letting the clock run out.
    pub const TIMEOUT: Action = Action::bare(Kind::Timeout, EmptyAt::None);

    /// A move to the cell at `index`.
    pub fn move_to(index: usize, empty: EmptyAt) -> Action {
        let mut action = Action::bare(Kind::Move, empty);
        action.push(index, 0);
        action
    }

    /// The same action with its emptying at `empty`.
    pub fn with_empty(self, empty: EmptyAt) -> Action {
        Action { empty, ..self }
    }

    /// A clear of `(cell index, objects)`.
    pub fn clear(items: &[(usize, u32)], empty: EmptyAt) -> Action {
        Action::with_items(Kind::Clear, items.iter().copied(), empty)
    }

    /// An action of `kind` on `(cell index, objects)` (at most four: the
    /// cells around one).
    pub fn with_items(
        kind: Kind,
        items: impl IntoIterator<Item = (usize, u32)>,
        empty: EmptyAt,
    ) -> Action {
        let mut action = Action::bare(kind, empty);
        for (index, count) in items {
            action.push(index, count);
        }
        action
    }

    fn push(&mut self, index: usize, count: u32) {
        let at = usize::from(self.len);
        self.cells[at] = index as u8;
        self.counts[at] = count;
        self.len += 1;
    }

    /// The cells' indices: of a clear or place, or a move's target.
    pub fn cells(&self) -> &[u8] {
        &self.cells[..usize::from(self.len)]
    }

    /// The objects per cell of a clear or place (zero for a move).
    pub fn counts(&self) -> &[u32] {
        &self.counts[..usize::from(self.len)]
    }

    /// Objects the turn clears or places.
    pub fn objects(&self) -> u32 {
        self.counts().iter().sum()
    }

    /// The turn as steps on a field of `size`; none for a timeout.
    pub fn steps(&self, size: Size) -> Option<Vec<Step>> {
        let items = || {
            self.cells()
                .iter()
                .zip(self.counts())
                .map(|(&cell, &count)| Item {
                    cell: size.cell(usize::from(cell)),
                    count,
                })
                .collect()
        };
        let action = match self.kind {
            Kind::Clear => Step::Clear(items()),
            Kind::Place => Step::Place(items()),
            Kind::Move => Step::Move(size.cell(usize::from(self.cells[0]))),
            Kind::Pass => Step::Pass,
            Kind::Timeout => return None,
        };
        Some(match self.empty {
            EmptyAt::None => vec![action],
            EmptyAt::Before => vec![Step::Empty, action],
            EmptyAt::After => vec![action, Step::Empty],
        })
    }

    /// The turn as a protocol answer or a log's steps (`clear b1:2 a2`;
    /// `timeout`), on a field of `size` (OpenSpiel's `serialize`).
    pub fn serialize(&self, size: Size) -> String {
        match self.steps(size) {
            None => "timeout".to_string(),
            Some(steps) => Words(&steps).to_string(),
        }
    }
}

/// Steps separated by spaces.
pub struct Words<'a>(pub &'a [Step]);

impl fmt::Display for Words<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (index, step) in self.0.iter().enumerate() {
            if index > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{step}")?;
        }
        Ok(())
    }
}

/// A team's sign in values kept from A's side: +1 for A, −1 for B.
pub fn sign(team: Team) -> i64 {
    match team {
        Team::A => 1,
        Team::B => -1,
    }
}
