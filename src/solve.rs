//! Shortest solutions of the puzzle (issue 4): operations after which every
//! shubble has left the box and both smoles are still in it.
//!
//! Breadth-first search over stable (cells, orientation) states, each packed
//! in one `u64` by [`State::pack`]. Successors come from
//! the crate's `successors` module, the engine's rules worked on the packed word (a
//! property test holds it to [`crate::engine::perform_quietly`], and so to
//! [`crate::engine::perform`]); an operation that fails (a refused stot
//! move, a smole leaving) leads to no state. Because states are found in
//! order of distance, the first state without shubbles is at the fewest
//! operations (`|` counts as one).
//!
//! Memory is the limit on how far a search can go, so the visited set is
//! compact: an open-addressing table holding the packed words themselves,
//! kept between 1/2 and 3/4 full (10.7 to 16 bytes per state), one `u32`
//! per state for the parent and the operation (4 bytes, 4.5 with spare
//! capacity), and the words of the level being expanded and of the next
//! one (8 bytes per state of those two levels), plus fixed-size buffers of
//! successors waiting to be looked up. For Figure 1(a) that is 24.6 bytes
//! per visited state at the peak.
//!
//! Speed comes from the engine's closed-form settle and from the
//! table: successors of [`BATCH`] states are generated first and their
//! home slots all read before the look-ups start, so their cache misses
//! overlap; a look-up then reads one place in memory. On a machine with
//! two or more cores, a second thread generates the successors of large
//! levels ahead of the look-ups, which stay on one thread and in order, so
//! the answer and every count are the same whatever the thread count.
//!
//! The library draws nothing: progress goes to a [`SolveProgress`], and
//! [`SolveReport::summary`] and [`SolveReport::json`] give the texts a
//! command line prints.
//!
//! ```
//! use shubbles::solve::{solve, NoProgress, SolveOutcome};
//! use shubbles::State;
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

use std::fmt;
use std::sync::mpsc;
use std::thread;
use std::time::{Duration, Instant};

use crate::engine::Scenario;
use crate::operation::{format_operations, Operation};
use crate::state::State;
use crate::successors::PACKED_BITS;

/// The most states a search can hold: a parent record keeps the parent's
/// index in 29 bits next to the 3-bit operation. Larger limits are clamped
/// to this (about 13 GB of visited set).
pub const MAX_STATES: usize = 1 << 29;

/// Told when the search finishes one more level: gifski style, so that a
/// command line can draw progress while the library prints nothing.
pub trait SolveProgress {
    /// Every state reachable in `depth` operations has been found; the
    /// search holds `states_seen` states after `elapsed`.
    fn depth_done(&mut self, depth: usize, states_seen: usize, elapsed: Duration);
}

/// Progress that goes nowhere.
pub struct NoProgress;

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
        operations: Vec<Operation>,
        states_visited: usize,
    },
    /// Every reachable state was visited and none is free of shubbles.
    Unsolvable { states_visited: usize },
    /// The search stopped because it would have had to hold more than the
    /// allowed number of states; nothing is known about longer answers.
    LimitReached { states_visited: usize },
}

impl SolveOutcome {
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
    pub outcome: SolveOutcome,
    /// States whose successors were generated.
    pub states_expanded: usize,
    /// Wall-clock time of the search and of replaying its answer.
    pub elapsed: Duration,
    /// The most bytes the search held at once in its visited set, parent
    /// records and queue, spare capacity included.
    pub memory_bytes: usize,
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
            } => format!(
                "solved in {} operation{}: {states_visited} states visited in {ms:.1} ms",
                operations.len(),
                if operations.len() == 1 { "" } else { "s" },
            ),
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
            "{{\"outcome\":\"{outcome}\",\"answer\":{answer},\"length\":{length},\"states_visited\":{},\"time_ms\":{:.3}}}",
            self.outcome.states_visited(),
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
    ReplayMismatch { operations: String, result: String },
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
        states_expanded: search.expanded,
        elapsed: began.elapsed(),
        memory_bytes: search.peak_bytes,
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

