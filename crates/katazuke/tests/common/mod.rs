//! What the test files of `katazuke` share: the practice match they start
//! from, the binary run as a user runs it, the scripted player programs
//! and the replay's golden frames. What both tools' tests share lives in
//! the `testing` crate.
#![allow(dead_code, unused_imports)] // each test file uses its own part of this

use std::path::{Path, PathBuf};

pub use testing::{files_in, run_in, Run};

/// The practice match of KATAZUKE.md §11.4 (`examples/katazuke/practice.ktz`),
/// the log most `katazuke` tests start from, and where it is.
pub const PRACTICE_KTZ: &str = include_str!("../../../../examples/katazuke/practice.ktz");
/// Where [`PRACTICE_KTZ`] is.
pub const PRACTICE_KTZ_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../examples/katazuke/practice.ktz"
);

/// The `katazuke` binary this test runs.
pub const KATAZUKE: &str = env!("CARGO_BIN_EXE_katazuke");

/// Runs `katazuke ARGS` in `dir` with `stdin`.
pub fn katazuke_in(dir: &Path, args: &[&str], stdin: &str) -> Run {
    run_in(KATAZUKE, dir, args, stdin.as_bytes())
}

/// Runs `katazuke ARGS` in the tests' scratch folder with `stdin`.
pub fn katazuke(args: &[&str], stdin: &str) -> Run {
    katazuke_in(Path::new(env!("CARGO_TARGET_TMPDIR")), args, stdin)
}

/// A path from the top of the repository (where `examples/` is).
pub fn repository(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// A scripted player program of the tests (`tests/players/NAME`).
pub fn player(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/players")
        .join(name)
}

/// The replay's golden frames (`crates/katazuke/frames/`).
pub fn golden() -> testing::golden::Golden {
    testing::golden::Golden::of_crate(env!("CARGO_MANIFEST_DIR"), env!("CARGO_TARGET_TMPDIR"))
}
