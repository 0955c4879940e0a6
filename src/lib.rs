//! Simulates the shubbles-and-smoles puzzle box of `BOX.md` and shows every
//! step of a run.
//!
//! The box lives in [`puzzle`], one folder per stage, each knowing nothing
//! of the ones after it: [`puzzle::model`] (cells, creatures, operations,
//! [`Event`]s, [`State`]s), [`puzzle::rules`] (the engine turns operations
//! into events; a [`State`] is a fold over them; frames are derived from
//! them), [`puzzle::formats`] (ASCII, frame dump, event log, captions) and
//! [`puzzle::draw`] (a frame as pixels). Pictures become GIF and PNG bytes
//! in the [`reel`] crate, which knows no game: the box plugs into it as a
//! painter of its pictures.
//!
//! ```
//! use shubbles::Scenario;
//!
//! let scenario = Scenario::parse(".........@...o....ooo..xox...", "+>|<-v+^+", false)?;
//! assert_eq!(scenario.run().result(), "o........@..o....oox...xo....");
//! assert_eq!(scenario.frames().count(), 26);
//! # Ok::<(), shubbles::InputError>(())
//! ```

#![warn(missing_docs)]

#[cfg(feature = "cli")]
pub mod cli;
pub mod katazuke;
pub mod printable;
pub mod puzzle;
pub mod run_lock;
pub mod text_input;

pub use puzzle::draw::animation::write_gif;
pub use puzzle::draw::options::{RenderOptions, RenderOptionsError};
pub use puzzle::draw::renderer::Renderer;
pub use puzzle::draw::smooth::{smooth_picture, write_smooth_gif};
pub use puzzle::model::creature::{Content, Creature};
pub use puzzle::model::event::{Blocked, Event, Failure, Record};
pub use puzzle::model::geometry::{Cell, CellSet, Direction, Orientation};
pub use puzzle::model::input_error::InputError;
pub use puzzle::model::operation::{Operation, Turn};
pub use puzzle::model::state::State;
pub use puzzle::rules::frames::Frame;
pub use puzzle::rules::scenario::{Outcome, Scenario};
pub use reel;
pub use reel::{write_png, EncodeError};
