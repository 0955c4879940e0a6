//! Writing an output to a path, or to standard output for `-`.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::Path;

use anyhow::Context;

use super::ending::Ending;

/// Writes `path` through `write`, whole or not at all (see
/// [`reel::write_atomically`]; `temporary_prefix` begins the hidden
/// temporary file's name), with the path in the message of any error.
pub fn write_file(
    path: &Path,
    temporary_prefix: &str,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    reel::write_atomically(path, temporary_prefix, write)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Writes an output (`what`, for example "GIF") to `path` as
/// [`write_file`] does, or to standard output for `-`, but never to a
/// terminal, where it would only be noise.
pub fn write_output(
    path: &Path,
    what: &str,
    temporary_prefix: &str,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> Result<(), Ending> {
    if path.as_os_str() != "-" {
        return write_file(path, temporary_prefix, write).map_err(Ending::Error);
    }
    if io::stdout().is_terminal() {
        return Err(Ending::Invalid(format!(
            "refusing to write a {what} to a terminal; redirect standard output or give -o FILE"
        )));
    }
    let mut out = BufWriter::new(io::stdout().lock());
    write(&mut out)
        .and_then(|()| out.flush().context("cannot write to standard output"))
        .map_err(Ending::Error)
}
