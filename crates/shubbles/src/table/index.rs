//! A perfect index of the stable states: every valid stable state of the
//! box, in every orientation, gets a number of its own, and every number
//! in range is a state.
//!
//! In a stable state each line along gravity (a column or a row, cut in
//! two by the stot) holds its creatures packed against its gravity end,
//! so the cells with a creature in them (the *occupancy*) are given by
//! one height per segment. The stot's cell, the orientation and the
//! heights make a *pattern*; the pattern with `n` creatures and the choice
//! of which two of them are the smoles (`C(n, 2)` ways, the creatures
//! taken in cell order) make a state. States are numbered layer by layer,
//! a layer being the states with `n` creatures (`n - 2` shubbles): within
//! a layer, pattern by pattern (orientation, then stot cell, then heights
//! in mixed radix), and within a pattern by the smoles' places
//! (`b (b - 1) / 2 + a` for the `a`-th and `b`-th creatures, `a < b`).
//!
//! A cell that cannot hold a resting creature is left out of its segment:
//! cell 28 with gravity down, whose creature falls through the opening.

use crate::model::geometry::{Cell, Neighbour, Orientation, CELL_COUNT};

/// Orientations times stot cells: the boxes, each with its own segments.
pub(crate) const SHAPES: usize = 4 * CELL_COUNT;

/// The most creatures a state holds: every cell but the stot's.
pub(crate) const MAX_CREATURES: usize = CELL_COUNT - 1;

/// No cell (in [`Shape::place`]) or no slot.
const NONE: u8 = u8::MAX;

/// One orientation and stot cell: its segments along gravity.
pub(crate) struct Shape {
    /// Each segment's cells, from its gravity end up.
    segments: Vec<Vec<u8>>,
    /// Each segment's cells as bits.
    masks: Vec<u32>,
    /// The weight of each segment's height in the key.
    radices: Vec<u32>,
    /// Each cell's segment and its place from the gravity end (`NONE`
    /// for the stot's cell and a cell that holds no creature).
    place: [(u8, u8); CELL_COUNT],
    /// Where this shape's keys start among all slots.
    pub(crate) first_slot: u32,
    /// How many height combinations (keys) the shape has.
    keys: u32,
}

impl Shape {
    fn new(quarters: u8, stot: u8) -> Shape {
        let gravity = Orientation::from_quarters(quarters as i32).gravity();
        let mut segments = Vec::new();
        for cell in Cell::all() {
            if cell.index() == stot as usize {
                continue;
            }
            // A segment starts at a cell under which there is no cell to
            // fall into: a wall, the stot, or the opening.
            let below = cell.neighbour(gravity);
            let bottom = match below {
                Neighbour::Cell(under) => under.index() == stot as usize,
                Neighbour::Wall | Neighbour::Opening => true,
            };
            if !bottom {
                continue;
            }
            let mut cells = Vec::new();
            let mut at = cell;
            loop {
                cells.push(at.index() as u8);
                match at.neighbour(gravity.opposite()) {
                    Neighbour::Cell(up) if up.index() != stot as usize => at = up,
                    _ => break,
                }
            }
            // Cell 28 with gravity down: a creature there falls out, and
            // nothing is above it (a test checks the segment is alone).
            if below == Neighbour::Opening {
                debug_assert_eq!(cells.len(), 1);
                continue;
            }
            segments.push(cells);
        }
        let mut place = [(NONE, NONE); CELL_COUNT];
        let mut masks = Vec::new();
        let mut radices = Vec::new();
        let mut keys = 1u32;
        for (s, cells) in segments.iter().enumerate() {
            let mut mask = 0;
            for (i, &cell) in cells.iter().enumerate() {
                place[cell as usize] = (s as u8, i as u8);
                mask |= 1 << cell;
            }
            masks.push(mask);
            radices.push(keys);
            keys *= cells.len() as u32 + 1;
        }
        Shape {
            segments,
            masks,
            radices,
            place,
            first_slot: 0,
            keys,
        }
    }

    /// The keys and occupancies of the patterns with at most `most`
    /// creatures, in the order of their keys.
    fn patterns_up_to(&self, most: u32) -> Vec<(u32, u32)> {
        let mut found = vec![(0u32, 0u32)];
        // Segment by segment: every height that keeps within `most`.
        for (cells, &radix) in self.segments.iter().zip(&self.radices) {
            let mut next = Vec::with_capacity(found.len() * (cells.len() + 1));
            for &(key, occupancy) in &found {
                let mut occupied = occupancy;
                for height in 0..=cells.len() {
                    if occupied.count_ones() > most {
                        break;
                    }
                    next.push((key + height as u32 * radix, occupied));
                    if let Some(&cell) = cells.get(height) {
                        occupied |= 1 << cell;
                    }
                }
            }
            found = next;
        }
        found.sort_unstable();
        found
    }

