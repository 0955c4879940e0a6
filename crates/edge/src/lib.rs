//! What the `shubbles` and `katazuke` tools share where they meet the
//! user's system, and nothing of either game:
//!
//! - text read line by line with a bound on its size ([`BoundedLines`]),
//!   so that a huge or endless input is refused instead of filling memory;
//! - text from a user or a program made safe to show on a terminal
//!   ([`printable`]: control and invisible characters become `?`);
//! - one run at a time per output ([`RunLock`]), held by the operating
//!   system so that it ends with the process;
//! - work split over many runs and machines ([`Shard`]);
//! - with the `cli` feature: arguments with one-line errors
//!   (`parse_arguments`), how a command ends (`Ending`: message and exit
//!   status), output files written whole or not at all (`write_output`),
//!   standard output and error (`print`, `say`), and signals.
//!
//! The modules are private: what a caller uses is re-exported here.

#[cfg(feature = "cli")]
mod cli;
mod printable;
mod run_lock;
mod shard;
mod text_input;

#[cfg(feature = "cli")]
pub use cli::{
    also_on_signals, check_extension, check_writable, choose_format, duration_in_words,
    is_broken_pipe, is_standard_output, parse_arguments, parse_size, print,
    remove_unfinished_files_on_signals, say, say_partial, size_in_words, write_file, write_output,
    AnimationArgs, Ending, Saying,
};
pub use printable::{printable, printable_lines};
pub use run_lock::{LockError, RunLock};
pub use shard::{Shard, ShardError};
pub use text_input::{
    BadLine, BoundedLines, LineError, BYTE_ORDER_MARK, MAX_INPUT_BYTES, MAX_LINE_BYTES,
};
