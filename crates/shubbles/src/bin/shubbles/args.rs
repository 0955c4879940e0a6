//! The command line's arguments, their help and examples.

use std::ffi::OsString;
use std::path::PathBuf;

use clap::builder::TypedValueParser as _;
use clap::{Args, Parser, Subcommand};
use edge::AnimationArgs;

use shubbles::reel::Loops;
use shubbles::{Format, RenderOptions, Scenario};

const EXAMPLES: &str = "\
Examples:
  shubbles .........@...o....ooo..xox... '+>|<-v+^+'     # writes shubbles.gif
  echo '.........@...o....ooo..xox... +>|<-v+^+' | shubbles -o fig1a.gif
  shubbles text .........@...o....ooo..xox... '-+<'      # prints the final state
  shubbles demo                                          # Figure 1(a), no input needed
  shubbles smooth .........@...o....ooo..xox... '+>|' --caption   # 20 fps motion

Exit status: 0 success, 3 the run failed (`!`), 2 invalid input or usage,
1 any other error (for example an unwritable output file).
Rules and output formats: docs/BOX.md in the repository.";

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
  shubbles gif .........@...o....ooo..xox... '+>|' --no-loop --hold 3
  shubbles gif .........@...o....ooo..xox... '+>|' -o fig1a.webp --max-size 10MB

Says `wrote FILE: N frames, SIZE, LENGTH` on standard error (-q: nothing).
Prints `!` (on standard error when the GIF goes to standard output) and
exits with 3 when the run fails; the GIF is written all the same, its last
frame marking the failure and naming the operation that failed.")]
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
  shubbles smooth .........@...o....ooo..xox... '+>' --loop 3 --hold 1.5

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
  shubbles solve .........@...o....ooo..xox... --smooth - | gifsicle --info
  shubbles solve '.o.......@...o....ooo..xox...' --settle

Prints the answer alone on standard output (an empty line when there is no
shubble to release; on standard error when --gif or --smooth is `-`) and a
summary on standard error. Breadth-first over
every reachable state, so the answer has the fewest operations (`|` counts
as one); every answer is replayed through the engine before it is printed.

Exit status: 0 solved, 4 no solution exists (every reachable state was
visited), 5 the --max-states limit was reached first, 2 invalid input,
1 any other error.")]
    Solve(SolveArgs),
    /// The box solved: the distance of every stable state, built once into
    /// a file, then looked up in microseconds.
    Table(crate::table::TableArgs),
    /// Write the GIF of Figure 1(a) under `+>|<-v+^+`; needs no input.
    #[command(after_help = "\
Examples:
  shubbles demo                 # wrote shubbles.gif: 26 frames, 28 KB, 26 s
  shubbles demo -o demo.gif --cell-size 60
  shubbles demo --no-loop --hold 3 -q")]
    Demo(OutputArgs),
    /// Render many scenarios, one per line of each FILE, into a folder.
    #[command(after_help = BATCH_HELP)]
    Batch(BatchArgs),
    /// Check that the manifests of a sharded batch cover its input exactly
    /// once, and sum the run up.
    #[command(after_help = "\
Examples:
  shubbles batch-merge gifs
      4 shards, 2000 scenarios, each exactly once: 1990 rendered (12 failed with !), 10 invalid; 52311 bytes

Reads every MANIFEST-K-of-N.jsonl in DIR (written by `batch --shard K/N`).
Exit status: 0 every shard is there and every scenario is listed once, its
file present with its size; 2 otherwise, with the first problem (a missing
shard names the one to run again with --resume).")]
    BatchMerge(BatchMergeArgs),
}

#[derive(Args, Debug)]
pub struct BatchMergeArgs {
    /// The folder the shards wrote into.
    #[arg(value_name = "DIR")]
    pub dir: PathBuf,
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
    /// Where to write the animation (default shubbles.gif, for `smooth`
    /// shubbles-smooth.gif; .webp or .png for --format webp or apng); `-`
    /// writes to standard output. The extension chooses the format: .gif,
    /// .webp, .apng or .png (an animated PNG).
    #[arg(short, long, value_name = "FILE")]
    pub output: Option<PathBuf>,
    #[command(flatten)]
    pub animation: AnimationArgs,
    /// Side of one cell in pixels.
    #[arg(long, value_name = "PX", default_value_t = RenderOptions::DEFAULT_CELL_SIZE)]
    pub cell_size: u32,
    #[command(flatten)]
    pub text: TextArgs,
    #[command(flatten)]
    pub playback: PlaybackArgs,
    #[command(flatten)]
    pub quiet: QuietArgs,
}

