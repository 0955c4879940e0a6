//! One live run per file: an advisory lock that a run takes on a lock file
//! beside what it writes (a tournament's results file, a batch shard's
//! manifest), so that a second run on the same file is refused at once
//! instead of both writing it and corrupting it.
//!
//! The lock is the operating system's (`flock` on Unix, `LockFileEx` on
//! Windows, through [`File::try_lock`]): it is released when the holder
//! exits, even by SIGKILL, so a crashed run never blocks the next one. The
//! lock file holds a line naming the holder (its process number and
//! command line), which the refused run reports. The holder removes the
//! lock file when it is done; a run that takes a lock checks that the file
//! it locked is still the one at the path, so a removal racing a second
//! run's start cannot let two runs hold "the" lock.

use std::fmt;
use std::fs::{self, File, OpenOptions, TryLockError};
use std::io::{self, Read, Seek, Write};
use std::path::{Path, PathBuf};

/// A held lock; dropping it removes the lock file and releases the lock.
#[derive(Debug)]
pub struct RunLock {
    file: File,
    path: PathBuf,
}

/// Why a lock could not be taken.
#[derive(Debug)]
pub enum LockError {
    /// Another live run holds it.
    Held {
        /// The lock file.
        path: PathBuf,
        /// What the holder wrote of itself: `process 1234 (katazuke
        /// tournament …)`, or `another process` when it had not yet written.
        holder: String,
    },
    /// The lock file could not be made or locked.
    Io {
        /// The lock file.
        path: PathBuf,
        /// What failed.
        error: io::Error,
    },
}

impl fmt::Display for LockError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LockError::Held { path, holder } => write!(
                f,
                "{} is held by {holder}, which is still running; wait for it to finish or stop it",
                path.display()
            ),
            LockError::Io { path, error } => {
                write!(f, "cannot lock {}: {error}", path.display())
            }
        }
    }
}

impl std::error::Error for LockError {}

/// How many times a lock is tried again when its file was removed between
/// opening and locking it (its holder finished just then).
const ATTEMPTS: usize = 8;

impl RunLock {
    /// Takes the lock at `path` (made if missing) without waiting, and
    /// writes this process's number and command line into it.
    pub fn acquire(path: &Path) -> Result<RunLock, LockError> {
        let io_error = |error| LockError::Io {
            path: path.to_path_buf(),
            error,
        };
        for _ in 0..ATTEMPTS {
            let mut file = OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .open(path)
                .map_err(io_error)?;
            match file.try_lock() {
                Ok(()) => {}
                Err(TryLockError::WouldBlock) => {
                    let mut said = Vec::new();
                    // The holder may not have written yet: then it is
                    // simply "another process".
                    let _ = file.take(4096).read_to_end(&mut said);
                    // Said on one line whatever its command line holds
                    // (a line break, a terminal's escape), even cut short
                    // inside a character.
                    let said = String::from_utf8_lossy(&said);
                    let holder = crate::printable::printable(said.trim()).into_owned();
                    return Err(LockError::Held {
                        path: path.to_path_buf(),
                        holder: if holder.is_empty() {
                            "another process".to_string()
                        } else {
                            holder
                        },
                    });
                }
                Err(TryLockError::Error(error)) => return Err(io_error(error)),
            }
            if !still_at(&file, path) {
                // The holder removed the file after we opened it: this
                // lock is on a file nobody else can see. Start again.
                continue;
            }
            file.set_len(0).map_err(io_error)?;
            file.rewind().map_err(io_error)?;
            writeln!(file, "{}", holder_line()).map_err(io_error)?;
            return Ok(RunLock {
                file,
                path: path.to_path_buf(),
            });
        }
        Err(io_error(io::Error::other(
            "the lock file kept disappearing while it was being taken",
        )))
    }

    /// The lock file.
    pub fn path(&self) -> &Path {
        &self.path
    }
}

impl Drop for RunLock {
    fn drop(&mut self) {
        // Removed while still held, so that no run can take the old file
        // in between; a run that opened it before the removal sees that it
        // is gone (`still_at`) and tries again.
        let _ = fs::remove_file(&self.path);
        let _ = self.file.unlock();
    }
}

/// Whether `path` still names the file `file` has open.
#[cfg(unix)]
fn still_at(file: &File, path: &Path) -> bool {
    use std::os::unix::fs::MetadataExt;
    match (file.metadata(), fs::metadata(path)) {
        (Ok(open), Ok(named)) => open.dev() == named.dev() && open.ino() == named.ino(),
        _ => false,
    }
}

/// Whether `path` still names the file `file` has open: off Unix an open
/// file cannot be removed, so it always does.
#[cfg(not(unix))]
fn still_at(_file: &File, path: &Path) -> bool {
    path.exists()
}

/// `process 1234 (katazuke tournament a b --results r.jsonl)`.
fn holder_line() -> String {
    let command: Vec<String> = std::env::args().collect();
    format!("process {} ({})", std::process::id(), command.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_second_lock_is_refused_with_the_holder_and_taken_after_release() {
        let folder = tempfile::tempdir().expect("a temporary folder");
        let path = folder.path().join("results.jsonl.lock");
        let first = RunLock::acquire(&path).expect("the first lock");
        let said = fs::read_to_string(&path).expect("the lock file");
        assert!(
            said.starts_with(&format!("process {} (", std::process::id())),
            "{said}"
        );
        match RunLock::acquire(&path) {
            Err(LockError::Held { holder, .. }) => assert_eq!(holder, said.trim()),
            other => panic!("a second lock must be refused: {other:?}"),
        }
        drop(first);
        assert!(!path.exists(), "the holder removes its lock file");
        let again = RunLock::acquire(&path).expect("free again");
        assert_eq!(again.path(), path);
    }

    #[test]
    fn a_missing_folder_is_an_io_error_naming_the_file() {
        let folder = tempfile::tempdir().expect("a temporary folder");
        let path = folder.path().join("missing").join("x.lock");
        let error = RunLock::acquire(&path).expect_err("no folder");
        assert!(matches!(error, LockError::Io { .. }));
        assert!(error.to_string().contains("missing/x.lock"), "{error}");
    }
}
