//! The event log as JSON Lines: written from a run, and read back so that
//! pictures can be made from the events alone.
//!
//! The first line names the start:
//! `{"kind":"start","state":"…","operations":"…","settle":false}`.
//! Every other line is one event, in order:
//! `{"frame":1,"op":0,"operation":"+","kind":"turned","orientation":90,"from":0,"cells":[]}`
//! with `frame` the picture it belongs to, `op` the operation's index from 0
//! (absent for the falls of a settling start), `orientation` the box's
//! orientation in degrees after the event, and `cells` the cells involved:
//! the creatures that moved (`fell`), the cell left through (`left`, with
//! `creature`), the stot's old and new cell (`stot-moved`), or the stot and
//! the cell that blocked it (`failed`, with `reason`, `direction` and
//! `creature` where they apply).

use std::fmt;
use std::io::{self, BufRead, Write};

use serde::{Deserialize, Serialize};

use crate::model::creature::Creature;
use crate::model::event::{Blocked, Entry, Event, Failure};
use crate::model::geometry::{Cell, CellSet, OPENING_CELL};
use crate::model::input_error::InputError;
use crate::model::operation::format_operations;
use crate::model::state::State;
use crate::rules::frames::Frames;
use crate::rules::scenario::{Outcome, Scenario, Simulation};
use edge::{BoundedLines, LineError};

/// One line of the log; which fields are present depends on `kind`.
#[derive(Serialize, Deserialize, Default, Debug, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
struct Line {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    frame: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    op: Option<usize>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    operation: Option<String>,
    kind: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    orientation: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    from: Option<u32>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cells: Option<Vec<usize>>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    creature: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    reason: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    direction: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    state: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    operations: Option<String>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    settle: Option<bool>,
}

/// Writes the log of `scenario`: the start line, then one line per event.
pub fn write_event_log(scenario: &Scenario, out: &mut impl Write) -> io::Result<()> {
    write_line(out, &start_line(scenario))?;
    for (_, line) in LogLines::new(scenario) {
        write_line(out, &line)?;
    }
    Ok(())
}

fn write_line(out: &mut impl Write, line: &Line) -> io::Result<()> {
    serde_json::to_writer(&mut *out, line)?;
    out.write_all(b"\n")
}

fn start_line(scenario: &Scenario) -> Line {
    Line {
        kind: "start".into(),
        state: Some(scenario.start.cells_string()),
        operations: Some(format_operations(&scenario.operations)),
        settle: Some(scenario.settle_first),
        ..Line::default()
    }
}

/// The event lines of a scenario's log, each with its record: what the
/// writer writes and what the reader expects.
struct LogLines<'a> {
    scenario: &'a Scenario,
    events: Simulation<'a>,
    state: State,
    frame: usize,
}

impl<'a> LogLines<'a> {
    fn new(scenario: &'a Scenario) -> LogLines<'a> {
        LogLines {
            scenario,
            events: scenario.events(),
            state: scenario.start,
            frame: 0,
        }
    }
}

impl Iterator for LogLines<'_> {
    type Item = (Entry, Line);

    fn next(&mut self) -> Option<(Entry, Line)> {
        let entry = self.events.next()?;
        if entry.event.makes_frame() {
            self.frame += 1;
        }
        self.state.apply(&entry.event);
        Some((
            entry,
            event_line(entry, self.frame, &self.state, self.scenario),
        ))
    }
}

fn event_line(entry: Entry, frame: usize, after: &State, scenario: &Scenario) -> Line {
    let mut line = Line {
        frame: Some(frame),
        op: entry.op,
        operation: entry
            .op
            .and_then(|i| scenario.operations.get(i))
            .map(|op| op.to_char().to_string()),
        kind: entry.event.kind().into(),
        orientation: Some(after.orientation().degrees()),
        cells: Some(Vec::new()),
        ..Line::default()
    };
    let cells = |set: CellSet| Some(set.iter().map(Cell::index).collect());
    match entry.event {
        Event::Turned { from, .. } => line.from = Some(from.degrees()),
        Event::Fell { moved } => line.cells = cells(moved),
        Event::Left { creature } => {
            line.cells = Some(vec![OPENING_CELL.index()]);
            line.creature = Some(creature.name().into());
        }
        Event::StotMoved { from, to } => line.cells = Some(vec![from.index(), to.index()]),
        Event::Failed(Failure::SmoleEscaped) => {
            line.reason = Some("smole-escaped".into());
            line.creature = Some(Creature::Smole.name().into());
            line.cells = Some(vec![OPENING_CELL.index()]);
        }
        Event::Failed(Failure::StotBlocked {
            from,
            direction,
            reason,
        }) => {
            line.direction = Some(direction.name().into());
            let (name, blocker) = match reason {
                Blocked::Wall => ("wall", None),
                Blocked::Opening => ("opening", None),
                Blocked::Occupied { cell, creature } => ("occupied", Some((cell, creature))),
                Blocked::Loaded { cell, creature } => ("loaded", Some((cell, creature))),
            };
            line.reason = Some(name.into());
            let mut involved = vec![from.index()];
            if let Some((cell, creature)) = blocker {
                involved.push(cell.index());
                line.creature = Some(creature.name().into());
            }
            line.cells = Some(involved);
        }
    }
    line
}

