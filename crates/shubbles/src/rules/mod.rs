//! What happens (BOX.md §3 to §5, §8): the engine turns operations into
//! events, a [`scenario::Scenario`] plays a whole run into a lazy stream of
//! them, and [`frames`] derives the pictures of a run from that stream.

pub mod engine;
pub mod frames;
pub mod scenario;
