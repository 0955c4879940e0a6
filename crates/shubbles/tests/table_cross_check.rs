//! The whole table against the breadth-first search, on random unturned
//! starts: the benchmark of BENCHMARKS.md ("The box solved") runs it once
//! the table is built, since building it is not for every CI run:
//!
//! ```text
//! cargo run --release -- table build -o target/shubbles.table
//! SHUBBLES_TABLE=target/shubbles.table SHUBBLES_STARTS=10000 \
//!     cargo test --release -p shubbles --test table_cross_check -- --ignored --nocapture
//! ```

use std::path::PathBuf;
use std::sync::atomic::{AtomicUsize, Ordering};

use rayon::prelude::*;
use shubbles::{solve, NoProgress, Scenario, SolveOutcome, Table, TABLE_MAX_SHUBBLES};

/// A seeded generator (SplitMix64), so that every run draws the same
/// starts.
fn split_mix(seed: u64) -> u64 {
    let mut z = seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

#[test]
#[ignore = "needs the whole table (SHUBBLES_TABLE) and hours of searching"]
fn the_whole_table_agrees_with_the_search_on_random_starts() {
    let path = PathBuf::from(std::env::var("SHUBBLES_TABLE").expect("SHUBBLES_TABLE=FILE"));
    let starts: u64 = std::env::var("SHUBBLES_STARTS")
        .map(|text| text.parse().expect("a number of starts"))
        .unwrap_or(10_000);
    let table = Table::open(&path, None).expect("a whole table");
    assert_eq!(table.max_shubbles(), TABLE_MAX_SHUBBLES);
    let sizes: Vec<u64> = (0..=TABLE_MAX_SHUBBLES)
        .map(|k| table.unturned_states(k))
        .collect();
    let all: u64 = sizes.iter().sum();
    assert_eq!(all, 180_520_704);
    let done = AtomicUsize::new(0);
    let unsolvable = AtomicUsize::new(0);
    (0..starts).into_par_iter().for_each(|i| {
        // Uniform over every unturned start.
        let mut number = split_mix(i) % all;
        let mut shubbles = 0;
        while number >= sizes[shubbles] {
            number -= sizes[shubbles];
            shubbles += 1;
        }
        let start = table.unturned_state(shubbles, number).unwrap();
        let searched = match solve(&start, 200_000_000, &mut NoProgress).unwrap().outcome {
            SolveOutcome::Solved { operations, .. } => Some(operations.len()),
            SolveOutcome::Unsolvable { .. } => None,
            SolveOutcome::LimitReached { .. } => {
                panic!("{}: the search gave up", start.cells_string())
            }
        };
        let answer = table.answer(&start).unwrap();
        assert_eq!(
            answer.as_ref().map(Vec::len),
            searched,
            "{}",
            start.cells_string()
        );
        assert_eq!(table.distance(&start).unwrap(), searched);
        match answer {
            Some(operations) => {
                let run = Scenario {
                    start,
                    operations,
                    settle_first: false,
                }
                .run();
                assert!(run.failure.is_none() && run.state.shubbles().is_empty());
            }
            None => {
                unsolvable.fetch_add(1, Ordering::Relaxed);
            }
        }
        let done = done.fetch_add(1, Ordering::Relaxed) + 1;
        if done.is_multiple_of(100) {
            eprintln!("{done} of {starts} starts agree");
        }
    });
    eprintln!(
        "all {starts} starts agree ({} unsolvable)",
        unsolvable.into_inner()
    );
}
