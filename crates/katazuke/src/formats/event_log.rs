//! The event log as JSON Lines (§12): written one record a line, and read
//! back for `replay --from-events`. A log read back is believed only if it
//! is exactly what refereeing its own turns produces: the turns are taken
//! from the events, played again by the referee, and every record compared
//! with the one the log has.

use std::collections::VecDeque;
use std::fmt;

use crate::model::event::{Entry, Event};
use crate::model::state::GameState;
use crate::model::team::Team;
use crate::model::turn::{Play, Step, Turn};
use crate::rules::game::{GameReferee, Policy};
use crate::rules::result::{GameResult, MatchResult};
use edge::BoundedLines;

/// Why an event log is not the log of a match.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventLogError {
    /// The line, from 1 (the last line + 1 when the log stops short).
    pub line: usize,
    /// What is wrong, or what was expected there.
    pub message: String,
}

impl fmt::Display for EventLogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "event log line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for EventLogError {}

/// Reads an event log written by `katazuke events`, checks that it is the
/// log of its match (see the module's documentation) and returns its
/// records.
pub fn read_events(text: &[u8]) -> Result<Vec<Entry>, EventLogError> {
    let mut entries = Vec::new();
    read_events_into(text, |entry| entries.push(entry))?;
    Ok(entries)
}

/// [`read_events`] a record at a time: each record is handed to `sink` as
/// soon as it is checked, and only the records of the turn being checked
/// are held, so memory stays flat however long the match. `sink` has had
/// the records before the problem of a log that is refused: a caller that
/// must not act on such a log reads it once to check it first.
pub fn read_events_into(text: &[u8], sink: impl FnMut(Entry)) -> Result<(), EventLogError> {
    let mut log = LogRecords {
        lines: BoundedLines::new(text),
        ahead: VecDeque::new(),
        last_line: None,
        unreadable: None,
        sink,
    };
    let checked = verify(&mut log);
    // A line that is not a record is told before a record that is wrong,
    // wherever each is, as when the whole log was parsed before any of it
    // was checked.
    checked.map_err(|wrong| log.first_unreadable().unwrap_or(wrong))
}

/// The records of an event log, parsed a line at a time as the check
/// reaches them.
struct LogRecords<'a, Sink> {
    lines: BoundedLines<&'a [u8]>,
    /// Records parsed but not yet checked, with their lines: at most the
    /// records of the turn being checked.
    ahead: VecDeque<(usize, Entry)>,
    /// The line of the last record parsed.
    last_line: Option<usize>,
    /// The first line found not to be a record.
    unreadable: Option<EventLogError>,
    /// Where the records go once checked.
    sink: Sink,
}

impl<Sink: FnMut(Entry)> LogRecords<'_, Sink> {
    /// The record `index` places after the last one checked, or `None`
    /// when the log ends before it.
    fn peek(&mut self, index: usize) -> Result<Option<&(usize, Entry)>, EventLogError> {
        while self.ahead.len() <= index {
            match self.parse_next()? {
                Some(entry) => self.ahead.push_back(entry),
                None => return Ok(None),
            }
        }
        Ok(self.ahead.get(index))
    }

    /// The next record, to be checked.
    fn next(&mut self) -> Result<Option<(usize, Entry)>, EventLogError> {
        match self.ahead.pop_front() {
            Some(entry) => Ok(Some(entry)),
            None => self.parse_next(),
        }
    }

    /// Hands a checked record on.
    fn hand_on(&mut self, entry: Entry) {
        (self.sink)(entry);
    }

    /// Where the log is missing what it stops short of: the line after its
    /// last record.
    fn end_line(&self) -> usize {
        self.last_line.map_or(1, |line| line + 1)
    }

    /// Parses the lines up to the next record.
    fn parse_next(&mut self) -> Result<Option<(usize, Entry)>, EventLogError> {
        let parsed = self.parse_line();
        if let Err(error) = &parsed {
            self.unreadable.get_or_insert_with(|| error.clone());
        }
        parsed
    }

    fn parse_line(&mut self) -> Result<Option<(usize, Entry)>, EventLogError> {
        for line in self.lines.by_ref() {
            let (number, line) = line.map_err(|error| EventLogError {
                line: error.line,
                message: error.problem.to_string(),
            })?;
            if line.trim().is_empty() {
                continue;
            }
            let entry = Entry::from_json(&line).map_err(|error| EventLogError {
                line: number,
                message: error.to_string(),
            })?;
            self.last_line = Some(number);
            return Ok(Some((number, entry)));
        }
        Ok(None)
    }

    /// The first line that is not a record, parsing the lines not yet
    /// parsed to find it.
    fn first_unreadable(mut self) -> Option<EventLogError> {
        while self.unreadable.is_none() && matches!(self.parse_next(), Ok(Some(_))) {}
        self.unreadable
    }

    /// Compares what the referee made with the log's next records, and
    /// hands these on.
    fn compare(&mut self, expected: &mut Vec<Entry>) -> Result<(), EventLogError> {
        for made in expected.drain(..) {
            match self.next()? {
                Some((_, given)) if given == made => self.hand_on(given),
                Some((line, _)) => {
                    return Err(EventLogError {
                        line,
                        message: format!("expected {}", made.to_json()),
                    })
                }
                None => {
                    return Err(EventLogError {
                        line: self.end_line(),
                        message: format!("the log stops short: expected {}", made.to_json()),
                    })
                }
            }
        }
        Ok(())
    }
}

