//! Reads a `.ktz` match log from the top and referees it as it goes
//! (§10.6.3): each line is read, checked where it stands, and its turns
//! are played by the referee, whose events go to a sink. The first problem
//! found, malformed (§10.2) or a rule broken (§10.3), is the one reported.

mod diagnostic;
mod params;
mod sections;

use super::lines::{self, LineError, Split};
use crate::model::code::Code;
use crate::model::event::{Entry, Event};
use crate::model::field::{Cell, Field, FieldError};
use crate::model::params::Params;
use crate::model::setup::Setup;
use crate::model::team::{PerTeam, Role, Team};
use crate::rules::game::{GameReferee, Policy};
use crate::rules::legality::Violation;
use crate::rules::result::GameResult;
use edge::{BYTE_ORDER_MARK, MAX_LINE_BYTES};

pub use diagnostic::{Diagnostic, Handlers, Sink, Tally, Verdict};
use params::{row, Given};
use sections::column_of;

/// The longest team name accepted, in characters (§1.1).
pub const MAX_NAME_CHARS: usize = 40;

/// A sink that keeps the diagnostics for a [`Verdict`] and hands the
/// events to a closure.
struct Collecting<F> {
    entries: F,
    warnings: Vec<Diagnostic>,
    illegal: Vec<Diagnostic>,
}

impl<F: FnMut(&Entry)> Sink for Collecting<F> {
    fn entry(&mut self, entry: &Entry) {
        (self.entries)(entry);
    }

    fn diagnostic(&mut self, diagnostic: &Diagnostic) {
        if diagnostic.code.severity() == crate::model::code::Severity::Warning {
            self.warnings.push(diagnostic.clone());
        } else {
            self.illegal.push(diagnostic.clone());
        }
    }
}

#[derive(Debug)]
struct FieldRows {
    line: usize,
    rows: Vec<Vec<u32>>,
    in_game: bool,
}

/// A game section.
struct GameSection {
    number: u8,
    line: usize,
    given: Given,
    first: Option<(Team, Params)>,
    /// Start lines read: the team, its cells and which is current.
    starts: Vec<(Team, Vec<Cell>, Option<Cell>)>,
    referee: Option<GameReferee>,
    /// A `result:` line has closed it.
    closed: bool,
}

enum Section {
    /// Before `katazuke 1`.
    Version,
    Header,
    Game(Box<GameSection>),
    /// After both games: `winner:` and `janken:`.
    End,
}

/// Reads a log and referees it, sending every event to `sink`.
pub struct Reader<'s, S: Sink + ?Sized> {
    policy: Policy,
    sink: &'s mut S,
    section: Section,
    header: Given,
    names: PerTeam<Option<String>>,
    field: Option<FieldRows>,
    /// Game 1's first team and field, once known.
    game_1: Option<(Team, Field)>,
    results: Vec<GameResult>,
    winner_claim: Option<(usize, usize, Option<Team>)>,
    janken: Option<(usize, Team)>,
    tally: Tally,
    line: usize,
    last_line: usize,
    /// Reading a setup (see [`read_setup`]): games may stop anywhere, and
    /// the header alone is enough.
    setup: bool,
}

/// Reads `text`, a whole log, under `policy`, and referees it: the events
/// go to `sink` as they happen, the rest is in the verdict.
pub fn read(text: &[u8], policy: Policy, sink: impl FnMut(&Entry)) -> Verdict {
    read_collecting(text, policy, false, sink)
}

/// Reads `text`, a whole log, under `policy`, and referees it, handing
/// every event and diagnostic to `sink` as it is found: nothing is kept
/// for the caller but the [`Tally`].
pub fn read_into(text: &[u8], policy: Policy, sink: &mut dyn Sink) -> Tally {
    read_as(text, policy, false, sink)
}

/// Reads a log that may stop anywhere (a game being played, a position to
/// study, §15.2): as [`read`], except that a game may stop before its end,
/// and the file after the header or after game 1.
pub fn read_unfinished(text: &[u8], policy: Policy, sink: impl FnMut(&Entry)) -> Verdict {
    read_collecting(text, policy, true, sink)
}