/// How an animation plays.
#[derive(Args, Debug, Default)]
pub struct PlaybackArgs {
    /// Play the animation N times, then stay on the last picture; 0 loops
    /// forever, as without this option.
    #[arg(long = "loop", value_name = "N", conflicts_with = "no_loop")]
    pub loops: Option<u16>,
    /// Play the animation once (the same as --loop 1).
    #[arg(long)]
    pub no_loop: bool,
    /// How long the last picture stays before the animation starts again
    /// (or stops), in seconds to a hundredth: 2, 1.5 [default: 1 for gif,
    /// 2 for smooth].
    #[arg(long, value_name = "SECONDS", value_parser = parse_hold)]
    pub hold: Option<u16>,
}

impl PlaybackArgs {
    /// `options` playing as asked.
    pub fn apply(&self, options: RenderOptions) -> RenderOptions {
        let loops = match (self.no_loop, self.loops) {
            (true, _) => Loops::Times(std::num::NonZeroU16::MIN),
            (false, Some(n)) => std::num::NonZeroU16::new(n).map_or(Loops::Forever, Loops::Times),
            (false, None) => Loops::Forever,
        };
        let options = options.with_loops(loops);
        match self.hold {
            Some(hold) => options.with_hold(hold),
            None => options,
        }
    }

    /// True when any of the options was given.
    pub fn given(&self) -> bool {
        self.loops.is_some() || self.no_loop || self.hold.is_some()
    }
}

/// `--hold`'s seconds as hundredths, the unit of a GIF's delays: from 0.02
/// (browsers show shorter delays as 0.1 s) to 655.35, the longest delay a
/// GIF holds.
fn parse_hold(text: &str) -> Result<u16, String> {
    let refused = || {
        format!("'{text}' is not a hold: expected seconds from 0.02 to 655.35, in hundredths at most (2, 1.5, 0.25)")
    };
    let (whole, part) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty() && part.is_empty() || !digits(whole) || !digits(part) || part.len() > 2 {
        return Err(refused());
    }
    let whole: u32 = if whole.is_empty() {
        0
    } else {
        whole.parse().map_err(|_| refused())?
    };
    let part: u32 = format!("{part:0<2}").parse().map_err(|_| refused())?;
    let hundredths = whole.checked_mul(100).and_then(|w| w.checked_add(part));
    match hundredths.and_then(|h| u16::try_from(h).ok()) {
        Some(h) if h >= 2 => Ok(h),
        _ => Err(refused()),
    }
}

