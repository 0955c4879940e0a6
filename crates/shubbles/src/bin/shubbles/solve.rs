//! The `solve` command: a shortest answer, its summary, and optionally its
//! animations.

use std::io::{self, IsTerminal};

use edge::{is_standard_output, print, say, say_partial, Ending};
use std::path::Path;

use shubbles::{
    format_operations, progress_line, solve, solve_with_table, NoProgress, RenderOptions, Scenario,
    SolveOutcome, SolveProgress, SolveReport, State, TableError,
};

use crate::args::{RunArgs, SolveArgs};
use crate::exit::{NO_SOLUTION, PROGRAM};
use crate::input::scenario;
use crate::render::{choose_animation_format, write_animation, wrote_animation, GifStyle};

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

/// The answer read from the table at `path`, or `None` when the table
/// does not cover the state (it is then searched for, as without one).
fn read_table(path: &Path, start: &State, quiet: bool) -> Result<Option<SolveReport>, Ending> {
    let shubbles = start.shubbles().len() as usize;
    let table = crate::table::open(path, shubbles)?;
    match solve_with_table(start, &table) {
        Ok(report) => Ok(Some(report)),
        Err(TableError::NotCovered { covered, .. }) => {
            if !quiet {
                say(&format!(
                "{PROGRAM}: {} covers up to {covered} shubbles, the start has {shubbles}: searching instead",
                path.display()
            ));
            }
            Ok(None)
        }
        Err(error) => Err(Ending::Error(anyhow::anyhow!("{error}"))),
    }
}

pub fn solve_command(args: &SolveArgs) -> Ending {
    let pictures = [
        (&args.gif, GifStyle::OneSecond),
        (&args.smooth, GifStyle::Smooth),
    ];
    let paths = || {
        pictures
            .iter()
            .filter_map(|(path, style)| Some((path.as_deref()?, *style)))
    };
    let mut on_standard_output = 0;
    for (path, _) in paths() {
        if let Err(message) = choose_animation_format(None, path) {
            return Ending::Invalid(message);
        }
        on_standard_output += usize::from(is_standard_output(path));
    }
    // One stream cannot carry two files, nor a file and the JSON.
    if on_standard_output > 1 {
        return Ending::Invalid(
            "--gif and --smooth cannot both write to standard output".to_string(),
        );
    }
    if on_standard_output == 1 && args.json {
        return Ending::Invalid(
            "--json prints to standard output: give --gif or --smooth a file instead of -"
                .to_string(),
        );
    }
    if args.playback.given() && paths().next().is_none() {
        return Ending::Invalid(
            "--loop, --no-loop and --hold apply to the animations: add --gif FILE or --smooth FILE"
                .to_string(),
        );
    }
    let run = RunArgs {
        state: args.state.clone(),
        operations: None,
        settle: args.settle,
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
        Ok(options) => args.playback.apply(options),
        Err(error) => return Ending::Invalid(error.to_string()),
    };
    // With --settle the search starts where the start comes to rest.
    let settled = scenario.run();
    if let Some((op, failure)) = settled.failure {
        say(&format!(
            "{PROGRAM}: no solution: {}",
            scenario.explain_failure(op, failure)
        ));
        return Ending::Status(NO_SOLUTION);
    }
    let on_terminal = io::stderr().is_terminal();
    let from_table = match &args.table {
        Some(path) => match read_table(path, &settled.state, args.quiet) {
            Ok(report) => report,
            Err(ending) => return ending,
        },
        None => None,
    };
    let searched = if let Some(report) = from_table {
        Ok(report)
    } else if on_terminal {
        solve(&settled.state, args.max_states, &mut TerminalProgress)
    } else {
        solve(&settled.state, args.max_states, &mut NoProgress)
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
            // Standard output carries the GIF when one is written there.
            SolveOutcome::Solved { operations, .. } if on_standard_output == 1 => {
                say(&format_operations(operations));
                Ok(())
            }
            SolveOutcome::Solved { operations, .. } => {
                print(&(format_operations(operations) + "\n"))
            }
            _ => Ok(()),
        };
        if !args.quiet {
            say(&format!("{PROGRAM}: {}", report.summary()));
        }
        printed
    };
    if let Err(error) = printed {
        return Ending::Error(error);
    }
    if let SolveOutcome::Solved { operations, .. } = &report.outcome {
        let answer = Scenario {
            start: scenario.start,
            operations: operations.clone(),
            settle_first: scenario.settle_first,
        };
        for (path, style) in paths() {
            let frames = || -> Box<dyn Iterator<Item = _>> { Box::new(answer.frames()) };
            let written =
                write_animation(&frames, &options, style, path, (&Default::default(), true));
            match written {
                Ok((summary, Some(bytes))) if !args.quiet => {
                    say(&wrote_animation(path, &summary, bytes));
                }
                Ok(_) => {}
                Err(ending) => return ending,
            }
        }
    }
    match report.outcome.exit_status() {
        0 => Ending::Success,
        status => Ending::Status(status),
    }
}