/// [`read_unfinished`] into a [`Sink`], as [`read_into`] is to [`read`].
pub fn read_unfinished_into(text: &[u8], policy: Policy, sink: &mut dyn Sink) -> Tally {
    read_as(text, policy, true, sink)
}

/// Reads a setup for a match to be played (§15.1 `--params`): a log's
/// header, optionally followed by the games' `first:` and start lines
/// ([`read_unfinished`]). Turns, if any, are refereed and then ignored, so
/// a finished log is a setup too. The first problem is returned as a log's
/// would be.
pub fn read_setup(text: &[u8]) -> Result<Setup, Diagnostic> {
    let mut start = None;
    let mut games = Vec::new();
    let verdict = read_unfinished(text, Policy::Pass, |entry| match &entry.event {
        Event::MatchStart(header) => start = Some((**header).clone()),
        Event::GameStart(game) => games.push((**game).clone()),
        _ => {}
    });
    if let Some(error) = verdict.error {
        return Err(error);
    }
    let start = start.ok_or_else(|| Diagnostic {
        code: Code::Header,
        message: "the file has no header".into(),
        line: None,
        column: None,
        game: None,
        turn: None,
        team: None,
        role: None,
    })?;
    Ok(Setup { start, games })
}

fn read_collecting(
    text: &[u8],
    policy: Policy,
    setup: bool,
    entries: impl FnMut(&Entry),
) -> Verdict {
    let mut sink = Collecting {
        entries,
        warnings: Vec::new(),
        illegal: Vec::new(),
    };
    let tally = read_as(text, policy, setup, &mut sink);
    let mut warnings = sink.warnings;
    // Found in file order but for one found at the end (W-JANKEN-UNUSED).
    warnings.sort_by_key(|warning| warning.line.unwrap_or(0));
    Verdict {
        error: tally.error,
        warnings,
        illegal: sink.illegal,
    }
}

fn read_as(text: &[u8], policy: Policy, setup: bool, sink: &mut dyn Sink) -> Tally {
    let mut reader = Reader {
        setup,
        policy,
        sink,
        section: Section::Version,
        header: Given::default(),
        names: PerTeam::default(),
        field: None,
        game_1: None,
        results: Vec::new(),
        winner_claim: None,
        janken: None,
        tally: Tally::default(),
        line: 0,
        last_line: 0,
    };
    // Checked once as a whole; a line that is not UTF-8 is named by its
    // number, and reading stops before it.
    let (text, bad_line) = match std::str::from_utf8(text) {
        Ok(text) => (text, None),
        Err(error) => {
            let good = &text[..error.valid_up_to()];
            let line = good.iter().filter(|&&byte| byte == b'\n').count() + 1;
            let start = good
                .iter()
                .rposition(|&byte| byte == b'\n')
                .map_or(0, |at| at + 1);
            // What comes before the bad line is whole lines of UTF-8.
            (
                std::str::from_utf8(&good[..start]).unwrap_or_default(),
                Some(line),
            )
        }
    };
    let mut tokens = Vec::new();
    // A byte-order mark would otherwise be a baffling first token.
    let has_mark = text.as_bytes().starts_with(BYTE_ORDER_MARK);
    let text = if has_mark { "" } else { text };
    if has_mark {
        reader.line = 1;
        reader.fail_line(LineError::new(
            Code::Syntax,
            "the log begins with a UTF-8 byte-order mark (bytes EF BB BF); save it without one (§11.2)",
            1,
        ));
    }
    for (index, line) in text.lines().enumerate() {
        reader.line = index + 1;
        if line.len() > MAX_LINE_BYTES {
            reader.fail_line(LineError::new(
                Code::Syntax,
                format!(
                    "the line is longer than {} MiB, the most a line may hold (§11.2)",
                    MAX_LINE_BYTES >> 20
                ),
                1,
            ));
            break;
        }
        let split = lines::split_reusing(line, tokens);
        if !split.tokens.is_empty() {
            reader.last_line = reader.line;
        }
        let read = reader.read_line(&split);
        tokens = split.tokens;
        if let Err(problem) = read {
            reader.fail(problem);
            break;
        }
    }
    if let (Some(line), None) = (bad_line, &reader.tally.error) {
        reader.line = line;
        reader.fail_line(LineError::new(
            Code::Syntax,
            "the line is not UTF-8 text",
            1,
        ));
    }
    if reader.tally.error.is_none() {
        reader.line = reader.last_line.max(1);
        if let Err(problem) = reader.finish() {
            reader.fail(problem);
        }
    }
    reader.tally
}

