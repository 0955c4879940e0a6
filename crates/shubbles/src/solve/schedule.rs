//! Which unit of a level's work each of the two threads may take next.

use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::thread;

use super::visited::SHARDS;

/// Blocks per chunk: the units of generating that threads take in turn,
/// so that neither waits long for the other.
pub(super) const BLOCKS: usize = 8;

/// A unit of a level's work: numbering a chunk, looking a chunk up in a
/// shard, or generating a block of a chunk.
pub(super) enum Unit {
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
pub(super) struct Schedule {
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
pub(super) const ALL_LANES: [usize; LANES] = [0, 1];

/// Spins before a waiting thread starts yielding.
const SPINS_BEFORE_YIELDING: u32 = 1 << 14;

impl Schedule {
    pub(super) fn new(chunks: usize) -> Schedule {
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
    pub(super) fn claim(&self, lanes: &[usize]) -> Option<Unit> {
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

    /// True once the search has ended: the rest of the level is not
    /// needed.
    #[inline]
    pub(super) fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// Ends the search: each thread takes no more units once it sees
    /// this. A thread that looked just before may still claim and do one,
    /// so a unit's work must not undo what ended the search (numbering
    /// leaves an outcome found alone).
    pub(super) fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// A unit of generating for `chunk` has finished.
    #[inline]
    pub(super) fn generated_one(&self, chunk: usize) {
        self.generated[chunk].fetch_add(1, Ordering::Release);
    }

    /// A unit of looking up for `chunk` has finished.
    #[inline]
    pub(super) fn looked_up_one(&self, chunk: usize) {
        self.looked_up[chunk].fetch_add(1, Ordering::Release);
    }

    /// The numbering of the next chunk has finished.
    #[inline]
    pub(super) fn numbered_one(&self) {
        self.numbered.fetch_add(1, Ordering::Release);
    }

    /// True when every chunk of the level has been numbered.
    #[inline]
    pub(super) fn all_numbered(&self) -> bool {
        self.numbered.load(Ordering::Acquire) == self.chunks
    }

    /// Waits a moment for the other thread: spinning, since units are
    /// short and a thread put to sleep takes longer to wake than they
    /// last; after a while yielding the processor, in case the other
    /// thread is not running.
    pub(super) fn wait_a_little(&self, spins: &mut u32) {
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
    pub(super) fn taking_part(&self) -> TakingPart<'_> {
        TakingPart(self)
    }
}

pub(super) struct TakingPart<'a>(&'a Schedule);

impl Drop for TakingPart<'_> {
    fn drop(&mut self) {
        if thread::panicking() {
            self.0.abandoned.store(true, Ordering::Relaxed);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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
}
