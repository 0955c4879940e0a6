//! What the computer player plays for: the match (§9.2), not the game.
//!
//! The five criteria of §9.2 compare the two teams lexicographically on
//! two game wins, then the territory total, the objects total and the time
//! total. A team with two wins also has the larger territory total (§9.3),
//! so the winner is the sign of one number: the territory difference over
//! both games, then the objects, then the time, packed so that each
//! outweighs everything after it ([`TERRITORY`], [`OBJECT`]). Game 1's part
//! of that number is carried into every position of game 2
//! (`Position::after_game_one`); a finished game 2 is then exactly the
//! match's result.
//!
//! In game 1 the match is not over: a margin is worth the chance that game
//! 2 does not overturn it. Game 2 is played from the same cells with the
//! roles swapped, so its margin is taken as symmetric around zero, and the
//! chance that game 1's margin of `d` cells holds is a logistic curve in
//! `d` ([`GAME_TWO_SPREAD`]). Every margin counts, a larger one more, and
//! a level game is worth an even chance.

use crate::model::team::{PerTeam, Team};
use crate::rules::result::GameResult;

/// One territory difference, in the units of [`Position::value`]: it
/// outweighs any difference of objects and time over both games (§9.2's
/// order).
pub const TERRITORY: i64 = 1 << 44;
/// One object cleared: it outweighs any difference of time (two games of
/// at most 7,200 s are under 2²³ ms).
pub const OBJECT: i64 = 1 << 23;

/// How many cells game 2's margin typically swings between players of
/// like strength: the scale of the logistic curve. Set, not fitted: the
/// practice fields' games end a few cells apart (10 to 20 cells a team).
pub const GAME_TWO_SPREAD: f64 = 2.0;

/// What a match won is worth in a search's values, from the winner's
/// side: more than any margin of a game not yet over, so that a search
/// ends game 2 only when that wins the match, and never ends it in a loss
/// while play can still change the result.
pub const MATCH_WON: i64 = 1 << 58;

/// How much a decided match's margin is scaled down: a won match is worth
/// more with a larger margin (safer against a misjudged line), and a lost
/// one less bad with a smaller one, but every won match more than any
/// undecided one.
const MARGIN_SHIFT: u32 = 6;

/// A decided match's value for a search, from A's side, given the
/// match's margin `value` ([`MATCH_WON`] for a won match, its negation
/// for a lost one, 0 for a tie left to janken, each with its margin
/// scaled down).
pub fn decided(value: i64) -> i64 {
    value.signum() * MATCH_WON + (value >> MARGIN_SHIFT)
}

/// A search's value as the match's margin in [`Position::value`]'s units,
/// and the match's result when the value is of a decided match (+1 won by
/// A, −1 won by B).
pub fn decode(value: i64) -> (i64, Option<i64>) {
    if value.abs() >= MATCH_WON / 2 {
        let outcome = value.signum();
        ((value - outcome * MATCH_WON) << MARGIN_SHIFT, Some(outcome))
    } else {
        (value, None)
    }
}

/// A game's value from A's side: the territory difference, then objects,
/// then time (less is better).
pub fn value_of(result: &GameResult) -> i64 {
    let territory = i64::from(result.territory.a) - i64::from(result.territory.b);
    let objects = i64::from(result.objects.a) - i64::from(result.objects.b);
    let time = result.time_used.b as i64 - result.time_used.a as i64;
    territory * TERRITORY + objects * OBJECT + time
}

/// A value as cells of territory (objects and time as small fractions); a
/// decided match's value as its margin.
pub fn in_cells(value: i64) -> f64 {
    decode(value).0 as f64 / TERRITORY as f64
}

/// A's chance of winning a match decided by the margin `value`: 1, ½ for
/// a tie left to janken, or 0.
pub fn decided_chance(value: i64) -> f64 {
    match value.signum() {
        1 => 1.0,
        -1 => 0.0,
        _ => 0.5,
    }
}

