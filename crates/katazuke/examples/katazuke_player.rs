//! A minimal 片付けマス player for `katazuke play`, in Rust with std only: the
//! twin of `examples/katazuke/player.py`, answer for answer.
//!
//! It keeps the game from what the referee sends (the parameters, the field,
//! the start cells and every `played` turn, its own included), answers each
//! `isready` with `readyok`, and answers each `go` with one line: it claims
//! the cells next to its current cell that fit in its container, smallest
//! first, and adds `empty` when the container is then full; if none fits it
//! fills the container from one cell; with a full container it empties it;
//! with nothing next to it to clear it moves to an own cell that has
//! objects next to it; otherwise it passes. A line it cannot read is
//! skipped.
//!
//! In a match, against the Python player:
//!
//! ```text
//! katazuke play --A "cargo run -q --release --example katazuke_player" \
//!     --B "python3 examples/katazuke/player.py" --params FILE
//! ```
//!
//! (or build it once with `cargo build --release --example katazuke_player`
//! and give `--A target/release/examples/katazuke_player`).

use std::io::{self, BufRead, Write};

/// A cell: row and column, counted from 0 (`c2` is `(1, 2)`).
type Cell = (usize, usize);

/// The words that begin a step in a `played` line.
const STEP_WORDS: [&str; 6] = ["clear", "place", "move", "pass", "empty", "timeout"];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Team {
    A,
    B,
}

impl Team {
    fn parse(word: &str) -> Option<Team> {
        match word {
            "A" => Some(Team::A),
            "B" => Some(Team::B),
            _ => None,
        }
    }

    fn other(self) -> Team {
        match self {
            Team::A => Team::B,
            Team::B => Team::A,
        }
    }

    fn index(self) -> usize {
        match self {
            Team::A => 0,
            Team::B => 1,
        }
    }
}

/// `c2` → `(1, 2)`.
fn parse_cell(word: &str) -> Option<Cell> {
    let mut chars = word.chars();
    let column = chars.next().filter(char::is_ascii_lowercase)?;
    let row: usize = chars.as_str().parse().ok()?;
    Some((row.checked_sub(1)?, column as usize - 'a' as usize))
}

/// `(1, 2)` → `c2`.
fn cell_name((row, column): Cell) -> String {
    let letter = u32::try_from(column)
        .ok()
        .and_then(|column| char::from_u32('a' as u32 + column))
        .unwrap_or('?');
    format!("{letter}{}", row + 1)
}

/// `c2:3` → `((1, 2), 3)`; `c2` → `((1, 2), 1)`.
fn parse_item(word: &str) -> Option<(Cell, u32)> {
    let (cell, n) = match word.split_once(':') {
        Some((cell, n)) => (cell, n.parse().ok()?),
        None => (word, 1),
    };
    Some((parse_cell(cell)?, n))
}

/// One step of a refereed turn.
enum Step {
    Clear(Vec<(Cell, u32)>),
    Place(Vec<(Cell, u32)>),
    Move(Cell),
    Empty,
    /// `pass`, or `timeout`: nothing happens.
    Nothing,
}

/// The steps of a `played` line (after team and time), or `None` if any
/// word of it is not understood.
fn parse_steps(words: &[&str]) -> Option<Vec<Step>> {
    let mut words = words.iter().copied().peekable();
    let mut steps = Vec::new();
    while let Some(word) = words.next() {
        steps.push(match word {
            "clear" | "place" => {
                let mut items = Vec::new();
                while let Some(item) = words.next_if(|word| !STEP_WORDS.contains(word)) {
                    items.push(parse_item(item)?);
                }
                if word == "clear" {
                    Step::Clear(items)
                } else {
                    Step::Place(items)
                }
            }
            "move" => Step::Move(parse_cell(words.next()?)?),
            "empty" => Step::Empty,
            "pass" | "timeout" => Step::Nothing,
            _ => return None,
        });
    }
    Some(steps)
}

/// The entry of `grid` at `cell`, if the cell is on it.
fn at<T>(grid: &mut [Vec<T>], (row, column): Cell) -> Option<&mut T> {
    grid.get_mut(row)?.get_mut(column)
}

