//! The vocabulary of the box (BOX.md §1 to §4): cells and directions, the
//! creatures, operations, events, states and their packing, and what can be
//! wrong with an input. Nothing here decides what an operation does; that is
//! [`super::rules`].

pub mod creature;
pub mod event;
pub mod geometry;
pub mod input_error;
pub mod operation;
pub(crate) mod packing;
pub(crate) mod resting;
pub mod state;
