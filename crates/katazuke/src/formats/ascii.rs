//! The board as text (§13.5): counts, territory as `A` or `B`, `*` on a
//! current territory; and the teams' containers, stocks and clocks.

use crate::model::state::GameState;
use crate::model::team::Team;
use crate::model::turn::ClockTime;

/// The board of `state`: column letters over the cells, row numbers before
/// them, each cell its count (`.` for none), or its owner's letter (and
/// `*` when current); then a line per team.
pub fn board(state: &GameState) -> String {
    let size = state.size();
    let mut text = String::from("   ");
    for column in 0..size.columns {
        text += &format!(" {:<2}", char::from(b'a' + column));
    }
    text = text.trim_end().to_string();
    text.push('\n');
    for row in 0..size.rows {
        text += &format!("{:>3}", u32::from(row) + 1);
        for column in 0..size.columns {
            let cell = crate::model::field::Cell { column, row };
            let mark = match state.owner(cell) {
                Some(team) if state.current[team] == Some(cell) => format!("{team}*"),
                Some(team) => team.to_string(),
                None => match state.count(cell) {
                    0 => ".".to_string(),
                    count => count.to_string(),
                },
            };
            text += &format!(" {mark:<2}");
        }
        text = text.trim_end().to_string();
        text.push('\n');
    }
    for team in Team::BOTH {
        let mut line = format!(
            "{team} ({}): territory {}, cleared {}, container {}/{}, stock {}, clock {}",
            state.role(team).name(),
            state.territory(team),
            state.cleared[team],
            state.load[team],
            state.params.capacity,
            state.stock[team],
            ClockTime(state.team_left[team]),
        );
        if state.out[team] {
            line += ", out";
        } else if state.current[team].is_none() {
            line += ", no current territory";
        }
        text += &line;
        text.push('\n');
    }
    text += &format!("game clock {}", ClockTime(state.game_left));
    text += &match state.ended {
        Some(end) => format!(", ended ({end})\n"),
        None => format!(", {} to move\n", state.to_move),
    };
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::reader::read;
    use crate::rules::frames::{FrameKind, Frames};
    use crate::rules::game::Policy;

    #[test]
    fn the_board_after_game_1_turn_9_of_the_worked_example() {
        let log = include_str!("../../../../examples/katazuke/practice.ktz");
        let mut records = Vec::new();
        read(log.as_bytes(), Policy::Strict, |record| {
            records.push(record.clone())
        });
        let frame = Frames::new(records.into_iter())
            .find(|frame| matches!(&frame.kind, FrameKind::Turn(turn) if turn.number == 9))
            .unwrap();
        assert_eq!(
            board(&frame.state),
            "    a  b  c  d  e
  1 1  A  1  3  1
  2 A  A  A* 1  2
  3 1  3  .  B  B*
  4 2  1  2  B  3
  5 1  2  1  B  1
A (first): territory 4, cleared 7, container 3/4, stock 1, clock 0:05.5
B (second): territory 4, cleared 5, container 1/4, stock 2, clock 0:10.5
game clock 0:12.0, B to move
"
        );
    }
}
