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
    /// The visited set, cut in two by the hash's top bit so that two
    /// threads can look states up at once.
    shards: [Shard; SHARDS],
    /// One record per state in discovery order (its id): the parent's id
    /// and the operation, enough to spell the path back to the start. Its
    /// length is the number of states visited.
    parents: Vec<u32>,
    max_states: usize,
    expanded: usize,
    /// States whose successors are generated and looked up together.
    chunk_states: usize,
    /// Chunks of this many states or more are worked on by two threads
    /// ([`PARALLEL_MIN_STATES`], or never on a machine of one core).
    parallel_from: usize,
    /// The successors of a chunk: of its first half, and of its second.
    halves: [Half; 2],
    /// Per shard, which of the chunk's successors were new (bit `i`: the
    /// `i`-th, counting through the first half and on into the second).
    fresh: [Vec<u64>; SHARDS],
    /// The most bytes held at once by the tables, the parent records, the
    /// two levels of the queue and the chunk's buffers.
    peak_bytes: usize,
}

/// States per chunk: enough successors (about 4.4 each) that a chunk's
/// look-ups, sorted by slot, sweep a shard almost line by line; few enough
/// that its buffers stay small next to the table.
const CHUNK_STATES: usize = 8192;

/// Chunks smaller than this are worked on by one thread: handing work to a
/// second would cost more than it saves.
const PARALLEL_MIN_STATES: usize = 512;

