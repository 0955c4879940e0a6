//! Who plays a team: anything that hears the match's messages and answers
//! each `go` with a turn. The built-in players live here; an external
//! program is [`super::program::Program`].

use std::time::Duration;

use super::protocol::{read_answer, Message};
use crate::engine::action::{Action, EmptyAt};
use crate::engine::cost::CostModel;
use crate::engine::position::Position;
use crate::engine::seeded::Seeded;
use crate::model::state::GameState;
use crate::model::turn::Step;
use crate::rules::legality::check_steps;
use edge::{BadLine, BoundedLines, LineError};

/// Whose time a turn takes (§15.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Clock {
    /// A turn lasts from `go` to the answer, as measured.
    #[default]
    Wall,
    /// A turn lasts what its steps cost (§15.1): a match is reproducible
    /// bit for bit, and thinking is bounded separately.
    Virtual,
}

/// It is a player's turn.
#[derive(Clone, Copy, Debug)]
pub struct Go<'a> {
    /// The game as it stands.
    pub state: &'a GameState,
    /// Which clock runs.
    pub clock: Clock,
    /// When the player is stopped: the time left under the wall clock,
    /// the thinking bound under the virtual one.
    pub limit: Duration,
}

/// Why a player gave no line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Silence {
    /// It did not answer within the limit and was stopped.
    Overran,
    /// It ended, or could not be started (what happened).
    Crashed(String),
}

/// A player's answer to `go`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Answer {
    /// Steps chosen in this process.
    Steps(Vec<Step>),
    /// Let the clock run out (a program answers `timeout`).
    Timeout,
    /// A line a program wrote, to be read in the steps grammar of §11.2.
    Line(String),
    /// A line a program wrote that is no answer whatever it says (too
    /// long, or not text), and why.
    Unreadable(String),
    /// No answer.
    Silent(Silence),
}

