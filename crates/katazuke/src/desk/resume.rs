//! A desk's match continued from its record, after a crash or a power
//! cut: the record is refereed as a log that may stop anywhere, then its
//! games, turns and notes are taken up again; the turn being played when
//! the desk stopped starts afresh.

use super::session::{DeskClock, DeskSession};
use super::setup::{header_of, setup_of, ResumeError};
use crate::log::lines;
use crate::log::reader::read_unfinished;
use crate::model::setup::MatchSetup;
use crate::model::team::Team;
use crate::model::turn::Turn;
use crate::rules::game::Policy;

/// Takes up the match of `text`, a desk's record (or any log that stops
/// anywhere), at `now`. `fallback` gives the starts the record does not
/// (game 2's while it stops in game 1), as [`setup_of`] takes them.
pub fn resume(
    text: &str,
    clock: DeskClock,
    fallback: Option<&MatchSetup>,
    now: u64,
) -> Result<DeskSession, ResumeError> {
    let verdict = read_unfinished(text.as_bytes(), Policy::Strict, |_| {});
    if let Some(error) = verdict.error {
        return Err(ResumeError(error.line_for("the record")));
    }
    let setup = setup_of(text.as_bytes(), fallback)?;
    let header = header_of(text);
    let mut session = DeskSession::new(header, setup.clone(), clock);
    let size = setup.params().field.size();
    let mut in_game = false;
    for line in text[header.len()..].lines() {
        let split = lines::split(line);
        let content = split.content.trim();
        if matches!(content, "game 1" | "game 2") {
            session
                .start_game(now)
                .map_err(|error| ResumeError(error.to_string()))?;
            in_game = true;
        } else if let Some(winner) = content.strip_prefix("janken:") {
            if let Some(team) = Team::from_letter(winner.trim()) {
                let _ = session.janken(team);
            }
        } else if in_game && lines::is_turn(&split) {
            let read = lines::turn(&split, size)
                .map_err(|error| ResumeError(format!("{}: {}", error.code, error.message)))?;
            let turn = Turn {
                team: read.team,
                play: read.play,
            };
            session
                .apply(now, turn, split.comment.map(str::to_string))
                .map_err(|error| ResumeError(error.to_string()))?;
        } else if in_game && content.is_empty() {
            if let Some(note) = split.comment.filter(|_| line.trim_start().starts_with('#')) {
                session.note(note.to_string());
            }
        }
    }
    if session.in_game() {
        session.note("the desk stopped here and was resumed".into());
    }
    Ok(session)
}
