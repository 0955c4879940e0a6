//! What the integration tests of both tools share, so that each crate's
//! `tests/common/` holds only its own fixtures: running a binary as a user
//! would ([`run_in`]), what it left behind ([`files_in`]), real pipes,
//! FIFOs and signals ([`unix`]), pictures compared pixel for pixel with
//! the golden PNGs of a crate's `frames/` folder ([`golden`]), colours'
//! contrast in greyscale ([`contrast`]), animations of every format decoded
//! to what they show ([`timeline`]), what `gifsicle -O3` still saves on a
//! GIF ([`gifsicle`]), and the commands the docs show, run and compared
//! with what they print ([`transcript`]).

pub mod contrast;
#[cfg(unix)]
pub mod gifsicle;
pub mod golden;
mod run;
pub mod timeline;
#[cfg(unix)]
pub mod transcript;
#[cfg(unix)]
pub mod unix;

pub use run::{files_in, run_in, Run};
