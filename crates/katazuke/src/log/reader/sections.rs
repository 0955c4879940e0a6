//! The reader's section handlers: the header, a game's `first:` and
//! start lines, its turns and `result:`, and the match's end.

use std::collections::BTreeSet;

use super::params::{param_line, Given, ParamRead};
use super::{
    header_error, syntax, Diagnostic, FieldRows, GameSection, Problem, Reader, Section, Sink,
    MAX_NAME_CHARS,
};
use crate::log::lines::{self, key_value, LineError, Split, Token};
use crate::model::code::Code;
use crate::model::event::{Entry, Event, HeaderParams, MatchStart};
use crate::model::field::{Cell, Field, FieldError};
use crate::model::params::{Params, DEFAULT_GAME_TIME, DEFAULT_TEAM_TIME};
use crate::model::state::GameState;
use crate::model::team::{PerTeam, Team};
use crate::model::turn::Turn;
use crate::rules::game::GameReferee;
use crate::rules::legality::Violation;
use crate::rules::result::{GameResult, MatchResult};

impl<S: Sink + ?Sized> Reader<'_, S> {
    /// Ends the field being read: its rows are checked as a whole (§1.2).
    pub(super) fn finish_field(&mut self) -> Result<(), Problem> {
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

    pub(super) fn header_line(&mut self, split: &Split<'_>) -> Result<(), Problem> {
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

    pub(super) fn game_line(&mut self, split: &Split<'_>) -> Result<(), Problem> {
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

    pub(super) fn end_line(&mut self, split: &Split<'_>) -> Result<(), Problem> {
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
    pub(super) fn finish(&mut self) -> Result<(), Problem> {
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
    sink.entry(&Entry {
        game: Some(number),
        turn: state.turns,
        t: state.elapsed,
        event,
    });
}

/// The column a violation points at: its entry's, or its step's.
pub(super) fn column_of(violation: &Violation, columns: &[(usize, Vec<usize>)]) -> Option<usize> {
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