/// Anything that plays a team.
pub trait Player {
    /// How it is named in records and tables.
    fn label(&self) -> String;
    /// Hears one message.
    fn tell(&mut self, message: &Message<'_>);
    /// Answers `go`: its turn.
    fn answer(&mut self, go: &Go<'_>) -> Answer;
    /// Lines it wrote out of turn that were dropped as they came: a
    /// program's that does not mark its answers with `readyok`, whose
    /// lines are told from answers only by when they arrive. None for any
    /// other player.
    fn dropped_lines(&self) -> u64 {
        0
    }
}

/// `builtin:random`: a uniformly random turn of the engine's canonical
/// legal ones ([`Position::legal_actions`]), from a seed; it lets its
/// clock run out only when nothing else fits.
pub struct RandomPlayer {
    random: Seeded,
}

impl RandomPlayer {
    /// A random player drawing from `seed`.
    pub fn new(seed: u64) -> RandomPlayer {
        RandomPlayer {
            random: Seeded::new(seed),
        }
    }
}

/// How a searcher prices turns under `clock`.
pub fn costs(clock: Clock) -> CostModel {
    match clock {
        Clock::Virtual => CostModel::Virtual,
        // What a quick program's turn takes under the wall clock.
        Clock::Wall => CostModel::Flat(100),
    }
}

/// The answer that plays `action`.
pub fn answer_of(action: &Action, state: &GameState) -> Answer {
    match action.steps(state.size()) {
        Some(steps) => Answer::Steps(steps),
        None => Answer::Timeout,
    }
}

impl Player for RandomPlayer {
    fn label(&self) -> String {
        "builtin:random".into()
    }

    fn tell(&mut self, _: &Message<'_>) {}

    fn answer(&mut self, go: &Go<'_>) -> Answer {
        let position = Position::of(go.state, costs(go.clock));
        let mut actions = position.legal_actions();
        // The timeout comes last; it is drawn only when nothing else fits.
        if actions.len() > 1 {
            actions.pop();
        }
        let action = actions[self.random.below(actions.len() as u64) as usize];
        answer_of(&action, go.state)
    }
}

/// `builtin:greedy`: clears as much as it can next to its current
/// territory (whole cells first, the smallest first, then part of the
/// next), empties when its container is full, moves to the own cell with
/// most objects around when nothing is left next to it, and passes
/// otherwise. It never places.
pub struct GreedyPlayer;

/// The greedy player's turn in `position`.
pub fn greedy_action(position: &Position) -> Action {
    let team = position.to_move();
    let capacity = position.capacity();
    let load = position.load(team);
    let pass = Action::pass(EmptyAt::None);
    let fits = |action: Action| position.cost(&action) <= position.time_left();
    if load >= capacity {
        let empty = Action::pass(EmptyAt::Before);
        return if fits(empty) { empty } else { pass };
    }
    if let Some(current) = position.current(team) {
        let mut around: Vec<usize> = position
            .neighbours(current)
            .filter(|&index| position.count(index) > 0)
            .collect();
        around.sort_by_key(|&index| (position.count(index), index));
        let mut room = capacity - load;
        let mut items: Vec<(usize, u32)> = Vec::new();
        for &index in &around {
            if room == 0 {
                break;
            }
            let take = position.count(index).min(room);
            items.push((index, take));
            room -= take;
        }
        if !items.is_empty() {
            items.sort_unstable();
            let empty = if room == 0 {
                EmptyAt::After
            } else {
                EmptyAt::None
            };
            let clear = Action::clear(&items, empty);
            for action in [clear, Action::clear(&items, EmptyAt::None)] {
                if fits(action) {
                    return action;
                }
            }
            return pass;
        }
    }
    let best_cell = (0..position.size().cells())
        .filter(|&index| {
            position.owner(index) == Some(team) && position.current(team) != Some(index)
        })
        .map(|index| {
            let around: u32 = position
                .neighbours(index)
                .map(|next| position.count(next))
                .sum();
            (around, index)
        })
        .filter(|&(around, _)| around > 0)
        .max_by_key(|&(around, index)| (around, std::cmp::Reverse(index)));
    match best_cell {
        Some((_, index)) if fits(Action::move_to(index, EmptyAt::None)) => {
            Action::move_to(index, EmptyAt::None)
        }
        _ => pass,
    }
}

impl Player for GreedyPlayer {
    fn label(&self) -> String {
        "builtin:greedy".into()
    }

    fn tell(&mut self, _: &Message<'_>) {}

    fn answer(&mut self, go: &Go<'_>) -> Answer {
        let position = Position::of(go.state, costs(go.clock));
        answer_of(&greedy_action(&position), go.state)
    }
}

/// `human`: a person at the terminal, shown the board on standard error
/// and asked for a line of steps on standard input.
pub struct HumanPlayer;

impl Player for HumanPlayer {
    fn label(&self) -> String {
        "human".into()
    }

    fn tell(&mut self, message: &Message<'_>) {
        if let Message::Played { .. } | Message::Result { .. } = message {
            eprint!("{}", super::protocol::message_lines(message));
        }
    }

    fn answer(&mut self, go: &Go<'_>) -> Answer {
        let state = go.state;
        let team = state.to_move;
        eprint!("{}", crate::formats::ascii::board(state));
        loop {
            eprint!(
                "{team} to move ({} ms on its clock, {} ms in the game); steps such as `clear b1:2 empty`, `move c2`, `pass`: ",
                state.team_left[team], state.game_left,
            );
            // Bounded, so that an endless line (`< /dev/zero`) costs no
            // memory; a line too long ends the turn, and the next turn
            // reads on from where it stopped.
            let line = match BoundedLines::new(std::io::stdin().lock()).next() {
                None => return Answer::Silent(Silence::Crashed("standard input ended".into())),
                Some(Ok((_, line))) => line,
                Some(Err(LineError {
                    problem: problem @ (BadLine::TooLong | BadLine::Unreadable(_)),
                    ..
                })) => {
                    return Answer::Silent(Silence::Crashed(format!("standard input: {problem}")))
                }
                Some(Err(error)) => {
                    eprintln!("not a turn: {}", error.problem);
                    continue;
                }
            };
            // A person who mistypes is asked again rather than passed.
            let steps = match read_answer(team, &line, state) {
                Ok(Some(steps)) => steps,
                Ok(None) => return Answer::Timeout,
                Err(message) => {
                    eprintln!("not a turn: {message}");
                    continue;
                }
            };
            match check_steps(state, &steps) {
                Ok(()) => return Answer::Steps(steps),
                Err(violation) => eprintln!("not allowed: {violation} [{}]", violation.code),
            }
        }
    }
}
