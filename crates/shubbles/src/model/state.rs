//! The contents of the box, its state string (BOX.md §2) and the fold of
//! events into states.

use std::fmt;

use super::creature::{Content, Creature};
use super::event::{Event, Failure};
use super::geometry::{Cell, CellSet, Direction, Orientation, CELL_COUNT, OPENING_CELL};
use super::input_error::InputError;
use super::resting;

/// How many characters past cell 28 a length error quotes.
const MAX_EXTRA_SHOWN: usize = 12;

/// Everything that can be seen of the box at one moment: what each cell
/// holds, how the box is turned, and the creature (if any) that is just
/// outside the opening.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct State {
    shubbles: CellSet,
    smoles: CellSet,
    stot: Cell,
    orientation: Orientation,
    exit: Option<Creature>,
}

impl State {
    /// Reads a state string in the standard orientation and checks it is a
    /// valid start (BOX.md §2). With `allow_unstable`, creatures may float
    /// (they fall when the run settles first) and may sit in cell 28.
    pub fn parse(text: &str, allow_unstable: bool) -> Result<State, InputError> {
        let mut shubbles = CellSet::EMPTY;
        let mut smoles = CellSet::EMPTY;
        let mut stots = CellSet::EMPTY;
        // Past cell 28 a character is only counted: naming it "at cell 29"
        // would invent a cell; the length error names it instead.
        let mut length = 0;
        let mut extra = String::new();
        for (i, c) in text.chars().enumerate() {
            length += 1;
            let Some(cell) = Cell::new(i) else {
                if extra.chars().count() < MAX_EXTRA_SHOWN {
                    extra.push(c);
                }
                continue;
            };
            let bit = cell.bit();
            match c {
                '.' => {}
                'o' => shubbles = shubbles.union(bit),
                'x' => smoles = smoles.union(bit),
                '@' => stots = stots.union(bit),
                _ => {
                    return Err(InputError::StateCharacter {
                        position: i + 1,
                        found: c,
                    })
                }
            }
        }
        if length != CELL_COUNT {
            return Err(InputError::StateLength {
                found: length,
                extra,
            });
        }
        if smoles.len() != 2 {
            return Err(InputError::SmoleCount { cells: smoles });
        }
        let stot = match stots.iter().next() {
            Some(cell) if stots.len() == 1 => cell,
            _ => return Err(InputError::StotCount { cells: stots }),
        };
        let state = State {
            shubbles,
            smoles,
            stot,
            orientation: Orientation::STANDARD,
            exit: None,
        };
        if !allow_unstable {
            if let Content::Creature(creature) = state.content(OPENING_CELL) {
                return Err(InputError::AboveOpening { creature });
            }
            let floating = state.falling();
            if !floating.is_empty() {
                return Err(InputError::Unstable { floating });
            }
        }
        Ok(state)
    }

    /// How the box is turned.
    pub const fn orientation(&self) -> Orientation {
        self.orientation
    }

    /// The stot's cell.
    pub const fn stot(&self) -> Cell {
        self.stot
    }

    /// The cells holding shubbles.
    pub const fn shubbles(&self) -> CellSet {
        self.shubbles
    }

    /// The cells holding smoles.
    pub const fn smoles(&self) -> CellSet {
        self.smoles
    }

    /// The cells holding a creature of either kind.
    pub const fn creatures(&self) -> CellSet {
        self.shubbles.union(self.smoles)
    }

    /// The creature just outside the opening, shown for one tick.
    pub const fn exit(&self) -> Option<Creature> {
        self.exit
    }

    /// What `cell` holds.
    pub fn content(&self, cell: Cell) -> Content {
        if self.shubbles.contains(cell) {
            Content::Creature(Creature::Shubble)
        } else if self.smoles.contains(cell) {
            Content::Creature(Creature::Smole)
        } else if self.stot == cell {
            Content::Stot
        } else {
            Content::Empty
        }
    }

    /// The creature in `cell`, if any.
    pub fn creature(&self, cell: Cell) -> Option<Creature> {
        match self.content(cell) {
            Content::Creature(c) => Some(c),
            _ => None,
        }
    }

