//! Retrograde analysis, one layer at a time.
//!
//! No operation adds a shubble, so the layers (states with the same number
//! of creatures) are solved from the fewest up. Layer 2 (no shubble) is
//! solved at distance 0. In a larger layer the only way out is a turn to
//! gravity down that drops the shubble in cell 28 through the opening;
//! those states start at one more than where they land in the layer below
//! (looked up forwards). From there on the layer is a breadth-first search
//! backwards: the states at distance `t` give every state from which one
//! operation leads to them at most `t + 1`. A state never reached is
//! unsolvable.
//!
//! Distances live in one byte per state; the search over a layer's
//! states at distance `t` runs on every core, each state's predecessors
//! lowered with an atomic minimum, so the order in which threads go does
//! not change a single byte.

use std::sync::atomic::{AtomicU64, AtomicU8, Ordering};

use rayon::prelude::*;

use super::index::{shape_number, Index, Indexed};
use super::predecessors::Predecessors;
use crate::model::geometry::CELL_COUNT;
use crate::model::resting;

/// The distance byte of a state that cannot be solved.
pub const UNSOLVABLE: u8 = u8::MAX;

/// The states of a layer are searched in chunks of this many, one chunk
/// a task.
const CHUNK: u64 = 1 << 16;

/// What a build reports as it goes; the library draws nothing.
pub trait TableProgress {
    /// A layer was found whole in a partial file and kept.
    fn layer_resumed(&mut self, _shubbles: usize, _states: u64) {}
    /// A layer's search began.
    fn layer_begun(&mut self, _shubbles: usize, _states: u64) {}
    /// `states` more states of the current layer have their distance.
    fn states_settled(&mut self, _states: u64) {}
}

/// Works out the distances of layer `n` (`n` creatures), given those of
/// layer `n - 1` (`below`; not needed for `n = 2`).
pub(crate) fn build_layer(
    index: &Index,
    predecessors: &Predecessors,
    n: usize,
    below: Option<&[u8]>,
    progress: &mut impl TableProgress,
) -> Result<Vec<u8>, TooDeep> {
    let len = index.layer_len(n);
    progress.layer_begun(n - 2, len);
    if n == 2 {
        // Every state without shubbles is solved.
        progress.states_settled(len);
        return Ok(vec![0; len as usize]);
    }
    let distances: Vec<AtomicU8> = (0..len).map(|_| AtomicU8::new(UNSOLVABLE)).collect();
    let deepest_start = match below {
        Some(below) => seed(index, n, below, &distances),
        None => 0,
    };
    let chunks = len.div_ceil(CHUNK);
    let mut distance: u8 = 1;
    loop {
        let settled = AtomicU64::new(0);
        (0..chunks).into_par_iter().for_each(|chunk| {
            let mut count = 0;
            for rank in chunk * CHUNK..((chunk + 1) * CHUNK).min(len) {
                if distances[rank as usize].load(Ordering::Relaxed) != distance {
                    continue;
                }
                count += 1;
                let (pattern, smoles) = index.unrank(n, rank);
                predecessors.for_each(index, n, &pattern, smoles, |from| {
                    distances[from as usize].fetch_min(distance + 1, Ordering::Relaxed);
                });
            }
            settled.fetch_add(count, Ordering::Relaxed);
        });
        let settled = settled.into_inner();
        progress.states_settled(settled);
        if settled == 0 && distance >= deepest_start {
            break;
        }
        if distance + 1 == UNSOLVABLE {
            return Err(TooDeep { shubbles: n - 2 });
        }
        distance += 1;
    }
    Ok(distances.into_iter().map(AtomicU8::into_inner).collect())
}

/// Sets every state of layer `n` that a turn to gravity down leaves with
/// one shubble less to one more than the distance where it lands; returns
/// the largest distance set.
fn seed(index: &Index, n: usize, below: &[u8], distances: &[AtomicU8]) -> u8 {
    const OPENING: u32 = 1 << 28;
    index.layers[n]
        .par_iter()
        .enumerate()
        .filter(|(_, pattern)| {
            pattern.shape >= CELL_COUNT as u8 && pattern.occupancy & OPENING != 0
        })
        .map(|(place, pattern)| {
            let stot = pattern.shape % CELL_COUNT as u8;
            let first = place as u64 * super::index::pairs(n);
            let mut deepest = 0;
            for pair in 0..super::index::pairs(n) {
                let (_, smoles) = index.unrank(n, first + pair);
                if smoles & OPENING != 0 {
                    continue; // a smole would fall out: that turn fails
                }
                let shubbles = pattern.occupancy & !smoles;
                let Some((shubbles, smoles)) = resting::rest(shubbles, smoles, stot as u32, 0)
                else {
                    continue;
                };
                let landed = Indexed {
                    shape: shape_number(0, stot),
                    occupancy: shubbles | smoles,
                    smoles,
                };
                let Some(rank) = index.rank(&landed) else {
                    continue;
                };
                let there = below[rank as usize];
                if there != UNSOLVABLE {
                    distances[(first + pair) as usize].fetch_min(there + 1, Ordering::Relaxed);
                    deepest = deepest.max(there + 1);
                }
            }
            deepest
        })
        .max()
        .unwrap_or(0)
}

/// A distance past what a byte holds: the table's format would need
/// changing.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooDeep {
    /// The layer where it happened.
    pub shubbles: usize,
}

impl TableProgress for crate::progress::NoProgress {}
