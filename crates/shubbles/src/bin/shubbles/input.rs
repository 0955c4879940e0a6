//! The scenario a command runs: from the operands, or from standard input
//! without them; and what is said when its run fails.

use std::io::{self, IsTerminal};

use edge::{say, BoundedLines, Ending};
use shubbles::{Failure, Scenario};

use crate::args::{is_a_word, RunArgs};
use crate::exit::PROGRAM;

/// The scenario from the operands, or from standard input without them.
pub fn scenario(args: &RunArgs) -> Result<Scenario, Ending> {
    let parsed = match &args.state {
        Some(state) => {
            let operations = args.operations.as_deref().unwrap_or("");
            refuse_words(state, operations)?;
            Scenario::parse(state, operations, args.settle)
        }
        None => {
            let text = standard_input()?;
            let mut tokens = text.split_whitespace();
            refuse_words(tokens.next().unwrap_or(""), tokens.next().unwrap_or(""))?;
            Scenario::from_text(&text, args.settle)
        }
    };
    parsed.map_err(|error| Ending::Invalid(error.to_string()))
}

/// A word where a state or operations belong is named as a word: `shubbles
/// text hello` is not a state with a bad first character.
fn refuse_words(state: &str, operations: &str) -> Result<(), Ending> {
    if is_a_word(state) {
        return Err(Ending::Invalid(format!(
            "'{state}' is not a state: expected 29 characters of . o x @, one per cell"
        )));
    }
    if is_a_word(operations) {
        return Err(Ending::Invalid(format!(
            "'{operations}' is not an operation string: expected + - | < > ^ v"
        )));
    }
    Ok(())
}

/// Standard input up to the line that gives a third token: the state and
/// the operations come first, so reading further (`yes | shubbles text`)
/// could only find more to refuse. Each line is bounded.
fn standard_input() -> Result<String, Ending> {
    if io::stdin().is_terminal() {
        say(&format!(
            "{PROGRAM}: reading the state and the operations from the terminal; end with Ctrl-D (see '{PROGRAM} --help')"
        ));
    }
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
