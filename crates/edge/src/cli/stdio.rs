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
///
/// Everything said here is for people, and much of it quotes what a user
/// or a program gave (names, comments, answers): control characters are
/// shown as `?` ([`crate::printable`]) rather than obeyed by the terminal.
pub fn say(line: &str) {
    let mut err = io::stderr().lock();
    let line = crate::printable::printable_lines(line);
    let _ = writeln!(err, "{line}").and_then(|()| err.flush());
}

/// Lines for standard error written through a buffer, for the many lines
/// one command may have to say (a log's warnings, one a turn): each made
/// printable as [`say`] makes it, all flushed when the value is dropped.
/// Failures are ignored, as [`say`] ignores them.
pub struct Saying {
    out: io::BufWriter<io::Stderr>,
}

impl Saying {
    /// Nothing said yet.
    pub fn new() -> Saying {
        Saying {
            out: io::BufWriter::new(io::stderr()),
        }
    }

    /// Says `line`.
    pub fn line(&mut self, line: &str) {
        let line = crate::printable::printable_lines(line);
        let _ = writeln!(self.out, "{line}");
    }
}

impl Default for Saying {
    fn default() -> Self {
        Saying::new()
    }
}

impl Drop for Saying {
    fn drop(&mut self) {
        let _ = self.out.flush();
    }
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