/// One breadth-first search.
struct Search {
    visited: Visited,
    /// One record per state in discovery order (its id): the parent's id
    /// and the operation, enough to spell the path back to the start.
    parents: Vec<u32>,
    max_states: usize,
    expanded: usize,
    /// With a second thread, the states per chunk of a pipelined level
    /// ([`PIPELINE_CHUNK`]; smaller in tests).
    pipeline: Option<usize>,
    /// The most bytes held at once by the table, the parent records and
    /// the two levels of the queue.
    peak_bytes: usize,
}

/// How many states have their successors generated before any of those
/// successors is looked up: their table slots are all touched first, so
/// the cache misses overlap instead of following one another.
const BATCH: usize = 64;

/// Levels of fewer chunks than this are expanded on one thread: a second
/// thread would cost more to start than it saves.
const PIPELINE_MIN_CHUNKS: usize = 16;

/// States whose successors are generated together in a pipelined level.
const PIPELINE_CHUNK: usize = 256;

/// The looking-up thread generates chunk `i` itself when
/// `i % PIPELINE_SHARE == PIPELINE_SHARE - 1`.
const PIPELINE_SHARE: usize = 3;

/// True for the chunks of a level whose successors the looking-up thread
/// generates itself.
#[inline]
fn generated_here(chunk_index: usize) -> bool {
    chunk_index % PIPELINE_SHARE == PIPELINE_SHARE - 1
}

/// Chunks of successors that may wait for their look-ups; with the one
/// being generated and the one being looked up, at most this plus two
/// buffers exist.
const PIPELINE_DEPTH: usize = 2;

/// A successor waiting to be looked up.
#[derive(Clone, Copy)]
struct Candidate {
    word: u64,
    record: u32,
    /// What the expansion of this state may leave out.
    skip: u8,
    /// No shubble is left in it.
    goal: bool,
}

impl Search {
    fn new(max_states: usize) -> Search {
        Search {
            visited: Visited::new(),
            parents: Vec::new(),
            max_states,
            expanded: 0,
            pipeline: thread::available_parallelism()
                .is_ok_and(|n| n.get() > 1)
                .then_some(PIPELINE_CHUNK),
            peak_bytes: 0,
        }
    }

    fn run(
        &mut self,
        start: &State,
        progress: &mut impl SolveProgress,
        began: Instant,
    ) -> SolveOutcome {
        if start.shubbles().is_empty() {
            return SolveOutcome::Solved {
                operations: Vec::new(),
                states_visited: 1,
            };
        }
        if self.max_states == 0 {
            return SolveOutcome::LimitReached { states_visited: 0 };
        }
        let word = start.pack();
        self.visited.reserve_one();
        // The table is empty, so the start always finds a vacant slot.
        if let Probe::Vacant(slot) = self.visited.probe(word) {
            self.visited.insert(slot, word);
            self.parents.push(ROOT);
        }
        // The states of one depth are a contiguous run of ids; only the
        // words of the level being expanded and of the next one are kept.
        let mut level = vec![word];
        let mut level_first_id = 0;
        let mut next = Vec::new();
        let mut batch = Vec::with_capacity(BATCH * Operation::ALL.len());
        let mut depth = 0;
        while !level.is_empty() {
            let outcome = if let Some(chunk) = self.pipelined(&level) {
                self.expand_pipelined(&level, level_first_id, chunk, &mut next)
            } else {
                self.expand_here(&level, level_first_id, &mut next, &mut batch)
            };
            self.note_memory(&level, &next);
            if let Some(outcome) = outcome {
                return outcome;
            }
            self.expanded += level.len();
            level_first_id += level.len();
            // The expanded level's words are not needed any more.
            level = std::mem::take(&mut next);
            depth += 1;
            progress.depth_done(depth, self.visited.len(), began.elapsed());
        }
        SolveOutcome::Unsolvable {
            states_visited: self.visited.len(),
        }
    }

    /// Expands one level (whose first state has id `first_id`) on this
    /// thread, [`BATCH`] states at a time.
    fn expand_here(
        &mut self,
        level: &[u64],
        first_id: usize,
        next: &mut Vec<u64>,
        batch: &mut Vec<Candidate>,
    ) -> Option<SolveOutcome> {
        for (index, chunk) in level.chunks(BATCH).enumerate() {
            batch.clear();
            for (offset, &word) in chunk.iter().enumerate() {
                successors(word, first_id + index * BATCH + offset, batch);
            }
            self.visited.touch(batch);
            if let Some(outcome) = self.look_up(batch, next) {
                return Some(outcome);
            }
        }
        None
    }

