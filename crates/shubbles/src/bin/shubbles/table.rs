//! The `table` commands: build the table of every stable state's
//! distance, look states up in it, and sum it up.

use std::io::{self, IsTerminal};
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::{Args, Subcommand};
use edge::{print, say, BoundedLines, Ending, LockError, RunLock};
use shubbles::{
    build_file, format_operations, FileError, State, Table, TableProgress, TABLE_MAX_SHUBBLES,
};

use crate::exit::{NO_SOLUTION, PROGRAM};

/// Where the table is when no path is given.
pub const DEFAULT_TABLE: &str = "shubbles.table";

#[derive(Args, Debug)]
pub struct TableArgs {
    #[command(subcommand)]
    pub command: TableCommand,
}

#[derive(Subcommand, Debug)]
pub enum TableCommand {
    /// Work out the distance to a solution of every stable state, in every
    /// orientation, and write them to a file.
    #[command(after_help = "\
Examples:
  shubbles table build                       # every layer: shubbles.table
  shubbles table build --max-shubbles 4 -o small.table

Retrograde analysis, layer by layer from no shubble up (no operation adds
one). The file holds a few bits a state (669,765,994 states in all) and a
checksum a layer. The build writes FILE.partial as it goes, a layer at a
time; run the same command again after a stop and it goes on from the last
whole layer. A second build of the same FILE while one runs is refused
(FILE.lock names the one running).")]
    Build(BuildArgs),
    /// Look states up: their distance and a shortest answer.
    #[command(after_help = "\
Examples:
  shubbles table query .........@...o....ooo..xox...
      .........@...o....ooo..xox... 15 -->--+-+-+-+-+-
  cut -d' ' -f1 starts.txt | shubbles table query --table small.table

Prints one line per state: the state, its distance (the fewest operations,
`|` counting as one) or `unsolvable`, and a shortest answer. States come
from the operands or, when there are none, one per line on standard input.
Exit status: 0 every state answered, 4 one is unsolvable, 2 invalid input
or a table that does not cover a state, 1 any other error.")]
    Query(QueryArgs),
    /// Check every distance in a table against the rules run forwards.
    #[command(after_help = "\
Examples:
  shubbles table verify --table small.table

Every distance must be 0 exactly where no shubble is left, and elsewhere one
more than the nearest distance one operation away (unsolvable when all of
them are): together that proves each one is the shortest. The operations
are run by the solver's rules, not the build's, so this holds one
implementation against the other. Exit status: 0 every state checked, 2 a
distance that does not follow (named), 1 any other error.")]
    Verify(StatsArgs),
    /// Sum the table up: states per layer and orientation, how far the
    /// unturned starts are from a solution, and the hardest of them.
    Stats(StatsArgs),
}

#[derive(Args, Debug)]
pub struct BuildArgs {
    /// Where to write the table.
    #[arg(short, long, value_name = "FILE", default_value = DEFAULT_TABLE)]
    pub output: PathBuf,
    /// Build only the layers of up to K shubbles (enough for every state
    /// with at most K).
    #[arg(long, value_name = "K", default_value_t = TABLE_MAX_SHUBBLES as u8,
          value_parser = clap::value_parser!(u8).range(0..=TABLE_MAX_SHUBBLES as i64))]
    pub max_shubbles: u8,
    /// Say nothing when done.
    #[arg(short, long)]
    pub quiet: bool,
}

#[derive(Args, Debug)]
pub struct QueryArgs {
    /// The states (read from standard input, one per line, when absent).
    #[arg(value_name = "STATE")]
    pub states: Vec<String>,
    /// The table to read.
    #[arg(long, value_name = "FILE", default_value = DEFAULT_TABLE)]
    pub table: PathBuf,
}

#[derive(Args, Debug)]
pub struct StatsArgs {
    /// The table to read.
    #[arg(long, value_name = "FILE", default_value = DEFAULT_TABLE)]
    pub table: PathBuf,
    /// How many of the hardest unturned starts to list (for `stats`).
    #[arg(long, value_name = "N", default_value_t = 10)]
    pub hardest: usize,
}

pub fn table_command(args: &TableArgs) -> Ending {
    match &args.command {
        TableCommand::Build(args) => build(args),
        TableCommand::Query(args) => query(args),
        TableCommand::Stats(args) => stats(args),
        TableCommand::Verify(args) => verify(args),
    }
}

/// The build's progress bar, on a terminal only: states settled of all
/// the layers to build.
struct BuildBar {
    bar: indicatif::ProgressBar,
}

impl TableProgress for BuildBar {
    fn layer_resumed(&mut self, shubbles: usize, states: u64) {
        self.bar.inc(states);
        self.bar.set_message(format!("layer {shubbles} kept"));
    }
    fn layer_begun(&mut self, shubbles: usize, _states: u64) {
        self.bar
            .set_message(format!("layer of {shubbles} shubbles"));
    }
    fn states_settled(&mut self, states: u64) {
        self.bar.inc(states);
    }
}

