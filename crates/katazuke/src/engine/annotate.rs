//! Annotated replays (§15.4): every turn of a match searched from the
//! position before it, and what the engine would have played and how much
//! the played turn lost written into the turn's comment, with PGN-like
//! marks: `?!` for a loss of 0.3 cells or more, `?` for a cell or more.
//! Turns are judged under the virtual clock of §15.1: a physical match's
//! recorded durations may allow what the cost model does not.

use super::action::{sign, Action};
use super::cost::CostModel;
use super::explain::explain;
use super::objective::{decode, TERRITORY};
use super::position::Position;
use super::search::{Limits, Searcher};
use crate::model::event::{Entry, Event};
use crate::model::state::GameState;
use crate::model::team::Team;
use crate::rules::result::GameResult;

/// A loss, in cells, that earns `?!`.
pub const DUBIOUS: f64 = 0.3;
/// A loss, in cells, that earns `?`.
pub const MISTAKE: f64 = 1.0;

/// What the engine thinks of one turn.
#[derive(Clone, Debug, PartialEq)]
pub struct Judgement {
    /// The engine's turn, as steps (`clear e2:2 e4`).
    pub best: String,
    /// True when the played turn was the engine's.
    pub agreed: bool,
    /// How much worse the played turn is, in cells (0 or more).
    pub loss: f64,
    /// What the engine's turn means for the match
    /// ([`super::explain::explain`]).
    pub why: String,
}

impl Judgement {
    /// `?`, `?!` or nothing.
    pub fn mark(&self) -> &'static str {
        if self.loss >= MISTAKE {
            "?"
        } else if self.loss >= DUBIOUS {
            "?!"
        } else {
            ""
        }
    }

    /// The words a caption shows.
    pub fn words(&self) -> String {
        let why = &self.why;
        if self.agreed {
            return format!("engine: {} (agrees; {why})", self.best);
        }
        if self.loss == 0.0 {
            return format!("engine: {} (about as good; {why})", self.best);
        }
        let unit = if self.loss <= 1.0 { "cell" } else { "cells" };
        let mark = self.mark();
        let space = if mark.is_empty() { "" } else { " " };
        format!(
            "engine: {} (played loses {:.1} {unit}{space}{mark}; {why})",
            self.best, self.loss
        )
    }
}

/// Judges the turn from `before` to `after` with searches of `nodes`
/// positions under the virtual clock, for the match: in game 2 with
/// `game_one`'s result carried.
pub fn judge(
    searcher: &mut Searcher,
    before: &GameState,
    after: &GameState,
    nodes: u64,
    game_one: Option<GameResult>,
) -> Option<Judgement> {
    let of = |state: &GameState| Position::in_match(state, CostModel::Virtual, game_one);
    let limits = Limits {
        nodes,
        deadline: None,
        every_action: false,
    };
    let position = of(before);
    let found = searcher.best(&position, limits)?;
    let next = of(after);
    // The played turn's position searched as deep as the root searched
    // its own turns, so that both values see equally far.
    let played = searcher.value_at(&next, found.depth.saturating_sub(1), limits);
    let team = before.to_move;
    // A turn that gives up a won match is a mistake whatever the margins.
    let (best_margin, best_outcome) = decode(found.value);
    let (played_margin, played_outcome) = decode(played);
    let gives_up = best_outcome == Some(sign(team)) && played_outcome != Some(sign(team));
    let loss = (sign(team) * (best_margin - played_margin)).max(0) as f64 / TERRITORY as f64;
    let loss = if gives_up { loss.max(MISTAKE) } else { loss };
    // Tenths of a cell, as the caption shows it and the marks judge it.
    let loss = (loss * 10.0).round() / 10.0;
    let mut best_after = position.clone();
    best_after.apply(&found.action);
    let agreed = same_board(&best_after, &next);
    Some(Judgement {
        best: serialize(&found.action, &position),
        agreed,
        loss,
        why: explain(&best_after, team, found.value),
    })
}

/// True when two positions differ at most in their clocks: the played turn
/// did what the engine's would have (its duration, measured or recorded,
/// may differ from the virtual clock's).
fn same_board(one: &Position, other: &Position) -> bool {
    let cells = one.size().cells();
    (0..cells).all(|index| {
        one.count(index) == other.count(index) && one.owner(index) == other.owner(index)
    }) && Team::BOTH.into_iter().all(|team| {
        one.current(team) == other.current(team)
            && one.load(team) == other.load(team)
            && one.stock(team) == other.stock(team)
            && one.is_out(team) == other.is_out(team)
    })
}

fn serialize(action: &Action, position: &Position) -> String {
    action.serialize(position.size())
}

/// Adds each turn's judgement to its comment (after the log's own, when
/// `keep_comments`), searching `nodes` positions a search.
pub fn annotate(entries: &mut [Entry], nodes: u64, keep_comments: bool) {
    let mut annotator = Annotator::new(nodes, keep_comments);
    for entry in entries.iter_mut() {
        annotator.annotate(entry);
    }
}

/// [`annotate`] one record at a time, for a match streamed from its
/// referee: it keeps the game as it stands and the search's table, never
/// the records.
pub struct Annotator {
    searcher: Searcher,
    state: Option<GameState>,
    before: Option<GameState>,
    /// Game 1's result, once it ended: game 2 is judged for the match.
    game_one: Option<GameResult>,
    nodes: u64,
    keep_comments: bool,
}

impl Annotator {
    /// Judges with `nodes` positions a search; keeps the log's own
    /// comments before the judgement when `keep_comments`.
    pub fn new(nodes: u64, keep_comments: bool) -> Annotator {
        Annotator {
            searcher: Searcher::new(),
            state: None,
            before: None,
            game_one: None,
            nodes,
            keep_comments,
        }
    }

    /// Takes the next record of the match, adding the judgement to it when
    /// it ends a turn.
    pub fn annotate(&mut self, entry: &mut Entry) {
        match &entry.event {
            Event::GameStart(start) => {
                self.state = Some(GameState::after_start(entry.game.unwrap_or(1), start));
                self.searcher.clear();
                return;
            }
            Event::TurnStart { .. } => self.before = self.state.clone(),
            Event::GameEnd { .. } if entry.game == Some(1) => {
                self.game_one = GameResult::of(&entry.event);
            }
            _ => {}
        }
        let Some(now) = &mut self.state else {
            return;
        };
        now.apply(&entry.event);
        if let Event::TurnEnd { comment, .. } = &mut entry.event {
            let Some(before) = self.before.take() else {
                return;
            };
            let judged = judge(&mut self.searcher, &before, now, self.nodes, self.game_one);
            if let Some(judgement) = judged {
                let own = comment.take().filter(|_| self.keep_comments);
                *comment = Some(match own {
                    Some(own) => format!("{own} · {}", judgement.words()),
                    None => judgement.words(),
                });
            }
        }
    }
}
