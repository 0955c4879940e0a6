//! Why a tournament could not be played, merged or read back, in words
//! that say how to go on.

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};

use edge::LockError;

/// Why a tournament could not be played to the end.
#[derive(Debug)]
pub enum TournamentError {
    /// The tournament is not one that can be played.
    Setup(String),
    /// A file could not be read or written.
    Io {
        /// The file or folder.
        path: PathBuf,
        /// What went wrong.
        error: io::Error,
    },
    /// The results file is not this tournament's.
    Foreign {
        /// The results file.
        path: PathBuf,
        /// What differs.
        problem: String,
    },
    /// A line of the results file is not a result of this tournament.
    Damaged {
        /// The results file.
        path: PathBuf,
        /// The line, from 1.
        line: usize,
        /// What is wrong with it.
        problem: String,
    },
    /// An output cannot be written: found before any match is played.
    Unwritable {
        /// `the results file` or `the records folder`.
        what: &'static str,
        /// The file or folder.
        path: PathBuf,
        /// What is wrong with the results file, in words.
        problem: String,
    },
    /// Another run is playing on the same results file.
    Busy {
        /// The results file.
        path: PathBuf,
        /// Its lock, held by the other run.
        held: LockError,
    },
    /// The results files given to merge are not the shards of one whole
    /// tournament, each complete.
    Shards(String),
    /// A match went wrong in a way no player can cause.
    Match {
        /// The pairing's index.
        index: usize,
        /// What went wrong.
        problem: String,
    },
}

impl fmt::Display for TournamentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TournamentError::Setup(problem) => f.write_str(problem),
            TournamentError::Io { path, error } => write!(f, "{}: {error}", path.display()),
            TournamentError::Foreign { path, problem } => write!(
                f,
                "{} is not the results file of this tournament ({problem}); \
                 name another results file, or delete this one to start afresh",
                path.display()
            ),
            TournamentError::Damaged {
                path,
                line,
                problem,
            } => write!(
                f,
                "{} line {line}: {problem}; repair or delete the line to resume",
                path.display()
            ),
            TournamentError::Unwritable {
                what,
                path,
                problem,
            } => write!(f, "{what} {} cannot be written: {problem}", path.display()),
            TournamentError::Busy { path, held } => {
                write!(f, "{} is in use: {held}", path.display())
            }
            TournamentError::Shards(problem) => f.write_str(problem),
            TournamentError::Match { index, problem } => write!(f, "match {index}: {problem}"),
        }
    }
}

impl std::error::Error for TournamentError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            TournamentError::Io { error, .. } => Some(error),
            _ => None,
        }
    }
}

pub(super) fn io_error(path: &Path) -> impl FnOnce(io::Error) -> TournamentError + '_ {
    move |error| TournamentError::Io {
        path: path.to_path_buf(),
        error,
    }
}