/// A's chance of winning the match from a margin that is not final, worth
/// `value` from A's side ([`Position::value`]'s units): a logistic curve in
/// the margin, as for game 1's end. In game 2 the margin is the match's
/// (what is left of game 2 may still overturn it); in game 1 it is game
/// 1's (game 2 may).
pub fn chance_of(value: i64) -> f64 {
    logistic(in_cells(value), GAME_TWO_SPREAD)
}

/// The logistic curve of a margin of `cells`, at `spread` cells' scale:
/// ½ when level, towards 1 ahead and 0 behind.
pub fn logistic(cells: f64, spread: f64) -> f64 {
    1.0 / (1.0 + (-cells / spread).exp())
}

/// "2.0 cells ahead", "level", "1.0 cell behind" for a margin from the
/// team's side; a level territory names objects or time when they differ.
pub fn standing(margin: i64) -> String {
    let cells = in_cells(margin);
    // Within a twentieth of a cell of level: the territory is level.
    if margin.abs() < TERRITORY / 20 {
        return match margin.signum() {
            0 => "level".to_string(),
            1 => "level in territory, ahead on objects or time".to_string(),
            _ => "level in territory, behind on objects or time".to_string(),
        };
    }
    let unit = if format!("{:.1}", cells.abs()) == "1.0" {
        "cell"
    } else {
        "cells"
    };
    let side = if cells > 0.0 { "ahead" } else { "behind" };
    format!("{:.1} {unit} {side}", cells.abs())
}

/// Game 1's result from what a player hears of it: each turn's team,
/// charged time and applied steps, and the final territories.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct GameTally {
    objects: PerTeam<u32>,
    time_used: PerTeam<u64>,
}

impl GameTally {
    /// A turn of `team` charged `charged` ms that cleared `cleared`
    /// objects.
    pub fn turn(&mut self, team: Team, charged: u64, cleared: u32) {
        self.time_used[team] += charged;
        self.objects[team] += cleared;
    }

    /// The game's result, its territories known.
    pub fn result(&self, territory: PerTeam<u32>) -> GameResult {
        GameResult::from_totals(territory, self.objects, self.time_used)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::result::MatchResult;

    fn game(territory: [u32; 2], objects: [u32; 2], time: [u64; 2]) -> GameResult {
        let mut tally = GameTally::default();
        tally.turn(Team::A, time[0], objects[0]);
        tally.turn(Team::B, time[1], objects[1]);
        tally.result(PerTeam {
            a: territory[0],
            b: territory[1],
        })
    }

    /// The packed value's sign is the referee's decision, whatever the two
    /// games were, up to the largest totals two games can have.
    #[test]
    fn the_sign_of_the_summed_values_is_the_referees_winner() {
        let mut random = super::super::seeded::Seeded::new(11);
        for _ in 0..20_000 {
            let mut pick = |most: u64| random.below(most + 1);
            let mut one_game = || {
                let territory = [pick(6) as u32, pick(6) as u32];
                let big = pick(1) == 1;
                let objects = if big {
                    [pick(25_600) as u32, pick(25_600) as u32]
                } else {
                    [pick(3) as u32, pick(3) as u32]
                };
                let time = if big {
                    [pick(3_600_000), pick(3_600_000)]
                } else {
                    [pick(2), pick(2)]
                };
                game(territory, objects, time)
            };
            let (first, second) = (one_game(), one_game());
            let result = MatchResult::decide(&[first, second], None);
            let value = value_of(&first) + value_of(&second);
            let by_value = match value.signum() {
                1 => Some(Team::A),
                -1 => Some(Team::B),
                _ => None,
            };
            assert_eq!(by_value, result.winner, "{first:?} {second:?}");
        }
    }

    #[test]
    fn margins_read_as_cells_ahead_or_behind() {
        assert_eq!(standing(2 * TERRITORY + 5 * OBJECT), "2.0 cells ahead");
        assert_eq!(standing(-TERRITORY), "1.0 cell behind");
        assert_eq!(standing(0), "level");
        assert_eq!(
            standing(-3 * OBJECT),
            "level in territory, behind on objects or time"
        );
    }
}
