//! An advisor's suggestion: the computer player's turn for the team it
//! advises, and what it expects of the match, in the words `suggest`
//! uses.

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use super::session::DeskSession;
use crate::engine::action::Words;
use crate::engine::cost::CostModel;
use crate::engine::explain::explain;
use crate::engine::objective::in_cells;
use crate::engine::position::Position;
use crate::model::team::Team;
use crate::play::computer::ComputerPlayer;

/// The longest an advice is thought over.
const THINK: Duration = Duration::from_secs(2);

/// The computer player's turn at `level` in the position of `session`,
/// for the team to move, and the evaluation from `team`'s side.
pub fn advice(session: &DeskSession, team: Team, level: u8) -> Value {
    let Some(state) = session.state().filter(|state| state.ended.is_none()) else {
        return json!({ "team": team.letter(), "message": "no game is being played" });
    };
    let game_one = (state.game == 2)
        .then(|| session.results().first().copied())
        .flatten();
    // Turns priced as the physical game takes them (§15.1's cost model).
    let position = Position::in_match(state, CostModel::Virtual, game_one);
    let found = ComputerPlayer::new(level).think(&position, Some(Instant::now() + THINK));
    let Some(found) = found else {
        return json!({ "team": team.letter(), "message": "no turn to suggest" });
    };
    let steps = found
        .action
        .steps(state.size())
        .map_or_else(|| "timeout".to_string(), |steps| Words(&steps).to_string());
    let mut after = position.clone();
    after.apply(&found.action);
    let sign = if team == Team::A { 1.0 } else { -1.0 };
    json!({
        "team": team.letter(),
        "to_move": state.to_move.letter(),
        "game": state.game,
        "turn": state.turns + 1,
        "steps": steps,
        "explanation": explain(&after, state.to_move, found.value),
        "score_cells": sign * in_cells(found.value),
        "depth": found.depth,
    })
}
