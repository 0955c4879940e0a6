//! The box solved (issue 26): the length of a shortest answer from every
//! stable state, in every orientation, or that there is none.
//!
//! The states are numbered by a perfect index (`index`): 669,765,994 of
//! them, 180,520,704 unturned. The distances are worked out by retrograde
//! analysis (`build`) over the operations run backwards (`predecessors`),
//! layer by layer from the fewest shubbles up. They are kept a byte a
//! state while built, and in a file of a few bits a state (`file`),
//! written layer by layer so that a build that is stopped goes on where it
//! was; a table read from a file keeps them packed as they lie
//! (`distances`). `verify` holds every distance to the rules run forwards,
//! and `statistics` sums the table up.
//!
//! A [`Table`] answers in microseconds: the distance is one look-up, and a
//! shortest answer is found by descending, taking at each step the first
//! operation (in [`Operation::ALL`]'s order) that leads one step nearer.
//!
//! ```
//! use shubbles::{NoProgress, State, Table};
//!
//! // The layers of up to one shubble take a moment to build.
//! let table = Table::build(1, &mut NoProgress)?;
//! let start = State::parse("...................x...x@o...", false)?;
//! assert_eq!(table.distance(&start)?, Some(2));
//! assert_eq!(table.answer(&start)?.map(|ops| ops.len()), Some(2));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

mod build;
mod distances;
mod file;
mod index;
mod predecessors;
mod statistics;
mod verify;

use std::fmt;

pub use build::TableProgress;
pub use file::{build_file, partial_path, BuildSummary, FileError, TABLE_VERSION};
pub use statistics::{LayerStatistics, TableStatistics};
pub use verify::Mismatch;

use crate::model::geometry::CELL_COUNT;
use crate::model::operation::Operation;
use crate::model::packing::{pack_cells, unpack_cells};
use crate::model::state::State;
use build::UNSOLVABLE;
use distances::Distances;
use index::{shape_number, Index, Indexed};
use predecessors::Predecessors;

/// The most shubbles a state holds: every cell but the stot's and the two
/// smoles'.
pub const MAX_SHUBBLES: usize = CELL_COUNT - 3;

/// The distances of every stable state with up to some number of shubbles.
pub struct Table {
    index: Index,
    /// `layers[k]`: the distances of the states with `k` shubbles, in
    /// the index's order.
    layers: Vec<Distances>,
}

/// Why a table could not answer, or be built.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum TableError {
    /// The state has more shubbles than the table's layers cover.
    NotCovered {
        /// The state's shubbles.
        shubbles: usize,
        /// The most the table covers.
        covered: usize,
    },
    /// The state is not at rest, or not a valid state: the table holds
    /// only stable states.
    NotStable,
    /// A distance past 254: the format would need more bits.
    TooDeep {
        /// The layer where it happened.
        shubbles: usize,
    },
    /// Asked for more than [`MAX_SHUBBLES`].
    TooManyShubbles(usize),
    /// The table's distances do not lead to a solution: it was not built
    /// by this program, or it was damaged in memory.
    Damaged,
}

impl fmt::Display for TableError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TableError::NotCovered { shubbles, covered } => write!(
                f,
                "the state has {shubbles} shubbles but the table covers at most {covered}: \
                 build one with --max-shubbles {shubbles} or more"
            ),
            TableError::NotStable => write!(
                f,
                "the state is not at rest: the table holds only stable states"
            ),
            TableError::TooDeep { shubbles } => write!(
                f,
                "a distance in the layer of {shubbles} shubbles does not fit in a byte"
            ),
            TableError::Damaged => write!(
                f,
                "the table's distances do not lead to a solution: build it again"
            ),
            TableError::TooManyShubbles(asked) => write!(
                f,
                "a state holds at most {MAX_SHUBBLES} shubbles, not {asked}"
            ),
        }
    }
}

impl std::error::Error for TableError {}

impl Table {
    /// Builds the layers of up to `max_shubbles` shubbles in memory.
    pub fn build(
        max_shubbles: usize,
        progress: &mut impl TableProgress,
    ) -> Result<Table, TableError> {
        let mut builder = Builder::new(max_shubbles)?;
        while builder.next_layer(progress)?.is_some() {}
        Ok(builder.finish())
    }

    /// The most shubbles a state may have for this table to answer.
    pub fn max_shubbles(&self) -> usize {
        self.layers.len() - 1
    }

    /// How many states the table holds with `shubbles` shubbles.
    pub fn states(&self, shubbles: usize) -> u64 {
        self.index.layer_len(shubbles + 2)
    }

    /// The fewest operations that solve `state`, or `None` if nothing does.
    pub fn distance(&self, state: &State) -> Result<Option<usize>, TableError> {
        let (layer, rank) = self.locate(state.pack())?;
        Ok(known(self.layers[layer].get(rank)))
    }

    /// A shortest answer from `state`, or `None` if there is none: at each
    /// step the first operation of [`Operation::ALL`] that leads one step
    /// nearer.
    pub fn answer(&self, state: &State) -> Result<Option<Vec<Operation>>, TableError> {
        Ok(self.answer_counted(state)?.0)
    }

