//! The light policy the tree search plays a new leaf out with, to the end
//! of the game: each team takes the turn it likes best by a few rules of
//! thumb (claim whole cells, more at once; cancel; empty when a neighbour
//! needs the room; move to where there is work), half the time one of its
//! three best at random, and ends the game by `timeout` when it is ahead
//! and its clock covers the game clock. The end it reaches is the game's,
//! so a playout sees the clock race to the end, which a static estimate
//! nine turns on cannot (BENCHMARKS.md, issue 22).

use super::action::{Action, EmptyAt, Kind};
use super::position::Position;
use super::search::{cancels, claims};
use super::seeded::Seeded;

/// In a hundred turns, how many take one of the policy's [`CHOICES`] best
/// turns at random (which may be the best itself) instead of its best. Taken from
/// an independent Monte-Carlo player's playouts, not tuned: against three
/// players it changed 16 results for and 7 against the policy before it
/// (its second best a fifth of the time, whose rate, 10, 20 or 35 in a
/// hundred, had made no difference against `builtin:5`; BENCHMARKS.md,
/// issue 22).
const RANDOM_CHOICE_PERCENT: u64 = 50;
/// How many of the policy's best turns a random choice is among.
const CHOICES: usize = 3;

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
        position.legal_actions_into(actions);
        let best = best_turns(position, actions);
        // Drawn before the length is checked, as in the build that was
        // measured (BENCHMARKS.md), so that this one plays its turns.
        let pick = if random.chance(RANDOM_CHOICE_PERCENT) && best.len() > 1 {
            random.below(best.len() as u64) as usize
        } else {
            0
        };
        // Nothing is legal only at the end, which the loop checks.
        let chosen = best.get(pick).copied().unwrap_or(Action::TIMEOUT);
        position.apply(&chosen);
    }
}

/// The policy's [`CHOICES`] best of `actions`, the best first; of turns it
/// likes as much, the one listed first (kept on the stack: a playout
/// chooses at every turn).
fn best_turns(position: &Position, actions: &[Action]) -> BestTurns {
    let mut best = BestTurns::default();
    for &action in actions {
        let score = liking(position, &action);
        // After every turn liked at least as much: the earlier listed
        // stays ahead of an equal.
        let at = best.scores[..best.kept]
            .iter()
            .position(|&liked| liked < score)
            .unwrap_or(best.kept);
        if at == CHOICES {
            continue;
        }
        // Those from `at` on move one place down; the last falls off when
        // all places are taken.
        let end = (best.kept + 1).min(CHOICES);
        best.scores.copy_within(at..end - 1, at + 1);
        best.actions.copy_within(at..end - 1, at + 1);
        best.scores[at] = score;
        best.actions[at] = action;
        best.kept = end;
    }
    best
}

/// Up to [`CHOICES`] turns, the best first, with how much the policy likes
/// each.
struct BestTurns {
    scores: [i64; CHOICES],
    actions: [Action; CHOICES],
    /// How many places hold a turn.
    kept: usize,
}

impl Default for BestTurns {
    fn default() -> BestTurns {
        BestTurns {
            scores: [0; CHOICES],
            actions: [Action::TIMEOUT; CHOICES],
            kept: 0,
        }
    }
}

impl std::ops::Deref for BestTurns {
    type Target = [Action];

    fn deref(&self) -> &[Action] {
        &self.actions[..self.kept]
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
    use crate::engine::random_game_positions;
    use crate::model::team::Team;
    use crate::play::suite::practice_start;

    /// The kept three against a sort of the whole list: the best liked
    /// first, and of turns liked as much the one listed first; on each
    /// position's whole list and on its first 0 to 4 turns (lists shorter
    /// than the three kept, and as long).
    #[test]
    fn the_best_turns_are_the_first_three_of_the_list_sorted_by_liking() {
        let mut ties = 0;
        for position in random_game_positions(1..=20, CostModel::Virtual) {
            let all = position.legal_actions();
            for length in (0..=4).chain([all.len()]) {
                let actions = &all[..length.min(all.len())];
                let mut sorted: Vec<(i64, usize)> = actions
                    .iter()
                    .enumerate()
                    .map(|(at, action)| (liking(&position, action), at))
                    .collect();
                sorted.sort_by_key(|&(score, at)| (std::cmp::Reverse(score), at));
                let expected: Vec<Action> = sorted
                    .iter()
                    .take(CHOICES)
                    .map(|&(_, at)| actions[at])
                    .collect();
                assert_eq!(&*best_turns(&position, actions), &expected[..]);
                ties += sorted
                    .windows(2)
                    .take(CHOICES)
                    .filter(|pair| pair[0].0 == pair[1].0)
                    .count();
            }
        }
        // Enough equal likings among the best that the order of equals is
        // checked.
        assert!(ties > 50, "{ties} ties");
    }

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
