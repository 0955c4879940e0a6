//! What a search found, what it cost, and what it tells on the way.

use std::fmt;
use std::time::Duration;

use crate::model::operation::{format_operations, Operation};
use crate::progress::NoProgress;

/// Told when the search finishes one more level: gifski style, so that a
/// command line can draw progress while the library prints nothing.
pub trait SolveProgress {
    /// Every state reachable in `depth` operations has been found; the
    /// search holds `states_seen` states after `elapsed`.
    fn depth_done(&mut self, depth: usize, states_seen: usize, elapsed: Duration);
}

impl SolveProgress for NoProgress {
    fn depth_done(&mut self, _depth: usize, _states_seen: usize, _elapsed: Duration) {}
}

/// What a search found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveOutcome {
    /// A shortest answer; empty when the start has no shubbles.
    /// `states_visited` counts every distinct state found, the final one
    /// included.
    Solved {
        /// The answer.
        operations: Vec<Operation>,
        /// Distinct states found.
        states_visited: usize,
    },
    /// Every reachable state was visited and none is free of shubbles.
    Unsolvable {
        /// Distinct states found: every reachable one.
        states_visited: usize,
    },
    /// The search stopped because it would have had to hold more than the
    /// allowed number of states; nothing is known about longer answers.
    LimitReached {
        /// Distinct states found before the limit.
        states_visited: usize,
    },
}

impl SolveOutcome {
    /// Distinct states found, whatever the outcome.
    pub fn states_visited(&self) -> usize {
        match *self {
            SolveOutcome::Solved { states_visited, .. }
            | SolveOutcome::Unsolvable { states_visited }
            | SolveOutcome::LimitReached { states_visited } => states_visited,
        }
    }

    /// The exit status a command line should end with: 0 solved, 4 no
    /// solution, 5 limit reached (1, 2 and 3 already mean an error, bad
    /// input and a failed run; see BOX.md §10).
    pub const fn exit_status(&self) -> u8 {
        match self {
            SolveOutcome::Solved { .. } => 0,
            SolveOutcome::Unsolvable { .. } => 4,
            SolveOutcome::LimitReached { .. } => 5,
        }
    }
}

/// An outcome and what it cost.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SolveReport {
    /// What was found.
    pub outcome: SolveOutcome,
    /// States whose successors were generated.
    pub states_expanded: usize,
    /// Wall-clock time of the search and of replaying its answer.
    pub elapsed: Duration,
    /// The most bytes the search held at once in its visited set, parent
    /// records and queue, spare capacity included.
    pub memory_bytes: usize,
    /// Whether the answer was read from a table (`states_visited` then
    /// counts its look-ups) rather than searched for.
    pub from_table: bool,
}

impl SolveReport {
    /// One line for people (the answer itself goes on its own line; see
    /// the `solve` command).
    pub fn summary(&self) -> String {
        let ms = millis(self.elapsed);
        match &self.outcome {
            SolveOutcome::Solved {
                operations,
                states_visited,
            } if self.from_table => format!(
                "solved in {} operation{}: read from the table ({states_visited} look-ups) in {ms:.3} ms",
                operations.len(),
                if operations.len() == 1 { "" } else { "s" },
            ),
            SolveOutcome::Solved {
                operations,
                states_visited,
            } => format!(
                "solved in {} operation{}: {states_visited} states visited in {ms:.1} ms",
                operations.len(),
                if operations.len() == 1 { "" } else { "s" },
            ),
            SolveOutcome::Unsolvable { .. } if self.from_table => {
                format!("no solution: the table says so, in {ms:.3} ms")
            }
            SolveOutcome::Unsolvable { states_visited } => format!(
                "no solution: all {states_visited} reachable states visited in {ms:.1} ms"
            ),
            SolveOutcome::LimitReached { states_visited } => format!(
                "search limit reached: {states_visited} states visited in {ms:.1} ms without a solution"
            ),
        }
    }

    /// The answer as one line of JSON: outcome, answer and its length
    /// (`null` without a solution), states visited and time in
    /// milliseconds.
    pub fn json(&self) -> String {
        let (outcome, answer, length) = match &self.outcome {
            SolveOutcome::Solved { operations, .. } => (
                "solved",
                // Operation characters need no escaping in JSON.
                format!("\"{}\"", format_operations(operations)),
                operations.len().to_string(),
            ),
            SolveOutcome::Unsolvable { .. } => ("unsolvable", "null".into(), "null".into()),
            SolveOutcome::LimitReached { .. } => ("limit_reached", "null".into(), "null".into()),
        };
        format!(
            "{{\"outcome\":\"{outcome}\",\"answer\":{answer},\"length\":{length},\"states_visited\":{},{}\"time_ms\":{:.3}}}",
            self.outcome.states_visited(),
            if self.from_table { "\"source\":\"table\"," } else { "" },
            millis(self.elapsed),
        )
    }
}

/// A progress line for a terminal: depth, states seen and their rate.
pub fn progress_line(depth: usize, states_seen: usize, elapsed: Duration) -> String {
    let seconds = elapsed.as_secs_f64();
    let rate = if seconds > 0.0 {
        states_seen as f64 / seconds / 1e6
    } else {
        0.0
    };
    format!("depth {depth}: {states_seen} states seen, {rate:.1} M states/s")
}

fn millis(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}

/// Why a search gave no outcome.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The start would fall: only stable states are searched (settle it
    /// first).
    UnstableStart,
    /// The engine does not agree that the answer found works. This is a
    /// bug in the solver; the answer is never given out.
    ReplayMismatch {
        /// The answer, as an operation string.
        operations: String,
        /// What the engine makes of it.
        result: String,
    },
}

impl fmt::Display for SolveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SolveError::UnstableStart => {
                write!(f, "the start is not stable: let it settle before solving")
            }
            SolveError::ReplayMismatch { operations, result } => write!(
                f,
                "internal error: the solver's answer {operations:?} does not replay to a box without shubbles (the engine gives {result}); please report this"
            ),
        }
    }
}

impl std::error::Error for SolveError {}
