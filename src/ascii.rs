//! The ASCII picture of a state (BOX.md §7) and the frame dump (§8).

use std::io::{self, Write};

use crate::frames::Frame;
use crate::geometry::{Cell, EXIT_POSITION};
use crate::operation::format_operations;
use crate::state::State;
use crate::Scenario;

/// The picture of `state` turned to its orientation: one character per
/// cell, `*` (or the creature passing through) at the exit cell, no trailing
/// spaces, no common indentation, lines ended by `\n`.
pub fn picture(state: &State) -> String {
    let orientation = state.orientation();
    let exit = state.exit().map_or('*', |creature| creature.symbol());
    let marks: Vec<((i32, i32), char)> = Cell::all()
        .map(|cell| (cell.position(), state.content(cell).symbol()))
        .chain(std::iter::once((EXIT_POSITION, exit)))
        .map(|(position, symbol)| (orientation.turn(position), symbol))
        .collect();
    draw(&marks)
}

fn draw(marks: &[((i32, i32), char)]) -> String {
    let min_x = marks.iter().map(|((x, _), _)| *x).min().unwrap_or(0);
    let min_y = marks.iter().map(|((_, y), _)| *y).min().unwrap_or(0);
    let max_x = marks.iter().map(|((x, _), _)| *x).max().unwrap_or(0);
    let max_y = marks.iter().map(|((_, y), _)| *y).max().unwrap_or(0);
    let width = (max_x - min_x + 1) as usize;
    let mut rows = vec![vec![' '; width]; (max_y - min_y + 1) as usize];
    for &((x, y), symbol) in marks {
        rows[(y - min_y) as usize][(x - min_x) as usize] = symbol;
    }
    let mut text = String::new();
    for row in rows {
        let line: String = row.into_iter().collect();
        text.push_str(line.trim_end());
        text.push('\n');
    }
    text
}

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
    if let Some(failure) = frame.failure {
        header += &format!(", failed: {failure}");
    }
    header
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::event::Event;
    use crate::geometry::Orientation;

    #[test]
    fn figure_1a_standard_and_turned_pictures_match_the_spec() {
        let mut state = State::parse(".........@...o....ooo..xox...", false).unwrap();
        assert_eq!(
            picture(&state),
            "......\n ...@..\n .o...\n.ooo..\n xox...\n      *\n"
        );
        state.apply(&Event::Turned {
            from: Orientation::STANDARD,
            to: Orientation::from_quarters(1),
        });
        let mut sink = |_| {};
        crate::engine::settle(&mut state, &mut sink).unwrap();
        assert_eq!(
            picture(&state),
            "  .  .\n .....\n .....\n .o...\n xo.@.\n ooo..\n*x  .\n"
        );
    }
}
