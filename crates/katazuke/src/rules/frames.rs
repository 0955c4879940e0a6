//! The pictures of a match (§13.1), derived from its events: per game a
//! start frame, one frame per turn (the state after it, and what it did),
//! an end frame; then one summary frame. A stream: one frame at a time,
//! so memory stays flat however long the match.

use crate::model::code::Code;
use crate::model::event::{End, Entry, Event};
use crate::model::field::Cell;
use crate::model::state::GameState;
use crate::model::team::{PerTeam, Role, Team};
use crate::model::turn::Item;
use crate::rules::result::{GameResult, MatchResult};

/// What one turn did, gathered from its events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnSummary {
    /// Its number in the game.
    pub number: u32,
    /// Whose turn.
    pub team: Team,
    /// Its role.
    pub role: Role,
    /// The action, or what became of the turn.
    pub effect: Effect,
    /// Objects emptied, when the container was emptied.
    pub emptied: Option<u32>,
    /// Cells the team claimed.
    pub claimed: Vec<Cell>,
    /// Cells cancelled: the cell, its owner, and whether it was current.
    pub cancelled: Vec<(Cell, Team, bool)>,
    /// Time charged, ms.
    pub charged: u64,
    /// The team ran out of time with this turn.
    pub out: bool,
    /// The turn's comment in the log.
    pub comment: Option<String>,
}

/// A turn's action, as its events tell it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Effect {
    /// Cleared these.
    Clear(Vec<Item>),
    /// Placed these.
    Place(Vec<Item>),
    /// Moved the current territory.
    Move {
        /// From where, if it had one.
        from: Option<Cell>,
        /// To where.
        to: Cell,
    },
    /// Did nothing.
    Pass,
    /// Ran out of time: `recorded` is the duration the log gave (none for
    /// a `timeout` turn).
    Timeout {
        /// The recorded duration, ms.
        recorded: Option<u64>,
    },
    /// Broke a rule, counted as a pass (`--illegal=pass`).
    Illegal {
        /// Which rule.
        code: Code,
        /// What was wrong.
        message: String,
    },
}

impl TurnSummary {
    /// The cells the turn changed: the cells of its clear or place, and the
    /// two ends of a move.
    pub fn changed_cells(&self) -> Vec<Cell> {
        match &self.effect {
            Effect::Clear(items) | Effect::Place(items) => {
                items.iter().map(|item| item.cell).collect()
            }
            Effect::Move { from, to } => from.iter().copied().chain([*to]).collect(),
            _ => Vec::new(),
        }
    }
}

/// Which picture a frame is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FrameKind {
    /// A game's start, after §3.2.
    Start,
    /// After a turn.
    Turn(TurnSummary),
    /// A game's end, with its reason and results.
    End(End, GameResult),
    /// The match's summary.
    Summary(MatchResult),
}

/// One picture of the replay.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Frame {
    /// What it shows.
    pub kind: FrameKind,
    /// The game as it stands (the last game's, for the summary).
    pub state: GameState,
    /// The teams' names.
    pub names: PerTeam<String>,
    /// The results of the games that have ended so far.
    pub games: Vec<GameResult>,
}

/// Frames made one record at a time: a fold over a match's events that
/// yields a frame whenever one is complete, for a caller that is handed
/// events (a referee's sink) rather than pulling them. [`Frames`] is the
/// same fold over an iterator.
pub struct FrameFold {
    names: PerTeam<String>,
    state: Option<GameState>,
    games: Vec<GameResult>,
    turn: Option<TurnSummary>,
}

impl Default for FrameFold {
    fn default() -> Self {
        FrameFold {
            names: PerTeam::from_fn(|team| team.letter().to_string()),
            state: None,
            games: Vec::new(),
            turn: None,
        }
    }
}

impl FrameFold {
    fn frame(&self, kind: FrameKind) -> Option<Frame> {
        Some(Frame {
            kind,
            state: self.state.clone()?,
            names: self.names.clone(),
            games: self.games.clone(),
        })
    }

    fn set_effect(&mut self, effect: Effect) {
        if let Some(turn) = &mut self.turn {
            turn.effect = effect;
        }
    }

    /// Folds in the next record of the match, and returns the frame it
    /// completes, if any.
    pub fn push(&mut self, entry: Entry) -> Option<Frame> {
        if let Some(state) = &mut self.state {
            state.apply(&entry.event);
        }
        match entry.event {
            Event::MatchStart(start) => self.names = start.teams,
            Event::GameStart(game) => {
                self.state = Some(GameState::after_start(entry.game.unwrap_or(1), &game));
                return self.frame(FrameKind::Start);
            }
            Event::TurnStart { team, role, .. } => {
                self.turn = Some(TurnSummary {
                    number: entry.turn,
                    team,
                    role,
                    effect: Effect::Pass,
                    emptied: None,
                    claimed: Vec::new(),
                    cancelled: Vec::new(),
                    charged: 0,
                    out: false,
                    comment: None,
                });
            }
            Event::Clear { items, .. } => self.set_effect(Effect::Clear(items)),
            Event::Place { items, .. } => self.set_effect(Effect::Place(items)),
            Event::Move { from, to, .. } => self.set_effect(Effect::Move { from, to }),
            Event::Pass { .. } => self.set_effect(Effect::Pass),
            Event::Timeout { recorded, .. } => self.set_effect(Effect::Timeout { recorded }),
            Event::Illegal { code, message, .. } => {
                self.set_effect(Effect::Illegal { code, message })
            }
            Event::Claim { cell, .. } => {
                if let Some(turn) = &mut self.turn {
                    turn.claimed.push(cell);
                }
            }
            Event::Cancel {
                cell,
                owner,
                was_current,
            } => {
                if let Some(turn) = &mut self.turn {
                    turn.cancelled.push((cell, owner, was_current));
                }
            }
            Event::Empty { amount, .. } => {
                if let Some(turn) = &mut self.turn {
                    turn.emptied = Some(amount);
                }
            }
            Event::TeamOut { .. } => {
                if let Some(turn) = &mut self.turn {
                    turn.out = true;
                }
            }
            Event::TurnEnd {
                charged, comment, ..
            } => {
                if let Some(mut turn) = self.turn.take() {
                    turn.charged = charged;
                    turn.comment = comment;
                    return self.frame(FrameKind::Turn(turn));
                }
            }
            Event::GameEnd { reason, .. } => {
                if let Some(result) = GameResult::of(&entry.event) {
                    self.games.push(result);
                    return self.frame(FrameKind::End(reason, result));
                }
            }
            Event::MatchEnd { .. } => {
                let result = MatchResult::of(&entry.event)?;
                return self.frame(FrameKind::Summary(result));
            }
        }
        None
    }
}

/// The frames of a stream of records.
pub struct Frames<I: Iterator<Item = Entry>> {
    entries: I,
    fold: FrameFold,
}

impl<I: Iterator<Item = Entry>> Frames<I> {
    /// The frames `records`, a whole match's events in order, make.
    pub fn new(entries: I) -> Self {
        Frames {
            entries,
            fold: FrameFold::default(),
        }
    }
}

impl<I: Iterator<Item = Entry>> Iterator for Frames<I> {
    type Item = Frame;

    fn next(&mut self) -> Option<Frame> {
        loop {
            if let Some(frame) = self.fold.push(self.entries.next()?) {
                return Some(frame);
            }
        }
    }
}
