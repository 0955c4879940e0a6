//! The ASCII picture of a state (BOX.md §7).

use crate::model::geometry::{Cell, EXIT_POSITION};
use crate::model::state::State;

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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::event::Event;
    use crate::model::geometry::Orientation;
    use crate::rules::engine::settle;

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
        settle(&mut state, &mut sink).unwrap();
        assert_eq!(
            picture(&state),
            "  .  .\n .....\n .....\n .o...\n xo.@.\n ooo..\n*x  .\n"
        );
    }
}
