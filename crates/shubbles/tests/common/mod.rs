//! What the test files of `shubbles` share: the scenarios they start from,
//! the binary run as a user runs it, and the box's golden frames. What
//! both tools' tests share lives in the `testing` crate.
#![allow(dead_code, unused_imports)] // each test file uses its own part of this

use std::path::{Path, PathBuf};

pub use testing::{files_in, run_in, Run};

/// Figure 1(a) of BOX.md §1, the state most tests start from.
pub const FIGURE_1A: &str = ".........@...o....ooo..xox...";
/// The operations of the demo and of Figure 1(a)'s worked example.
pub const DEMO_OPS: &str = "+>|<-v+^+";
/// Where the demo ends.
pub const DEMO_RESULT: &str = "o........@..o....oox...xo....";

/// The `shubbles` binary this test runs.
pub const SHUBBLES: &str = env!("CARGO_BIN_EXE_shubbles");

/// Runs `shubbles ARGS` in `dir` with `stdin`.
pub fn shubbles_in(dir: &Path, args: &[&str], stdin: &str) -> Run {
    run_in(SHUBBLES, dir, args, stdin.as_bytes())
}

/// Runs `shubbles ARGS` in the tests' scratch folder with `stdin`.
pub fn shubbles(args: &[&str], stdin: &str) -> Run {
    shubbles_in(Path::new(env!("CARGO_TARGET_TMPDIR")), args, stdin)
}

/// A path from the top of the repository (where `examples/` is).
pub fn repository(path: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .join(path)
}

/// The box's golden frames (`crates/shubbles/frames/`).
pub fn golden() -> testing::golden::Golden {
    testing::golden::Golden::of_crate(env!("CARGO_MANIFEST_DIR"), env!("CARGO_TARGET_TMPDIR"))
}
