//! The `shubbles` command: a thin layer over the library that reads the
//! arguments, runs one command and maps how it ended to an exit status
//! (BOX.md §10).
//!
//! `args` holds the arguments and their help; each command family has its
//! module (`text`, `render`, `solve`, `batch`); `input` reads the scenario
//! a command runs. What both binaries share (exit statuses, writing to a
//! path or standard output) is the library's `cli` module.

mod args;
mod batch;
mod exit;
mod input;
mod render;
mod solve;
mod table;
mod text;

use std::io::{self, IsTerminal};
use std::process::ExitCode;

use edge::{parse_arguments, remove_unfinished_files_on_signals, say, Ending};
use shubbles::{picture, write_event_log, write_frame_dump, Scenario};

use args::{mistyped_command, operations_may_be_dashes, Cli, Command, SHORT_USAGE};
use batch::{merge, run_batch};
use exit::PROGRAM;
use render::{gif, png, render, GifStyle, Source};
use solve::solve_command;
use table::table_command;
use text::{print_run, text};

fn main() -> ExitCode {
    remove_unfinished_files_on_signals();
    let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
    if args.len() == 1 && io::stdin().is_terminal() {
        say(SHORT_USAGE);
        return Ending::Status(2).exit(PROGRAM);
    }
    if let Some(message) = mistyped_command(&args) {
        return Ending::Invalid(message).exit(PROGRAM);
    }
    let cli = match parse_arguments::<Cli>(operations_may_be_dashes(args)) {
        Ok(cli) => cli,
        Err(ending) => return ending.exit(PROGRAM),
    };
    let ending = match cli.command {
        None => gif(&cli.gif, GifStyle::OneSecond),
        Some(Command::Gif(args)) => gif(&args, GifStyle::OneSecond),
        Some(Command::Smooth(args)) => gif(&args, GifStyle::Smooth),
        Some(Command::Text(args)) => text(&args, |outcome| outcome.result() + "\n"),
        Some(Command::Ascii(args)) => text(&args, |outcome| match outcome.failure {
            Some(_) => "!\n".to_string(),
            None => picture(&outcome.state),
        }),
        Some(Command::Frames(args)) => print_run(&args, write_frame_dump),
        Some(Command::Png(args)) => png(&args),
        Some(Command::Events(args)) => print_run(&args, write_event_log),
        Some(Command::Solve(args)) => solve_command(&args),
        Some(Command::Table(args)) => table_command(&args),
        Some(Command::Demo(args)) => render(
            &Source::Run(Scenario::figure_1a()),
            &args,
            GifStyle::OneSecond,
        ),
        Some(Command::Batch(args)) => run_batch(&args),
        Some(Command::BatchMerge(args)) => merge(&args),
    };
    ending.exit(PROGRAM)
}
