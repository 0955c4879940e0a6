//! One game refereed turn by turn (§3–§8): each turn is checked against
//! the state, and what it does comes out as events, which the referee folds
//! into its own state before handing them on.

use crate::model::code::Code;
use crate::model::event::{Event, GameStart};
use crate::model::field::Cell;
use crate::model::params::Params;
use crate::model::state::GameState;
use crate::model::team::{PerTeam, Team};
use crate::model::turn::{Item, Play, Step, Turn};
use crate::rules::legality::{check, check_start, Violation};
use crate::rules::result::GameResult;

/// What to do with a turn that breaks a rule of its steps (§10.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Policy {
    /// Stop at the first rule broken (the default: a referee that guesses
    /// hides scorekeeping mistakes).
    #[default]
    Strict,
    /// Count the turn as a pass with its duration charged, and go on.
    Pass,
}

/// A warning about a turn (§10.4).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Warning {
    /// The code of §10 for the broken rule.
    pub code: Code,
    /// What, ending with the section.
    pub message: String,
    /// The step it is about, if one.
    pub step: Option<usize>,
}

/// What became of a turn that was refereed.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Played {
    /// Its warnings, in the order of its steps.
    pub warnings: Vec<Warning>,
    /// The rule it broke, when [`Policy::Pass`] counted it as a pass.
    pub illegal: Option<Violation>,
}

/// A game being refereed.
#[derive(Clone, Debug)]
pub struct GameReferee {
    state: GameState,
    policy: Policy,
}

impl GameReferee {
    /// Starts game `game`: the three start cells are cleared by the referee
    /// and owned, and the game ends at once if nothing is left (§3, §8.1).
    /// `start` gives each team's cells, `current` the current one of each.
    /// A start that §3.1 does not allow (not one cell for the first team and
    /// two for the second, not distinct, off the field, a current cell not
    /// the team's own) is refused with `E-START` or `E-CELL`.
    pub fn start(
        game: u8,
        params: &Params,
        first: Team,
        start: PerTeam<Vec<Cell>>,
        current: PerTeam<Cell>,
        policy: Policy,
        emit: &mut impl FnMut(&GameState, Event),
    ) -> Result<GameReferee, Violation> {
        check_start(params, first, &start, current)?;
        let size = params.field.size();
        let mut counts = params.field.counts().to_vec();
        let mut removed = Vec::new();
        for team in [first, first.other()] {
            for &cell in &start[team] {
                let count = &mut counts[size.index(cell)];
                removed.push(Item {
                    cell,
                    count: *count,
                });
                *count = 0;
            }
        }
        let state = GameState::start(game, params, first, counts.clone(), &start, current);
        let mut referee = GameReferee { state, policy };
        let field = counts
            .chunks(usize::from(size.columns))
            .map(<[u32]>::to_vec)
            .collect();
        let event = Event::GameStart(Box::new(GameStart {
            first,
            field,
            start,
            current,
            removed,
            params: params.clone(),
        }));
        referee.record(event, emit);
        referee.end_if_over(emit);
        Ok(referee)
    }

    /// Referees a game on from `state` (strictly): for searches and tests
    /// that try turns from a position.
    pub fn resume(state: GameState) -> GameReferee {
        GameReferee {
            state,
            policy: Policy::Strict,
        }
    }

    /// The game as it stands.
    pub fn state(&self) -> &GameState {
        &self.state
    }

