//! The lines of a `.ktz` match log (§11.2, §11.3, §10.6.7), one at a time:
//! each is split into its tokens (with their columns) and its comment, and
//! read as what it is. Whether it is allowed where it stands is the
//! reader's business (`super::reader`).

use crate::model::code::Code;
use crate::model::field::{Cell, CellNameError, Size};
use crate::model::team::Team;
use crate::model::turn::{Item, Play, Step};

/// A word of a line and the column it starts at (from 1, in characters).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    /// The text.
    pub text: &'a str,
    /// Its first character's column, from 1.
    pub column: usize,
}

/// What is wrong with a line, and where in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LineError {
    /// Which rule of §10.2.
    pub code: Code,
    /// What is wrong, ending with the section.
    pub message: String,
    /// From 1; none when the whole line is meant.
    pub column: Option<usize>,
}

impl LineError {
    pub(crate) fn new(code: Code, message: impl Into<String>, column: usize) -> LineError {
        LineError {
            code,
            message: message.into(),
            column: Some(column),
        }
    }

    fn syntax(message: impl Into<String>, column: usize) -> LineError {
        LineError::new(Code::Syntax, message, column)
    }
}

/// A line split into its content and its comment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Split<'a> {
    /// Before `#`, as written.
    pub content: &'a str,
    /// After `#`, trimmed; none when the line has no `#`.
    pub comment: Option<&'a str>,
    /// The content's words.
    pub tokens: Vec<Token<'a>>,
    /// The content starts with a space or tab (field rows are indented).
    pub indented: bool,
}

/// `text` without the blanks that separate tokens (space, tab, carriage
/// return) at either end: `str::trim` would also take other white space
/// (a vertical tab), which is part of a token.
pub fn trim_blanks(text: &str) -> &str {
    text.trim_matches(is_blank)
}

fn is_blank(c: char) -> bool {
    matches!(c, ' ' | '\t' | '\r')
}

/// Splits `line` (§11.2: `#` starts a comment to the end of the line, even
/// inside a header value; tokens are separated by any run of spaces).
pub fn split(line: &str) -> Split<'_> {
    split_reusing(line, Vec::new())
}

/// [`split`] into `tokens`, a buffer kept from the line before (reading a
/// log splits every line: the buffer saves an allocation a line).
pub fn split_reusing<'a>(line: &'a str, mut tokens: Vec<Token<'a>>) -> Split<'a> {
    let bytes = line.as_bytes();
    let (content, comment) = match bytes.iter().position(|&b| b == b'#') {
        Some(at) => (&line[..at], Some(line[at + 1..].trim())),
        None => (line, None),
    };
    tokens.clear();
    // Columns count characters; on an ASCII line (the rule) they are the
    // byte offsets.
    let ascii = content.is_ascii();
    let column = |offset: usize| {
        if ascii {
            offset + 1
        } else {
            content[..offset].chars().count() + 1
        }
    };
    let bytes = content.as_bytes();
    let blank = |byte: u8| is_blank(char::from(byte));
    let mut at = 0;
    loop {
        while at < bytes.len() && blank(bytes[at]) {
            at += 1;
        }
        if at == bytes.len() {
            break;
        }
        let from = at;
        while at < bytes.len() && !blank(bytes[at]) {
            at += 1;
        }
        tokens.push(Token {
            text: &content[from..at],
            column: column(from),
        });
    }
    Split {
        content,
        comment,
        tokens,
        indented: content.starts_with([' ', '\t']),
    }
}

