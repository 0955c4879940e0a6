//! The light policy the tree search plays a new leaf out with, to the end
//! of the game: each team takes the turn it likes best by a few rules of
//! thumb (claim whole cells, more at once; cancel; empty when a neighbour
//! needs the room; move to where there is work), now and then its second
//! choice, and ends the game by `timeout` when it is ahead and its clock
//! covers the game clock. The end it reaches is the game's, so a playout
//! sees the clock race to the end, which a static estimate nine turns on
//! cannot (BENCHMARKS.md, issue 22).

use super::action::{Action, EmptyAt, Kind};
use super::position::Position;
use super::search::{cancels, claims};
use super::seeded::Seeded;

/// In a hundred turns, how many take the policy's second choice instead of
/// its first. Measured at level 5 against `builtin:5` over 40 fields: 10,
/// 20 and 35 gave 14, 14 and 15 matches of 40, alike; none gives playouts
/// that always repeat one line.
const SECOND_CHOICE_PERCENT: u64 = 20;

/// Plays `position` to the end of its game by the policy, listing each
/// position's turns in `actions` (reused: a search plays out thousands of
/// leaves).
pub fn play_out(position: &mut Position, random: &mut Seeded, actions: &mut Vec<Action>) {
    while !position.is_terminal() {
        let team = position.to_move();
        // The team's clock covers the game clock: its timeout ends the
        // game where it stands, which the team ahead takes.
        if position.returns()[team] > 0 && position.team_left(team) >= position.game_left() {
            position.apply(&Action::TIMEOUT);
            continue;
        }
        let mut first: Option<(i64, Action)> = None;
        let mut second: Option<(i64, Action)> = None;
        position.legal_actions_into(actions);
        for &action in actions.iter() {
            let score = liking(position, &action);
            if first.is_none_or(|(best, _)| score > best) {
                second = first;
                first = Some((score, action));
            } else if second.is_none_or(|(next, _)| score > next) {
                second = Some((score, action));
            }
        }
        let chosen = match (first, second) {
            (_, Some((_, other))) if random.chance(SECOND_CHOICE_PERCENT) => other,
            (Some((_, best)), _) => best,
            // Nothing is legal only at the end, which the loop checks.
            (None, _) => Action::TIMEOUT,
        };
        position.apply(&chosen);
    }
}

/// How much the policy likes `action` for the team to move: the higher,
/// the likelier it is played.
fn liking(position: &Position, action: &Action) -> i64 {
    let team = position.to_move();
    let capacity = position.capacity();
    let load = position.load(team);
    let emptied = action.empty != EmptyAt::None;
    match action.kind {
        Kind::Clear => {
            let claims = claims(position, action);
            let after = load + action.objects();
            // Emptying after the clear pays when the container is nearly
            // full, and wastes six seconds otherwise.
            let emptying = match (emptied, after * 4 >= capacity * 3) {
                (false, _) => 0,
                (true, true) => 50,
                (true, false) => -400,
            };
            claims * 1_000 + i64::from(action.objects()) * 10 - action.cells().len() as i64 * 5
                + emptying
        }
        Kind::Place => {
            let cancels = cancels(position, action);
            let seeds = action.cells().len() as i64 - cancels;
            cancels * 900 + seeds * 150 - if emptied { 200 } else { 0 }
        }
        Kind::Move => {
            let target = usize::from(action.cells()[0]);
            let room = capacity - if emptied { 0 } else { load };
            let work = position
                .neighbours(target)
                .filter(|&next| position.count(next) > 0 && position.count(next) <= room)
                .count() as i64;
            work * 120 - if emptied { 60 } else { 0 }
        }
        // The turns listed empty only a load.
        Kind::Pass if emptied => {
            // Emptying alone is worth it when a neighbour needs the room.
            let needed = position.current(team).is_some_and(|current| {
                position.neighbours(current).any(|next| {
                    let count = position.count(next);
                    count > capacity - load && count <= capacity
                })
            });
            if needed {
                400
            } else {
                5
            }
        }
        Kind::Pass => 0,
        Kind::Timeout => -10_000,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::cost::CostModel;
    use crate::model::team::Team;
    use crate::play::suite::practice_start;

    #[test]
    fn a_playout_reaches_the_end_of_the_game_the_same_way_each_time() {
        for seed in 1..=6 {
            let start = Position::of(&practice_start(seed), CostModel::Virtual);
            let mut one = start.clone();
            play_out(&mut one, &mut Seeded::new(seed), &mut Vec::new());
            let mut two = start.clone();
            play_out(&mut two, &mut Seeded::new(seed), &mut Vec::new());
            assert!(one.is_terminal(), "seed {seed}");
            assert_eq!(one.key(), two.key(), "seed {seed}");
            assert_eq!(one.value(), two.value(), "seed {seed}");
            // The policy claims: a playout ends with cells taken.
            assert!(
                one.territory(Team::A) + one.territory(Team::B)
                    > start.territory(Team::A) + start.territory(Team::B),
                "seed {seed}"
            );
        }
    }
}
