//! What the program calls itself in messages.

/// The name messages begin with.
pub const PROGRAM: &str = "katazuke";
