//! Parameter lines (§2.1, §11.2): the header's and a game's overrides,
//! and the rows of a field.

use std::collections::BTreeSet;

use super::{header_error, syntax, Problem};
use crate::log::lines::{self, LineError, Split, Token};
use crate::model::code::Code;
use crate::model::field::Field;
use crate::model::params::{Stock, CAPACITIES, GAME_TIMES, STOCKS, TEAM_TIMES};

/// Parameters given so far, in the header or a game's overrides.
#[derive(Clone, Debug, Default)]
pub(super) struct Given {
    pub(super) field: Option<Field>,
    pub(super) capacity: Option<u32>,
    pub(super) stock: Option<Stock>,
    pub(super) team_time: Option<u64>,
    pub(super) game_time: Option<u64>,
    /// Keys seen, for duplicates.
    pub(super) keys: BTreeSet<String>,
    /// The line of `field:`, for W-FIELD-DIFFERS.
    pub(super) field_line: Option<usize>,
}

/// A field being read: the line of `field:` and the rows so far.
/// A field row: numbers 0 to 99, `.` for 0.
pub(super) fn row(split: &Split<'_>) -> Result<Vec<u32>, Problem> {
    split
        .tokens
        .iter()
        .map(|token| {
            if token.text == "." {
                return Ok(0);
            }
            let count = lines::digits(token.text).ok_or_else(|| {
                syntax(
                    format!("a field row holds counts, found {:?}", token.text),
                    token.column,
                )
            })?;
            u32::try_from(count)
                .ok()
                .filter(|&count| count <= crate::model::field::MAX_COUNT)
                .ok_or_else(|| {
                    Problem::Line(LineError::new(
                        Code::Field,
                        format!("a count is 0 to 99; found {count} (§2.1)"),
                        token.column,
                    ))
                })
        })
        .collect()
}

/// What reading a parameter line did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum ParamRead {
    /// The parameter is set.
    Set,
    /// `field:`: its rows are on the lines that follow.
    FieldRowsFollow,
}

/// A parameter line of the header or a game's overrides (`place`, for
/// messages).
pub(super) fn param_line(
    given: &mut Given,
    key: &str,
    value: &[Token<'_>],
    column: usize,
    place: &str,
) -> Result<ParamRead, Problem> {
    let param = |message: String, at: Option<&Token<'_>>| {
        Problem::Line(LineError::new(
            Code::Param,
            message,
            at.map_or(column, |token| token.column),
        ))
    };
    let integers = |name: &str| -> Result<Vec<u32>, Problem> {
        value
            .iter()
            .map(|token| {
                lines::whole::<u32>(token.text).map_err(|error| {
                    let what = match error {
                        lines::NumberError::NotDigits => "is not a whole number",
                        lines::NumberError::TooLarge => "is too large a number",
                    };
                    syntax(format!("{name}: {:?} {what}", token.text), token.column)
                })
            })
            .collect()
    };
    let time =
        |name: &str, range: std::ops::RangeInclusive<u64>, seconds: u64| -> Result<u64, Problem> {
            let message = format!("{name} must be 0.001..{seconds} s (§2.1)");
            match value {
                [token] => {
                    let ms = lines::duration(token.text).ok_or_else(|| {
                        syntax(
                            format!("{name}: bad duration {:?} (§7.1)", token.text),
                            token.column,
                        )
                    })?;
                    if range.contains(&ms) {
                        Ok(ms)
                    } else {
                        Err(param(message, Some(token)))
                    }
                }
                _ => Err(param(message, value.first())),
            }
        };
    match key {
        "capacity" => {
            let numbers = integers("capacity")?;
            match numbers.as_slice() {
                [capacity] if CAPACITIES.contains(capacity) => given.capacity = Some(*capacity),
                _ => {
                    return Err(param(
                        "capacity must be one number 1..999 (§2.1)".into(),
                        value.first(),
                    ))
                }
            }
        }
        "stock" => {
            let numbers = integers("stock")?;
            let fits = numbers.iter().all(|n| STOCKS.contains(n));
            given.stock = match numbers.as_slice() {
                [both] if fits => Some(Stock {
                    first: *both,
                    second: *both,
                }),
                [first, second] if fits => Some(Stock {
                    first: *first,
                    second: *second,
                }),
                _ => return Err(param(
                    "stock must be one or two numbers 0..99 (first team's, then second's) (§2.1)"
                        .into(),
                    value.first(),
                )),
            };
        }
        "team time" => given.team_time = Some(time("team time", TEAM_TIMES, 3600)?),
        "game time" => given.game_time = Some(time("game time", GAME_TIMES, 7200)?),
        "field" => {
            if let Some(extra) = value.first() {
                return Err(syntax(
                    "the field's rows go on the lines after `field:`",
                    extra.column,
                ));
            }
            return Ok(ParamRead::FieldRowsFollow);
        }
        other => {
            return Err(header_error(
                format!("unknown key \"{other}\" in {place} (§10.2)"),
                column,
            ));
        }
    }
    Ok(ParamRead::Set)
}
