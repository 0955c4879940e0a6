//! How a command ended, and the exit status and message that makes.

use std::process::ExitCode;

use super::stdio::{is_broken_pipe, say};

/// How a command ended. Statuses follow BOX.md §10 (and KATAZUKE.md §14):
/// 0 success, 1 any other error, 2 invalid input or usage; a tool's own
/// statuses (a failed run, a rule broken, no solution) are
/// [`Ending::Status`].
#[derive(Debug)]
pub enum Ending {
    /// Status 0.
    Success,
    /// A status of the tool's own, with anything to say already said.
    Status(u8),
    /// Invalid input or usage: status 2 and this one-line message.
    Invalid(String),
    /// Any other error: status 1 and the error with its causes, on one
    /// line. A write to a closed pipe ends the process quietly instead, as
    /// it would any command-line tool: by the signal SIGPIPE (status 141 in
    /// a shell).
    Error(anyhow::Error),
}

impl Ending {
    /// The exit status, after printing the message (if any) on standard
    /// error as `PROGRAM: MESSAGE`.
    pub fn exit(self, program: &str) -> ExitCode {
        match self {
            Ending::Success => ExitCode::SUCCESS,
            Ending::Status(status) => ExitCode::from(status),
            Ending::Invalid(message) => {
                say(&format!("{program}: {message}"));
                ExitCode::from(2)
            }
            Ending::Error(error) if is_broken_pipe(&error) => end_by_broken_pipe(),
            Ending::Error(error) => {
                say(&format!("{program}: {error:#}"));
                ExitCode::from(1)
            }
        }
    }
}

/// Ends the process as SIGPIPE would have, had Rust not set it aside so
/// that writes could report errors instead.
fn end_by_broken_pipe() -> ExitCode {
    #[cfg(unix)]
    {
        // Returns only if the signal could not end the process.
        let _ = signal_hook::low_level::emulate_default_handler(signal_hook::consts::SIGPIPE);
    }
    ExitCode::from(141)
}
