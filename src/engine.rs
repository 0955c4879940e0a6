//! The rules (BOX.md §3 to §5) as producers of events.
//!
//! [`perform`] and [`settle`] decide what happens and hand each event to a
//! sink after folding it into the state with [`State::apply`], so the state a
//! caller holds is always the fold of the events it was given. [`Simulation`]
//! turns a whole scenario into a lazy stream of [`Record`]s: memory stays flat
//! however long the operation string.

use std::collections::VecDeque;

use crate::error::InputError;
use crate::event::{Blocked, Event, Failure, Record};
use crate::geometry::{Direction, Neighbour, Orientation, OPENING_CELL};
use crate::operation::{parse_operations, Operation, Turn};
use crate::state::{Content, Creature, State};

/// Applies one operation and lets the box settle. On failure the events up
/// to and including [`Event::Failed`] have been emitted.
#[inline]
pub fn perform(
    state: &mut State,
    operation: Operation,
    emit: &mut impl FnMut(Event),
) -> Result<(), Failure> {
    match operation {
        Operation::Turn(turn) => {
            let from = state.orientation();
            let quarters: &[Orientation] = match turn {
                Turn::Clockwise => &[from.clockwise()],
                Turn::CounterClockwise => &[from.counter_clockwise()],
                Turn::Half => &[from.clockwise(), from.clockwise().clockwise()],
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
        Operation::Turn(turn) => {
            let from = state.orientation();
            let to = match turn {
                Turn::Clockwise => from.clockwise(),
                Turn::CounterClockwise => from.counter_clockwise(),
                Turn::Half => from.clockwise().clockwise(),
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
/// shifts of [`Direction::step`] are constants.
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
fn stot_destination(state: &State, direction: Direction) -> Result<crate::Cell, Blocked> {
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

/// A start state and the operations to run on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    pub start: State,
    pub operations: Vec<Operation>,
    /// Let an unstable start fall before the first operation (those ticks
    /// are events and frames too).
    pub settle_first: bool,
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The last state: after all operations, or at the failure.
    pub state: State,
    /// The failure and the index of the operation that caused it (`None`
    /// when it happened while the start settled).
    pub failure: Option<(Option<usize>, Failure)>,
}

impl Outcome {
    /// The result of BOX.md §6: the final state string, or `!`.
    pub fn result(&self) -> String {
        match self.failure {
            Some(_) => "!".to_string(),
            None => self.state.cells_string(),
        }
    }
}

impl Scenario {
    /// The scenario of Figure 1(a) of the original puzzle, used by `demo`.
    pub fn figure_1a() -> Scenario {
        Scenario::parse(".........@...o....ooo..xox...", "+>|<-v+^+", false)
            .expect("Figure 1(a) is a valid scenario")
    }

    /// Reads a state string and an operation string (BOX.md §2, §3).
    pub fn parse(
        state: &str,
        operations: &str,
        settle_first: bool,
    ) -> Result<Scenario, InputError> {
        Ok(Scenario {
            start: State::parse(state, settle_first)?,
            operations: parse_operations(operations)?,
            settle_first,
        })
    }

    /// Reads the whitespace-separated form of standard input: a state, then
    /// optionally the operations, and nothing else.
    pub fn from_text(text: &str, settle_first: bool) -> Result<Scenario, InputError> {
        let mut tokens = text.split_whitespace();
        let state = tokens.next().ok_or(InputError::Empty)?;
        let operations = tokens.next().unwrap_or("");
        let extra: Vec<&str> = tokens.collect();
        if let Some(first) = extra.first() {
            return Err(InputError::ExtraTokens {
                first: first.to_string(),
                count: extra.len(),
            });
        }
        Scenario::parse(state, operations, settle_first)
    }

    /// Why a run ended with `!`, in words: which operation failed and how.
    pub fn explain_failure(&self, op: Option<usize>, failure: Failure) -> String {
        match op.and_then(|i| self.operations.get(i).map(|operation| (i, operation))) {
            Some((i, operation)) => format!(
                "the run failed at operation {} `{operation}` ({}): {failure}",
                i + 1,
                operation.description()
            ),
            None => format!("the run failed while the start settled: {failure}"),
        }
    }

    /// Every event of the run, lazily.
    pub fn events(&self) -> Simulation<'_> {
        Simulation {
            state: self.start,
            operations: &self.operations,
            next_operation: 0,
            settle_pending: self.settle_first,
            queue: VecDeque::new(),
            finished: false,
        }
    }

    /// Runs the scenario without keeping its events.
    pub fn run(&self) -> Outcome {
        let mut state = self.start;
        let mut ignore = |_: Event| {};
        if self.settle_first {
            if let Err(failure) = settle(&mut state, &mut ignore) {
                return Outcome {
                    state,
                    failure: Some((None, failure)),
                };
            }
        }
        for (index, &operation) in self.operations.iter().enumerate() {
            if let Err(failure) = perform(&mut state, operation, &mut ignore) {
                return Outcome {
                    state,
                    failure: Some((Some(index), failure)),
                };
            }
        }
        Outcome {
            state,
            failure: None,
        }
    }
}

/// The events of a scenario as an iterator, produced one operation at a time.
pub struct Simulation<'a> {
    state: State,
    operations: &'a [Operation],
    next_operation: usize,
    settle_pending: bool,
    queue: VecDeque<Record>,
    finished: bool,
}

impl Simulation<'_> {
    /// Runs the next operation (or the first settling) into the queue.
    fn advance(&mut self) {
        let queue = &mut self.queue;
        let result = if self.settle_pending {
            self.settle_pending = false;
            settle(&mut self.state, &mut |event| {
                queue.push_back(Record { op: None, event })
            })
        } else if let Some(&operation) = self.operations.get(self.next_operation) {
            let index = self.next_operation;
            self.next_operation += 1;
            perform(&mut self.state, operation, &mut |event| {
                queue.push_back(Record {
                    op: Some(index),
                    event,
                })
            })
        } else {
            self.finished = true;
            return;
        };
        if result.is_err() {
            self.finished = true;
        }
    }
}

impl Iterator for Simulation<'_> {
    type Item = Record;

    fn next(&mut self) -> Option<Record> {
        loop {
            if let Some(record) = self.queue.pop_front() {
                return Some(record);
            }
            if self.finished {
                return None;
            }
            self.advance();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::geometry::Cell;

    fn outcome(state: &str, ops: &str) -> String {
        Scenario::parse(state, ops, false).unwrap().run().result()
    }

    #[test]
    fn figure_1a_under_the_seed_operations() {
        assert_eq!(
            outcome(".........@...o....ooo..xox...", "+>|<-v+^+"),
            "o........@..o....oox...xo...."
        );
    }

    #[test]
    fn no_operations_leave_the_state_alone() {
        assert_eq!(
            outcome(".........@...o....ooo..xox...", ""),
            ".........@...o....ooo..xox..."
        );
    }

    #[test]
    fn refused_stot_moves_fail_the_run() {
        // Into a wall: cell 0 has nothing to its left.
        let run = Scenario::parse("@......................x.x...", "<", false)
            .unwrap()
            .run();
        assert_eq!(run.result(), "!");
        assert_eq!(
            run.failure,
            Some((
                Some(0),
                Failure::StotBlocked {
                    from: Cell::new(0).unwrap(),
                    direction: Direction::Left,
                    reason: Blocked::Wall
                }
            ))
        );
        // Through the opening, from cell 28.
        let run = Scenario::parse(".......................xx...@", "v", false)
            .unwrap()
            .run();
        assert!(matches!(
            run.failure,
            Some((
                Some(0),
                Failure::StotBlocked {
                    reason: Blocked::Opening,
                    ..
                }
            ))
        ));
        // Onto a creature, and with a creature resting on the stot (19).
        let loaded = "...................x...x@....";
        assert_eq!(outcome(loaded, "<"), "!");
        assert_eq!(outcome(loaded, ">"), "!");
        // Turned upside down, 19 is no longer on top of the stot: 29 is.
        assert_eq!(
            outcome(loaded, "|>"),
            outcome(loaded, "|").replacen("@.", ".@", 1)
        );
        assert_eq!(
            outcome(".......................x@..x.", ">"),
            ".......................x.@.x."
        );
    }

    #[test]
    fn a_smole_through_the_opening_fails_the_run() {
        let run = Scenario::parse("@................x.....o..x..", "+-", false)
            .unwrap()
            .run();
        assert_eq!(run.failure, Some((Some(1), Failure::SmoleEscaped)));
        assert_eq!(run.state.exit(), Some(Creature::Smole));
    }

    #[test]
    fn the_event_stream_folds_to_the_same_state_as_the_run() {
        let scenario = Scenario::figure_1a();
        let mut state = scenario.start;
        for record in scenario.events() {
            state.apply(&record.event);
        }
        assert_eq!(state, scenario.run().state);
    }

    #[test]
    fn quiet_operations_agree_with_the_events() {
        let scenario = Scenario::figure_1a();
        let mut loud = scenario.start;
        let mut quiet = scenario.start;
        for &operation in &scenario.operations {
            let expected = perform(&mut loud, operation, &mut |_| {});
            assert_eq!(perform_quietly(&mut quiet, operation), expected);
            assert_eq!(quiet, loud);
        }
        // A refused move and a smole through the opening fail alike.
        for (start, ops) in [
            ("@......................x.x...", "<"),
            ("@................x.....o..x..", "+-"),
        ] {
            let scenario = Scenario::parse(start, ops, false).unwrap();
            let mut loud = scenario.start;
            let mut quiet = scenario.start;
            for &operation in &scenario.operations {
                let expected = perform(&mut loud, operation, &mut |_| {});
                assert_eq!(perform_quietly(&mut quiet, operation), expected);
                if expected.is_err() {
                    break;
                }
                assert_eq!(quiet, loud);
            }
        }
    }

    #[test]
    fn seeded_operations_are_reproducible_and_never_fail() {
        let start = Scenario::figure_1a().start;
        let ops = seeded_legal_operations(start, 500, 7);
        assert_eq!(ops.len(), 500);
        assert_eq!(ops, seeded_legal_operations(start, 500, 7));
        assert_ne!(ops, seeded_legal_operations(start, 500, 8));
        let run = Scenario {
            start,
            operations: ops,
            settle_first: false,
        };
        assert_eq!(run.run().failure, None);
    }

    #[test]
    fn standard_input_takes_two_tokens_at_most() {
        assert_eq!(Scenario::from_text("  \n", false), Err(InputError::Empty));
        let extra = Scenario::from_text(".........@...o....ooo..xox... + - |", false);
        assert_eq!(
            extra,
            Err(InputError::ExtraTokens {
                first: "-".into(),
                count: 2
            })
        );
        let only_state = Scenario::from_text(".........@...o....ooo..xox...\n", false).unwrap();
        assert!(only_state.operations.is_empty());
    }
}
