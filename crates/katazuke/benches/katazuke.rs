//! 片付けマス: refereeing throughput on long random legal matches (turns a
//! second, parsing included), the replay GIF of a 200-turn match, and a
//! quick match played in memory (what a tournament match costs before the
//! runner's own work).
//! `cargo bench --bench katazuke`; results are in BENCHMARKS.md.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};

use katazuke::{
    play_match, practice_setup, random_match, random_params, read, write_replay, Clock,
    GreedyPlayer, PerTeam, PlayOptions, Policy, RandomPlayer, ReplayOptions,
};

/// A random legal match on a field of `rows` by `columns` with the clocks
/// given, without overruns: as `examples/random_match.rs` makes it.
fn long_match(rows: usize, columns: usize, seed: u64, team_s: u64, game_s: u64) -> String {
    let params =
        random_params(rows, columns, seed, team_s * 1000, game_s * 1000).expect("a valid field");
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

/// Matches of the greedy player against the random one on practice
/// fields 1 to 10 under the virtual clock, as `katazuke tournament
/// builtin:greedy builtin:random` plays them, without the record's
/// checking or the results file: the runner's overhead is a tournament's
/// time a match less this.
fn quick_match(c: &mut Criterion) {
    let setups: Vec<_> = (1..=10).map(practice_setup).collect();
    let options = PlayOptions {
        clock: Clock::Virtual,
        ..PlayOptions::default()
    };
    let mut group = c.benchmark_group("katazuke");
    group.throughput(Throughput::Elements(setups.len() as u64));
    group.bench_function("play 10 matches, greedy against random, in memory", |b| {
        b.iter(|| {
            for setup in &setups {
                let (mut a, mut b) = (GreedyPlayer, RandomPlayer::new(7));
                black_box(
                    play_match(
                        black_box(setup),
                        PerTeam {
                            a: &mut a,
                            b: &mut b,
                        },
                        &options,
                    )
                    .expect("practice starts are legal"),
                );
            }
        })
    });
    group.finish();
}

criterion_group!(benches, referee, replay, quick_match);
criterion_main!(benches);
