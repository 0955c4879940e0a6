//! The solver against answers known by hand, the engine's replay and its
//! limits.

use std::time::Duration;

use proptest::prelude::*;
use shubbles::{
    format_operations, parse_operations, perform, settle, solve, Cell, NoProgress, Operation,
    Rotation, Scenario, SolveError, SolveOutcome, SolveProgress, State,
};

fn state(text: &str) -> State {
    State::parse(text, false).expect("a valid test state")
}

/// The answer of a search that must succeed, checked by replay.
fn answer(start: &State) -> String {
    let report = solve(start, 1_000_000, &mut NoProgress).expect("a stable start");
    let SolveOutcome::Solved { operations, .. } = report.outcome else {
        panic!("expected a solution for {start}, got {:?}", report.outcome);
    };
    let run = Scenario {
        start: *start,
        operations: operations.clone(),
        settle_first: false,
    }
    .run();
    assert_eq!(run.failure, None);
    assert!(run.state.shubbles().is_empty());
    format_operations(&operations)
}

#[test]
fn a_shubble_one_turn_from_the_opening_leaves_with_that_turn() {
    // Gravity to the right has rolled the shubble into cell 28; turning
    // back lets it fall out, and nothing shorter than one operation exists.
    let mut start = state("...................x...x@o...");
    perform(
        &mut start,
        Operation::Rotate(Rotation::Clockwise),
        &mut |_| {},
    )
    .expect("a legal turn");
    assert!(start.shubbles().contains(Cell::new(28).expect("cell 28")));
    assert_eq!(answer(&start), "-");
}

#[test]
fn a_shubble_at_the_bottom_needs_two_turns() {
    // Standing upright, the shubble must first roll into cell 28 (`+`)
    // and then fall through the opening (`-`).
    assert_eq!(answer(&state("...................x...x@o...")), "+-");
    assert_eq!(answer(&state("..@......................xxo.")).len(), 2);
}

/// The full search visits over half a million states: quick in a release
/// build (`cargo test --release -- --ignored`), slow in a debug one.
#[test]
#[ignore]
fn figure_1a_needs_fifteen_operations() {
    let start = state(".........@...o....ooo..xox...");
    assert_eq!(answer(&start), "-->--+-+-+-+-+-");
    let report = solve(&start, usize::MAX, &mut NoProgress).expect("a stable start");
    assert_eq!(report.outcome.states_visited(), 517_635);
    // Issue 4's bound on memory: 32 bytes per visited state.
    assert!(
        report.memory_bytes <= 32 * 517_635,
        "{} bytes",
        report.memory_bytes
    );
}

#[test]
fn a_start_without_shubbles_is_already_solved() {
    let report = solve(&state("@......................x.x..."), 10, &mut NoProgress)
        .expect("a stable start");
    assert_eq!(
        report.outcome,
        SolveOutcome::Solved {
            operations: vec![],
            states_visited: 1
        }
    );
    assert_eq!(report.outcome.exit_status(), 0);
    assert!(report.json().contains("\"answer\":\"\",\"length\":0,"));
}

/// Found by a random search of crowded boxes: 25 shubbles, and every one
/// of the 210 states reachable from here still holds one, or has lost a
/// smole.
#[test]
fn a_box_full_of_shubbles_has_no_solution() {
    let report = solve(
        &state("oooxoooooooxooooooooooooooo@."),
        usize::MAX,
        &mut NoProgress,
    )
    .expect("a stable start");
    assert_eq!(
        report.outcome,
        SolveOutcome::Unsolvable {
            states_visited: 210
        }
    );
    assert_eq!(report.outcome.exit_status(), 4);
    assert!(
        report.json().starts_with(
            r#"{"outcome":"unsolvable","answer":null,"length":null,"states_visited":210,"#
        ),
        "{}",
        report.json()
    );
}

#[test]
fn the_limit_stops_the_search() {
    let start = state(".........@...o....ooo..xox...");
    let report = solve(&start, 1000, &mut NoProgress).expect("a stable start");
    assert_eq!(
        report.outcome,
        SolveOutcome::LimitReached {
            states_visited: 1000
        }
    );
    assert_eq!(report.outcome.exit_status(), 5);
    let report = solve(&start, 0, &mut NoProgress).expect("a stable start");
    assert_eq!(
        report.outcome,
        SolveOutcome::LimitReached { states_visited: 0 }
    );
}

