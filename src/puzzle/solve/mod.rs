//! Shortest solutions of the puzzle (issue 4): operations after which every
//! shubble has left the box and both smoles are still in it.
//!
//! Breadth-first search over stable (cells, orientation) states, each packed
//! in one `u64` by [`State::pack`]. Successors come from the crate's
//! `successors` module, the engine's rules worked on the packed word (a
//! property test holds it to [`perform_quietly`](crate::puzzle::rules::engine::perform_quietly), and so to
//! [`perform`](crate::puzzle::rules::engine::perform)); an operation that fails (a refused stot
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
//! ```
//! use shubbles::puzzle::solve::{solve, NoProgress, SolveOutcome};
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
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::thread;
use std::time::{Duration, Instant};

mod successors;

use crate::puzzle::model::operation::{format_operations, Operation};
use crate::puzzle::model::packing::{PACKED_BITS, PACKED_ORIENTATION};
use crate::puzzle::model::state::State;
use crate::puzzle::rules::scenario::Scenario;

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
        states_expanded: search.ids.expanded,
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
    work: Work,
    ids: Ids,
    /// The most states per chunk ([`CHUNK_STATES`]; fewer in tests).
    chunk_states: usize,
    /// Levels of this many states or more are worked on by two threads
    /// ([`PARALLEL_MIN_STATES`], or never on a machine of one core).
    parallel_from: usize,
    /// The most bytes held at once by the tables, the parent records, the
    /// two levels of the queue and the chunks' buffers.
    peak_bytes: usize,
}

/// The most states per chunk: enough that a chunk's fixed costs (claiming
/// its units, a pass over each shard's work) are small next to its
/// successors (about 4.4 each), and few enough that the buffers of two
/// chunks stay small next to the tables.
const CHUNK_STATES: usize = 8192;

/// The fewest states per chunk, below which a chunk's fixed costs show.
/// Between the two, a chunk has 1/64 as many states as have been visited,
/// so that its buffers stay small next to the tables.
const MIN_CHUNK_STATES: usize = 512;

/// Levels smaller than this are worked on by one thread: starting a second
/// would cost more than it saves.
const PARALLEL_MIN_STATES: usize = 2048;

/// Blocks per chunk: the units of generating that threads take in turn,
/// so that neither waits long for the other.
const BLOCKS: usize = 8;

/// A successor waiting to be looked up: 12 bytes, since a chunk holds
/// thousands.
#[derive(Clone, Copy)]
#[repr(C, packed(4))]
struct Candidate {
    /// The state's [`hash`], from which its word can be had back.
    hash: u64,
    /// Its parent and the operation (see [`parent_record`]).
    record: u32,
}

/// Ids: the order in which states were found, and the path to each.
struct Ids {
    /// One record per state, by id: the parent's id and the operation,
    /// enough to spell the path back to the start. Its length is the
    /// number of states visited.
    parents: Vec<u32>,
    max_states: usize,
    /// States whose successors were generated.
    expanded: usize,
}

/// What the threads share while a level is worked on. Work comes in units
/// (a block of a chunk's states to generate successors for, a shard to
/// look a chunk's successors up in, a chunk's new states to number) that
/// the threads claim as a [`Schedule`] allows; what a unit writes is its
/// own, so who does which changes nothing. The schedule lets a unit start
/// only once the units it reads from have finished, so no lock is ever
/// waited for.
struct Work {
    /// The visited set, cut into shards by the hash's top bits.
    /// Each [`Padded`]: neighbouring shards are in different lanes, and so
    /// looked up at the same time by different threads.
    shards: Vec<Padded<Mutex<Shard>>>,
    /// The successors of a chunk, by block; two sets of them, by the
    /// chunk's parity, so that one chunk's successors can be generated and
    /// looked up while the last one's new states are numbered.
    blocks: [Vec<RwLock<Block>>; 2],
    /// By parity likewise, and by shard: bit `i` is set when the chunk's
    /// `i`-th successor (counting through its blocks in order) was new in
    /// that shard, and added there. Each shard's bits are locked by the
    /// thread looking it up, so their locks are [`Padded`] apart.
    fresh: [Vec<Padded<Mutex<Vec<u64>>>>; 2],
}

/// A chunk: some states of a level, with the id of the first.
#[derive(Clone, Copy)]
struct Chunk<'a> {
    /// Its place in the level.
    index: usize,
    first_id: usize,
    states: &'a [u64],
}

impl Chunk<'_> {
    fn parity(&self) -> usize {
        self.index % 2
    }

    /// Block `block`'s states, and the id of the first.
    fn block(&self, block: usize) -> (&[u64], usize) {
        let size = self.states.len().div_ceil(BLOCKS);
        let from = (block * size).min(self.states.len());
        let to = (from + size).min(self.states.len());
        (&self.states[from..to], self.first_id + from)
    }
}

/// A value on cache lines of its own: aligned to, and so padded to, 128
/// bytes, since processors fetch lines in pairs. Values that two threads
/// write at the same time (the tables' lengths, the locks on a shard's
/// bits), side by side, would make a line go back and forth between the
/// processors on every write.
#[repr(align(128))]
#[derive(Default)]
struct Padded<T>(T);

/// Takes a lock, ignoring poisoning: a thread that panicked while holding
/// it is a bug that the scope around both threads reports anyway.
fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

fn read<T>(lock: &RwLock<T>) -> RwLockReadGuard<'_, T> {
    lock.read().unwrap_or_else(PoisonError::into_inner)
}