fn build(args: &BuildArgs) -> Ending {
    let max_shubbles = usize::from(args.max_shubbles);
    let total: u64 = match Table::layer_sizes(max_shubbles) {
        Ok(sizes) => sizes.iter().sum(),
        Err(error) => return Ending::Invalid(error.to_string()),
    };
    let bar = if io::stderr().is_terminal() && !args.quiet {
        let bar = indicatif::ProgressBar::new(total);
        if let Ok(style) = indicatif::ProgressStyle::with_template(
            "{bar:40} {percent}% of {len} states, {msg}, {elapsed} elapsed, about {eta} left",
        ) {
            bar.set_style(style);
        }
        bar
    } else {
        indicatif::ProgressBar::hidden()
    };
    // Held to the end: two builds writing one partial file would corrupt
    // it.
    let mut lock_path = args.output.clone().into_os_string();
    lock_path.push(".lock");
    let _lock = match RunLock::acquire(Path::new(&lock_path)) {
        Ok(lock) => lock,
        Err(error @ LockError::Held { .. }) => return Ending::Invalid(error.to_string()),
        Err(error) => return Ending::Error(error.into()),
    };
    let began = Instant::now();
    let mut progress = BuildBar { bar };
    let built = build_file(&args.output, max_shubbles, &mut progress);
    progress.bar.finish_and_clear();
    match built {
        Ok(summary) => {
            if !args.quiet {
                let kept = match summary.layers_resumed {
                    0 => String::new(),
                    layers => format!(", {layers} layers kept from the partial file"),
                };
                say(&format!(
                    "{PROGRAM}: wrote {}: {total} states with up to {} shubbles, {} bytes, in {:.1} s{kept}",
                    args.output.display(),
                    max_shubbles,
                    summary.bytes,
                    began.elapsed().as_secs_f64(),
                ));
            }
            Ending::Success
        }
        Err(error) => Ending::Error(anyhow::anyhow!("{error}")),
    }
}

/// The table's layers up to `shubbles`, or why not.
pub fn open(path: &Path, shubbles: usize) -> Result<Table, Ending> {
    Table::open(path, Some(shubbles)).map_err(|error| match &error {
        // A table that is not there or not one is bad input; a disk that
        // fails while reading is not.
        FileError::Io {
            error: io_error, ..
        } if io_error.kind() != io::ErrorKind::NotFound => {
            Ending::Error(anyhow::anyhow!("{error}"))
        }
        _ => Ending::Invalid(error.to_string()),
    })
}

fn query(args: &QueryArgs) -> Ending {
    let texts = if args.states.is_empty() {
        // Every line: a state a line, each line bounded.
        if io::stdin().is_terminal() {
            say(&format!(
                "{PROGRAM}: reading states from the terminal, one a line; end with Ctrl-D"
            ));
        }
        let mut lines = Vec::new();
        for line in BoundedLines::new(io::stdin().lock()) {
            match line {
                Ok((_, line)) => lines.push(line),
                Err(error) => return Ending::Invalid(format!("standard input {error}")),
            }
        }
        lines
    } else {
        args.states.clone()
    };
    let mut states = Vec::new();
    for (line, text) in texts.iter().enumerate() {
        let text = text.trim();
        if text.is_empty() && args.states.is_empty() {
            continue;
        }
        match State::parse(text, false) {
            Ok(state) => states.push(state),
            Err(error) if args.states.is_empty() => {
                return Ending::Invalid(format!("line {}: {error}", line + 1))
            }
            Err(error) => return Ending::Invalid(error.to_string()),
        }
    }
    let most = states.iter().map(|s| s.shubbles().len() as usize).max();
    let table = match open(&args.table, most.unwrap_or(0)) {
        Ok(table) => table,
        Err(ending) => return ending,
    };
    let mut out = String::new();
    let mut unsolvable = false;
    for state in &states {
        let answer = match table.answer(state) {
            Ok(answer) => answer,
            Err(error) => return Ending::Invalid(format!("{}: {error}", state.cells_string())),
        };
        match answer {
            Some(operations) if operations.is_empty() => {
                out += &format!("{} 0\n", state.cells_string())
            }
            Some(operations) => {
                out += &format!(
                    "{} {} {}\n",
                    state.cells_string(),
                    operations.len(),
                    format_operations(&operations)
                )
            }
            None => {
                unsolvable = true;
                out += &format!("{} unsolvable\n", state.cells_string());
            }
        }
    }
    if let Err(error) = print(&out) {
        return Ending::Error(error);
    }
    if unsolvable {
        Ending::Status(NO_SOLUTION)
    } else {
        Ending::Success
    }
}

fn stats(args: &StatsArgs) -> Ending {
    let table = match open(&args.table, TABLE_MAX_SHUBBLES) {
        Ok(table) => table,
        Err(ending) => return ending,
    };
    let statistics = table.statistics(args.hardest);
    match print(&statistics.report(&table)) {
        Ok(()) => Ending::Success,
        Err(error) => Ending::Error(error),
    }
}

fn verify(args: &StatsArgs) -> Ending {
    let table = match open(&args.table, TABLE_MAX_SHUBBLES) {
        Ok(table) => table,
        Err(ending) => return ending,
    };
    let began = Instant::now();
    match table.verify(&mut shubbles::NoProgress) {
        Ok(states) => {
            say(&format!(
                "{PROGRAM}: {}: all {states} distances follow from their successors ({:.1} s)",
                args.table.display(),
                began.elapsed().as_secs_f64()
            ));
            Ending::Success
        }
        Err(mismatch) => Ending::Invalid(format!("{}: {mismatch}", args.table.display())),
    }
}
