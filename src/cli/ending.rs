//! How a command ended, and the exit status and message that makes.

use std::process::ExitCode;

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
    /// Any other error: status 1 and the error with its causes.
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
                eprintln!("{program}: {message}");
                ExitCode::from(2)
            }
            Ending::Error(error) => {
                eprintln!("{program}: {error:#}");
                ExitCode::from(1)
            }
        }
    }
}