fn write<T>(lock: &RwLock<T>) -> RwLockWriteGuard<'_, T> {
    lock.write().unwrap_or_else(PoisonError::into_inner)
}

impl Search {
    fn new(max_states: usize) -> Search {
        let blocks = || (0..BLOCKS).map(|_| RwLock::default()).collect();
        let fresh = || (0..SHARDS).map(|_| Padded::default()).collect();
        Search {
            work: Work {
                shards: (0..SHARDS)
                    .map(|shard| Padded(Mutex::new(Shard::new(shard))))
                    .collect(),
                blocks: [blocks(), blocks()],
                fresh: [fresh(), fresh()],
            },
            ids: Ids {
                parents: Vec::new(),
                max_states,
                expanded: 0,
            },
            chunk_states: CHUNK_STATES,
            parallel_from: if thread::available_parallelism().is_ok_and(|n| n.get() > 1) {
                PARALLEL_MIN_STATES
            } else {
                usize::MAX
            },
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
        if self.ids.max_states == 0 {
            return SolveOutcome::LimitReached { states_visited: 0 };
        }
        let word = start.pack();
        let hash = hash(word);
        lock(&self.work.shards[shard_of(hash)].0).insert(hash);
        self.ids.parents.push(ROOT);
        // The states of one depth are a contiguous run of ids; only the
        // words of the level being expanded and of the next one are kept.
        let mut level = vec![word];
        let mut level_first_id = 0;
        let mut next = Vec::new();
        let mut depth = 0;
        while !level.is_empty() {
            let outcome = self.expand(&level, level_first_id, &mut next);
            self.note_memory(&level, &next);
            if let Some(outcome) = outcome {
                return outcome;
            }
            self.ids.expanded += level.len();
            level_first_id += level.len();
            // The expanded level's words are not needed any more; its
            // memory takes the next level's.
            level.clear();
            std::mem::swap(&mut level, &mut next);
            depth += 1;
            progress.depth_done(depth, self.ids.parents.len(), began.elapsed());
        }
        SolveOutcome::Unsolvable {
            states_visited: self.ids.parents.len(),
        }
    }

    /// Expands `level`, whose first state has id `first_id`, chunk by
    /// chunk: the successors of each are generated and looked up, then the
    /// new ones numbered in the order they were generated (the order a
    /// one-by-one search finds them in) and queued in `next`. An outcome
    /// when the search ends there.
    ///
    /// On two threads, each takes whatever unit of work is ready (see
    /// [`Schedule`]): while one numbers a chunk, the other generates and
    /// looks up the next.
    fn expand(
        &mut self,
        level: &[u64],
        first_id: usize,
        next: &mut Vec<u64>,
    ) -> Option<SolveOutcome> {
        let chunk_states = (self.ids.parents.len() / 64)
            .max(MIN_CHUNK_STATES)
            .min(self.chunk_states);
        let cut = Cut {
            level,
            first_id,
            chunk_states,
        };
        let schedule = Schedule::new(level.len().div_ceil(chunk_states));
        let numbering = Mutex::new(Numbering {
            ids: &mut self.ids,
            next,
            outcome: None,
        });
        let work = &self.work;
        if level.len() < self.parallel_from {
            work.work_through(&schedule, &cut, &numbering, &ALL_LANES);
        } else {
            thread::scope(|scope| {
                scope.spawn(|| work.work_through(&schedule, &cut, &numbering, &[1]));
                work.work_through(&schedule, &cut, &numbering, &[0]);
            });
        }
        numbering
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .outcome
    }

    /// Notes the bytes held now; called between levels and at the end,
    /// when nothing is being worked on (the tables, the parent records,
    /// the queue and the buffers only grow within a level).
    fn note_memory(&mut self, level: &Vec<u64>, next: &Vec<u64>) {
        let bytes = self.work.memory_bytes()
            + self.ids.parents.capacity() * std::mem::size_of::<u32>()
            + (level.capacity() + next.capacity()) * std::mem::size_of::<u64>();
        self.peak_bytes = self.peak_bytes.max(bytes);
    }
}

impl Work {
    /// The bytes held by the tables, the blocks and the bits of new states,
    /// spare capacity included.
    fn memory_bytes(&self) -> usize {
        let tables: usize = self
            .shards
            .iter()
            .map(|shard| lock(&shard.0).memory_bytes())
            .sum();
        let blocks = self.blocks.iter().flatten();
        let fresh = self.fresh.iter().flatten();
        tables
            + blocks
                .map(|block| read(block).memory_bytes())
                .sum::<usize>()
            + fresh
                .map(|bits| lock(&bits.0).capacity() * std::mem::size_of::<u64>())
                .sum::<usize>()
    }

