//! Random legal matches from a seed: the same on every machine, for
//! property tests, benchmarks and practice. Each turn is a legal action
//! chosen at random (clear, place, move, pass, sometimes with an emptying)
//! and a random duration; now and then a turn overruns or times out.

use crate::engine::seeded::Seeded;
use crate::log::record::{GameRecord, MatchRecord};
use crate::model::field::{Cell, Field, FieldError, Size};
use crate::model::params::{Params, Stock};
use crate::model::state::GameState;
use crate::model::team::{PerTeam, Team};
use crate::model::turn::{Item, Play, Step, Turn};
use crate::rules::game::{GameReferee, Policy};

/// Three distinct cells of a field of `size` (which has at least three):
/// the first team's, then the second team's two.
pub fn random_start(size: Size, random: &mut Seeded) -> [Cell; 3] {
    let mut chosen: Vec<Cell> = Vec::new();
    while chosen.len() < 3 {
        let cell = size.cell(random.below(size.cells() as u64) as usize);
        if !chosen.contains(&cell) {
            chosen.push(cell);
        }
    }
    [chosen[0], chosen[1], chosen[2]]
}

/// A random legal play for the team to move in `state`.
pub fn random_steps(state: &GameState, random: &mut Seeded) -> Vec<Step> {
    let team = state.to_move;
    let size = state.size();
    let capacity = state.params.capacity;
    let load = state.load[team];
    let mut options: Vec<Vec<Step>> = vec![vec![Step::Pass]];
    if let Some(current) = state.current[team] {
        let neighbours: Vec<Cell> = size.neighbours(current).collect();
        let full: Vec<Cell> = neighbours
            .iter()
            .copied()
            .filter(|&cell| state.count(cell) > 0)
            .collect();
        if !full.is_empty() && load < capacity {
            let mut room = capacity - load;
            let mut items = Vec::new();
            for &cell in &full {
                if room == 0 || (!items.is_empty() && random.chance(50)) {
                    continue;
                }
                let most = state.count(cell).min(room);
                // Mostly the whole cell, to claim it, when it fits.
                let count = if random.chance(60) {
                    most
                } else {
                    1 + random.below(u64::from(most)) as u32
                };
                items.push(Item { cell, count });
                room -= count;
            }
            if !items.is_empty() {
                let mut steps = vec![Step::Clear(items)];
                if random.chance(30) {
                    steps.push(Step::Empty);
                }
                options.push(steps.clone());
                options.push(steps);
            }
        }
        if state.stock[team] > 0 && !neighbours.is_empty() && random.chance(40) {
            let cell = neighbours[random.below(neighbours.len() as u64) as usize];
            options.push(vec![Step::Place(vec![Item { cell, count: 1 }])]);
        }
    }
    let own: Vec<Cell> = size
        .all()
        .filter(|&cell| state.owner(cell) == Some(team) && state.current[team] != Some(cell))
        .collect();
    if !own.is_empty() {
        let to = own[random.below(own.len() as u64) as usize];
        options.push(vec![Step::Move(to)]);
    }
    let mut steps = options.swap_remove(random.below(options.len() as u64) as usize);
    if load > 0 && !matches!(steps.first(), Some(Step::Clear(_))) && random.chance(50) {
        steps.insert(0, Step::Empty);
    }
    steps
}

/// A random legal turn for the team to move: its steps, and a duration of
/// 0.2 to 5 s; `mishaps` turns in a thousand overrun the time left (twice
/// as many) or are a `timeout`.
pub fn random_turn(state: &GameState, random: &mut Seeded, mishaps: u64) -> Turn {
    let team = state.to_move;
    if random.below(1000) < mishaps {
        return Turn {
            team,
            play: Play::Timeout,
        };
    }
    let duration = if random.below(1000) < 2 * mishaps {
        state.time_left(team) + 1 + random.below(3000)
    } else {
        200 + random.below(4800)
    };
    Turn {
        team,
        play: Play::Steps {
            duration,
            steps: random_steps(state, random),
        },
    }
}