    /// Expands one level with a second thread generating the successors
    /// of most chunks of [`PIPELINE_CHUNK`] states ahead while this one
    /// looks them up; this thread generates every [`PIPELINE_SHARE`]th
    /// chunk itself, since looking up is the lighter half of the work.
    /// Look-ups stay on this thread and in the same order, so the ids, the
    /// answer and every count are the same as [`Search::expand_here`]'s.
    fn expand_pipelined(
        &mut self,
        level: &[u64],
        first_id: usize,
        chunk_states: usize,
        next: &mut Vec<u64>,
    ) -> Option<SolveOutcome> {
        let (filled_tx, filled_rx) = mpsc::sync_channel::<Vec<Candidate>>(PIPELINE_DEPTH);
        let (spare_tx, spare_rx) = mpsc::channel::<Vec<Candidate>>();
        thread::scope(|scope| {
            scope.spawn(move || {
                for (index, chunk) in level.chunks(chunk_states).enumerate() {
                    if generated_here(index) {
                        continue;
                    }
                    let mut buffer = spare_rx.try_recv().unwrap_or_else(|_| {
                        Vec::with_capacity(chunk_states * Operation::ALL.len())
                    });
                    buffer.clear();
                    for (offset, &word) in chunk.iter().enumerate() {
                        successors(word, first_id + index * chunk_states + offset, &mut buffer);
                    }
                    // Fails only when the search has ended and dropped the
                    // receiver: then there is nothing left to do.
                    if filled_tx.send(buffer).is_err() {
                        return;
                    }
                }
            });
            // Dropping the receiver on return (an outcome found) makes the
            // generating thread stop, and the scope waits for it.
            self.look_up_chunks(level, first_id, chunk_states, filled_rx, spare_tx, next)
        })
    }

    /// The looking-up side of [`Search::expand_pipelined`].
    fn look_up_chunks(
        &mut self,
        level: &[u64],
        first_id: usize,
        chunk_states: usize,
        filled: mpsc::Receiver<Vec<Candidate>>,
        spare: mpsc::Sender<Vec<Candidate>>,
        next: &mut Vec<u64>,
    ) -> Option<SolveOutcome> {
        let mut own = Vec::with_capacity(chunk_states * Operation::ALL.len());
        for (index, chunk) in level.chunks(chunk_states).enumerate() {
            let buffer = if generated_here(index) {
                own.clear();
                for (offset, &word) in chunk.iter().enumerate() {
                    successors(word, first_id + index * chunk_states + offset, &mut own);
                }
                std::mem::take(&mut own)
            } else {
                // The generating thread sends its chunks in order and only
                // stops early when this side has returned.
                filled
                    .recv()
                    .expect("the generating thread sends every chunk")
            };
            for batch in buffer.chunks(BATCH * Operation::ALL.len()) {
                self.visited.touch(batch);
                if let Some(outcome) = self.look_up(batch, next) {
                    return Some(outcome);
                }
            }
            if generated_here(index) {
                own = buffer;
            } else {
                // The generating thread may have finished; the buffer is
                // then simply dropped.
                let _ = spare.send(buffer);
            }
        }
        None
    }

    /// Looks up a batch of successors in order, adding the new ones to
    /// the visited set and to the next level; an outcome when the search
    /// ends there.
    #[inline]
    fn look_up(&mut self, batch: &[Candidate], next: &mut Vec<u64>) -> Option<SolveOutcome> {
        for candidate in batch {
            self.visited.reserve_one();
            let Probe::Vacant(slot) = self.visited.probe(candidate.word) else {
                continue;
            };
            let parent = (candidate.record >> 3) as usize;
            if candidate.goal {
                // States are expanded in id order, so every state up to
                // the parent has been.
                self.expanded = parent + 1;
                let mut operations = self.path_to(parent);
                operations.push(Operation::ALL[(candidate.record & 7) as usize]);
                return Some(SolveOutcome::Solved {
                    operations,
                    states_visited: self.visited.len() + 1,
                });
            }
            if self.visited.len() >= self.max_states {
                self.expanded = parent + 1;
                return Some(SolveOutcome::LimitReached {
                    states_visited: self.visited.len(),
                });
            }
            self.visited.insert(slot, candidate.word);
            push_compact(&mut self.parents, candidate.record);
            push_compact(next, queue_entry(candidate.word, candidate.skip));
        }
        None
    }

