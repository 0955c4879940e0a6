//! Engine and pipeline speed. `cargo bench --bench engine`; results and how
//! to read them are in BENCHMARKS.md.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use shubbles::{seeded_legal_operations, write_gif, RenderOptions, Scenario};

/// Figure 1(a) and `length` operations that never fail (see
/// `seeded_legal_operations`; the seed is the one `benches/smooth-100.txt`
/// was made with).
fn long_run(length: usize) -> Scenario {
    let mut scenario = Scenario::figure_1a();
    scenario.operations = seeded_legal_operations(scenario.start, length, 0x9E37_79B9_7F4A_7C15);
    assert_eq!(
        scenario.operations.len(),
        length,
        "too few legal operations"
    );
    scenario
}

fn engine(c: &mut Criterion) {
    let scenario = long_run(100_000);
    assert!(scenario.run().failure.is_none());
    let mut group = c.benchmark_group("engine");
    group.throughput(Throughput::Elements(scenario.operations.len() as u64));
    group.bench_function("run 100k operations", |b| {
        b.iter(|| black_box(&scenario).run())
    });
    group.bench_function("events of 100k operations", |b| {
        b.iter(|| black_box(&scenario).events().count())
    });
    group.bench_function("frames of 100k operations", |b| {
        b.iter(|| black_box(&scenario).frames().count())
    });
    group.finish();
}

fn demo_gif(c: &mut Criterion) {
    let scenario = Scenario::figure_1a();
    let options = RenderOptions::default();
    let mut group = c.benchmark_group("pipeline");
    group.bench_function("demo GIF in memory", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(64 * 1024);
            write_gif(black_box(&scenario).frames(), &options, &mut out).expect("encodes");
            out
        })
    });
    group.finish();
}

criterion_group!(benches, engine, demo_gif);
criterion_main!(benches);
