//! Prints Figure 1(a) and a long operation string that never fails, for
//! measuring long runs: `cargo run --release --example long_run -- 100000`.
//! The operations are drawn with a fixed seed, each kept only if it succeeds
//! from where the run is.

use shubbles::engine::legal_operations;
use shubbles::operation::format_operations;
use shubbles::{Operation, Scenario};

fn main() {
    let length: usize = match std::env::args().nth(1).map(|n| n.parse()) {
        None => 100_000,
        Some(Ok(n)) => n,
        Some(Err(error)) => {
            eprintln!("long_run: the length must be a whole number: {error}");
            std::process::exit(2);
        }
    };
    let mut seed = 0x2545_F491_4F6C_DD1D_u64;
    let candidates = std::iter::repeat_with(move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        Operation::ALL[(seed % 7) as usize]
    });
    let start = Scenario::figure_1a().start;
    let mut operations = legal_operations(start, candidates.take(length * 4));
    operations.truncate(length);
    println!("{start} {}", format_operations(&operations));
}