    /// The operations from the start to state `id`.
    fn path_to(&self, mut id: usize) -> Vec<Operation> {
        let mut operations = Vec::new();
        while id != 0 {
            let record = self.parents[id];
            operations.push(Operation::ALL[(record & 7) as usize]);
            id = (record >> 3) as usize;
        }
        operations.reverse();
        operations
    }

    /// The chunk size when `level` is to be expanded with a second
    /// thread: levels shorter than [`PIPELINE_MIN_CHUNKS`] chunks are not
    /// worth starting one for.
    fn pipelined(&self, level: &[u64]) -> Option<usize> {
        self.pipeline
            .filter(|&chunk| level.len() >= PIPELINE_MIN_CHUNKS * chunk)
    }

    fn note_memory(&mut self, level: &Vec<u64>, next: &Vec<u64>) {
        // Candidate buffers: one per pipeline slot, the one being filled,
        // the one being looked up and this thread's own.
        let buffers = match self.pipelined(level) {
            Some(chunk) => (PIPELINE_DEPTH + 3) * chunk * Operation::ALL.len(),
            None => BATCH * Operation::ALL.len(),
        };
        let bytes = self.visited.memory_bytes()
            + self.parents.capacity() * std::mem::size_of::<u32>()
            + (level.capacity() + next.capacity()) * std::mem::size_of::<u64>()
            + buffers * std::mem::size_of::<Candidate>();
        self.peak_bytes = self.peak_bytes.max(bytes);
    }
}

/// Appends `value`, growing by an eighth rather than doubling so that spare
/// capacity stays within an eighth of the contents.
#[inline]
fn push_compact<T>(vec: &mut Vec<T>, value: T) {
    if vec.len() == vec.capacity() {
        vec.reserve_exact((vec.len() / 8).max(1024));
    }
    vec.push(value);
}

/// The states one operation away from the queued state `entry` (whose id
/// is `id`), in the order of [`Operation::ALL`], as the engine makes them,
/// each with the operations its own expansion may leave out (see
/// [`queue_entry`]).
///
/// The operations `entry` names are left out because they can only give
/// states already visited, so leaving them out changes no answer and no
/// count:
///
/// * after a stot move, the move back. A legal stot move makes nothing
///   fall (BOX.md §5: nothing rests on the stot, and the cell it leaves
///   stays empty), so moving back is legal and gives the parent again.
/// * after a turn in which nothing fell, every turn. Where a turn ends
///   depends only on the cells and the orientation turned to, and the
///   cells are the parent's: the parent's own three turns, already looked
///   up, reach every other orientation, and turning back gives the parent.
#[inline]
fn successors(entry: u64, id: usize, out: &mut Vec<Candidate>) {
    let skip = (entry >> SKIP_SHIFT) as u8;
    let word = entry & PACKED_BITS;
    crate::successors::for_each(word, skip, |op_index, next| {
        let skip_next = if op_index < TURNS {
            // Only the orientation changed: nothing fell.
            if (next ^ word) & !ORIENTATION_FIELD == 0 {
                ALL_TURNS
            } else {
                0
            }
        } else {
            MOVE_BACK[op_index]
        };
        out.push(Candidate {
            word: next,
            skip: skip_next,
            record: parent_record(id, op_index),
            goal: State::packed_without_shubbles(next),
        })
    });
}

/// The turns come first in [`Operation::ALL`], then the stot moves.
const TURNS: usize = 3;

/// The bits of the turns in a skip mask.
const ALL_TURNS: u8 = (1 << TURNS) - 1;

/// The orientation's bits in a packed state.
const ORIENTATION_FIELD: u64 = 3 << crate::state::PACKED_ORIENTATION;

/// For each operation of [`Operation::ALL`] that is a stot move, the skip
/// mask bit of the move that undoes it; 0 for a turn.
const MOVE_BACK: [u8; 7] = {
    let mut table = [0; 7];
    let mut index = 0;
    while index < Operation::ALL.len() {
        if let Operation::StotMove(direction) = Operation::ALL[index] {
            let mut back = 0;
            while back < Operation::ALL.len() {
                if let Operation::StotMove(other) = Operation::ALL[back] {
                    if other as u8 == direction.opposite() as u8 {
                        table[index] = 1 << back;
                    }
                }
                back += 1;
            }
        }
        index += 1;
    }
    table
};