/// Whether to say what was written.
#[derive(Args, Debug, Default)]
pub struct QuietArgs {
    /// Say nothing on success (not even the `wrote FILE: ...` line, nor
    /// the drawing --max-size chose); errors and `!` are still told.
    #[arg(short, long)]
    pub quiet: bool,
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
    /// running STATE and OPS; `-` reads standard input.
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
    /// Draw from an event log written by `shubbles events`; `-` reads
    /// standard input.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["state", "operations", "settle"])]
    pub from_events: Option<PathBuf>,
    #[command(flatten)]
    pub text: TextArgs,
    #[command(flatten)]
    pub quiet: QuietArgs,
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
    /// Accept an unstable start: let it fall first, then search from
    /// where it rests (the answer's animations show the fall too).
    #[arg(long)]
    pub settle: bool,
    /// Also write the animated GIF of the answer; `-` writes it to
    /// standard output (the answer then goes to standard error).
    #[arg(long, value_name = "FILE")]
    pub gif: Option<PathBuf>,
    /// Also write the smooth 20 frames-per-second GIF of the answer; `-`
    /// as for --gif.
    #[arg(long, value_name = "FILE")]
    pub smooth: Option<PathBuf>,
    /// Side of one cell in pixels, for --gif and --smooth.
    #[arg(long, value_name = "PX", default_value_t = RenderOptions::DEFAULT_CELL_SIZE)]
    pub cell_size: u32,
    #[command(flatten)]
    pub playback: PlaybackArgs,
    /// Read the answer from a table (`shubbles table build`) instead of
    /// searching; a state with more shubbles than it covers is searched.
    #[arg(long, value_name = "FILE")]
    pub table: Option<PathBuf>,
    /// Say nothing but the answer: no summary, no `wrote FILE` lines.
    #[arg(short, long)]
    pub quiet: bool,
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
        } else if OPTIONS_WITH_VALUES.contains(&text.as_ref()) {
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

/// The options that take the next argument as their value.
const OPTIONS_WITH_VALUES: [&str; 6] = [
    "-o",
    "--output",
    "--cell-size",
    "--from-events",
    "--loop",
    "--hold",
];

pub const COMMANDS: [&str; 13] = [
    "gif",
    "smooth",
    "text",
    "ascii",
    "frames",
    "png",
    "events",
    "solve",
    "table",
    "demo",
    "batch",
    "batch-merge",
    "help",
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

Each run writes a manifest, DIR/MANIFEST-K-of-N.jsonl (MANIFEST-1-of-1.jsonl
without --shard): a header (shard, format, options), then one JSON line per
scenario (input, line, outcome ok, ! or invalid, the line's SHA-256, file,
frames, bytes, SHA-256), appended as each file lands and put in input order
at the end. A run killed at any moment and started again with --resume ends
with the files and manifest of a run that was never stopped; a line changed
since is rendered again. One run of a shard at a time writes into DIR; a
second one is refused. Shards of one input (--shard K/N, on any machines
sharing DIR or merged later) write the files a single run would, and
`shubbles batch-merge DIR` checks that they cover the input exactly once.

Examples of shards:
  shubbles batch big.txt --out-dir out --shard 3/8
  parallel shubbles batch big.txt --out-dir out --shard {}/4 -q ::: 1 2 3 4
  shubbles batch big.txt --out-dir out --shard auto --resume   # in a Slurm array
  shubbles batch-merge out

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
    /// What to write for each scenario: webp and apng are `gif` as an
    /// animated WebP or PNG, smooth-webp and smooth-apng `smooth`.
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
    /// Side of one cell in pixels (animations and png).
    #[arg(long, value_name = "PX", default_value_t = RenderOptions::DEFAULT_CELL_SIZE)]
    pub cell_size: u32,
    /// Keep each animation at or under SIZE (10MB, 500KB, 2MiB, 123456):
    /// one that would be larger is drawn smaller until it fits (said on
    /// standard error), or not written when even the smallest legible
    /// drawing is larger.
    #[arg(long, value_name = "SIZE", value_parser = edge::parse_size)]
    pub max_size: Option<u64>,
    /// Accept unstable starts: let them fall first instead of rejecting them.
    #[arg(long)]
    pub settle: bool,
    #[command(flatten)]
    pub playback: PlaybackArgs,
    /// Say nothing of runs that ended with `!` and no summary; invalid
    /// lines and errors are still told.
    #[arg(short, long)]
    pub quiet: bool,
    /// Render only shard K of N: the scenarios at positions p (from 0, over
    /// every scenario line of the input, invalid ones included) with p % N
    /// = K - 1. `auto` takes K and N from a Slurm array job or a
    /// Kubernetes Indexed Job; `auto/N` gives N.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
    /// The manifest's file [default: DIR/MANIFEST-K-of-N.jsonl].
    #[arg(long, value_name = "FILE")]
    pub manifest: Option<PathBuf>,
    /// Keep the files the manifest lists that were made from the same line
    /// with the same options and are still there with their SHA-256, and
    /// render only the rest.
    #[arg(long)]
    pub resume: bool,
}

/// The message for a first argument that is neither a command nor can be
/// a state (`shubbles smoth STATE`): a word of letters other than `o` and
/// `x` was meant as a command, and saying which character of a state it
/// breaks would only mislead.
pub fn mistyped_command(args: &[OsString]) -> Option<String> {
    let word = args.get(1)?.to_str()?;
    if COMMANDS.contains(&word) || !is_a_word(word) {
        return None;
    }
    let nearest = COMMANDS
        .iter()
        .map(|command| (edit_distance(word, command), *command))
        .min()
        .filter(|&(distance, command)| distance <= 2 && distance < command.len() / 2 + 1);
    Some(match nearest {
        Some((_, command)) => {
            format!("unknown command '{word}'; did you mean '{command}'? (see 'shubbles --help')")
        }
        None => format!(
            "unknown command '{word}': expected one of {} or a state (see 'shubbles --help')",
            COMMANDS[..COMMANDS.len() - 1].join(", ")
        ),
    })
}

/// True for a word that can be neither a state (`. o x @`) nor operations
/// (`+ - | < > ^ v`): letters and digits, with a letter that is none of
/// `o`, `x` and `v`.
pub fn is_a_word(text: &str) -> bool {
    text.chars()
        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        && text
            .chars()
            .any(|c| c.is_ascii_alphabetic() && !matches!(c, 'o' | 'x' | 'v'))
        && !text.starts_with('-')
}

/// Edits (insert, delete, replace, swap two neighbours) from `a` to `b`.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut rows = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

/// What `shubbles` alone says on a terminal, where reading standard input
/// would only look like a hang.
pub const SHORT_USAGE: &str = "\
shubbles: shubbles and smoles in a turning box, rendered as animated GIFs.

Usage: shubbles [COMMAND] [STATE [OPS]] [-o FILE]

  shubbles demo                                        # writes shubbles.gif
  shubbles .........@...o....ooo..xox... '+>|<-v+^+'   # your own run, one frame a second
  shubbles smooth .........@...o....ooo..xox... '+>|'  # 20 fps motion
  shubbles text .........@...o....ooo..xox... '-+<'    # the final state
  shubbles solve .........@...o....ooo..xox...         # a shortest answer
  echo '.........@...o....ooo..xox... +>' | shubbles -o run.gif

Commands: gif (the default), smooth, png, text, ascii, frames, events, solve,
table, demo, batch. More: shubbles --help, shubbles COMMAND --help.";

#[cfg(test)]
mod tests {
    use super::*;

    fn mistyped(args: &[&str]) -> Option<String> {
        let args: Vec<OsString> = args.iter().map(OsString::from).collect();
        mistyped_command(&args)
    }

    #[test]
    fn a_mistyped_command_is_named_with_the_nearest_one() {
        assert_eq!(
            mistyped(&["shubbles", "smoth"]).as_deref(),
            Some("unknown command 'smoth'; did you mean 'smooth'? (see 'shubbles --help')")
        );
        assert!(mistyped(&["shubbles", "gfi", "x"])
            .unwrap()
            .contains("did you mean 'gif'?"));
        assert!(mistyped(&["shubbles", "slove"])
            .unwrap()
            .contains("'solve'"));
        assert!(mistyped(&["shubbles", "frobnicate"])
            .unwrap()
            .starts_with("unknown command 'frobnicate': expected one of gif, smooth,"));
    }

    #[test]
    fn states_operations_and_commands_are_not_mistyped_commands() {
        for first in [
            "smooth",
            ".........@...o....ooo..xox...",
            "oox",
            "xo",
            "vv",
            "-o",
            "--help",
            "+>",
        ] {
            assert_eq!(mistyped(&["shubbles", first]), None, "{first}");
        }
        assert_eq!(mistyped(&["shubbles"]), None);
    }

    #[test]
    fn holds_are_seconds_to_the_hundredth() {
        for (text, hundredths) in [
            ("2", 200),
            ("1.5", 150),
            ("0.25", 25),
            (".5", 50),
            ("655.35", 65_535),
            ("0.02", 2),
        ] {
            assert_eq!(parse_hold(text), Ok(hundredths), "{text}");
        }
        for text in ["0", "0.01", "655.36", "1.234", "-1", "two", "", ".", "1e2"] {
            assert!(parse_hold(text).is_err(), "{text}");
        }
    }
}
