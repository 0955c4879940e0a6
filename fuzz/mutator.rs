//! The seeded mutator that runs the fuzz targets on stable: each target's
//! seeds (`fuzz/seeds/TARGET/`) are mutated for a while (bits, bytes,
//! tokens of the formats, ranges cut, copied and spliced) and the run
//! fails on the first panic, saving the input that caused it. Not
//! coverage-guided like `cargo +nightly fuzz run`, but the same targets,
//! reproducible, and needing nothing beyond stable Rust. Each crate's
//! `tests/fuzz.rs` includes this file with its own targets.
//!
//! `SHUBBLES_FUZZ_SECONDS` (default 1) is each target's budget;
//! `SHUBBLES_FUZZ_SEED` (default below) picks the sequence of inputs. CI
//! runs 10 seconds a target.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

const DEFAULT_SEED: u64 = 0x5EED_0F5B_0BB1_E500;

/// Inputs grow no longer than this: longer ones only take more time.
const MAX_INPUT: usize = 64 << 10;

/// Pieces of the formats, for mutations that keep inputs near valid.
const TOKENS: &[&[u8]] = &[
    b"\n",
    b"\r\n",
    b" ",
    b"\t",
    b"#",
    b"\"",
    b"{",
    b"}",
    b":",
    b",",
    b"[",
    b"]",
    b"0",
    b"1",
    b"-1",
    b"28",
    b"29",
    b"4294967296",
    b"18446744073709551616",
    b"\xEF\xBB\xBF",
    b"\xFF",
    b"\xC3",
    b"o",
    b"x",
    b"@",
    b".",
    b"+",
    b"-",
    b"|",
    b"<",
    b">",
    b"^",
    b"v",
    b"--",
    b"\"kind\":",
    b"\"frame\":",
    b"\"op\":",
    b"\"operation\":",
    b"\"cells\":",
    b"\"from\":",
    b"\"orientation\":",
    b"\"reason\":",
    b"\"creature\":",
    b"\"direction\":",
    b"\"state\":",
    b"\"operations\":",
    b"\"settle\":",
    b"\"start\"",
    b"\"fell\"",
    b"\"turned\"",
    b"\"stot-moved\"",
    b"\"failed\"",
    b"\"left\"",
    b"\"smole-escaped\"",
    b"\"wall\"",
    b"true",
    b"null",
    b"katazuke 1",
    b"game 1",
    b"game 2",
    b"first: ",
    b"A start: ",
    b"B start: ",
    b"clear ",
    b"place ",
    b"move ",
    b"pass",
    b"empty",
    b"timeout",
    b"result: A 1 B 2",
    b"winner: ",
    b"janken: ",
    b"field:",
    b"  1 2 3",
    b"capacity: ",
    b"stock: ",
    b"team time: ",
    b"game time: ",
    b"a1",
    b"p16",
    b"q17",
    b"a0",
    b"*",
    b":99",
    b"x3",
    b"0:00.000",
    b"9:59.999",
    b"2.5",
    b"A ",
    b"B ",
    b"fig1a",
    b"CON",
    b"../",
];

/// xorshift64*: small, seeded, the same everywhere.
struct Random(u64);

impl Random {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn mutate(input: &mut Vec<u8>, seeds: &[Vec<u8>], random: &mut Random) {
    for _ in 0..1 + random.below(4) {
        let at = random.below(input.len() + 1);
        match random.below(7) {
            0 if !input.is_empty() => {
                let i = random.below(input.len());
                input[i] ^= 1 << random.below(8);
            }
            1 if !input.is_empty() => {
                let i = random.below(input.len());
                input[i] = random.next() as u8;
            }
            2 | 3 => {
                let token = TOKENS[random.below(TOKENS.len())];
                input.splice(at..at, token.iter().copied());
            }
            4 => {
                let end = (at + 1 + random.below(16)).min(input.len());
                input.drain(at..end);
            }
            5 => {
                let end = (at + 1 + random.below(64)).min(input.len());
                let copied = input[at..end].to_vec();
                let to = random.below(input.len() + 1);
                input.splice(to..to, copied);
            }
            _ => {
                let other = &seeds[random.below(seeds.len())];
                let from = random.below(other.len() + 1);
                input.truncate(at);
                input.extend_from_slice(&other[from..]);
            }
        }
    }
    input.truncate(MAX_INPUT);
}

fn seeds_of(target: &str) -> Vec<Vec<u8>> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../fuzz/seeds")
        .join(target);
    let mut files: Vec<PathBuf> = std::fs::read_dir(&folder)
        .unwrap_or_else(|error| panic!("{}: {error}", folder.display()))
        .map(|entry| entry.expect("an entry").path())
        .collect();
    files.sort();
    let mut seeds: Vec<Vec<u8>> = files
        .iter()
        .map(|file| std::fs::read(file).expect("a readable seed"))
        .collect();
    seeds.push(Vec::new());
    seeds
}

fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .and_then(|value| value.parse().ok())
        .unwrap_or(default)
}

/// A fuzz target by the name its seeds and findings go under: any bytes
/// in, a panic is a finding.
pub type Named = (&'static str, fn(&[u8]));

/// Fuzzes the target `name` of `targets` for its budget; panics with the
/// input of a finding.
pub fn fuzz(name: &str, targets: &[Named]) {
    let (_, target) = targets
        .iter()
        .copied()
        .find(|(target, _)| *target == name)
        .expect("a target of that name");
    let seeds = seeds_of(name);
    for seed in &seeds {
        target(seed);
    }
    let budget = Duration::from_secs(setting("SHUBBLES_FUZZ_SECONDS", 1));
    let seed = setting("SHUBBLES_FUZZ_SEED", DEFAULT_SEED);
    let mut random = Random(seed | 1);
    let started = Instant::now();
    let mut runs: u64 = 0;
    while started.elapsed() < budget {
        for _ in 0..64 {
            let mut input = seeds[random.below(seeds.len())].clone();
            mutate(&mut input, &seeds, &mut random);
            runs += 1;
            if catch_unwind(AssertUnwindSafe(|| target(&input))).is_err() {
                let saved = save_finding(name, runs, &input);
                panic!(
                    "{name}: input {runs} of seed {seed:#x} panics; saved as {}: {:?}",
                    saved.display(),
                    String::from_utf8_lossy(&input[..input.len().min(400)])
                );
            }
        }
    }
    eprintln!(
        "{name}: {runs} inputs in {:.1?}, seed {seed:#x}",
        started.elapsed()
    );
}

fn save_finding(name: &str, run: u64, input: &[u8]) -> PathBuf {
    let folder = Path::new(env!("CARGO_TARGET_TMPDIR")).join("fuzz-findings");
    let path = folder.join(format!("{name}-{run}"));
    let _ = std::fs::create_dir_all(&folder).and_then(|()| std::fs::write(&path, input));
    path
}

#[test]
fn the_mutator_is_seeded() {
    let seeds = vec![b"abc".to_vec()];
    let run = |seed| {
        let mut random = Random(seed);
        (0..20)
            .map(|_| {
                let mut input = seeds[0].clone();
                mutate(&mut input, &seeds, &mut random);
                input
            })
            .collect::<Vec<_>>()
    };
    assert_eq!(run(7), run(7));
    assert_ne!(run(7), run(8));
}
