//! The desk's state as the API gives it (`GET /api/state`, and each
//! server-sent event): the phase, whose turn, the board, both teams,
//! the clocks as they stand, the results and the record so far.

use serde_json::{json, Value};

use super::session::{DeskClock, DeskSession};
use crate::model::team::Team;
use crate::rules::result::CRITERIA;

/// `session` at `now`, as JSON.
pub fn state_json(session: &DeskSession, now: u64) -> Value {
    let params = session.setup().params();
    let size = params.field.size();
    let names = session.names();
    let state = session.state();
    let phase = match (session.games_started(), session.in_game()) {
        (0, _) => "before",
        (_, true) => "playing",
        (1, false) => "between",
        _ => "over",
    };
    let (team_left, game_left) = session.clocks(now).unwrap_or((
        crate::model::team::PerTeam::from_fn(|_| params.team_time),
        params.game_time,
    ));
    let cells: Vec<Value> = size
        .all()
        .map(|cell| {
            let (count, owner, current) = match state {
                Some(state) => (
                    state.count(cell),
                    state.owner(cell).map(Team::letter),
                    Team::BOTH
                        .into_iter()
                        .find(|&team| state.current[team] == Some(cell))
                        .map(Team::letter),
                ),
                None => (params.field.count(cell), None, None),
            };
            json!({ "name": cell.to_string(), "count": count, "owner": owner, "current": current })
        })
        .collect();
    let team = |team: Team| {
        json!({
            "name": names[team],
            "territory": state.map_or(0, |state| state.territory(team)),
            "current": state.and_then(|state| state.current[team]).map(|cell| cell.to_string()),
            "load": state.map_or(0, |state| state.load[team]),
            "stock": state.map_or(0, |state| state.stock[team]),
            "cleared": state.map_or(0, |state| state.cleared[team]),
            "team_left_ms": team_left[team],
            "out": state.is_some_and(|state| state.out[team]),
        })
    };
    let results: Vec<Value> = session
        .results()
        .iter()
        .map(|result| {
            json!({
                "territory": result.territory,
                "objects": result.objects,
                "time_used_ms": result.time_used,
                "winner": result.winner.map(Team::letter),
            })
        })
        .collect();
    let decided = session.match_result().map(|result| {
        json!({
            "winner": result.winner.map(Team::letter),
            "criterion": result.criterion,
            "by": result.criterion.and_then(|c| CRITERIA.get(usize::from(c).wrapping_sub(1))),
            "needs_janken": result.needs_janken(),
        })
    });
    let in_game = session.in_game();
    json!({
        "version": session.version(),
        "clock": match session.clock() { DeskClock::Wall => "wall", DeskClock::Manual => "manual" },
        "phase": phase,
        "paused": session.is_paused(),
        "running": in_game && !session.is_paused() && session.clock() == DeskClock::Wall,
        "game": state.map_or(0, |state| state.game),
        "turn": state.map_or(0, |state| state.turns + u32::from(in_game)),
        "to_move": state.filter(|_| in_game).map(|state| state.to_move.letter()),
        "end": state.and_then(|state| state.ended).map(|end| end.name()),
        "rows": size.rows,
        "columns": size.columns,
        "capacity": params.capacity,
        "cells": cells,
        "teams": { "A": team(Team::A), "B": team(Team::B) },
        "game_left_ms": game_left,
        "results": results,
        "match": decided,
        "record": session.record_text(),
    })
}
