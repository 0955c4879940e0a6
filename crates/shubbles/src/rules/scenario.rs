//! A run: a start state and its operations, played by the engine into a
//! lazy stream of [`Entry`]s (memory stays flat however long the operation
//! string), and how it ended.

use std::collections::VecDeque;

use super::engine::{perform, settle};
use super::frames::Frames;
use crate::model::event::{Entry, Event, Failure};
use crate::model::input_error::InputError;
use crate::model::operation::{parse_operations, Operation};
use crate::model::state::State;

/// A start state and the operations to run on it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Scenario {
    /// The state before the first operation.
    pub start: State,
    /// The operations, in order.
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

    /// Every frame of the run (BOX.md §8), lazily, in order.
    pub fn frames(&self) -> Frames<Simulation<'_>> {
        Frames::new(self.start, self.events())
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
    queue: VecDeque<Entry>,
    finished: bool,
}

impl Simulation<'_> {
    /// Runs the next operation (or the first settling) into the queue.
    fn advance(&mut self) {
        let queue = &mut self.queue;
        let result = if self.settle_pending {
            self.settle_pending = false;
            settle(&mut self.state, &mut |event| {
                queue.push_back(Entry { op: None, event })
            })
        } else if let Some(&operation) = self.operations.get(self.next_operation) {
            let index = self.next_operation;
            self.next_operation += 1;
            perform(&mut self.state, operation, &mut |event| {
                queue.push_back(Entry {
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
    type Item = Entry;

    fn next(&mut self) -> Option<Entry> {
        loop {
            if let Some(entry) = self.queue.pop_front() {
                return Some(entry);
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
    use crate::model::creature::Creature;
    use crate::model::event::Blocked;
    use crate::model::geometry::{Cell, Direction};
    use crate::rules::engine::{perform_quietly, seeded_legal_operations};

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
        for entry in scenario.events() {
            state.apply(&entry.event);
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

    #[test]
    fn figure_1a_has_26_frames() {
        let frames: Vec<_> = Scenario::figure_1a().frames().collect();
        assert_eq!(frames.len(), 26);
        assert_eq!(frames[0].cause, None);
        assert_eq!(frames[6].state.orientation().degrees(), 180);
        assert!(frames.iter().all(|f| f.failure.is_none()));
        assert_eq!(
            frames[25].state.cells_string(),
            "o........@..o....oox...xo...."
        );
    }

    #[test]
    fn a_failure_marks_the_last_frame_without_adding_one() {
        let escape = Scenario::parse("@................x.....o..x..", "+-", false).unwrap();
        let frames: Vec<_> = escape.frames().collect();
        assert_eq!(frames.len(), 9);
        assert_eq!(frames[8].failure, Some(Failure::SmoleEscaped));

        let refused = Scenario::parse("@......................x.x...", "<", false).unwrap();
        let frames: Vec<_> = refused.frames().collect();
        assert_eq!(frames.len(), 1);
        assert!(matches!(
            frames[0].failure,
            Some(Failure::StotBlocked { .. })
        ));
    }
}
