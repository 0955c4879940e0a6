//! What the command-line tools share (with the `cli` feature, on by
//! default): parsing arguments with one-line errors, how a command ends and
//! which exit status and message that makes, standard output and error
//! written without panics, files written whole or not at all (even when a
//! signal ends the process) or to standard output. Each binary keeps its
//! own arguments and commands.

mod animation;
mod arguments;
mod ending;
mod output;
mod signals;
mod stdio;

pub use animation::{choose_format, parse_size, AnimationArgs};
pub use arguments::parse_arguments;
pub use ending::Ending;
pub use output::{
    check_extension, check_writable, duration_in_words, is_standard_output, size_in_words,
    write_file, write_output,
};
pub use signals::{also_on_signals, remove_unfinished_files_on_signals};
pub use stdio::{is_broken_pipe, print, say, say_partial, Saying};
