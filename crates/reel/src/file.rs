//! Files written whole or not at all, whatever happens to the process.
//!
//! A regular file (or a new path) is written into a hidden temporary file
//! in the same folder, flushed to disk, and renamed over the path, so a
//! reader never sees half a file and the old file stays whole until the
//! new one is complete. Anything else (a FIFO, a terminal, `/dev/null`,
//! `/dev/stdout`, a symbolic link to one of those) is written through, as a
//! shell's `>` would: renaming a regular file over it would replace the
//! device or pipe instead of writing to it.
//!
//! Temporary files being written are listed, so that a signal handler can
//! remove them with [`abandon_unfinished_files`] before the process ends.

use std::fs::{self, File, Metadata, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The temporary files being written right now.
static UNFINISHED: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

fn unfinished() -> MutexGuard<'static, Vec<PathBuf>> {
    // A panic elsewhere while the list was held leaves it as it was: still
    // a list of paths worth removing.
    UNFINISHED.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Writes `path` through `write`, whole or not at all (see the module's
/// documentation), and syncs the folder after the rename so that the new
/// name is on disk too. `prefix` begins the temporary file's name; it
/// should start with a dot and name the program (`.shubbles-`), so that a
/// leftover from a process killed outright (SIGKILL, a power cut) is
/// hidden and says where it came from: `PREFIX` and 8 letters or digits,
/// then `.tmp`.
pub fn write_atomically<T, E: From<io::Error>>(
    path: &Path,
    prefix: &str,
    write: impl FnOnce(&mut dyn Write) -> Result<T, E>,
) -> Result<T, E> {
    AtomicFile::new(path, prefix).write(write)
}

/// Checks, writing nothing, that [`write_atomically`] could write `path`
/// now: that it is no folder and that a temporary file can be made where
/// the write would make one (the file is made and removed). A FIFO or a
/// device, written through, is not opened. For a program that would
/// otherwise find out only after its work.
pub fn check_writable(path: &Path, prefix: &str) -> io::Result<()> {
    match destination(path)? {
        Destination::Through => Ok(()),
        Destination::Replace { target, .. } => {
            Temporary::create(folder_of(&target), prefix).map(drop)
        }
    }
}

/// A file to be written whole or not at all, in two steps for a caller who
/// writes many: [`AtomicFile::prepare`] writes the content, and
/// [`Prepared::commit`] (the slow part, waiting for the disk) can then run
/// on another thread while the next file is made.
#[derive(Clone, Copy, Debug)]
pub struct AtomicFile<'a> {
    path: &'a Path,
    prefix: &'a str,
}

impl<'a> AtomicFile<'a> {
    /// The file at `path`; `prefix` as for [`write_atomically`].
    pub fn new(path: &'a Path, prefix: &'a str) -> AtomicFile<'a> {
        AtomicFile { path, prefix }
    }

    /// Writes the file through `write` and commits it.
    pub fn write<T, E: From<io::Error>>(
        self,
        write: impl FnOnce(&mut dyn Write) -> Result<T, E>,
    ) -> Result<T, E> {
        let (written, prepared) = self.prepare(write)?;
        prepared.commit()?;
        Ok(written)
    }

    /// Writes the content through `write` into the temporary file (or
    /// straight through, for a FIFO or a device), ready to be committed. On
    /// any error nothing is left behind; a [`Prepared`] dropped without
    /// being committed is removed too.
    pub fn prepare<T, E: From<io::Error>>(
        self,
        write: impl FnOnce(&mut dyn Write) -> Result<T, E>,
    ) -> Result<(T, Prepared), E> {
        let (target, existing) = match destination(self.path)? {
            Destination::Through => {
                let written = write_through(self.path, write)?;
                return Ok((written, Prepared { replace: None }));
            }
            Destination::Replace { target, existing } => (target, existing),
        };
        let mut temporary = Temporary::create(folder_of(&target), self.prefix)?;
        if let Some(existing) = &existing {
            keep_permissions(&temporary.file, existing)?;
        }
        let written = {
            // Flushed here, not on drop, where an error (a full disk) would
            // be lost and a short file renamed into place.
            let mut out = BufWriter::new(&mut temporary.file);
            let written = write(&mut out)?;
            out.flush()?;
            written
        };
        Ok((
            written,
            Prepared {
                replace: Some((temporary, target)),
            },
        ))
    }
}

