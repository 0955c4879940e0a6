//! The command line's arguments, their help and examples.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::builder::TypedValueParser as _;
use clap::{Args, Parser, Subcommand};

use shubbles::puzzle::batch::Format;
use shubbles::{RenderOptions, Scenario};

const EXAMPLES: &str = "\
Examples:
  shubbles .........@...o....ooo..xox... '+>|<-v+^+'     # writes shubbles.gif
  echo '.........@...o....ooo..xox... +>|<-v+^+' | shubbles -o fig1a.gif
  shubbles text .........@...o....ooo..xox... -+<        # prints the final state
  shubbles demo                                          # Figure 1(a), no input needed
  shubbles smooth .........@...o....ooo..xox... '+>|' --caption   # 20 fps motion

Exit status: 0 success, 3 the run failed (`!`), 2 invalid input or usage,
1 any other error (for example an unwritable output file).
Rules and output formats: BOX.md (shared/spec/BOX.md).";

/// Simulate the shubbles-and-smoles puzzle box and render every step of a
/// run as an animated GIF, one frame per second.
///
/// STATE is 29 characters, one per cell in number order: `.` empty, `o`
/// shubble, `x` smole, `@` stot. OPS is a string of `+` (turn clockwise),
/// `-` (counter-clockwise), `|` (half turn) and `<` `>` `^` `v` (move the
/// stot, in the unturned frame). Without STATE, both are read from standard
/// input, separated by white space. Without a command, `gif` runs.
#[derive(Parser, Debug)]
#[command(
    name = "shubbles",
    version,
    args_conflicts_with_subcommands = true,
    after_help = EXAMPLES
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    #[command(flatten)]
    pub gif: GifArgs,
}

