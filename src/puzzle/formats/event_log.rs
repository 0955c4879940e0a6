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

use crate::puzzle::model::creature::Creature;
use crate::puzzle::model::event::{Blocked, Event, Failure, Record};
use crate::puzzle::model::geometry::{
    Cell, CellSet, Direction, Neighbour, Orientation, OPENING_CELL,
};
use crate::puzzle::model::input_error::InputError;
use crate::puzzle::model::operation::format_operations;
use crate::puzzle::model::state::State;
use crate::puzzle::rules::frames::Frames;
use crate::puzzle::rules::scenario::{Outcome, Scenario};

/// One line of the log; which fields are present depends on `kind`.
#[derive(Serialize, Deserialize, Default, Debug)]
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
    let start = Line {
        kind: "start".into(),
        state: Some(scenario.start.cells_string()),
        operations: Some(format_operations(&scenario.operations)),
        settle: Some(scenario.settle_first),
        ..Line::default()
    };
    write_line(out, &start)?;
    let mut state = scenario.start;
    let mut frame = 0;
    for record in scenario.events() {
        if record.event.makes_frame() {
            frame += 1;
        }
        state.apply(&record.event);
        write_line(out, &event_line(record, frame, &state, scenario))?;
    }
    Ok(())
}

fn write_line(out: &mut impl Write, line: &Line) -> io::Result<()> {
    serde_json::to_writer(&mut *out, line)?;
    out.write_all(b"\n")
}

fn event_line(record: Record, frame: usize, after: &State, scenario: &Scenario) -> Line {
    let mut line = Line {
        frame: Some(frame),
        op: record.op,
        operation: record
            .op
            .and_then(|i| scenario.operations.get(i))
            .map(|op| op.to_char().to_string()),
        kind: record.event.kind().into(),
        orientation: Some(after.orientation().degrees()),
        cells: Some(Vec::new()),
        ..Line::default()
    };
    let cells = |set: CellSet| Some(set.iter().map(Cell::index).collect());
    match record.event {
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
    pub records: Vec<Record>,
}

impl EventLog {
    /// How the logged run ended: the fold of its events.
    pub fn outcome(&self) -> Outcome {
        let mut state = self.scenario.start;
        let mut failure = None;
        for record in &self.records {
            state.apply(&record.event);
            if let Event::Failed(why) = record.event {
                failure = Some((record.op, why));
            }
        }
        Outcome { state, failure }
    }

    /// The frames the events make, exactly as a run would make them.
    pub fn frames(&self) -> Frames<std::iter::Copied<std::slice::Iter<'_, Record>>> {
        Frames::new(self.scenario.start, self.records.iter().copied())
    }
}

/// What is wrong with a log, and on which line (from 1).
#[derive(Debug)]
pub enum LogError {
    /// The log could not be read.
    Read(io::Error),
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
    /// An event that cannot follow the ones before it.
    Inconsistent {
        /// The line, from 1.
        line: usize,
        /// What is wrong.
        message: String,
    },
    /// No start line at all.
    Empty,
}

impl fmt::Display for LogError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LogError::Read(error) => write!(f, "cannot read the event log: {error}"),
            LogError::Syntax { line, message } => write!(f, "event log line {line}: {message}"),
            LogError::Start { line, error } => write!(f, "event log line {line}: {error}"),
            LogError::Inconsistent { line, message } => {
                write!(f, "event log line {line}: {message}")
            }
            LogError::Empty => write!(f, "the event log is empty: expected a start line"),
        }
    }
}

impl std::error::Error for LogError {}

/// Reads a log written by [`write_event_log`]. Each event is checked
/// against the state the events before it make (the stot moves from where
/// it is, only creatures fall, turns start from the current orientation…),
/// so a log that does not describe a run is refused rather than drawn.
pub fn read_event_log(input: impl BufRead) -> Result<EventLog, LogError> {
    let mut scenario: Option<Scenario> = None;
    let mut records = Vec::new();
    let mut state = None;
    for (index, text) in input.lines().enumerate() {
        let number = index + 1;
        let text = text.map_err(LogError::Read)?;
        if text.trim().is_empty() {
            continue;
        }
        let line: Line = serde_json::from_str(&text).map_err(|error| LogError::Syntax {
            line: number,
            message: error.to_string(),
        })?;
        match (&scenario, line.kind.as_str()) {
            (None, "start") => {
                let start = Scenario::parse(
                    line.state.as_deref().unwrap_or(""),
                    line.operations.as_deref().unwrap_or(""),
                    line.settle.unwrap_or(false),
                )
                .map_err(|error| LogError::Start {
                    line: number,
                    error,
                })?;
                state = Some(start.start);
                scenario = Some(start);
            }
            (None, _) => {
                return Err(LogError::Syntax {
                    line: number,
                    message: "the first line must be the start (\"kind\":\"start\")".into(),
                })
            }
            (Some(scenario), _) => {
                let current = state.as_mut().ok_or(LogError::Empty)?;
                let event = parse_event(&line, current, scenario).map_err(|message| {
                    LogError::Inconsistent {
                        line: number,
                        message,
                    }
                })?;
                current.apply(&event);
                records.push(Record { op: line.op, event });
            }
        }
    }
    let scenario = scenario.ok_or(LogError::Empty)?;
    Ok(EventLog { scenario, records })
}