/// A file whose content is written, waiting to be put in place.
pub struct Prepared {
    /// The temporary file and the path it replaces; none for a file
    /// written straight through.
    replace: Option<(Temporary, PathBuf)>,
}

impl Prepared {
    /// Flushes the content to disk, renames it over the path, and flushes
    /// the folder so that the new name is on disk too.
    pub fn commit(self) -> io::Result<()> {
        let Some((temporary, target)) = self.replace else {
            return Ok(());
        };
        temporary.file.sync_all()?;
        temporary.persist(&target)?;
        sync_folder(folder_of(&target))
    }
}

/// Flushes a folder's entries to disk, so that files renamed into it are
/// found there after a crash. Does nothing where folders cannot be opened
/// (Windows).
fn sync_folder(folder: &Path) -> io::Result<()> {
    #[cfg(unix)]
    File::open(folder)?.sync_all()?;
    #[cfg(not(unix))]
    let _ = folder;
    Ok(())
}

/// Removes the temporary files of every write under way and keeps any
/// write from finishing after it: for a handler of a signal that ends the
/// process (SIGINT, SIGTERM, SIGHUP), just before it ends. The files the
/// writes would have replaced stay as they were.
pub fn abandon_unfinished_files() {
    let list = unfinished();
    for path in list.iter() {
        let _ = fs::remove_file(path);
    }
    // The list stays locked for the rest of the process: a write that
    // reaches its rename now waits instead of putting a file in place.
    std::mem::forget(list);
}

/// Where a write goes.
enum Destination {
    /// Opened and written as it is.
    Through,
    /// A regular file at `target` (links followed), replaced by rename;
    /// `existing` is the file there now.
    Replace {
        target: PathBuf,
        existing: Option<Metadata>,
    },
}

fn destination(path: &Path) -> io::Result<Destination> {
    let existing = match fs::metadata(path) {
        Ok(metadata) => Some(metadata),
        Err(error) if error.kind() == io::ErrorKind::NotFound => None,
        Err(error) => return Err(error),
    };
    if existing.as_ref().is_some_and(Metadata::is_dir) {
        return Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "it is a folder",
        ));
    }
    let links = follow_links(path)?;
    let names_an_open_file = links.iter().any(|hop| is_open_file_name(hop));
    match existing {
        Some(metadata) if !metadata.is_file() || names_an_open_file => Ok(Destination::Through),
        existing => Ok(Destination::Replace {
            target: links.last().cloned().unwrap_or_else(|| path.to_path_buf()),
            existing,
        }),
    }
}

/// `path` and each path its symbolic links lead to, the last not a link.
fn follow_links(path: &Path) -> io::Result<Vec<PathBuf>> {
    // Linux's own limit on links followed in one lookup.
    const MAX_LINKS: usize = 40;
    let mut hops = vec![path.to_path_buf()];
    while let Some(current) = hops.last() {
        let is_link = fs::symlink_metadata(current).is_ok_and(|m| m.file_type().is_symlink());
        if !is_link {
            return Ok(hops);
        }
        if hops.len() > MAX_LINKS {
            return Err(io::Error::other("too many levels of symbolic links"));
        }
        let link = fs::read_link(current)?;
        let next = folder_of(current).join(link);
        hops.push(next);
    }
    Ok(hops)
}

/// True for a name of an already open file, such as `/dev/stdout` (a link
/// to `/proc/self/fd/1`) or `/dev/fd/3`: its folder is a process's file
/// table, where nothing can be renamed into place.
fn is_open_file_name(path: &Path) -> bool {
    fs::canonicalize(folder_of(path)).is_ok_and(|folder| folder.starts_with("/proc"))
}

