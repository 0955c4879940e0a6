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
