//! The box puzzle of BOX.md: 29 cells, shubbles and smoles that fall, a stot
//! to move, a box to turn, one opening under cell 28.
//!
//! Each stage is a folder and knows nothing of the ones after it:
//! [`model`] (the vocabulary: cells, creatures, operations, events,
//! states), [`rules`] (operations become events, a run a stream of them,
//! and the stream frames), [`formats`] (ASCII, the frame dump, the event
//! log, captions), [`draw`] (a frame or a moment of motion as pixels, and
//! the seam to the GIF pipeline), then the two uses of the whole:
//! [`solve`] (shortest answers) and [`batch`] (many scenarios at once).

pub mod batch;
pub mod draw;
pub mod formats;
pub mod model;
pub mod progress;
pub mod rules;
pub mod solve;

/// How the hidden temporary files that the box's tools write beside their
/// outputs begin (`.shubbles-XXXXXX.tmp`, renamed over the output when it
/// is complete): a leftover says where it came from.
pub const TEMPORARY_PREFIX: &str = ".shubbles-";
