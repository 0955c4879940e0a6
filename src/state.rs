//! The contents of the box, its state string (BOX.md §2) and the fold of
//! events into states.

use std::fmt;

use crate::error::InputError;
use crate::event::{Event, Failure};
use crate::geometry::{Cell, CellSet, Direction, Orientation, CELL_COUNT, OPENING_CELL};

/// The two kinds of creature. Both fall; only shubbles may leave.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Creature {
    /// Blue, `o`.
    Shubble,
    /// Red, `x`.
    Smole,
}

impl Creature {
    pub const fn symbol(self) -> char {
        match self {
            Creature::Shubble => 'o',
            Creature::Smole => 'x',
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Creature::Shubble => "shubble",
            Creature::Smole => "smole",
        }
    }
}

/// What one cell holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Content {
    Empty,
    Creature(Creature),
    Stot,
}

impl Content {
    pub const fn symbol(self) -> char {
        match self {
            Content::Empty => '.',
            Content::Creature(c) => c.symbol(),
            Content::Stot => '@',
        }
    }
}

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
        let mut length = 0;
        for (i, c) in text.chars().enumerate() {
            length += 1;
            let bit = match Cell::new(i) {
                Some(cell) => cell.bit(),
                None => CellSet::EMPTY,
            };
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
            return Err(InputError::StateLength { found: length });
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

    pub const fn orientation(&self) -> Orientation {
        self.orientation
    }

    pub const fn stot(&self) -> Cell {
        self.stot
    }

    pub const fn shubbles(&self) -> CellSet {
        self.shubbles
    }

    pub const fn smoles(&self) -> CellSet {
        self.smoles
    }

    pub const fn creatures(&self) -> CellSet {
        self.shubbles.union(self.smoles)
    }

    /// The creature just outside the opening, shown for one tick.
    pub const fn exit(&self) -> Option<Creature> {
        self.exit
    }

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
    /// tick loop and no events): what [`crate::engine::settle`] ends in,
    /// for callers that ignore events, such as the solver. A shubble in
    /// cell 28 with gravity down falls out; a smole there is
    /// [`Failure::SmoleEscaped`]. The exit cell is empty afterwards.
    #[inline(always)]
    pub fn settled(&self) -> Result<State, Failure> {
        let (shubbles, smoles) = crate::resting::rest(
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

    /// The state packed in one machine word: the shubbles' cell bits
    /// (bits 0 to 28), the cell numbers of the lower and the higher smole
    /// (5 bits each, from bit 29 and bit 34), the stot's cell (5 bits, from
    /// bit 39) and the orientation (2 bits, from bit 44); 46 bits in all.
    ///
    /// Only valid states (exactly two smoles, nothing in the exit cell)
    /// are packed; each has exactly one word, and no word of one is 0.
    /// The solver packs every successor it makes, so this is a handful of
    /// bit operations: the smoles' cells are their set's lowest and
    /// highest bits.
    #[inline]
    pub fn pack(&self) -> u64 {
        pack_cells(
            self.shubbles.bits(),
            self.smoles.bits(),
            self.stot.index() as u32,
            self.orientation.quarters(),
        )
    }

    /// The inverse of [`State::pack`]. Any word unpacks to some state:
    /// bits above the orientation are ignored, a cell number past 28
    /// means no smole (or, for the stot, cell 28), and a cell that the
    /// word gives two contents keeps the stot, else the smole.
    #[inline]
    pub fn unpack(word: u64) -> State {
        let cell = |shift: u32| (word >> shift) as u32 & 31;
        let smoles = CellSet::from_bits(
            1u32 << cell(PACKED_LOWER_SMOLE) | 1u32 << cell(PACKED_HIGHER_SMOLE),
        );
        // No packed state has a stot past 28; cell 28 is as good a
        // placeholder as any and keeps this total.
        let stot = Cell::new(cell(PACKED_STOT) as usize).unwrap_or(OPENING_CELL);
        let smoles = smoles.without(stot.bit());
        State {
            shubbles: CellSet::from_bits(word as u32).without(smoles.union(stot.bit())),
            smoles,
            stot,
            orientation: Orientation::from_quarters(cell(PACKED_ORIENTATION) as i32 & 3),
            exit: None,
        }
    }

    /// True when the packed state `word` (see [`State::pack`]) has no
    /// shubble, without unpacking it.
    #[inline]
    pub const fn packed_without_shubbles(word: u64) -> bool {
        word & CellSet::ALL.bits() as u64 == 0
    }
}

/// Where the fields of a packed state start (see [`State::pack`]).
const PACKED_LOWER_SMOLE: u32 = CELL_COUNT as u32;
const PACKED_HIGHER_SMOLE: u32 = PACKED_LOWER_SMOLE + 5;
pub(crate) const PACKED_STOT: u32 = PACKED_HIGHER_SMOLE + 5;
pub(crate) const PACKED_ORIENTATION: u32 = PACKED_STOT + 5;

/// The bits a packed state uses.
pub(crate) const PACKED_BITS: u64 = (1 << (PACKED_ORIENTATION + 2)) - 1;

/// [`State::pack`] from the cell bits of the shubbles and of the (two)
/// smoles, the stot's cell and the orientation's quarters: the solver
/// packs its successors from these directly.
#[inline(always)]
pub(crate) fn pack_cells(shubbles: u32, smoles: u32, stot: u32, quarters: u8) -> u64 {
    let lower = smoles.trailing_zeros() & 31;
    let higher = 31u32.wrapping_sub(smoles.leading_zeros()) & 31;
    shubbles as u64
        | (lower as u64) << PACKED_LOWER_SMOLE
        | (higher as u64) << PACKED_HIGHER_SMOLE
        | (stot as u64) << PACKED_STOT
        | (quarters as u64) << PACKED_ORIENTATION
}

/// The inverse of [`pack_cells`] for a packed state (bits past
/// [`PACKED_BITS`] ignored), without [`State::unpack`]'s care for words
/// that are not one.
#[inline(always)]
pub(crate) fn unpack_cells(word: u64) -> (u32, u32, u32, u8) {
    let field = |shift: u32| (word >> shift) as u32 & 31;
    (
        word as u32 & CellSet::ALL.bits(),
        1 << field(PACKED_LOWER_SMOLE) | 1 << field(PACKED_HIGHER_SMOLE),
        field(PACKED_STOT),
        field(PACKED_ORIENTATION) as u8 & 3,
    )
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
            ("", InputError::StateLength { found: 0 }),
            (
                ".........@...o....ooo..xox..",
                InputError::StateLength { found: 28 },
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

    /// The packing of [`State::pack`] written out field by field, cell by
    /// cell; kept as the reference the bit operations must agree with.
    fn pack_by_cells(state: &State) -> u64 {
        let mut word = 0u64;
        let mut smoles = Vec::new();
        for cell in Cell::all() {
            match state.content(cell) {
                Content::Creature(Creature::Shubble) => word |= 1 << cell.index(),
                Content::Creature(Creature::Smole) => smoles.push(cell.index() as u64),
                Content::Stot => word |= (cell.index() as u64) << 39,
                Content::Empty => {}
            }
        }
        assert_eq!(smoles.len(), 2, "only states with two smoles are packed");
        word | smoles[0] << 29 | smoles[1] << 34 | (state.orientation.quarters() as u64) << 44
    }

    /// The reference for [`State::unpack`], field by field.
    fn unpack_by_cells(word: u64) -> State {
        let field = |shift: u32| (word >> shift & 31) as usize;
        let stot = Cell::new(field(39)).unwrap_or(OPENING_CELL);
        let mut state = State {
            shubbles: CellSet::EMPTY,
            smoles: CellSet::EMPTY,
            stot,
            orientation: Orientation::from_quarters((word >> 44) as i32 & 3),
            exit: None,
        };
        for cell in Cell::all() {
            if cell == stot {
                continue;
            }
            if cell.index() == field(29) || cell.index() == field(34) {
                state.smoles = state.smoles.union(cell.bit());
            } else if word >> cell.index() & 1 == 1 {
                state.shubbles = state.shubbles.union(cell.bit());
            }
        }
        state
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

    /// A state of any cells (a creature may be in cell 28 whatever the
    /// orientation), any orientation, and anything in the exit cell.
    fn arbitrary_state(shubbles: u32, smoles: u32, stot: usize, quarters: i32, exit: u8) -> State {
        let stot = Cell::new(stot).expect("a cell");
        let smoles = CellSet::from_bits(smoles).without(stot.bit());
        State {
            shubbles: CellSet::from_bits(shubbles).without(smoles.union(stot.bit())),
            smoles,
            stot,
            orientation: Orientation::from_quarters(quarters),
            exit: match exit {
                1 => Some(Creature::Shubble),
                2 => Some(Creature::Smole),
                _ => None,
            },
        }
    }

    /// The tick-by-tick settle of the engine, as a result.
    fn settled_by_ticks(state: &State) -> Result<State, Failure> {
        let mut state = *state;
        crate::engine::settle(&mut state, &mut |_| {})?;
        Ok(state)
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(20_000))]
        /// Any cells in any orientation: the same resting state as tick by
        /// tick, or the same failure (a smole through the opening).
        #[test]
        fn settled_agrees_with_the_ticks(shubbles: u32, smoles: u32, stot in 0usize..29, quarters in 0i32..4, exit in 0u8..3, sparse: bool) {
            // Sparse boxes too, so long falls happen.
            let (shubbles, smoles) = if sparse { (shubbles & shubbles >> 7 & shubbles >> 13, smoles & smoles >> 5 & smoles >> 11) } else { (shubbles, smoles) };
            let state = arbitrary_state(shubbles, smoles, stot, quarters, exit);
            proptest::prop_assert_eq!(state.settled(), settled_by_ticks(&state), "{:?}", state);
        }
    }

    /// Every orientation, and a creature of each kind in cell 28 at each.
    #[test]
    fn settled_handles_the_opening() {
        for quarters in 0..4 {
            for (shubbles, smoles) in [(1 << 28, 0), (0, 1 << 28), (1 << 28 | 1 << 5, 1 << 20)] {
                let state = arbitrary_state(shubbles, smoles, 9, quarters, 0);
                assert_eq!(state.settled(), settled_by_ticks(&state), "{state:?}");
            }
        }
        let out = arbitrary_state(1 << 28, 1 << 27, 9, 0, 0);
        assert_eq!(out.settled().unwrap().shubbles(), CellSet::EMPTY);
        let escaped = arbitrary_state(1 << 27, 1 << 28, 9, 0, 0);
        assert_eq!(escaped.settled(), Err(Failure::SmoleEscaped));
    }

    proptest::proptest! {
        #[test]
        fn bit_packing_agrees_with_packing_cell_by_cell(word: u64) {
            let state = unpack_by_cells(word);
            proptest::prop_assert_eq!(State::unpack(word), state);
            if state.smoles.len() == 2 {
                proptest::prop_assert_eq!(state.pack(), pack_by_cells(&state));
                proptest::prop_assert_eq!(State::unpack(state.pack()), state);
                proptest::prop_assert_ne!(state.pack(), 0);
                proptest::prop_assert_eq!(
                    State::packed_without_shubbles(state.pack()),
                    state.shubbles.is_empty()
                );
            }
        }
    }

    #[test]
    fn packing_round_trips() {
        let mut state = State::parse(FIGURE_1A, false).unwrap();
        state.apply(&Event::Turned {
            from: Orientation::STANDARD,
            to: Orientation::from_quarters(3),
        });
        assert_eq!(State::unpack(state.pack()), state);
        assert!(state.pack() < 1 << 46);
        // Words that no state packs to still unpack as the reference does.
        for word in [0, u64::MAX, 31 << 39 | 3 << 29 | 3 << 34 | 0b1000] {
            assert_eq!(State::unpack(word), unpack_by_cells(word));
        }
    }
}
