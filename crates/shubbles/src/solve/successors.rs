//! The states one operation away from a packed stable state: the engine's
//! rules in the form the solver needs, on the packed word itself.
//!
//! [`perform_quietly`](crate::rules::engine::perform_quietly) gives the same states (a property
//! test checks every operation from random runs), but through a [`State`]
//! and a failure reason for each refused operation, which the solver drops.
//! Here a turn is the closed-form settle of [`resting`] with the new
//! gravity known at compile time, and a stot move is a test of two cell
//! bits and a new stot field; nothing is unpacked into cell sets and back.
//!
//! [`State`]: crate::model::state::State

use crate::model::geometry::{Cell, Direction, Neighbour, Orientation, CELL_COUNT};
use crate::model::packing::{pack_cells, unpack_cells, PACKED_BITS, PACKED_STOT};
use crate::model::resting;

const STOT_FIELD: u64 = 31 << PACKED_STOT;

/// Calls `found(index, successor)` for each operation of
/// [`Operation::ALL`](crate::model::operation::Operation::ALL) (in that order; `index` is its place there) that
/// succeeds from the packed stable state `word`, with the packed state it
/// leads to. The operations whose bits (`1 << index`) are set in `skip`
/// are left out. Bits of `word` above [`PACKED_BITS`]
/// are ignored.
#[inline(always)]
pub(crate) fn for_each(word: u64, skip: u8, found: impl FnMut(usize, u64)) {
    let word = word & PACKED_BITS;
    let (shubbles, smoles, stot, quarters) = unpack_cells(word);
    let box_now = Packed {
        word,
        shubbles,
        smoles,
        stot,
    };
    // One copy of the work per orientation, so that every turn's gravity
    // and every table row below is a constant.
    match quarters {
        0 => box_now.successors::<0>(skip, found),
        1 => box_now.successors::<1>(skip, found),
        2 => box_now.successors::<2>(skip, found),
        _ => box_now.successors::<3>(skip, found),
    }
}

/// A packed state and its fields.
struct Packed {
    word: u64,
    shubbles: u32,
    smoles: u32,
    stot: u32,
}

impl Packed {
    /// Every operation's successor, unrolled: the order is
    /// [`Operation::ALL`](crate::model::operation::Operation::ALL)'s (a test checks it).
    #[inline(always)]
    fn successors<const Q: u8>(&self, skip: u8, mut found: impl FnMut(usize, u64)) {
        // Skipped operations are not worked out at all.
        #[inline(always)]
        fn offer(
            skip: u8,
            index: usize,
            next: impl FnOnce() -> Option<u64>,
            found: &mut impl FnMut(usize, u64),
        ) {
            if skip >> index & 1 == 0 {
                if let Some(next) = next() {
                    found(index, next);
                }
            }
        }
        // The two quarter turns share their work.
        if skip & 0b11 != 0b11 {
            let [clockwise, counter_clockwise] =
                resting::rest_across(self.shubbles, self.smoles, self.stot, Q);
            offer(skip, 0, || self.turned(clockwise, (Q + 1) & 3), &mut found);
            offer(
                skip,
                1,
                || self.turned(counter_clockwise, (Q + 3) & 3),
                &mut found,
            );
        }
        offer(
            skip,
            2,
            || {
                let half = (Q + 2) & 3;
                self.turned(
                    resting::rest(self.shubbles, self.smoles, self.stot, half),
                    half,
                )
            },
            &mut found,
        );
        offer(
            skip,
            3,
            || self.stot_moved::<Q>(Direction::Left),
            &mut found,
        );
        offer(
            skip,
            4,
            || self.stot_moved::<Q>(Direction::Right),
            &mut found,
        );
        offer(skip, 5, || self.stot_moved::<Q>(Direction::Up), &mut found);
        offer(
            skip,
            6,
            || self.stot_moved::<Q>(Direction::Down),
            &mut found,
        );
    }