fn folder_of(path: &Path) -> &Path {
    match path.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    }
}

fn write_through<T, E: From<io::Error>>(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> Result<T, E>,
) -> Result<T, E> {
    // Appending, as `>>` does: to a pipe or a device it is the same as
    // writing, and a file reached through `/dev/stdout` keeps what the
    // shell's redirection means (truncated by `>`, added to by `>>`).
    let file = OpenOptions::new().append(true).open(path)?;
    let mut out = BufWriter::new(file);
    let written = write(&mut out)?;
    out.flush()?;
    Ok(written)
}

#[cfg(unix)]
fn keep_permissions(file: &File, existing: &Metadata) -> io::Result<()> {
    use std::os::unix::fs::MetadataExt;
    // The owner can be kept only by root (or by an owner changing the
    // group to one of their own); a file the user may replace but not
    // give away is theirs afterwards, as any editor's would be.
    let _ = std::os::unix::fs::fchown(file, Some(existing.uid()), Some(existing.gid()));
    // After the owner: changing it clears the set-user-ID bits.
    file.set_permissions(existing.permissions())
}

#[cfg(not(unix))]
fn keep_permissions(_: &File, _: &Metadata) -> io::Result<()> {
    Ok(())
}

/// A temporary file being written, listed in [`UNFINISHED`] until it is
/// renamed into place or removed.
struct Temporary {
    path: PathBuf,
    file: File,
    persisted: bool,
}

impl Temporary {
    fn create(folder: &Path, prefix: &str) -> io::Result<Temporary> {
        // Held while the file is made, so that a signal handler removing
        // the listed files cannot miss one that exists but is not listed.
        let mut list = unfinished();
        let mut options = OpenOptions::new();
        options.write(true).create_new(true);
        // Readable by others as any file the user makes (the umask
        // applies); a file replaced gets the old one's mode instead.
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o666);
        for _ in 0..100 {
            let path = folder.join(format!("{prefix}{}.tmp", random_letters()));
            match options.open(&path) {
                Ok(file) => {
                    list.push(path.clone());
                    return Ok(Temporary {
                        path,
                        file,
                        persisted: false,
                    });
                }
                Err(error) if error.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(error) => return Err(error),
            }
        }
        Err(io::Error::new(
            io::ErrorKind::AlreadyExists,
            "no free name for a temporary file",
        ))
    }

    fn persist(mut self, target: &Path) -> io::Result<()> {
        let mut list = unfinished();
        fs::rename(&self.path, target)?;
        list.retain(|path| path != &self.path);
        self.persisted = true;
        Ok(())
    }
}

impl Drop for Temporary {
    fn drop(&mut self) {
        if self.persisted {
            return;
        }
        let mut list = unfinished();
        let _ = fs::remove_file(&self.path);
        list.retain(|path| path != &self.path);
    }
}

