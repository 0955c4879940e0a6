//! What a reading finds besides events: diagnostics with their places
//! (§10.1), and the sinks they and the events are handed to.

use std::fmt;

use crate::model::code::Code;
use crate::model::event::Entry;
use crate::model::team::{Role, Team};

/// An error or warning, and where it is (§10.1, §10.6.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The code of §10 that names the problem, which sets its severity
    /// and the exit status.
    pub code: Code,
    /// What, ending with the section.
    pub message: String,
    /// The line, from 1.
    pub line: Option<usize>,
    /// The column, from 1.
    pub column: Option<usize>,
    /// The game section the line is in.
    pub game: Option<u8>,
    /// On a turn line, its place in the game (turns so far + 1).
    pub turn: Option<u32>,
    /// On a turn line, the team as written.
    pub team: Option<Team>,
    /// That team's role in the game, when the game has started.
    pub role: Option<Role>,
}

impl Diagnostic {
    /// The one-line message of §10.1, for the file named `file`:
    /// `match.ktz:37:14: error[E-NOT-ADJACENT] game 1, turn 14, B (second): …`.
    pub fn line_for(&self, file: &str) -> String {
        let mut text = file.to_string();
        if let Some(line) = self.line {
            text += &format!(":{line}");
            if let Some(column) = self.column {
                text += &format!(":{column}");
            }
        }
        let kind = if self.code.severity() == crate::model::code::Severity::Warning {
            "warning"
        } else {
            "error"
        };
        text += &format!(": {kind}[{}] ", self.code);
        let mut context = Vec::new();
        if let Some(game) = self.game {
            context.push(format!("game {game}"));
        }
        if let Some(turn) = self.turn {
            context.push(format!("turn {turn}"));
        }
        if let Some(team) = self.team {
            context.push(match self.role {
                Some(role) => format!("{team} ({})", role.name()),
                None => team.to_string(),
            });
        }
        if !context.is_empty() {
            text += &context.join(", ");
            text += ": ";
        }
        text + &self.message
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.line_for("match"))
    }
}

/// What reading a log found besides its events.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Verdict {
    /// The first problem, if any: reading stopped there.
    pub error: Option<Diagnostic>,
    /// Warnings in file order (strict: only those before the error).
    pub warnings: Vec<Diagnostic>,
    /// Under `--illegal=pass`, every illegal turn, in order.
    pub illegal: Vec<Diagnostic>,
}

impl Verdict {
    /// The exit status of §14: 0 valid, 2 malformed, 3 a rule broken.
    pub fn exit_status(&self) -> u8 {
        self.error
            .as_ref()
            .map_or(0, |error| error.code.exit_status())
    }
}

/// Where a log's findings go as the reader finds them: every event, and
/// every warning and illegal turn, in file order. A sink that keeps
/// nothing lets a log of millions of turns be refereed in flat memory.
pub trait Sink {
    /// An event of the match.
    fn entry(&mut self, entry: &Entry);
    /// A warning, or under `--illegal=pass` an illegal turn (§10.5).
    fn diagnostic(&mut self, diagnostic: &Diagnostic);
}

/// What reading a log into a [`Sink`] leaves besides what went to it: the
/// problem reading stopped at, and how many warnings and illegal turns
/// were handed on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// The first problem, if any: reading stopped there.
    pub error: Option<Diagnostic>,
    /// Warnings handed on.
    pub warnings: usize,
    /// Illegal turns handed on.
    pub illegal: usize,
}

impl Tally {
    /// The exit status of §14: 0 valid, 2 malformed, 3 a rule broken.
    pub fn exit_status(&self) -> u8 {
        self.error
            .as_ref()
            .map_or(0, |error| error.code.exit_status())
    }
}

/// A [`Sink`] made of two closures: one given every event, one every
/// diagnostic.
pub struct Handlers<R, D> {
    /// Given every event.
    pub entries: R,
    /// Given every warning and illegal turn.
    pub diagnostics: D,
}

impl<R: FnMut(&Entry), D: FnMut(&Diagnostic)> Sink for Handlers<R, D> {
    fn entry(&mut self, entry: &Entry) {
        (self.entries)(entry);
    }

    fn diagnostic(&mut self, diagnostic: &Diagnostic) {
        (self.diagnostics)(diagnostic);
    }
}
