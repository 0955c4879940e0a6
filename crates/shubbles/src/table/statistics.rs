//! What the table says of the box as a whole: states per layer and
//! orientation, how far the unturned starts are from a solution, and the
//! hardest of them.

use super::build::UNSOLVABLE;
use super::index::pairs;
use super::Table;
use crate::model::geometry::CELL_COUNT;
use crate::model::operation::format_operations;
use crate::model::state::State;

/// One layer's numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct LayerStatistics {
    /// Its shubbles.
    pub shubbles: usize,
    /// States by orientation (0°, 90°, 180°, 270°).
    pub states: [u64; 4],
    /// Unsolvable states by orientation.
    pub unsolvable: [u64; 4],
    /// How many unturned states are at each distance.
    pub unturned_distances: Vec<u64>,
}

/// The whole table's numbers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TableStatistics {
    /// Layer by layer, from no shubble up.
    pub layers: Vec<LayerStatistics>,
    /// The farthest distance of any unturned start.
    pub deepest: usize,
    /// The hardest unturned starts with their distances, the hardest
    /// first (of equals, the first in the index's order).
    pub hardest: Vec<(State, usize)>,
}

impl Table {
    /// Counts every layer; lists the `hardest` hardest unturned starts.
    pub fn statistics(&self, hardest: usize) -> TableStatistics {
        let mut layers = Vec::new();
        let mut deepest = 0;
        // (distance, creatures, number), hardest first.
        let mut found: Vec<(usize, usize, u64)> = Vec::new();
        for (shubbles, distances) in self.layers.iter().enumerate() {
            let n = shubbles + 2;
            let mut layer = LayerStatistics {
                shubbles,
                states: [0; 4],
                unsolvable: [0; 4],
                unturned_distances: Vec::new(),
            };
            let per_pattern = pairs(n) as usize;
            for (place, pattern) in self.index.layers[n].iter().enumerate() {
                let quarters = (pattern.shape / CELL_COUNT as u8) as usize;
                let first = place * per_pattern;
                layer.states[quarters] += per_pattern as u64;
                for pair in 0..per_pattern {
                    let distance = distances.get((first + pair) as u64);
                    if distance == UNSOLVABLE {
                        layer.unsolvable[quarters] += 1;
                        continue;
                    }
                    if quarters != 0 {
                        continue;
                    }
                    let distance = distance as usize;
                    if layer.unturned_distances.len() <= distance {
                        layer.unturned_distances.resize(distance + 1, 0);
                    }
                    layer.unturned_distances[distance] += 1;
                    deepest = deepest.max(distance);
                    let easiest_kept = found.last().map_or(0, |&(kept, _, _)| kept);
                    if found.len() < hardest || distance > easiest_kept {
                        let at = found.partition_point(|&(kept, _, _)| kept >= distance);
                        found.insert(at, (distance, n, (first + pair) as u64));
                        found.truncate(hardest);
                    }
                }
            }
            layers.push(layer);
        }
        let hardest = found
            .into_iter()
            .map(|(distance, n, rank)| (self.state_at(n, rank), distance))
            .collect();
        TableStatistics {
            layers,
            deepest,
            hardest,
        }
    }
}

impl TableStatistics {
    /// The numbers as Markdown tables, with a shortest answer for each of
    /// the hardest starts.
    pub fn report(&self, table: &Table) -> String {
        let mut out = String::from(
            "| shubbles | states 0° | 90° | 180° | 270° | unsolvable | unsolvable 0° | deepest 0° | mean 0° |\n\
             | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |\n",
        );
        let mut all = vec![0u64; self.deepest + 1];
        let (mut unturned, mut solvable) = (0u64, 0u64);
        for layer in &self.layers {
            let count: u64 = layer.unturned_distances.iter().sum();
            let sum: u64 = (0..)
                .zip(&layer.unturned_distances)
                .map(|(distance, &states)| distance * states)
                .sum();
            for (distance, &states) in layer.unturned_distances.iter().enumerate() {
                all[distance] += states;
            }
            unturned += layer.states[0];
            solvable += count;
            let [a, b, c, d] = layer.states;
            let (deepest, mean) = match count {
                0 => ("–".to_string(), "–".to_string()),
                _ => (
                    (layer.unturned_distances.len() - 1).to_string(),
                    format!("{:.2}", sum as f64 / count as f64),
                ),
            };
            out += &format!(
                "| {} | {a} | {b} | {c} | {d} | {} | {} | {deepest} | {mean} |\n",
                layer.shubbles,
                layer.unsolvable.iter().sum::<u64>(),
                layer.unsolvable[0],
            );
        }
        out += &format!(
            "\n{solvable} of the {unturned} unturned starts can be solved; {} cannot.\n",
            unturned - solvable
        );
        out += "\n| distance | unturned starts |\n| ---: | ---: |\n";
        for (distance, states) in all.iter().enumerate() {
            out += &format!("| {distance} | {states} |\n");
        }
        out += &format!(
            "\nThe {} hardest unturned starts, with a shortest answer:\n\n",
            self.hardest.len()
        );
        for (state, distance) in &self.hardest {
            let answer = table
                .answer(state)
                .ok()
                .flatten()
                .map(|operations| format_operations(&operations))
                .unwrap_or_default();
            out += &format!("    {} {distance} {answer}\n", state.cells_string());
        }
        out
    }
}
