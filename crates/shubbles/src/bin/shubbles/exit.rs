//! What the program calls itself in messages, and the exit status of its
//! own beyond those every tool shares (BOX.md §10).

/// The name messages begin with.
pub const PROGRAM: &str = "shubbles";

/// The exit status of a run that failed (`!`): a refused stot move or a
/// smole through the opening.
pub const RUN_FAILED: u8 = 3;

/// The exit status of `solve` when no answer exists.
pub const NO_SOLUTION: u8 = 4;
