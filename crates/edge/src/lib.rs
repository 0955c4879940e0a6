//! What the `shubbles` and `katazuke` tools share where they meet the
//! user's system, and nothing of either game:
//!
//! - [`text_input`]: text read line by line with a bound on its size, so
//!   that a huge or endless input is refused instead of filling memory;
//! - [`printable`]: text from a user or a program made safe to show on a
//!   terminal (control and invisible characters become `?`);
//! - [`run_lock`]: one run at a time per output, held by the operating
//!   system so that it ends with the process;
//! - [`cli`] (with the `cli` feature): arguments with one-line errors, how
//!   a command ends (message and exit status), output files written whole
//!   or not at all, standard output and error, and signals.

#[cfg(feature = "cli")]
pub mod cli;
pub mod printable;
pub mod run_lock;
pub mod text_input;
