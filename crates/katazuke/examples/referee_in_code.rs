//! Referees a 片付けマス match built in Rust: the record of two short games
//! on a 3x3 field, written as a `.ktz` log, refereed from the top, and its
//! results printed as `katazuke check` would. Both games are drawn 4 to 4
//! and the objects are level, so the time total decides (criterion 4).
//!
//! `cargo run --example referee_in_code` (add `-- --log` to see the log).

use katazuke::{
    read, report_text, Cell, Field, GameRecord, Item, MatchRecord, Params, PerTeam, Play, Policy,
    Results, Step, Stock, Team, Turn,
};

fn cell(name: &str) -> Cell {
    Cell::parse(name).expect("a cell name")
}

/// A turn of `seconds` doing `steps`.
fn turn(team: Team, seconds: f64, steps: Vec<Step>) -> (Turn, Option<String>) {
    let duration = (seconds * 1000.0).round() as u64;
    let play = Play::Steps { duration, steps };
    (Turn { team, play }, None)
}

fn clear(items: &[(&str, u32)]) -> Step {
    Step::Clear(
        items
            .iter()
            .map(|&(name, count)| Item {
                cell: cell(name),
                count,
            })
            .collect(),
    )
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let params = Params {
        field: Field::new(&[vec![1, 2, 1], vec![2, 0, 2], vec![1, 2, 1]])?,
        capacity: 3,
        stock: Stock {
            first: 1,
            second: 1,
        },
        team_time: 10_000,
        game_time: 20_000,
    };
    // Game 1: A from a1; B from c3 (current) and c1. Each clears around
    // its current territory, emptying when the container is full, until
    // the field is clear.
    let game_1 = GameRecord {
        first: Team::A,
        start: PerTeam {
            a: vec![cell("a1")],
            b: vec![cell("c3"), cell("c1")],
        },
        current: PerTeam {
            a: cell("a1"),
            b: cell("c3"),
        },
        turns: vec![
            turn(Team::A, 2.0, vec![clear(&[("b1", 2)])]),
            turn(Team::B, 2.5, vec![clear(&[("c2", 2)])]),
            turn(Team::A, 2.0, vec![clear(&[("a2", 1)]), Step::Empty]),
            turn(Team::B, 2.0, vec![clear(&[("b3", 1)])]),
            turn(Team::A, 1.5, vec![clear(&[("a2", 1)])]),
            turn(Team::B, 1.5, vec![Step::Empty, Step::Pass]),
            turn(Team::A, 2.0, vec![Step::Move(cell("a2"))]),
            turn(Team::B, 2.0, vec![clear(&[("b3", 1)])]),
            turn(Team::A, 2.0, vec![clear(&[("a3", 1)])]),
        ],
    };
    // Game 2, first and second swapped: B from a1; A from c3 and c1
    // (current).
    let game_2 = GameRecord {
        first: Team::B,
        start: PerTeam {
            a: vec![cell("c3"), cell("c1")],
            b: vec![cell("a1")],
        },
        current: PerTeam {
            a: cell("c1"),
            b: cell("a1"),
        },
        turns: vec![
            turn(Team::B, 2.0, vec![clear(&[("b1", 2)])]),
            turn(Team::A, 2.0, vec![clear(&[("c2", 2)])]),
            turn(Team::B, 2.0, vec![clear(&[("a2", 1)]), Step::Empty]),
            turn(Team::A, 1.0, vec![Step::Move(cell("c3")), Step::Empty]),
            turn(Team::B, 1.0, vec![clear(&[("a2", 1)])]),
            turn(Team::A, 2.0, vec![clear(&[("b3", 2)])]),
            turn(Team::B, 1.0, vec![Step::Move(cell("a2"))]),
            turn(Team::A, 1.0, vec![Step::Pass]),
            turn(Team::B, 1.0, vec![clear(&[("a3", 1)])]),
        ],
    };
    let record = MatchRecord {
        names: PerTeam {
            a: Some("Numazu".into()),
            b: Some("Takuma".into()),
        },
        params,
        games: vec![game_1, game_2],
        janken: None,
    };
    let log = record.to_string();
    if std::env::args().any(|arg| arg == "--log") {
        println!("{log}");
    }
    let mut results = Results::default();
    let verdict = read(log.as_bytes(), Policy::Strict, |event| results.apply(event));
    if let Some(error) = &verdict.error {
        eprintln!("{}", error.line_for("built in code"));
        std::process::exit(i32::from(error.code.exit_status()));
    }
    print!("{}", report_text(&results));
    Ok(())
}
