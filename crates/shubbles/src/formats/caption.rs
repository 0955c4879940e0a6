//! The words of `--caption`: which operation a picture shows, where it is in
//! the operation string, and how the box is turned, so that an attached GIF
//! explains itself.

use crate::model::event::{Blocked, Failure};
use crate::model::operation::Operation;
use crate::rules::frames::Frame;

/// The caption of `frame` in a run of `operations`: the line naming the
/// operation (`3/9  |  half turn  180°`), and on the last frame of a failed
/// run a second line saying what failed (`operation 3 ^ refused: a wall`).
/// That frame's first line names the operation that failed, which for a
/// refused stot move is the one after the operation that made the frame.
/// Without `show_failure` (a picture on the way to that frame) the second
/// line is left out and the first names the frame's own operation.
pub fn caption(
    frame: &Frame,
    operations: &[Operation],
    show_failure: bool,
) -> (String, Option<String>) {
    let degrees = frame.state.orientation().degrees();
    let count = operations.len();
    let made_by = frame.cause.map(|record| record.op);
    let failure = frame.failure.filter(|_| show_failure);
    let named = match failure {
        Some(failure) => Some(failed_operation(frame, failure)),
        None => made_by,
    };
    let first = match named {
        None => format!("start  {degrees}°"),
        Some(None) => format!("settling  {degrees}°"),
        Some(Some(i)) => match operations.get(i) {
            Some(op) => format!("{}/{count}  {op}  {}  {degrees}°", i + 1, op.description()),
            None => format!("operation {}  {degrees}°", i + 1),
        },
    };
    let second = failure.map(|failure| failure_words(frame, failure, operations));
    (first, second)
}

/// Which operation a failure marked on `frame` belongs to (`None` while
/// settling). A refused stot move is the operation after the one that made
/// the frame (the first when the frame is the start); an escaping smole
/// falls in that operation's own ticks.
fn failed_operation(frame: &Frame, failure: Failure) -> Option<usize> {
    let made_by = frame.cause.and_then(|record| record.op);
    match failure {
        Failure::SmoleEscaped => made_by,
        Failure::StotBlocked { .. } => Some(made_by.map_or(0, |i| i + 1)),
    }
}

/// What failed, in few enough words to fit under the box and in a frame
/// dump's header: `operation 3 ^ refused: a wall`, `operation 2 + failed: a
/// smole escaped`, `settling failed: a smole escaped`.
pub fn failure_words(frame: &Frame, failure: Failure, operations: &[Operation]) -> String {
    let at = failed_operation(frame, failure);
    let operation = match at.map(|i| (i, operations.get(i))) {
        Some((i, Some(op))) => format!("operation {} {op}", i + 1),
        Some((i, None)) => format!("operation {}", i + 1),
        None => "settling".to_string(),
    };
    match failure {
        Failure::SmoleEscaped => format!("{operation} failed: a smole escaped"),
        Failure::StotBlocked { reason, .. } => {
            let reason = match reason {
                Blocked::Wall => "a wall".to_string(),
                Blocked::Opening => "the opening (the stot stays in)".to_string(),
                Blocked::Occupied { cell, creature } => {
                    format!("cell {cell} holds a {}", creature.name())
                }
                Blocked::Loaded { cell, creature } => {
                    format!("a {} rests on it (cell {cell})", creature.name())
                }
            };
            format!("{operation} refused: {reason}")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::scenario::Scenario;

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

        // The last frame names the operation that failed, not the one
        // that made the frame.
        let wall = captions("@......................x.x...", "<", false);
        assert_eq!(wall.len(), 1);
        assert_eq!(wall[0].0, "1/1  <  stot left  0°");
        assert_eq!(wall[0].1.as_deref(), Some("operation 1 < refused: a wall"));
        let refused = captions(".........@...o....ooo..xox...", "+^^", false);
        let last = refused.last().unwrap();
        assert_eq!(last.0, "3/3  ^  stot up  90°");
        assert_eq!(last.1.as_deref(), Some("operation 3 ^ refused: a wall"));
        assert_eq!(refused[refused.len() - 2].0, "1/3  +  turn clockwise  90°");

        let escape = captions("@................x.....o..x..", "+-", false);
        let last = escape.last().unwrap();
        assert_eq!(last.0, "2/2  -  turn counter-clockwise  0°");
        assert_eq!(
            last.1.as_deref(),
            Some("operation 2 - failed: a smole escaped")
        );
    }
}
