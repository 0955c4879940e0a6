//! 片付けマス (Katazuke-masu), the two-team territory game of
//! KATAZUKE.md: a referee of match logs, its replay GIF, and matches played
//! between programs and a computer player.
//!
//! The stages, each knowing nothing of the ones after it: [`model`]
//! (teams, the field, parameters, turns, events, a game's state as a fold
//! over them), [`rules`] (a game refereed turn by turn into events; the
//! match decided), [`log`] (the `.ktz` format read and referee'd from the
//! top, and written back canonically), [`formats`] and [`draw`] (text and
//! pictures of the events), [`engine`] (the computer player's positions and
//! search) and [`play`] (matches played as they are refereed, and
//! tournaments).

pub mod draw;
pub mod engine;
pub mod formats;
pub mod log;
pub mod model;
pub mod play;
pub mod rules;

/// How the hidden temporary files that `katazuke` writes beside its outputs
/// begin (`.katazuke-XXXXXX.tmp`, renamed over the output when complete).
pub const TEMPORARY_PREFIX: &str = ".katazuke-";

// The README's example runs as a test, so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
