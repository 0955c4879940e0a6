//! Line-based text input read within bounds, for everything the tools read
//! a line at a time (event logs, batch files, standard input): a line may
//! hold at most [`MAX_LINE_BYTES`], and a longer one is refused as soon as
//! the limit is passed, without reading the rest (`/dev/zero` is one
//! endless line). Each line is checked to be UTF-8, and a byte-order mark
//! at the start is named rather than taken for text.

use std::fmt;
use std::io::{self, BufRead};

/// The most bytes a line may hold, its line break not counted: 1 MiB. A
/// state with a million operations fits; a line longer than that is not
/// input a person or a program of ours writes.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// The most bytes a whole input read at once may hold (a match log, a
/// katazuke event log): 64 MiB, far more than any match.
pub const MAX_INPUT_BYTES: usize = 64 << 20;

/// What some editors put at the start of a UTF-8 file.
pub const BYTE_ORDER_MARK: &[u8] = b"\xEF\xBB\xBF";

/// The lines of an input, numbered from 1, without their line breaks (`\n`
/// or `\r\n`). A line that is not UTF-8 (or starts with a byte-order mark)
/// is an error of its own and the next line follows it; after a line too
/// long or a read error the iterator ends.
pub struct BoundedLines<R> {
    input: R,
    buffer: Vec<u8>,
    number: usize,
    finished: bool,
}

impl<R: BufRead> BoundedLines<R> {
    /// The lines of `input`.
    pub fn new(input: R) -> BoundedLines<R> {
        BoundedLines {
            input,
            buffer: Vec::new(),
            number: 0,
            finished: false,
        }
    }

    /// Reads the next line into the buffer: `Ok(false)` at the end.
    fn fill_line(&mut self) -> Result<bool, BadLine> {
        self.buffer.clear();
        loop {
            let available = match self.input.fill_buf() {
                Ok(available) => available,
                Err(error) if error.kind() == io::ErrorKind::Interrupted => continue,
                Err(error) => return Err(BadLine::Unreadable(error)),
            };
            if available.is_empty() {
                return Ok(!self.buffer.is_empty());
            }
            let (taken, ends_line) = match available.iter().position(|&byte| byte == b'\n') {
                Some(at) => (at, true),
                None => (available.len(), false),
            };
            if self.buffer.len() + taken > MAX_LINE_BYTES {
                return Err(BadLine::TooLong);
            }
            self.buffer.extend_from_slice(&available[..taken]);
            self.input.consume(taken + usize::from(ends_line));
            if ends_line {
                return Ok(true);
            }
        }
    }
}

impl<R: BufRead> Iterator for BoundedLines<R> {
    type Item = Result<(usize, String), LineError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.finished {
            return None;
        }
        self.number += 1;
        let line = self.number;
        let checked = self.fill_line().and_then(|more| {
            if !more {
                return Ok(None);
            }
            if self.buffer.last() == Some(&b'\r') {
                self.buffer.pop();
            }
            if line == 1 && self.buffer.starts_with(BYTE_ORDER_MARK) {
                return Err(BadLine::ByteOrderMark);
            }
            text_of(std::mem::take(&mut self.buffer)).map(Some)
        });
        match checked {
            Ok(Some(text)) => Some(Ok((line, text))),
            Ok(None) => {
                self.finished = true;
                None
            }
            Err(problem) => {
                self.finished = matches!(problem, BadLine::TooLong | BadLine::Unreadable(_));
                Some(Err(LineError { line, problem }))
            }
        }
    }
}

fn text_of(bytes: Vec<u8>) -> Result<String, BadLine> {
    String::from_utf8(bytes).map_err(|error| {
        let at = error.utf8_error().valid_up_to();
        BadLine::NotUtf8 {
            column: at + 1,
            byte: error.as_bytes()[at],
        }
    })
}

/// A line that could not be taken, and which.
#[derive(Debug)]
pub struct LineError {
    /// The line, from 1.
    pub line: usize,
    /// What is wrong with it.
    pub problem: BadLine,
}

/// What is wrong with a line.
#[derive(Debug)]
pub enum BadLine {
    /// Reading failed.
    Unreadable(io::Error),
    /// Longer than [`MAX_LINE_BYTES`].
    TooLong,
    /// The input starts with the bytes EF BB BF, which some editors add.
    ByteOrderMark,
    /// Not UTF-8: the first bad byte and its column (in bytes, from 1).
    NotUtf8 {
        /// Its column, in bytes from 1.
        column: usize,
        /// The byte.
        byte: u8,
    },
}

impl fmt::Display for BadLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            BadLine::Unreadable(error) => write!(f, "cannot be read: {error}"),
            BadLine::TooLong => write!(
                f,
                "the line is longer than {} MiB, the most a line may hold",
                MAX_LINE_BYTES >> 20
            ),
            BadLine::ByteOrderMark => write!(
                f,
                "the text begins with a UTF-8 byte-order mark (bytes EF BB BF); save it without one"
            ),
            BadLine::NotUtf8 { column, byte } => write!(
                f,
                "the line is not UTF-8 text: byte 0x{byte:02X} at column {column}"
            ),
        }
    }
}

impl fmt::Display for LineError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.problem)
    }
}

impl std::error::Error for LineError {}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<Result<(usize, String), String>> {
        BoundedLines::new(input)
            .map(|line| line.map_err(|error| error.to_string()))
            .collect()
    }

    #[test]
    fn lines_are_numbered_and_lose_their_breaks() {
        assert_eq!(
            lines(b"a\r\n\nb"),
            [
                Ok((1, "a".into())),
                Ok((2, String::new())),
                Ok((3, "b".into()))
            ]
        );
        assert!(lines(b"").is_empty());
    }

    #[test]
    fn a_line_past_the_limit_is_refused_without_reading_the_rest() {
        let endless = io::repeat(b'0');
        let mut read = BoundedLines::new(io::BufReader::new(endless));
        let error = read.next().expect("an item").expect_err("too long");
        assert_eq!(error.line, 1);
        assert!(matches!(error.problem, BadLine::TooLong));
        assert!(read.next().is_none());
        let mut exact = vec![b'x'; MAX_LINE_BYTES];
        exact.push(b'\n');
        assert_eq!(lines(&exact).len(), 1);
        assert!(lines(&exact)[0].is_ok());
    }

    #[test]
    fn a_byte_order_mark_and_bad_bytes_are_named_with_their_line() {
        assert_eq!(
            lines(b"\xEF\xBB\xBFstart\n"),
            [Err("line 1: the text begins with a UTF-8 byte-order mark (bytes EF BB BF); save it without one".into())]
        );
        assert_eq!(
            lines(b"ok\nab\xFFc\nnext"),
            [
                Ok((1, "ok".into())),
                Err("line 2: the line is not UTF-8 text: byte 0xFF at column 3".into()),
                Ok((3, "next".into())),
            ]
        );
    }
}
