//! The `shubbles` command: a thin layer over the library that reads input,
//! picks the output and maps outcomes to exit statuses (BOX.md §10).

use std::ffi::OsString;
use std::fs;
use std::io::{self, BufWriter, IsTerminal, Read, Write};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use anyhow::Context;
use clap::builder::TypedValueParser as _;
use clap::{Args, Parser, Subcommand};

use shubbles::puzzle::batch::{self, Batch, Format};
use shubbles::puzzle::draw::animation::write_gif;
use shubbles::puzzle::draw::options::RenderOptions;
use shubbles::puzzle::draw::renderer::Renderer;
use shubbles::puzzle::draw::smooth::write_smooth_gif;
use shubbles::puzzle::formats::ascii::picture;
use shubbles::puzzle::formats::event_log::{read_event_log, write_event_log, EventLog};
use shubbles::puzzle::formats::frame_dump::write_frame_dump;
use shubbles::puzzle::progress::NoProgress;
use shubbles::puzzle::solve::{progress_line, solve, SolveOutcome, SolveProgress};
use shubbles::puzzle::TEMPORARY_PREFIX;
use shubbles::reel::write_png;
use shubbles::{Failure, Frame, InputError, Outcome, Scenario};

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
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    #[command(flatten)]
    gif: GifArgs,
}

#[derive(Subcommand, Debug)]
enum Command {
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
struct RunArgs {
    /// The start state (29 characters of `. o x @`); read from standard
    /// input, with the operations, when absent.
    #[arg(value_name = "STATE")]
    state: Option<String>,
    /// The operations; may start with `-` (a counter-clockwise turn).
    #[arg(value_name = "OPS", allow_hyphen_values = true)]
    operations: Option<String>,
    /// Accept an unstable start: let it fall first (those ticks are frames
    /// too) instead of rejecting it.
    #[arg(long)]
    settle: bool,
}

#[derive(Args, Debug)]
struct OutputArgs {
    /// Where to write the GIF (default shubbles.gif, for `smooth`
    /// shubbles-smooth.gif); `-` writes to standard output.
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Side of one cell in pixels.
    #[arg(long, value_name = "PX", default_value_t = RenderOptions::DEFAULT_CELL_SIZE)]
    cell_size: u32,
    #[command(flatten)]
    text: TextArgs,
}

/// Text in pictures, off by default.
#[derive(Args, Debug)]
struct TextArgs {
    /// Add a strip under the box naming the operation, its position in the
    /// operations and the orientation, e.g. `3/9  |  half turn  180°`.
    #[arg(long)]
    caption: bool,
    /// Write each cell's number in its cell (upright, whatever the turn).
    #[arg(long)]
    numbers: bool,
}

impl TextArgs {
    fn apply(&self, options: RenderOptions, scenario: &Scenario) -> RenderOptions {
        let options = options.with_numbers(self.numbers);
        if self.caption {
            options.with_caption(&scenario.operations)
        } else {
            options
        }
    }
}

/// Which animation to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Animation {
    /// One frame a second (BOX.md §9).
    Gif,
    /// 20 pictures a second, in continuous motion.
    Smooth,
}

impl Animation {
    fn write(
        self,
        frames: impl Iterator<Item = Frame>,
        options: &RenderOptions,
        out: &mut dyn Write,
    ) -> anyhow::Result<()> {
        match self {
            Animation::Gif => write_gif(frames, options, out)?,
            Animation::Smooth => write_smooth_gif(frames, options, out)?,
        };
        Ok(())
    }

    fn default_file(self) -> &'static str {
        match self {
            Animation::Gif => "shubbles.gif",
            Animation::Smooth => "shubbles-smooth.gif",
        }
    }
}

#[derive(Args, Debug)]
struct GifArgs {
    #[command(flatten)]
    run: RunArgs,
    #[command(flatten)]
    output: OutputArgs,
    /// Draw from an event log written by `shubbles events` instead of
    /// running STATE and OPS.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["state", "operations", "settle"])]
    from_events: Option<PathBuf>,
}

