//! Reads a `.ktz` match log from the top and referees it as it goes
//! (§10.6.3): each line is read, checked where it stands, and its turns
//! are played by the referee, whose events go to a sink. The first problem
//! found, malformed (§10.2) or a rule broken (§10.3), is the one reported.

use std::collections::BTreeSet;
use std::fmt;

use super::lines::{self, key_value, LineError, Split, Token};
use crate::katazuke::model::code::Code;
use crate::katazuke::model::event::{Event, GameStart, HeaderParams, MatchStart, Record};
use crate::katazuke::model::field::{Cell, Field, FieldError};
use crate::katazuke::model::params::{
    Params, Stock, CAPACITIES, DEFAULT_GAME_TIME, DEFAULT_TEAM_TIME, GAME_TIMES, STOCKS, TEAM_TIMES,
};
use crate::katazuke::model::state::GameState;
use crate::katazuke::model::team::{PerTeam, Role, Team};
use crate::katazuke::model::turn::Turn;
use crate::katazuke::rules::game::{GameReferee, Policy, Violation};
use crate::katazuke::rules::outcome::{GameResult, MatchResult};
use crate::text_input::{BYTE_ORDER_MARK, MAX_LINE_BYTES};

/// The longest team name accepted, in characters (§1.1).
pub const MAX_NAME_CHARS: usize = 40;

/// An error or warning, and where it is (§10.1, §10.6.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// Which.
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
        let kind = if self.code.severity() == crate::katazuke::model::code::Severity::Warning {
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
    fn record(&mut self, record: &Record);
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
    pub records: R,
    /// Given every warning and illegal turn.
    pub diagnostics: D,
}

impl<R: FnMut(&Record), D: FnMut(&Diagnostic)> Sink for Handlers<R, D> {
    fn record(&mut self, record: &Record) {
        (self.records)(record);
    }

    fn diagnostic(&mut self, diagnostic: &Diagnostic) {
        (self.diagnostics)(diagnostic);
    }
}

/// A sink that keeps the diagnostics for a [`Verdict`] and hands the
/// events to a closure.
struct Collecting<F> {
    records: F,
    warnings: Vec<Diagnostic>,
    illegal: Vec<Diagnostic>,
}

impl<F: FnMut(&Record)> Sink for Collecting<F> {
    fn record(&mut self, record: &Record) {
        (self.records)(record);
    }

    fn diagnostic(&mut self, diagnostic: &Diagnostic) {
        if diagnostic.code.severity() == crate::katazuke::model::code::Severity::Warning {
            self.warnings.push(diagnostic.clone());
        } else {
            self.illegal.push(diagnostic.clone());
        }
    }
}

/// Parameters given so far, in the header or a game's overrides.
#[derive(Clone, Debug, Default)]
struct Given {
    field: Option<Field>,
    capacity: Option<u32>,
    stock: Option<Stock>,
    team_time: Option<u64>,
    game_time: Option<u64>,
    /// Keys seen, for duplicates.
    keys: BTreeSet<String>,
    /// The line of `field:`, for W-FIELD-DIFFERS.
    field_line: Option<usize>,
}

/// A field being read: the line of `field:` and the rows so far.
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
pub fn read(text: &[u8], policy: Policy, sink: impl FnMut(&Record)) -> Verdict {
    read_collecting(text, policy, false, sink)
}

/// Reads `text`, a whole log, under `policy`, and referees it, handing
/// every event and diagnostic to `sink` as it is found: nothing is kept
/// for the caller but the [`Tally`].
pub fn read_into(text: &[u8], policy: Policy, sink: &mut dyn Sink) -> Tally {
    read_as(text, policy, false, sink)
}

/// What a match is to be played with: the header's names and parameters,
/// and, when the file gives them, both games' first teams and start cells
/// (the games' `GameStart` events).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    /// The header.
    pub start: MatchStart,
    /// None, or both games' starts.
    pub games: Vec<GameStart>,
}

