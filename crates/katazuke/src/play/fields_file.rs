//! A fields file: the opening book of a tournament. One `.ktz` header
//! after another, each from its `katazuke 1` line to the next one: the
//! parameters and the field, and optionally both games' `first:` and
//! start lines (a whole match log is a field too; its turns are checked
//! and ignored). A field without starts gets them from the caller, so
//! that a book of bare fields is played from random or symmetric starts.

use std::fmt;

use crate::log::reader::read_setup;
use crate::model::field::Size;
use crate::model::setup::{GameSetup, MatchSetup};

/// The most fields a file may hold: as many as a tournament may play.
pub const MAX_FIELDS: usize = 10_000;

/// Why a fields file cannot be played.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldsFileError {
    /// The line of the file, from 1, when the problem has one.
    pub line: Option<usize>,
    /// What is wrong, in words.
    pub problem: String,
}

impl fmt::Display for FieldsFileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "line {line}: {}", self.problem),
            None => f.write_str(&self.problem),
        }
    }
}

impl std::error::Error for FieldsFileError {}

/// The fields of `text`, in file order; a field that gives no starts
/// gets those `starts` makes for its size, in file order.
pub fn read_fields(
    text: &[u8],
    starts: &mut dyn FnMut(Size) -> [GameSetup; 2],
) -> Result<Vec<MatchSetup>, FieldsFileError> {
    let at = |line: usize, problem: String| FieldsFileError {
        line: Some(line),
        problem,
    };
    let mut fields = Vec::new();
    for (first_line, chunk) in chunks(text).map_err(|line| {
        at(
            line,
            "a fields file holds .ktz headers, each from its `katazuke 1` line; \
             before the first, only blank lines and # comments"
                .into(),
        )
    })? {
        if fields.len() == MAX_FIELDS {
            return Err(at(
                first_line,
                format!("more than {MAX_FIELDS} fields: a tournament plays at most {MAX_FIELDS}"),
            ));
        }
        let number = fields.len() + 1;
        let setup = read_setup(chunk).map_err(|mut diagnostic| {
            let line = first_line + diagnostic.line.map_or(0, |line| line - 1);
            diagnostic.line = None;
            at(line, diagnostic.line_for(&format!("field {number}")))
        })?;
        let field = MatchSetup::from_setup(&setup, &mut *starts)
            .map_err(|problem| at(first_line, format!("field {number}: {problem}")))?;
        fields.push(field);
    }
    if fields.is_empty() {
        return Err(FieldsFileError {
            line: None,
            problem: "no fields: a fields file holds .ktz headers, each from its `katazuke 1` line"
                .into(),
        });
    }
    Ok(fields)
}

/// Each field's first line (from 1) and its text; or the line of
/// something other than a blank line or a comment before the first.
fn chunks(text: &[u8]) -> Result<Vec<(usize, &[u8])>, usize> {
    let mut starts = Vec::new();
    let mut offset = 0;
    for (index, line) in text.split_inclusive(|&byte| byte == b'\n').enumerate() {
        let words: Vec<&[u8]> = line
            .split(|byte| byte.is_ascii_whitespace())
            .filter(|word| !word.is_empty())
            .collect();
        if words == [b"katazuke".as_slice(), b"1".as_slice()] {
            starts.push((index + 1, offset));
        } else if starts.is_empty() && !words.is_empty() && !words[0].starts_with(b"#") {
            return Err(index + 1);
        }
        offset += line.len();
    }
    Ok(starts
        .iter()
        .enumerate()
        .map(|(index, &(line, begin))| {
            let end = starts.get(index + 1).map_or(text.len(), |&(_, end)| end);
            (line, &text[begin..end])
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::field::Cell;

    const TWO: &str = "\
# two fields: the first with its starts, the second bare
katazuke 1
capacity: 4
stock: 2
field:
  1 2 3
  4 5 6
  7 8 9

game 1
first: A
A start: b2
B start: a1* c3

game 2
first: B
B start: b2
A start: a1* c3
katazuke 1
capacity: 5
stock: 1
field:
  1 1 1
  1 1 1
";

    fn corner_starts(_: Size) -> [GameSetup; 2] {
        let cell = |name: &str| Cell::parse(name).expect("a cell");
        GameSetup::swapped_pair([cell("a1"), cell("c1"), cell("a2")])
    }

    #[test]
    fn fields_are_read_in_order_and_bare_ones_get_starts() {
        let fields = read_fields(TWO.as_bytes(), &mut corner_starts).expect("two fields");
        assert_eq!(fields.len(), 2);
        assert_eq!(fields[0].params().capacity, 4);
        assert_eq!(
            fields[0].games()[0].current.a,
            Cell::parse("b2").expect("b2")
        );
        assert_eq!(fields[1].params().capacity, 5);
        assert_eq!(
            fields[1].games()[0].current.a,
            Cell::parse("a1").expect("a1")
        );
        assert_eq!(fields[1].params().field.size().rows, 2);
    }

    #[test]
    fn problems_name_the_line_of_the_file() {
        let bad = TWO.replace("stock: 1", "stock: many");
        let error = read_fields(bad.as_bytes(), &mut corner_starts).expect_err("bad stock");
        assert_eq!(error.line, Some(21), "{error}");
        assert!(error.to_string().starts_with("line 21: field 2"), "{error}");
        let error = read_fields(b"capacity: 4\n", &mut corner_starts).expect_err("no version");
        assert_eq!(error.line, Some(1));
        let error = read_fields(b"# nothing\n\n", &mut corner_starts).expect_err("empty");
        assert!(error.to_string().starts_with("no fields"), "{error}");
        let one_game = TWO.split("\ngame 2").next().unwrap_or_default();
        let error = read_fields(one_game.as_bytes(), &mut corner_starts).expect_err("one game");
        assert_eq!(error.line, Some(2), "{error}");
    }
}
