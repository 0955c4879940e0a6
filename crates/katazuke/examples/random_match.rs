//! Prints a random legal 片付けマス match log: practice material, and the
//! long matches the benchmarks referee.
//!
//! `cargo run --release --example random_match -- [ROWS COLUMNS [SEED [TEAM_S GAME_S [MISHAPS]]]]`
//! (defaults: 7 7 1 150 300 0): a field of random counts 1 to 9, capacity
//! 6, stock 3, the clocks given in seconds, and MISHAPS turns in a
//! thousand that overrun or time out.

use katazuke::{random_match, random_params};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<u64> = std::env::args()
        .skip(1)
        .map(|arg| arg.parse())
        .collect::<Result<_, _>>()
        .map_err(|error| format!("random_match: the arguments are whole numbers: {error}"))?;
    let arg = |i: usize, default: u64| args.get(i).copied().unwrap_or(default);
    let (rows, columns, seed) = (arg(0, 7), arg(1, 7), arg(2, 1));
    let params = random_params(
        rows as usize,
        columns as usize,
        seed,
        arg(3, 150) * 1000,
        arg(4, 300) * 1000,
    )?;
    print!("{}", random_match(&params, seed, arg(5, 0)));
    Ok(())
}
