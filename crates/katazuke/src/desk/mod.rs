//! `katazuke desk`: a live match at the contest's timer PC. The teams'
//! turns are entered as they are played and refereed at once, the clocks
//! run on the desk, the record is rewritten after every turn, and the
//! match can be taken up again from it.
//!
//! `session` is the match at the desk, a state machine given the time by
//! its caller; `resume` takes a record up again.

mod resume;
mod session;

pub use resume::{header_of, resume, setup_of, swapped, ResumeError};
pub use session::{DeskClock, DeskError, DeskSession, Entered, TurnEntry};
#[cfg(test)]
mod tests;