    /// Referees one turn written as turn number `number` (if written) and
    /// says what became of it. Checked in the order of §10.6.8: the game has
    /// not ended, the number is the next, the team is the one to move; then
    /// the time (a turn that overran is neither checked nor applied, §7.2);
    /// then each step in order. Under [`Policy::Pass`] a turn that breaks a
    /// step rule is charged as a pass instead of failing.
    pub fn play(
        &mut self,
        turn: Turn,
        number: Option<u32>,
        comment: Option<&str>,
        emit: &mut impl FnMut(&GameState, Event),
    ) -> Result<Played, Violation> {
        let state = &self.state;
        if let Some(reason) = state.ended {
            return Err(Violation::new(
                Code::AfterEnd,
                format!(
                    "game {} ended after turn {} ({reason}) (§8.3)",
                    state.game, state.turns
                ),
            ));
        }
        let expected = state.turns + 1;
        if let Some(number) = number.filter(|&number| number != expected) {
            return Err(Violation::new(
                Code::TurnNumber,
                format!("turn number {number}, expected {expected} (§11.2)"),
            ));
        }
        if turn.team != state.to_move {
            return Err(Violation::new(
                Code::Team,
                format!("it is {}'s turn, not {}'s (§4.1)", state.to_move, turn.team),
            ));
        }
        let team = turn.team;
        let left = state.time_left(team);
        let mut warnings = Vec::new();
        let mut illegal = None;
        let charged = match turn.play {
            Play::Timeout => {
                self.begin(team, emit);
                self.record(
                    Event::Timeout {
                        team,
                        recorded: None,
                        charged: left,
                    },
                    emit,
                );
                left
            }
            Play::Steps { duration, .. } if duration > left => {
                warnings.push(Warning {
                    code: Code::Overtime,
                    message: format!(
                        "the turn ended after the time had run out; nothing applied, {left} ms charged (§7.2)"
                    ),
                    step: None,
                });
                self.begin(team, emit);
                self.record(
                    Event::Timeout {
                        team,
                        recorded: Some(duration),
                        charged: left,
                    },
                    emit,
                );
                left
            }
            Play::Steps { duration, steps } => match check(&self.state, team, &steps) {
                Ok(noops) => {
                    if duration == 0 {
                        warnings.push(Warning {
                            code: Code::ZeroDuration,
                            message: "a completed turn of 0 s (§10.4)".into(),
                            step: None,
                        });
                    }
                    warnings.extend(noops.into_iter().map(|step| Warning {
                        code: Code::EmptyNoop,
                        message: "emptying an empty container (§5.5)".into(),
                        step: Some(step),
                    }));
                    self.begin(team, emit);
                    for step in steps {
                        self.apply(team, step, emit);
                    }
                    duration
                }
                Err(violation) if self.policy == Policy::Pass => {
                    self.begin(team, emit);
                    self.record(
                        Event::Illegal {
                            team,
                            code: violation.code,
                            message: violation.message.clone(),
                        },
                        emit,
                    );
                    illegal = Some(violation);
                    duration
                }
                Err(violation) => return Err(violation),
            },
        };
        self.charge(team, charged, comment, emit);
        Ok(Played { warnings, illegal })
    }

    /// Replays a turn that an event log records as illegal under
    /// `--illegal=pass`: what was illegal is not in the log, only the rule
    /// and the message, so they are taken as given; the turn is charged
    /// like any other (checked as [`GameReferee::play`] checks the turn's
    /// place and team).
    pub fn replay_illegal(
        &mut self,
        team: Team,
        duration: u64,
        code: Code,
        message: &str,
        comment: Option<&str>,
        emit: &mut impl FnMut(&GameState, Event),
    ) -> Result<(), Violation> {
        let state = &self.state;
        if state.ended.is_some() || team != state.to_move || duration > state.time_left(team) {
            return Err(Violation::new(
                code,
                format!("an illegal turn of {team} cannot come here"),
            ));
        }
        self.begin(team, emit);
        let event = Event::Illegal {
            team,
            code,
            message: message.to_string(),
        };
        self.record(event, emit);
        self.charge(team, duration, comment, emit);
        Ok(())
    }

    fn begin(&mut self, team: Team, emit: &mut impl FnMut(&GameState, Event)) {
        let state = &self.state;
        let event = Event::TurnStart {
            team,
            role: state.role(team),
            team_left: state.team_left[team],
            game_left: state.game_left,
        };
        self.record(event, emit);
    }

    /// Charges the turn's time to both clocks (§7.2), puts a team whose
    /// clock is empty out (§7.4), ends the turn and, if it is over, the
    /// game.
    fn charge(
        &mut self,
        team: Team,
        charged: u64,
        comment: Option<&str>,
        emit: &mut impl FnMut(&GameState, Event),
    ) {
        let state = &self.state;
        let mut team_left = state.team_left;
        team_left[team] -= charged;
        let game_left = state.game_left - charged;
        if team_left[team] == 0 && !state.out[team] {
            self.record(Event::TeamOut { team }, emit);
        }
        self.record(
            Event::TurnEnd {
                team,
                charged,
                team_left,
                game_left,
                comment: comment.map(str::to_string),
            },
            emit,
        );
        self.end_if_over(emit);
    }