#[derive(Subcommand, Debug)]
pub enum Command {
    /// Write the animated GIF of every frame, one second each (the default).
    #[command(after_help = "\
Examples:
  shubbles gif .........@...o....ooo..xox... '+>|<-v+^+' -o fig1a.gif
  shubbles gif .........@...o....ooo..xox... -+ -o - | gifsicle --info
  shubbles gif --settle '.o.......@...o....ooo..xox...' + --cell-size 24

Prints `!` (on standard error when the GIF goes to standard output) and
exits with 3 when the run fails; the GIF is written all the same, its last
frame marking the failure.")]
    Gif(GifArgs),
    /// Print the final state string, or `!` if the run fails.
    #[command(after_help = "\
Examples:
  shubbles text .........@...o....ooo..xox... '+>|<-v+^+'
      o........@..o....oox...xo....
  echo '.........@...o....ooo..xox... <<' | shubbles text
      !   (exit status 3; the reason goes to standard error)")]
    Text(RunArgs),
    /// Print the ASCII picture of the final state in its final orientation.
    #[command(after_help = "\
Examples:
  shubbles ascii .........@...o....ooo..xox... +
        .  .
       .....
       .....
       .o...
       xo.@.
       ooo..
      *x  .")]
    Ascii(RunArgs),
    /// Print the ASCII picture of every frame of the animation.
    #[command(after_help = "\
Examples:
  shubbles frames .........@...o....ooo..xox... '|'
      # input .........@...o....ooo..xox... |
      # frame 0, 0 degrees
      ...
      # result ...

Each block is `#` header lines and a picture; blocks are separated by an
empty line; the last line gives the result.")]
    Frames(RunArgs),
    /// Write a smooth GIF, 20 pictures a second: the box turns, the stot
    /// slides and creatures fall and leave in continuous motion.
    #[command(after_help = "\
Examples:
  shubbles smooth .........@...o....ooo..xox... '+>|<-v+^+'   # writes shubbles-smooth.gif
  shubbles smooth .........@...o....ooo..xox... '|' --caption --numbers -o half.gif
  echo '@................x.....x..o.. +-' | shubbles smooth -o - > out.gif

At most one operation a second; whenever the motion rests, the picture is
exactly the frame the 1-second GIF shows. The canvas is larger than the
1-second GIF's so that the box fits at every angle. Exit statuses as for
`gif`: 3 (and `!`) when the run fails, the GIF written all the same.")]
    Smooth(GifArgs),
    /// Write a PNG picture of the final state in its final orientation.
    #[command(after_help = "\
Examples:
  shubbles png .........@...o....ooo..xox... '+>|<-v+^+' -o final.png
  shubbles png .........@...o....ooo..xox... '+^^'      # prints ! and exits 3;
                                                         # the PNG shows the failure

Without -o the picture goes to shubbles.png.")]
    Png(PngArgs),
    /// Print the engine's event log as JSON Lines (one event per line).
    #[command(after_help = "\
Examples:
  shubbles events .........@...o....ooo..xox... '+>' > run.jsonl
  shubbles gif --from-events run.jsonl -o run.gif

The first line names the start: {\"kind\":\"start\",\"state\":...,\"operations\":...}.
Each further line is one event: frame, op (index from 0), operation, kind
(turned, fell, left, stot-moved, failed), orientation in degrees after the
event, and the cells involved. `gif`, `png` and `smooth` --from-events
draw from such a log alone.")]
    Events(RunArgs),
    /// Find a shortest operation string that releases every shubble while
    /// both smoles stay in the box.
    #[command(after_help = "\
Examples:
  shubbles solve .........@...o....ooo..xox...
      -->--+-+-+-+-+-
  shubbles solve .........@...o....ooo..xox... --json
  echo '.........@...o....ooo..xox...' | shubbles solve --gif answer.gif

Prints the answer alone on standard output (an empty line when there is no
shubble to release) and a summary on standard error. Breadth-first over
every reachable state, so the answer has the fewest operations (`|` counts
as one); every answer is replayed through the engine before it is printed.

Exit status: 0 solved, 4 no solution exists (every reachable state was
visited), 5 the --max-states limit was reached first, 2 invalid input,
1 any other error.")]
    Solve(SolveArgs),
    /// Write the GIF of Figure 1(a) under `+>|<-v+^+`; needs no input.
    #[command(after_help = "\
Examples:
  shubbles demo                 # writes shubbles.gif
  shubbles demo -o demo.gif --cell-size 60")]
    Demo(OutputArgs),
    /// Render many scenarios, one per line of each FILE, into a folder.
    #[command(after_help = BATCH_HELP)]
    Batch(BatchArgs),
}

#[derive(Args, Debug)]
pub struct RunArgs {
    /// The start state (29 characters of `. o x @`); read from standard
    /// input, with the operations, when absent.
    #[arg(value_name = "STATE")]
    pub state: Option<String>,
    /// The operations; may start with `-` (a counter-clockwise turn).
    #[arg(value_name = "OPS", allow_hyphen_values = true)]
    pub operations: Option<String>,
    /// Accept an unstable start: let it fall first (those ticks are frames
    /// too) instead of rejecting it.
    #[arg(long)]
    pub settle: bool,
}

#[derive(Args, Debug)]
pub struct OutputArgs {
    /// Where to write the GIF (default shubbles.gif, for `smooth`
    /// shubbles-smooth.gif); `-` writes to standard output.
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Side of one cell in pixels.
    #[arg(long, value_name = "PX", default_value_t = RenderOptions::DEFAULT_CELL_SIZE)]
    pub cell_size: u32,
    #[command(flatten)]
    pub text: TextArgs,
}

/// Text in pictures, off by default.
#[derive(Args, Debug)]
pub struct TextArgs {
    /// Add a strip under the box naming the operation, its position in the
    /// operations and the orientation, e.g. `3/9  |  half turn  180°`.
    #[arg(long)]
    pub caption: bool,
    /// Write each cell's number in its cell (upright, whatever the turn).
    #[arg(long)]
    pub numbers: bool,
}

impl TextArgs {
    /// `options` with the caption (naming `scenario`'s operations) and
    /// the cell numbers asked for.
    pub fn apply(&self, options: RenderOptions, scenario: &Scenario) -> RenderOptions {
        let options = options.with_numbers(self.numbers);
        if self.caption {
            options.with_caption(&scenario.operations)
        } else {
            options
        }
    }
}

#[derive(Args, Debug)]
pub struct GifArgs {
    #[command(flatten)]
    pub run: RunArgs,
    #[command(flatten)]
    pub output: OutputArgs,
    /// Draw from an event log written by `shubbles events` instead of
    /// running STATE and OPS.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["state", "operations", "settle"])]
    pub from_events: Option<PathBuf>,
}

#[derive(Args, Debug)]
pub struct PngArgs {
    #[command(flatten)]
    pub run: RunArgs,
    /// Where to write the PNG; `-` writes to standard output.
    #[arg(short, long, value_name = "FILE", default_value = "shubbles.png")]
    pub output: PathBuf,
    /// Side of one cell in pixels.
    #[arg(long, value_name = "PX", default_value_t = RenderOptions::DEFAULT_CELL_SIZE)]
    pub cell_size: u32,
    /// Draw from an event log written by `shubbles events`.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["state", "operations", "settle"])]
    pub from_events: Option<PathBuf>,
    #[command(flatten)]
    pub text: TextArgs,
}

#[derive(Args, Debug)]
pub struct SolveArgs {
    /// The start state; read from standard input when absent.
    #[arg(value_name = "STATE")]
    pub state: Option<String>,
    /// Give up after holding this many states (about 28 bytes each).
    #[arg(long, value_name = "N", default_value_t = 50_000_000)]
    pub max_states: usize,
    /// Print the answer, its length, the states visited and the time as one
    /// JSON object instead.
    #[arg(long)]
    pub json: bool,
    /// Also write the animated GIF of the answer.
    #[arg(long, value_name = "FILE")]
    pub gif: Option<PathBuf>,
    /// Also write the smooth 20 frames-per-second GIF of the answer.
    #[arg(long, value_name = "FILE")]
    pub smooth: Option<PathBuf>,
    /// Side of one cell in pixels, for --gif and --smooth.
    #[arg(long, value_name = "PX", default_value_t = RenderOptions::DEFAULT_CELL_SIZE)]
    pub cell_size: u32,
}

/// `--` is two counter-clockwise turns as well as the end of options. When
/// it comes last, after the state, it can only be the operations: it is
/// passed on behind a `--` of its own so the parser takes it as OPS.
pub fn operations_may_be_dashes(mut args: Vec<OsString>) -> Vec<OsString> {
    let Some((last, earlier)) = args.split_last() else {
        return args;
    };
    if last != "--" || earlier.iter().any(|arg| arg == "--") {
        return args;
    }
    let mut operands = 0;
    let mut skip_value = false;
    for arg in earlier.iter().skip(1) {
        let text = arg.to_string_lossy();
        if skip_value {
            skip_value = false;
        } else if ["-o", "--output", "--cell-size", "--from-events"].contains(&text.as_ref()) {
            skip_value = true;
        } else if !text.starts_with('-') && !COMMANDS.contains(&text.as_ref()) {
            operands += 1;
        }
    }
    if operands == 1 {
        args.insert(args.len() - 1, OsString::from("--"));
    }
    args
}

const COMMANDS: [&str; 11] = [
    "gif", "smooth", "text", "ascii", "frames", "png", "events", "solve", "demo", "batch", "help",
];

/// The most threads `--jobs` asks for: each holds a stack and a picture,
/// and more threads than cores only take turns.
const MAX_JOBS: i64 = 1024;

const BATCH_HELP: &str = "\
Each line of a FILE is `STATE [OPS [NAME]]`, separated by white space; `#`
starts a comment; blank lines are skipped. The second field is always the
operations (`.` for none, so `STATE . NAME` names a scenario without any).
NAME may use only letters, digits, `.`, `_` and `-` (no leading dot, no
`..`, at most 100 bytes); without one, the file is named after the input
file and line, as in `scenarios-0007.gif`. The later of two lines that want
the same file name (ignoring case) is invalid. Existing files of the same
name in DIR are replaced.

Examples:
  shubbles batch scenarios.txt --out-dir gifs
  shubbles batch a.txt b.txt --out-dir out --format text --jobs 2
  printf '.........@...o....ooo..xox... +>|<-v+^+ fig1a\\n' | shubbles batch - --out-dir out

Invalid lines and runs that end with `!` are reported on standard error with
FILE:LINE and the reason; the others are rendered all the same (a `!` run's
GIF marks the failure, its text file is `!`). A progress bar is shown when
standard error is a terminal; a summary line ends the run.

Exit status: 0 every line was rendered (runs that ended with `!` included),
2 some line was invalid, 1 an input file could not be read (nothing is
rendered then) or an output file could not be written.";

#[derive(Args, Debug)]
pub struct BatchArgs {
    /// Scenario files, one scenario per line; `-` reads standard input.
    #[arg(value_name = "FILE", required = true)]
    pub files: Vec<PathBuf>,
    /// The folder to write into; created if missing.
    #[arg(long, value_name = "DIR")]
    pub out_dir: PathBuf,
    /// What to write for each scenario.
    #[arg(
        long,
        value_name = "FORMAT",
        default_value_t = Format::Gif,
        value_parser = clap::builder::PossibleValuesParser::new(Format::ALL.map(Format::name))
            .try_map(|name| name.parse::<Format>())
    )]
    pub format: Format,
    /// How many scenarios to render at once, 1 to 1024 [default: one per
    /// core].
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u16).range(1..=MAX_JOBS))]
    pub jobs: Option<u16>,
    /// Side of one cell in pixels (gif, smooth and png).
    #[arg(long, value_name = "PX", default_value_t = RenderOptions::DEFAULT_CELL_SIZE)]
    pub cell_size: u32,
    /// Accept unstable starts: let them fall first instead of rejecting them.
    #[arg(long)]
    pub settle: bool,
}
