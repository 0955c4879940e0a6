//! The commands that print a run as text: `text`, `ascii`, `frames` and
//! `events`.

use std::io::{self, BufWriter, Write};

use edge::{print, Ending};
use shubbles::{Outcome, Scenario};

use crate::args::RunArgs;
use crate::exit::RUN_FAILED;
use crate::input::{explain_failure, scenario};

pub fn text(args: &RunArgs, show: impl Fn(&Outcome) -> String) -> Ending {
    let scenario = match scenario(args) {
        Ok(scenario) => scenario,
        Err(ending) => return ending,
    };
    let outcome = scenario.run();
    if let Err(error) = print(&show(&outcome)) {
        return Ending::Error(error);
    }
    match outcome.failure {
        Some((op, failure)) => {
            explain_failure(&scenario, op, failure);
            Ending::Status(RUN_FAILED)
        }
        None => Ending::Success,
    }
}

/// Prints what `write` makes of the scenario (the frame dump, the event
/// log) to standard output; a failed run still prints all of it.
pub fn print_run(
    args: &RunArgs,
    write: impl FnOnce(&Scenario, &mut BufWriter<io::StdoutLock<'static>>) -> io::Result<()>,
) -> Ending {
    let scenario = match scenario(args) {
        Ok(scenario) => scenario,
        Err(ending) => return ending,
    };
    let mut out = BufWriter::new(io::stdout().lock());
    if let Err(error) = write(&scenario, &mut out).and_then(|()| out.flush()) {
        return Ending::Error(anyhow::Error::new(error).context("cannot write to standard output"));
    }
    match scenario.run().failure {
        Some((op, failure)) => {
            explain_failure(&scenario, op, failure);
            Ending::Status(RUN_FAILED)
        }
        None => Ending::Success,
    }
}
