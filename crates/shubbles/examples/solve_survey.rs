//! The solver on Figure 1(a) and on a fixed, seeded set of 100 random valid
//! states: outcomes, solution lengths, time, memory.
//!
//! `cargo run --release --example solve_survey` (results in
//! BENCHMARKS.md).

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

use shubbles::{format_operations, settle, solve, NoProgress, SolveOutcome, SolveReport, State};

const FIGURE_1A: &str = ".........@...o....ooo..xox...";
const SEED: u64 = 2024;
const STATES: usize = 100;
const MAX_SHUBBLES: u64 = 8;
const MAX_STATES: usize = 10_000_000;

/// SplitMix64: a tiny seeded generator, so the set is the same on every
/// machine without a dependency.
struct SplitMix(u64);

impl SplitMix {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ z >> 30).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ z >> 27).wrapping_mul(0x94D0_49BB_1331_11EB);
        (z ^ z >> 31) % n
    }
}

/// A valid start: the stot, two smoles and 1 to MAX_SHUBBLES shubbles in
/// random free cells below 28, allowed to fall. Draws again when a smole
/// falls out or the result is not valid.
fn random_state(rng: &mut SplitMix) -> State {
    loop {
        let mut cells = ['.'; 29];
        let shubbles = 1 + rng.below(MAX_SHUBBLES) as usize;
        for symbol in ['@', 'x', 'x']
            .into_iter()
            .chain(std::iter::repeat_n('o', shubbles))
        {
            loop {
                let cell = rng.below(28) as usize;
                if cells[cell] == '.' {
                    cells[cell] = symbol;
                    break;
                }
            }
        }
        let text: String = cells.iter().collect();
        let Ok(mut state) = State::parse(&text, true) else {
            continue;
        };
        if settle(&mut state, &mut |_| {}).is_ok() && !state.shubbles().is_empty() {
            if let Ok(valid) = State::parse(&state.cells_string(), false) {
                return valid;
            }
        }
    }
}

/// Peak resident memory of this process in kB, from /proc (Linux only).
fn peak_memory_kb() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

fn rate(count: usize, time: Duration) -> f64 {
    count as f64 / time.as_secs_f64() / 1e6
}

fn describe(report: &SolveReport) {
    let visited = report.outcome.states_visited().max(1);
    println!("  {}", report.summary());
    println!(
        "  expanded {} states: {:.2} M states expanded/s, {:.1} bytes per visited state",
        report.states_expanded,
        rate(report.states_expanded, report.elapsed),
        report.memory_bytes as f64 / visited as f64,
    );
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let figure = State::parse(FIGURE_1A, false)?;
    println!("Figure 1(a) {FIGURE_1A}, best of 5:");
    let mut best: Option<SolveReport> = None;
    for _ in 0..5 {
        let report = solve(&figure, MAX_STATES, &mut NoProgress)?;
        if best.as_ref().is_none_or(|b| report.elapsed < b.elapsed) {
            best = Some(report);
        }
    }
    if let Some(report) = &best {
        if let SolveOutcome::Solved { operations, .. } = &report.outcome {
            println!("  answer {}", format_operations(operations));
        }
        describe(report);
    }

    println!("\n{STATES} random states (seed {SEED}, 1 to {MAX_SHUBBLES} shubbles, limit {MAX_STATES} states):");
    let mut rng = SplitMix(SEED);
    let (mut solved, mut unsolvable, mut limited) = (0, 0, 0);
    let mut lengths = BTreeMap::new();
    let (mut visited, mut expanded) = (0, 0);
    let mut worst_bytes: f64 = 0.0;
    let began = Instant::now();
    for _ in 0..STATES {
        let start = random_state(&mut rng);
        let report = solve(&start, MAX_STATES, &mut NoProgress)?;
        visited += report.outcome.states_visited();
        expanded += report.states_expanded;
        if report.outcome.states_visited() >= 100_000 {
            worst_bytes = worst_bytes
                .max(report.memory_bytes as f64 / report.outcome.states_visited() as f64);
        }
        match &report.outcome {
            SolveOutcome::Solved { operations, .. } => {
                solved += 1;
                *lengths.entry(operations.len()).or_insert(0) += 1;
            }
            SolveOutcome::Unsolvable { .. } => {
                unsolvable += 1;
                println!("  unsolvable: {start}");
            }
            SolveOutcome::LimitReached { .. } => {
                limited += 1;
                println!("  limit reached: {start}");
            }
        }
    }
    let total = began.elapsed();
    println!("  solved {solved}, unsolvable {unsolvable}, limit reached {limited}");
    let distribution: Vec<String> = lengths.iter().map(|(l, n)| format!("{l}:{n}")).collect();
    println!(
        "  solution lengths (length:count) {}",
        distribution.join(" ")
    );
    println!(
        "  total {:.2} s; {visited} states visited, {expanded} expanded ({:.2} M/s)",
        total.as_secs_f64(),
        rate(expanded, total)
    );
    println!(
        "  at most {worst_bytes:.1} bytes per visited state (searches of 100000 states or more)"
    );
    match peak_memory_kb() {
        Some(kb) => println!("  peak memory (VmHWM) {:.1} MB", kb as f64 / 1024.0),
        None => println!("  peak memory: /proc/self/status not readable"),
    }
    Ok(())
}
