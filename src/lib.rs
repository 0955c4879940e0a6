//! Simulates the shubbles-and-smoles puzzle box of `BOX.md` and shows every
//! step of a run.
//!
//! The pipeline, each stage knowing nothing of the ones after it:
//! [`engine`] turns operations into [`Event`]s; a [`State`] is a fold over
//! events ([`State::apply`]); [`frames`] derives the pictures of BOX.md §8
//! from the events; [`ascii`] and [`render`] draw a frame; [`encode`] writes
//! drawn frames as an animated GIF (or one as PNG).
//!
//! ```
//! use shubbles::Scenario;
//!
//! let scenario = Scenario::parse(".........@...o....ooo..xox...", "+>|<-v+^+", false)?;
//! assert_eq!(scenario.run().result(), "o........@..o....oox...xo....");
//! assert_eq!(scenario.frames().count(), 26);
//! # Ok::<(), shubbles::InputError>(())
//! ```

pub mod ascii;
pub mod batch;
pub mod caption;
pub mod encode;
pub mod engine;
pub mod error;
pub mod event;
pub mod frames;
pub mod geometry;
pub mod log;
mod lzw;
pub mod operation;
pub mod output;
pub mod palette;
pub mod render;
mod resting;
pub mod smooth;
pub mod solve;
pub mod state;
mod successors;
pub mod text;

pub use encode::{write_gif, write_png, EncodeError, GifWriter};
pub use engine::{Outcome, Scenario};
pub use error::InputError;
pub use event::{Blocked, Event, Failure, Record};
pub use frames::Frame;
pub use geometry::{Cell, CellSet, Direction, Orientation};
pub use operation::{Operation, Turn};
pub use render::{Ink, RenderOptions, RenderOptionsError, Renderer, PALETTE};
pub use smooth::{smooth_picture, write_smooth_gif};
pub use state::{Content, Creature, State};
