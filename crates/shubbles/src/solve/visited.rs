//! The set of states a search has seen: small open-addressing tables of
//! hashes, cut into shards that threads look up in turn.

use crate::model::packing::PACKED_BITS;

/// The visited set has `1 << SHARD_BITS` shards, picked by the hash's top
/// bits: units of looking up that the threads claim in turn, enough of
/// them that neither thread waits long for the other.
const SHARD_BITS: u32 = 4;
pub(super) const SHARDS: usize = 1 << SHARD_BITS;

/// A packed state's hash: odd-constant (Fibonacci) multiplying after
/// folding the high cells into the low ones, since many states differ only
/// in a few neighbouring cells. On packed words (below 2^58) it is a
/// bijection (both steps can be undone), so the tables keep hashes instead
/// of words: equal hashes are equal states. It is never 0 (only the word 0
/// hashes to 0, and no packed state is 0), so 0 marks an empty slot.
#[inline(always)]
pub(super) fn hash(word: u64) -> u64 {
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
pub(super) fn unhash(hash: u64) -> u64 {
    let folded = hash.wrapping_mul(HASH_INVERSE);
    folded ^ folded >> 29
}

/// The shard a hash belongs to: its top bits.
#[inline(always)]
pub(super) fn shard_of(hash: u64) -> usize {
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
pub(super) struct Shard {
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
    pub(super) fn new(shard: usize) -> Shard {
        Shard {
            segments: std::array::from_fn(|segment| Segment::new(first_homes(shard, segment))),
        }
    }

    /// Looks up a chunk's successors that belong to this shard, given as
    /// each block's keys for this shard and the number of successors the
    /// block has, in the order they were generated; marks in `fresh` (one
    /// bit per successor of the chunk) those that were not there and have
    /// now been added: of equal successors, the first.
    pub(super) fn look_up<'k>(
        &mut self,
        blocks: impl Iterator<Item = (&'k [Key], usize)> + Clone,
        fresh: &mut Vec<u64>,
    ) {
        let total: usize = blocks.clone().map(|(_, successors)| successors).sum();
        fresh.clear();
        fresh.resize(total.div_ceil(64), 0);
        let mut offset = 0;
        for (keys, successors) in blocks {
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
            offset += successors;
        }
    }

    /// Adds `hash` if it is not there; true if it was not.
    pub(super) fn insert(&mut self, hash: u64) -> bool {
        self.segments[segment_of(hash)].insert(hash)
    }

    pub(super) fn memory_bytes(&self) -> usize {
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

/// A candidate's hash and its index in its block, 12 bytes. The hash is
/// copied so that a shard's look-ups read their keys in order: read
/// through the index, each was one more cache miss.
#[derive(Clone, Copy)]
#[repr(C, packed(4))]
pub(super) struct Key {
    pub(super) hash: u64,
    pub(super) index: u32,
}

#[cfg(test)]
mod tests {
    use super::*;

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