/// Eight letters and digits, different on every call.
fn random_letters() -> String {
    use std::hash::{BuildHasher, Hasher};
    const ALPHABET: &[u8; 36] = b"abcdefghijklmnopqrstuvwxyz0123456789";
    // Each `RandomState` has fresh keys (random per thread, then counted
    // up), which is all a unique name needs.
    let mut number = std::collections::hash_map::RandomState::new()
        .build_hasher()
        .finish();
    (0..8)
        .map(|_| {
            let letter = ALPHABET[(number % 36) as usize];
            number /= 36;
            char::from(letter)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .expect("readable")
            .map(|entry| entry.expect("entry").file_name().to_string_lossy().into())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_failed_write_leaves_no_file_and_nothing_listed() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("out.txt");
        let failed: io::Result<()> = write_atomically(&path, ".test-", |out| {
            out.write_all(b"half")?;
            Err(io::Error::other("stopped"))
        });
        assert!(failed.is_err());
        assert_eq!(names_in(dir.path()), Vec::<String>::new());
        assert!(!unfinished().iter().any(|p| p.starts_with(dir.path())));
    }

    #[test]
    fn a_writable_path_is_told_from_one_without_a_folder_and_nothing_is_left() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        assert!(check_writable(&dir.path().join("out.txt"), ".test-").is_ok());
        let missing = check_writable(&dir.path().join("missing/out.txt"), ".test-");
        assert_eq!(
            missing.expect_err("no folder").kind(),
            io::ErrorKind::NotFound
        );
        fs::write(dir.path().join("file"), "").expect("writable");
        let under_a_file = check_writable(&dir.path().join("file/out.txt"), ".test-");
        assert_eq!(
            under_a_file.expect_err("not a folder").kind(),
            io::ErrorKind::NotADirectory
        );
        let folder = check_writable(dir.path(), ".test-");
        assert_eq!(
            folder.expect_err("a folder").kind(),
            io::ErrorKind::IsADirectory
        );
        assert!(check_writable(Path::new("/dev/null"), ".test-").is_ok());
        assert_eq!(names_in(dir.path()), ["file"]);
        assert!(!unfinished().iter().any(|p| p.starts_with(dir.path())));
    }

    #[test]
    fn a_finished_write_replaces_the_file() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("out.txt");
        fs::write(&path, "old").expect("writable");
        let length: io::Result<usize> = write_atomically(&path, ".test-", |out| {
            out.write_all(b"new")?;
            Ok(3)
        });
        assert_eq!(length.expect("written"), 3);
        assert_eq!(fs::read_to_string(&path).expect("readable"), "new");
        assert_eq!(names_in(dir.path()), ["out.txt"]);
    }

    #[test]
    fn the_temporary_file_is_hidden_and_named_after_its_prefix() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("out.txt");
        let seen: io::Result<Vec<String>> =
            write_atomically(&path, ".test-", |_| Ok(names_in(dir.path())));
        let seen = seen.expect("written");
        assert_eq!(seen.len(), 1);
        let name = &seen[0];
        assert!(
            name.starts_with(".test-") && name.ends_with(".tmp"),
            "{name}"
        );
        assert_eq!(name.len(), ".test-".len() + 8 + ".tmp".len());
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_mode_and_a_new_one_is_readable_by_all() {
        use std::os::unix::fs::PermissionsExt;
        let mode = |path: &Path| fs::metadata(path).expect("exists").permissions().mode() & 0o7777;
        let dir = tempfile::tempdir().expect("a temporary folder");
        let private = dir.path().join("private.txt");
        fs::write(&private, "old").expect("writable");
        fs::set_permissions(&private, fs::Permissions::from_mode(0o600)).expect("chmod");
        let written: io::Result<()> =
            write_atomically(&private, ".test-", |out| out.write_all(b"new"));
        written.expect("written");
        assert_eq!(mode(&private), 0o600);
        let fresh = dir.path().join("fresh.txt");
        let written: io::Result<()> =
            write_atomically(&fresh, ".test-", |out| out.write_all(b"new"));
        written.expect("written");
        assert_eq!(mode(&fresh) & 0o444, 0o444);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_to_a_file_is_kept_and_its_target_replaced() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let target = dir.path().join("target.txt");
        let link = dir.path().join("link.txt");
        fs::write(&target, "old").expect("writable");
        std::os::unix::fs::symlink("target.txt", &link).expect("symlink");
        let written: io::Result<()> =
            write_atomically(&link, ".test-", |out| out.write_all(b"new"));
        written.expect("written");
        assert!(fs::symlink_metadata(&link)
            .expect("exists")
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&target).expect("readable"), "new");
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_written_through_not_replaced() {
        let written: io::Result<()> = write_atomically(Path::new("/dev/null"), ".test-", |out| {
            out.write_all(b"gone")
        });
        written.expect("written");
        let metadata = fs::metadata("/dev/null").expect("exists");
        assert!(!metadata.is_file());
    }

    #[test]
    fn a_folder_is_refused() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let refused: io::Result<()> = write_atomically(dir.path(), ".test-", |_| Ok(()));
        assert_eq!(
            refused.expect_err("refused").kind(),
            io::ErrorKind::IsADirectory
        );
    }
}
