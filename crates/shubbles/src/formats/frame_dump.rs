//! The frame dump of BOX.md §8: every frame's ASCII picture with headers
//! saying what made it.

use std::io::{self, Write};

use super::ascii::picture;
use super::caption::failure_words;
use crate::model::operation::format_operations;
use crate::rules::frames::Frame;
use crate::rules::scenario::Scenario;

/// Writes the frame dump of BOX.md §8: a `# input` line, then one block per
/// frame (a `# frame N, D degrees` header and the picture), blocks separated
/// by an empty line, and a closing `# result` line.
pub fn write_frame_dump(scenario: &Scenario, out: &mut impl Write) -> io::Result<()> {
    writeln!(
        out,
        "# input {} {}",
        scenario.start,
        format_operations(&scenario.operations)
    )?;
    let mut failed = false;
    let mut last_state = scenario.start;
    for frame in scenario.frames() {
        if frame.index > 0 {
            writeln!(out)?;
        }
        writeln!(out, "{}", frame_header(&frame, scenario))?;
        out.write_all(picture(&frame.state).as_bytes())?;
        failed |= frame.failure.is_some();
        last_state = frame.state;
    }
    let result = if failed {
        "!".to_string()
    } else {
        last_state.cells_string()
    };
    writeln!(out, "# result {result}")
}

fn frame_header(frame: &Frame, scenario: &Scenario) -> String {
    let mut header = format!(
        "# frame {}, {} degrees",
        frame.index,
        frame.state.orientation().degrees()
    );
    // The last frame of a failed run names the operation that failed (for
    // a refused stot move, the one after the operation that made it).
    if let Some(failure) = frame.failure {
        return header + ", " + &failure_words(frame, failure, &scenario.operations);
    }
    if let Some(record) = frame.cause {
        match record
            .op
            .and_then(|i| scenario.operations.get(i).map(|op| (i, op)))
        {
            Some((i, op)) => header += &format!(", operation {} {op}", i + 1),
            None => header += ", settling the start",
        }
        header += &format!(" ({})", record.event.kind());
    }
    header
}
