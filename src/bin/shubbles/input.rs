//! The scenario a command runs: from the operands, or from standard input
//! without them; and what is said when its run fails.

use std::io::{self, Read};

use shubbles::cli::Ending;
use shubbles::{Failure, InputError, Scenario};

use crate::args::RunArgs;
use crate::exit::PROGRAM;

/// The scenario from the operands, or from standard input without them.
pub fn scenario(args: &RunArgs) -> Result<Scenario, Ending> {
    let parsed = match &args.state {
        Some(state) => {
            Scenario::parse(state, args.operations.as_deref().unwrap_or(""), args.settle)
        }
        None => {
            let mut input = String::new();
            if let Err(error) = io::stdin().read_to_string(&mut input) {
                return Err(Ending::Invalid(format!(
                    "cannot read standard input: {error}"
                )));
            }
            Scenario::from_text(&input, args.settle)
        }
    };
    parsed.map_err(|error: InputError| Ending::Invalid(error.to_string()))
}

/// Says on standard error which operation failed and why; standard output
/// carries only the `!` the contract asks for.
pub fn explain_failure(scenario: &Scenario, op: Option<usize>, failure: Failure) {
    eprintln!("{PROGRAM}: {}", scenario.explain_failure(op, failure));
}