/// The key of a `key: value` line and the value's tokens, when the line is
/// one: the text before the first `:` is a key when it is words of letters
/// (`team time`, `A start`) or an `x-` name. Turn lines, whose `:` is inside
/// an item or a duration, are not.
pub fn key_value<'a>(split: &Split<'a>) -> Option<(String, Vec<Token<'a>>, usize)> {
    let content = split.content;
    let colon = content.find(':')?;
    let key = content[..colon].trim();
    let is_key = if let Some(name) = key.strip_prefix("x-") {
        !name.is_empty() && !name.contains([' ', '\t'])
    } else {
        !key.is_empty() && key.chars().all(|c| c.is_ascii_alphabetic() || c == ' ')
    };
    if !is_key {
        return None;
    }
    let key_column = split.tokens.first().map_or(1, |token| token.column);
    let words: Vec<&str> = key.split_whitespace().collect();
    let value: Vec<Token<'a>> = split
        .tokens
        .iter()
        .copied()
        .skip_while(|token| !token.text.contains(':'))
        .enumerate()
        .filter_map(|(i, token)| {
            if i > 0 {
                return Some(token);
            }
            // The token holding the colon: whatever follows it is the
            // first word of the value (`first:A`).
            let colon = token.text.find(':')? + 1;
            let after = &token.text[colon..];
            (!after.is_empty()).then(|| Token {
                text: after,
                column: token.column + token.text[..colon].chars().count(),
            })
        })
        .collect();
    Some((words.join(" "), value, key_column))
}

/// A duration in ms (§7.1, §11.2): `2.5` (seconds, at most three
/// decimals) or `1:02.5` (minutes, two-digit seconds 00 to 59). Read in one
/// pass over the bytes: every turn line has one.
pub fn duration(text: &str) -> Option<u64> {
    let bytes = text.as_bytes();
    let mut at = 0;
    // A run of digits from `at`: its value and length.
    let number = |at: &mut usize| -> Option<(u64, usize)> {
        let start = *at;
        let mut value: u64 = 0;
        while let Some(&byte) = bytes.get(*at).filter(|byte| byte.is_ascii_digit()) {
            value = value.checked_mul(10)?.checked_add(u64::from(byte - b'0'))?;
            *at += 1;
        }
        (*at > start).then_some((value, *at - start))
    };
    let (first, _) = number(&mut at)?;
    let seconds = if bytes.get(at) == Some(&b':') {
        at += 1;
        let (seconds, digits) = number(&mut at)?;
        if digits != 2 || seconds > 59 {
            return None;
        }
        first.checked_mul(60)?.checked_add(seconds)?
    } else {
        first
    };
    let thousandths = if bytes.get(at) == Some(&b'.') {
        at += 1;
        let (fraction, digits) = number(&mut at)?;
        // `5` is 500 ms, `05` 50, `005` 5.
        fraction * [100, 10, 1].get(digits - 1).copied()?
    } else {
        0
    };
    if at != bytes.len() {
        return None;
    }
    seconds.checked_mul(1000)?.checked_add(thousandths)
}

/// True when `text` is a run of ASCII digits, whatever number it makes (a
/// turn number too large is still meant as one, and named so).
fn is_digits(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit())
}

/// A run of ASCII digits as a number.
pub fn digits(text: &str) -> Option<u64> {
    whole(text).ok()
}

/// Why a token is not a whole number of the type asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum NumberError {
    /// Not a run of ASCII digits.
    NotDigits,
    /// Digits, but more than the type holds: never read as another number.
    TooLarge,
}

/// A run of ASCII digits as a `T`, refused whole when it does not fit.
pub fn whole<T: TryFrom<u64>>(text: &str) -> Result<T, NumberError> {
    if !is_digits(text) {
        return Err(NumberError::NotDigits);
    }
    text.parse::<u64>()
        .ok()
        .and_then(|n| T::try_from(n).ok())
        .ok_or(NumberError::TooLarge)
}

/// A cell of a field of `size` (§10.6.7: a lowercase letter and digits is a
/// cell name, E-CELL when the field has no such cell; anything else is
/// E-SYNTAX).
pub fn cell(token: Token<'_>, size: Size, text: &str) -> Result<Cell, LineError> {
    let off_field = || {
        LineError::new(
            Code::Cell,
            format!("{text} is not a cell of the {size} field (§1.2)"),
            token.column,
        )
    };
    match Cell::parse(text) {
        Ok(cell) if size.contains(cell) => Ok(cell),
        Ok(_) | Err(CellNameError::OffEveryField) => Err(off_field()),
        Err(CellNameError::BadRow) => Err(LineError::new(
            Code::Cell,
            format!("{text} is not a cell name: rows are numbered from 1, without leading zeros (§11.2)"),
            token.column,
        )),
        Err(CellNameError::NotACellName) => Err(LineError::syntax(
            format!("expected a cell such as b3, found {text:?}"),
            token.column,
        )),
    }
}

