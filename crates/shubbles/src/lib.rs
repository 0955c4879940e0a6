//! The shubbles-and-smoles puzzle box of `docs/BOX.md`: 29 cells, blue
//! shubbles and red smoles that fall, a stot to move, a box to turn, one
//! opening under cell 28; and every step of a run shown as a picture.
//!
//! Each stage is a folder and knows nothing of the ones after it:
//! [`model`] (the vocabulary: cells, creatures, operations, [`Event`]s,
//! [`State`]s), [`rules`] (operations become events, a run is a stream of
//! them and a [`State`] a fold over them, and the stream becomes
//! [`Frame`]s), [`formats`] (ASCII, the frame dump, the event log,
//! captions), [`draw`] (a frame or a moment of motion as pixels, and the
//! seam to the GIF pipeline), then the two uses of the whole: [`solve`]
//! (shortest answers) and [`batch`] (many scenarios at once). Pictures
//! become GIF and PNG bytes in the [`reel`] crate, which knows no game: the
//! box plugs into it as a painter of its pictures.
//!
//! ```
//! use shubbles::Scenario;
//!
//! let scenario = Scenario::parse(".........@...o....ooo..xox...", "+>|<-v+^+", false)?;
//! assert_eq!(scenario.run().result(), "o........@..o....oox...xo....");
//! assert_eq!(scenario.frames().count(), 26);
//! # Ok::<(), shubbles::InputError>(())
//! ```

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

pub use draw::animation::write_gif;
pub use draw::options::{RenderOptions, RenderOptionsError};
pub use draw::renderer::Renderer;
pub use draw::smooth::{smooth_picture, write_smooth_gif};
pub use model::creature::{Content, Creature};
pub use model::event::{Blocked, Event, Failure, Record};
pub use model::geometry::{Cell, CellSet, Direction, Orientation};
pub use model::input_error::InputError;
pub use model::operation::{Operation, Turn};
pub use model::state::State;
pub use reel;
pub use reel::{write_png, EncodeError};
pub use rules::frames::Frame;
pub use rules::scenario::{Outcome, Scenario};

// The README's example runs as a test, so that it stays true.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeExample;