    /// The box turned to `to` quarters, where its creatures came to rest
    /// as `rested` says (`None`: a smole fell out).
    #[inline(always)]
    fn turned(&self, rested: Option<(u32, u32)>, to: u8) -> Option<u64> {
        let (shubbles, smoles) = rested?;
        Some(pack_cells(shubbles, smoles, self.stot, to))
    }

    /// The stot moved one cell (BOX.md §5): refused into a wall, the
    /// opening or a creature, and when a creature rests on it. Nothing
    /// falls after a legal move, so the creatures stay where they are.
    #[inline(always)]
    fn stot_moved<const Q: u8>(&self, direction: Direction) -> Option<u64> {
        let stot = Cell::new(self.stot as usize)?;
        let Neighbour::Cell(to) = stot.neighbour(direction) else {
            return None;
        };
        let creatures = self.shubbles | self.smoles;
        let blocked = creatures & (to.bit().bits() | RESTING_ON[Q as usize][stot.index()]) != 0;
        (!blocked).then_some(self.word & !STOT_FIELD | (to.index() as u64) << PACKED_STOT)
    }
}

/// For each orientation and stot cell, the bit of the cell whose creature
/// would rest on the stot (the cell against gravity), or 0.
const RESTING_ON: [[u32; CELL_COUNT]; 4] = {
    let mut table = [[0; CELL_COUNT]; 4];
    let mut quarters = 0;
    while quarters < 4 {
        let above = Orientation::from_quarters(quarters as i32)
            .gravity()
            .opposite();
        let mut cell = 0;
        while cell < CELL_COUNT {
            if let Some(stot) = Cell::new(cell) {
                if let Neighbour::Cell(on) = stot.neighbour(above) {
                    table[quarters][cell] = 1 << on.index();
                }
            }
            cell += 1;
        }
        quarters += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::model::operation::Operation;
    use crate::model::state::State;
    use crate::rules::engine::perform_quietly;
    use crate::rules::scenario::Scenario;

    /// What the engine says each operation from `state` leads to.
    fn by_the_engine(state: &State) -> Vec<(usize, u64)> {
        Operation::ALL
            .into_iter()
            .enumerate()
            .filter_map(|(index, operation)| {
                let mut next = *state;
                perform_quietly(&mut next, operation).ok()?;
                Some((index, next.pack()))
            })
            .collect()
    }

    fn packed(word: u64, skip: u8) -> Vec<(usize, u64)> {
        let mut found = Vec::new();
        for_each(word, skip, |index, next| found.push((index, next)));
        found
    }

    #[test]
    fn operations_come_in_the_order_of_operation_all() {
        use crate::model::operation::format_operations;
        assert_eq!(format_operations(&Operation::ALL), "+-|<>^v");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2_000))]

        /// Along a random run from a random start (any packed word with
        /// two smoles, settled in its own orientation), every operation
        /// from every state reached succeeds or fails as the engine's does
        /// and leads to the same state; spare high bits change nothing,
        /// and `skip` leaves out exactly the operations it names.
        #[test]
        fn successors_agree_with_the_engine(
            word in any::<u64>(),
            run in prop::collection::vec(0..Operation::ALL.len(), 0..30),
            skip in 0u8..128,
        ) {
            let start = State::unpack(word);
            prop_assume!(start.smoles().len() == 2);
            let outcome = Scenario { start, operations: Vec::new(), settle_first: true }.run();
            prop_assume!(outcome.failure.is_none());
            let mut state = outcome.state;
            for step in run {
                let expected = by_the_engine(&state);
                prop_assert_eq!(packed(state.pack(), 0), expected.clone());
                prop_assert_eq!(packed(state.pack() | 0xABC << 50, 0), expected.clone());
                let without: Vec<_> = expected.iter().copied().filter(|&(i, _)| skip >> i & 1 == 0).collect();
                prop_assert_eq!(packed(state.pack(), skip), without);
                if perform_quietly(&mut state, Operation::ALL[step]).is_err() {
                    break;
                }
            }
        }
    }
}
