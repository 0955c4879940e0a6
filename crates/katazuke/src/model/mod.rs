//! The vocabulary of 片付けマス: teams and roles, the field and its cells,
//! parameters, what a match is set up with, turns and steps, the codes of
//! what can go wrong, events, and a game's state as a fold over them.

pub mod code;
pub mod event;
pub mod field;
pub mod params;
pub mod setup;
pub mod state;
pub mod team;
pub mod turn;
