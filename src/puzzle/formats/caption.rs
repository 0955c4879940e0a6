//! The words of `--caption`: which operation a picture shows, where it is in
//! the operation string, and how the box is turned, so that an attached GIF
//! explains itself.

use crate::puzzle::model::event::{Blocked, Failure};
use crate::puzzle::model::operation::Operation;
use crate::puzzle::rules::frames::Frame;

/// The caption of `frame` in a run of `operations`: the line naming the
/// operation (`3/9  |  half turn  180°`), and on the last frame of a failed
/// run a second line saying what failed. Without `show_failure` (a picture on
/// the way to that frame) the second line is left out.
pub fn caption(
    frame: &Frame,
    operations: &[Operation],
    show_failure: bool,
) -> (String, Option<String>) {
    let degrees = frame.state.orientation().degrees();
    let count = operations.len();
    let first = match frame.cause {
        None => format!("start  {degrees}°"),
        Some(record) => match record.op {
            None => format!("settling  {degrees}°"),
            Some(i) => match operations.get(i) {
                Some(op) => format!("{}/{count}  {op}  {}  {degrees}°", i + 1, op.description()),
                None => format!("operation {}  {degrees}°", i + 1),
            },
        },
    };
    let second = match frame.failure {
        Some(failure) if show_failure => {
            // A refused stot move is the operation after the one that made
            // the frame; an escaping smole falls in that operation's ticks.
            let made_by = frame.cause.and_then(|record| record.op);
            let failed_at = match failure {
                Failure::SmoleEscaped => made_by,
                Failure::StotBlocked { .. } => Some(made_by.map_or(0, |i| i + 1)),
            };
            let place = match failed_at.and_then(|i| operations.get(i).map(|op| (i, op))) {
                Some((i, op)) => format!("at {}/{count} {op}", i + 1),
                None => "while settling".to_string(),
            };
            Some(format!("failed {place}: {}", reason(failure)))
        }
        _ => None,
    };
    (first, second)
}

/// Why, in few enough words to fit under the box.
fn reason(failure: Failure) -> String {
    match failure {
        Failure::SmoleEscaped => "a smole escaped".to_string(),
        Failure::StotBlocked { reason, .. } => match reason {
            Blocked::Wall => "the stot hit a wall".to_string(),
            Blocked::Opening => "the stot cannot leave".to_string(),
            Blocked::Occupied { cell, creature } => {
                format!("cell {cell} holds a {}", creature.name())
            }
            Blocked::Loaded { cell, creature } => {
                format!("a {} rests on the stot ({cell})", creature.name())
            }
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::puzzle::rules::scenario::Scenario;

    fn captions(state: &str, ops: &str, settle: bool) -> Vec<(String, Option<String>)> {
        let scenario = Scenario::parse(state, ops, settle).unwrap();
        scenario
            .frames()
            .map(|frame| caption(&frame, &scenario.operations, true))
            .collect()
    }

    #[test]
    fn figure_1a_names_each_operation_and_orientation() {
        let all = captions(".........@...o....ooo..xox...", "+>|<-v+^+", false);
        assert_eq!(all[0].0, "start  0°");
        assert_eq!(all[1].0, "1/9  +  turn clockwise  90°");
        assert_eq!(all[5].0, "2/9  >  stot right  90°");
        assert_eq!(all[6].0, "3/9  |  half turn  180°");
        assert_eq!(all[7].0, "3/9  |  half turn  270°");
        assert!(all.iter().all(|(_, second)| second.is_none()));
    }

    #[test]
    fn settling_and_failures_are_named() {
        let settled = captions(".o.......@...o....ooo..xox...", "", true);
        assert_eq!(settled[1].0, "settling  0°");

        let wall = captions("@......................x.x...", "<", false);
        assert_eq!(wall.len(), 1);
        assert_eq!(wall[0].0, "start  0°");
        assert_eq!(
            wall[0].1.as_deref(),
            Some("failed at 1/1 <: the stot hit a wall")
        );

        let escape = captions("@................x.....o..x..", "+-", false);
        let last = escape.last().unwrap();
        assert_eq!(last.0, "2/2  -  turn counter-clockwise  0°");
        assert_eq!(last.1.as_deref(), Some("failed at 2/2 -: a smole escaped"));
    }
}
