//! The whole table against the breadth-first search, on random unturned
//! starts: the benchmark of BENCHMARKS.md ("The box solved") runs it once
//! the table is built, since building it is not for every CI run:
//!
//! ```text
//! cargo run --release -- table build -o target/shubbles.table
//! SHUBBLES_TABLE=target/shubbles.table SHUBBLES_STARTS=10000 \
//!     cargo test --release -p shubbles --test table_cross_check -- --ignored --nocapture
//! ```
//!
//! `SHUBBLES_FROM=K` starts at the `K`-th start: the starts are the same
//! in every run, so runs of different ranges add up.

use shubbles::{solve, NoProgress, Scenario, SolveOutcome, Table, TABLE_MAX_SHUBBLES};
use std::collections::BTreeSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

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
    let number = |name: &str, default: u64| -> u64 {
        std::env::var(name).map_or(default, |text| text.parse().expect("a number"))
    };
    let path = PathBuf::from(std::env::var("SHUBBLES_TABLE").expect("SHUBBLES_TABLE=FILE"));
    // Start `i` is the same in every run, so that runs of different
    // ranges (SHUBBLES_FROM, SHUBBLES_STARTS) add up.
    let from = number("SHUBBLES_FROM", 0);
    let end = from + number("SHUBBLES_STARTS", 10_000);
    let table = Table::open(&path, None).expect("a whole table");
    assert_eq!(table.max_shubbles(), TABLE_MAX_SHUBBLES);
    let sizes: Vec<u64> = (0..=TABLE_MAX_SHUBBLES)
        .map(|k| table.unturned_states(k))
        .collect();
    let all: u64 = sizes.iter().sum();
    assert_eq!(all, 180_520_704);
    // Starts are taken in order, so that a run stopped early has checked
    // every start below the lowest one in hand.
    let next = AtomicU64::new(from);
    let in_hand = Mutex::new(BTreeSet::new());
    let unsolvable = AtomicU64::new(0);
    let workers = std::thread::available_parallelism().map_or(2, |n| n.get());
    std::thread::scope(|scope| {
        for _ in 0..workers {
            scope.spawn(|| loop {
                // Taken and marked in hand at once, so that no start is
                // ever neither.
                let i = {
                    let mut in_hand = in_hand.lock().unwrap();
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    in_hand.insert(i);
                    i
                };
                if i >= end {
                    break;
                }
                unsolvable.fetch_add(check(&table, &sizes, all, i), Ordering::Relaxed);
                let mut in_hand = in_hand.lock().unwrap();
                in_hand.remove(&i);
                let below = in_hand
                    .first()
                    .copied()
                    .unwrap_or(u64::MAX)
                    .min(next.load(Ordering::Relaxed));
                if (i + 1 - from).is_multiple_of(50) {
                    eprintln!("starts {from}..{below} agree");
                }
            });
        }
    });
    eprintln!(
        "starts {from}..{end} agree ({} unsolvable)",
        unsolvable.into_inner()
    );
}

/// Start `i`: the table's length and answer against the search's; 1 if it
/// is unsolvable.
fn check(table: &Table, sizes: &[u64], all: u64, i: u64) -> u64 {
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
        SolveOutcome::LimitReached { .. } => panic!("{}: the search gave up", start.cells_string()),
    };
    let answer = table.answer(&start).unwrap();
    assert_eq!(
        answer.as_ref().map(Vec::len),
        searched,
        "start {i}: {}",
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
            0
        }
        None => 1,
    }
}
