//! `katazuke desk`: a live match at the contest's timer PC. The teams'
//! turns are entered as they are played and refereed at once, the clocks
//! run on the desk, the record is rewritten after every turn, and the
//! match can be taken up again from it.
//!
//! `session` is the match at the desk, a state machine given the time by
//! its caller; `setup` reads the match a parameters file or record sets up;
//! `resume` takes a record up again. With the `desk` feature,
//! `server` serves it over HTTP: `state` is the API's view of it, `view`
//! the board's picture (the replay's renderer), `advice` an advisor's
//! suggestion, `outputs` the event log and GIF written at the end, and
//! `pages` the HTML, CSS and JavaScript embedded in the binary.

#[cfg(feature = "desk")]
mod advice;
#[cfg(feature = "desk")]
mod outputs;
#[cfg(feature = "desk")]
mod pages;
mod resume;
#[cfg(feature = "desk")]
mod server;
mod session;
mod setup;
#[cfg(feature = "desk")]
mod state;
#[cfg(feature = "desk")]
mod view;

pub use resume::resume;
#[cfg(feature = "desk")]
pub use server::{serve, DeskOptions, MAX_BODY_BYTES};
pub use session::{DeskClock, DeskError, DeskSession, Entered, TurnEntry};
pub use setup::{header_of, setup_of, ResumeError};
#[cfg(test)]
mod tests;