/// The parameters random matches are played with (`examples/random_match.rs`,
/// the benchmarks, the tests of long matches): a `rows` × `columns` field
/// of 1 to 9 objects a cell drawn from `seed`, a capacity of 6, a stock of
/// 3 for each team, and clocks of `team_time` and `game_time` ms.
pub fn random_params(
    rows: usize,
    columns: usize,
    seed: u64,
    team_time: u64,
    game_time: u64,
) -> Result<Params, FieldError> {
    let mut random = Seeded::new(seed);
    let counts: Vec<Vec<u32>> = (0..rows)
        .map(|_| (0..columns).map(|_| 1 + random.below(9) as u32).collect())
        .collect();
    Ok(Params {
        field: Field::new(&counts)?,
        capacity: 6,
        stock: Stock {
            first: 3,
            second: 3,
        },
        team_time,
        game_time,
    })
}

/// A whole random legal match on `params` from `seed`: A is first in game
/// 1, B in game 2; `mishaps` turns in a thousand overrun or time out (see
/// `random_turn`), which puts teams out early.
pub fn random_match(params: &Params, seed: u64, mishaps: u64) -> MatchRecord {
    let mut random = Seeded::new(seed);
    let mut games = Vec::new();
    for first in [Team::A, Team::B] {
        let [own, one, two] = random_start(params.field.size(), &mut random);
        let second = first.other();
        let mut start = PerTeam::<Vec<Cell>>::default();
        start[first] = vec![own];
        start[second] = vec![one, two];
        let mut current = PerTeam { a: own, b: own };
        current[second] = if random.chance(50) { one } else { two };
        let mut referee = GameReferee::start(
            games.len() as u8 + 1,
            params,
            first,
            start.clone(),
            current,
            Policy::Strict,
            &mut |_, _| {},
        )
        .expect("three distinct cells of a field (which has at least three) are a legal start");
        let mut turns = Vec::new();
        while referee.state().ended.is_none() {
            let mut turn = random_turn(referee.state(), &mut random, mishaps);
            if referee
                .play(turn.clone(), None, None, &mut |_, _| {})
                .is_err()
            {
                // Never, as the steps are chosen legal; a pass is the
                // harmless stand-in should that change.
                turn.play = Play::Steps {
                    duration: 500,
                    steps: vec![Step::Pass],
                };
                if referee
                    .play(turn.clone(), None, None, &mut |_, _| {})
                    .is_err()
                {
                    break;
                }
            }
            turns.push((turn, None));
        }
        games.push(GameRecord {
            first,
            start,
            current,
            turns,
        });
    }
    MatchRecord {
        names: PerTeam::default(),
        params: params.clone(),
        games,
        janken: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::log::reader::read;
    use crate::model::field::Field;
    use crate::model::params::Stock;

    fn params() -> Params {
        Params {
            field: Field::new(&[
                vec![1, 2, 1, 3, 1],
                vec![2, 1, 3, 1, 2],
                vec![1, 3, 0, 2, 1],
                vec![2, 1, 2, 1, 3],
                vec![1, 2, 1, 2, 1],
            ])
            .unwrap(),
            capacity: 4,
            stock: Stock {
                first: 2,
                second: 2,
            },
            team_time: 20_000,
            game_time: 36_000,
        }
    }

    #[test]
    fn random_matches_are_legal_and_the_same_from_the_same_seed() {
        for seed in 1..50 {
            let record = random_match(&params(), seed, 10);
            assert_eq!(record, random_match(&params(), seed, 10));
            let log = record.to_string();
            let verdict = read(log.as_bytes(), Policy::Strict, |_| {});
            assert_eq!(verdict.error, None, "seed {seed}:\n{log}");
        }
        assert_ne!(
            random_match(&params(), 1, 10),
            random_match(&params(), 2, 10)
        );
    }
}
