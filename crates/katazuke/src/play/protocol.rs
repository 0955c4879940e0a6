//! The line protocol of §15.1, as the referee writes it: each message a
//! few lines of plain text, in the spirit of GTP and UCI. A program reads
//! them on its standard input and answers each `go` with one line of steps
//! (§11.2) on its standard output. Before each `go` comes `isready`, which
//! a program may answer with `readyok` to mark where its answer begins (as
//! UCI's engines do), so that nothing else it writes is taken for one.
//!
//! ```text
//! katazuke 1
//! you A
//! capacity 4
//! stock 2 2
//! team_time 20000
//! game_time 36000
//! field 5 5
//! 1 2 1 3 1
//! …
//! game 1 first A
//! start A b2*
//! start B d4* d2
//! isready
//! go 20000 36000
//! played A 3000 clear b1:2 a2:2
//! …
//! result A 5 B 6
//! quit
//! ```

use std::fmt::Write;

use crate::engine::action::Words;
use crate::log::lines;
use crate::model::field::Cell;
use crate::model::params::Params;
use crate::model::state::GameState;
use crate::model::team::{PerTeam, Team};
use crate::model::turn::{Play, Step};

/// What the referee tells every player, in the protocol's order (§15.1).
#[derive(Clone, Copy, Debug)]
pub enum Message<'a> {
    /// The match begins; the player plays `you`.
    Match {
        /// Its team.
        you: Team,
    },
    /// A game begins.
    Game {
        /// 1 or 2.
        number: u8,
        /// Its parameters.
        params: &'a Params,
        /// Who takes turn 1.
        first: Team,
        /// Each team's start cells.
        start: &'a PerTeam<Vec<Cell>>,
        /// Each team's current one.
        current: PerTeam<Cell>,
    },
    /// A turn was refereed: its team, the time charged, and the steps
    /// applied (none for a timeout; an illegal turn counted as a pass
    /// shows as a pass).
    Played {
        /// Who played.
        team: Team,
        /// Ms charged.
        charged: u64,
        /// What was applied.
        steps: Option<&'a [Step]>,
    },
    /// The game ended with these territories.
    Result {
        /// Cells owned.
        territory: PerTeam<u32>,
    },
    /// The match is over.
    Quit,
}

/// The protocol's version, its first line.
pub const VERSION_LINE: &str = "katazuke 1";

/// The lines of `message`, each ending in a newline.
pub fn message_lines(message: &Message<'_>) -> String {
    let mut text = String::new();
    // Writing to a String cannot fail.
    let _ = write_message(&mut text, message);
    text
}

fn write_message(text: &mut String, message: &Message<'_>) -> std::fmt::Result {
    match *message {
        Message::Match { you } => {
            writeln!(text, "{VERSION_LINE}")?;
            writeln!(text, "you {you}")
        }
        Message::Game {
            number,
            params,
            first,
            start,
            current,
        } => {
            writeln!(text, "capacity {}", params.capacity)?;
            writeln!(text, "stock {} {}", params.stock.first, params.stock.second)?;
            writeln!(text, "team_time {}", params.team_time)?;
            writeln!(text, "game_time {}", params.game_time)?;
            let size = params.field.size();
            writeln!(text, "field {} {}", size.rows, size.columns)?;
            for row in params.field.rows() {
                let counts: Vec<String> = row.iter().map(u32::to_string).collect();
                writeln!(text, "{}", counts.join(" "))?;
            }
            writeln!(text, "game {number} first {first}")?;
            for team in [first, first.other()] {
                write!(text, "start {team}")?;
                for &cell in &start[team] {
                    let mark = if cell == current[team] { "*" } else { "" };
                    write!(text, " {cell}{mark}")?;
                }
                writeln!(text)?;
            }
            Ok(())
        }
        Message::Played {
            team,
            charged,
            steps,
        } => match steps {
            Some(steps) => writeln!(text, "played {team} {charged} {}", Words(steps)),
            None => writeln!(text, "played {team} {charged} timeout"),
        },
        Message::Result { territory } => {
            writeln!(text, "result A {} B {}", territory.a, territory.b)
        }
        Message::Quit => writeln!(text, "quit"),
    }
}

/// A program's answer line read in the steps grammar of §11.2 (short forms
/// allowed); `timeout` lets the clock run out (none).
pub fn read_answer(team: Team, line: &str, state: &GameState) -> Result<Option<Vec<Step>>, String> {
    let text = lines::trim_blanks(line.trim_end_matches(['\n', '\r']));
    if text == "timeout" {
        return Ok(None);
    }
    if text.contains('#') {
        return Err("an answer has no comment".into());
    }
    let turn_line = format!("{team} 0 {text}");
    match lines::turn(&lines::split(&turn_line), state.size()) {
        Ok(read) => match read.play {
            Play::Steps { steps, .. } => Ok(Some(steps)),
            Play::Timeout => Ok(None),
        },
        Err(error) => Err(format!("{} [{}]", error.message, error.code)),
    }
}

/// The line the referee writes just before each `go`, as UCI's `isready`.
pub const IS_READY: &str = "isready";

/// A program's answer to [`IS_READY`]: the line after it is its answer to
/// the `go` that follows (`super::program` says how a program that never
/// writes it is read).
pub const READY_OK: &str = "readyok";

/// The `go` line: the mover's clock and the game clock, ms.
pub fn go_line(team_left: u64, game_left: u64) -> String {
    format!("go {team_left} {game_left}\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::field::Field;
    use crate::model::params::Stock;
    use crate::model::turn::{Item, Step};

    fn cell(name: &str) -> Cell {
        Cell::parse(name).expect("a cell")
    }

    #[test]
    fn messages_are_the_lines_of_section_15_1() {
        let params = Params {
            field: Field::new(&[vec![1, 2, 0], vec![3, 1, 2]]).expect("a field"),
            capacity: 4,
            stock: Stock {
                first: 2,
                second: 3,
            },
            team_time: 20_000,
            game_time: 36_000,
        };
        let start = PerTeam {
            a: vec![cell("a1")],
            b: vec![cell("c1"), cell("c2")],
        };
        let current = PerTeam {
            a: cell("a1"),
            b: cell("c2"),
        };
        let game = Message::Game {
            number: 1,
            params: &params,
            first: Team::A,
            start: &start,
            current,
        };
        assert_eq!(
            message_lines(&Message::Match { you: Team::B }) + &message_lines(&game),
            "katazuke 1\nyou B\ncapacity 4\nstock 2 3\nteam_time 20000\ngame_time 36000\n\
             field 2 3\n1 2 0\n3 1 2\ngame 1 first A\nstart A a1*\nstart B c1 c2*\n"
        );
        let steps = [
            Step::Clear(vec![Item {
                cell: cell("b1"),
                count: 2,
            }]),
            Step::Empty,
        ];
        let played = Message::Played {
            team: Team::A,
            charged: 3_000,
            steps: Some(&steps),
        };
        assert_eq!(message_lines(&played), "played A 3000 clear b1:2 empty\n");
        let timeout = Message::Played {
            team: Team::B,
            charged: 17,
            steps: None,
        };
        assert_eq!(message_lines(&timeout), "played B 17 timeout\n");
        let result = Message::Result {
            territory: PerTeam { a: 5, b: 6 },
        };
        assert_eq!(message_lines(&result), "result A 5 B 6\n");
        assert_eq!(go_line(17_000, 33_000), "go 17000 33000\n");
    }
}
