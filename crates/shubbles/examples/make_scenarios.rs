//! Writes a reproducible scenario file for `shubbles batch`: random valid,
//! stable start states, each with a short operation string that succeeds.
//!
//! `cargo run --release --example make_scenarios -- 10000 > /tmp/s.txt`
//! (an optional second argument is the seed). The same count and seed give
//! the same file on every machine, so benchmark numbers can be compared.
//! Standard error gets the average number of frames, the size of the work.

use std::io::{self, BufWriter, Write};

use shubbles::{
    format_operations, legal_operations, settle, Operation, Scenario, State, CELL_COUNT,
};

/// xorshift64: reproducible without a dependency, and plenty for picking
/// cells and operations.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// Candidate operations per scenario; about half survive
/// [`legal_operations`], which keeps the runs short, as a batch of puzzle
/// answers or bug reports would be.
const CANDIDATES: usize = 6;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let count: usize = match args.next() {
        Some(text) => text.parse()?,
        None => 10_000,
    };
    let seed: u64 = match args.next() {
        Some(text) => text.parse()?,
        None => 0x5EED_0F5B_u64,
    };
    // xorshift never leaves zero.
    let mut random = Random(seed.max(1));
    let mut out = BufWriter::new(io::stdout().lock());
    writeln!(
        out,
        "# {count} scenarios from `cargo run --release --example make_scenarios -- {count} {seed}`"
    )?;
    let mut written = 0;
    let mut frames = 0;
    while written < count {
        let Some(start) = stable_start(&mut random) else {
            continue;
        };
        let candidates: Vec<Operation> = (0..CANDIDATES)
            .map(|_| Operation::ALL[random.below(Operation::ALL.len())])
            .collect();
        let operations = legal_operations(start, candidates);
        let scenario = Scenario {
            start,
            operations,
            settle_first: false,
        };
        frames += scenario.frames().count();
        writeln!(
            out,
            "{} {}",
            start.cells_string(),
            // An empty operation string is written as `.`, which batch
            // reads as "no operations".
            match format_operations(&scenario.operations) {
                ops if ops.is_empty() => ".".to_string(),
                ops => ops,
            }
        )?;
        written += 1;
    }
    out.flush()?;
    eprintln!(
        "{count} scenarios, {frames} frames, {:.2} frames per scenario",
        frames as f64 / count.max(1) as f64
    );
    Ok(())
}

/// Scatters a stot, two smoles and a few shubbles, then lets them fall; a
/// layout that loses a smole while falling is dropped.
fn stable_start(random: &mut Random) -> Option<State> {
    let mut cells = ['.'; CELL_COUNT];
    let mut place = |symbol: char, random: &mut Random| loop {
        let cell = random.below(CELL_COUNT);
        if cells[cell] == '.' {
            cells[cell] = symbol;
            break;
        }
    };
    place('@', random);
    place('x', random);
    place('x', random);
    for _ in 0..random.below(12) {
        place('o', random);
    }
    let text: String = cells.iter().collect();
    let mut state = State::parse(&text, true).ok()?;
    settle(&mut state, &mut |_| {}).ok()?;
    Some(state)
}