/// True when a token is an item: a cell name, then optionally `:N` or `xN`.
fn looks_like_item(text: &str) -> bool {
    let mut chars = text.chars();
    chars.next().is_some_and(|c| c.is_ascii_lowercase())
        && chars.next().is_some_and(|c| c.is_ascii_digit())
}

/// One entry of a clear or place: `b3`, `b3:2`, or the short `b3x2`.
fn item(token: Token<'_>, size: Size) -> Result<Item, LineError> {
    let text = token.text;
    // After the column letter (which may itself be an x): `x3x2` is x3, 2.
    let split_at = text
        .get(1..)
        .and_then(|rest| rest.find([':', 'x']))
        .map(|at| at + 1);
    let (name, count) = match split_at {
        Some(at) => (&text[..at], Some(&text[at + 1..])),
        None => (text, None),
    };
    let cell = cell(token, size, name)?;
    let count = match count {
        None => 1,
        Some(count) => match whole::<u32>(count) {
            Ok(n) if n >= 1 => n,
            Err(NumberError::TooLarge) => {
                return Err(LineError::syntax(
                    format!(
                        "{text:?}: {count} objects do not fit in a count, at most {} (§11.2)",
                        u32::MAX
                    ),
                    token.column,
                ))
            }
            _ => {
                return Err(LineError::syntax(
                    format!("{text:?}: the number of objects is a whole number from 1"),
                    token.column,
                ))
            }
        },
    };
    Ok(Item { cell, count })
}

/// A turn line, read (§11.2): `[N.] TEAM (DURATION STEPS | timeout)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnLine {
    /// The written turn number, if any.
    pub number: Option<u32>,
    /// The team as written.
    pub team: Team,
    /// What the turn did.
    pub play: Play,
}

/// Whether `text` is a step's word, long or short.
fn is_step_word(text: &str) -> bool {
    matches!(
        text,
        "clear" | "c" | "place" | "p" | "move" | "m" | "pass" | "-" | "empty" | "e"
    )
}

/// The column of each step's word of a turn line that reads (see
/// [`turn`]), and of each cell after it: where messages about a step or an
/// entry point. Worked out again only when there is something to say.
pub fn step_columns(split: &Split<'_>) -> Vec<(usize, Vec<usize>)> {
    let mut columns: Vec<(usize, Vec<usize>)> = Vec::new();
    let first_step = split
        .tokens
        .iter()
        .position(|token| is_step_word(token.text))
        .unwrap_or(split.tokens.len());
    for token in &split.tokens[first_step..] {
        match columns.last_mut() {
            Some((_, cells)) if !is_step_word(token.text) => cells.push(token.column),
            _ => columns.push((token.column, Vec::new())),
        }
    }
    columns
}

/// The team a turn line names, before the rest is read: the team of
/// messages about the line (§10.6.4).
pub fn turn_team(split: &Split<'_>) -> Option<Team> {
    let mut tokens = split.tokens.iter();
    let first = tokens.next()?;
    let team = if first.text.ends_with('.') && is_digits(&first.text[..first.text.len() - 1]) {
        tokens.next()?
    } else {
        first
    };
    Team::from_letter(team.text)
}

/// True when a line looks like a turn: a team letter, or a turn number and
/// a dot, first.
pub fn is_turn(split: &Split<'_>) -> bool {
    let mut tokens = split.tokens.iter();
    let Some(first) = tokens.next() else {
        return false;
    };
    if first.text.ends_with('.') && is_digits(&first.text[..first.text.len() - 1]) {
        return true;
    }
    // `A 3.0 …` or `A timeout`, but not `A start: …` or `A: name`.
    Team::from_letter(first.text).is_some()
        && tokens.next().is_none_or(|second| {
            second.text == "timeout" || second.text.starts_with(|c: char| c.is_ascii_digit())
        })
}