/// Plays the log's turns again and compares every record.
fn verify(log: &mut LogRecords<'_, impl FnMut(Entry)>) -> Result<(), EventLogError> {
    let mut expected: Vec<Entry> = Vec::new();
    let mut results: Vec<GameResult> = Vec::new();
    let unexpected = |line: usize, what: &str| EventLogError {
        line,
        message: format!("unexpected event here: {what}"),
    };
    match log.next()? {
        Some((
            _,
            entry @ Entry {
                event: Event::MatchStart(_),
                ..
            },
        )) => log.hand_on(entry),
        other => {
            return Err(EventLogError {
                line: other.map_or(1, |(line, _)| line),
                message: "an event log begins with match_start".into(),
            })
        }
    }
    for game in 1..=2u8 {
        let Some((line, entry)) = log.peek(0)? else {
            return Err(EventLogError {
                line: log.end_line(),
                message: format!("the log stops short: expected game {game}'s game_start"),
            });
        };
        let Event::GameStart(start) = &entry.event else {
            return Err(unexpected(*line, entry.event.name()));
        };
        let mut referee = GameReferee::start(
            game,
            &start.params,
            start.first,
            start.start.clone(),
            start.current,
            Policy::Pass,
            &mut |state: &GameState, event| expected.push(record_of(game, state, event)),
        )
        .map_err(|violation| EventLogError {
            line: *line,
            message: format!("game {game} cannot start so: {violation}"),
        })?;
        log.compare(&mut expected)?;
        while referee.state().ended.is_none() {
            let Some((line, entry)) = log.peek(0)? else {
                return Err(EventLogError {
                    line: log.end_line(),
                    message: format!("the log stops short: game {game} has not ended"),
                });
            };
            let Event::TurnStart { team, .. } = entry.event else {
                return Err(unexpected(*line, entry.event.name()));
            };
            let line = *line;
            let (turn, comment, illegal) = turn_of(log, team)?;
            let mut emit = |state: &GameState, event| expected.push(record_of(game, state, event));
            let refused = match &illegal {
                Some((code, message, duration)) => referee
                    .replay_illegal(
                        team,
                        *duration,
                        *code,
                        message,
                        comment.as_deref(),
                        &mut emit,
                    )
                    .err(),
                None => referee
                    .play(turn, None, comment.as_deref(), &mut emit)
                    .err(),
            };
            if let Some(violation) = refused {
                return Err(EventLogError {
                    line,
                    message: format!("this turn breaks a rule: {violation}"),
                });
            }
            log.compare(&mut expected)?;
        }
        if let Some(result) = referee_result(referee.state()) {
            results.push(result);
        }
    }
    let Some((line, entry)) = log.peek(0)? else {
        return Err(EventLogError {
            line: log.end_line(),
            message: "the log stops short: expected match_end".into(),
        });
    };
    let Event::MatchEnd { janken, .. } = entry.event else {
        return Err(unexpected(*line, entry.event.name()));
    };
    expected.push(Entry {
        game: None,
        turn: 0,
        t: 0,
        event: MatchResult::decide(&results, janken).event(),
    });
    log.compare(&mut expected)?;
    if let Some((line, entry)) = log.peek(0)? {
        return Err(unexpected(*line, entry.event.name()));
    }
    Ok(())
}