    /// True when nothing would fall: the settled state between operations.
    pub fn is_stable(&self) -> bool {
        self.exit.is_none() && self.falling().is_empty()
    }

    /// The creatures that are not supported and so move in the next tick
    /// (BOX.md §4). A creature is supported when the next position along
    /// gravity is a wall, the stot or a supported creature; the opening
    /// supports nothing, and neither does a creature in the exit cell.
    #[inline]
    pub fn falling(&self) -> CellSet {
        self.falling_towards(self.orientation.gravity())
    }

    /// [`State::falling`] when the caller already knows the gravity (it
    /// must be this state's): the engine's settle loop matches on gravity
    /// once and calls this in each arm, so the masked shifts become
    /// constants there.
    #[inline(always)]
    pub(crate) fn falling_towards(&self, gravity: Direction) -> CellSet {
        debug_assert_eq!(gravity, self.orientation.gravity());
        let against = gravity.opposite();
        let creatures = self.creatures();
        let base = creatures.intersection(gravity.walled().union(against.step(self.stot.bit())));
        // Support climbs each line of creatures against gravity. A line
        // is at most 6 cells long, so doubling the reach three times
        // (1, 2 and 4 steps) finds every supported creature with no loop:
        // `chain` holds the creatures whose next 1, 2, then 4 cells along
        // gravity are all creatures, the cells support can jump across.
        let mut supported = base;
        let mut chain = creatures;
        supported = supported.union(chain.intersection(against.step(supported)));
        chain = chain.intersection(against.step(chain));
        supported = supported.union(chain.intersection(against.step_twice(supported)));
        chain = chain.intersection(against.step_twice(chain));
        supported = supported.union(chain.intersection(against.step_four_times(supported)));
        creatures.without(supported)
    }

    /// The state once everything has fallen, worked out in one step (no
    /// tick loop and no events): what the engine's tick-by-tick settle ends
    /// in (a property test of the engine checks that),
    /// for callers that ignore events, such as the solver. A shubble in
    /// cell 28 with gravity down falls out; a smole there is
    /// [`Failure::SmoleEscaped`]. The exit cell is empty afterwards.
    #[inline(always)]
    pub fn settled(&self) -> Result<State, Failure> {
        let (shubbles, smoles) = resting::rest(
            self.shubbles.bits(),
            self.smoles.bits(),
            self.stot.index() as u32,
            self.orientation.quarters(),
        )
        .ok_or(Failure::SmoleEscaped)?;
        Ok(State {
            shubbles: CellSet::from_bits(shubbles),
            smoles: CellSet::from_bits(smoles),
            stot: self.stot,
            orientation: self.orientation,
            exit: None,
        })
    }

    /// The state after `event`: the fold that defines what every event
    /// means. The engine advances its own state through this too.
    #[inline(always)]
    pub fn apply(&mut self, event: &Event) {
        match *event {
            Event::Turned { to, .. } => self.orientation = to,
            Event::Fell { moved } => {
                let gravity = self.orientation.gravity();
                self.exit = None;
                self.shubbles = fall(self.shubbles, moved, gravity);
                self.smoles = fall(self.smoles, moved, gravity);
            }
            Event::Left { creature } => self.exit = Some(creature),
            Event::StotMoved { to, .. } => self.stot = to,
            Event::Failed(_) => {}
        }
    }

    /// The state string (BOX.md §6): cells in number order, whatever the
    /// orientation.
    pub fn cells_string(&self) -> String {
        Cell::all()
            .map(|cell| self.content(cell).symbol())
            .collect()
    }

    /// A state of these cells, unchecked: any cells, any orientation,
    /// anything in the exit cell. For the packing's inverse and for tests
    /// that need states no run makes; inputs go through [`State::parse`].
    pub(crate) const fn from_parts(
        shubbles: CellSet,
        smoles: CellSet,
        stot: Cell,
        orientation: Orientation,
        exit: Option<Creature>,
    ) -> State {
        State {
            shubbles,
            smoles,
            stot,
            orientation,
            exit,
        }
    }
}

/// `kind` after the creatures in `moved` took one step along `gravity`; one
/// that steps through the opening drops out of the set.
#[inline(always)]
fn fall(kind: CellSet, moved: CellSet, gravity: Direction) -> CellSet {
    let movers = kind.intersection(moved);
    kind.without(movers).union(gravity.step(movers))
}