    fn end_if_over(&mut self, emit: &mut impl FnMut(&GameState, Event)) {
        let state = &self.state;
        let Some(reason) = state.end_reason() else {
            return;
        };
        let result = GameResult::of_state(state);
        let event = Event::GameEnd {
            reason,
            territory: result.territory,
            objects: result.objects,
            time_used: result.time_used,
            winner: result.winner,
        };
        self.record(event, emit);
    }

    /// What one checked step does, as events.
    fn apply(&mut self, team: Team, step: Step, emit: &mut impl FnMut(&GameState, Event)) {
        match step {
            Step::Clear(items) => {
                let load = self.state.load[team] + items.iter().map(|item| item.count).sum::<u32>();
                let claimed: Vec<Cell> = items
                    .iter()
                    .filter(|item| self.state.count(item.cell) == item.count)
                    .map(|item| item.cell)
                    .collect();
                let event = Event::Clear { team, items, load };
                self.record(event, emit);
                for cell in claimed {
                    self.record(Event::Claim { team, cell }, emit);
                }
            }
            Step::Place(items) => {
                let stock =
                    self.state.stock[team] - items.iter().map(|item| item.count).sum::<u32>();
                let cancelled: Vec<(Cell, Team, bool)> = items
                    .iter()
                    .filter_map(|item| {
                        let owner = self.state.owner(item.cell)?;
                        Some((
                            item.cell,
                            owner,
                            self.state.current[owner] == Some(item.cell),
                        ))
                    })
                    .collect();
                let event = Event::Place { team, items, stock };
                self.record(event, emit);
                for (cell, owner, was_current) in cancelled {
                    let event = Event::Cancel {
                        cell,
                        owner,
                        was_current,
                    };
                    self.record(event, emit);
                }
            }
            Step::Move(to) => {
                let from = self.state.current[team];
                self.record(Event::Move { team, from, to }, emit);
            }
            Step::Pass => self.record(Event::Pass { team }, emit),
            Step::Empty => {
                let amount = self.state.load[team];
                self.record(Event::Empty { team, amount }, emit);
            }
        }
    }