fn record_of(game: u8, state: &GameState, event: Event) -> Entry {
    Entry {
        game: Some(game),
        turn: state.turns,
        t: state.elapsed,
        event,
    }
}

/// A game's results, from the state its referee ended in.
fn referee_result(state: &GameState) -> Option<GameResult> {
    state.ended?;
    Some(GameResult::of_state(state))
}

/// An illegal turn's rule, message and duration.
type Illegal = (crate::model::code::Code, String, u64);

/// The turn whose `turn_start` is the log's next record, as the log tells
/// it: its steps from its action events, its duration from what was
/// charged.
fn turn_of(
    log: &mut LogRecords<'_, impl FnMut(Entry)>,
    team: Team,
) -> Result<(Turn, Option<String>, Option<Illegal>), EventLogError> {
    let mut steps = Vec::new();
    let mut timeout = None;
    let mut illegal = None;
    let mut index = 1;
    while let Some((line, entry)) = log.peek(index)? {
        match &entry.event {
            Event::Clear { items, .. } => steps.push(Step::Clear(items.clone())),
            Event::Place { items, .. } => steps.push(Step::Place(items.clone())),
            Event::Move { to, .. } => steps.push(Step::Move(*to)),
            Event::Pass { .. } => steps.push(Step::Pass),
            Event::Empty { .. } => steps.push(Step::Empty),
            Event::Timeout { recorded, .. } => timeout = Some(*recorded),
            Event::Illegal { code, message, .. } => illegal = Some((*code, message.clone())),
            Event::Claim { .. } | Event::Cancel { .. } | Event::TeamOut { .. } => {}
            Event::TurnEnd {
                charged, comment, ..
            } => {
                let play = match timeout {
                    Some(None) => Play::Timeout,
                    // The steps of a turn that overran were never looked
                    // at (§7.2): any will do.
                    Some(Some(recorded)) => Play::Steps {
                        duration: recorded,
                        steps: vec![Step::Pass],
                    },
                    None => Play::Steps {
                        duration: *charged,
                        steps,
                    },
                };
                let illegal = illegal.map(|(code, message)| (code, message, *charged));
                return Ok((Turn { team, play }, comment.clone(), illegal));
            }
            other => {
                return Err(EventLogError {
                    line: *line,
                    message: format!("unexpected event inside a turn: {}", other.name()),
                })
            }
        }
        index += 1;
    }
    Err(EventLogError {
        line: log.end_line(),
        message: "the log stops short: a turn has no turn_end".into(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::reader::read;

    fn events_of(log: &str, policy: Policy) -> String {
        let mut text = String::new();
        let verdict = read(log.as_bytes(), policy, |entry| {
            text += &entry.to_json();
            text.push('\n');
        });
        assert_eq!(verdict.error, None);
        text
    }

    const EXAMPLE: &str = include_str!("../../../../examples/katazuke/practice.ktz");

    #[test]
    fn the_worked_examples_events_read_back() {
        let text = events_of(EXAMPLE, Policy::Strict);
        let entries = read_events(text.as_bytes()).unwrap();
        let again: String = entries.iter().map(|r| r.to_json() + "\n").collect();
        assert_eq!(again, text);
    }

    #[test]
    fn a_forged_or_cut_log_is_refused_with_its_line() {
        let text = events_of(EXAMPLE, Policy::Strict);
        let lines: Vec<&str> = text.lines().collect();
        // Cut short.
        let cut = lines[..lines.len() - 5].join("\n");
        let error = read_events(cut.as_bytes()).unwrap_err();
        assert!(error.message.contains("stops short"), "{error}");
        // A claim that never happened.
        let forged = text.replacen("\"items\":[[\"b1\",2]", "\"items\":[[\"b1\",1]", 1);
        let error = read_events(forged.as_bytes()).unwrap_err();
        assert!(error.line > 1, "{error}");
        // Extra events after the end.
        let extra = format!("{text}{}\n", lines[lines.len() - 1]);
        assert!(read_events(extra.as_bytes()).is_err());
        assert!(read_events(b"").is_err());
    }
}
