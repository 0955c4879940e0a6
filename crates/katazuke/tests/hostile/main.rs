//! `katazuke` against a hostile user: inputs, programs and files made to
//! break it, a module per subject. Each test would fail without the fix it
//! guards (issue 20: nothing a user relies on can be silently wrong).

#[path = "../common/mod.rs"]
mod common;

mod log_tokens;
mod memory;
mod outputs;
mod player_answers;
mod terminal;
mod tournament_results;
