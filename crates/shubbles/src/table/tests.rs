//! The table held against the rules run forwards: the solver's successors
//! (themselves held to the engine) and its breadth-first search.

use std::sync::OnceLock;

use super::*;
use crate::progress::NoProgress;
use crate::solve::{solve, successors, SolveOutcome};

/// The layers of up to four shubbles, built once for all the tests.
fn small_table() -> &'static Table {
    static TABLE: OnceLock<Table> = OnceLock::new();
    TABLE.get_or_init(|| Table::build(4, &mut NoProgress).expect("four shubbles fit"))
}

#[test]
fn the_index_counts_the_issues_unturned_starts_and_every_orientation() {
    let [unturned, ..] = Index::layer_sizes();
    // The issue's count of valid stable unturned starts, and all four
    // orientations (the whole index is listed by the benchmark's build).
    assert_eq!(unturned.iter().sum::<u64>(), 180_520_704);
    let sizes = Table::layer_sizes(MAX_SHUBBLES).unwrap();
    assert_eq!(sizes.iter().sum::<u64>(), 669_765_994);
    let index = &small_table().index;
    for n in 2..=6 {
        assert_eq!(index.layer_len(n), sizes[n - 2]);
    }
    let unturned: u64 = (0..=4).map(|k| small_table().unturned_states(k)).sum();
    assert_eq!(unturned, 1_061 + 9_708 + 47_190 + 163_040 + 448_860);
}

#[test]
fn every_number_is_a_stable_state_and_numbers_it_back() {
    let table = small_table();
    for shubbles in 0..=4 {
        let mut seen = 0;
        for (rank, (state, _)) in table.layer(shubbles).enumerate() {
            assert!(state.is_stable(), "{}", state.cells_string());
            assert_eq!(state.shubbles().len() as usize, shubbles);
            assert_eq!(table.locate(state.pack()), Ok((shubbles, rank as u64)));
            seen += 1;
        }
        assert_eq!(seen, table.states(shubbles));
    }
    // A state that would fall has no number.
    let falling = State::parse(".o.......@.............xx....", true).unwrap();
    assert_eq!(small_table().distance(&falling), Err(TableError::NotStable));
}

#[test]
fn the_operations_backwards_are_exactly_the_operations_forwards() {
    let table = small_table();
    let predecessors = Predecessors::new(&table.index);
    for shubbles in 0..=4 {
        let n = shubbles + 2;
        // Every state of up to two shubbles, then every 17th.
        let every = if shubbles <= 2 { 1 } else { 17 };
        for rank in (0..table.states(shubbles)).step_by(every) {
            let (pattern, smoles) = table.index.unrank(n, rank);
            let word = table.state_at(n, rank).pack();
            let mut backwards = Vec::new();
            predecessors.for_each(&table.index, n, &pattern, smoles, |from| {
                backwards.push(from)
            });
            backwards.sort_unstable();
            backwards.dedup();
            // Every state listed leads here in one operation...
            for &from in &backwards {
                let mut leads_here = false;
                successors::for_each(table.state_at(n, from).pack(), 0, |_, next| {
                    leads_here |= next == word;
                });
                assert!(
                    leads_here,
                    "layer {shubbles}: {from} does not lead to {rank}"
                );
            }
            // ... and every operation that stays in the layer is listed
            // from where it leads.
            successors::for_each(word, 0, |_, next| {
                let (layer, to) = table.locate(next).unwrap();
                if layer == shubbles {
                    let (pattern, smoles) = table.index.unrank(n, to);
                    let mut found = false;
                    predecessors.for_each(&table.index, n, &pattern, smoles, |from| {
                        found |= from == rank
                    });
                    assert!(
                        found,
                        "layer {shubbles}: {rank} -> {to} is not listed backwards"
                    );
                }
            });
        }
    }
}

/// Every distance follows from its successors' (see `verify`), and a
/// single wrong byte anywhere is found.
#[test]
fn every_distance_is_one_more_than_its_nearest_successors() {
    assert_eq!(
        small_table().verify(&mut NoProgress),
        Ok(1_398_270 + 506_640 + 146_988 + 30_564 + 3_436)
    );
    let mut table = Table::build(4, &mut NoProgress).unwrap();
    for (shubbles, rank, wrong) in [(0, 7, 1), (1, 100, UNSOLVABLE), (4, 1_000_000, 3)] {
        let byte = table.layers[shubbles].byte_mut(rank);
        let right = *byte;
        *byte = if right == wrong { wrong - 1 } else { wrong };
        let mismatch = table.verify(&mut NoProgress).expect_err("a wrong byte");
        // The wrong state, or one whose successor it is.
        let near = mismatch.state.shubbles().len() as usize;
        assert!(near == shubbles || near == shubbles + 1, "{mismatch}");
        *table.layers[shubbles].byte_mut(rank) = right;
    }
}