/// Reads a turn line of a game on a field of `size`.
pub fn turn(split: &Split<'_>, size: Size) -> Result<TurnLine, LineError> {
    let tokens = &split.tokens;
    let mut at = 0;
    let mut number = None;
    if let Some(first) = tokens.first() {
        if let Some(digits_part) = first.text.strip_suffix('.') {
            let n = whole::<u32>(digits_part).map_err(|error| {
                let why = match error {
                    NumberError::TooLarge => " (too large)",
                    NumberError::NotDigits => "",
                };
                LineError::syntax(
                    format!("bad turn number {:?}{why}", first.text),
                    first.column,
                )
            })?;
            number = Some(n);
            at = 1;
        }
    }
    let Some(team_token) = tokens.get(at) else {
        let column = tokens.last().map_or(1, |token| token.column);
        return Err(LineError::syntax("expected a team, A or B", column));
    };
    let team = Team::from_letter(team_token.text).ok_or_else(|| {
        LineError::syntax(
            format!("expected a team, A or B, found {:?}", team_token.text),
            team_token.column,
        )
    })?;
    at += 1;
    let Some(next) = tokens.get(at) else {
        return Err(LineError::syntax(
            "expected a duration or timeout after the team",
            team_token.column + team_token.text.chars().count() + 1,
        ));
    };
    if next.text == "timeout" {
        if let Some(extra) = tokens.get(at + 1) {
            return Err(LineError::syntax(
                format!("nothing may follow timeout, found {:?}", extra.text),
                extra.column,
            ));
        }
        return Ok(TurnLine {
            number,
            team,
            play: Play::Timeout,
        });
    }
    let duration = duration(next.text).ok_or_else(|| {
        LineError::syntax(format!("bad duration {:?} (§7.1)", next.text), next.column)
    })?;
    at += 1;
    let mut steps = Vec::new();
    while let Some(word) = tokens.get(at) {
        at += 1;
        let step = match word.text {
            "clear" | "c" | "place" | "p" => {
                let mut items = Vec::new();
                while let Some(token) = tokens.get(at).filter(|token| looks_like_item(token.text)) {
                    items.push(item(*token, size)?);
                    at += 1;
                }
                if items.is_empty() {
                    return Err(LineError::syntax(
                        format!("{} needs at least one cell", word.text),
                        word.column,
                    ));
                }
                if matches!(word.text, "clear" | "c") {
                    Step::Clear(items)
                } else {
                    Step::Place(items)
                }
            }
            "move" | "m" => {
                let Some(target) = tokens.get(at) else {
                    return Err(LineError::syntax("move needs a cell", word.column));
                };
                at += 1;
                Step::Move(cell(*target, size, target.text)?)
            }
            "pass" | "-" => Step::Pass,
            "empty" | "e" => Step::Empty,
            other => {
                return Err(LineError::syntax(
                    format!("unknown step {other:?}: expected clear, place, move, pass or empty"),
                    word.column,
                ))
            }
        };
        steps.push(step);
    }
    Ok(TurnLine {
        number,
        team,
        play: Play::Steps { duration, steps },
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIVE: Size = Size {
        rows: 5,
        columns: 5,
    };

    #[test]
    fn lines_split_into_tokens_with_columns_and_a_comment() {
        let line = split(" 1. A 3.0 clear b1:2 a2:2      # two cells claimed");
        let words: Vec<(&str, usize)> = line.tokens.iter().map(|t| (t.text, t.column)).collect();
        assert_eq!(
            words,
            [
                ("1.", 2),
                ("A", 5),
                ("3.0", 7),
                ("clear", 11),
                ("b1:2", 17),
                ("a2:2", 22)
            ]
        );
        assert_eq!(line.comment, Some("two cells claimed"));
        assert!(line.indented);
        assert_eq!(split("event: a # b").comment, Some("b"));
    }

    #[test]
    fn durations_take_both_forms() {
        assert_eq!(duration("2.5"), Some(2500));
        assert_eq!(duration("3"), Some(3000));
        assert_eq!(duration("0:02.700"), Some(2700));
        assert_eq!(duration("1:02.5"), Some(62_500));
        assert_eq!(duration("0.001"), Some(1));
        for bad in [
            "2,5", ".5", "1.2345", "1:2.5", "1:60", "-1", "", "1.", "a", "1:02:03",
        ] {
            assert_eq!(duration(bad), None, "{bad}");
        }
    }

    #[test]
    fn keys_are_words_of_letters_and_turns_are_not_keys() {
        let key = |line: &str| {
            key_value(&split(line)).map(|(key, value, _)| {
                (
                    key,
                    value.iter().map(|t| t.text.to_string()).collect::<Vec<_>>(),
                )
            })
        };
        assert_eq!(
            key("team time: 20"),
            Some(("team time".into(), vec!["20".into()]))
        );
        assert_eq!(
            key("B start: d4* d2"),
            Some(("B start".into(), vec!["d4*".into(), "d2".into()]))
        );
        assert_eq!(key("first:A"), Some(("first".into(), vec!["A".into()])));
        assert_eq!(
            key("x-venue2: hall"),
            Some(("x-venue2".into(), vec!["hall".into()]))
        );
        assert_eq!(key("field:"), Some(("field".into(), vec![])));
        assert_eq!(key("A 3.0 clear b1:2"), None);
        assert_eq!(key("1. A 0:03 pass"), None);
    }

    #[test]
    fn turns_read_in_long_and_short_forms() {
        let read = |line: &str| turn(&split(line), FIVE);
        let long = read(" 3. A 4.0 pass empty").unwrap();
        assert_eq!(long.number, Some(3));
        assert_eq!(
            long.play,
            Play::Steps {
                duration: 4000,
                steps: vec![Step::Pass, Step::Empty]
            }
        );
        let short = read("B 2 c b3x2 a1 e").unwrap();
        let Play::Steps { steps, .. } = short.play else {
            panic!("steps")
        };
        assert_eq!(steps.len(), 2);
        assert_eq!(
            steps[0],
            Step::Clear(vec![
                Item {
                    cell: Cell::parse("b3").unwrap(),
                    count: 2
                },
                Item {
                    cell: Cell::parse("a1").unwrap(),
                    count: 1
                }
            ])
        );
        assert_eq!(read("A timeout").unwrap().play, Play::Timeout);
        let no_steps = read("A 0.5").unwrap();
        assert_eq!(
            no_steps.play,
            Play::Steps {
                duration: 500,
                steps: vec![]
            }
        );
    }

    #[test]
    fn bad_turns_name_the_token() {
        let error = |line: &str| turn(&split(line), FIVE).unwrap_err();
        let bad = error("27. B 2,5 clear d2:3");
        assert_eq!((bad.code, bad.column), (Code::Syntax, Some(7)));
        assert_eq!(bad.message, "bad duration \"2,5\" (§7.1)");
        let outside = error("B 5.0 clear a12x2 b4 empty");
        assert_eq!((outside.code, outside.column), (Code::Cell, Some(13)));
        assert_eq!(outside.message, "a12 is not a cell of the 5x5 field (§1.2)");
        assert_eq!(error("A 1 clear b1:0").code, Code::Syntax);
        assert_eq!(error("A 1 Clear b1").code, Code::Syntax);
        assert_eq!(error("A 1 move B2").code, Code::Syntax);
        assert_eq!(error("C 1 pass").code, Code::Syntax);
        assert_eq!(error("A timeout pass").code, Code::Syntax);
        assert_eq!(
            step_columns(&split("12. A 2 clear b1 c1:2 empty")),
            [(9, vec![15, 18]), (23, vec![])]
        );
        assert_eq!(error("A 1 clear").code, Code::Syntax);
    }
}
