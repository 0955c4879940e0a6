//! Seeded practice matches for measuring players: a field of 5 × 5 to
//! 7 × 7 with 0 to 5 objects a cell, capacity 4 to 8, stock 2 to 4, the
//! default clocks (120 s a team, 180 s a game), and three random start
//! cells used in both games with the roles swapped. The same seed gives
//! the same match on every machine.

use super::random::random_start;
use crate::engine::seeded::Seeded;
use crate::model::field::Field;
use crate::model::params::{Params, Stock, DEFAULT_GAME_TIME, DEFAULT_TEAM_TIME};
use crate::model::setup::{GameSetup, MatchSetup};

/// The practice match of `seed`.
pub fn practice_setup(seed: u64) -> MatchSetup {
    let mut random = Seeded::new(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) ^ 0x5EED);
    let rows = 5 + random.below(3) as usize;
    let columns = 5 + random.below(3) as usize;
    let counts: Vec<Vec<u32>> = (0..rows)
        .map(|_| {
            (0..columns)
                .map(|_| {
                    if random.chance(10) {
                        0
                    } else {
                        1 + random.below(5) as u32
                    }
                })
                .collect()
        })
        .collect();
    let stock = 2 + random.below(3) as u32;
    let params = Params {
        field: Field::new(&counts).expect("5 to 7 rows and columns of 0 to 5 objects are a field"),
        capacity: 4 + random.below(5) as u32,
        stock: Stock {
            first: stock,
            second: stock,
        },
        team_time: DEFAULT_TEAM_TIME,
        game_time: DEFAULT_GAME_TIME,
    };
    let cells = random_start(params.field.size(), &mut random);
    MatchSetup::new(params, GameSetup::swapped_pair(cells))
        .expect("capacity 4 to 8, stock 2 to 4 and the default clocks are within §2.1")
}

/// The state at the start of game 1 of the practice match of `seed`, for
/// the unit tests of players and searches.
#[cfg(test)]
pub fn practice_start(seed: u64) -> crate::model::state::GameState {
    let setup = practice_setup(seed);
    let game = &setup.games()[0];
    crate::rules::game::GameReferee::start(
        1,
        setup.params(),
        game.first,
        game.start.clone(),
        game.current,
        crate::rules::game::Policy::Strict,
        &mut |_, _| {},
    )
    .expect("a practice match starts legally")
    .state()
    .clone()
}
