//! What the command-line tools share (with the `cli` feature, on by
//! default): how a command ends and which exit status and message that
//! makes, and writing an output to a file (whole or not at all) or to
//! standard output. Each binary keeps its own arguments and commands.

mod ending;
mod output;

pub use ending::Ending;
pub use output::{write_file, write_output};
