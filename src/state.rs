//! The contents of the box, its state string (BOX.md §2) and the fold of
//! events into states.

use std::fmt;

use crate::error::InputError;
use crate::event::Event;
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
        let mut supported =
            creatures.intersection(gravity.walled().union(against.step(self.stot.bit())));
        // Support climbs a column one creature per round; a column is at
        // most 7 cells long, so this ends quickly.
        loop {
            let grown = supported.union(creatures.intersection(against.step(supported)));
            if grown == supported {
                return creatures.without(supported);
            }
            supported = grown;
        }
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

    /// The state packed in one machine word: two bits per cell (0 empty,
    /// 1 shubble, 2 smole, 3 stot) and two bits of orientation. Only stable
    /// states (nothing in the exit cell) are packed.
    ///
    /// The solver packs every state it visits, so this spreads the three
    /// cell masks into the even and odd bits directly instead of walking
    /// the cells.
    #[inline]
    pub fn pack(&self) -> u64 {
        let stot = self.stot.bit();
        let low = spread_to_even_bits(self.shubbles.union(stot).bits());
        let high = spread_to_even_bits(self.smoles.union(stot).bits());
        low | high << 1 | (self.orientation.quarters() as u64) << (2 * CELL_COUNT)
    }

    /// The inverse of [`State::pack`]. Any word unpacks to some state: bits
    /// above the orientation are ignored, and if several cells say stot
    /// the highest one wins (no packed state has that).
    #[inline]
    pub fn unpack(word: u64) -> State {
        let low = gather_even_bits(word);
        let high = gather_even_bits(word >> 1);
        let stots = low & high;
        State {
            shubbles: CellSet::from_bits(low & !high),
            smoles: CellSet::from_bits(high & !low),
            // A word with no stot is not a packed state; cell 28 is as good
            // a placeholder as any and keeps this total.
            stot: 31u32
                .checked_sub(stots.leading_zeros())
                .and_then(|n| Cell::new(n as usize))
                .unwrap_or(OPENING_CELL),
            orientation: Orientation::from_quarters((word >> (2 * CELL_COUNT)) as i32 & 3),
            exit: None,
        }
    }
}

/// Bit `n` of `bits` moved to bit `2n` (for the 29 cell bits).
#[inline]
const fn spread_to_even_bits(bits: u32) -> u64 {
    let mut x = bits as u64;
    x = (x | x << 16) & 0x0000_FFFF_0000_FFFF;
    x = (x | x << 8) & 0x00FF_00FF_00FF_00FF;
    x = (x | x << 4) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | x << 2) & 0x3333_3333_3333_3333;
    (x | x << 1) & 0x5555_5555_5555_5555
}

/// The inverse of [`spread_to_even_bits`] for the cell bits: bit `2n` of
/// `word` moved to bit `n`, for the 29 cells only (the orientation bits
/// sit above them and are dropped).
#[inline]
const fn gather_even_bits(word: u64) -> u32 {
    let mut x = word & ((1 << (2 * CELL_COUNT)) - 1) & 0x5555_5555_5555_5555;
    x = (x | x >> 1) & 0x3333_3333_3333_3333;
    x = (x | x >> 2) & 0x0F0F_0F0F_0F0F_0F0F;
    x = (x | x >> 4) & 0x00FF_00FF_00FF_00FF;
    x = (x | x >> 8) & 0x0000_FFFF_0000_FFFF;
    ((x | x >> 16) & 0xFFFF_FFFF) as u32
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

    /// The cell-by-cell packing that the bit tricks of [`State::pack`]
    /// replace; kept as the reference they must agree with.
    fn pack_by_cells(state: &State) -> u64 {
        let mut word = 0u64;
        for cell in Cell::all().rev() {
            let code = match state.content(cell) {
                Content::Empty => 0,
                Content::Creature(Creature::Shubble) => 1,
                Content::Creature(Creature::Smole) => 2,
                Content::Stot => 3,
            };
            word = word << 2 | code;
        }
        word | (state.orientation.quarters() as u64) << (2 * CELL_COUNT)
    }

    /// The reference for [`State::unpack`], cell by cell.
    fn unpack_by_cells(word: u64) -> State {
        let mut state = State {
            shubbles: CellSet::EMPTY,
            smoles: CellSet::EMPTY,
            stot: OPENING_CELL,
            orientation: Orientation::from_quarters((word >> (2 * CELL_COUNT)) as i32 & 3),
            exit: None,
        };
        for cell in Cell::all() {
            match word >> (2 * cell.index()) & 3 {
                1 => state.shubbles = state.shubbles.union(cell.bit()),
                2 => state.smoles = state.smoles.union(cell.bit()),
                3 => state.stot = cell,
                _ => {}
            }
        }
        state
    }

    proptest::proptest! {
        #[test]
        fn bit_packing_agrees_with_packing_cell_by_cell(word: u64) {
            let state = unpack_by_cells(word);
            proptest::prop_assert_eq!(State::unpack(word), state);
            proptest::prop_assert_eq!(state.pack(), pack_by_cells(&state));
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
        assert!(state.pack() < 1 << 60);
        // Words that no state packs to still unpack as the reference does.
        for word in [0, u64::MAX, 0b11 << 56 | 0b11 << 2] {
            assert_eq!(State::unpack(word), unpack_by_cells(word));
        }
    }
}
