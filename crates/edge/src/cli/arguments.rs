//! Command-line arguments parsed with clap, with its errors on one line.

use std::ffi::OsString;

use clap::error::{ContextKind, ErrorKind};
use clap::Parser;

use super::ending::Ending;

/// Parses `args` (the program's name first) as `C`. `--help` and
/// `--version` print as clap prints them and end with status 0; any other
/// problem is one line, `PROBLEM; did you mean …? (see 'COMMAND --help')`,
/// with status 2, where clap would print a usage block of 3 to 7 lines.
pub fn parse_arguments<C: Parser>(args: Vec<OsString>) -> Result<C, Ending> {
    let command = command_named_in::<C>(&args);
    C::try_parse_from(args).map_err(|error| match error.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => printed(&error, Ending::Success),
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => printed(&error, Ending::Status(2)),
        _ => Ending::Invalid(one_line(&error, &command)),
    })
}

/// `PROGRAM SUBCOMMAND` as `args` name it (the first argument that is a
/// subcommand), for errors whose usage clap does not give.
fn command_named_in<C: Parser>(args: &[OsString]) -> String {
    let command = C::command();
    let subcommand = args.iter().skip(1).find_map(|arg| {
        command
            .get_subcommands()
            .find(|sub| arg.to_str() == Some(sub.get_name()))
    });
    match subcommand {
        Some(subcommand) => format!("{} {}", command.get_name(), subcommand.get_name()),
        None => command.get_name().to_string(),
    }
}

fn printed(error: &clap::Error, then: Ending) -> Ending {
    match error.print() {
        Ok(()) => then,
        Err(failed) => Ending::Error(anyhow::Error::new(failed).context("cannot print the help")),
    }
}

/// The problem clap found, its suggestions, and where help is: the command
/// of clap's usage, or else `command`.
fn one_line(error: &clap::Error, command: &str) -> String {
    let rendered = error.render().to_string();
    // The first line, and the lines indented under it that finish it (the
    // missing arguments): up to the first blank line or tip.
    let mut lines = rendered.lines();
    let mut line = lines
        .next()
        .unwrap_or_default()
        .trim_start_matches("error: ")
        .trim_end()
        .to_string();
    let continued: Vec<&str> = lines
        .take_while(|more| more.starts_with("  ") && !more.trim_start().starts_with("tip:"))
        .map(str::trim)
        .collect();
    if !continued.is_empty() {
        line = format!("{line} {}", continued.join(", "));
    }
    let suggestions: Vec<String> = error
        .context()
        .filter(|(kind, _)| {
            matches!(
                kind,
                ContextKind::SuggestedArg
                    | ContextKind::SuggestedSubcommand
                    | ContextKind::SuggestedValue
            )
        })
        .map(|(_, value)| format!("'{value}'"))
        .collect();
    if !suggestions.is_empty() {
        line += &format!("; did you mean {}?", suggestions.join(" or "));
    }
    let command = error
        .context()
        .find(|(kind, _)| *kind == ContextKind::Usage)
        .map(|(_, usage)| command_of_usage(&usage.to_string()))
        .filter(|command| !command.is_empty())
        .unwrap_or_else(|| command.to_string());
    line + &format!(" (see '{command} --help')")
}

/// `shubbles gif` from `Usage: shubbles gif [OPTIONS] [STATE] [OPS]`: the
/// words up to the first placeholder or option.
fn command_of_usage(usage: &str) -> String {
    let first_line = usage.lines().next().unwrap_or_default();
    first_line
        .trim_start_matches("Usage:")
        .split_whitespace()
        .take_while(|word| !word.starts_with(['[', '<', '-']))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Parser, Debug)]
    #[command(name = "tool", version)]
    struct Tool {
        #[command(subcommand)]
        command: Sub,
    }

    #[derive(clap::Subcommand, Debug)]
    enum Sub {
        Render {
            #[arg(long)]
            cell_size: Option<u32>,
        },
    }

    fn problem(args: &[&str]) -> String {
        let args = std::iter::once("tool").chain(args.iter().copied());
        match parse_arguments::<Tool>(args.map(OsString::from).collect()) {
            Err(Ending::Invalid(message)) => message,
            other => panic!("expected a usage error, got {other:?}"),
        }
    }

    #[test]
    fn a_usage_error_is_one_line_with_the_suggestion_and_the_help_to_read() {
        assert_eq!(
            problem(&["render", "--cell-siz", "3"]),
            "unexpected argument '--cell-siz' found; did you mean '--cell-size'? (see 'tool render --help')"
        );
        assert_eq!(
            problem(&["rendr"]),
            "unrecognized subcommand 'rendr'; did you mean 'render'? (see 'tool --help')"
        );
        assert_eq!(
            problem(&["render", "--cell-size", "x"]),
            "invalid value 'x' for '--cell-size <CELL_SIZE>': invalid digit found in string (see 'tool render --help')"
        );
    }

    #[test]
    fn the_command_is_read_from_the_usage() {
        assert_eq!(
            command_of_usage("Usage: shubbles gif [OPTIONS] [STATE] [OPS]"),
            "shubbles gif"
        );
        assert_eq!(
            command_of_usage("Usage: katazuke replay <FILE>"),
            "katazuke replay"
        );
    }
}