/// A successor waiting to be looked up.
#[derive(Clone, Copy, Default)]
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
            shards: [Shard::new(), Shard::new()],
            parents: Vec::new(),
            max_states,
            expanded: 0,
            chunk_states: CHUNK_STATES,
            parallel_from: if rayon::current_num_threads() > 1 {
                PARALLEL_MIN_STATES
            } else {
                usize::MAX
            },
            halves: [Half::default(), Half::default()],
            fresh: [Vec::new(), Vec::new()],
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
        let hash = hash(word);
        self.shards[shard_of(hash)].insert_new(hash);
        self.parents.push(ROOT);
        // The states of one depth are a contiguous run of ids; only the
        // words of the level being expanded and of the next one are kept.
        let mut level = vec![word];
        let mut level_first_id = 0;
        let mut next = Vec::new();
        let mut depth = 0;
        while !level.is_empty() {
            for (index, chunk) in level.chunks(self.chunk_states).enumerate() {
                let first_id = level_first_id + index * self.chunk_states;
                self.look_up_successors(chunk, first_id);
                let outcome = self.number_new_states(&mut next);
                self.note_memory(&level, &next);
                if let Some(outcome) = outcome {
                    return outcome;
                }
            }
            self.expanded += level.len();
            level_first_id += level.len();
            // The expanded level's words are not needed any more.
            level = std::mem::take(&mut next);
            depth += 1;
            progress.depth_done(depth, self.parents.len(), began.elapsed());
        }
        SolveOutcome::Unsolvable {
            states_visited: self.parents.len(),
        }
    }

    /// Generates the successors of `chunk` (whose first state has id
    /// `first_id`) and looks them all up, adding the new ones to the
    /// tables and marking them in [`Search::fresh`]. With two threads,
    /// each generates and sorts the successors of half the chunk and then
    /// looks up those of one shard; the work is cut the same way whatever
    /// the thread count, so nothing found depends on it.
    fn look_up_successors(&mut self, chunk: &[u64], first_id: usize) {
        let parallel = chunk.len() >= self.parallel_from;
        let (first, second) = chunk.split_at(chunk.len() / 2);
        let [first_half, second_half] = &mut self.halves;
        both(
            parallel,
            || first_half.generate(first, first_id),
            || second_half.generate(second, first_id + first.len()),
        );
        let halves = [&self.halves[0], &self.halves[1]];
        let [shard_0, shard_1] = &mut self.shards;
        let [fresh_0, fresh_1] = &mut self.fresh;
        both(
            parallel,
            || shard_0.look_up(0, halves, fresh_0),
            || shard_1.look_up(1, halves, fresh_1),
        );
    }

    /// Gives the chunk's new states their ids, in the order they were
    /// generated (the order a one-by-one search would find them in), and
    /// queues them; an outcome when the search ends there.
    fn number_new_states(&mut self, next: &mut Vec<u64>) -> Option<SolveOutcome> {
        let [first_half, second_half] = [&self.halves[0].candidates, &self.halves[1].candidates];
        let [fresh_0, fresh_1] = &self.fresh;
        for (block, (&fresh_0, &fresh_1)) in fresh_0.iter().zip(fresh_1).enumerate() {
            // A state is new in at most one shard: its own.
            let mut fresh = fresh_0 | fresh_1;
            while fresh != 0 {
                let index = block * 64 + fresh.trailing_zeros() as usize;
                fresh &= fresh - 1;
                let candidate = match index.checked_sub(first_half.len()) {
                    None => first_half[index],
                    Some(index) => second_half[index],
                };
                let parent = (candidate.record >> 3) as usize;
                if candidate.goal {
                    // States are expanded in id order, so every state up
                    // to the parent has been.
                    self.expanded = parent + 1;
                    let mut operations = self.path_to(parent);
                    operations.push(Operation::ALL[(candidate.record & 7) as usize]);
                    return Some(SolveOutcome::Solved {
                        operations,
                        states_visited: self.parents.len() + 1,
                    });
                }
                if self.parents.len() >= self.max_states {
                    self.expanded = parent + 1;
                    return Some(SolveOutcome::LimitReached {
                        states_visited: self.parents.len(),
                    });
                }
                push_compact(&mut self.parents, candidate.record);
                push_compact(next, queue_entry(candidate.word, candidate.skip));
            }
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

    fn note_memory(&mut self, level: &Vec<u64>, next: &Vec<u64>) {
        let tables: usize = self.shards.iter().map(Shard::memory_bytes).sum();
        let halves: usize = self.halves.iter().map(Half::memory_bytes).sum();
        let fresh: usize = self.fresh.iter().map(Vec::capacity).sum();
        let bytes = tables
            + halves
            + fresh * std::mem::size_of::<u64>()
            + self.parents.capacity() * std::mem::size_of::<u32>()
            + (level.capacity() + next.capacity()) * std::mem::size_of::<u64>();
        self.peak_bytes = self.peak_bytes.max(bytes);
    }
}

/// Runs `a` and `b`, on two threads when `parallel`.
fn both(parallel: bool, a: impl FnOnce() + Send, b: impl FnOnce() + Send) {
    if parallel {
        rayon::join(a, b);
    } else {
        a();
        b();
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

/// How many shards the visited set has: one per thread that looks up.
const SHARDS: usize = 2;

/// A packed state's hash: odd-constant (Fibonacci) multiplying after
/// folding the high cells into the low ones, since many states differ only
/// in a few neighbouring cells. On packed words (below 2^58) it is a
/// bijection (both steps can be undone), so the tables keep hashes instead
/// of words: equal hashes are equal states. It is never 0 (only the word 0
/// hashes to 0, and no packed state is 0), so 0 marks an empty slot.
#[inline(always)]
fn hash(word: u64) -> u64 {
    debug_assert!(word & !PACKED_BITS == 0, "a packed state has 46 bits");
    (word ^ word >> 29).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The shard a hash belongs to: its top bit.
#[inline(always)]
fn shard_of(hash: u64) -> usize {
    (hash >> 63) as usize
}

/// Where a hash sits in a shard of `len` slots: its bits below the shard's
/// scaled to the shard (which need not be a power of two). Slots grow with
/// the hash, so hashes looked up in increasing order sweep the table.
#[inline(always)]
fn home(hash: u64, len: usize) -> usize {
    (((hash << 1) as u128 * len as u128) >> 64) as usize
}

/// How many look-ups ahead a shard asks for the slot it will probe.
const PREFETCH_DISTANCE: usize = 16;

/// Asks the processor to bring `slot` into the cache without waiting for
/// it; a hint, which changes no result.
#[inline(always)]
fn prefetch(slot: &u64) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing into the program and cannot fault;
    // the pointer comes from a reference anyway. SSE, which it needs, is
    // part of every x86_64 processor.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>((slot as *const u64).cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = slot;
}

/// One shard of the visited set: an open-addressing (linear probing) table
/// of hashes, kept between 1/2 and 3/4 full.
struct Shard {
    slots: Vec<u64>,
    len: usize,
}

/// Table size of a new search; small, since most searches are.
const INITIAL_SLOTS: usize = 1024;

/// Where a hash is, or would go, in a shard.
enum Probe {
    Present,
    Vacant(usize),
}

impl Shard {
    fn new() -> Shard {
        Shard {
            slots: vec![0; INITIAL_SLOTS],
            len: 0,
        }
    }

    /// Looks up the successors of shard `shard` in both halves of a
    /// chunk, each half's in order of hash, and marks in `fresh` (bit `i`:
    /// the chunk's `i`-th successor) those that were not there and have
    /// now been added. Of equal successors, the first is the new one: a
    /// half keeps equal hashes in order, and the first half comes first.
    fn look_up(&mut self, shard: usize, halves: [&Half; 2], fresh: &mut Vec<u64>) {
        let total = halves[0].candidates.len() + halves[1].candidates.len();
        fresh.clear();
        fresh.resize(total.div_ceil(64), 0);
        let mut offset = 0;
        for half in halves {
            let keys = half.keys_of(shard);
            for (place, key) in keys.iter().enumerate() {
                // The probes come in increasing slot order, but each is a
                // cache miss all the same; asking for the slot of the one
                // PREFETCH_DISTANCE ahead keeps that many misses in
                // flight, whatever branches this one mispredicts.
                if let Some(ahead) = keys.get(place + PREFETCH_DISTANCE) {
                    prefetch(&self.slots[home(ahead.hash, self.slots.len())]);
                }
                self.reserve_one();
                if let Probe::Vacant(slot) = self.probe(key.hash) {
                    self.slots[slot] = key.hash;
                    self.len += 1;
                    let index = offset + key.index as usize;
                    fresh[index / 64] |= 1 << (index % 64);
                }
            }
            offset += half.candidates.len();
        }
    }

    /// Adds a hash known not to be there.
    fn insert_new(&mut self, hash: u64) {
        self.reserve_one();
        if let Probe::Vacant(slot) = self.probe(hash) {
            self.slots[slot] = hash;
            self.len += 1;
        }
    }

    #[inline(always)]
    fn probe(&self, hash: u64) -> Probe {
        let mut slot = home(hash, self.slots.len());
        loop {
            match self.slots[slot] {
                0 => return Probe::Vacant(slot),
                entry if entry == hash => return Probe::Present,
                _ => {
                    slot += 1;
                    if slot == self.slots.len() {
                        slot = 0;
                    }
                }
            }
        }
    }

    /// Makes sure one more hash can go in while the table is at most 3/4
    /// full, making it half as large again (and so leaving it 1/2 full)
    /// when needed.
    #[inline(always)]
    fn reserve_one(&mut self) {
        if (self.len + 1) * 4 > self.slots.len() * 3 {
            self.grow();
        }
    }

    #[cold]
    fn grow(&mut self) {
        let larger = written_zeros(self.slots.len() / 2 * 3);
        let old = std::mem::replace(&mut self.slots, larger);
        for hash in old.into_iter().filter(|&hash| hash != 0) {
            if let Probe::Vacant(slot) = self.probe(hash) {
                self.slots[slot] = hash;
            }
        }
    }

    fn memory_bytes(&self) -> usize {
        self.slots.capacity() * std::mem::size_of::<u64>()
    }
}

/// `len` zeros, written. Fresh memory from the allocator reads as zeros
/// already, but a page first read and then written costs two page faults,
/// the second of which makes every other core flush its TLB (on a VM, a
/// costly exit each); pages written first cost one fault and no flush.
fn written_zeros(len: usize) -> Vec<u64> {
    let mut slots = vec![0; len];
    // Hidden from the optimiser, which would otherwise know the zeros are
    // there and drop the writing.
    std::hint::black_box(&mut slots).fill(0);
    slots
}

/// The successors of half a chunk, in the order they were generated and
/// sorted by hash.
#[derive(Default)]
struct Half {
    candidates: Vec<Candidate>,
    /// Every candidate's hash and index, sorted by the hash's high bits:
    /// those of shard 0, then those of shard 1.
    keys: Vec<Key>,
    /// Where shard 1's keys start.
    shard_1_from: usize,
    /// Keys per bucket of hash values, then where each bucket starts.
    counts: Vec<u32>,
}

/// A successor's hash and its index in its half.
#[derive(Clone, Copy, Default)]
struct Key {
    hash: u64,
    index: u32,
}

impl Half {
    /// Generates the successors of the queued states `entries` (the first
    /// has id `first_id`), in order, and sorts them.
    fn generate(&mut self, entries: &[u64], first_id: usize) {
        self.candidates.clear();
        for (offset, &entry) in entries.iter().enumerate() {
            successors(entry, first_id + offset, &mut self.candidates);
        }
        self.sort();
    }

    /// Fills `keys` by a counting sort on the hashes' high bits, the
    /// shard's bit first, so that equal hashes keep their order.
    fn sort(&mut self) {
        let total = self.candidates.len();
        // About two keys per bucket; the top bit is the shard's.
        let bits = (usize::BITS - (total / 2).leading_zeros()).clamp(1, 17);
        let bucket = |hash: u64| (hash >> (64 - bits)) as usize;
        self.counts.clear();
        self.counts.resize(1 << bits, 0);
        for candidate in &self.candidates {
            self.counts[bucket(hash(candidate.word))] += 1;
        }
        let mut start = 0;
        for (bucket, count) in self.counts.iter_mut().enumerate() {
            if bucket == 1 << (bits - 1) {
                self.shard_1_from = start as usize;
            }
            let this = *count;
            *count = start;
            start += this;
        }
        self.keys.clear();
        self.keys.resize(total, Key::default());
        for (index, candidate) in self.candidates.iter().enumerate() {
            let hash = hash(candidate.word);
            let place = &mut self.counts[bucket(hash)];
            self.keys[*place as usize] = Key {
                hash,
                index: index as u32,
            };
            *place += 1;
        }
    }

    fn keys_of(&self, shard: usize) -> &[Key] {
        match shard {
            0 => &self.keys[..self.shard_1_from],
            _ => &self.keys[self.shard_1_from..],
        }
    }

    fn memory_bytes(&self) -> usize {
        self.candidates.capacity() * std::mem::size_of::<Candidate>()
            + self.keys.capacity() * std::mem::size_of::<Key>()
            + self.counts.capacity() * std::mem::size_of::<u32>()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// How a search cuts its work.
    #[derive(Clone, Copy, Debug)]
    struct Cut {
        chunk_states: usize,
        two_threads: bool,
    }

    const AS_SHIPPED_ALONE: Cut = Cut {
        chunk_states: CHUNK_STATES,
        two_threads: false,
    };

    /// Runs one search cut as `cut` and returns what it found and counted.
    fn search(start: &str, max_states: usize, cut: Cut) -> (SolveOutcome, usize) {
        let start = State::parse(start, false).expect("a valid state");
        let mut search = Search::new(max_states);
        search.chunk_states = cut.chunk_states;
        search.parallel_from = if cut.two_threads { 1 } else { usize::MAX };
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

    /// Chunks and threads change nothing but the time: with tiny chunks,
    /// goals and limits fall in the middle of chunks and of levels.
    #[test]
    fn chunks_and_threads_give_the_same_answers_and_counts() {
        let starts = [
            "...................x...x@o...",
            ".......@...............x.x.o.",
            "..@......................xxo.",
            // Figure 1(a): levels of thousands of states, cut by the limit.
            ".........@...o....ooo..xox...",
        ];
        for start in starts {
            for max_states in [50, 333, 30_000] {
                let alone = search(start, max_states, AS_SHIPPED_ALONE);
                for chunk_states in [1, 2, 3, 7, 100, CHUNK_STATES] {
                    for two_threads in [false, true] {
                        let cut = Cut {
                            chunk_states,
                            two_threads,
                        };
                        assert_eq!(
                            search(start, max_states, cut),
                            alone,
                            "{start} cut as {cut:?}, limit {max_states}"
                        );
                    }
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
                let tiny = Cut {
                    chunk_states: 3,
                    two_threads: true,
                };
                for cut in [AS_SHIPPED_ALONE, tiny] {
                    assert_eq!(
                        search(start, max_states, cut),
                        expected,
                        "{start} with limit {max_states}, cut as {cut:?}"
                    );
                }
            }
        }
    }
}
