//! The computer player's engine (§15.2): positions in a compact form with
//! the OpenSpiel-like interface (`legal_actions` in a canonical order,
//! `apply`, `is_terminal`, `returns`, `serialize`), what turns cost on the
//! virtual clock, the alpha–beta search and the tree search with its
//! playouts.

pub mod action;
pub mod annotate;
pub mod cost;
pub mod explain;
pub mod legal;
pub mod mcts;
pub mod objective;
pub mod playout;
pub mod position;
pub mod search;
pub mod seeded;

/// The positions of a game of random turns on each of the practice fields
/// `seeds`, priced by `costs`: the sample the engine's unit tests check
/// their rules on.
#[cfg(test)]
pub(crate) fn random_game_positions(
    seeds: std::ops::RangeInclusive<u64>,
    costs: cost::CostModel,
) -> Vec<position::Position> {
    let mut positions = Vec::new();
    for seed in seeds {
        let start = crate::play::suite::practice_start(seed);
        let mut position = position::Position::of(&start, costs);
        let mut random = seeded::Seeded::new(seed);
        let mut actions = Vec::new();
        while !position.is_terminal() {
            positions.push(position.clone());
            position.legal_actions_into(&mut actions);
            let pick = random.below(actions.len() as u64) as usize;
            position.apply(&actions[pick]);
        }
    }
    positions
}