    /// The key of the heights of `occupancy`, counted segment by segment
    /// (whether the creatures rest or not), or `None` when a creature is
    /// where none can be (the stot's cell, or cell 28 with gravity down).
    #[inline]
    pub(crate) fn key(&self, occupancy: u32) -> Option<u32> {
        let mut key = 0;
        let mut counted = 0;
        for (&mask, &radix) in self.masks.iter().zip(&self.radices) {
            let height = (occupancy & mask).count_ones();
            counted += height;
            key += height * radix;
        }
        (counted == occupancy.count_ones()).then_some(key)
    }

    /// The cell of the creature that is `place`-th from the gravity end of
    /// segment `segment` in `occupancy`.
    #[inline]
    fn nth_in_segment(&self, occupancy: u32, segment: u8, place: u8) -> u8 {
        let mut left = place;
        for &cell in &self.segments[segment as usize] {
            if occupancy >> cell & 1 == 1 {
                if left == 0 {
                    return cell;
                }
                left -= 1;
            }
        }
        NONE
    }
}

/// One pattern: a shape and its occupancy.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Pattern {
    pub(crate) occupancy: u32,
    /// Its slot: its shape's first slot plus its key.
    pub(crate) slot: u32,
    /// Its shape's number (`quarters * 29 + stot`).
    pub(crate) shape: u8,
}

/// A stable state as the index sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Indexed {
    pub(crate) shape: u8,
    pub(crate) occupancy: u32,
    /// The two smoles' cells as bits.
    pub(crate) smoles: u32,
}

/// The index: every shape and every pattern, by layer.
pub(crate) struct Index {
    pub(crate) shapes: Vec<Shape>,
    /// Each layer's patterns (`layers[n]`: `n` creatures).
    pub(crate) layers: Vec<Vec<Pattern>>,
    /// Each slot's pattern's place in its layer.
    slot_places: Vec<u32>,
}

/// The number of ways to choose the two smoles among `n` creatures.
#[inline]
pub(crate) const fn pairs(n: usize) -> u64 {
    (n * n.saturating_sub(1) / 2) as u64
}

/// The `n`-th (from 0) set bit of `bits`, as a one-bit mask.
#[inline]
fn nth_bit(mut bits: u32, n: u32) -> u32 {
    for _ in 0..n {
        bits &= bits - 1;
    }
    bits & bits.wrapping_neg()
}

impl Index {
    /// Every shape, and the patterns of up to `max_creatures` creatures
    /// (all of them: about half a second's work). The patterns left out
    /// change no number of those kept.
    pub(crate) fn up_to(max_creatures: usize) -> Index {
        let mut shapes = Vec::with_capacity(SHAPES);
        let mut slots = 0u32;
        for quarters in 0..4u8 {
            for stot in 0..CELL_COUNT as u8 {
                let mut shape = Shape::new(quarters, stot);
                shape.first_slot = slots;
                slots += shape.keys;
                shapes.push(shape);
            }
        }
        let max_creatures = max_creatures.min(MAX_CREATURES);
        let mut layers = vec![Vec::new(); max_creatures + 1];
        let mut slot_places = vec![0u32; slots as usize];
        for (number, shape) in shapes.iter().enumerate() {
            for (key, occupancy) in shape.patterns_up_to(max_creatures as u32) {
                let layer = &mut layers[occupancy.count_ones() as usize];
                let slot = shape.first_slot + key;
                slot_places[slot as usize] = layer.len() as u32;
                layer.push(Pattern {
                    occupancy,
                    slot,
                    shape: number as u8,
                });
            }
        }
        Index {
            shapes,
            layers,
            slot_places,
        }
    }

    /// How many states each layer holds (`[q][n]`: `q` quarter turns,
    /// `n` creatures), counted without listing them: per shape, the number
    /// of ways to share `n` creatures among its segments.
    pub(crate) fn layer_sizes() -> [Vec<u64>; 4] {
        let mut patterns = [const { Vec::new() }; 4];
        for (quarters, patterns) in (0..4u8).zip(&mut patterns) {
            *patterns = vec![0u64; MAX_CREATURES + 1];
            for stot in 0..CELL_COUNT as u8 {
                // Ways to hold each number of creatures, segment by segment.
                let mut ways = vec![1u64];
                for cells in &Shape::new(quarters, stot).segments {
                    let mut next = vec![0u64; ways.len() + cells.len()];
                    for (held, &count) in ways.iter().enumerate() {
                        for height in 0..=cells.len() {
                            next[held + height] += count;
                        }
                    }
                    ways = next;
                }
                for (n, count) in ways.into_iter().enumerate() {
                    patterns[n] += count;
                }
            }
        }
        patterns.map(|patterns| {
            (0..=MAX_CREATURES)
                .map(|n| patterns[n] * pairs(n))
                .collect()
        })
    }

