//! What happens (§3–§9): a game refereed turn by turn into events, and the
//! match decided from its games' results.

pub mod frames;
pub mod game;
pub mod outcome;
