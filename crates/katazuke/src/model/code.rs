//! The names of what can be wrong with a match record (§10.2–§10.4): the
//! codes every message and report carries.

use std::fmt;

use serde::{Deserialize, Serialize};

/// An error or a warning of §10, as `E-…` or `W-…`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
pub enum Code {
    /// An unknown token, a bad number.
    #[serde(rename = "E-SYNTAX")]
    Syntax,
    /// A missing, duplicate or unknown key.
    #[serde(rename = "E-HEADER")]
    Header,
    /// Ragged rows, a bad size, a count out of range.
    #[serde(rename = "E-FIELD")]
    Field,
    /// Not a cell of the field.
    #[serde(rename = "E-CELL")]
    Cell,
    /// A parameter out of range.
    #[serde(rename = "E-PARAM")]
    Param,
    /// Start cells that are not 1 + 2 distinct cells with one current
    /// mark for the second team.
    #[serde(rename = "E-START")]
    Start,
    /// Game 2's first team is game 1's.
    #[serde(rename = "E-FIRST")]
    First,
    /// Not exactly two games.
    #[serde(rename = "E-GAMES")]
    Games,
    /// The turn's team is not the team to move.
    #[serde(rename = "E-TEAM")]
    Team,
    /// A written turn number that is not the next one.
    #[serde(rename = "E-TURN-NUMBER")]
    TurnNumber,
    /// No action, or two.
    #[serde(rename = "E-ACTIONS")]
    Actions,
    /// Two emptyings in one turn.
    #[serde(rename = "E-EMPTY-TWICE")]
    EmptyTwice,
    /// A clear after the container was emptied in the same turn.
    #[serde(rename = "E-CLEAR-AFTER-EMPTY")]
    ClearAfterEmpty,
    /// A clear or place without a current territory.
    #[serde(rename = "E-NO-CURRENT")]
    NoCurrent,
    /// A cell not adjacent to the current territory.
    #[serde(rename = "E-NOT-ADJACENT")]
    NotAdjacent,
    /// A cell listed twice in one clear or place.
    #[serde(rename = "E-DUP-CELL")]
    DupCell,
    /// More objects than the cell holds.
    #[serde(rename = "E-TOO-MANY")]
    TooMany,
    /// More than the container holds.
    #[serde(rename = "E-CAPACITY")]
    Capacity,
    /// More than the stock left.
    #[serde(rename = "E-STOCK")]
    Stock,
    /// A move to a cell that is not the team's.
    #[serde(rename = "E-MOVE-NOT-OWN")]
    MoveNotOwn,
    /// A move to the current territory itself.
    #[serde(rename = "E-MOVE-SAME")]
    MoveSame,
    /// A turn after the game ended.
    #[serde(rename = "E-AFTER-END")]
    AfterEnd,
    /// A game that stops before its end.
    #[serde(rename = "E-UNFINISHED")]
    Unfinished,
    /// A claimed result or winner that is not the referee's.
    #[serde(rename = "E-RESULT-MISMATCH")]
    ResultMismatch,
    /// A turn finished after the time had run out.
    #[serde(rename = "W-OVERTIME")]
    Overtime,
    /// An emptying of an empty container.
    #[serde(rename = "W-EMPTY-NOOP")]
    EmptyNoop,
    /// A completed turn of 0 s.
    #[serde(rename = "W-ZERO-DURATION")]
    ZeroDuration,
    /// The two games' fields differ.
    #[serde(rename = "W-FIELD-DIFFERS")]
    FieldDiffers,
    /// A janken recorded but not needed.
    #[serde(rename = "W-JANKEN-UNUSED")]
    JankenUnused,
}

/// How bad a code is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// The log is malformed (exit status 2, §10.2).
    Malformed,
    /// A rule is broken (exit status 3, §10.3).
    Violation,
    /// Printed; the exit status is unchanged (§10.4).
    Warning,
}