/// A problem found while reading: where exactly is filled in by the reader.
enum Problem {
    Line(LineError),
    Rule {
        violation: Violation,
        turn: u32,
        team: Team,
        columns: Vec<(usize, Vec<usize>)>,
    },
    /// A problem of the turn line being read, before the referee saw it.
    TurnLine {
        error: LineError,
        turn: u32,
        team: Option<Team>,
    },
}

impl From<LineError> for Problem {
    fn from(error: LineError) -> Problem {
        Problem::Line(error)
    }
}

fn header_error(message: impl Into<String>, column: usize) -> Problem {
    Problem::Line(LineError::new(Code::Header, message, column))
}

fn syntax(message: impl Into<String>, column: usize) -> Problem {
    Problem::Line(LineError::new(Code::Syntax, message, column))
}
impl<S: Sink + ?Sized> Reader<'_, S> {
    fn game(&self) -> Option<&GameSection> {
        match &self.section {
            Section::Game(game) => Some(game),
            _ => None,
        }
    }

    fn diagnostic(&self, code: Code, message: String, column: Option<usize>) -> Diagnostic {
        Diagnostic {
            code,
            message,
            line: Some(self.line),
            column,
            game: self.game().map(|game| game.number),
            turn: None,
            team: None,
            role: None,
        }
    }

    fn role_of(&self, team: Team) -> Option<Role> {
        let state = self.game()?.referee.as_ref()?.state();
        Some(state.role(team))
    }

    fn fail_line(&mut self, error: LineError) {
        self.fail(Problem::Line(error));
    }

    fn fail(&mut self, problem: Problem) {
        let diagnostic = match problem {
            Problem::Line(error) => self.diagnostic(error.code, error.message, error.column),
            Problem::TurnLine { error, turn, team } => Diagnostic {
                turn: Some(turn),
                team,
                role: team.and_then(|team| self.role_of(team)),
                ..self.diagnostic(error.code, error.message, error.column)
            },
            Problem::Rule {
                violation,
                turn,
                team,
                columns,
            } => {
                let column = column_of(&violation, &columns);
                Diagnostic {
                    turn: Some(turn),
                    team: Some(team),
                    role: self.role_of(team),
                    ..self.diagnostic(violation.code, violation.message, column)
                }
            }
        };
        self.tally.error = Some(diagnostic);
    }

    /// Hands on a warning.
    fn warn(&mut self, diagnostic: Diagnostic) {
        self.tally.warnings += 1;
        self.sink.diagnostic(&diagnostic);
    }

    /// Hands on an event of the match itself.
    fn emit(&mut self, event: Event) {
        let entry = Entry {
            game: None,
            turn: 0,
            t: 0,
            event,
        };
        self.sink.entry(&entry);
    }

    fn read_line(&mut self, split: &Split<'_>) -> Result<(), Problem> {
        if split.tokens.is_empty() {
            return Ok(());
        }
        if let Some(field) = &mut self.field {
            if split.indented {
                let row = row(split)?;
                if let Some(first) = field.rows.first() {
                    if row.len() != first.len() {
                        return Err(Problem::Line(LineError::new(
                            Code::Field,
                            FieldError::Ragged {
                                row: field.rows.len(),
                                found: row.len(),
                                expected: first.len(),
                            }
                            .to_string(),
                            1,
                        )));
                    }
                }
                field.rows.push(row);
                return Ok(());
            }
            self.finish_field()?;
        }
        match &self.section {
            Section::Version => {
                let words: Vec<&str> = split.tokens.iter().map(|token| token.text).collect();
                if words != ["katazuke", "1"] {
                    return Err(syntax(
                        "a match log begins with the line `katazuke 1` (§11.2)",
                        1,
                    ));
                }
                self.section = Section::Header;
                Ok(())
            }
            Section::Header => self.header_line(split),
            Section::Game(_) => self.game_line(split),
            Section::End => self.end_line(split),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const PRACTICE: &str = include_str!("../../../../../examples/katazuke/practice.ktz");

    fn verdict(log: &str, policy: Policy) -> Verdict {
        read(log.as_bytes(), policy, |_| {})
    }

    fn error(log: &str) -> (Code, Option<usize>, Option<u8>) {
        let found = verdict(log, Policy::Strict).error.expect("an error");
        (found.code, found.line, found.game)
    }

    #[test]
    fn the_worked_example_is_valid_and_its_events_end_with_the_match() {
        let mut last = None;
        let found = read(PRACTICE.as_bytes(), Policy::Strict, |entry| {
            last = Some(entry.event.name())
        });
        assert_eq!(found, Verdict::default());
        assert_eq!(last, Some("match_end"));
    }

    #[test]
    fn where_section_errors_land() {
        // Only one game: E-GAMES at the last line of the file.
        let one_game: String = PRACTICE
            .lines()
            .take(36)
            .map(|l| format!("{l}\n"))
            .collect();
        assert_eq!(error(&one_game), (Code::Games, Some(36), None));
        // A game section closed before its game ended: on the closing line.
        let unfinished = PRACTICE.replace(
            "14. B 1.0 clear e4:2           # ends exactly at the game limit\nresult: A 5 B 6\n",
            "",
        );
        assert_eq!(error(&unfinished), (Code::Unfinished, Some(36), Some(1)));
        // A turn before both start lines.
        let no_start = PRACTICE.replace("B start: d4* d2\n", "");
        assert_eq!(error(&no_start).0, Code::Start);
        // A parameter missing everywhere: on the game's first: line.
        let no_capacity = PRACTICE.replace("capacity: 4\n", "");
        assert_eq!(error(&no_capacity), (Code::Header, Some(18), Some(1)));
        // No version line.
        assert_eq!(error("game 1\n").0, Code::Syntax);
        assert_eq!(error("").0, Code::Syntax);
        // Invalid UTF-8 is named with its line.
        let mut bytes = PRACTICE.as_bytes().to_vec();
        let at = PRACTICE.find("event:").expect("a line");
        bytes[at] = 0xff;
        let found = read(&bytes, Policy::Strict, |_| {})
            .error
            .expect("an error");
        assert_eq!((found.code, found.line), (Code::Syntax, Some(3)));
    }

    #[test]
    fn a_strict_stop_lists_only_the_warnings_before_it() {
        // Turn 1 of 0 s warns; turn 2 breaks a rule; turn 12's empty of an
        // empty container would warn, but is never read.
        let log = PRACTICE
            .replace(" 1. A 3.0 clear b1:2 a2:2", " 1. A 0 clear b1:2 a2:2")
            .replace(" 2. B 2.5 clear d3:2 d5:2", " 2. B 2.5 clear a5");
        let found = verdict(&log, Policy::Strict);
        let codes: Vec<Code> = found.warnings.iter().map(|w| w.code).collect();
        assert_eq!(codes, [Code::ZeroDuration]);
        assert_eq!(found.error.map(|e| e.code), Some(Code::NotAdjacent));
    }

    #[test]
    fn the_field_of_game_2_may_differ_with_a_warning_on_its_field_line() {
        let log = PRACTICE.replace(
            "game 2\nfirst: B",
            "game 2\nfield:\n  1 2 1 3 1\n  2 1 3 1 2\n  1 3 0 2 1\n  2 1 2 1 3\n  1 2 1 2 2\nfirst: B",
        );
        let found = verdict(&log, Policy::Strict);
        let differs: Vec<(Code, Option<usize>)> =
            found.warnings.iter().map(|w| (w.code, w.line)).collect();
        assert_eq!(differs, [(Code::FieldDiffers, Some(39))]);
        // The claims of game 2 still hold: nothing else changed.
        assert_eq!(found.error, None);
    }
}
