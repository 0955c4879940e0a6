//! `shubbles` against a hostile user: inputs and files made to break it, a
//! module per subject. Each test would fail without the fix it guards
//! (issue 20: nothing a user relies on can be silently wrong).

#[path = "../common/mod.rs"]
mod common;

mod batch_resume;
