//! Files written whole or not at all.

use std::io::{self, BufWriter, Write};
use std::path::Path;

/// Writes `path` through `write`: into a hidden temporary file in the same
/// folder (named `PREFIX` and random letters, then `.tmp`), flushed, then
/// renamed over `path`. A reader never sees half a file, an error leaves
/// nothing behind (the temporary file is removed), and a leftover from a
/// crash starts with a dot, so it is never mistaken for an output.
/// `prefix` should start with a dot and name the program
/// (`.shubbles-`), so that a leftover says where it came from.
pub fn write_atomically<T, E: From<io::Error>>(
    path: &Path,
    prefix: &str,
    write: impl FnOnce(&mut dyn Write) -> Result<T, E>,
) -> Result<T, E> {
    let folder = match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(prefix).suffix(".tmp");
    // A temporary file is private by default; the finished file should be
    // as readable as any file the user makes.
    #[cfg(unix)]
    builder.permissions(std::os::unix::fs::PermissionsExt::from_mode(0o644));
    let mut temporary = builder.tempfile_in(folder)?;
    let written = {
        // Flushed here, not on drop, where an error (a full disk) would be
        // lost and a short file renamed into place.
        let mut out = BufWriter::new(temporary.as_file_mut());
        let written = write(&mut out)?;
        out.flush()?;
        written
    };
    temporary.persist(path).map_err(|error| error.error)?;
    Ok(written)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_write_leaves_no_file() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("out.txt");
        let failed: io::Result<()> = write_atomically(&path, ".test-", |out| {
            out.write_all(b"half")?;
            Err(io::Error::other("stopped"))
        });
        assert!(failed.is_err());
        assert_eq!(std::fs::read_dir(dir.path()).expect("readable").count(), 0);
    }

    #[test]
    fn a_finished_write_replaces_the_file_and_is_readable_by_all() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("out.txt");
        std::fs::write(&path, "old").expect("writable");
        let length: io::Result<usize> = write_atomically(&path, ".test-", |out| {
            out.write_all(b"new")?;
            Ok(3)
        });
        assert_eq!(length.expect("written"), 3);
        assert_eq!(std::fs::read_to_string(&path).expect("readable"), "new");
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path)
                .expect("exists")
                .permissions()
                .mode();
            assert_eq!(mode & 0o777, 0o644);
        }
        assert_eq!(std::fs::read_dir(dir.path()).expect("readable").count(), 1);
    }
}
