//! Parameter lines (§2.1, §11.2): the header's and a game's overrides,
//! and the rows of a field.

use std::collections::BTreeSet;

use super::{header_error, syntax, Problem};
use crate::log::lines::{self, LineError, Split, Token};
use crate::model::code::Code;
use crate::model::field::Field;
use crate::model::params::{
    check_capacity, check_game_time, check_stock, check_team_time, ParamError, Stock,
};

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
    // The ranges and their messages are the parameters' own (model::params),
    // so that a match set up in code is held to the same ones.
    let out_of_range = |error: ParamError| param(error.to_string(), value.first());
    let time =
        |name: &str, check: fn(u64) -> Result<u64, ParamError>, error: ParamError| match value {
            [token] => {
                let ms = lines::duration(token.text).ok_or_else(|| {
                    syntax(
                        format!("{name}: bad duration {:?} (§7.1)", token.text),
                        token.column,
                    )
                })?;
                check(ms).map_err(out_of_range)
            }
            _ => Err(out_of_range(error)),
        };
    match key {
        "capacity" => {
            let numbers = integers("capacity")?;
            let capacity = match numbers.as_slice() {
                [capacity] => check_capacity(*capacity),
                _ => Err(ParamError::Capacity),
            };
            given.capacity = Some(capacity.map_err(out_of_range)?);
        }
        "stock" => {
            let numbers = integers("stock")?;
            let stock = match numbers.as_slice() {
                [both] => check_stock(*both).map(|both| Stock {
                    first: both,
                    second: both,
                }),
                [first, second] => check_stock(*first).and_then(|first| {
                    Ok(Stock {
                        first,
                        second: check_stock(*second)?,
                    })
                }),
                _ => Err(ParamError::Stock),
            };
            given.stock = Some(stock.map_err(out_of_range)?);
        }
        "team time" => {
            given.team_time = Some(time("team time", check_team_time, ParamError::TeamTime)?)
        }
        "game time" => {
            given.game_time = Some(time("game time", check_game_time, ParamError::GameTime)?)
        }
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
