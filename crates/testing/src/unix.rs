//! Real pipes, FIFOs and signals, as a user's shell meets a tool.

use std::io::Read;
use std::path::Path;
use std::process::{Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use crate::run::{files_in, Run};

/// `SIGHUP`, `SIGINT`, `SIGPIPE` and `SIGTERM`, as `kill -N` names them.
pub const SIGHUP: i32 = 1;
/// Ctrl-C.
pub const SIGINT: i32 = 2;
/// A write to a pipe nobody reads.
const SIGPIPE: i32 = 13;
/// `kill`'s default.
pub const SIGTERM: i32 = 15;

/// Runs `script` in bash (for pipes and redirections as a user types
/// them) with `env` set, and returns what it printed and its status.
pub fn bash(script: &str, env: &[(&str, &str)]) -> Run {
    bash_in(Path::new("."), script, env)
}

/// [`bash`] in the folder `dir`, with an empty standard input.
pub fn bash_in(dir: &Path, script: &str, env: &[(&str, &str)]) -> Run {
    let output = Command::new("bash")
        .args(["-c", script])
        .current_dir(dir)
        .envs(env.iter().copied())
        .output()
        .expect("bash runs");
    Run {
        code: output.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&output.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&output.stderr).into_owned(),
        bytes: output.stdout,
    }
}

/// Runs `script` in bash in `dir` with `env` set and an empty standard
/// input, its standard output and standard error on one pipe, so that
/// what it printed is interleaved as a terminal shows it: its status
/// (-1 when a signal ended it) and that text (lossy).
pub fn bash_interleaved(dir: &Path, script: &str, env: &[(&str, &str)]) -> (i32, String) {
    let (mut reader, writer) = std::io::pipe().expect("a pipe");
    // The command, and with it this process's copies of the writing end,
    // is gone once bash has started: the reading below ends with bash.
    let mut child = Command::new("bash")
        .args(["-c", script])
        .current_dir(dir)
        .envs(env.iter().copied())
        .stdin(Stdio::null())
        .stdout(writer.try_clone().expect("a second writing end"))
        .stderr(writer)
        .spawn()
        .expect("bash runs");
    let mut printed = Vec::new();
    reader
        .read_to_end(&mut printed)
        .expect("the pipe is readable");
    let status = child.wait().expect("bash ends");
    (
        status.code().unwrap_or(-1),
        String::from_utf8_lossy(&printed).into_owned(),
    )
}

/// Runs `binary` with its standard output on a pipe whose reading end is
/// already closed, as `| true` leaves it once `true` has ended: how it
/// ended and its standard error.
fn with_closed_stdout(binary: &str, args: &[&str]) -> (ExitStatus, String) {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let output = Command::new(binary)
        .args(args)
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .output()
        .expect("runs");
    (
        output.status,
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Checks that `binary ARGS` with its standard output on a closed pipe
/// ends as a well-behaved command line tool does: by `SIGPIPE`, without a
/// panic or a "Broken pipe" message.
pub fn assert_ends_quietly_on_a_closed_pipe(binary: &str, args: &[&str]) {
    use std::os::unix::process::ExitStatusExt;
    let (status, stderr) = with_closed_stdout(binary, args);
    assert_eq!(
        status.signal(),
        Some(SIGPIPE),
        "{args:?}: {status:?} {stderr}"
    );
    assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
    assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
}

/// Makes a FIFO at `path`; false where `mkfifo` is missing or fails.
pub fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo")
        .arg(path)
        .status()
        .is_ok_and(|status| status.success())
}

/// The temporary files (`*.tmp`) in `dir`.
pub fn temporary_files(dir: &Path) -> Vec<String> {
    files_in(dir)
        .into_iter()
        .filter(|name| name.ends_with(".tmp"))
        .collect()
}

/// Starts `binary` in `dir`, waits until it has begun writing its
/// temporary file, sends `signal`, and returns how it ended.
pub fn interrupted(binary: &str, dir: &Path, args: &[&str], signal: i32) -> ExitStatus {
    let mut child = Command::new(binary)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("starts");
    let started = Instant::now();
    while temporary_files(dir).is_empty() {
        assert!(
            started.elapsed() < Duration::from_secs(60),
            "no temporary file appeared"
        );
        assert!(
            child.try_wait().expect("waitable").is_none(),
            "ended too soon"
        );
        std::thread::sleep(Duration::from_millis(20));
    }
    let killed = Command::new("kill")
        .args([format!("-{signal}"), child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    child.wait().expect("ends")
}
