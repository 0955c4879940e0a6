//! What a turn costs on the clock when nobody measures it: the virtual
//! clock of §15.1, a deterministic model of the physical game, and the flat
//! cost a searcher assumes under the wall clock, where a turn takes as long
//! as the program thinks.

use crate::model::turn::Step;

/// `clear`: 2,000 ms, and 500 ms per object and 1,000 ms per cell after the
/// first (§15.1).
pub const CLEAR_MS: u64 = 2_000;
/// `place`: 1,500 ms and 500 ms per object.
pub const PLACE_MS: u64 = 1_500;
/// Per object cleared or placed.
pub const OBJECT_MS: u64 = 500;
/// Per cell of a clear after the first.
pub const EXTRA_CELL_MS: u64 = 1_000;
/// `move`.
pub const MOVE_MS: u64 = 1_500;
/// `pass`.
pub const PASS_MS: u64 = 500;
/// `empty`: the walk to the dump outside the field and back.
pub const EMPTY_MS: u64 = 6_000;

/// How a searcher prices a turn.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CostModel {
    /// The virtual clock of §15.1: each step its cost.
    Virtual,
    /// Every turn the same, whatever it does (under the wall clock a turn
    /// lasts as long as its thinking); at least 1 ms, so that every turn
    /// brings the end nearer.
    Flat(u64),
}

/// The virtual clock's duration of a turn of `steps` (§15.1).
pub fn virtual_duration(steps: &[Step]) -> u64 {
    steps
        .iter()
        .map(|step| match step {
            Step::Clear(items) => {
                clear_ms(items.len(), items.iter().map(|i| u64::from(i.count)).sum())
            }
            Step::Place(items) => place_ms(items.iter().map(|i| u64::from(i.count)).sum()),
            Step::Move(_) => MOVE_MS,
            Step::Pass => PASS_MS,
            Step::Empty => EMPTY_MS,
        })
        .sum()
}

/// A clear of `objects` from `cells` cells.
pub const fn clear_ms(cells: usize, objects: u64) -> u64 {
    CLEAR_MS + OBJECT_MS * objects + EXTRA_CELL_MS * (cells as u64).saturating_sub(1)
}

/// A place of `objects`.
pub const fn place_ms(objects: u64) -> u64 {
    PLACE_MS + OBJECT_MS * objects
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::field::Cell;
    use crate::model::turn::Item;

    fn item(name: &str, count: u32) -> Item {
        Item {
            cell: Cell::parse(name).expect("a cell"),
            count,
        }
    }

    #[test]
    fn each_step_costs_what_section_15_1_says() {
        let clear = Step::Clear(vec![item("b1", 2), item("a2", 2)]);
        // 2,000 + 4 × 500 + 1 × 1,000.
        assert_eq!(virtual_duration(std::slice::from_ref(&clear)), 5_000);
        assert_eq!(virtual_duration(&[clear, Step::Empty]), 11_000);
        assert_eq!(virtual_duration(&[Step::Place(vec![item("d2", 1)])]), 2_000);
        assert_eq!(
            virtual_duration(&[Step::Move(Cell::parse("c2").expect("a cell"))]),
            1_500
        );
        assert_eq!(virtual_duration(&[Step::Empty, Step::Pass]), 6_500);
    }
}
