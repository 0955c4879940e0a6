//! Whether a start or a turn is allowed (§3.1, §4.3, §5), checked in the
//! order of §10.6.8 before anything is played: the rule a turn breaks,
//! and where in the turn.

use std::fmt;

use crate::model::code::Code;
use crate::model::field::Cell;
use crate::model::params::Params;
use crate::model::state::GameState;
use crate::model::team::{PerTeam, Team};
use crate::model::turn::{Item, Step};

/// A rule a turn breaks.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The code of §10 for the broken rule.
    pub code: Code,
    /// What is wrong, ending with the rule's section.
    pub message: String,
    /// Where in the turn: the step, and the entry of a clear or place.
    pub at: Option<(usize, Option<usize>)>,
}

impl Violation {
    pub(super) fn new(code: Code, message: String) -> Violation {
        Violation {
            code,
            message,
            at: None,
        }
    }

    pub(super) fn at(mut self, step: usize, item: Option<usize>) -> Violation {
        self.at = Some((step, item));
        self
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// Checks a start against §3.1 (see [`GameReferee::start`]).
pub(super) fn check_start(
    params: &Params,
    first: Team,
    start: &PerTeam<Vec<Cell>>,
    current: PerTeam<Cell>,
) -> Result<(), Violation> {
    let size = params.field.size();
    let cells: Vec<Cell> = [first, first.other()]
        .iter()
        .flat_map(|&team| start[team].iter().chain([&current[team]]))
        .copied()
        .collect();
    if let Some(outside) = cells.iter().find(|&&cell| !size.contains(cell)) {
        return Err(Violation::new(
            Code::Cell,
            format!("{outside} is not a cell of the {size} field (§1.2)"),
        ));
    }
    let refuse = |message: String| Err(Violation::new(Code::Start, message));
    if start[first].len() != 1 || start[first.other()].len() != 2 {
        return refuse(format!(
            "the first team {first} starts with exactly one cell and the second {} with two (§3.1)",
            first.other()
        ));
    }
    let mut all: Vec<Cell> = start.a.iter().chain(&start.b).copied().collect();
    all.sort();
    all.dedup();
    if all.len() != 3 {
        return refuse("the three start cells must be distinct (§3.1)".into());
    }
    if let Some(team) = [Team::A, Team::B]
        .into_iter()
        .find(|&team| !start[team].contains(&current[team]))
    {
        return refuse(format!(
            "{team}'s current cell {} is not one of its start cells (§3.1)",
            current[team]
        ));
    }
    Ok(())
}

/// Checks `steps` as a turn of the team to move in `state` would be checked
/// (§4.3, §5, in the order of §10.6.8), without playing them: for a player
/// that must know whether an answer is legal before it is timed and
/// charged.
pub fn check_steps(state: &GameState, steps: &[Step]) -> Result<(), Violation> {
    check(state, state.to_move, steps).map(|_| ())
}

/// Checks a turn's steps against `state`, in order (§4.3, §5, §10.6.8),
/// without applying them; on success, the steps that empty an empty
/// container (warned of, not refused). A cell off the field is `E-CELL`
/// before anything else: a turn read from a log has had its cells
/// checked, but one built in code or taken from an event log may not.
pub(super) fn check(
    state: &GameState,
    team: Team,
    steps: &[Step],
) -> Result<Vec<usize>, Violation> {
    let size = state.size();
    for (index, step) in steps.iter().enumerate() {
        let cells: Vec<Cell> = match step {
            Step::Clear(items) | Step::Place(items) => items.iter().map(|item| item.cell).collect(),
            Step::Move(cell) => vec![*cell],
            Step::Pass | Step::Empty => Vec::new(),
        };
        if let Some(outside) = cells.iter().find(|&&cell| !size.contains(cell)) {
            return Err(Violation::new(
                Code::Cell,
                format!("{outside} is not a cell of the {size} field (§1.2)"),
            )
            .at(index, None));
        }
    }
    let mut action = false;
    let mut emptied = false;
    let mut load = state.load[team];
    let mut noops = Vec::new();
    let current = state.current[team];
    for (index, step) in steps.iter().enumerate() {
        let fail = |code, message: String| Violation::new(code, message).at(index, None);
        if step.is_action() && action {
            return Err(fail(
                Code::Actions,
                format!(
                    "a turn has exactly one action; {} is a second one (§4.3)",
                    step.word()
                ),
            ));
        }
        action |= step.is_action();
        match step {
            Step::Clear(items) => {
                duplicates(step, items, index)?;
                if emptied {
                    return Err(fail(
                        Code::ClearAfterEmpty,
                        "no clear after emptying the container in the same turn (§5.5)".into(),
                    ));
                }
                let current = current.ok_or_else(|| no_current(step, team).at(index, None))?;
                adjacent(step, items, team, current, index)?;
                for (place, item) in items.iter().enumerate() {
                    let holds = state.count(item.cell);
                    if item.count > holds {
                        return Err(Violation::new(
                            Code::TooMany,
                            format!(
                                "clear {}:{}: {} holds {holds} (§5.1)",
                                item.cell, item.count, item.cell
                            ),
                        )
                        .at(index, Some(place)));
                    }
                }
                let total: u32 = items.iter().map(|item| item.count).sum();
                if load + total > state.params.capacity {
                    return Err(fail(
                        Code::Capacity,
                        format!(
                            "clear of {total} with load {load} exceeds the capacity {} (§5.1)",
                            state.params.capacity
                        ),
                    ));
                }
                load += total;
            }
            Step::Place(items) => {
                duplicates(step, items, index)?;
                let current = current.ok_or_else(|| no_current(step, team).at(index, None))?;
                adjacent(step, items, team, current, index)?;
                // In u64: counts are read up to u32::MAX, and a sum of
                // them must not wrap round to something the stock allows.
                let total: u64 = items.iter().map(|item| u64::from(item.count)).sum();
                let stock = state.stock[team];
                if total > u64::from(stock) {
                    return Err(fail(
                        Code::Stock,
                        format!("place of {total} with {stock} left in stock (§5.3)"),
                    ));
                }
            }
            &Step::Move(to) => {
                if state.owner(to) != Some(team) {
                    return Err(fail(
                        Code::MoveNotOwn,
                        format!("move {to}: {to} is not {team}'s territory (§5.2)"),
                    ));
                }
                if current == Some(to) {
                    return Err(fail(
                        Code::MoveSame,
                        format!("move {to}: {to} is already {team}'s current territory (§5.2)"),
                    ));
                }
            }
            Step::Pass => {}
            Step::Empty => {
                if emptied {
                    return Err(fail(
                        Code::EmptyTwice,
                        "the container is emptied at most once per turn (§5.5)".into(),
                    ));
                }
                emptied = true;
                if load == 0 {
                    noops.push(index);
                }
                load = 0;
            }
        }
    }
    if !action {
        return Err(Violation::new(
            Code::Actions,
            "a turn has exactly one action; none given (§4.3)".into(),
        ));
    }
    Ok(noops)
}

fn duplicates(step: &Step, items: &[Item], index: usize) -> Result<(), Violation> {
    for (place, item) in items.iter().enumerate() {
        if items[..place]
            .iter()
            .any(|earlier| earlier.cell == item.cell)
        {
            return Err(Violation::new(
                Code::DupCell,
                format!("{}: {} is listed twice (§5.1)", step.word(), item.cell),
            )
            .at(index, Some(place)));
        }
    }
    Ok(())
}

fn no_current(step: &Step, team: Team) -> Violation {
    Violation::new(
        Code::NoCurrent,
        format!("{}: {team} has no current territory (§6.4)", step.word()),
    )
}

fn adjacent(
    step: &Step,
    items: &[Item],
    team: Team,
    current: Cell,
    index: usize,
) -> Result<(), Violation> {
    let section = if matches!(step, Step::Clear(_)) {
        "§5.1"
    } else {
        "§5.3"
    };
    for (place, item) in items.iter().enumerate() {
        if !item.cell.touches(current) {
            return Err(Violation::new(
                Code::NotAdjacent,
                format!(
                    "{} {}: {} is not adjacent to {team}'s current territory {current} ({section})",
                    step.word(),
                    item.cell,
                    item.cell
                ),
            )
            .at(index, Some(place)));
        }
    }
    Ok(())
}
