//! The scenario a command runs: from the operands, or from standard input
//! without them; and what is said when its run fails.

use std::io;

use shubbles::cli::{say, Ending};
use shubbles::text_input::BoundedLines;
use shubbles::{Failure, Scenario};

use crate::args::RunArgs;
use crate::exit::PROGRAM;

/// The scenario from the operands, or from standard input without them.
pub fn scenario(args: &RunArgs) -> Result<Scenario, Ending> {
    let parsed = match &args.state {
        Some(state) => {
            Scenario::parse(state, args.operations.as_deref().unwrap_or(""), args.settle)
        }
        None => Scenario::from_text(&standard_input()?, args.settle),
    };
    parsed.map_err(|error| Ending::Invalid(error.to_string()))
}

/// Standard input up to the line that gives a third token: the state and
/// the operations come first, so reading further (`yes | shubbles text`)
/// could only find more to refuse. Each line is bounded.
fn standard_input() -> Result<String, Ending> {
    let mut text = String::new();
    let mut tokens = 0;
    for line in BoundedLines::new(io::stdin().lock()) {
        let (_, line) = line.map_err(|error| Ending::Invalid(format!("standard input {error}")))?;
        tokens += line.split_whitespace().count();
        text += &line;
        text.push('\n');
        if tokens > 2 {
            break;
        }
    }
    Ok(text)
}

/// Says on standard error which operation failed and why; standard output
/// carries only the `!` the contract asks for.
pub fn explain_failure(scenario: &Scenario, op: Option<usize>, failure: Failure) {
    say(&format!(
        "{PROGRAM}: {}",
        scenario.explain_failure(op, failure)
    ));
}
