//! A desk's match continued from its record, after a crash or a power
//! cut: the record is refereed as a log that may stop anywhere, then its
//! games, turns and notes are taken up again; the turn being played when
//! the desk stopped starts afresh.

use super::session::{DeskClock, DeskSession};
use crate::log::lines;
use crate::log::reader::{read_setup, read_unfinished};
use crate::model::setup::{GameSetup, MatchSetup, SetupProblem};
use crate::model::team::Team;
use crate::model::turn::Turn;
use crate::play::starts::symmetric_start;
use crate::rules::game::Policy;

/// Why a record cannot be taken up again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ResumeError(pub String);

impl std::fmt::Display for ResumeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ResumeError {}

/// The header of a record or parameters file: its lines before `game 1`.
pub fn header_of(text: &str) -> &str {
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if lines::split(line).content.trim() == "game 1" {
            return &text[..at];
        }
        at += line.len();
    }
    text
}

/// Game 2 as the desk plays it when a record or parameters file gives
/// only game 1: the same cells, each team in the other's role (as
/// `play` swaps them).
pub fn swapped(game: &GameSetup) -> GameSetup {
    let swap = |team: Team| team.other();
    GameSetup {
        first: swap(game.first),
        start: crate::model::team::PerTeam::from_fn(|team| game.start[swap(team)].clone()),
        current: crate::model::team::PerTeam::from_fn(|team| game.current[swap(team)]),
    }
}

/// The match a record or parameters file sets up: both games' starts as
/// it gives them; when it gives only game 1, game 2 from `fallback` (or
/// game 1 swapped); when it gives none, `fallback`'s starts (or the
/// symmetric ones, swapped for game 2).
pub fn setup_of(text: &[u8], fallback: Option<&MatchSetup>) -> Result<MatchSetup, ResumeError> {
    let setup = read_setup(text).map_err(|error| ResumeError(error.line_for("the record")))?;
    let problem = |problem: SetupProblem| ResumeError(problem.to_string());
    match setup.games.as_slice() {
        [one] => {
            let first = GameSetup::of_start(one);
            let second = fallback
                .map(|setup| setup.games()[1].clone())
                .unwrap_or_else(|| swapped(&first));
            MatchSetup::new(one.params.clone(), [first, second]).map_err(problem)
        }
        _ => MatchSetup::from_setup(&setup, |size| match fallback {
            Some(setup) => setup.games().clone(),
            None => GameSetup::swapped_pair(symmetric_start(size)),
        })
        .map_err(problem),
    }
}

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
            session.apply(now, turn, split.comment.map(str::to_string));
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
