//! The words of the replay (§13.4): the header naming the game, the turn
//! and the clock, and the caption saying what a frame shows.

use crate::model::team::{PerTeam, Team};
use crate::model::turn::{ClockTime, Seconds};
use crate::rules::frames::{Effect, Frame, FrameKind, TurnSummary};
use crate::rules::result::CRITERIA;

/// What the marks on the board mean, under each game's start.
pub const LEGEND: &str =
    "ring = current territory · yellow = changed by the turn · corner = claimed · red cross = cancelled";

/// `Game 1/2 · Turn 9 · game clock 0:12.0`.
pub fn header(frame: &Frame) -> String {
    let state = &frame.state;
    let game = format!("Game {}/2", state.game);
    match &frame.kind {
        FrameKind::Start => format!("{game} · start · game clock {}", ClockTime(state.game_left)),
        FrameKind::Turn(turn) => format!(
            "{game} · Turn {} · game clock {}",
            turn.number,
            ClockTime(state.game_left)
        ),
        FrameKind::End(..) => format!("{game} · end after turn {}", state.turns),
        FrameKind::Summary(_) => "Match result".to_string(),
    }
}

/// A team as the replay names it: `A` and, when ASCII, its name.
pub fn team_name(names: &PerTeam<String>, team: Team) -> String {
    let name = &names[team];
    if name.is_ascii() && name != team.letter() && !name.is_empty() {
        format!("{team} ({name})")
    } else {
        team.to_string()
    }
}

/// The caption of `frame`: one line saying what it shows, and a second
/// with more (a turn's comment when `comments` is asked for, a game's
/// other results).
pub fn caption(frame: &Frame, comments: bool) -> (String, Option<String>) {
    let state = &frame.state;
    match &frame.kind {
        FrameKind::Start => {
            let first = state.first;
            let second = first.other();
            let starts = |team: Team| {
                let cells: Vec<String> = frame_start_cells(frame, team);
                cells.join(", ")
            };
            (
                format!(
                    "{first} first from {} · {second} second from {} · capacity {} · stock {} / {}",
                    starts(first),
                    starts(second),
                    state.params.capacity,
                    state.params.stock.first,
                    state.params.stock.second,
                ),
                Some(LEGEND.to_string()),
            )
        }
        FrameKind::Turn(turn) => (
            turn_words(turn, state.game_left),
            comments.then(|| turn.comment.clone()).flatten(),
        ),
        FrameKind::End(end, result) => {
            let winner = match result.winner {
                Some(team) => format!("{} wins game {}", team_name(&frame.names, team), state.game),
                None => format!("game {} is drawn", state.game),
            };
            let reason = match end {
                crate::model::event::End::Cleared => "the field is cleared",
                crate::model::event::End::Time => "the game clock ran out",
                crate::model::event::End::BothOut => "both teams are out of time",
            };
            (
                format!(
                    "Game {} ends: {reason} · territory A {} : B {} · {winner}",
                    state.game, result.territory.a, result.territory.b
                ),
                Some(format!(
                    "objects cleared A {} : B {} · time used A {}s : B {}s",
                    result.objects.a,
                    result.objects.b,
                    Seconds(result.time_used.a),
                    Seconds(result.time_used.b)
                )),
            )
        }
        FrameKind::Summary(result) => {
            let first = match (result.winner, result.criterion) {
                (Some(team), Some(criterion)) => format!(
                    "{} wins the match by criterion {criterion}: {}",
                    team_name(&frame.names, team),
                    CRITERIA[usize::from(criterion) - 1]
                ),
                _ => "Tied on criteria 1-4: to be decided by janken".to_string(),
            };
            (first, None)
        }
    }
}

fn frame_start_cells(frame: &Frame, team: Team) -> Vec<String> {
    let state = &frame.state;
    state
        .size()
        .all()
        .filter(|&cell| state.owner(cell) == Some(team))
        .map(|cell| {
            if state.current[team] == Some(cell) {
                format!("{cell}*")
            } else {
                cell.to_string()
            }
        })
        .collect()
}