/// What the player knows of the match and the game in progress.
#[derive(Default)]
struct Player {
    me: Option<Team>,
    capacity: u32,
    /// Stocks as sent: the first team's, then the second team's.
    stocks: [u32; 2],
    /// The field as sent, row by row.
    field: Vec<Vec<u32>>,
    count: Vec<Vec<u32>>,
    owner: Vec<Vec<Option<Team>>>,
    current: [Option<Cell>; 2],
    load: [u32; 2],
    stock: [u32; 2],
}

impl Player {
    /// `game N first X`: the field as sent, no territory yet, containers
    /// empty, stocks full.
    fn new_game(&mut self, first: Team) {
        self.count = self.field.clone();
        self.owner = self.field.iter().map(|row| vec![None; row.len()]).collect();
        self.current = [None; 2];
        self.load = [0; 2];
        self.stock[first.index()] = self.stocks[0];
        self.stock[first.other().index()] = self.stocks[1];
    }

    /// `start X cell[*] [cell[*]]`: the team's start cells, emptied and
    /// owned; the one marked `*` (or the only one) is current.
    fn start(&mut self, team: Team, words: &[&str]) {
        for word in words {
            let marked = word.ends_with('*') || words.len() == 1;
            let Some(cell) = parse_cell(word.trim_end_matches('*')) else {
                continue;
            };
            if let Some(count) = at(&mut self.count, cell) {
                *count = 0;
            }
            if let Some(owner) = at(&mut self.owner, cell) {
                *owner = Some(team);
            }
            if marked {
                self.current[team.index()] = Some(cell);
            }
        }
    }

    /// A refereed turn of either team, step by step.
    fn played(&mut self, team: Team, steps: &[Step]) {
        let me = team.index();
        for step in steps {
            match step {
                Step::Clear(items) => {
                    for &(cell, n) in items {
                        let Some(count) = at(&mut self.count, cell) else {
                            continue;
                        };
                        *count = count.saturating_sub(n);
                        self.load[me] = self.load[me].saturating_add(n);
                        if *count == 0 {
                            if let Some(owner) = at(&mut self.owner, cell) {
                                *owner = Some(team);
                            }
                        }
                    }
                }
                Step::Place(items) => {
                    for &(cell, n) in items {
                        let Some(count) = at(&mut self.count, cell) else {
                            continue;
                        };
                        *count = count.saturating_add(n);
                        self.stock[me] = self.stock[me].saturating_sub(n);
                        // The cell is neutral now, and no longer anyone's current cell.
                        if let Some(held) = at(&mut self.owner, cell).and_then(Option::take) {
                            if self.current[held.index()] == Some(cell) {
                                self.current[held.index()] = None;
                            }
                        }
                    }
                }
                Step::Move(cell) => self.current[me] = Some(*cell),
                Step::Empty => self.load[me] = 0,
                Step::Nothing => {}
            }
        }
    }

    fn count(&self, (row, column): Cell) -> u32 {
        self.count
            .get(row)
            .and_then(|r| r.get(column))
            .copied()
            .unwrap_or(0)
    }

    fn owner(&self, (row, column): Cell) -> Option<Team> {
        self.owner
            .get(row)
            .and_then(|r| r.get(column))
            .copied()
            .flatten()
    }

