//! The `katazuke` command (KATAZUKE.md §14): a thin layer over the
//! library that reads the arguments, runs one command and maps how it ended
//! to an exit status.
//!
//! `args` holds the arguments and their help; `input` reads and referees
//! the match a command works on; `text` holds the commands that print text
//! (`check`, `events`, `fmt`, `ascii`) and `replay` the replay GIF. What both
//! binaries share (exit statuses, writing to a path or standard output) is
//! the library's `cli` module.

mod args;
mod desk;
mod exit;
mod input;
mod play;
mod replay;
mod text;

use std::process::ExitCode;

use edge::{also_on_signals, parse_arguments, remove_unfinished_files_on_signals};
use katazuke::stop_every_program;

use args::{Cli, Command};
use exit::PROGRAM;

fn main() -> ExitCode {
    remove_unfinished_files_on_signals();
    // Player programs run in process groups of their own, out of reach of
    // a terminal's Ctrl-C.
    also_on_signals(stop_every_program);
    let cli = match parse_arguments::<Cli>(std::env::args_os().collect()) {
        Ok(cli) => cli,
        Err(ending) => return ending.exit(PROGRAM),
    };
    let ending = match &cli.command {
        Command::Check(args) => text::check(args),
        Command::Events(args) => text::events(args),
        Command::Replay(args) => replay::replay(args),
        Command::Fmt(args) => text::fmt(args),
        Command::Ascii(args) => text::ascii(args),
        Command::Play(args) => play::play(args),
        Command::Suggest(args) => play::suggest(args),
        Command::Tournament(args) => play::tournament(args),
        Command::TournamentMerge(args) => play::tournament_merge(args),
        Command::Desk(args) => desk::desk(args),
    };
    ending.exit(PROGRAM)
}
