//! Pictures of the box (BOX.md §9): the inks and palettes, the layout, the
//! renderer of one picture, the smooth animation's timeline, and the seam
//! to the shared GIF pipeline (`reel`) that writes them.

pub mod animation;
pub mod inks;
mod layout;
pub mod options;
pub mod renderer;
pub mod smooth;
