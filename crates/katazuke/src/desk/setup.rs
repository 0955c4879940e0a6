//! A desk's match from the text it is set up with: a parameters file, or
//! a record being taken up again. Its header is kept as written; its
//! games' starts are read from it, or made when it gives none.

use crate::log::lines;
use crate::log::reader::read_setup;
use crate::model::setup::{GameSetup, MatchSetup, SetupProblem};
use crate::play::starts::symmetric_start;

/// Why a text cannot set up a match, or a record be taken up again.
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
                .unwrap_or_else(|| first.swapped());
            MatchSetup::new(one.params.clone(), [first, second]).map_err(problem)
        }
        _ => MatchSetup::from_setup(&setup, |size| match fallback {
            Some(setup) => setup.games().clone(),
            None => GameSetup::swapped_pair(symmetric_start(size)),
        })
        .map_err(problem),
    }
}
