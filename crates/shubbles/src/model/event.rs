//! What happens in the box. Operations produce these events (see
//! [`crate::rules::engine`]); states are a fold over them
//! ([`State::apply`](super::state::State::apply)); frames are derived from
//! them ([`crate::rules::frames`]).

use std::fmt;

use super::creature::Creature;
use super::geometry::{Cell, CellSet, Direction, Orientation};

/// One thing that happens in the box: the unit the engine produces, states
/// fold and frames are made from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// The box turned one quarter, to `to`. A half turn is two of these,
    /// clockwise, with nothing falling between them.
    Turned {
        /// The orientation before.
        from: Orientation,
        /// The orientation after.
        to: Orientation,
    },
    /// One falling tick: the creatures in `moved` each moved one cell along
    /// gravity, all at once, and the exit cell emptied. A creature that moved
    /// from cell 28 through the opening is named by the [`Event::Left`] that
    /// follows. `moved` is empty when the only change was the exit cell
    /// emptying.
    Fell {
        /// The creatures that moved, by the cells they moved from.
        moved: CellSet,
    },
    /// In the tick just before, a creature fell through the opening: it is
    /// in the exit cell, outside the box, and gone after the next tick.
    Left {
        /// Which kind of creature it is.
        creature: Creature,
    },
    /// The stot moved one cell.
    StotMoved {
        /// Where it was.
        from: Cell,
        /// Where it is now.
        to: Cell,
    },
    /// The run failed; nothing happens after this.
    Failed(Failure),
}

impl Event {
    /// Turns, ticks and stot moves each show a new picture (BOX.md §8);
    /// `Left` and `Failed` only tell more about the picture just made.
    pub const fn makes_frame(&self) -> bool {
        matches!(
            self,
            Event::Turned { .. } | Event::Fell { .. } | Event::StotMoved { .. }
        )
    }

    /// A short name of the kind of event, as used in the event log.
    pub const fn kind(&self) -> &'static str {
        match self {
            Event::Turned { .. } => "turned",
            Event::Fell { .. } => "fell",
            Event::Left { .. } => "left",
            Event::StotMoved { .. } => "stot-moved",
            Event::Failed(_) => "failed",
        }
    }
}

/// Why a run failed (BOX.md §5 and §4).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Failure {
    /// A stot move was refused; the stot stays in `from`.
    StotBlocked {
        /// The stot's cell.
        from: Cell,
        /// The way it was to move, in the standard frame.
        direction: Direction,
        /// What stopped it.
        reason: Blocked,
    },
    /// A smole fell through the opening.
    SmoleEscaped,
}

/// Why the stot could not move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Blocked {
    /// The destination is outside the box.
    Wall,
    /// The destination is the exit cell, through the opening under cell 28.
    Opening,
    /// The destination holds a creature.
    Occupied {
        /// The destination.
        cell: Cell,
        /// What is there.
        creature: Creature,
    },
    /// A creature rests on the stot (one cell against gravity).
    Loaded {
        /// The cell on top of the stot.
        cell: Cell,
        /// What rests there.
        creature: Creature,
    },
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Failure::SmoleEscaped => write!(f, "a smole fell through the opening"),
            Failure::StotBlocked {
                from,
                direction,
                reason,
            } => {
                write!(
                    f,
                    "the stot in cell {from} cannot move {}: ",
                    direction.name()
                )?;
                match reason {
                    Blocked::Wall => write!(f, "a wall is in the way"),
                    Blocked::Opening => write!(f, "it would leave through the opening"),
                    Blocked::Occupied { cell, creature } => {
                        write!(f, "cell {cell} holds a {}", creature.name())
                    }
                    Blocked::Loaded { cell, creature } => {
                        write!(f, "the {} in cell {cell} rests on it", creature.name())
                    }
                }
            }
        }
    }
}

/// An event and the operation that caused it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Entry {
    /// Index of the operation in the operation string (from 0); `None` for
    /// the falls of a start that was allowed to settle first.
    pub op: Option<usize>,
    /// What happened.
    pub event: Event,
}