    /// Takes units of work as `schedule` allows until the level is done or
    /// the search ends. Looking up, the thread takes the shards of its own
    /// `lanes` first, and those of the others only when it has nothing else
    /// to do (see [`LANES`]).
    fn work_through(
        &self,
        schedule: &Schedule,
        cut: &Cut,
        numbering: &Mutex<Numbering>,
        lanes: &[usize],
    ) {
        let _taking_part = schedule.taking_part();
        let mut spins = 0;
        while !schedule.stop.load(Ordering::Relaxed) {
            match schedule.claim(lanes) {
                Some(Unit::Numbering(chunk)) => {
                    let mut numbering = lock(numbering);
                    let Numbering { ids, next, outcome } = &mut *numbering;
                    let parity = cut.chunk(chunk).parity();
                    *outcome = ids.number(self, parity, cut.level, cut.first_id, next);
                    if outcome.is_some() {
                        schedule.stop.store(true, Ordering::Relaxed);
                    }
                    schedule.numbered.fetch_add(1, Ordering::Release);
                }
                Some(Unit::LookingUp(chunk, shard)) => {
                    self.look_up(&cut.chunk(chunk), shard);
                    schedule.looked_up[chunk].fetch_add(1, Ordering::Release);
                }
                Some(Unit::Generating(chunk, block)) => {
                    self.generate(&cut.chunk(chunk), block);
                    schedule.generated[chunk].fetch_add(1, Ordering::Release);
                }
                None if schedule.numbered.load(Ordering::Acquire) == schedule.chunks => return,
                None => {
                    schedule.wait_a_little(&mut spins);
                    continue;
                }
            }
            spins = 0;
        }
    }

    /// Generates the successors of `chunk`'s block `block`.
    fn generate(&self, chunk: &Chunk, block: usize) {
        let (states, first_id) = chunk.block(block);
        write(&self.blocks[chunk.parity()][block]).generate(states, first_id);
    }

    /// Looks up the successors of `chunk` that belong to shard `shard`.
    fn look_up(&self, chunk: &Chunk, shard: usize) {
        let blocks: Vec<_> = self.blocks[chunk.parity()].iter().map(read).collect();
        let mut fresh = lock(&self.fresh[chunk.parity()][shard].0);
        lock(&self.shards[shard].0).look_up(shard, &blocks, &mut fresh);
    }
}

/// How a level is cut into chunks.
struct Cut<'a> {
    level: &'a [u64],
    /// The id of the level's first state.
    first_id: usize,
    chunk_states: usize,
}

impl Cut<'_> {
    fn chunk(&self, index: usize) -> Chunk<'_> {
        let from = index * self.chunk_states;
        let to = (from + self.chunk_states).min(self.level.len());
        Chunk {
            index,
            first_id: self.first_id + from,
            states: &self.level[from..to],
        }
    }
}

/// What numbering needs, which one thread at a time has.
struct Numbering<'a> {
    ids: &'a mut Ids,
    next: &'a mut Vec<u64>,
    outcome: Option<SolveOutcome>,
}

/// A unit of a level's work: numbering a chunk, looking a chunk up in a
/// shard, or generating a block of a chunk.
enum Unit {
    Numbering(usize),
    LookingUp(usize, usize),
    Generating(usize, usize),
}

/// Which units of a level's work may start, kept in atomic counters that
/// both threads read. Chunk `k`'s work is [`BLOCKS`] units of generating,
/// then [`SHARDS`] units of looking up, then numbering. A unit may start
/// when what it reads is finished and what it writes is no longer read:
///
/// * generating for chunk `k` writes the buffers of its parity, which
///   numbering chunk `k - 2` read, so that must have finished;
/// * looking chunk `k` up reads all its blocks, so their generating must
///   have finished; and each shard takes its chunks in order, so chunk
///   `k - 1`'s looking up must have finished too;
/// * numbering chunk `k` reads every shard's bits for it, and numbers
///   after chunk `k - 1`.
///
/// Units are claimed in order within their kind (looking up, within its
/// lane), numbering first, then looking up in the thread's own lane, then
/// generating, then looking up in the other lane: numbering is the one
/// unit that only one thread can do, so it goes first.
struct Schedule {
    chunks: usize,
    /// Units of generating claimed: chunk `k`'s blocks are units
    /// `k * BLOCKS` to `(k + 1) * BLOCKS - 1`.
    generating: AtomicUsize,
    /// By chunk: blocks generated.
    generated: Vec<AtomicUsize>,
    /// By lane: units of looking up claimed, likewise by shard: chunk
    /// `k`'s shards of lane `l` are its units `k * SHARDS / LANES` to
    /// `(k + 1) * SHARDS / LANES - 1`.
    looking_up: [AtomicUsize; LANES],
    /// By chunk: shards looked up.
    looked_up: Vec<AtomicUsize>,
    /// Chunks claimed for numbering, and numbered.
    numbering: AtomicUsize,
    numbered: AtomicUsize,
    /// Set when the search ends: the rest of the level is not needed.
    stop: AtomicBool,
    /// Set when a thread panicked: the other must not wait for it.
    abandoned: AtomicBool,
}

/// The shards are dealt into lanes, shard `s` into lane `s % LANES`, and
/// on two threads each has a lane of its own, whose shards it looks up
/// before anything but numbering, and before the other's. So a shard's
/// table is mostly looked up on the same processor, whose cache holds it:
/// taken by whichever thread came first, the tables' lines went back and
/// forth between the two processors' caches, and looking up Figure 1(a)
/// took 40 to 80% more time on two threads than on one, against 20 to 30%
/// now.
const LANES: usize = 2;
const LANE_SHARDS: usize = SHARDS / LANES;
const ALL_LANES: [usize; LANES] = [0, 1];

/// Spins before a waiting thread starts yielding.
const SPINS_BEFORE_YIELDING: u32 = 1 << 14;