    /// [`Table::answer`] and how many states it looked up.
    pub(crate) fn answer_counted(
        &self,
        state: &State,
    ) -> Result<(Option<Vec<Operation>>, usize), TableError> {
        let mut word = state.pack();
        let (layer, rank) = self.locate(word)?;
        let mut look_ups = 1;
        let Some(mut left) = known(self.layers[layer].get(rank)) else {
            return Ok((None, look_ups));
        };
        let mut operations = Vec::with_capacity(left);
        while left > 0 {
            let mut step = None;
            crate::solve::successors::for_each(word, 0, |op, next| {
                if step.is_none() {
                    look_ups += 1;
                    if self.distance_of_word(next) == Some(left - 1) {
                        step = Some((op, next));
                    }
                }
            });
            // A distance is one more than its best successor's, so the
            // step is always there; a table that says otherwise is damaged.
            let (op, next) = step.ok_or(TableError::Damaged)?;
            operations.push(Operation::ALL[op]);
            word = next;
            left -= 1;
        }
        Ok((Some(operations), look_ups))
    }

    /// The distance of a packed state the rules led to.
    fn distance_of_word(&self, word: u64) -> Option<usize> {
        let (layer, rank) = self.locate(word).ok()?;
        known(self.layers[layer].get(rank))
    }

    /// The layer and number of a packed state.
    fn locate(&self, word: u64) -> Result<(usize, u64), TableError> {
        let (shubbles, smoles, stot, quarters) = unpack_cells(word);
        let layer = shubbles.count_ones() as usize;
        if smoles.count_ones() != 2 {
            return Err(TableError::NotStable);
        }
        if layer >= self.layers.len() {
            return Err(TableError::NotCovered {
                shubbles: layer,
                covered: self.max_shubbles(),
            });
        }
        let indexed = Indexed {
            shape: shape_number(quarters, stot as u8),
            occupancy: shubbles | smoles,
            smoles,
        };
        let rank = self.index.rank(&indexed).ok_or(TableError::NotStable)?;
        Ok((layer, rank))
    }

    /// Every state of the layer of `shubbles` shubbles with its distance
    /// (`None`: unsolvable), in the index's order.
    pub fn layer(&self, shubbles: usize) -> impl Iterator<Item = (State, Option<usize>)> + '_ {
        (0..self.layers[shubbles].len()).map(move |rank| {
            (
                self.state_at(shubbles + 2, rank),
                known(self.layers[shubbles].get(rank)),
            )
        })
    }

    /// How many unturned states (orientation 0°, where every start is)
    /// have `shubbles` shubbles.
    pub fn unturned_states(&self, shubbles: usize) -> u64 {
        let n = shubbles + 2;
        // A layer's patterns come in the order of their orientation.
        let unturned =
            self.index.layers[n].partition_point(|pattern| pattern.shape < CELL_COUNT as u8);
        unturned as u64 * index::pairs(n)
    }

    /// The unturned state numbered `number` (below
    /// [`Table::unturned_states`]) among those with `shubbles` shubbles.
    pub fn unturned_state(&self, shubbles: usize, number: u64) -> Option<State> {
        (shubbles < self.layers.len() && number < self.unturned_states(shubbles))
            .then(|| self.state_at(shubbles + 2, number))
    }

    /// How many states each layer of up to `max_shubbles` shubbles holds.
    pub fn layer_sizes(max_shubbles: usize) -> Result<Vec<u64>, TableError> {
        if max_shubbles > MAX_SHUBBLES {
            return Err(TableError::TooManyShubbles(max_shubbles));
        }
        let sizes = Index::layer_sizes();
        Ok((0..=max_shubbles)
            .map(|k| {
                sizes
                    .iter()
                    .map(|by_orientation| by_orientation[k + 2])
                    .sum()
            })
            .collect())
    }

    /// The state numbered `rank` among those with `n` creatures.
    fn state_at(&self, n: usize, rank: u64) -> State {
        let (pattern, smoles) = self.index.unrank(n, rank);
        let quarters = pattern.shape / CELL_COUNT as u8;
        let stot = (pattern.shape % CELL_COUNT as u8) as u32;
        State::unpack(pack_cells(
            pattern.occupancy & !smoles,
            smoles,
            stot,
            quarters,
        ))
    }
}

/// A distance byte as a distance.
fn known(distance: u8) -> Option<usize> {
    (distance != UNSOLVABLE).then_some(distance as usize)
}

/// A build in progress: the layers so far, and what the next needs.
pub(crate) struct Builder {
    index: Index,
    predecessors: Predecessors,
    layers: Vec<Vec<u8>>,
    max_shubbles: usize,
}

impl Builder {
    /// A build of the layers up to `max_shubbles`, none built yet.
    pub(crate) fn new(max_shubbles: usize) -> Result<Builder, TableError> {
        if max_shubbles > MAX_SHUBBLES {
            return Err(TableError::TooManyShubbles(max_shubbles));
        }
        let index = Index::up_to(max_shubbles + 2);
        let predecessors = Predecessors::new(&index);
        Ok(Builder {
            index,
            predecessors,
            layers: Vec::new(),
            max_shubbles,
        })
    }

    /// Builds the next layer and returns its shubble count, or `None` when
    /// all are built.
    pub(crate) fn next_layer(
        &mut self,
        progress: &mut impl TableProgress,
    ) -> Result<Option<usize>, TableError> {
        let shubbles = self.layers.len();
        if shubbles > self.max_shubbles {
            return Ok(None);
        }
        let layer = build::build_layer(
            &self.index,
            &self.predecessors,
            shubbles + 2,
            self.layers.last().map(Vec::as_slice),
            progress,
        )
        .map_err(|too_deep| TableError::TooDeep {
            shubbles: too_deep.shubbles,
        })?;
        self.layers.push(layer);
        Ok(Some(shubbles))
    }

    pub(crate) fn finish(self) -> Table {
        Table {
            index: self.index,
            layers: self.layers.into_iter().map(Distances::from_bytes).collect(),
        }
    }
}

#[cfg(test)]
mod tests;