/// A log read back: the start and every event, checked to fold cleanly.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct EventLog {
    /// The run its start line names.
    pub scenario: Scenario,
    /// Every event, in order.
    pub entries: Vec<Entry>,
}

impl EventLog {
    /// How the logged run ended: the fold of its events.
    pub fn outcome(&self) -> Outcome {
        let mut state = self.scenario.start;
        let mut failure = None;
        for entry in &self.entries {
            state.apply(&entry.event);
            if let Event::Failed(why) = entry.event {
                failure = Some((entry.op, why));
            }
        }
        Outcome { state, failure }
    }

    /// The frames the events make, exactly as a run would make them.
    pub fn frames(&self) -> Frames<std::iter::Copied<std::slice::Iter<'_, Entry>>> {
        Frames::new(self.scenario.start, self.entries.iter().copied())
    }
}

/// What is wrong with a log, and on which line (from 1).
#[derive(Debug)]
pub enum LogError {
    /// A line could not be read, is too long or is not UTF-8 text.
    Text(LineError),
    /// Not JSON, or not a line of this log's shape.
    Syntax {
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// The first line is not a valid start.
    Start {
        /// The line, from 1.
        line: usize,
        /// What is wrong with its state or operations.
        error: InputError,
    },
    /// The line is not the one the run of the start line makes there.
    Differs {
        /// The line, from 1.
        line: usize,
        /// What differs, and the line the run makes there.
        message: String,
    },
    /// The log ends before the run does.
    EndsEarly {
        /// The line after the last one.
        line: usize,
        /// The line the run makes there.
        expected: String,
    },
    /// Lines after the run's last event.
    PastTheEnd {
        /// The first of them.
        line: usize,
        /// The line of the run's last event (the start line for a run
        /// without events).
        last: usize,
    },
    /// No start line at all.
    Empty,
}

impl fmt::Display for LogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LogError::Text(error) => write!(f, "event log {error}"),
            LogError::Syntax { line, message } => write!(f, "event log line {line}: {message}"),
            LogError::Start { line, error } => write!(f, "event log line {line}: {error}"),
            LogError::Differs { line, message } => write!(f, "event log line {line}: {message}"),
            LogError::EndsEarly { line, expected } => write!(
                f,
                "event log line {line}: the log ends before its run does; expected {expected}"
            ),
            LogError::PastTheEnd { line, last } => write!(
                f,
                "event log line {line}: the run ended on line {last}; nothing may follow"
            ),
            LogError::Empty => write!(f, "the event log is empty: expected a start line"),
        }
    }
}

impl std::error::Error for LogError {}

/// Reads a log written by [`write_event_log`] and believes it only if it
/// is exactly the log of its own run: every line after the start must be
/// the one that the start's state and operations produce there, field for
/// field, and the log must end where the run does. A truncated, reordered,
/// renumbered or forged log is refused with the first line that differs
/// and what the run has there. Lines are read one at a time, each at most
/// [`MAX_LINE_BYTES`](edge::MAX_LINE_BYTES) long; blank lines
/// are skipped.
pub fn read_event_log(input: impl BufRead) -> Result<EventLog, LogError> {
    let mut lines = BoundedLines::new(input)
        .map(|line| line.map_err(LogError::Text))
        .filter(|line| !matches!(line, Ok((_, text)) if text.trim().is_empty()));
    let (start_number, start_text) = lines.next().ok_or(LogError::Empty)??;
    let start = parse_line(start_number, &start_text)?;
    if start.kind != "start" {
        return Err(LogError::Syntax {
            line: start_number,
            message: "the first line must be the start (\"kind\":\"start\")".into(),
        });
    }
    let scenario = Scenario::parse(
        start.state.as_deref().unwrap_or(""),
        start.operations.as_deref().unwrap_or(""),
        start.settle.unwrap_or(false),
    )
    .map_err(|error| LogError::Start {
        line: start_number,
        error,
    })?;
    let canonical = start_line(&scenario);
    if start != canonical {
        return Err(LogError::Differs {
            line: start_number,
            message: difference(&start, &canonical),
        });
    }
    let mut expected = LogLines::new(&scenario);
    let mut entries = Vec::new();
    let mut last = start_number;
    for line in lines {
        let (number, text) = line?;
        let given = parse_line(number, &text)?;
        let Some((entry, wanted)) = expected.next() else {
            return Err(LogError::PastTheEnd { line: number, last });
        };
        if given != wanted {
            return Err(LogError::Differs {
                line: number,
                message: difference(&given, &wanted),
            });
        }
        entries.push(entry);
        last = number;
    }
    if let Some((_, wanted)) = expected.next() {
        return Err(LogError::EndsEarly {
            line: last + 1,
            expected: json_of(&wanted),
        });
    }
    Ok(EventLog { scenario, entries })
}