/// Reads a log that may stop anywhere (a game being played, a position to
/// study, §15.2): as [`read`], except that a game may stop before its end,
/// and the file after the header or after game 1.
pub fn read_unfinished(text: &[u8], policy: Policy, sink: impl FnMut(&Record)) -> Verdict {
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
    let verdict = read_unfinished(text, Policy::Pass, |record| match &record.event {
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
    records: impl FnMut(&Record),
) -> Verdict {
    let mut sink = Collecting {
        records,
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
        let record = Record {
            game: None,
            turn: 0,
            t: 0,
            event,
        };
        self.sink.record(&record);
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

    /// Ends the field being read: its rows are checked as a whole (§1.2).
    fn finish_field(&mut self) -> Result<(), Problem> {
        let Some(rows) = self.field.take() else {
            return Ok(());
        };
        let field = Field::new(&rows.rows).map_err(|error| {
            self.line = rows.line;
            let message = match error {
                FieldError::Size { .. } => {
                    "a field has 1 to 16 rows and columns and R*C >= 3 cells (§1.2)".to_string()
                }
                other => other.to_string(),
            };
            Problem::Line(LineError::new(Code::Field, message, 1))
        })?;
        let given = if rows.in_game {
            match &mut self.section {
                Section::Game(game) => &mut game.given,
                _ => &mut self.header,
            }
        } else {
            &mut self.header
        };
        given.field = Some(field);
        given.field_line = Some(rows.line);
        Ok(())
    }

    fn header_line(&mut self, split: &Split<'_>) -> Result<(), Problem> {
        match game_line(split)? {
            Some(GameNumber::One) => return self.begin_game(1),
            Some(_) => return Err(games_error(split)),
            None => {}
        }
        let Some((key, value, column)) = key_value(split) else {
            return Err(syntax(
                "expected a header line `key: value`, `field:` or `game 1`",
                split.tokens[0].column,
            ));
        };
        let repeatable = key.starts_with("x-");
        if !repeatable && !self.header.keys.insert(key.clone()) {
            return Err(header_error(
                format!("duplicate key \"{key}\" (§10.2)"),
                column,
            ));
        }
        match key.as_str() {
            "event" | "site" | "date" | "round" => Ok(()),
            _ if repeatable => Ok(()),
            "A" | "B" => {
                let name = split.content[split.content.find(':').map_or(0, |at| at + 1)..].trim();
                if name.chars().count() > MAX_NAME_CHARS {
                    return Err(Problem::Line(LineError::new(
                        Code::Param,
                        format!("a team name has at most {MAX_NAME_CHARS} characters (§1.1)"),
                        value.first().map_or(column, |token| token.column),
                    )));
                }
                let team = Team::from_letter(&key).unwrap_or(Team::A);
                self.names[team] = Some(name.to_string());
                Ok(())
            }
            _ => {
                let read = param_line(&mut self.header, &key, &value, column, "the match header")?;
                self.field_may_follow(read, false);
                Ok(())
            }
        }
    }

    /// Starts reading the field's rows when a `field:` line was read.
    fn field_may_follow(&mut self, read: ParamRead, in_game: bool) {
        if read == ParamRead::FieldRowsFollow {
            self.field = Some(FieldRows {
                line: self.line,
                rows: Vec::new(),
                in_game,
            });
        }
    }

    /// The header is complete: the match starts.
    fn start_match(&mut self) {
        let teams = PerTeam::from_fn(|team| {
            self.names[team]
                .clone()
                .unwrap_or_else(|| team.letter().to_string())
        });
        let header = &self.header;
        let params = HeaderParams {
            field: header.field.clone(),
            capacity: header.capacity,
            stock: header.stock,
            team_time: header.team_time.unwrap_or(DEFAULT_TEAM_TIME),
            game_time: header.game_time.unwrap_or(DEFAULT_GAME_TIME),
        };
        self.emit(Event::MatchStart(Box::new(MatchStart { teams, params })));
    }

    fn begin_game(&mut self, number: u8) -> Result<(), Problem> {
        if number == 1 {
            self.start_match();
        }
        self.section = Section::Game(Box::new(GameSection {
            number,
            line: self.line,
            given: Given::default(),
            first: None,
            starts: Vec::new(),
            referee: None,
            closed: false,
        }));
        Ok(())
    }

    fn game_line(&mut self, split: &Split<'_>) -> Result<(), Problem> {
        if let Some(number) = game_line(split)? {
            let current = self.game().map_or(0, |game| game.number);
            self.close_game()?;
            if current != 1 || number != GameNumber::Two {
                return Err(games_error(split));
            }
            return self.begin_game(2);
        }
        let started = self.game().is_some_and(|game| game.referee.is_some());
        if lines::is_turn(split) {
            if !started {
                return Err(Problem::Line(LineError::new(
                    Code::Start,
                    "a game gives both teams' start cells before its first turn (§3.1)",
                    1,
                )));
            }
            return self.turn_line(split);
        }
        let Some((key, value, column)) = key_value(split) else {
            return Err(syntax(
                "expected a turn, a game line `key: value`, `game 2` or `result:`",
                split.tokens[0].column,
            ));
        };
        match key.as_str() {
            "winner" | "janken" => {
                self.close_game()?;
                let number = self.game().map_or(0, |game| game.number);
                if number != 2 {
                    return Err(Problem::Line(LineError {
                        code: Code::Games,
                        message: format!("a match is exactly two games; found {number} (§9.2)"),
                        column: None,
                    }));
                }
                self.section = Section::End;
                self.end_line(split)
            }
            "result" => self.result_line(&value, column),
            "first" => self.first_line(&value, column),
            "A start" | "B start" => self.start_line(&key, &value, column),
            _ => {
                let Section::Game(game) = &mut self.section else {
                    return Ok(());
                };
                let allowed = ["capacity", "stock", "team time", "game time", "field"];
                if !allowed.contains(&key.as_str()) {
                    return Err(header_error(
                        format!("unknown key \"{key}\" in the game overrides (§10.2)"),
                        column,
                    ));
                }
                if game.first.is_some() {
                    return Err(header_error(
                        format!("\"{key}\" belongs before the game's first: line (§11.2)"),
                        column,
                    ));
                }
                if !game.given.keys.insert(key.clone()) {
                    return Err(header_error(
                        format!("duplicate key \"{key}\" (§10.2)"),
                        column,
                    ));
                }
                let read = param_line(&mut game.given, &key, &value, column, "the game overrides")?;
                self.field_may_follow(read, true);
                Ok(())
            }
        }
    }

    fn first_line(&mut self, value: &[Token<'_>], column: usize) -> Result<(), Problem> {
        let header = self.header.clone();
        let game_1 = self.game_1.clone();
        let Section::Game(game) = &mut self.section else {
            return Ok(());
        };
        if game.first.is_some() {
            return Err(header_error("duplicate key \"first\" (§10.2)", column));
        }
        let team = match value {
            [token] => Team::from_letter(token.text).ok_or_else(|| {
                syntax(
                    format!("first: expected A or B, found {:?}", token.text),
                    token.column,
                )
            })?,
            _ => return Err(syntax("first: expected A or B", column)),
        };
        let resolve = |name: &str| format!("no {name} for game {} (§2.1)", game.number);
        let field = game
            .given
            .field
            .clone()
            .or(header.field.clone())
            .ok_or_else(|| header_error(resolve("field"), column))?;
        let capacity = game
            .given
            .capacity
            .or(header.capacity)
            .ok_or_else(|| header_error(resolve("capacity"), column))?;
        let stock = game
            .given
            .stock
            .or(header.stock)
            .ok_or_else(|| header_error(resolve("stock"), column))?;
        let params = Params {
            field,
            capacity,
            stock,
            team_time: game
                .given
                .team_time
                .or(header.team_time)
                .unwrap_or(DEFAULT_TEAM_TIME),
            game_time: game
                .given
                .game_time
                .or(header.game_time)
                .unwrap_or(DEFAULT_GAME_TIME),
        };
        let differs = match (&game_1, game.number) {
            (Some((first_1, _)), 2) if *first_1 == team => {
                return Err(Problem::Line(LineError::new(
                    Code::First,
                    format!(
                        "the team first in game 1 is second in game 2; {team} was first in game 1 (§9.2)"
                    ),
                    value[0].column,
                )));
            }
            (Some((_, field_1)), 2) if *field_1 != params.field => {
                Some(game.given.field_line.unwrap_or(game.line))
            }
            _ => None,
        };
        if game.number == 1 {
            self.game_1 = Some((team, params.field.clone()));
        }
        game.first = Some((team, params));
        if let Some(at) = differs {
            self.warn(Diagnostic {
                code: Code::FieldDiffers,
                message: "the field of game 2 differs from that of game 1 (§2.2)".into(),
                line: Some(at),
                column: None,
                game: Some(2),
                turn: None,
                team: None,
                role: None,
            });
        }
        Ok(())
    }

    fn start_line(&mut self, key: &str, value: &[Token<'_>], column: usize) -> Result<(), Problem> {
        let policy = self.policy;
        let team = if key.starts_with('A') {
            Team::A
        } else {
            Team::B
        };
        let Section::Game(game) = &mut self.section else {
            return Ok(());
        };
        let Some((first, params)) = game.first.clone() else {
            return Err(header_error(
                "a game names its first team (first: A or B) before its start cells (§11.2)",
                column,
            ));
        };
        if game.referee.is_some() || game.starts.iter().any(|(seen, _, _)| *seen == team) {
            return Err(Problem::Line(LineError::new(
                Code::Start,
                format!("{team}'s start cells are given twice (§3.1)"),
                column,
            )));
        }
        let size = params.field.size();
        let mut cells = Vec::new();
        let mut marked = Vec::new();
        for token in value {
            let (name, star) = match token.text.strip_suffix('*') {
                Some(name) => (name, true),
                None => (token.text, false),
            };
            let cell = lines::cell(*token, size, name)?;
            cells.push(cell);
            if star {
                marked.push(cell);
            }
        }
        let first_column = value.first().map_or(column, |token| token.column);
        let start_error =
            |message: String| Problem::Line(LineError::new(Code::Start, message, first_column));
        let current = if team == first {
            if cells.len() != 1 || marked.len() > 1 {
                return Err(start_error(format!(
                    "the first team {team} starts with exactly one cell (§3.1)"
                )));
            }
            cells[0]
        } else {
            if cells.len() != 2 {
                return Err(start_error(format!(
                    "the second team {team} starts with exactly two cells (§3.1)"
                )));
            }
            if marked.len() != 1 {
                return Err(start_error(format!(
                    "one of the second team {team}'s two cells is marked current with * (§3.1)"
                )));
            }
            marked[0]
        };
        let mut all: Vec<Cell> = game
            .starts
            .iter()
            .flat_map(|(_, cells, _)| cells.clone())
            .collect();
        all.extend(&cells);
        let distinct: BTreeSet<Cell> = all.iter().copied().collect();
        if distinct.len() != all.len() {
            return Err(start_error(
                "the three start cells must be distinct (§3.1)".into(),
            ));
        }
        game.starts.push((team, cells, Some(current)));
        if game.starts.len() < 2 {
            return Ok(());
        }
        let mut start = PerTeam::<Vec<Cell>>::default();
        let mut currents = PerTeam::<Option<Cell>>::default();
        for (team, cells, current) in &game.starts {
            start[*team] = cells.clone();
            currents[*team] = *current;
        }
        let current = PerTeam::from_fn(|team| currents[team].unwrap_or(start[team][0]));
        let number = game.number;
        let (sink, results) = (&mut *self.sink, &mut self.results);
        let referee = GameReferee::start(
            number,
            &params,
            first,
            start,
            current,
            policy,
            &mut |state, event| hand_on(sink, results, number, state, event),
        )
        .map_err(|violation| {
            Problem::Line(LineError::new(
                violation.code,
                violation.message,
                first_column,
            ))
        })?;
        game.referee = Some(referee);
        Ok(())
    }

    fn turn_line(&mut self, split: &Split<'_>) -> Result<(), Problem> {
        let Section::Game(game) = &mut self.section else {
            return Ok(());
        };
        let Some(referee) = game.referee.as_mut() else {
            return Ok(());
        };
        let position = referee.state().turns + 1;
        let written_team = lines::turn_team(split);
        let size = referee.state().size();
        let turn_line = lines::turn(split, size).map_err(|error| Problem::TurnLine {
            error,
            turn: position,
            team: written_team,
        })?;
        let number = game.number;
        let team = turn_line.team;
        let turn = Turn {
            team,
            play: turn_line.play,
        };
        let (sink, results) = (&mut *self.sink, &mut self.results);
        let played = referee
            .play(
                turn,
                turn_line.number,
                split.comment,
                &mut |state, event| hand_on(sink, results, number, state, event),
            )
            .map_err(|violation| Problem::Rule {
                violation,
                turn: position,
                team,
                columns: lines::step_columns(split),
            })?;
        let role = referee.state().role(team);
        if played.warnings.is_empty() && played.illegal.is_none() {
            return Ok(());
        }
        let columns = lines::step_columns(split);
        let at = |step: Option<usize>| {
            step.and_then(|step| columns.get(step))
                .map(|(column, _)| *column)
        };
        for warning in played.warnings {
            let diagnostic = Diagnostic {
                turn: Some(position),
                team: Some(team),
                role: Some(role),
                ..self.diagnostic(warning.code, warning.message, at(warning.step))
            };
            self.warn(diagnostic);
        }
        if let Some(violation) = played.illegal {
            let column = column_of(&violation, &columns);
            let diagnostic = Diagnostic {
                turn: Some(position),
                team: Some(team),
                role: Some(role),
                ..self.diagnostic(violation.code, violation.message, column)
            };
            self.tally.illegal += 1;
            self.sink.diagnostic(&diagnostic);
        }
        Ok(())
    }

    fn result_line(&mut self, value: &[Token<'_>], column: usize) -> Result<(), Problem> {
        let closed = self.game().is_some_and(|game| game.closed);
        if closed {
            return Err(header_error("duplicate key \"result\" (§10.2)", column));
        }
        let words: Vec<&str> = value.iter().map(|token| token.text).collect();
        let claim = match words.as_slice() {
            ["A", a, "B", b] => lines::digits(a).zip(lines::digits(b)),
            _ => None,
        };
        let Some((a, b)) = claim else {
            return Err(syntax("result: expected `result: A N B N` (§11.2)", column));
        };
        self.close_game()?;
        let Section::Game(game) = &mut self.section else {
            return Ok(());
        };
        game.closed = true;
        let Some(state) = game.referee.as_ref().map(GameReferee::state) else {
            return Ok(());
        };
        let (real_a, real_b) = (state.territory(Team::A), state.territory(Team::B));
        if (u64::from(real_a), u64::from(real_b)) != (a, b) {
            return Err(Problem::Line(LineError::new(
                Code::ResultMismatch,
                format!(
                    "result claims A {a} B {b}; the territories are A {real_a} B {real_b} (§9.5)"
                ),
                value[0].column,
            )));
        }
        Ok(())
    }

    /// A game's section is closing (its result, the next game, the match's
    /// end, or the end of the file): it must have started and ended
    /// (§8.3).
    fn close_game(&mut self) -> Result<(), Problem> {
        let Some(game) = self.game() else {
            return Ok(());
        };
        if game.closed {
            return Ok(());
        }
        let unfinished = |message: String| {
            Problem::Line(LineError {
                code: Code::Unfinished,
                message,
                column: None,
            })
        };
        match &game.referee {
            None if game.first.is_none() => Err(Problem::Line(LineError {
                code: Code::Header,
                message: format!("game {} has no first: line (§11.2)", game.number),
                column: None,
            })),
            None => Err(Problem::Line(LineError {
                code: Code::Start,
                message: format!(
                    "game {} does not give both teams' start cells (§3.1)",
                    game.number
                ),
                column: None,
            })),
            Some(_) if self.setup => Ok(()),
            Some(referee) if referee.state().ended.is_none() => Err(unfinished(format!(
                "game {} stops before its end (§8.3)",
                game.number
            ))),
            Some(_) => Ok(()),
        }
    }

    fn end_line(&mut self, split: &Split<'_>) -> Result<(), Problem> {
        if game_line(split)?.is_some() {
            return Err(games_error(split));
        }
        let Some((key, value, column)) = key_value(split) else {
            return Err(syntax(
                "after game 2 only `winner:` and `janken:` may follow",
                split.tokens[0].column,
            ));
        };
        let team = match value.as_slice() {
            [token] => Team::from_letter(token.text),
            _ => None,
        };
        let value_column = value.first().map_or(column, |token| token.column);
        let Some(team) = team else {
            return Err(syntax(format!("{key}: expected A or B"), value_column));
        };
        match key.as_str() {
            "winner" if self.winner_claim.is_none() => {
                self.winner_claim = Some((self.line, value_column, Some(team)));
                Ok(())
            }
            "janken" if self.janken.is_none() => {
                self.janken = Some((self.line, team));
                Ok(())
            }
            "winner" | "janken" => Err(header_error(
                format!("duplicate key \"{key}\" (§10.2)"),
                column,
            )),
            _ => Err(header_error(
                format!("unknown key \"{key}\" after the games (§10.2)"),
                column,
            )),
        }
    }

    /// The end of the file: the last game closes, and the match is decided.
    fn finish(&mut self) -> Result<(), Problem> {
        self.finish_field()?;
        match &self.section {
            Section::Version => {
                return Err(syntax(
                    "a match log begins with the line `katazuke 1` (§11.2)",
                    1,
                ))
            }
            Section::Header if self.setup => {
                self.start_match();
                return Ok(());
            }
            Section::Header => {
                return Err(Problem::Line(LineError {
                    code: Code::Games,
                    message: "a match is exactly two games; found 0 (§9.2)".into(),
                    column: None,
                }))
            }
            Section::Game(game) => {
                let number = game.number;
                self.close_game()?;
                if number != 2 && !self.setup {
                    self.section = Section::End;
                    return Err(Problem::Line(LineError {
                        code: Code::Games,
                        message: format!("a match is exactly two games; found {number} (§9.2)"),
                        column: None,
                    }));
                }
                self.section = Section::End;
            }
            Section::End => {}
        }
        if self.setup {
            return Ok(());
        }
        let janken = self.janken.map(|(_, team)| team);
        let result = MatchResult::decide(&self.results, janken);
        if let Some((line, _)) = self.janken {
            if !result.needs_janken() {
                self.warn(Diagnostic {
                    code: Code::JankenUnused,
                    message: "a janken was recorded but criteria 1-4 decide (§9.4)".into(),
                    line: Some(line),
                    column: None,
                    game: None,
                    turn: None,
                    team: None,
                    role: None,
                });
            }
        }
        if let Some((line, column, claimed)) = self.winner_claim {
            if claimed != result.winner {
                self.line = line;
                let decided = match result.winner {
                    Some(team) => format!("{team} wins"),
                    None => "the match is undecided (criteria 1-4 level, no janken)".into(),
                };
                let claimed = claimed.map_or("nobody".into(), |team| team.to_string());
                return Err(Problem::Line(LineError::new(
                    Code::ResultMismatch,
                    format!("winner claims {claimed}; {decided} (§9.5)"),
                    column,
                )));
            }
        }
        self.emit(result.event());
        Ok(())
    }
}

/// Hands an event of game `number` to the sink as a record, and keeps the
/// results of the game's end.
fn hand_on(
    sink: &mut (impl Sink + ?Sized),
    results: &mut Vec<GameResult>,
    number: u8,
    state: &GameState,
    event: Event,
) {
    if let Some(result) = GameResult::of(&event) {
        results.push(result);
    }
    sink.record(&Record {
        game: Some(number),
        turn: state.turns,
        t: state.elapsed,
        event,
    });
}

/// The column a violation points at: its entry's, or its step's.
fn column_of(violation: &Violation, columns: &[(usize, Vec<usize>)]) -> Option<usize> {
    let (step, item) = violation.at?;
    let (step_column, items) = columns.get(step)?;
    Some(
        item.and_then(|item| items.get(item).copied())
            .unwrap_or(*step_column),
    )
}

fn games_error(split: &Split<'_>) -> Problem {
    Problem::Line(LineError::new(
        Code::Games,
        "a match is exactly two games, \"game 1\" then \"game 2\" (§9.2)",
        split.tokens[0].column,
    ))
}

/// The number of a `game N` line as written (only 1 and 2 are games, so
/// a number too large to hold is no game either); `None` for any other
/// line.
fn game_line(split: &Split<'_>) -> Result<Option<GameNumber>, Problem> {
    if split.tokens[0].text != "game" || key_value(split).is_some() {
        return Ok(None);
    }
    match split.tokens.as_slice() {
        [word, number] if word.text == "game" => match lines::whole::<u8>(number.text) {
            Ok(1) => Ok(Some(GameNumber::One)),
            Ok(2) => Ok(Some(GameNumber::Two)),
            Ok(_) | Err(lines::NumberError::TooLarge) => Ok(Some(GameNumber::Other)),
            Err(lines::NumberError::NotDigits) => Err(syntax(
                format!("game: expected a game number, found {:?}", number.text),
                number.column,
            )),
        },
        [word, ..] if word.text == "game" => {
            Err(syntax("expected `game 1` or `game 2`", word.column))
        }
        _ => Ok(None),
    }
}

/// What a `game N` line says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GameNumber {
    One,
    Two,
    /// Any other number: a match has no such game (E-GAMES).
    Other,
}

/// A field row: numbers 0 to 99, `.` for 0.
fn row(split: &Split<'_>) -> Result<Vec<u32>, Problem> {
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
                .filter(|&count| count <= crate::katazuke::model::field::MAX_COUNT)
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
enum ParamRead {
    /// The parameter is set.
    Set,
    /// `field:`: its rows are on the lines that follow.
    FieldRowsFollow,
}

/// A parameter line of the header or a game's overrides (`place`, for
/// messages).
fn param_line(
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

#[cfg(test)]
mod tests {
    use super::*;

    const PRACTICE: &str = include_str!("../../../examples/katazuke/practice.ktz");

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
        let found = read(PRACTICE.as_bytes(), Policy::Strict, |record| {
            last = Some(record.event.name())
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
