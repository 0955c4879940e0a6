//! The rules (BOX.md §3 to §5) as producers of events.
//!
//! [`perform`] and [`settle`] decide what happens and hand each event to a
//! sink after folding it into the state with [`State::apply`], so the state a
//! caller holds is always the fold of the events it was given.

use crate::model::creature::{Content, Creature};
use crate::model::event::{Blocked, Event, Failure};
use crate::model::geometry::{Cell, Direction, Neighbour, Orientation, OPENING_CELL};
use crate::model::operation::{Operation, Rotation};
use crate::model::state::State;

/// Applies one operation and lets the box settle. On failure the events up
/// to and including [`Event::Failed`] have been emitted.
#[inline]
pub fn perform(
    state: &mut State,
    operation: Operation,
    emit: &mut impl FnMut(Event),
) -> Result<(), Failure> {
    match operation {
        Operation::Rotate(turn) => {
            let from = state.orientation();
            let quarters: &[Orientation] = match turn {
                Rotation::Clockwise => &[from.clockwise()],
                Rotation::CounterClockwise => &[from.counter_clockwise()],
                Rotation::Half => &[from.clockwise(), from.clockwise().clockwise()],
            };
            let mut previous = from;
            for &to in quarters {
                record(state, Event::Turned { from: previous, to }, emit);
                previous = to;
            }
        }
        Operation::StotMove(direction) => {
            let from = state.stot();
            match stot_destination(state, direction) {
                Ok(to) => record(state, Event::StotMoved { from, to }, emit),
                Err(reason) => {
                    let failure = Failure::StotBlocked {
                        from,
                        direction,
                        reason,
                    };
                    record(state, Event::Failed(failure), emit);
                    return Err(failure);
                }
            }
        }
    }
    // A legal stot move never makes anything fall; settling anyway checks
    // that rather than assuming it.
    settle(state, emit)
}

/// [`perform`] for callers that ignore events (the solver): the same
/// resulting state and failures, with the falling worked out in one step
/// by [`State::settled`] instead of tick by tick. A turn's quarters are
/// not shown, so they are one change of orientation.
#[inline(always)]
pub fn perform_quietly(state: &mut State, operation: Operation) -> Result<(), Failure> {
    match operation {
        Operation::Rotate(turn) => {
            let from = state.orientation();
            let to = match turn {
                Rotation::Clockwise => from.clockwise(),
                Rotation::CounterClockwise => from.counter_clockwise(),
                Rotation::Half => from.clockwise().clockwise(),
            };
            state.apply(&Event::Turned { from, to });
            *state = state.settled()?;
            Ok(())
        }
        Operation::StotMove(direction) => {
            let from = state.stot();
            let to = stot_destination(state, direction).map_err(|reason| Failure::StotBlocked {
                from,
                direction,
                reason,
            })?;
            state.apply(&Event::StotMoved { from, to });
            // A legal stot move makes nothing fall (BOX.md §5: nothing
            // rested on the stot, or `stot_destination` refused the move).
            // `perform` checks it by settling; here debug builds check it,
            // and a property test checks that both agree.
            debug_assert!(state.is_stable(), "a legal stot move made something fall");
            Ok(())
        }
    }
}

/// Lets creatures fall, one tick at a time, until nothing moves.
///
/// Gravity cannot change while the box settles, so this matches on it once
/// and runs a copy of the tick loop per direction, in which the masked
/// shifts of each step are constants.
#[inline]
pub fn settle(state: &mut State, emit: &mut impl FnMut(Event)) -> Result<(), Failure> {
    // Matching on the orientation itself (not on its gravity) lets the
    // compiler see the orientation in each arm, so the fold of a fall in
    // `State::apply` gets its constant shifts too.
    match state.orientation().quarters() {
        0 => settle_towards(state, Direction::Down, emit),
        1 => settle_towards(state, Direction::Right, emit),
        2 => settle_towards(state, Direction::Up, emit),
        _ => settle_towards(state, Direction::Left, emit),
    }
}

