//! Solves Figure 1(a) a given number of times (default 5) and prints each
//! search's time, expansion rate and memory: a small, repeatable workload
//! for `perf stat`, `valgrind --tool=callgrind` and `/usr/bin/time`.
//!
//! `cargo run --release --example solve_figure -- 5`

use shubbles::{format_operations, solve, NoProgress, SolveOutcome, State};

const FIGURE_1A: &str = ".........@...o....ooo..xox...";

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let runs: usize = match std::env::args().nth(1) {
        Some(text) => text.parse()?,
        None => 5,
    };
    let start = State::parse(FIGURE_1A, false)?;
    for _ in 0..runs {
        let report = solve(&start, usize::MAX, &mut NoProgress)?;
        let visited = report.outcome.states_visited();
        let answer = match &report.outcome {
            SolveOutcome::Solved { operations, .. } => format_operations(operations),
            other => format!("{other:?}"),
        };
        println!(
            "{answer} visited {visited} expanded {} in {:.1} ms: {:.2} M expanded/s wall, {:.1} bytes/state",
            report.states_expanded,
            report.elapsed.as_secs_f64() * 1e3,
            report.states_expanded as f64 / report.elapsed.as_secs_f64() / 1e6,
            report.memory_bytes as f64 / visited as f64,
        );
    }
    Ok(())
}
