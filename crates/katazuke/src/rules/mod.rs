//! What happens (§3–§9): whether a turn is allowed, a game refereed turn
//! by turn into events, and the match decided from its games' results.

pub mod frames;
pub mod game;
pub mod legality;
pub mod result;