#[derive(Args, Debug)]
struct PngArgs {
    #[command(flatten)]
    run: RunArgs,
    /// Where to write the PNG; `-` writes to standard output.
    #[arg(short, long, value_name = "FILE", default_value = "shubbles.png")]
    output: PathBuf,
    /// Side of one cell in pixels.
    #[arg(long, value_name = "PX", default_value_t = RenderOptions::DEFAULT_CELL_SIZE)]
    cell_size: u32,
    /// Draw from an event log written by `shubbles events`.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["state", "operations", "settle"])]
    from_events: Option<PathBuf>,
    #[command(flatten)]
    text: TextArgs,
}

#[derive(Args, Debug)]
struct SolveArgs {
    /// The start state; read from standard input when absent.
    #[arg(value_name = "STATE")]
    state: Option<String>,
    /// Give up after holding this many states (about 28 bytes each).
    #[arg(long, value_name = "N", default_value_t = 50_000_000)]
    max_states: usize,
    /// Print the answer, its length, the states visited and the time as one
    /// JSON object instead.
    #[arg(long)]
    json: bool,
    /// Also write the animated GIF of the answer.
    #[arg(long, value_name = "FILE")]
    gif: Option<PathBuf>,
    /// Also write the smooth 20 frames-per-second GIF of the answer.
    #[arg(long, value_name = "FILE")]
    smooth: Option<PathBuf>,
    /// Side of one cell in pixels, for --gif and --smooth.
    #[arg(long, value_name = "PX", default_value_t = RenderOptions::DEFAULT_CELL_SIZE)]
    cell_size: u32,
}

/// How the command ended, mapped to BOX.md §10's exit statuses.
enum Ending {
    Success,
    RunFailed,
    /// A command's own status (`solve`: 4 no solution, 5 limit reached).
    Status(u8),
    Invalid(String),
    Error(anyhow::Error),
    /// The problems were reported already; only the status is left.
    Reported(u8),
}

fn main() -> ExitCode {
    let cli = Cli::parse_from(operations_may_be_dashes(std::env::args_os().collect()));
    let ending = match cli.command {
        None => gif(&cli.gif, Animation::Gif),
        Some(Command::Gif(args)) => gif(&args, Animation::Gif),
        Some(Command::Smooth(args)) => gif(&args, Animation::Smooth),
        Some(Command::Text(args)) => text(&args, |outcome| outcome.result() + "\n"),
        Some(Command::Ascii(args)) => text(&args, |outcome| match outcome.failure {
            Some(_) => "!\n".to_string(),
            None => picture(&outcome.state),
        }),
        Some(Command::Frames(args)) => print_run(&args, write_frame_dump),
        Some(Command::Png(args)) => png(&args),
        Some(Command::Events(args)) => print_run(&args, write_event_log),
        Some(Command::Solve(args)) => solve_command(&args),
        Some(Command::Demo(args)) => {
            render(&Source::Run(Scenario::figure_1a()), &args, Animation::Gif)
        }
        Some(Command::Batch(args)) => run_batch(&args),
    };
    match ending {
        Ending::Success => ExitCode::SUCCESS,
        Ending::RunFailed => ExitCode::from(3),
        Ending::Status(status) => ExitCode::from(status),
        Ending::Invalid(message) => {
            eprintln!("shubbles: {message}");
            ExitCode::from(2)
        }
        Ending::Error(error) => {
            eprintln!("shubbles: {error:#}");
            ExitCode::from(1)
        }
        Ending::Reported(status) => ExitCode::from(status),
    }
}

