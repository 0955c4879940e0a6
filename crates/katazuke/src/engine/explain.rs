//! What a turn means for the match, in words (`suggest`, annotated
//! captions): whether it ends the game and how the match then stands, or
//! what the search expects of the rest.

use super::objective::{decode, standing};
use super::position::Position;
use crate::model::team::Team;
use crate::rules::result::{MatchResult, CRITERIA};

/// What a turn that leads to `after` means for the match, in words for
/// `team`: "ends the game: wins the match on criterion 2 (territory
/// total)", "ends game 1 2.0 cells ahead", "the match: expects to end 1.5
/// cells ahead". `value` is what the search expects of it, from A's side.
pub fn explain(after: &Position, team: Team, value: i64) -> String {
    let sign = if team == Team::A { 1 } else { -1 };
    if let Some(result) = after.match_result() {
        return format!("ends the game: {}", verdict(&result, team));
    }
    if after.is_terminal() {
        return format!("ends game 1 {}", standing(sign * after.game_value()));
    }
    let (margin, outcome) = decode(value);
    let word = if after.game_one().is_some() {
        "the match"
    } else {
        "game 1"
    };
    match outcome {
        Some(outcome) if outcome == sign => format!("{word}: expects to win it"),
        Some(_) => format!("{word}: expects to lose it"),
        None => format!("{word}: expects to end {}", standing(sign * margin)),
    }
}

/// "wins the match on criterion 2 (territory total)".
fn verdict(result: &MatchResult, team: Team) -> String {
    match (result.winner, result.criterion) {
        (Some(winner), Some(criterion)) => format!(
            "{} the match on criterion {criterion} ({})",
            if winner == team { "wins" } else { "loses" },
            CRITERIA[usize::from(criterion) - 1]
        ),
        _ => "ties the match on criteria 1-4 (janken decides)".to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::team::PerTeam;
    use crate::rules::result::GameResult;

    fn game(a: u32, b: u32) -> GameResult {
        let none = PerTeam { a: 0, b: 0 };
        GameResult::from_totals(PerTeam { a, b }, none, PerTeam { a: 0, b: 0 })
    }

    #[test]
    fn a_decided_match_names_its_criterion() {
        let result = MatchResult::decide(&[game(3, 2), game(2, 4)], None);
        assert_eq!(
            verdict(&result, Team::B),
            "wins the match on criterion 2 (territory total)"
        );
        assert_eq!(
            verdict(&result, Team::A),
            "loses the match on criterion 2 (territory total)"
        );
        let level = MatchResult::decide(&[game(2, 2), game(2, 2)], None);
        assert_eq!(
            verdict(&level, Team::A),
            "ties the match on criteria 1-4 (janken decides)"
        );
    }
}
