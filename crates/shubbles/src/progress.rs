//! Progress that goes nowhere.
//!
//! Long work tells its caller how far it is through a small trait of its
//! own (the solver's [`SolveProgress`], the batch's [`BatchProgress`]), so
//! that the library draws nothing and a command line decides what to show.
//! [`NoProgress`] is the caller that wants to hear nothing.
//!
//! [`SolveProgress`]: crate::solve::SolveProgress
//! [`BatchProgress`]: crate::batch::BatchProgress

/// Hears every progress report of the library and shows nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct NoProgress;
