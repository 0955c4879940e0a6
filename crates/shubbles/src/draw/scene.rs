//! What one picture of the box shows: a frame at rest, or the box on its
//! way from one frame to the next (a turn, a falling tick, the stot
//! sliding), for the renderer to draw.

use crate::model::event::Failure;
use crate::model::geometry::{Cell, CellSet};
use crate::model::state::State;
use crate::rules::frames::Frame;

/// What one picture shows: a frame of BOX.md §8 at rest, or the box on its
/// way from one frame to the next.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Scene<'a> {
    /// What the cells hold: at rest the frame's state, in motion the state
    /// before the step.
    pub state: &'a State,
    /// Marked when set (at rest only).
    pub failure: Option<Failure>,
    /// The frame the caption describes, and whether it says what failed.
    pub caption: (&'a Frame, bool),
    pub motion: Motion,
}

impl<'a> Scene<'a> {
    /// The frame as the 1-second GIF shows it.
    pub fn still(frame: &'a Frame) -> Scene<'a> {
        Scene {
            state: &frame.state,
            failure: frame.failure,
            caption: (frame, true),
            motion: Motion::Rest,
        }
    }
}

/// How far a picture is between two frames.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Motion {
    Rest,
    /// The box turned this far clockwise from the standard orientation.
    Turning {
        degrees: f32,
    },
    /// One falling tick, `progress` (0 to 1) of the way: the creatures in
    /// `moved` slide towards the next cell along gravity, and one in the
    /// exit cell slides on out and fades.
    Falling {
        moved: CellSet,
        progress: f32,
    },
    /// The stot sliding to `to`, `progress` of the way.
    StotSliding {
        to: Cell,
        progress: f32,
    },
}
