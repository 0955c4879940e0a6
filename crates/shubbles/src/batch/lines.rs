//! The lines of a scenario file: where each is, its fields, and what can
//! be wrong with it.

use std::fmt;
use std::sync::Arc;

use super::names::NameError;
use crate::model::input_error::InputError;
use edge::{BadLine, MAX_LINE_BYTES};

/// A line of a scenario file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    /// The file as the user named it (`-` for standard input).
    pub file: Arc<str>,
    /// Counted from 1, blank and comment lines included.
    pub line: usize,
    /// Which scenario of the whole input this is, from 0: valid and invalid
    /// lines of every file in order, blank and comment lines not counted.
    /// A shard is chosen by it.
    pub position: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// The fields of a scenario line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Fields<'a> {
    /// The state string, as written.
    pub state: &'a str,
    /// Empty when the line has none or gives `.` for none.
    pub operations: &'a str,
    /// The NAME, when the line gives one.
    pub name: Option<&'a str>,
}

/// Splits a line into its fields, or `None` for a blank or comment line.
///
/// `#` starts a comment anywhere: no state, operation or name contains it.
/// The second field is always the operations (an operation string may start
/// with `-`, and `v` or `-` could also be names, so position decides, never
/// the look of a field); `.` there stands for "no operations", so that a
/// scenario without operations can still be named.
pub(crate) fn split_line(line: &str) -> Result<Option<Fields<'_>>, LineProblem> {
    let content = match line.find('#') {
        Some(comment) => &line[..comment],
        None => line,
    };
    let mut fields = content.split_whitespace();
    let Some(state) = fields.next() else {
        return Ok(None);
    };
    let operations = match fields.next() {
        Some(".") | None => "",
        Some(operations) => operations,
    };
    let name = fields.next();
    let extra: Vec<&str> = fields.collect();
    if let Some(first) = extra.first() {
        return Err(LineProblem::ExtraFields {
            first: first.to_string(),
            count: extra.len(),
        });
    }
    Ok(Some(Fields {
        state,
        operations,
        name,
    }))
}

/// What is wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineProblem {
    /// The line is not UTF-8 text.
    NotText {
        /// The first bad byte's column, in bytes from 1.
        column: usize,
        /// The byte.
        byte: u8,
    },
    /// The file begins with a UTF-8 byte-order mark.
    ByteOrderMark,
    /// The line is longer than
    /// [`MAX_LINE_BYTES`](edge::MAX_LINE_BYTES); the rest of
    /// its file is not read.
    TooLong,
    /// More than `STATE OPS NAME`.
    ExtraFields {
        /// The first field past NAME.
        first: String,
        /// How many fields are past NAME.
        count: usize,
    },
    /// The state or the operations are invalid (BOX.md §2, §3).
    Input(InputError),
    /// Only two fields and the second is not an operation string: perhaps a
    /// NAME meant for a scenario with no operations.
    NameWithoutOperations(InputError),
    /// The NAME cannot be a file name.
    Name(NameError),
    /// Another line already writes a file of this name (compared without
    /// regard to case, as some file systems do).
    DuplicateName {
        /// The name, as this line gives it.
        name: String,
        /// The line that has it.
        first: Location,
    },
}

impl fmt::Display for LineProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineProblem::NotText { column, byte } => write!(
                f,
                "the line is not UTF-8 text: byte 0x{byte:02X} at column {column}"
            ),
            LineProblem::ByteOrderMark => write!(
                f,
                "the file begins with a UTF-8 byte-order mark (bytes EF BB BF); save it without one"
            ),
            LineProblem::TooLong => write!(
                f,
                "the line is longer than {} MiB, the most a line may hold; the rest of the file is not read",
                MAX_LINE_BYTES >> 20
            ),
            LineProblem::ExtraFields { first, count } => write!(
                f,
                "unexpected extra field {first:?}{}: expected STATE OPS NAME at most",
                if *count > 1 {
                    format!(" and {} more", count - 1)
                } else {
                    String::new()
                }
            ),
            LineProblem::Input(error) => error.fmt(f),
            LineProblem::NameWithoutOperations(error) => write!(
                f,
                "{error} (the second field is always the operations: write `STATE . NAME` to name a scenario with none)"
            ),
            LineProblem::Name(error) => error.fmt(f),
            LineProblem::DuplicateName { name, first } => write!(
                f,
                "the output name {name:?} is already used by {first}"
            ),
        }
    }
}

impl std::error::Error for LineProblem {}

impl LineProblem {
    /// The problem of a line that could not be taken as text, or the read
    /// error that stops a whole file.
    pub(crate) fn of_text(bad: BadLine) -> Result<LineProblem, std::io::Error> {
        match bad {
            BadLine::Unreadable(error) => Err(error),
            BadLine::TooLong => Ok(LineProblem::TooLong),
            BadLine::ByteOrderMark => Ok(LineProblem::ByteOrderMark),
            BadLine::NotUtf8 { column, byte } => Ok(LineProblem::NotText { column, byte }),
        }
    }
}

/// A line that is not rendered, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidLine {
    /// Where the line is.
    pub location: Location,
    /// What is wrong with it.
    pub problem: LineProblem,
}

impl fmt::Display for InvalidLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.problem)
    }
}

impl std::error::Error for InvalidLine {}

#[cfg(test)]
mod tests {
    use super::*;

    const FIGURE_1A: &str = ".........@...o....ooo..xox...";

    #[test]
    fn fields_are_state_operations_and_name() {
        fn fields(line: &str) -> Option<Fields<'_>> {
            split_line(line).unwrap()
        }
        assert_eq!(fields("   "), None);
        assert_eq!(fields("  # a comment"), None);
        assert_eq!(
            fields(&format!("{FIGURE_1A} -+< first # why")),
            Some(Fields {
                state: FIGURE_1A,
                operations: "-+<",
                name: Some("first")
            })
        );
        assert_eq!(
            fields(FIGURE_1A),
            Some(Fields {
                state: FIGURE_1A,
                operations: "",
                name: None
            })
        );
        assert_eq!(
            fields(&format!("\t{FIGURE_1A}  .  empty\r")),
            Some(Fields {
                state: FIGURE_1A,
                operations: "",
                name: Some("empty")
            })
        );
        // A second field that looks like a name is still the operations.
        assert_eq!(fields(&format!("{FIGURE_1A} v")).unwrap().operations, "v");
        assert_eq!(
            split_line(&format!("{FIGURE_1A} + a b c")),
            Err(LineProblem::ExtraFields {
                first: "b".into(),
                count: 2
            })
        );
    }
}