/// `--` is two counter-clockwise turns as well as the end of options. When
/// it comes last, after the state, it can only be the operations: it is
/// passed on behind a `--` of its own so the parser takes it as OPS.
fn operations_may_be_dashes(mut args: Vec<OsString>) -> Vec<OsString> {
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

/// The scenario from the operands, or from standard input without them.
fn scenario(args: &RunArgs) -> Result<Scenario, Ending> {
    let parsed = match &args.state {
        Some(state) => {
            Scenario::parse(state, args.operations.as_deref().unwrap_or(""), args.settle)
        }
        None => {
            let mut input = String::new();
            if let Err(error) = io::stdin().read_to_string(&mut input) {
                return Err(Ending::Invalid(format!(
                    "cannot read standard input: {error}"
                )));
            }
            Scenario::from_text(&input, args.settle)
        }
    };
    parsed.map_err(|error: InputError| Ending::Invalid(error.to_string()))
}

fn text(args: &RunArgs, show: impl Fn(&Outcome) -> String) -> Ending {
    let scenario = match scenario(args) {
        Ok(scenario) => scenario,
        Err(ending) => return ending,
    };
    let outcome = scenario.run();
    if let Err(error) = io::stdout().lock().write_all(show(&outcome).as_bytes()) {
        return Ending::Error(error.into());
    }
    match outcome.failure {
        Some((op, failure)) => {
            explain_failure(&scenario, op, failure);
            Ending::RunFailed
        }
        None => Ending::Success,
    }
}

/// Prints what `write` makes of the scenario (the frame dump, the event
/// log) to standard output; a failed run still prints all of it.
fn print_run(
    args: &RunArgs,
    write: impl FnOnce(&Scenario, &mut BufWriter<io::StdoutLock<'static>>) -> io::Result<()>,
) -> Ending {
    let scenario = match scenario(args) {
        Ok(scenario) => scenario,
        Err(ending) => return ending,
    };
    let mut out = BufWriter::new(io::stdout().lock());
    if let Err(error) = write(&scenario, &mut out).and_then(|()| out.flush()) {
        return Ending::Error(error.into());
    }
    match scenario.run().failure {
        Some((op, failure)) => {
            explain_failure(&scenario, op, failure);
            Ending::RunFailed
        }
        None => Ending::Success,
    }
}

/// Where the frames come from: a run of the rules, or an event log.
enum Source {
    Run(Scenario),
    Log(EventLog),
}

impl Source {
    fn from_args(run: &RunArgs, from_events: Option<&Path>) -> Result<Source, Ending> {
        let Some(path) = from_events else {
            return scenario(run).map(Source::Run);
        };
        let file = fs::File::open(path)
            .map_err(|error| Ending::Invalid(format!("cannot read {}: {error}", path.display())))?;
        read_event_log(io::BufReader::new(file))
            .map(Source::Log)
            .map_err(|error| Ending::Invalid(format!("{}: {error}", path.display())))
    }

    fn scenario(&self) -> &Scenario {
        match self {
            Source::Run(scenario) => scenario,
            Source::Log(log) => &log.scenario,
        }
    }

    fn frames(&self) -> Box<dyn Iterator<Item = Frame> + '_> {
        match self {
            Source::Run(scenario) => Box::new(scenario.frames()),
            Source::Log(log) => Box::new(log.frames()),
        }
    }

    fn outcome(&self) -> Outcome {
        match self {
            Source::Run(scenario) => scenario.run(),
            Source::Log(log) => log.outcome(),
        }
    }
}

fn gif(args: &GifArgs, animation: Animation) -> Ending {
    match Source::from_args(&args.run, args.from_events.as_deref()) {
        Ok(source) => render(&source, &args.output, animation),
        Err(ending) => ending,
    }
}

fn render(source: &Source, args: &OutputArgs, animation: Animation) -> Ending {
    let options = match RenderOptions::new(args.cell_size) {
        Ok(options) => args.text.apply(options, source.scenario()),
        Err(error) => return Ending::Invalid(error.to_string()),
    };
    let path = match &args.output {
        Some(path) => path.clone(),
        None => PathBuf::from(animation.default_file()),
    };
    let written = write_output(&path, "GIF", |out| {
        animation.write(source.frames(), &options, out)
    });
    match written {
        Ok(()) => report_outcome(source, path.as_os_str() == "-"),
        Err(ending) => ending,
    }
}

fn png(args: &PngArgs) -> Ending {
    let options = match RenderOptions::new(args.cell_size) {
        Ok(options) => options,
        Err(error) => return Ending::Invalid(error.to_string()),
    };
    let source = match Source::from_args(&args.run, args.from_events.as_deref()) {
        Ok(source) => source,
        Err(ending) => return ending,
    };
    let options = args.text.apply(options, source.scenario());
    let Some(last) = source.frames().last() else {
        return Ending::Error(anyhow::anyhow!("the run has no frame to draw"));
    };
    let written = write_output(&args.output, "PNG", |out| {
        write_png(&Renderer::new(&options).render(&last), out)?;
        Ok(())
    });
    match written {
        Ok(()) => report_outcome(&source, args.output.as_os_str() == "-"),
        Err(ending) => ending,
    }
}

/// Writes a picture to `path`, or to standard output for `-` (but never to
/// a terminal, where it would only be noise).
fn write_output(
    path: &Path,
    what: &str,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> Result<(), Ending> {
    if path.as_os_str() != "-" {
        return write_atomically(path, |file| write(file)).map_err(Ending::Error);
    }
    if io::stdout().is_terminal() {
        return Err(Ending::Invalid(format!(
            "refusing to write a {what} to a terminal; redirect standard output or give -o FILE"
        )));
    }
    let mut out = BufWriter::new(io::stdout().lock());
    write(&mut out)
        .and_then(|()| out.flush().context("cannot write to standard output"))
        .map_err(Ending::Error)
}

/// After a picture is written: `!` and exit status 3 for a failed run (on
/// standard error when the picture itself went to standard output).
fn report_outcome(source: &Source, picture_on_stdout: bool) -> Ending {
    match source.outcome().failure {
        Some((op, failure)) => {
            if picture_on_stdout {
                eprintln!("!");
            } else {
                println!("!");
            }
            explain_failure(source.scenario(), op, failure);
            Ending::RunFailed
        }
        None => Ending::Success,
    }
}

/// Progress of a search on a terminal: one line, rewritten after each depth.
struct TerminalProgress;

impl SolveProgress for TerminalProgress {
    fn depth_done(&mut self, depth: usize, states_seen: usize, elapsed: std::time::Duration) {
        eprint!("\r{}\x1b[K", progress_line(depth, states_seen, elapsed));
    }
}

fn solve_command(args: &SolveArgs) -> Ending {
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
        eprint!("\r\x1b[K");
    }
    let report = match searched {
        Ok(report) => report,
        Err(error) => return Ending::Error(anyhow::anyhow!("{error}")),
    };
    if args.json {
        println!("{}", report.json());
    } else {
        if let SolveOutcome::Solved { operations, .. } = &report.outcome {
            println!(
                "{}",
                shubbles::puzzle::model::operation::format_operations(operations)
            );
        }
        eprintln!("shubbles: {}", report.summary());
    }
    if let SolveOutcome::Solved { operations, .. } = &report.outcome {
        let answer = Scenario {
            start: scenario.start,
            operations: operations.clone(),
            settle_first: false,
        };
        let pictures = [
            (&args.gif, Animation::Gif),
            (&args.smooth, Animation::Smooth),
        ];
        for (path, animation) in pictures {
            let Some(path) = path else { continue };
            let written = write_atomically(path, |file| {
                animation.write(answer.frames(), &options, file)
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

/// [`shubbles::reel::write_atomically`], with the path in the message.
fn write_atomically(
    path: &Path,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    shubbles::reel::write_atomically(path, TEMPORARY_PREFIX, write)
        .with_context(|| format!("cannot write {}", path.display()))
}

/// Says on standard error which operation failed and why; standard output
/// carries only the `!` the contract asks for.
fn explain_failure(scenario: &Scenario, op: Option<usize>, failure: Failure) {
    eprintln!("shubbles: {}", scenario.explain_failure(op, failure));
}

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
struct BatchArgs {
    /// Scenario files, one scenario per line; `-` reads standard input.
    #[arg(value_name = "FILE", required = true)]
    files: Vec<PathBuf>,
    /// The folder to write into; created if missing.
    #[arg(long, value_name = "DIR")]
    out_dir: PathBuf,
    /// What to write for each scenario.
    #[arg(
        long,
        value_name = "FORMAT",
        default_value_t = Format::Gif,
        value_parser = clap::builder::PossibleValuesParser::new(Format::ALL.map(Format::name))
            .try_map(|name| name.parse::<Format>())
    )]
    format: Format,
    /// How many scenarios to render at once [default: one per core].
    #[arg(long, value_name = "N")]
    jobs: Option<std::num::NonZeroUsize>,
    /// Side of one cell in pixels (gif, smooth and png).
    #[arg(long, value_name = "PX", default_value_t = RenderOptions::DEFAULT_CELL_SIZE)]
    cell_size: u32,
    /// Accept unstable starts: let them fall first instead of rejecting them.
    #[arg(long)]
    settle: bool,
}

fn run_batch(args: &BatchArgs) -> Ending {
    let options = match RenderOptions::new(args.cell_size) {
        Ok(options) => options,
        Err(error) => return Ending::Invalid(error.to_string()),
    };
    // Every input is read before anything is written, so a mistyped file
    // name costs nothing but the message.
    let mut batch = Batch::new(args.settle);
    for file in &args.files {
        let label = file.to_string_lossy();
        let text = if label == "-" {
            let mut text = Vec::new();
            io::stdin().read_to_end(&mut text).map(|_| text)
        } else {
            fs::read(file)
        };
        match text {
            Ok(text) => batch.add(&label, &text),
            Err(error) => {
                return Ending::Error(anyhow::anyhow!("cannot read {label}: {error}"));
            }
        }
    }
    if let Err(error) = fs::create_dir_all(&args.out_dir) {
        return Ending::Error(anyhow::anyhow!(
            "cannot create {}: {error}",
            args.out_dir.display()
        ));
    }
    for invalid in batch.invalid() {
        eprintln!(
            "shubbles: {}: invalid line: {}",
            invalid.location, invalid.problem
        );
    }

    let bar = progress_bar(batch.jobs().len());
    let render = || batch.render_all(args.format, &options, &args.out_dir, &bar);
    let results = match args.jobs {
        Some(threads) => match rayon::ThreadPoolBuilder::new()
            .num_threads(threads.get())
            .build()
        {
            Ok(pool) => pool.install(render),
            Err(error) => return Ending::Error(error.into()),
        },
        None => render(),
    };
    bar.0.finish_and_clear();

    for (job, result) in batch.jobs().iter().zip(&results) {
        match result {
            Ok(rendered) => {
                if let Some((op, failure)) = rendered.outcome.failure {
                    let why = job.scenario.explain_failure(op, failure);
                    eprintln!("shubbles: {}: rendered `!`: {why}", job.location);
                }
            }
            Err(error) => eprintln!("shubbles: {error}"),
        }
    }
    let summary = batch::Summary::new(&batch, &results);
    eprintln!("batch: {summary}; written to {}", args.out_dir.display());
    if summary.invalid > 0 {
        Ending::Reported(2)
    } else if summary.not_written > 0 {
        Ending::Reported(1)
    } else {
        Ending::Success
    }
}

/// The progress bar, drawn only on a terminal: on a pipe or in a log it
/// would be noise.
struct Bar(indicatif::ProgressBar);

impl batch::BatchProgress for Bar {
    fn finished(&self, _: &batch::Job, _: &Result<batch::Rendered, batch::NotWritten>) {
        self.0.inc(1);
    }
}

fn progress_bar(total: usize) -> Bar {
    if !io::stderr().is_terminal() {
        return Bar(indicatif::ProgressBar::hidden());
    }
    let bar = indicatif::ProgressBar::new(total as u64);
    if let Ok(style) = indicatif::ProgressStyle::with_template(
        "{bar:40} {pos}/{len} scenarios, {elapsed} elapsed, about {eta} left",
    ) {
        bar.set_style(style);
    }
    Bar(bar)
}