/// The tick loop of [`settle`] for the state's gravity, `gravity`.
#[inline(always)]
fn settle_towards(
    state: &mut State,
    gravity: Direction,
    emit: &mut impl FnMut(Event),
) -> Result<(), Failure> {
    loop {
        let moved = state.falling_towards(gravity);
        if moved.is_empty() && state.exit().is_none() {
            return Ok(());
        }
        let through_opening = if gravity == Direction::Down && moved.contains(OPENING_CELL) {
            state.creature(OPENING_CELL)
        } else {
            None
        };
        record(state, Event::Fell { moved }, emit);
        if let Some(creature) = through_opening {
            record(state, Event::Left { creature }, emit);
            if creature == Creature::Smole {
                record(state, Event::Failed(Failure::SmoleEscaped), emit);
                return Err(Failure::SmoleEscaped);
            }
        }
    }
}

#[inline]
fn record(state: &mut State, event: Event, emit: &mut impl FnMut(Event)) {
    state.apply(&event);
    emit(event);
}

/// Where the stot would go, or why it cannot (BOX.md §5).
fn stot_destination(state: &State, direction: Direction) -> Result<Cell, Blocked> {
    let from = state.stot();
    let to = match from.neighbour(direction) {
        Neighbour::Cell(to) => to,
        Neighbour::Wall => return Err(Blocked::Wall),
        Neighbour::Opening => return Err(Blocked::Opening),
    };
    if let Content::Creature(creature) = state.content(to) {
        return Err(Blocked::Occupied { cell: to, creature });
    }
    let above = from.neighbour(state.orientation().gravity().opposite());
    if let Neighbour::Cell(cell) = above {
        if let Some(creature) = state.creature(cell) {
            return Err(Blocked::Loaded { cell, creature });
        }
    }
    Ok(to)
}

/// The operations of `candidates` that succeed one after the other from
/// `start`, skipping each that would fail where the run then is: a way to
/// make long runs that do not end at the first refused move (benchmarks,
/// property tests).
pub fn legal_operations(
    start: State,
    candidates: impl IntoIterator<Item = Operation>,
) -> Vec<Operation> {
    let mut state = start;
    candidates
        .into_iter()
        .filter(|&operation| {
            let mut next = state;
            let succeeded = perform(&mut next, operation, &mut |_| {}).is_ok();
            if succeeded {
                state = next;
            }
            succeeded
        })
        .collect()
}

/// `length` operations from `start` that never fail, the same on every
/// machine: candidates drawn from a seeded xorshift64 sequence, each kept
/// only if it succeeds from where the run is. A random string fails within
/// a few operations; benchmarks and measurements of long runs need this.
/// Fewer than `length` only if the run gets stuck (no candidate in four
/// times `length` succeeds).
pub fn seeded_legal_operations(start: State, length: usize, seed: u64) -> Vec<Operation> {
    // xorshift64 never leaves zero, so a zero seed is moved off it.
    let mut seed = seed.max(1);
    let candidates = std::iter::repeat_with(move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        Operation::ALL[(seed % 7) as usize]
    });
    let mut operations = legal_operations(start, candidates.take(length * 4));
    operations.truncate(length);
    operations
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::geometry::CellSet;

    /// A state of any cells (a creature may be in cell 28 whatever the
    /// orientation), any orientation, and anything in the exit cell.
    fn arbitrary_state(shubbles: u32, smoles: u32, stot: usize, quarters: i32, exit: u8) -> State {
        let stot = Cell::new(stot).expect("a cell");
        let smoles = CellSet::from_bits(smoles).without(stot.bit());
        let exit = match exit {
            1 => Some(Creature::Shubble),
            2 => Some(Creature::Smole),
            _ => None,
        };
        State::from_parts(
            CellSet::from_bits(shubbles).without(smoles.union(stot.bit())),
            smoles,
            stot,
            Orientation::from_quarters(quarters),
            exit,
        )
    }

    /// The tick-by-tick settle of the engine, as a result.
    fn settled_by_ticks(state: &State) -> Result<State, Failure> {
        let mut state = *state;
        settle(&mut state, &mut |_| {})?;
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
}