/// `A 2.0s  place d2 -> cancels B's d2`.
fn turn_words(turn: &TurnSummary, game_left: u64) -> String {
    let team = turn.team;
    let spent = Seconds(turn.charged);
    let (mut text, applied) = match &turn.effect {
        Effect::Clear(items) => (
            format!("{team} {spent}s  clear {}", items_words(items)),
            true,
        ),
        Effect::Place(items) => (
            format!("{team} {spent}s  place {}", items_words(items)),
            true,
        ),
        Effect::Move { to, .. } => (format!("{team} {spent}s  move {to}"), true),
        Effect::Pass => (format!("{team} {spent}s  pass"), true),
        Effect::Timeout { recorded: None } => (format!("{team} timeout"), false),
        Effect::Timeout {
            recorded: Some(recorded),
        } => (
            format!(
                "{team} {}s over time: nothing done, {spent}s charged",
                Seconds(*recorded)
            ),
            false,
        ),
        Effect::Illegal { code, .. } => (
            format!("{team} {spent}s  illegal ({code}), counted as a pass"),
            false,
        ),
    };
    if let (Some(amount), true) = (turn.emptied, applied) {
        text += &format!(" + empty ({amount})");
    }
    let mut effects = Vec::new();
    if !turn.claimed.is_empty() {
        let cells: Vec<String> = turn.claimed.iter().map(ToString::to_string).collect();
        effects.push(format!("claims {}", cells.join(", ")));
    }
    for (cell, owner, was_current) in &turn.cancelled {
        let current = if *was_current { "current " } else { "" };
        effects.push(format!("cancels {owner}'s {current}{cell}"));
    }
    if turn.out {
        effects.push(format!("{team} is out"));
    }
    if game_left == 0 {
        effects.push("game clock 0:00".to_string());
    }
    if !effects.is_empty() {
        text += " -> ";
        text += &effects.join(", ");
    }
    text
}

fn items_words(items: &[crate::model::turn::Item]) -> String {
    let words: Vec<String> = items.iter().map(ToString::to_string).collect();
    words.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::reader::read;
    use crate::rules::frames::Frames;
    use crate::rules::game::Policy;

    fn frames() -> Vec<Frame> {
        let log = include_str!("../../../../examples/katazuke/practice.ktz");
        let mut records = Vec::new();
        read(log.as_bytes(), Policy::Strict, |record| {
            records.push(record.clone())
        });
        Frames::new(records.into_iter()).collect()
    }

    #[test]
    fn captions_say_what_each_turn_did() {
        let frames = frames();
        // Start, 14 turns and the end of game 1; start, 16, end; summary.
        assert_eq!(frames.len(), 1 + 14 + 1 + 1 + 16 + 1 + 1);
        let turn = |n: usize| caption(&frames[n], true).0;
        assert_eq!(turn(1), "A 3.0s  clear b1:2 a2:2 -> claims b1, a2");
        assert_eq!(turn(9), "A 2.0s  place d2 -> cancels B's d2");
        assert_eq!(turn(13), "A timeout -> A is out");
        assert_eq!(turn(14), "B 1.0s  clear e4:2 -> claims e4, game clock 0:00");
        assert_eq!(turn(4), "B 3.0s  move d3 + empty (4)");
        assert_eq!(header(&frames[9]), "Game 1/2 · Turn 9 · game clock 0:12.0");
        assert_eq!(
            caption(&frames[9], true).1.as_deref(),
            Some("cancels B's territory d2")
        );
        assert_eq!(caption(&frames[9], false).1, None);
        // Game 2, turn 6 cancels B's current territory.
        assert_eq!(turn(16 + 6), "A 1.5s  place b4 -> cancels B's current b4");
        let (end, _) = caption(&frames[15], false);
        assert!(
            end.starts_with("Game 1 ends: the game clock ran out · territory A 5 : B 6"),
            "{end}"
        );
        let (summary, _) = caption(frames.last().unwrap(), false);
        assert_eq!(
            summary,
            "B (Takuma) wins the match by criterion 3: objects total"
        );
    }
}
