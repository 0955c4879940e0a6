//! 片付けマス: refereeing throughput on long random legal matches (turns a
//! second, parsing included), and the replay GIF of a 200-turn match.
//! `cargo bench --bench katazuke`; results are in BENCHMARKS.md.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use katazuke::read;
use katazuke::Field;
use katazuke::Policy;
use katazuke::{random_match, Seeded};
use katazuke::{write_replay, ReplayOptions};
use katazuke::{Params, Stock};

/// A random legal match on a field of `rows` by `columns` with the clocks
/// given, without overruns: as `examples/random_match.rs` makes it.
fn long_match(rows: u64, columns: u64, seed: u64, team_s: u64, game_s: u64) -> String {
    let mut random = Seeded::new(seed);
    let field: Vec<Vec<u32>> = (0..rows)
        .map(|_| (0..columns).map(|_| 1 + random.below(9) as u32).collect())
        .collect();
    let params = Params {
        field: Field::new(&field).expect("a valid field"),
        capacity: 6,
        stock: Stock {
            first: 3,
            second: 3,
        },
        team_time: team_s * 1000,
        game_time: game_s * 1000,
    };
    random_match(&params, seed, 0).to_string()
}

fn turns(log: &str) -> u64 {
    let mut turns = 0;
    let verdict = read(log.as_bytes(), Policy::Strict, |record| {
        if matches!(record.event, katazuke::Event::TurnEnd { .. }) {
            turns += 1;
        }
    });
    assert!(verdict.error.is_none(), "a legal match");
    turns
}

fn referee(c: &mut Criterion) {
    let logs: Vec<String> = (1..=4)
        .map(|seed| long_match(16, 16, seed, 3600, 7200))
        .collect();
    let total: u64 = logs.iter().map(|log| turns(log)).sum();
    let mut group = c.benchmark_group("katazuke");
    group.throughput(Throughput::Elements(total));
    group.bench_function("referee 4 long matches (16x16)", |b| {
        b.iter(|| {
            for log in &logs {
                black_box(read(black_box(log.as_bytes()), Policy::Strict, |record| {
                    black_box(record);
                }));
            }
        })
    });
    group.finish();
}

fn replay(c: &mut Criterion) {
    let log = long_match(7, 7, 1, 150, 300);
    let mut records = Vec::new();
    read(log.as_bytes(), Policy::Strict, |record| {
        records.push(record.clone())
    });
    let mut group = c.benchmark_group("katazuke");
    group.sample_size(10);
    group.bench_function("replay GIF of a 7x7 match in memory", |b| {
        b.iter(|| {
            let mut out = Vec::with_capacity(1 << 20);
            write_replay(&records, &ReplayOptions::default(), &mut out).expect("encodes");
            out
        })
    });
    group.finish();
}

criterion_group!(benches, referee, replay);
criterion_main!(benches);
