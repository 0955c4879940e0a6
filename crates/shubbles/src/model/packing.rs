//! States packed in one machine word, as the solver keeps them.

use super::geometry::{Cell, CellSet, Orientation, CELL_COUNT, OPENING_CELL};
use super::state::State;

impl State {
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
            self.shubbles().bits(),
            self.smoles().bits(),
            self.stot().index() as u32,
            self.orientation().quarters(),
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
        State::from_parts(
            CellSet::from_bits(word as u32).without(smoles.union(stot.bit())),
            smoles,
            stot,
            Orientation::from_quarters(cell(PACKED_ORIENTATION) as i32 & 3),
            None,
        )
    }

    /// True when the packed state `word` (see [`State::pack`]) has no
    /// shubble, without unpacking it.
    #[inline]
    pub(crate) const fn packed_without_shubbles(word: u64) -> bool {
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::creature::{Content, Creature};
    use crate::model::event::Event;

    const FIGURE_1A: &str = ".........@...o....ooo..xox...";

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
        word | smoles[0] << 29 | smoles[1] << 34 | (state.orientation().quarters() as u64) << 44
    }

    /// The reference for [`State::unpack`], field by field.
    fn unpack_by_cells(word: u64) -> State {
        let field = |shift: u32| (word >> shift & 31) as usize;
        let stot = Cell::new(field(39)).unwrap_or(OPENING_CELL);
        let (mut shubbles, mut smoles) = (CellSet::EMPTY, CellSet::EMPTY);
        for cell in Cell::all() {
            if cell == stot {
                continue;
            }
            if cell.index() == field(29) || cell.index() == field(34) {
                smoles = smoles.union(cell.bit());
            } else if word >> cell.index() & 1 == 1 {
                shubbles = shubbles.union(cell.bit());
            }
        }
        let orientation = Orientation::from_quarters((word >> 44) as i32 & 3);
        State::from_parts(shubbles, smoles, stot, orientation, None)
    }

    proptest::proptest! {
        #[test]
        fn bit_packing_agrees_with_packing_cell_by_cell(word: u64) {
            let state = unpack_by_cells(word);
            proptest::prop_assert_eq!(State::unpack(word), state);
            if state.smoles().len() == 2 {
                proptest::prop_assert_eq!(state.pack(), pack_by_cells(&state));
                proptest::prop_assert_eq!(State::unpack(state.pack()), state);
                proptest::prop_assert_ne!(state.pack(), 0);
                proptest::prop_assert_eq!(
                    State::packed_without_shubbles(state.pack()),
                    state.shubbles().is_empty()
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
