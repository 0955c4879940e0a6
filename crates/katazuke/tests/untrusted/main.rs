//! What untrusted inputs cannot make `katazuke` do: log tokens that are no
//! cells or numbers, logs that would fill memory, outputs that would be
//! lost or mixed, player programs that answer out of turn or forever,
//! text that would take over a terminal, and results files that lie. A
//! module per subject; each test would fail without the fix it guards.

#[path = "../common/mod.rs"]
mod common;

mod log_tokens;
mod memory;
mod outputs;
mod player_answers;
mod terminal;
mod tournament_results;