impl Code {
    /// As written in messages and JSON: `E-NOT-ADJACENT`.
    pub const fn name(self) -> &'static str {
        match self {
            Code::Syntax => "E-SYNTAX",
            Code::Header => "E-HEADER",
            Code::Field => "E-FIELD",
            Code::Cell => "E-CELL",
            Code::Param => "E-PARAM",
            Code::Start => "E-START",
            Code::First => "E-FIRST",
            Code::Games => "E-GAMES",
            Code::Team => "E-TEAM",
            Code::TurnNumber => "E-TURN-NUMBER",
            Code::Actions => "E-ACTIONS",
            Code::EmptyTwice => "E-EMPTY-TWICE",
            Code::ClearAfterEmpty => "E-CLEAR-AFTER-EMPTY",
            Code::NoCurrent => "E-NO-CURRENT",
            Code::NotAdjacent => "E-NOT-ADJACENT",
            Code::DupCell => "E-DUP-CELL",
            Code::TooMany => "E-TOO-MANY",
            Code::Capacity => "E-CAPACITY",
            Code::Stock => "E-STOCK",
            Code::MoveNotOwn => "E-MOVE-NOT-OWN",
            Code::MoveSame => "E-MOVE-SAME",
            Code::AfterEnd => "E-AFTER-END",
            Code::Unfinished => "E-UNFINISHED",
            Code::ResultMismatch => "E-RESULT-MISMATCH",
            Code::Overtime => "W-OVERTIME",
            Code::EmptyNoop => "W-EMPTY-NOOP",
            Code::ZeroDuration => "W-ZERO-DURATION",
            Code::FieldDiffers => "W-FIELD-DIFFERS",
            Code::JankenUnused => "W-JANKEN-UNUSED",
        }
    }

    /// Malformed, a violation, or a warning.
    pub const fn severity(self) -> Severity {
        match self {
            Code::Syntax
            | Code::Header
            | Code::Field
            | Code::Cell
            | Code::Param
            | Code::Start
            | Code::First
            | Code::Games => Severity::Malformed,
            Code::Overtime
            | Code::EmptyNoop
            | Code::ZeroDuration
            | Code::FieldDiffers
            | Code::JankenUnused => Severity::Warning,
            _ => Severity::Violation,
        }
    }

    /// True for the rules of a turn's steps (§4.3, §5), which
    /// `--illegal=pass` turns into passes (§10.6.2).
    pub const fn is_step_rule(self) -> bool {
        matches!(
            self,
            Code::Actions
                | Code::EmptyTwice
                | Code::ClearAfterEmpty
                | Code::NoCurrent
                | Code::NotAdjacent
                | Code::DupCell
                | Code::TooMany
                | Code::Capacity
                | Code::Stock
                | Code::MoveNotOwn
                | Code::MoveSame
        )
    }

    /// The exit status of a log that stops on this code (§14): 2 malformed,
    /// 3 a rule broken; 0 for a warning.
    pub const fn exit_status(self) -> u8 {
        match self.severity() {
            Severity::Malformed => 2,
            Severity::Violation => 3,
            Severity::Warning => 0,
        }
    }

    /// Every code, in the order of §10.
    pub const ALL: [Code; 29] = [
        Code::Syntax,
        Code::Header,
        Code::Field,
        Code::Cell,
        Code::Param,
        Code::Start,
        Code::First,
        Code::Games,
        Code::Team,
        Code::TurnNumber,
        Code::Actions,
        Code::EmptyTwice,
        Code::ClearAfterEmpty,
        Code::NoCurrent,
        Code::NotAdjacent,
        Code::DupCell,
        Code::TooMany,
        Code::Capacity,
        Code::Stock,
        Code::MoveNotOwn,
        Code::MoveSame,
        Code::AfterEnd,
        Code::Unfinished,
        Code::ResultMismatch,
        Code::Overtime,
        Code::EmptyNoop,
        Code::ZeroDuration,
        Code::FieldDiffers,
        Code::JankenUnused,
    ];
}

impl fmt::Display for Code {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_those_of_the_spec_and_json_agrees() {
        for code in Code::ALL {
            let json = serde_json::to_string(&code).unwrap();
            assert_eq!(json, format!("\"{}\"", code.name()));
            assert_eq!(serde_json::from_str::<Code>(&json).unwrap(), code);
        }
        assert_eq!(Code::NotAdjacent.exit_status(), 3);
        assert_eq!(Code::Cell.exit_status(), 2);
        assert_eq!(Code::Overtime.severity(), Severity::Warning);
        assert!(Code::MoveSame.is_step_rule());
        assert!(!Code::Team.is_step_rule());
    }
}
