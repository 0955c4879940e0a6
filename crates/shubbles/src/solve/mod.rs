//! Shortest solutions of the puzzle (issue 4): operations after which every
//! shubble has left the box and both smoles are still in it.
//!
//! Breadth-first search over stable (cells, orientation) states, each packed
//! in one `u64` by [`State::pack`]. Successors come from the crate's
//! `successors` module, the engine's rules worked on the packed word (a
//! property test holds it to [`perform_quietly`](crate::rules::engine::perform_quietly), and so to
//! [`perform`](crate::rules::engine::perform)); an operation that fails (a refused stot
//! move, a smole leaving) leads to no state. Because states are found in
//! order of distance, the first state without shubbles is at the fewest
//! operations (`|` counts as one).
//!
//! A level is expanded in chunks. A chunk's successors are generated in
//! blocks, each successor filed under the shard of the visited set it
//! belongs to (16 shards, by hash); then each shard looks up its own
//! successors and notes which were new; then the new ones are numbered in
//! the order they were generated. On two cores, two threads take whichever
//! of these units is ready, so that one can generate and look up the next
//! chunk while the other numbers; each thread looks up its own half of the
//! shards first, so that a table stays in one processor's cache. Who does
//! which unit changes nothing, and each shard and the numbering take chunks
//! in order, so the answer and every count are those of a one-by-one
//! search whatever the thread count (a test compares them with a
//! straightforward search).
//!
//! Memory is the limit on how far a search can go, so the visited set is
//! compact: small open-addressing tables of hashes (a bijection of the
//! packed word, so equal hashes are equal states), kept between 3/8 and
//! 3/4 full and doubled one after another (about 15.4 bytes per state);
//! one `u32` per state for the parent and the operation (4 bytes, 4.5 with
//! spare capacity); the words of the level being expanded and of the next
//! one (8 bytes per state of those two levels); and the buffers of two
//! chunks, whose size follows the number of states visited. For Figure
//! 1(a) that is about 28 bytes per visited state at the peak.
//!
//! The library draws nothing: progress goes to a [`SolveProgress`], and
//! [`SolveReport::summary`] and [`SolveReport::json`] give the texts a
//! command line prints.
//!
//! The files: `report` (what a search found and tells on the way), `search`
//! (the levels, chunks and blocks, and the path back to the start),
//! `schedule` (which unit of work each thread may take next), `visited`
//! (the set of states seen), `queue` (a state waiting to be expanded, and
//! the operations its expansion may leave out) and `successors` (the rules
//! on packed words).
//!
//! ```
//! use shubbles::{solve, NoProgress, SolveOutcome, State};
//!
//! // One shubble on the stot's right; turning the box so gravity points
//! // right rolls it to cell 28, and turning back lets it fall out.
//! let start = State::parse("...................x...x@o...", false)?;
//! let report = solve(&start, 1_000_000, &mut NoProgress)?;
//! match report.outcome {
//!     SolveOutcome::Solved { operations, .. } => assert_eq!(operations.len(), 2),
//!     other => panic!("expected a solution, got {other:?}"),
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::time::Instant;

mod queue;
mod report;
mod schedule;
mod search;
pub(crate) mod successors;
mod visited;

pub use report::{progress_line, SolveError, SolveOutcome, SolveProgress, SolveReport};
pub use search::MAX_STATES;

use crate::model::operation::{format_operations, Operation};
use crate::model::state::State;
use crate::rules::scenario::Scenario;
use crate::table::{Table, TableError};
use search::Search;

/// Finds a shortest operation string after which no shubble is in the box
/// and no smole has left, holding at most `max_states` states (clamped to
/// [`MAX_STATES`]). The answer has been replayed through the engine.
pub fn solve(
    start: &State,
    max_states: usize,
    progress: &mut impl SolveProgress,
) -> Result<SolveReport, SolveError> {
    if !start.is_stable() {
        return Err(SolveError::UnstableStart);
    }
    let began = Instant::now();
    let mut search = Search::new(max_states.min(MAX_STATES));
    let outcome = search.run(start, progress, began);
    if let SolveOutcome::Solved { operations, .. } = &outcome {
        replay(start, operations)?;
    }
    Ok(SolveReport {
        outcome,
        states_expanded: search.expanded(),
        elapsed: began.elapsed(),
        memory_bytes: search.peak_bytes(),
        from_table: false,
    })
}

/// [`solve`] by reading a [`Table`] instead of searching: the same
/// shortest length, the answer found by descending the table (replayed
/// through the engine like the search's).
pub fn solve_with_table(start: &State, table: &Table) -> Result<SolveReport, TableError> {
    let began = Instant::now();
    let (answer, look_ups) = table.answer_counted(start)?;
    let outcome = match answer {
        Some(operations) => {
            replay(start, &operations).map_err(|_| TableError::Damaged)?;
            SolveOutcome::Solved {
                operations,
                states_visited: look_ups,
            }
        }
        None => SolveOutcome::Unsolvable {
            states_visited: look_ups,
        },
    };
    Ok(SolveReport {
        outcome,
        states_expanded: 0,
        elapsed: began.elapsed(),
        memory_bytes: 0,
        from_table: true,
    })
}

/// Checks with the engine that `operations` empty the box of shubbles
/// without a failure.
fn replay(start: &State, operations: &[Operation]) -> Result<(), SolveError> {
    let run = Scenario {
        start: *start,
        operations: operations.to_vec(),
        settle_first: false,
    }
    .run();
    if run.failure.is_none() && run.state.shubbles().is_empty() {
        Ok(())
    } else {
        Err(SolveError::ReplayMismatch {
            operations: format_operations(operations),
            result: run.result(),
        })
    }
}
