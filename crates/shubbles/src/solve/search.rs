//! One breadth-first search: levels expanded chunk by chunk, successors
//! generated in blocks and looked up shard by shard, new states numbered
//! in the order a one-by-one search finds them, and the path back from any
//! state to the start.

use std::sync::{Mutex, MutexGuard, PoisonError, RwLock, RwLockReadGuard, RwLockWriteGuard};
use std::thread;
use std::time::Instant;

use super::queue;
use super::report::{SolveOutcome, SolveProgress};
use super::schedule::{Schedule, Unit, ALL_LANES, BLOCKS};
use super::visited::{hash, shard_of, unhash, Key, Shard, SHARDS};
use crate::model::operation::Operation;
use crate::model::state::State;

/// The most states a search can hold: a parent record keeps the parent's
/// index in 29 bits next to the 3-bit operation. Larger limits are clamped
/// to this (about 13 GB of visited set).
pub const MAX_STATES: usize = 1 << 29;

/// One breadth-first search.
pub(super) struct Search {
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
    pub(super) fn new(max_states: usize) -> Search {
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

    pub(super) fn run(
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
        // The states of one depth are a contiguous run of ids; only the
        // words of the level being expanded and of the next one are kept.
        let mut level = vec![self.visit_start(start)];
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

    /// Adds `start` to the visited set as id 0; its queue entry.
    fn visit_start(&mut self, start: &State) -> u64 {
        let word = start.pack();
        let hash = hash(word);
        lock(&self.work.shards[shard_of(hash)].0).insert(hash);
        self.ids.parents.push(ROOT);
        word
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

    /// States whose successors were generated.
    pub(super) fn expanded(&self) -> usize {
        self.ids.expanded
    }

    /// The most bytes held at once (see [`Search::peak_bytes`]'s field).
    pub(super) fn peak_bytes(&self) -> usize {
        self.peak_bytes
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
        while !schedule.stopped() {
            match schedule.claim(lanes) {
                Some(unit) => self.work_on(unit, schedule, cut, numbering),
                None if schedule.all_numbered() => return,
                None => {
                    schedule.wait_a_little(&mut spins);
                    continue;
                }
            }
            spins = 0;
        }
    }

    /// Does one unit of work that `schedule` gave out, and tells it so.
    fn work_on(&self, unit: Unit, schedule: &Schedule, cut: &Cut, numbering: &Mutex<Numbering>) {
        match unit {
            Unit::Numbering(chunk) => {
                let mut numbering = lock(numbering);
                let Numbering { ids, next, outcome } = &mut *numbering;
                // The search may have ended since this unit was claimed:
                // the other thread can claim the next chunk after checking
                // that it had not, and number it after the chunk before
                // found the answer. Numbering it then would replace the
                // answer with nothing, and the search would go on a level
                // deeper, to a longer answer.
                if outcome.is_none() {
                    let parity = cut.chunk(chunk).parity();
                    *outcome = ids.number(self, parity, cut.level, cut.first_id, next);
                    if outcome.is_some() {
                        schedule.stop();
                    }
                }
                schedule.numbered_one();
            }
            Unit::LookingUp(chunk, shard) => {
                self.look_up(&cut.chunk(chunk), shard);
                schedule.looked_up_one(chunk);
            }
            Unit::Generating(chunk, block) => {
                self.generate(&cut.chunk(chunk), block);
                schedule.generated_one(chunk);
            }
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
        let keys = blocks
            .iter()
            .map(|block| (block.keys_of(shard), block.candidates.len()));
        lock(&self.shards[shard].0).look_up(keys, &mut fresh);
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
                let skip = queue::skip_after(word, level[parent - level_first_id], op_index);
                push_compact(&mut self.parents, record);
                push_compact(next, queue::entry(word, skip));
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

/// The parent record of the start, which has none; never followed because
/// the walk stops at id 0.
const ROOT: u32 = 0;

/// Parent id in the high 29 bits, index into [`Operation::ALL`] in the low
/// 3. Ids stay below [`MAX_STATES`], so this fits.
#[inline]
fn parent_record(parent: usize, op_index: usize) -> u32 {
    (parent as u32) << 3 | op_index as u32
}

/// The successors of a block of a chunk's states, in the order they were
/// generated and grouped by shard.
#[derive(Default)]
struct Block {
    candidates: Vec<Candidate>,
    /// Every candidate's hash and index, by shard, each shard's in the
    /// order they were generated (so equal hashes keep their order).
    keys: [Vec<Key>; SHARDS],
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
            queue::for_each_successor(entry, |op_index, next| {
                let hash = hash(next);
                let candidate = Candidate {
                    hash,
                    record: parent_record(first_id + offset, op_index),
                };
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
    use crate::progress::NoProgress;

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
                if crate::rules::engine::perform_quietly(&mut next, operation).is_err()
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

    /// On two threads, one can claim the next chunk's numbering after the
    /// other has numbered the chunk that holds the answer, having checked
    /// just before that the search had not ended. Under load this gave
    /// answers one operation too long; the late numbering must leave the
    /// answer as it is.
    #[test]
    fn a_chunk_numbered_after_the_answer_was_found_changes_nothing() {
        let start = State::parse("...................x...x@o...", false).expect("a valid state");
        let mut search = Search::new(1000);
        search.chunk_states = 1;
        let level = vec![search.visit_start(&start)];
        let mut depth_one = Vec::new();
        assert!(search.expand(&level, 0, &mut depth_one).is_none());
        // Depth one by hand, a state a chunk, unit by unit in the order
        // one thread takes them; after the answer, one more numbering, as
        // the late thread does.
        let cut = super::Cut {
            level: &depth_one,
            first_id: 1,
            chunk_states: 1,
        };
        let schedule = Schedule::new(depth_one.len());
        let mut next = Vec::new();
        let numbering = Mutex::new(Numbering {
            ids: &mut search.ids,
            next: &mut next,
            outcome: None,
        });
        let mut numbered_late = false;
        while let Some(unit) = schedule.claim(&ALL_LANES) {
            let late = schedule.stopped() && matches!(unit, Unit::Numbering(_));
            search.work.work_on(unit, &schedule, &cut, &numbering);
            if late {
                numbered_late = true;
                break;
            }
        }
        assert!(numbered_late, "the answer's chunk was the last one");
        let outcome = numbering
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .outcome;
        assert!(
            matches!(&outcome, Some(SolveOutcome::Solved { operations, .. }) if operations.len() == 2),
            "{outcome:?}"
        );
    }
}
