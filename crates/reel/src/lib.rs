//! Pictures in, GIF and PNG bytes out, knowing no game.
//!
//! A game draws its pictures with [tiny-skia](tiny_skia) in the colours of
//! a [`Palette`] fixed in advance (its inks, and for anti-aliasing and text
//! the blends between them), and hands them over through one seam: a
//! [`Painter`] (canvas size, palette, paint one picture) and a stream of
//! [`Shot`]s (a picture and how long it shows). [`write_reel`] writes the
//! animated GIF one picture at a time, storing only the rectangle that
//! changed, so memory stays flat however long the animation; or, as the
//! [`AnimationFormat`] asks, an animated PNG or a lossless animated WebP of
//! the same pictures. [`first_that_fits`] keeps a file within a size
//! budget by trying ever smaller drawings.
//!
//! Also here: [`text`] (glyphs of an embedded monospaced font, blended in
//! palette colours only), [`write_png`] for single pictures,
//! [`write_atomically`] for files that are written whole or not at all
//! (even when a signal ends the process: [`abandon_unfinished_files`]), and
//! [`decode_gif`] to read a GIF back for tests.

#![warn(missing_docs)]

mod apng;
mod budget;
mod decode;
mod error;
mod file;
mod gif_writer;
mod lzw;
mod palette;
mod png;
mod reel;
pub mod shapes;
mod sink;
pub mod text;
mod transparency;
mod webp;

pub use budget::{first_that_fits, Unfitted};
pub use decode::{animation_frame_count, decode_gif, gif_frame_count, DecodedFrame, DecodedGif};
pub use error::EncodeError;
pub use file::{abandon_unfinished_files, check_writable, write_atomically, AtomicFile, Prepared};
pub use gif::{DisposalMethod, Repeat};
pub use gif_writer::{GifWriter, Loops, Playback, Rectangle, ReelSummary};
pub use palette::{blend, Palette, PaletteError, BLEND_STEPS, MAX_COLOURS};
pub use png::write_png;
pub use reel::{write_reel, AnimationFormat, Painter, Shot};
pub use tiny_skia;