    /// How many states layer `n` (`n` creatures, listed) holds.
    pub(crate) fn layer_len(&self, n: usize) -> u64 {
        self.layers[n].len() as u64 * pairs(n)
    }

    /// The pattern in slot `slot` (its layer is its creature count).
    #[inline]
    pub(crate) fn pattern_of_slot(&self, slot: u32, n: usize) -> &Pattern {
        &self.layers[n][self.slot_places[slot as usize] as usize]
    }

    /// The slot of a stable occupancy of shape `shape`, or `None` when the
    /// occupancy is not stable there.
    #[inline]
    pub(crate) fn slot(&self, shape: u8, occupancy: u32) -> Option<u32> {
        let shape = &self.shapes[shape as usize];
        let key = shape.key(occupancy)?;
        let slot = shape.first_slot + key;
        let n = occupancy.count_ones() as usize;
        // A pattern the index does not list has no slot here.
        let pattern = self
            .layers
            .get(n)?
            .get(self.slot_places[slot as usize] as usize)?;
        (pattern.occupancy == occupancy).then_some(slot)
    }

    /// The number of a stable state in its layer, or `None` if it is not
    /// stable (or not two smoles among its creatures).
    #[inline]
    pub(crate) fn rank(&self, state: &Indexed) -> Option<u64> {
        let slot = self.slot(state.shape, state.occupancy)?;
        if state.smoles.count_ones() != 2 || state.smoles & !state.occupancy != 0 {
            return None;
        }
        Some(self.rank_in_slot(slot, state.occupancy, state.smoles))
    }

    /// [`Index::rank`] of a state known to be stable in `slot`.
    #[inline]
    pub(crate) fn rank_in_slot(&self, slot: u32, occupancy: u32, smoles: u32) -> u64 {
        let n = occupancy.count_ones() as usize;
        let lower = smoles & smoles.wrapping_neg();
        let higher = 1u32 << (31 - smoles.leading_zeros());
        let a = (occupancy & (lower - 1)).count_ones() as u64;
        let b = (occupancy & (higher - 1)).count_ones() as u64;
        self.slot_places[slot as usize] as u64 * pairs(n) + b * (b - 1) / 2 + a
    }

    /// The state numbered `rank` in layer `n`, with its pattern.
    #[inline]
    pub(crate) fn unrank(&self, n: usize, rank: u64) -> (Pattern, u32) {
        let pattern = self.layers[n][(rank / pairs(n)) as usize];
        let pair = rank % pairs(n);
        // The largest b with b (b - 1) / 2 <= pair.
        let mut b = (((8 * pair + 1) as f64).sqrt() as u64).div_ceil(2);
        while b * (b - 1) / 2 > pair {
            b -= 1;
        }
        while (b + 1) * b / 2 <= pair {
            b += 1;
        }
        let a = pair - b * (b - 1) / 2;
        let smoles = nth_bit(pattern.occupancy, a as u32) | nth_bit(pattern.occupancy, b as u32);
        (pattern, smoles)
    }

    /// The cell in `from` (an occupancy of the same stot) of the creature
    /// that, once everything falls under `shape`'s gravity, rests in
    /// `cell`: the creatures of a segment keep their order as they fall.
    #[inline]
    pub(crate) fn fallen_from(&self, shape: u8, cell: u8, from: u32) -> u8 {
        let shape = &self.shapes[shape as usize];
        let (segment, place) = shape.place[cell as usize];
        shape.nth_in_segment(from, segment, place)
    }

    /// The cells of each segment of `shape`, from the gravity end up.
    pub(crate) fn segments(&self, shape: u8) -> &[Vec<u8>] {
        &self.shapes[shape as usize].segments
    }

    /// How many slots (patterns of every layer) there are.
    pub(crate) fn slots(&self) -> usize {
        self.slot_places.len()
    }
}

/// The shape number of an orientation and a stot cell.
#[inline]
pub(crate) const fn shape_number(quarters: u8, stot: u8) -> u8 {
    quarters * CELL_COUNT as u8 + stot
}
