//! A binary run as a user runs it, and what it left behind.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};

/// How a run of a binary ended and what it printed.
pub struct Run {
    /// The exit status, or -1 when a signal ended it.
    pub code: i32,
    /// Standard output as text (lossy).
    pub stdout: String,
    /// Standard error as text (lossy).
    pub stderr: String,
    /// Standard output as bytes.
    pub bytes: Vec<u8>,
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

/// The names in `dir`, sorted.
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