impl Schedule {
    fn new(chunks: usize) -> Schedule {
        let counters = || (0..chunks).map(|_| AtomicUsize::new(0)).collect();
        Schedule {
            chunks,
            generating: AtomicUsize::new(0),
            generated: counters(),
            looking_up: std::array::from_fn(|_| AtomicUsize::new(0)),
            looked_up: counters(),
            numbering: AtomicUsize::new(0),
            numbered: AtomicUsize::new(0),
            stop: AtomicBool::new(false),
            abandoned: AtomicBool::new(false),
        }
    }

    /// The next unit for a thread whose own lanes are `lanes`, in the
    /// order the type's documentation gives; none if none may start yet.
    fn claim(&self, lanes: &[usize]) -> Option<Unit> {
        let look_up_in = |lanes: &[usize]| lanes.iter().find_map(|&lane| self.claim_look_up(lane));
        self.claim_numbering()
            .map(Unit::Numbering)
            .or_else(|| look_up_in(lanes).map(|(chunk, shard)| Unit::LookingUp(chunk, shard)))
            .or_else(|| {
                self.claim_generating()
                    .map(|(chunk, block)| Unit::Generating(chunk, block))
            })
            .or_else(|| look_up_in(&ALL_LANES).map(|(chunk, shard)| Unit::LookingUp(chunk, shard)))
    }

    /// The next chunk to number, if its looking up and the numbering of
    /// the chunk before have finished.
    fn claim_numbering(&self) -> Option<usize> {
        let chunk = self.numbering.load(Ordering::Acquire);
        let ready = chunk < self.chunks
            && self.numbered.load(Ordering::Acquire) == chunk
            && self.looked_up[chunk].load(Ordering::Acquire) == SHARDS
            && self
                .numbering
                .compare_exchange(chunk, chunk + 1, Ordering::AcqRel, Ordering::Relaxed)
                .is_ok();
        ready.then_some(chunk)
    }

    /// The next unit of looking up (chunk, shard) in `lane`, if it may
    /// start.
    fn claim_look_up(&self, lane: usize) -> Option<(usize, usize)> {
        let unit = self.looking_up[lane]
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |unit| {
                let chunk = unit / LANE_SHARDS;
                let ready = chunk < self.chunks
                    && self.generated[chunk].load(Ordering::Acquire) == BLOCKS
                    && (chunk == 0 || self.looked_up[chunk - 1].load(Ordering::Acquire) == SHARDS);
                ready.then_some(unit + 1)
            })
            .ok()?;
        Some((unit / LANE_SHARDS, unit % LANE_SHARDS * LANES + lane))
    }

    /// The next unit of generating (chunk, block), if it may start.
    fn claim_generating(&self) -> Option<(usize, usize)> {
        let unit = self
            .generating
            .fetch_update(Ordering::AcqRel, Ordering::Acquire, |unit| {
                let chunk = unit / BLOCKS;
                let ready =
                    chunk < self.chunks && chunk <= self.numbered.load(Ordering::Acquire) + 1;
                ready.then_some(unit + 1)
            })
            .ok()?;
        Some((unit / BLOCKS, unit % BLOCKS))
    }

    /// Waits a moment for the other thread: spinning, since units are
    /// short and a thread put to sleep takes longer to wake than they
    /// last; after a while yielding the processor, in case the other
    /// thread is not running.
    fn wait_a_little(&self, spins: &mut u32) {
        if self.abandoned.load(Ordering::Relaxed) {
            panic!("the other thread of the search panicked");
        }
        if *spins < SPINS_BEFORE_YIELDING {
            *spins += 1;
            std::hint::spin_loop();
        } else {
            thread::yield_now();
        }
    }

    /// Held by each thread while it takes part: if the thread panics, the
    /// other stops waiting for it (and panics too, which the scope around
    /// both passes on) instead of spinning for ever.
    fn taking_part(&self) -> TakingPart<'_> {
        TakingPart(self)
    }
}

struct TakingPart<'a>(&'a Schedule);

impl Drop for TakingPart<'_> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.abandoned.store(true, Ordering::Relaxed);
        }
    }
}