fn parse_event(line: &Line, state: &State, scenario: &Scenario) -> Result<Event, String> {
    if let Some(op) = line.op {
        if op >= scenario.operations.len() {
            return Err(format!("operation {op} is past the end of the operations"));
        }
    }
    let cells: Vec<Cell> = line
        .cells
        .as_deref()
        .unwrap_or(&[])
        .iter()
        .map(|&n| Cell::new(n).ok_or_else(|| format!("there is no cell {n}")))
        .collect::<Result<_, _>>()?;
    let cell = |i: usize| {
        cells
            .get(i)
            .copied()
            .ok_or_else(|| format!("a {} event needs {} cell(s)", line.kind, i + 1))
    };
    let creature = || match line.creature.as_deref() {
        Some("shubble") => Ok(Creature::Shubble),
        Some("smole") => Ok(Creature::Smole),
        other => Err(format!("unknown creature {other:?}")),
    };
    match line.kind.as_str() {
        "turned" => {
            let to = orientation(line.orientation)?;
            let from = orientation(line.from)?;
            if from != state.orientation()
                || (to != from.clockwise() && to != from.counter_clockwise())
            {
                return Err(format!(
                    "a quarter turn from {} to {} degrees cannot follow a box at {} degrees",
                    from.degrees(),
                    to.degrees(),
                    state.orientation().degrees()
                ));
            }
            Ok(Event::Turned { from, to })
        }
        "fell" => {
            let moved: CellSet = cells.iter().copied().collect();
            if moved != state.falling() {
                return Err("the cells that fell are not the ones that can fall".into());
            }
            Ok(Event::Fell { moved })
        }
        "left" => {
            let creature = creature()?;
            if state.orientation() != Orientation::STANDARD || state.exit().is_some() {
                return Err("nothing can leave the box here".into());
            }
            Ok(Event::Left { creature })
        }
        "stot-moved" => {
            let (from, to) = (cell(0)?, cell(1)?);
            let adjacent = Direction::ALL
                .iter()
                .any(|&d| from.neighbour(d) == Neighbour::Cell(to));
            if from != state.stot() || !adjacent || state.creature(to).is_some() {
                return Err(format!(
                    "the stot cannot move from cell {from} to cell {to}"
                ));
            }
            Ok(Event::StotMoved { from, to })
        }
        "failed" => parse_failure(line, state, cell, creature).map(Event::Failed),
        other => Err(format!("unknown event kind {other:?}")),
    }
}

fn parse_failure(
    line: &Line,
    state: &State,
    cell: impl Fn(usize) -> Result<Cell, String>,
    creature: impl Fn() -> Result<Creature, String>,
) -> Result<Failure, String> {
    if line.reason.as_deref() == Some("smole-escaped") {
        return Ok(Failure::SmoleEscaped);
    }
    let direction = match line.direction.as_deref() {
        Some("left") => Direction::Left,
        Some("right") => Direction::Right,
        Some("up") => Direction::Up,
        Some("down") => Direction::Down,
        other => return Err(format!("unknown direction {other:?}")),
    };
    let from = cell(0)?;
    if from != state.stot() {
        return Err(format!("the stot is not in cell {from}"));
    }
    let reason = match line.reason.as_deref() {
        Some("wall") => Blocked::Wall,
        Some("opening") => Blocked::Opening,
        Some("occupied") => Blocked::Occupied {
            cell: cell(1)?,
            creature: creature()?,
        },
        Some("loaded") => Blocked::Loaded {
            cell: cell(1)?,
            creature: creature()?,
        },
        other => return Err(format!("unknown failure reason {other:?}")),
    };
    Ok(Failure::StotBlocked {
        from,
        direction,
        reason,
    })
}

fn orientation(degrees: Option<u32>) -> Result<Orientation, String> {
    match degrees {
        Some(d) if d % 90 == 0 && d < 360 => Ok(Orientation::from_quarters((d / 90) as i32)),
        other => Err(format!(
            "orientation {other:?} is not 0, 90, 180 or 270 degrees"
        )),
    }
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
            assert_eq!(log.records, scenario.events().collect::<Vec<_>>());
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
        assert!(
            error
                .to_string()
                .starts_with("event log line 6: the stot cannot move"),
            "{error}"
        );
        let no_start = text.lines().skip(1).collect::<Vec<_>>().join("\n");
        assert!(read_event_log(no_start.as_bytes()).is_err());
        assert!(matches!(read_event_log(&b""[..]), Err(LogError::Empty)));
    }
}
