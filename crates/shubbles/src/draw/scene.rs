//! What one picture of the box shows, its scene: a frame at rest, or the
//! box on its way from one frame to the next (a turn, a falling tick, the
//! stot sliding). Animations are streams of scenes; the renderer draws one.

use crate::model::event::Failure;
use crate::model::geometry::{Cell, CellSet};
use crate::model::state::State;
use crate::rules::frames::Frame;

/// What one picture shows: a frame of BOX.md §8 at rest, or the box on its
/// way from one frame to the next.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Scene {
    /// A frame of BOX.md §8, drawn exactly as the 1-second GIF draws it.
    Still(Frame),
    /// On the way from the frame holding `before` to `toward`.
    Moving {
        before: State,
        toward: Frame,
        motion: Motion,
    },
}

impl Scene {
    /// What the cells hold: at rest the frame's state, in motion the state
    /// before the step.
    pub fn state(&self) -> &State {
        match self {
            Scene::Still(frame) => &frame.state,
            Scene::Moving { before, .. } => before,
        }
    }

    /// The failure to mark (at rest only).
    pub fn failure(&self) -> Option<Failure> {
        match self {
            Scene::Still(frame) => frame.failure,
            Scene::Moving { .. } => None,
        }
    }

    /// The frame the caption describes, and whether it says what failed.
    pub fn caption(&self) -> (&Frame, bool) {
        match self {
            Scene::Still(frame) => (frame, true),
            Scene::Moving { toward, .. } => (toward, false),
        }
    }

    /// How far the box is between two frames.
    pub fn motion(&self) -> Motion {
        match self {
            Scene::Still(_) => Motion::Rest,
            Scene::Moving { motion, .. } => *motion,
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
