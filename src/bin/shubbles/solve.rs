//! The `solve` command: a shortest answer, its summary, and optionally its
//! animations.

use std::io::{self, IsTerminal};

use shubbles::cli::{print, say, say_partial, write_file, Ending};
use shubbles::puzzle::model::operation::format_operations;
use shubbles::puzzle::progress::NoProgress;
use shubbles::puzzle::solve::{progress_line, solve, SolveOutcome, SolveProgress};
use shubbles::puzzle::TEMPORARY_PREFIX;
use shubbles::{RenderOptions, Scenario};

use crate::args::{RunArgs, SolveArgs};
use crate::exit::PROGRAM;
use crate::input::scenario;
use crate::render::GifStyle;

/// Progress of a search on a terminal: one line, rewritten after each depth.
struct TerminalProgress;

impl SolveProgress for TerminalProgress {
    fn depth_done(&mut self, depth: usize, states_seen: usize, elapsed: std::time::Duration) {
        say_partial(&format!(
            "\r{}\x1b[K",
            progress_line(depth, states_seen, elapsed)
        ));
    }
}

pub fn solve_command(args: &SolveArgs) -> Ending {
    let run = RunArgs {
        state: args.state.clone(),
        operations: None,
        settle: false,
    };
    let scenario = match scenario(&run) {
        Ok(scenario) if scenario.operations.is_empty() => scenario,
        Ok(_) => {
            return Ending::Invalid(
                "solve takes a state only: unexpected operations after it".to_string(),
            )
        }
        Err(ending) => return ending,
    };
    let options = match RenderOptions::new(args.cell_size) {
        Ok(options) => options,
        Err(error) => return Ending::Invalid(error.to_string()),
    };
    let on_terminal = io::stderr().is_terminal();
    let searched = if on_terminal {
        solve(&scenario.start, args.max_states, &mut TerminalProgress)
    } else {
        solve(&scenario.start, args.max_states, &mut NoProgress)
    };
    if on_terminal {
        say_partial("\r\x1b[K");
    }
    let report = match searched {
        Ok(report) => report,
        Err(error) => return Ending::Error(anyhow::anyhow!("{error}")),
    };
    let printed = if args.json {
        print(&(report.json() + "\n"))
    } else {
        let printed = match &report.outcome {
            SolveOutcome::Solved { operations, .. } => {
                print(&(format_operations(operations) + "\n"))
            }
            _ => Ok(()),
        };
        say(&format!("{PROGRAM}: {}", report.summary()));
        printed
    };
    if let Err(error) = printed {
        return Ending::Error(error);
    }
    if let SolveOutcome::Solved { operations, .. } = &report.outcome {
        let answer = Scenario {
            start: scenario.start,
            operations: operations.clone(),
            settle_first: false,
        };
        let pictures = [
            (&args.gif, GifStyle::OneSecond),
            (&args.smooth, GifStyle::Smooth),
        ];
        for (path, style) in pictures {
            let Some(path) = path else { continue };
            let written = write_file(path, TEMPORARY_PREFIX, |file| {
                style.write(answer.frames(), &options, file)
            });
            if let Err(error) = written {
                return Ending::Error(error);
            }
        }
    }
    match report.outcome.exit_status() {
        0 => Ending::Success,
        status => Ending::Status(status),
    }
}