#[test]
fn an_unstable_start_is_refused() {
    let floating = State::parse(".o.......@...o....ooo..xox...", true).expect("parses");
    assert_eq!(
        solve(&floating, 10, &mut NoProgress),
        Err(SolveError::UnstableStart)
    );
}

#[test]
fn progress_is_told_each_depth_in_order() {
    struct Depths(Vec<(usize, usize)>);
    impl SolveProgress for Depths {
        fn depth_done(&mut self, depth: usize, states_seen: usize, _elapsed: Duration) {
            self.0.push((depth, states_seen));
        }
    }
    let mut depths = Depths(Vec::new());
    let start = state(".......@...............x.x.o.");
    let report = solve(&start, 1_000_000, &mut depths).expect("a stable start");
    let SolveOutcome::Solved { operations, .. } = report.outcome else {
        panic!("expected a solution");
    };
    // Every level before the answer's is finished and reported.
    let reported: Vec<usize> = depths.0.iter().map(|&(depth, _)| depth).collect();
    assert_eq!(reported, (1..operations.len()).collect::<Vec<_>>());
    assert!(depths.0.windows(2).all(|pair| pair[0].1 <= pair[1].1));
}

#[test]
fn json_and_summary_name_the_outcome() {
    let start = state("...................x...x@o...");
    let report = solve(&start, 1_000_000, &mut NoProgress).expect("a stable start");
    assert!(report.json().starts_with(&format!(
        "{{\"outcome\":\"solved\",\"answer\":\"+-\",\"length\":2,\"states_visited\":{},\"time_ms\":",
        report.outcome.states_visited()
    )));
    assert!(report.summary().starts_with("solved in 2 operations: "));

    let limited = solve(&start, 1, &mut NoProgress).expect("a stable start");
    assert!(limited.json().starts_with(
        "{\"outcome\":\"limit_reached\",\"answer\":null,\"length\":null,\"states_visited\":1,"
    ));
    assert!(limited
        .summary()
        .starts_with("search limit reached: 1 states visited"));
}

/// A valid start: the stot, two smoles and some shubbles put in the given
/// cells, allowed to fall; `None` when two share a cell, a smole falls
/// out or the result is not a valid start.
fn settled(stot: usize, smoles: [usize; 2], shubbles: &[usize]) -> Option<State> {
    let mut cells = ['.'; 29];
    cells[stot] = '@';
    let creatures = smoles
        .iter()
        .map(|&c| (c, 'x'))
        .chain(shubbles.iter().map(|&c| (c, 'o')));
    for (cell, symbol) in creatures {
        if cells[cell] != '.' {
            return None;
        }
        cells[cell] = symbol;
    }
    let text: String = cells.iter().collect();
    let mut start = State::parse(&text, true).ok()?;
    settle(&mut start, &mut |_| {}).ok()?;
    State::parse(&start.cells_string(), false).ok()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// Any answer replays to a box without shubbles, and it is shortest at
    /// least in that no proper prefix already empties the box.
    #[test]
    fn answers_replay_and_no_prefix_is_enough(
        stot in 0usize..28,
        smoles in [0usize..28, 0usize..28],
        shubbles in proptest::collection::vec(0usize..28, 1..3),
    ) {
        let Some(start) = settled(stot, smoles, &shubbles) else {
            return Ok(());
        };
        let report = solve(&start, 200_000, &mut NoProgress).expect("a stable start");
        if let SolveOutcome::Solved { operations, .. } = report.outcome {
            let text = format_operations(&operations);
            let parsed = parse_operations(&text).expect("solver output parses");
            for prefix in 0..parsed.len() {
                let run = Scenario { start, operations: parsed[..prefix].to_vec(), settle_first: false }.run();
                prop_assert_eq!(run.failure, None);
                prop_assert!(!run.state.shubbles().is_empty(), "{} already solves {}", &text[..prefix], start);
            }
            let run = Scenario { start, operations: parsed, settle_first: false }.run();
            prop_assert_eq!(run.failure, None);
            prop_assert!(run.state.shubbles().is_empty());
        }
    }
}
