//! Pictures of the box (BOX.md §9): the inks and palettes, the layout,
//! what one picture shows (the scene), the renderer that draws it with its
//! pen, the smooth animation's timeline, and the seam to the shared GIF
//! pipeline (`reel`) that writes them.

pub mod animation;
pub mod inks;
mod layout;
pub mod options;
mod pen;
pub mod renderer;
mod scene;
pub mod smooth;