fn parse_line(number: usize, text: &str) -> Result<Line, LogError> {
    serde_json::from_str(text).map_err(|error| LogError::Syntax {
        line: number,
        message: error.to_string(),
    })
}

fn json_of(line: &Line) -> String {
    serde_json::to_string(line).unwrap_or_default()
}

/// The first field in which `given` differs from `wanted`, and `wanted`
/// itself, for a message.
fn difference(given: &Line, wanted: &Line) -> String {
    let fields = |line: &Line| match serde_json::to_value(line) {
        Ok(serde_json::Value::Object(fields)) => fields,
        _ => serde_json::Map::new(),
    };
    let (given_fields, wanted_fields) = (fields(given), fields(wanted));
    let what = if given.kind != wanted.kind {
        format!(
            "a {:?} event where the run has a {:?} event",
            given.kind, wanted.kind
        )
    } else {
        let keys = wanted_fields.keys().chain(given_fields.keys());
        keys.map(
            |key| match (given_fields.get(key), wanted_fields.get(key)) {
                (Some(found), Some(want)) if found != want => {
                    format!("{key:?} is {found} where the run has {want}")
                }
                (None, Some(want)) => format!("{key:?} is missing (the run has {want})"),
                (Some(found), None) => format!("{key:?} ({found}) is not part of this event"),
                _ => String::new(),
            },
        )
        .find(|what| !what.is_empty())
        .unwrap_or_default()
    };
    format!("{what}; the run's line is {}", json_of(wanted))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn log_of(state: &str, ops: &str) -> String {
        let scenario = Scenario::parse(state, ops, false).expect("valid");
        let mut out = Vec::new();
        write_event_log(&scenario, &mut out).expect("in memory");
        String::from_utf8(out).expect("JSON is text")
    }

    #[test]
    fn the_log_starts_with_the_scenario_and_has_a_line_per_event() {
        let text = log_of(".........@...o....ooo..xox...", "+>");
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(
            lines[0],
            r#"{"kind":"start","state":".........@...o....ooo..xox...","operations":"+>","settle":false}"#
        );
        assert_eq!(
            lines[1],
            r#"{"frame":1,"op":0,"operation":"+","kind":"turned","orientation":90,"from":0,"cells":[]}"#
        );
        assert!(lines[2].starts_with(r#"{"frame":2,"op":0,"operation":"+","kind":"fell","orientation":90,"cells":[13,18,19,20,23,24,25]"#), "{}", lines[2]);
        assert_eq!(
            lines.last().copied(),
            Some(
                r#"{"frame":5,"op":1,"operation":">","kind":"stot-moved","orientation":90,"cells":[9,10]}"#
            )
        );
    }

    #[test]
    fn a_log_reads_back_into_the_same_records() {
        for (state, ops) in [
            (".........@...o....ooo..xox...", "+>|<-v+^+"),
            ("@................x.....o..x..", "+-"),
            ("...................x...x@....", ">"),
        ] {
            let scenario = Scenario::parse(state, ops, false).expect("valid");
            let log = read_event_log(log_of(state, ops).as_bytes()).expect("reads back");
            assert_eq!(log.scenario, scenario);
            assert_eq!(log.entries, scenario.events().collect::<Vec<_>>());
            assert_eq!(
                log.frames().collect::<Vec<_>>(),
                scenario.frames().collect::<Vec<_>>()
            );
            assert_eq!(log.outcome(), scenario.run());
        }
    }

    #[test]
    fn a_log_that_does_not_describe_a_run_is_refused_with_its_line() {
        let text = log_of(".........@...o....ooo..xox...", "+>");
        let tampered = text.replace("\"cells\":[9,10]", "\"cells\":[9,11]");
        let error = read_event_log(tampered.as_bytes()).expect_err("refused");
        assert_eq!(
            error.to_string(),
            r#"event log line 6: "cells" is [9,11] where the run has [9,10]; the run's line is {"frame":5,"op":1,"operation":">","kind":"stot-moved","orientation":90,"cells":[9,10]}"#
        );
        let start_changed = text.replacen("\"settle\":false", "\"settle\":false,\"frame\":3", 1);
        assert_eq!(
            read_event_log(start_changed.as_bytes())
                .expect_err("refused")
                .to_string(),
            r#"event log line 1: "frame" (3) is not part of this event; the run's line is {"kind":"start","state":".........@...o....ooo..xox...","operations":"+>","settle":false}"#
        );
        let short = text.lines().take(3).collect::<Vec<_>>().join("\n");
        assert!(matches!(
            read_event_log(short.as_bytes()),
            Err(LogError::EndsEarly { line: 4, .. })
        ));
        let longer = format!("{text}\n\n{}\n", text.lines().last().unwrap_or_default());
        assert!(matches!(
            read_event_log(longer.as_bytes()),
            Err(LogError::PastTheEnd { line: 9, last: 6 })
        ));
        let no_start = text.lines().skip(1).collect::<Vec<_>>().join("\n");
        assert!(read_event_log(no_start.as_bytes()).is_err());
        assert!(matches!(read_event_log(&b""[..]), Err(LogError::Empty)));
    }
}
