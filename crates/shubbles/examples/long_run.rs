//! Prints Figure 1(a) and a long operation string that never fails, for
//! measuring long runs: `cargo run --release --example long_run -- 100000`.
//! The operations are drawn with a fixed seed, each kept only if it succeeds
//! from where the run is.

use shubbles::{format_operations, seeded_legal_operations, Scenario};

fn main() {
    let length: usize = match std::env::args().nth(1).map(|n| n.parse()) {
        None => 100_000,
        Some(Ok(n)) => n,
        Some(Err(error)) => {
            eprintln!("long_run: the length must be a whole number: {error}");
            std::process::exit(2);
        }
    };
    let start = Scenario::figure_1a().start;
    let operations = seeded_legal_operations(start, length, 0x2545_F491_4F6C_DD1D);
    println!("{start} {}", format_operations(&operations));
}