    fn record(&mut self, event: Event, emit: &mut impl FnMut(&GameState, Event)) {
        self.state.apply(&event);
        emit(&self.state, event);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::event::End;
    use crate::model::field::Field;
    use crate::model::params::Stock;

    fn cell(name: &str) -> Cell {
        Cell::parse(name).unwrap()
    }

    fn item(name: &str, count: u32) -> Item {
        Item {
            cell: cell(name),
            count,
        }
    }

    /// A 1x5 field `3 2 0 1 4`: A from a1; B from e1 (current) and c1.
    fn referee(policy: Policy) -> (GameReferee, Vec<Event>) {
        let params = Params {
            field: Field::new(&[vec![3, 2, 0, 1, 4]]).unwrap(),
            capacity: 3,
            stock: Stock {
                first: 1,
                second: 1,
            },
            team_time: 10_000,
            game_time: 15_000,
        };
        let mut events = Vec::new();
        let start = PerTeam {
            a: vec![cell("a1")],
            b: vec![cell("e1"), cell("c1")],
        };
        let current = PerTeam {
            a: cell("a1"),
            b: cell("e1"),
        };
        let referee =
            GameReferee::start(1, &params, Team::A, start, current, policy, &mut |_, e| {
                events.push(e)
            })
            .expect("a legal start");
        (referee, events)
    }

    #[test]
    fn a_start_that_section_3_1_forbids_is_refused() {
        let params = Params {
            field: Field::new(&[vec![3, 2, 0, 1, 4]]).unwrap(),
            capacity: 3,
            stock: Stock {
                first: 1,
                second: 1,
            },
            team_time: 10_000,
            game_time: 20_000,
        };
        let refused = |a: &[&str], b: &[&str], current: (&str, &str)| {
            let start = PerTeam {
                a: a.iter().map(|name| cell(name)).collect(),
                b: b.iter().map(|name| cell(name)).collect(),
            };
            let current = PerTeam {
                a: cell(current.0),
                b: cell(current.1),
            };
            GameReferee::start(
                1,
                &params,
                Team::A,
                start,
                current,
                Policy::Strict,
                &mut |_, _| {},
            )
            .map(|_| ())
            .expect_err("refused")
        };
        let off = refused(&["a1"], &["e1", "f1"], ("a1", "e1"));
        assert_eq!(off.code, Code::Cell);
        assert_eq!(off.message, "f1 is not a cell of the 1x5 field (§1.2)");
        assert_eq!(
            refused(&["a1", "b1"], &["e1", "c1"], ("a1", "e1")).code,
            Code::Start
        );
        assert_eq!(
            refused(&["a1"], &["a1", "c1"], ("a1", "c1")).code,
            Code::Start
        );
        let not_own = refused(&["a1"], &["e1", "c1"], ("a1", "b1"));
        assert_eq!(
            not_own.message,
            "B's current cell b1 is not one of its start cells (§3.1)"
        );
    }

    #[test]
    fn a_cell_off_the_field_is_refused_not_a_panic() {
        let (mut referee, _) = referee(Policy::Strict);
        let turn = Turn {
            team: Team::A,
            play: Play::Steps {
                duration: 1000,
                steps: vec![Step::Clear(vec![item("b1", 1), item("p16", 1)])],
            },
        };
        let refused = referee
            .play(turn, None, None, &mut |_, _| {})
            .expect_err("refused");
        assert_eq!(refused.code, Code::Cell);
        assert_eq!(refused.message, "p16 is not a cell of the 1x5 field (§1.2)");
    }

    fn turn(team: Team, duration: u64, steps: Vec<Step>) -> Turn {
        Turn {
            team,
            play: Play::Steps { duration, steps },
        }
    }

    fn play(referee: &mut GameReferee, turn: Turn) -> Result<(Played, Vec<Event>), Violation> {
        let mut events = Vec::new();
        let played = referee.play(turn, None, None, &mut |_, e| events.push(e))?;
        Ok((played, events))
    }

    #[test]
    fn the_start_cells_are_cleared_by_the_referee_and_owned() {
        let (referee, events) = referee(Policy::Strict);
        let state = referee.state();
        assert_eq!(state.counts(), [0, 2, 0, 1, 0]);
        assert_eq!(state.owner(cell("c1")), Some(Team::B));
        let Event::GameStart(start) = &events[0] else {
            panic!("a game_start first")
        };
        assert_eq!(start.removed, [item("a1", 3), item("e1", 4), item("c1", 0)]);
    }

    #[test]
    fn a_clear_claims_the_cells_it_empties_and_fills_the_container() {
        let (mut referee, _) = referee(Policy::Strict);
        let (played, events) = play(
            &mut referee,
            turn(Team::A, 2000, vec![Step::Clear(vec![item("b1", 2)])]),
        )
        .unwrap();
        assert!(played.warnings.is_empty());
        let names: Vec<&str> = events.iter().map(Event::name).collect();
        assert_eq!(names, ["turn_start", "clear", "claim", "turn_end"]);
        let state = referee.state();
        assert_eq!(
            (state.load.a, state.cleared.a, state.owner(cell("b1"))),
            (2, 2, Some(Team::A))
        );
        assert_eq!(
            (state.team_left.a, state.game_left, state.to_move),
            (8000, 13_000, Team::B)
        );
    }

    #[test]
    fn checks_come_in_the_order_of_section_10_6_8() {
        let (mut referee, _) = referee(Policy::Strict);
        let code = |referee: &mut GameReferee, steps| {
            play(referee, turn(Team::A, 1000, steps)).unwrap_err().code
        };
        // A duplicate comes before the emptying rule, which comes before
        // adjacency, which comes before the count and the capacity.
        let dup_after_empty = vec![Step::Empty, Step::Clear(vec![item("d1", 1), item("d1", 1)])];
        assert_eq!(code(&mut referee, dup_after_empty), Code::DupCell);
        let far_after_empty = vec![Step::Empty, Step::Clear(vec![item("d1", 1)])];
        assert_eq!(code(&mut referee, far_after_empty), Code::ClearAfterEmpty);
        assert_eq!(
            code(&mut referee, vec![Step::Clear(vec![item("d1", 9)])]),
            Code::NotAdjacent
        );
        assert_eq!(
            code(&mut referee, vec![Step::Clear(vec![item("b1", 3)])]),
            Code::TooMany
        );
        assert_eq!(
            code(&mut referee, vec![Step::Place(vec![item("b1", 2)])]),
            Code::Stock
        );
        assert_eq!(
            code(&mut referee, vec![Step::Pass, Step::Pass]),
            Code::Actions
        );
        assert_eq!(code(&mut referee, vec![Step::Empty]), Code::Actions);
        assert_eq!(
            code(&mut referee, vec![Step::Pass, Step::Empty, Step::Empty]),
            Code::EmptyTwice
        );
        assert_eq!(
            code(&mut referee, vec![Step::Move(cell("a1"))]),
            Code::MoveSame
        );
        assert_eq!(
            code(&mut referee, vec![Step::Move(cell("e1"))]),
            Code::MoveNotOwn
        );
        // Nothing of a refused turn was applied.
        assert_eq!(referee.state().turns, 0);
        let wrong_team = play(&mut referee, turn(Team::B, 1000, vec![Step::Pass])).unwrap_err();
        assert_eq!(wrong_team.code, Code::Team);
    }

    #[test]
    fn an_overrun_charges_what_was_left_and_puts_the_team_out() {
        let (mut referee, _) = referee(Policy::Strict);
        // Not even looked at: the steps would break a rule.
        let (played, events) = play(
            &mut referee,
            turn(Team::A, 10_001, vec![Step::Move(cell("e1"))]),
        )
        .unwrap();
        assert_eq!(played.warnings[0].code, Code::Overtime);
        assert!(events.contains(&Event::TeamOut { team: Team::A }));
        assert!(events.contains(&Event::Timeout {
            team: Team::A,
            recorded: Some(10_001),
            charged: 10_000
        }));
        // B alone now: its turns repeat.
        play(&mut referee, turn(Team::B, 1000, vec![Step::Pass])).unwrap();
        assert_eq!(referee.state().to_move, Team::B);
        play(&mut referee, turn(Team::B, 1000, vec![Step::Pass])).unwrap();
        // The game clock: 15 s in all, 12 s gone; a turn of exactly the
        // rest completes and ends the game by time.
        let (_, events) = play(&mut referee, turn(Team::B, 3000, vec![Step::Pass])).unwrap();
        assert!(matches!(
            events.last(),
            Some(Event::GameEnd {
                reason: End::Time,
                ..
            })
        ));
        let after = play(&mut referee, turn(Team::B, 1000, vec![Step::Pass])).unwrap_err();
        assert_eq!(after.code, Code::AfterEnd);
    }

    #[test]
    fn placing_on_a_current_territory_cancels_it_and_leaves_no_current() {
        let (mut referee, _) = referee(Policy::Strict);
        play(
            &mut referee,
            turn(Team::A, 1000, vec![Step::Clear(vec![item("b1", 2)])]),
        )
        .unwrap();
        play(
            &mut referee,
            turn(Team::B, 1000, vec![Step::Move(cell("c1"))]),
        )
        .unwrap();
        play(
            &mut referee,
            turn(Team::A, 1000, vec![Step::Move(cell("b1"))]),
        )
        .unwrap();
        let (_, events) = play(
            &mut referee,
            turn(Team::B, 1000, vec![Step::Place(vec![item("b1", 1)])]),
        )
        .unwrap();
        assert!(events.contains(&Event::Cancel {
            cell: cell("b1"),
            owner: Team::A,
            was_current: true
        }));
        assert_eq!(referee.state().current.a, None);
        let none = play(
            &mut referee,
            turn(Team::A, 1000, vec![Step::Clear(vec![item("b1", 1)])]),
        )
        .unwrap_err();
        assert_eq!(none.code, Code::NoCurrent);
    }

    #[test]
    fn under_pass_an_illegal_turn_is_charged_and_changes_nothing_else() {
        let (mut referee, _) = referee(Policy::Pass);
        let (played, events) = play(
            &mut referee,
            turn(Team::A, 1500, vec![Step::Clear(vec![item("d1", 1)])]),
        )
        .unwrap();
        assert_eq!(played.illegal.map(|v| v.code), Some(Code::NotAdjacent));
        let names: Vec<&str> = events.iter().map(Event::name).collect();
        assert_eq!(names, ["turn_start", "illegal", "turn_end"]);
        assert_eq!(
            (referee.state().team_left.a, referee.state().counts()[3]),
            (8500, 1)
        );
    }
}
