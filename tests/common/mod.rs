//! What the CLI test files share: running the binary as a user would and
//! reading what it left behind.
#![allow(dead_code)] // each test file uses its own part of this

pub mod golden;

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

pub const FIGURE_1A: &str = ".........@...o....ooo..xox...";
pub const DEMO_OPS: &str = "+>|<-v+^+";
pub const DEMO_RESULT: &str = "o........@..o....oox...xo....";

/// The practice match of KATAZUKE.md §11.4 (`examples/katazuke/practice.ktz`),
/// the log most `katazuke` tests start from, and where it is.
pub const PRACTICE_KTZ: &str = include_str!("../../examples/katazuke/practice.ktz");
pub const PRACTICE_KTZ_PATH: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/examples/katazuke/practice.ktz"
);

pub struct Run {
    pub code: i32,
    /// Standard output as text (lossy) and as bytes.
    pub stdout: String,
    pub stderr: String,
    pub bytes: Vec<u8>,
}

pub fn shubbles_in(dir: &Path, args: &[&str], stdin: &str) -> Run {
    run_in(env!("CARGO_BIN_EXE_shubbles"), dir, args, stdin.as_bytes())
}

/// Runs `binary` in `dir` with `args`, `stdin` on its standard input.
pub fn run_in(binary: &str, dir: &Path, args: &[&str], stdin: &[u8]) -> Run {
    let mut child = Command::new(binary)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut input = child.stdin.take().expect("stdin is piped");
    // A command may rightly stop reading early (an input too long, a third
    // token): a closed pipe here is its answer, not a failure.
    if let Err(error) = input.write_all(stdin) {
        assert_eq!(error.kind(), std::io::ErrorKind::BrokenPipe, "{error}");
    }
    drop(input);
    let output = child.wait_with_output().expect("the binary ends");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        bytes: output.stdout,
    }
}

pub fn katazuke_in(dir: &Path, args: &[&str], stdin: &str) -> Run {
    run_in(env!("CARGO_BIN_EXE_katazuke"), dir, args, stdin.as_bytes())
}

pub fn katazuke(args: &[&str], stdin: &str) -> Run {
    katazuke_in(Path::new(env!("CARGO_TARGET_TMPDIR")), args, stdin)
}

pub fn shubbles(args: &[&str], stdin: &str) -> Run {
    shubbles_in(Path::new(env!("CARGO_TARGET_TMPDIR")), args, stdin)
}

pub fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = std::fs::read_dir(dir)
        .expect("the folder is readable")
        .map(|entry| {
            entry
                .expect("entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    names.sort();
    names
}
