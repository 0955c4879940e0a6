//! Standard output and standard error, written without panicking: `println!`
//! panics when the pipe is closed (`shubbles solve STATE | head -c1`) or
//! the disk is full (`> /dev/full`).

use std::io::{self, Write};

use anyhow::Context;

/// Writes `text` to standard output and flushes it. The error of a closed
/// pipe or any other failure keeps the I/O error, so that
/// [`Ending::exit`](super::Ending::exit) can end quietly on a closed pipe.
pub fn print(text: &str) -> anyhow::Result<()> {
    let mut out = io::stdout().lock();
    out.write_all(text.as_bytes())
        .and_then(|()| out.flush())
        .context("cannot write to standard output")
}

/// Writes `line` and a newline to standard error. A failure is ignored:
/// standard error is where failures are told, so there is nowhere left to
/// tell this one, and the exit status already says how the command ended.
pub fn say(line: &str) {
    let mut err = io::stderr().lock();
    let _ = writeln!(err, "{line}").and_then(|()| err.flush());
}

/// Writes `text` to standard error as it is (no newline added), ignoring a
/// failure as [`say`] does: for progress lines redrawn in place.
pub fn say_partial(text: &str) {
    let mut err = io::stderr().lock();
    let _ = err.write_all(text.as_bytes()).and_then(|()| err.flush());
}

/// True if `error` (or any error it wraps) is a write to a pipe whose
/// reader has gone.
pub fn is_broken_pipe(error: &anyhow::Error) -> bool {
    error.chain().any(|cause| {
        cause
            .downcast_ref::<io::Error>()
            .is_some_and(|io| io.kind() == io::ErrorKind::BrokenPipe)
    })
}