/// Where a queue entry keeps its skip mask, above the packed state's 46
/// bits.
const SKIP_SHIFT: u32 = 56;

/// The queue's form of a new state: its packed word, and the operations
/// its expansion leaves out (one bit per index in [`Operation::ALL`]).
#[inline]
fn queue_entry(word: u64, skip: u8) -> u64 {
    debug_assert!(word & !PACKED_BITS == 0, "a packed state has 46 bits");
    word | (skip as u64) << SKIP_SHIFT
}

/// The parent record of the start, which has none; never followed because
/// the walk stops at id 0.
const ROOT: u32 = 0;

/// Parent id in the high 29 bits, index into [`Operation::ALL`] in the low
/// 3. Ids stay below [`MAX_STATES`], so this fits.
#[inline]
fn parent_record(parent: usize, op_index: usize) -> u32 {
    (parent as u32) << 3 | op_index as u32
}

/// Where a word is, or would go, in the table.
enum Probe {
    Present,
    Vacant(usize),
}

/// The visited set: an open-addressing (linear probing) table holding the
/// packed words themselves, 0 for an empty slot (no packed state is 0: the
/// stot's cell is `11`). A look-up touches one place in memory, not a slot
/// and then the word it points to.
struct Visited {
    slots: Vec<u64>,
    len: usize,
}

/// Table size of a new search; small, since most searches are.
const INITIAL_SLOTS: usize = 1024;

impl Visited {
    fn new() -> Visited {
        Visited {
            slots: vec![0; INITIAL_SLOTS],
            len: 0,
        }
    }

    fn len(&self) -> usize {
        self.len
    }

    /// Fibonacci hashing, then the high bits scaled to the table size
    /// (which need not be a power of two); the xor folds the high cells
    /// into the low ones first, since many states differ only in a few
    /// neighbouring cells.
    #[inline]
    fn home(&self, word: u64) -> usize {
        let hash = (word ^ word >> 29).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        ((hash as u128 * self.slots.len() as u128) >> 64) as usize
    }

    /// Reads the home slot of every candidate, so that the cache misses of
    /// a whole batch are in flight together before the look-ups, which
    /// depend on one another, start.
    #[inline]
    fn touch(&self, batch: &[Candidate]) {
        let mut sum = 0u64;
        for candidate in batch {
            sum = sum.wrapping_add(self.slots[self.home(candidate.word)]);
        }
        std::hint::black_box(sum);
    }

    #[inline]
    fn probe(&self, word: u64) -> Probe {
        let mut slot = self.home(word);
        loop {
            match self.slots[slot] {
                0 => return Probe::Vacant(slot),
                entry if entry == word => return Probe::Present,
                _ => {
                    slot += 1;
                    if slot == self.slots.len() {
                        slot = 0;
                    }
                }
            }
        }
    }

    /// Puts a new state in the slot [`Visited::probe`] found for it, with
    /// no growth between the two (call [`Visited::reserve_one`] first).
    #[inline]
    fn insert(&mut self, slot: usize, word: u64) {
        self.slots[slot] = word;
        self.len += 1;
    }

    /// Makes sure one more state can go in while the table is at most 3/4
    /// full, making it half as large again (and so leaving it 1/2 full)
    /// when needed.
    #[inline]
    fn reserve_one(&mut self) {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
    }

    #[cold]
    fn grow(&mut self) {
        let larger = vec![0; self.slots.len() / 2 * 3];
        let old = std::mem::replace(&mut self.slots, larger);
        for word in old.into_iter().filter(|&word| word != 0) {
            if let Probe::Vacant(slot) = self.probe(word) {
                self.slots[slot] = word;
            }
        }
    }