    /// Every cell of the field, row by row.
    fn cells(&self) -> impl Iterator<Item = Cell> + '_ {
        self.count
            .iter()
            .enumerate()
            .flat_map(|(row, counts)| (0..counts.len()).map(move |column| (row, column)))
    }

    /// The neighbours of `cell` that hold objects.
    fn near(&self, (row, column): Cell) -> Vec<Cell> {
        let up = row.checked_sub(1).map(|row| (row, column));
        let left = column.checked_sub(1).map(|column| (row, column));
        [up, Some((row + 1, column)), left, Some((row, column + 1))]
            .into_iter()
            .flatten()
            .filter(|&cell| self.count(cell) > 0)
            .collect()
    }

    /// The answer to `go`: one line of steps.
    fn answer(&self) -> String {
        let Some(me) = self.me else {
            return "pass".to_string();
        };
        let current = self.current[me.index()];
        let room = self.capacity.saturating_sub(self.load[me.index()]);
        let mine: Vec<Cell> = self
            .cells()
            .filter(|&cell| self.owner(cell) == Some(me) && Some(cell) != current)
            .collect();
        let with_objects_near = mine.iter().find(|&&cell| !self.near(cell).is_empty());
        let Some(current) = current else {
            // No current cell (cancelled by a place): move to an own cell.
            return with_objects_near.or(mine.first()).map_or_else(
                || "pass".to_string(),
                |&cell| format!("move {}", cell_name(cell)),
            );
        };
        let mut cells = self.near(current);
        cells.sort_by_key(|&cell| (self.count(cell), cell));
        // Claim whole cells, smallest first, while they fit.
        let mut take: Vec<(Cell, u32)> = Vec::new();
        let mut total = 0u32;
        for &cell in &cells {
            let n = self.count(cell);
            if total.saturating_add(n) <= room {
                take.push((cell, n));
                total += n;
            }
        }
        // Else fill the container from one cell.
        if take.is_empty() && room > 0 {
            if let Some(&cell) = cells.first() {
                take.push((cell, room));
                total = room;
            }
        }
        if !take.is_empty() {
            let items: Vec<String> = take
                .iter()
                .map(|&(cell, n)| format!("{}:{n}", cell_name(cell)))
                .collect();
            let empty = if total == room { " empty" } else { "" };
            return format!("clear {}{empty}", items.join(" "));
        }
        if room == 0 {
            return "empty pass".to_string();
        }
        with_objects_near.map_or_else(
            || "pass".to_string(),
            |&cell| format!("move {}", cell_name(cell)),
        )
    }
}

/// The next line of input, `None` at the end (or on a read error); bytes
/// that are not UTF-8 are replaced, not fatal.
fn read_line(input: &mut impl BufRead) -> Option<String> {
    let mut bytes = Vec::new();
    match input.read_until(b'\n', &mut bytes) {
        Ok(0) | Err(_) => None,
        Ok(_) => Some(String::from_utf8_lossy(&bytes).into_owned()),
    }
}

/// `field R C` and then `R` lines of `C` counts, or `None` if they are not
/// that.
fn read_field(input: &mut impl BufRead, rows: &str, columns: &str) -> Option<Vec<Vec<u32>>> {
    let (rows, columns): (usize, usize) = (rows.parse().ok()?, columns.parse().ok()?);
    let lines: Vec<String> = (0..rows).map_while(|_| read_line(input)).collect();
    let field: Vec<Vec<u32>> = lines
        .iter()
        .map(|line| line.split_whitespace().map(|n| n.parse().ok()).collect())
        .collect::<Option<_>>()?;
    (field.len() == rows && field.iter().all(|row| row.len() == columns)).then_some(field)
}

fn main() {
    let mut input = io::stdin().lock();
    let mut output = io::stdout().lock();
    let mut player = Player::default();
    while let Some(line) = read_line(&mut input) {
        let text = line.split('#').next().unwrap_or_default(); // `#` starts a comment
        let words: Vec<&str> = text.split_whitespace().collect();
        let mut reply = None;
        match words.as_slice() {
            ["quit", ..] => break,
            ["you", team, ..] => player.me = Team::parse(team).or(player.me),
            ["capacity", n, ..] => player.capacity = n.parse().unwrap_or(player.capacity),
            ["stock", first, rest @ ..] => {
                if let Ok(first) = first.parse() {
                    let second = rest.first().and_then(|n| n.parse().ok()).unwrap_or(first);
                    player.stocks = [first, second];
                }
            }
            ["field", rows, columns, ..] => {
                if let Some(field) = read_field(&mut input, rows, columns) {
                    player.field = field;
                }
            }
            ["game", _, "first", team, ..] => {
                if let Some(team) = Team::parse(team) {
                    player.new_game(team);
                }
            }
            ["start", team, cells @ ..] => {
                if let Some(team) = Team::parse(team) {
                    player.start(team, cells);
                }
            }
            ["played", team, _, steps @ ..] => {
                if let (Some(team), Some(steps)) = (Team::parse(team), parse_steps(steps)) {
                    player.played(team, &steps);
                }
            }
            // `readyok` marks where the answer to the coming `go` begins.
            ["isready", ..] => reply = Some("readyok".to_string()),
            ["go", ..] => reply = Some(player.answer()),
            _ => {}
        }
        if let Some(line) = reply {
            if writeln!(output, "{line}")
                .and_then(|()| output.flush())
                .is_err()
            {
                return; // The referee is gone.
            }
        }
    }
}
