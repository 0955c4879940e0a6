//! The operations run backwards: the states of the same layer from which
//! one operation leads to a given stable state. The retrograde analysis
//! walks these edges from the states it has settled to the ones it has
//! not.
//!
//! - A stot move back: the stot one cell the other way, where the state
//!   with it there is stable and nothing rests on it (BOX.md §5).
//! - A half turn back: the creatures of each segment at its other end,
//!   in the same order (a segment under gravity is the same cells under
//!   the opposite gravity).
//! - A quarter turn back: any occupancy, stable under the gravity before
//!   the turn, with as many creatures in each segment of the gravity after
//!   it as the state has. Which occupancies those are depends only on the
//!   state's occupancy, so they are listed once per pattern; the smoles
//!   come from where the state's smoles are in their segments, since
//!   creatures keep their order as they fall.
//!
//! A turn that drops a shubble through the opening leaves the layer; the
//! build handles those edges forwards (see `build`). Tests hold every
//! edge here against the forward successors of the solver.

use super::index::{shape_number, Index, Pattern, SHAPES};
use crate::model::geometry::{Cell, Direction, Neighbour, Orientation, CELL_COUNT};

/// No slot.
const NO_SLOT: u32 = u32::MAX;

/// The patterns one turn away, backwards.
pub(crate) struct Predecessors {
    /// For each slot, the slot it is from by a half turn, or [`NO_SLOT`].
    half_turn: Vec<u32>,
    /// For `+` (`[0]`) and `-` (`[1]`): where each slot's list of the
    /// slots it is from starts in `quarter_lists`; one more entry ends the
    /// last list.
    quarter_starts: [Vec<u32>; 2],
    quarter_lists: [Vec<u32>; 2],
    /// For each shape, the bit of the cell a creature would rest on the
    /// stot from (against gravity), or 0.
    resting_on: [u32; SHAPES],
}

impl Predecessors {
    /// The lists for every pattern of `index`.
    pub(crate) fn new(index: &Index) -> Predecessors {
        let slots = index.slots();
        let mut half_turn = vec![NO_SLOT; slots];
        // (to, from) pairs for each quarter turn, then grouped by `to`.
        let mut quarter_edges: [Vec<(u32, u32)>; 2] = [Vec::new(), Vec::new()];
        for layer in &index.layers {
            for pattern in layer {
                let quarters = pattern.shape / CELL_COUNT as u8;
                let stot = pattern.shape % CELL_COUNT as u8;
                for (op, turned) in [(quarters + 1) & 3, (quarters + 3) & 3]
                    .into_iter()
                    .enumerate()
                {
                    // Heights counted in the turned box's segments are where
                    // everything comes to rest; `None`: a creature falls out.
                    if let Some(to) = index.slot_after_fall(shape_number(turned, stot), pattern) {
                        quarter_edges[op].push((to, pattern.slot));
                    }
                }
                half_turn[pattern.slot as usize] = Self::half_turn_from(index, pattern);
            }
        }
        let quarter = |edges: &mut Vec<(u32, u32)>| {
            edges.sort_unstable();
            let mut starts = Vec::with_capacity(slots + 1);
            let mut at = 0;
            for slot in 0..slots as u32 {
                starts.push(at as u32);
                while at < edges.len() && edges[at].0 == slot {
                    at += 1;
                }
            }
            starts.push(at as u32);
            let lists = edges.iter().map(|&(_, from)| from).collect();
            (starts, lists)
        };
        let (plus_starts, plus_lists) = quarter(&mut quarter_edges[0]);
        let (minus_starts, minus_lists) = quarter(&mut quarter_edges[1]);
        let mut resting_on = [0; SHAPES];
        for (shape, bit) in resting_on.iter_mut().enumerate() {
            let quarters = shape / CELL_COUNT;
            let above = Orientation::from_quarters(quarters as i32)
                .gravity()
                .opposite();
            if let Some(stot) = Cell::new(shape % CELL_COUNT) {
                if let Neighbour::Cell(on) = stot.neighbour(above) {
                    *bit = 1 << on.index();
                }
            }
        }
        Predecessors {
            half_turn,
            quarter_starts: [plus_starts, minus_starts],
            quarter_lists: [plus_lists, minus_lists],
            resting_on,
        }
    }

    /// The slot from which a half turn leads to `pattern`: each segment's
    /// creatures at its other end.
    fn half_turn_from(index: &Index, pattern: &Pattern) -> u32 {
        let quarters = pattern.shape / CELL_COUNT as u8;
        let stot = pattern.shape % CELL_COUNT as u8;
        let mut from = 0u32;
        for cells in index.segments(pattern.shape) {
            let height = cells
                .iter()
                .filter(|&&cell| pattern.occupancy >> cell & 1 == 1)
                .count();
            for &cell in &cells[cells.len() - height..] {
                from |= 1 << cell;
            }
        }
        index
            .slot(shape_number((quarters + 2) & 3, stot), from)
            .unwrap_or(NO_SLOT)
    }

    /// Calls `found(rank)` with the number of every state of layer `n`
    /// from which one operation leads to the state of `pattern` whose
    /// smoles are `smoles`. A state may be named more than once.
    #[inline]
    pub(crate) fn for_each(
        &self,
        index: &Index,
        n: usize,
        pattern: &Pattern,
        smoles: u32,
        mut found: impl FnMut(u64),
    ) {
        let occupancy = pattern.occupancy;
        let quarters = pattern.shape / CELL_COUNT as u8;
        let stot = Cell::new((pattern.shape % CELL_COUNT as u8) as usize);
        // Stot moves: the stot came from its neighbour the other way.
        for direction in Direction::ALL {
            let Some(stot) = stot else { break };
            let Neighbour::Cell(from) = stot.neighbour(direction.opposite()) else {
                continue;
            };
            if occupancy >> from.index() & 1 == 1 {
                continue;
            }
            let shape = shape_number(quarters, from.index() as u8);
            // Nothing may rest on the stot that moves.
            if occupancy & self.resting_on[shape as usize] != 0 {
                continue;
            }
            if let Some(slot) = index.slot(shape, occupancy) {
                found(index.rank_in_slot(slot, occupancy, smoles));
            }
        }
        // Turns: the smoles are where they were in their segments.
        let mut from_slot = |slot: u32| {
            let from = index.pattern_of_slot(slot, n).occupancy;
            let lower = smoles.trailing_zeros() as u8;
            let higher = 31 - smoles.leading_zeros() as u8;
            let moved = 1 << index.fallen_from(pattern.shape, lower, from)
                | 1 << index.fallen_from(pattern.shape, higher, from);
            found(index.rank_in_slot(slot, from, moved));
        };
        let half = self.half_turn[pattern.slot as usize];
        if half != NO_SLOT {
            from_slot(half);
        }
        for op in 0..2 {
            let starts = &self.quarter_starts[op];
            let range =
                starts[pattern.slot as usize] as usize..starts[pattern.slot as usize + 1] as usize;
            for &slot in &self.quarter_lists[op][range] {
                from_slot(slot);
            }
        }
    }
}

impl Index {
    /// The slot of the pattern that `pattern`'s creatures rest as in shape
    /// `shape` (same stot), or `None` if one falls out of the box: the
    /// heights counted in that shape's segments are where they rest.
    fn slot_after_fall(&self, shape: u8, pattern: &Pattern) -> Option<u32> {
        let shape = &self.shapes[shape as usize];
        Some(shape.first_slot + shape.key(pattern.occupancy)?)
    }
}
