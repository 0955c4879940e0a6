//! The table checked against the rules run forwards: every distance is 0
//! exactly where no shubble is left, and elsewhere one more than the
//! nearest distance one operation away (unsolvable when every state one
//! operation away is). Distances that pass this for every state are the
//! shortest, whatever built them: following nearest successors from a
//! state reaches a solution in as many operations as its distance says,
//! and no path can be shorter, since a distance falls by at most one an
//! operation.
//!
//! The successors are the solver's (held to the engine by a property
//! test), not the build's predecessors, so this is a second
//! implementation holding the first.

use rayon::prelude::*;

use super::build::{TableProgress, UNSOLVABLE};
use super::{known, Table};
use crate::model::state::State;
use crate::solve::successors;

/// A state whose distance does not follow from its successors'.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Mismatch {
    /// The state.
    pub state: State,
    /// What the table says (`None`: unsolvable).
    pub table: Option<usize>,
    /// What its successors say.
    pub successors: Option<usize>,
}

impl std::fmt::Display for Mismatch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let show = |distance: Option<usize>| {
            distance.map_or("unsolvable".to_string(), |distance| distance.to_string())
        };
        write!(
            f,
            "{} at {}°: the table says {}, its successors {}",
            self.state.cells_string(),
            self.state.orientation().degrees(),
            show(self.table),
            show(self.successors)
        )
    }
}

impl std::error::Error for Mismatch {}

/// States are checked in chunks of this many, one chunk a task.
const CHUNK: u64 = 1 << 16;

impl Table {
    /// Checks every state of every layer (see the module's text); gives
    /// how many were checked, or the first mismatch found.
    pub fn verify(&self, progress: &mut impl TableProgress) -> Result<u64, Mismatch> {
        let mut checked = 0;
        for (shubbles, layer) in self.layers.iter().enumerate() {
            progress.layer_begun(shubbles, layer.len());
            let chunks = layer.len().div_ceil(CHUNK);
            (0..chunks).into_par_iter().try_for_each(|chunk| {
                let ranks = chunk * CHUNK..((chunk + 1) * CHUNK).min(layer.len());
                for rank in ranks {
                    self.verify_one(shubbles, rank, layer.get(rank))?;
                }
                Ok(())
            })?;
            progress.states_settled(layer.len());
            checked += layer.len();
        }
        Ok(checked)
    }

    fn verify_one(&self, shubbles: usize, rank: u64, distance: u8) -> Result<(), Mismatch> {
        let state = self.state_at(shubbles + 2, rank);
        let mut nearest = UNSOLVABLE;
        successors::for_each(state.pack(), 0, |_, next| {
            let (layer, rank) = self
                .locate(next)
                .expect("the rules lead from a stable state to a stable state");
            nearest = nearest.min(self.layers[layer].get(rank));
        });
        let expected = match (shubbles, nearest) {
            (0, _) => 0,
            (_, UNSOLVABLE) => UNSOLVABLE,
            (_, nearest) => nearest + 1,
        };
        if distance == expected {
            return Ok(());
        }
        Err(Mismatch {
            state,
            table: known(distance),
            successors: known(expected),
        })
    }
}