impl fmt::Display for State {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.cells_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIGURE_1A: &str = ".........@...o....ooo..xox...";

    fn cells(numbers: &[usize]) -> CellSet {
        numbers.iter().filter_map(|&n| Cell::new(n)).collect()
    }

    #[test]
    fn figure_1a_parses_and_prints_back() {
        let state = State::parse(FIGURE_1A, false).unwrap();
        assert_eq!(state.cells_string(), FIGURE_1A);
        assert_eq!(state.stot(), Cell::new(9).unwrap());
        assert_eq!(state.smoles(), cells(&[23, 25]));
        assert!(state.is_stable());
    }

    #[test]
    fn bad_states_are_named() {
        let cases = [
            (
                "",
                InputError::StateLength {
                    found: 0,
                    extra: String::new(),
                },
            ),
            (
                ".........@...o....ooo..xox..",
                InputError::StateLength {
                    found: 28,
                    extra: String::new(),
                },
            ),
            (
                ".........@...o....ooo..xox...x",
                InputError::StateLength {
                    found: 30,
                    extra: "x".into(),
                },
            ),
            (
                ".........@...o....ooo..xox...abcd",
                InputError::StateLength {
                    found: 33,
                    extra: "abcd".into(),
                },
            ),
            (
                ".........@...o....ooo..xoX...",
                InputError::StateCharacter {
                    position: 26,
                    found: 'X',
                },
            ),
            (
                ".........@...o....ooo..xoo...",
                InputError::SmoleCount {
                    cells: cells(&[23]),
                },
            ),
            (
                ".........@...o....ooo..xox@..",
                InputError::StotCount {
                    cells: cells(&[9, 26]),
                },
            ),
            (
                ".........@...o....ooo..xox..o",
                InputError::AboveOpening {
                    creature: Creature::Shubble,
                },
            ),
            (
                ".o.......@...o....ooo..xox...",
                InputError::Unstable {
                    floating: cells(&[1]),
                },
            ),
        ];
        for (text, error) in cases {
            assert_eq!(State::parse(text, false), Err(error), "{text}");
        }
        assert!(State::parse("o........@...o....ooo..xox..o", true).is_ok());
    }

    #[test]
    fn a_column_falls_together_and_the_opening_supports_nothing() {
        // The smole in 5 rests on the shubble in 10, which has nothing under
        // it; the smole in 11 has a wall under it.
        let mut state = State::parse("@....x....ox.................", true).unwrap();
        assert_eq!(state.falling(), cells(&[5, 10]));
        state.apply(&Event::Turned {
            from: Orientation::STANDARD,
            to: Orientation::from_quarters(1),
        });
        // Gravity now points right: 10 rests on 11, and 5 and 11 on walls.
        assert_eq!(state.falling(), CellSet::EMPTY);
    }

    /// [`State::falling`] as the fixed point it is defined as: support
    /// climbs one creature per round until nothing changes.
    fn falling_by_rounds(state: &State) -> CellSet {
        let gravity = state.orientation.gravity();
        let against = gravity.opposite();
        let creatures = state.creatures();
        let mut supported =
            creatures.intersection(gravity.walled().union(against.step(state.stot.bit())));
        loop {
            let grown = supported.union(creatures.intersection(against.step(supported)));
            if grown == supported {
                return creatures.without(supported);
            }
            supported = grown;
        }
    }

    proptest::proptest! {
        /// Any cells, any orientation (not only stable states, and lines
        /// of creatures up to the longest the box has).
        #[test]
        fn falling_agrees_with_the_fixed_point(shubbles: u32, smoles: u32, stot in 0usize..29, quarters in 0i32..4) {
            let stot = Cell::new(stot).expect("a cell");
            let smoles = CellSet::from_bits(smoles).without(stot.bit());
            let state = State {
                shubbles: CellSet::from_bits(shubbles).without(smoles.union(stot.bit())),
                smoles,
                stot,
                orientation: Orientation::from_quarters(quarters),
                exit: None,
            };
            proptest::prop_assert_eq!(state.falling(), falling_by_rounds(&state));
        }
    }
}
