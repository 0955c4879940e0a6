//! Time to solve Figure 1(a) and states expanded per second.
//!
//! `cargo bench --bench solve`; results are recorded in BENCHMARKS.md.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use shubbles::{solve, NoProgress, SolveOutcome, State};

const FIGURE_1A: &str = ".........@...o....ooo..xox...";

fn figure_1a(c: &mut Criterion) {
    let start = State::parse(FIGURE_1A, false).expect("Figure 1(a) is valid");
    // One search first, to learn how many states a search expands, so that
    // criterion can report expansions per second.
    let first = solve(&start, usize::MAX, &mut NoProgress).expect("a stable start");
    assert!(matches!(first.outcome, SolveOutcome::Solved { .. }));
    let mut group = c.benchmark_group("solve");
    group.sample_size(20);
    group.throughput(Throughput::Elements(first.states_expanded as u64));
    group.bench_function("figure_1a", |b| {
        b.iter(|| solve(&start, usize::MAX, &mut NoProgress))
    });
    group.finish();
}

criterion_group!(benches, figure_1a);
criterion_main!(benches);
