//! Pictures of a match (§13): the inks and palette, the layout, the
//! renderer of one frame, and the replay GIF through the shared pipeline.

pub mod animation;
pub mod inks;
mod layout;
pub mod renderer;