    fn memory_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<u64>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs one search with the given pipeline chunk size (`None`: one
    /// thread) and returns what it found and counted.
    fn search(start: &str, max_states: usize, pipeline: Option<usize>) -> (SolveOutcome, usize) {
        let start = State::parse(start, false).expect("a valid state");
        let mut search = Search::new(max_states);
        search.pipeline = pipeline;
        let outcome = search.run(&start, &mut NoProgress, Instant::now());
        (outcome, search.expanded)
    }

    #[test]
    fn each_stot_move_is_undone_by_the_opposite_one() {
        let chars: Vec<(char, char)> = MOVE_BACK
            .iter()
            .enumerate()
            .filter(|&(_, &back)| back != 0)
            .map(|(index, &back)| {
                (
                    Operation::ALL[index].to_char(),
                    Operation::ALL[back.trailing_zeros() as usize].to_char(),
                )
            })
            .collect();
        assert_eq!(chars, [('<', '>'), ('>', '<'), ('^', 'v'), ('v', '^')]);
        let turns: String = Operation::ALL[..TURNS]
            .iter()
            .map(|op| op.to_char())
            .collect();
        assert_eq!(turns, "+-|");
    }

    /// A second thread changes nothing but the time: tiny chunks make
    /// almost every level pipelined, and goals and limits fall in the
    /// middle of chunks generated by either thread.
    #[test]
    fn pipelined_levels_give_the_same_answers_and_counts() {
        let starts = [
            "...................x...x@o...",
            ".......@...............x.x.o.",
            "..@......................xxo.",
            // Figure 1(a): levels of thousands of states, cut by the limit.
            ".........@...o....ooo..xox...",
        ];
        for start in starts {
            for max_states in [50, 333, 30_000] {
                let alone = search(start, max_states, None);
                for chunk in [1, 2, 3, 7] {
                    assert_eq!(
                        search(start, max_states, Some(chunk)),
                        alone,
                        "{start} with chunks of {chunk}, limit {max_states}"
                    );
                }
            }
        }
    }

    /// The search the solver must agree with: breadth-first in the order
    /// of [`Operation::ALL`], every operation tried through the engine,
    /// the goal tested when a state is found. Returns the outcome and the
    /// number of states expanded.
    fn straightforward(start: &str, max_states: usize) -> (SolveOutcome, usize) {
        use std::collections::{HashSet, VecDeque};
        let start = State::parse(start, false).expect("a valid state");
        if start.shubbles().is_empty() {
            let solved = SolveOutcome::Solved {
                operations: Vec::new(),
                states_visited: 1,
            };
            return (solved, 0);
        }
        if max_states == 0 {
            return (SolveOutcome::LimitReached { states_visited: 0 }, 0);
        }
        let mut seen = HashSet::from([start.pack()]);
        let mut queue = VecDeque::from([(start, Vec::new())]);
        let mut expanded = 0;
        while let Some((state, path)) = queue.pop_front() {
            expanded += 1;
            for operation in Operation::ALL {
                let mut next = state;
                if crate::engine::perform_quietly(&mut next, operation).is_err()
                    || seen.contains(&next.pack())
                {
                    continue;
                }
                let mut path = path.clone();
                path.push(operation);
                if next.shubbles().is_empty() {
                    let solved = SolveOutcome::Solved {
                        operations: path,
                        states_visited: seen.len() + 1,
                    };
                    return (solved, expanded);
                }
                if seen.len() >= max_states {
                    let limit = SolveOutcome::LimitReached {
                        states_visited: seen.len(),
                    };
                    return (limit, expanded);
                }
                seen.insert(next.pack());
                queue.push_back((next, path));
            }
        }
        (
            SolveOutcome::Unsolvable {
                states_visited: seen.len(),
            },
            expanded,
        )
    }

    /// What the solver leaves out (moves back, turns after a still turn)
    /// and how it looks states up change nothing: the same answer, the
    /// same counts and the same limit outcomes as the straightforward
    /// search, on either number of threads.
    #[test]
    fn the_search_agrees_with_a_straightforward_one() {
        let starts = [
            "...................x...x@o...",
            ".......@...............x.x.o.",
            "..@......................xxo.",
            "o..........x..x.....@........",
            "......o.....@......oo..xxooo.",
            ".........@...o....ooo..xox...",
        ];
        for start in starts {
            for max_states in [0, 1, 50, 333, 20_000] {
                let expected = straightforward(start, max_states);
                for pipeline in [None, Some(3)] {
                    assert_eq!(
                        search(start, max_states, pipeline),
                        expected,
                        "{start} with limit {max_states}, pipeline {pipeline:?}"
                    );
                }
            }
        }
    }
}