impl Ids {
    /// Gives the new states of the chunk of parity `parity` their ids, in
    /// the order they were generated, and queues them in `next`; an
    /// outcome when the search ends there. The chunk's states are in
    /// `level`, whose first state has id `level_first_id`.
    fn number(
        &mut self,
        work: &Work,
        parity: usize,
        level: &[u64],
        level_first_id: usize,
        next: &mut Vec<u64>,
    ) -> Option<SolveOutcome> {
        let blocks: Vec<_> = work.blocks[parity].iter().map(read).collect();
        let fresh: Vec<_> = work.fresh[parity]
            .iter()
            .map(|bits| lock(&bits.0))
            .collect();
        // The block of the candidate being numbered, and the chunk index
        // of its first candidate.
        let mut block = 0;
        let mut block_start = 0;
        for word_index in 0..fresh[0].len() {
            // A state is new in at most one shard: its own.
            let mut new = fresh.iter().fold(0, |bits, shard| bits | shard[word_index]);
            while new != 0 {
                let index = word_index * 64 + new.trailing_zeros() as usize;
                new &= new - 1;
                while index >= block_start + blocks[block].candidates.len() {
                    block_start += blocks[block].candidates.len();
                    block += 1;
                }
                let candidate = blocks[block].candidates[index - block_start];
                let word = unhash(candidate.hash);
                let record = candidate.record;
                let parent = (record >> 3) as usize;
                let op_index = (record & 7) as usize;
                if State::packed_without_shubbles(word) {
                    // States are expanded in id order, so every state up
                    // to the parent has been.
                    self.expanded = parent + 1;
                    let mut operations = self.path_to(parent);
                    operations.push(Operation::ALL[op_index]);
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
                let skip = skip_after(word, level[parent - level_first_id], op_index);
                push_compact(&mut self.parents, record);
                push_compact(next, queue_entry(word, skip));
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
}

/// Appends `value`, growing by an eighth rather than doubling so that spare
/// capacity stays within an eighth of the contents (or 16 items: a block
/// keeps 17 lists of a few hundred).
#[inline]
fn push_compact<T>(vec: &mut Vec<T>, value: T) {
    if vec.len() == vec.capacity() {
        vec.reserve_exact((vec.len() / 8).max(16));
    }
    vec.push(value);
}

/// The states one operation away from the queued state `entry` (whose id
/// is `id`), in the order of [`Operation::ALL`], as the engine makes them.
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
fn successors(entry: u64, id: usize, mut found: impl FnMut(Candidate)) {
    let skip = (entry >> SKIP_SHIFT) as u8;
    successors::for_each(entry & PACKED_BITS, skip, |op_index, next| {
        found(Candidate {
            hash: hash(next),
            record: parent_record(id, op_index),
        })
    });
}

/// What the expansion of `word`, reached from `parent` (a queue entry) by
/// the operation at `op_index`, may leave out (see [`successors`]).
#[inline]
fn skip_after(word: u64, parent: u64, op_index: usize) -> u8 {
    if op_index >= TURNS {
        MOVE_BACK[op_index]
    } else if (word ^ parent) & PACKED_BITS & !ORIENTATION_FIELD == 0 {
        // Only the orientation changed: nothing fell.
        ALL_TURNS
    } else {
        0
    }
}

/// The turns come first in [`Operation::ALL`], then the stot moves.
const TURNS: usize = 3;

/// The bits of the turns in a skip mask.
const ALL_TURNS: u8 = (1 << TURNS) - 1;

/// The orientation's bits in a packed state.
const ORIENTATION_FIELD: u64 = 3 << PACKED_ORIENTATION;

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

/// The visited set has `1 << SHARD_BITS` shards, picked by the hash's top
/// bits: units of looking up that the threads claim in turn, enough of
/// them that neither thread waits long for the other.
const SHARD_BITS: u32 = 4;
const SHARDS: usize = 1 << SHARD_BITS;

/// A packed state's hash: odd-constant (Fibonacci) multiplying after
/// folding the high cells into the low ones, since many states differ only
/// in a few neighbouring cells. On packed words (below 2^58) it is a
/// bijection (both steps can be undone), so the tables keep hashes instead
/// of words: equal hashes are equal states. It is never 0 (only the word 0
/// hashes to 0, and no packed state is 0), so 0 marks an empty slot.
#[inline(always)]
fn hash(word: u64) -> u64 {
    debug_assert!(word & !PACKED_BITS == 0, "a packed state has 46 bits");
    (word ^ word >> 29).wrapping_mul(HASH_FACTOR)
}

/// The odd constant [`hash`] multiplies by, and its inverse modulo 2^64.
const HASH_FACTOR: u64 = 0x9E37_79B9_7F4A_7C15;
const HASH_INVERSE: u64 = {
    // Newton's iteration doubles the correct low bits each round.
    let mut inverse = HASH_FACTOR;
    let mut round = 0;
    while round < 6 {
        inverse = inverse.wrapping_mul(2u64.wrapping_sub(HASH_FACTOR.wrapping_mul(inverse)));
        round += 1;
    }
    inverse
};

/// The packed word whose [`hash`] is `hash`.
#[inline(always)]
fn unhash(hash: u64) -> u64 {
    let folded = hash.wrapping_mul(HASH_INVERSE);
    folded ^ folded >> 29
}

/// The shard a hash belongs to: its top bits.
#[inline(always)]
fn shard_of(hash: u64) -> usize {
    (hash >> (64 - SHARD_BITS)) as usize
}

/// Tables per shard, picked by the hash's bits after the shard's: each
/// stays small, so that growing one rehashes a few thousand states within
/// the cache, and the memory of the tables it replaces is soon reused by
/// others.
const SEGMENT_BITS: u32 = 3;

/// The table of a shard that a hash belongs to.
#[inline(always)]
fn segment_of(hash: u64) -> usize {
    ((hash << SHARD_BITS) >> (64 - SEGMENT_BITS)) as usize
}

/// Where a hash sits in a table of `len` slots: its bits below the
/// shard's and the table's, scaled to the table (which need not be a
/// power of two).
#[inline(always)]
fn home(hash: u64, len: usize) -> usize {
    (((hash << (SHARD_BITS + SEGMENT_BITS)) as u128 * len as u128) >> 64) as usize
}

/// How many look-ups ahead a shard asks for the slot it will probe.
const PREFETCH_DISTANCE: usize = 16;

/// Asks the processor to bring the memory at `slot` into the cache without
/// waiting for it; a hint, which changes no result. `slot` need not point
/// at anything (it is never read through).
#[inline(always)]
fn prefetch(slot: *const u64) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch reads nothing into the program and never faults,
    // whatever the address. SSE, which it needs, is part of every x86_64
    // processor.
    unsafe {
        use std::arch::x86_64::{_mm_prefetch, _MM_HINT_T0};
        _mm_prefetch::<_MM_HINT_T0>(slot.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = slot;
}

/// One shard of the visited set: `1 << SEGMENT_BITS` tables.
struct Shard {
    segments: [Segment; 1 << SEGMENT_BITS],
}

/// An open-addressing (linear probing) table of hashes, its homes kept
/// between 3/8 and 3/4 full; no memory until its first state.
///
/// A look-up reads the [`WINDOW`] slots from the home at once and decides
/// from them without branching on each slot: a loop that stops at a slot
/// depending on the data mispredicts its exit on most look-ups, and each
/// misprediction throws away the look-ups running ahead of it (in a
/// benchmark of look-ups alone, 17 to 19 ns each against 13). The table
/// has [`WINDOW`] - 1 slots after the last home so that the window never
/// wraps; a run of full slots that reaches the end goes on from the start.
struct Segment {
    slots: Vec<u64>,
    len: usize,
    /// The slots homes fall in: the table without its overflow.
    homes: usize,
    /// Its first table's homes (see [`first_homes`]).
    first_homes: usize,
}

/// Slots a look-up reads at once.
const WINDOW: usize = 4;

/// Bits per slot in the masks of [`window_masks`].
const WINDOW_BITS: u32 = 4;

/// Which slots of a look-up's window (its [`WINDOW`] slots) hold `hash`,
/// and which are empty: bit `4 i` of each mask for slot `i`.
///
/// On x86_64 the eight comparisons are four SSE2 instructions: each
/// compares the 32-bit halves of two slots, and a slot matches when both
/// its halves do.
#[inline(always)]
fn window_masks(window: &[u64], hash: u64) -> (u32, u32) {
    debug_assert_eq!(window.len(), WINDOW);
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{
            _mm_cmpeq_epi32, _mm_loadu_si128, _mm_movemask_epi8, _mm_packs_epi32, _mm_set1_epi64x,
            _mm_setzero_si128,
        };
        let slots = &window[..WINDOW];
        // SAFETY: the two unaligned loads read slots 0-1 and 2-3 of
        // `slots`, which holds four; the other intrinsics only compute,
        // with SSE2, which is part of every x86_64 processor.
        unsafe {
            let low = _mm_loadu_si128(slots.as_ptr().cast());
            let high = _mm_loadu_si128(slots[2..].as_ptr().cast());
            let halves = |wanted| {
                // Each 32-bit half that matches gives two set bits: slot
                // `i`'s halves are bits 4 i and 4 i + 2.
                let mask = _mm_movemask_epi8(_mm_packs_epi32(
                    _mm_cmpeq_epi32(low, wanted),
                    _mm_cmpeq_epi32(high, wanted),
                )) as u32;
                mask & mask >> 2 & 0x1111
            };
            (
                halves(_mm_set1_epi64x(hash as i64)),
                halves(_mm_setzero_si128()),
            )
        }
    }
    #[cfg(not(target_arch = "x86_64"))]
    window_masks_by_slot(window, hash)
}

/// [`window_masks`] one slot at a time: what it computes, and how where
/// there is no SSE2.
#[cfg(any(test, not(target_arch = "x86_64")))]
fn window_masks_by_slot(window: &[u64], hash: u64) -> (u32, u32) {
    let mut equal = 0u32;
    let mut empty = 0u32;
    for (place, &slot) in window.iter().enumerate() {
        equal |= u32::from(slot == hash) << (WINDOW_BITS as usize * place);
        empty |= u32::from(slot == 0) << (WINDOW_BITS as usize * place);
    }
    (equal, empty)
}

/// Homes of the smallest first table of a segment.
const INITIAL_SLOTS: usize = 64;

/// The homes of the first table of segment `segment` of shard `shard`:
/// from [`INITIAL_SLOTS`] to twice as many, spread evenly in ratio over the
/// segments.
///
/// A table doubles when it grows, so that a state is moved about once
/// rather than twice (growing by half again, one thread spent about 10 of
/// its 57 ms on Figure 1(a) growing tables; doubling saves about 5). Every
/// segment gets about as many states as the others; with tables of one
/// size they would all double at once, and the visited set would take 21
/// bytes a state just after. Staggered, they double one after another, and
/// the set stays at about 8 (8/3 - 4/3) / ln 2 = 15.4 bytes a state.
fn first_homes(shard: usize, segment: usize) -> usize {
    let place = (segment * SHARDS + shard) as f64 / (SHARDS << SEGMENT_BITS) as f64;
    (INITIAL_SLOTS as f64 * place.exp2()).round() as usize
}

impl Shard {
    fn new(shard: usize) -> Shard {
        Shard {
            segments: std::array::from_fn(|segment| Segment::new(first_homes(shard, segment))),
        }
    }

    /// Looks up the successors of shard `shard` in a chunk's `blocks`, in
    /// the order they were generated, and marks in `fresh` (one bit per
    /// successor of the chunk) those that were not there and have now been
    /// added: of equal successors, the first.
    fn look_up(
        &mut self,
        shard: usize,
        blocks: &[RwLockReadGuard<'_, Block>],
        fresh: &mut Vec<u64>,
    ) {
        let total: usize = blocks.iter().map(|block| block.candidates.len()).sum();
        fresh.clear();
        fresh.resize(total.div_ceil(64), 0);
        let mut offset = 0;
        for block in blocks {
            let keys = block.keys_of(shard);
            for (place, key) in keys.iter().enumerate() {
                // Each probe is likely a cache miss; asking for the slot of
                // the one PREFETCH_DISTANCE ahead keeps that many misses in
                // flight, whatever branches this one mispredicts.
                if let Some(ahead) = keys.get(place + PREFETCH_DISTANCE) {
                    let ahead = ahead.hash;
                    let segment = &self.segments[segment_of(ahead)];
                    // Not indexed: a table not yet allocated has no slots,
                    // and a hint needs no bounds check.
                    let window = segment
                        .slots
                        .as_ptr()
                        .wrapping_add(home(ahead, segment.homes));
                    // A window of 4 slots spans two cache lines 3 times
                    // in 8.
                    prefetch(window);
                    prefetch(window.wrapping_add(WINDOW - 1));
                }
                let hash = key.hash;
                if self.segments[segment_of(hash)].insert(hash) {
                    let index = offset + key.index as usize;
                    fresh[index / 64] |= 1 << (index % 64);
                }
            }
            offset += block.candidates.len();
        }
    }

    /// Adds `hash` if it is not there; true if it was not.
    fn insert(&mut self, hash: u64) -> bool {
        self.segments[segment_of(hash)].insert(hash)
    }

    fn memory_bytes(&self) -> usize {
        std::mem::size_of::<Shard>()
            + self
                .segments
                .iter()
                .map(|segment| segment.slots.capacity() * std::mem::size_of::<u64>())
                .sum::<usize>()
    }
}

impl Segment {
    /// An empty table whose first allocation has `first_homes` homes.
    fn new(first_homes: usize) -> Segment {
        Segment {
            slots: Vec::new(),
            len: 0,
            homes: 0,
            first_homes,
        }
    }

    /// Adds `hash` if it is not there; true if it was not.
    #[inline(always)]
    fn insert(&mut self, hash: u64) -> bool {
        // Kept at most 3/4 full: growing makes it twice as large, and so
        // 3/8 full. Checked before looking, so that the check is almost
        // always the same.
        if (self.len + 1) * 4 > self.homes * 3 {
            self.grow();
        }
        let home = home(hash, self.homes);
        let (equal, empty) = window_masks(&self.slots[home..home + WINDOW], hash);
        // The slots before the first empty one (all when none is): a hash
        // is never stored past an empty slot of its run.
        let before_empty = (empty & empty.wrapping_neg()).wrapping_sub(1);
        if equal & before_empty != 0 {
            return false;
        }
        if empty == 0 {
            return self.insert_past_window(hash, home + WINDOW);
        }
        self.slots[home + (empty.trailing_zeros() / WINDOW_BITS) as usize] = hash;
        self.len += 1;
        true
    }

    /// [`Segment::insert`] once the window is full and holds no `hash`:
    /// one slot at a time from `from`, on from the start after the end.
    #[cold]
    fn insert_past_window(&mut self, hash: u64, from: usize) -> bool {
        let mut slot = from;
        loop {
            if slot == self.slots.len() {
                slot = 0;
            }
            match self.slots[slot] {
                0 => {
                    self.slots[slot] = hash;
                    self.len += 1;
                    return true;
                }
                entry if entry == hash => return false,
                _ => slot += 1,
            }
        }
    }

    /// Puts `hash`, known not to be there, into the first empty slot of
    /// its run.
    fn place(&mut self, hash: u64) {
        let mut slot = home(hash, self.homes);
        while self.slots[slot] != 0 {
            slot += 1;
            if slot == self.slots.len() {
                slot = 0;
            }
        }
        self.slots[slot] = hash;
    }

    #[cold]
    fn grow(&mut self) {
        self.homes = if self.homes == 0 {
            self.first_homes
        } else {
            self.homes * 2
        };
        let old = std::mem::replace(&mut self.slots, written_zeros(self.homes + WINDOW - 1));
        for hash in old.into_iter().filter(|&hash| hash != 0) {
            self.place(hash);
        }
    }
}

/// `len` zeros, written. A large table is fresh memory from the system,
/// which reads as zeros unwritten; but a page first read and then written
/// costs two page faults, the second of which makes every other core
/// flush its TLB (on a VM, a costly exit each), where a page written first
/// costs one fault and no flush. Smaller tables come from memory the
/// allocator reuses, which it clears itself.
fn written_zeros(len: usize) -> Vec<u64> {
    let mut slots = vec![0; len];
    if len * std::mem::size_of::<u64>() >= FRESH_MEMORY_FROM {
        // Hidden from the optimiser, which would otherwise know the zeros
        // are there and drop the writing.
        std::hint::black_box(&mut slots).fill(0);
    }
    slots
}

/// The size from which the C library's allocator maps fresh memory from
/// the system for a request (its default threshold, 128 KiB).
const FRESH_MEMORY_FROM: usize = 128 << 10;

/// The successors of a block of a chunk's states, in the order they were
/// generated and grouped by shard.
#[derive(Default)]
struct Block {
    candidates: Vec<Candidate>,
    /// Every candidate's hash and index, by shard, each shard's in the
    /// order they were generated (so equal hashes keep their order).
    keys: [Vec<Key>; SHARDS],
}

/// A candidate's hash and its index in its block, 12 bytes. The hash is
/// copied so that a shard's look-ups read their keys in order: read
/// through the index, each was one more cache miss.
#[derive(Clone, Copy)]
#[repr(C, packed(4))]
struct Key {
    hash: u64,
    index: u32,
}

impl Block {
    /// Generates the successors of the queued states `entries` (the first
    /// has id `first_id`), in order, each also filed under its shard.
    fn generate(&mut self, entries: &[u64], first_id: usize) {
        self.candidates.clear();
        for keys in &mut self.keys {
            keys.clear();
        }
        for (offset, &entry) in entries.iter().enumerate() {
            successors(entry, first_id + offset, |candidate| {
                let hash = candidate.hash;
                push_compact(
                    &mut self.keys[shard_of(hash)],
                    Key {
                        hash,
                        index: self.candidates.len() as u32,
                    },
                );
                push_compact(&mut self.candidates, candidate);
            });
        }
    }

    fn keys_of(&self, shard: usize) -> &[Key] {
        &self.keys[shard]
    }

    fn memory_bytes(&self) -> usize {
        self.candidates.capacity() * std::mem::size_of::<Candidate>()
            + self
                .keys
                .iter()
                .map(|keys| keys.capacity() * std::mem::size_of::<Key>())
                .sum::<usize>()
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
        (outcome, search.ids.expanded)
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
            // No answer: all 210 reachable states visited.
            "oooxoooooooxooooooooooooooo@.",
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
                if crate::puzzle::rules::engine::perform_quietly(&mut next, operation).is_err()
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
            // No answer: all 210 reachable states visited.
            "oooxoooooooxooooooooooooooo@.",
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

    #[test]
    fn the_hash_is_a_bijection_never_zero() {
        let mut word = 1u64;
        for _ in 0..100_000 {
            // Words all over the 46 packed bits, from a xorshift sequence.
            word ^= word << 13;
            word ^= word >> 7;
            word ^= word << 17;
            let packed = word & PACKED_BITS;
            if packed == 0 {
                continue;
            }
            assert_ne!(hash(packed), 0);
            assert_eq!(unhash(hash(packed)), packed);
        }
        assert_eq!(unhash(hash(PACKED_BITS)), PACKED_BITS);
    }

    /// A panic on either thread ends the search instead of leaving the
    /// other waiting for work that never comes.
    #[test]
    fn a_thread_that_panics_does_not_leave_the_other_waiting() {
        // One chunk whose blocks nobody generates: nothing ever gets ready.
        let schedule = Schedule::new(1);
        let result = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            thread::scope(|scope| {
                scope.spawn(|| {
                    let _taking_part = schedule.taking_part();
                    panic!("a bug");
                });
                let _taking_part = schedule.taking_part();
                let mut spins = 0;
                while schedule.claim_numbering().is_none() {
                    schedule.wait_a_little(&mut spins);
                }
            })
        }));
        assert!(result.is_err());
    }

    /// A window's masks mark exactly the slots equal to the hash and the
    /// empty ones, in every mix of slots, among them slots that share
    /// only the low or only the high 32 bits with the hash, or with 0.
    #[test]
    fn window_masks_match_whole_slots_only() {
        let hash = 0x1234_5678_9ABC_DEF1;
        let kinds = [
            0,
            hash,
            hash ^ 1 << 40,
            hash ^ 1,
            1 << 40,
            1,
            0xFFFF_FFFF_FFFF_FFFF,
        ];
        let mut window = [0u64; WINDOW];
        for mix in 0..kinds.len().pow(WINDOW as u32) {
            let mut rest = mix;
            for slot in &mut window {
                *slot = kinds[rest % kinds.len()];
                rest /= kinds.len();
            }
            assert_eq!(
                window_masks(&window, hash),
                window_masks_by_slot(&window, hash),
                "{window:x?}"
            );
        }
    }

    /// The segments' first tables are spread evenly in ratio from
    /// INITIAL_SLOTS to twice that, so that they double at different times.
    #[test]
    fn first_tables_spread_over_a_factor_of_two() {
        let mut homes: Vec<usize> = (0..SHARDS)
            .flat_map(|shard| {
                (0..1 << SEGMENT_BITS).map(move |segment| first_homes(shard, segment))
            })
            .collect();
        homes.sort_unstable();
        assert_eq!(homes[0], INITIAL_SLOTS);
        assert!(homes[homes.len() - 1] < 2 * INITIAL_SLOTS);
        // The middle one is about INITIAL_SLOTS * sqrt(2).
        assert_eq!(homes[homes.len() / 2], 91);
        homes.dedup();
        assert!(homes.len() >= INITIAL_SLOTS - 1, "{homes:?}");
    }

    /// A table holds every hash once, however they crowd: here runs of
    /// dozens of hashes with the same home, near the end of the table too,
    /// so that they go past the window and on from the start.
    #[test]
    fn a_table_finds_what_it_holds_however_crowded() {
        let mut segment = Segment::new(INITIAL_SLOTS);
        let mut hashes = Vec::new();
        // Homes come from the bits below the top SHARD_BITS +
        // SEGMENT_BITS; these share them, all but the lowest eight: at the
        // start of the table, in the middle, and at the very end.
        for high in [
            0u64,
            1 << 50,
            u64::MAX >> (SHARD_BITS + SEGMENT_BITS) & !0xFF,
        ] {
            for low in 1..=40u64 {
                hashes.push(high | low);
            }
        }
        for &hash in &hashes {
            assert!(segment.insert(hash), "{hash:#x} is new");
        }
        for &hash in &hashes {
            assert!(!segment.insert(hash), "{hash:#x} is there");
        }
        assert_eq!(segment.len, hashes.len());
        assert!(segment.len * 4 <= segment.homes * 3);
    }
}
