//! The `replay` command: the replay GIF.

use shubbles::cli::Ending;

use crate::args::ReplayArgs;

pub fn replay(_args: &ReplayArgs) -> Ending {
    Ending::Invalid("replay is not written yet".into())
}
