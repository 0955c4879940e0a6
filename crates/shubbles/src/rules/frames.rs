//! Frames (BOX.md §8), derived from the event stream: one for the start,
//! then one per event that changes the picture.

use std::iter::Peekable;

use crate::model::event::{Entry, Event, Failure};
use crate::model::state::State;

/// One picture of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Frame {
    /// Position in the animation, from 0.
    pub index: usize,
    /// What the box shows: its cells, orientation and exit cell.
    pub state: State,
    /// The event that made this frame (`None` for frame 0) and the index of
    /// its operation.
    pub cause: Option<Entry>,
    /// Set on the last frame of a failed run: what went wrong. The failure
    /// adds no frame of its own; a renderer marks it on this one.
    pub failure: Option<Failure>,
}

/// The frames of a stream of records, folded from `start`.
pub struct Frames<I: Iterator<Item = Entry>> {
    entries: Peekable<I>,
    state: State,
    next_index: usize,
}

impl<I: Iterator<Item = Entry>> Frames<I> {
    /// The frames `records` make, folded from `start`: frame 0 is `start`
    /// itself.
    pub fn new(start: State, entries: I) -> Self {
        Frames {
            entries: entries.peekable(),
            state: start,
            next_index: 0,
        }
    }
}

impl<I: Iterator<Item = Entry>> Iterator for Frames<I> {
    type Item = Frame;

    fn next(&mut self) -> Option<Frame> {
        let cause = if self.next_index == 0 {
            None
        } else {
            let entry = self.entries.next()?;
            self.state.apply(&entry.event);
            Some(entry)
        };
        // Events that only add to this picture (a creature left, the run
        // failed) belong to it; the next picture starts at the next turn,
        // tick or stot move.
        let mut failure = None;
        while let Some(entry) = self.entries.next_if(|r| !r.event.makes_frame()) {
            self.state.apply(&entry.event);
            if let Event::Failed(why) = entry.event {
                failure = Some(why);
            }
        }
        let frame = Frame {
            index: self.next_index,
            state: self.state,
            cause,
            failure,
        };
        self.next_index += 1;
        Some(frame)
    }
}