#[test]
fn the_table_agrees_with_the_search() {
    let table = small_table();
    for shubbles in 0..=4 {
        // Every unturned start without shubbles, then every 29th, then
        // every 1999th.
        let every = [1, 29, 1999, 1999, 1999][shubbles];
        for number in (0..table.unturned_states(shubbles)).step_by(every) {
            let state = table.unturned_state(shubbles, number).unwrap();
            let distance = table.distance(&state).unwrap();
            let report = solve(&state, 10_000_000, &mut NoProgress).unwrap();
            let searched = match report.outcome {
                SolveOutcome::Solved { operations, .. } => Some(operations.len()),
                SolveOutcome::Unsolvable { .. } => None,
                SolveOutcome::LimitReached { .. } => panic!("the search gave up"),
            };
            assert_eq!(distance, searched, "{}", state.cells_string());
            // The table's own answer works and is as short.
            let answer = table.answer(&state).unwrap();
            assert_eq!(answer.as_ref().map(Vec::len), searched);
            if let Some(operations) = answer {
                let report = crate::solve::solve_with_table(&state, table).unwrap();
                assert_eq!(
                    report.outcome,
                    SolveOutcome::Solved {
                        operations,
                        states_visited: report.outcome.states_visited()
                    }
                );
            }
        }
    }
}

#[test]
fn more_shubbles_than_the_table_covers_are_refused() {
    let state = State::parse(".........@...o....ooo..xox...", false).unwrap();
    assert_eq!(
        small_table().distance(&state),
        Err(TableError::NotCovered {
            shubbles: 5,
            covered: 4
        })
    );
    assert_eq!(
        Table::build(MAX_SHUBBLES + 1, &mut NoProgress).err(),
        Some(TableError::TooManyShubbles(MAX_SHUBBLES + 1))
    );
}

mod files {
    use std::fs;

    use super::*;

    fn layers_of(path: &std::path::Path) -> Vec<Vec<u8>> {
        let table = Table::open(path, None).unwrap();
        table.layers.iter().map(Distances::to_bytes).collect()
    }

    #[test]
    fn a_file_reads_back_as_built_and_a_build_goes_on_from_a_partial_one() {
        let dir = tempfile::tempdir().unwrap();
        let whole = dir.path().join("whole.table");
        let summary = build_file(&whole, 3, &mut NoProgress).unwrap();
        assert_eq!((summary.layers_resumed, summary.layers_built), (0, 4));
        let built: Vec<Vec<u8>> = small_table().layers[..4]
            .iter()
            .map(Distances::to_bytes)
            .collect();
        assert_eq!(layers_of(&whole), built);
        assert!(!partial_path(&whole).exists());
        // Only the layers asked for are read.
        assert_eq!(Table::open(&whole, Some(1)).unwrap().max_shubbles(), 1);
        let bytes = fs::read(&whole).unwrap();
        // A few bits a state: 687,628 states in about 406 KB.
        assert!(bytes.len() < 687_628 * 5 / 8, "{}", bytes.len());

        // Stopped after layer 2, or in the middle of layer 3's block.
        let resumed = dir.path().join("resumed.table");
        build_file(&resumed, 2, &mut NoProgress).unwrap();
        fs::rename(&resumed, partial_path(&resumed)).unwrap();
        let summary = build_file(&resumed, 3, &mut NoProgress).unwrap();
        assert_eq!((summary.layers_resumed, summary.layers_built), (3, 1));
        assert_eq!(fs::read(&resumed).unwrap(), bytes);
        fs::write(partial_path(&resumed), &bytes[..bytes.len() - 100]).unwrap();
        let summary = build_file(&resumed, 3, &mut NoProgress).unwrap();
        assert_eq!((summary.layers_resumed, summary.layers_built), (3, 1));
        assert_eq!(fs::read(&resumed).unwrap(), bytes);
        // A partial file that is not a table is started over.
        fs::write(partial_path(&resumed), b"not a table").unwrap();
        build_file(&resumed, 3, &mut NoProgress).unwrap();
        assert_eq!(fs::read(&resumed).unwrap(), bytes);
    }

    #[test]
    fn a_damaged_file_is_refused_with_what_is_wrong() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("small.table");
        build_file(&path, 2, &mut NoProgress).unwrap();
        let good = fs::read(&path).unwrap();
        let refused = |bytes: &[u8]| {
            fs::write(&path, bytes).unwrap();
            Table::open(&path, None).err().expect("refused").to_string()
        };
        let mut flipped = good.clone();
        let last = flipped.len() - 10;
        flipped[last] ^= 0x10;
        assert!(
            refused(&flipped).contains("its layer of 2 shubbles does not match its checksum"),
            "{}",
            refused(&flipped)
        );
        assert!(refused(&good[..good.len() - 1]).contains("its layer of 2 shubbles is cut short"));
        let mut header = good.clone();
        header[12] = 3;
        assert!(refused(&header).contains("its header's checksum does not match"));
        assert!(refused(b"GIF89a").contains("shorter than its header"));
        assert!(refused(&[b'x'; 64]).contains("does not begin as a shubbles table"));
        let mut version = good.clone();
        version[8] = 9;
        let crc = crc32fast::hash(&version[..16]);
        version[16..20].copy_from_slice(&crc.to_le_bytes());
        assert!(refused(&version).contains("format version 9"));
        // Every message says how to recover.
        assert!(refused(&flipped).ends_with("build it again with `shubbles table build`"));
    }
}
