//! The commands that write pictures: `gif` (the default), `smooth`, `png`
//! and `demo`, from a run or from an event log.

use std::fs;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use edge::{check_extension, choose_format, duration_in_words, print, say};
use edge::{size_in_words, write_output, AnimationArgs, Ending};
use shubbles::reel::{first_that_fits, Unfitted};
use shubbles::{read_event_log, EventLog, TEMPORARY_PREFIX};
use shubbles::{reel::write_png, reel::AnimationFormat, reel::ReelSummary};
use shubbles::{write_gif, write_smooth_gif, Frame, Outcome, RenderOptions, Renderer, Scenario};

use crate::args::{GifArgs, OutputArgs, PngArgs, RunArgs};
use crate::exit::RUN_FAILED;
use crate::input::{explain_failure, scenario};

/// Which animated GIF to write.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GifStyle {
    /// One frame a second (BOX.md §9).
    OneSecond,
    /// 20 pictures a second, in continuous motion.
    Smooth,
}

impl GifStyle {
    pub fn write(
        self,
        frames: impl Iterator<Item = Frame>,
        options: &RenderOptions,
        out: &mut dyn Write,
    ) -> anyhow::Result<ReelSummary> {
        Ok(match self {
            GifStyle::OneSecond => write_gif(frames, options, out)?,
            GifStyle::Smooth => write_smooth_gif(frames, options, out)?,
        })
    }

    fn default_name(self) -> &'static str {
        match self {
            GifStyle::OneSecond => "shubbles",
            GifStyle::Smooth => "shubbles-smooth",
        }
    }
}

/// Where the frames come from: a run of the rules, or an event log.
pub enum Source {
    Run(Scenario),
    Log(EventLog),
}

impl Source {
    fn from_args(run: &RunArgs, from_events: Option<&Path>) -> Result<Source, Ending> {
        let Some(path) = from_events else {
            return scenario(run).map(Source::Run);
        };
        let read = if path.as_os_str() == "-" {
            read_event_log(io::stdin().lock())
        } else {
            let file = fs::File::open(path).map_err(|error| {
                Ending::Invalid(format!("cannot read {}: {error}", path.display()))
            })?;
            read_event_log(io::BufReader::new(file))
        };
        read.map(Source::Log)
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

pub fn gif(args: &GifArgs, style: GifStyle) -> Ending {
    match Source::from_args(&args.run, args.from_events.as_deref()) {
        Ok(source) => render(&source, &args.output, style),
        Err(ending) => ending,
    }
}

pub fn render(source: &Source, args: &OutputArgs, style: GifStyle) -> Ending {
    let options = match RenderOptions::new(args.cell_size) {
        Ok(options) => args
            .playback
            .apply(args.text.apply(options, source.scenario())),
        Err(error) => return Ending::Invalid(error.to_string()),
    };
    let path = match &args.output {
        Some(path) => path.clone(),
        None => {
            let format = args.animation.format.unwrap_or_default();
            PathBuf::from(format!(
                "{}.{}",
                style.default_name(),
                format.extensions()[0]
            ))
        }
    };
    let animation = (&args.animation, args.quiet.quiet);
    match write_animation(&|| source.frames(), &options, style, &path, animation) {
        Ok((summary, bytes)) => {
            if let (Some(bytes), false) = (bytes, args.quiet.quiet) {
                say(&wrote_animation(&path, &summary, bytes));
            }
            report_outcome(source, bytes.is_none())
        }
        Err(ending) => ending,
    }
}

/// Writes the animation of `frames` to `path` in the format `animation`
/// or the name asks for, within its size budget if it has one (saying what
/// drawing fitted, unless `quiet`); returns what was written and its bytes
/// (`None` on standard output).
pub fn write_animation<'a>(
    frames: &dyn Fn() -> Box<dyn Iterator<Item = Frame> + 'a>,
    options: &RenderOptions,
    style: GifStyle,
    path: &Path,
    (animation, quiet): (&AnimationArgs, bool),
) -> Result<(ReelSummary, Option<u64>), Ending> {
    let format = choose_animation_format(animation.format, path).map_err(Ending::Invalid)?;
    let options = options.clone().with_format(format);
    let title = format.title();
    let Some(budget) = animation.max_size else {
        return write_output(path, title, TEMPORARY_PREFIX, |out| {
            style.write(frames(), &options, out)
        });
    };
    let drawings = options.smaller_drawings(style == GifStyle::Smooth);
    let fitted = first_that_fits(budget, drawings.iter().cloned(), |drawing, out| {
        style.write(frames(), drawing, out)
    });
    match fitted {
        Ok((chosen, summary, bytes)) => {
            if chosen != options && !quiet {
                say(&format!(
                    "shubbles: --max-size {}: drawn with {}",
                    size_in_words(budget),
                    drawing_in_words(&chosen, style == GifStyle::Smooth)
                ));
            }
            write_output(path, title, TEMPORARY_PREFIX, |out| {
                out.write_all(&bytes)?;
                Ok(summary)
            })
        }
        Err(Unfitted::TooLarge) => {
            let smallest = drawings.last().unwrap_or(&options);
            Err(Ending::Invalid(format!(
                "{}: not written: over --max-size {} even drawn with {}",
                path.display(),
                size_in_words(budget),
                drawing_in_words(smallest, style == GifStyle::Smooth)
            )))
        }
        Err(Unfitted::Failed(error)) => Err(Ending::Error(error)),
    }
}

/// `24-pixel cells` (and for a `smooth` animation `, 10 pictures a
/// second`).
pub fn drawing_in_words(options: &RenderOptions, smooth: bool) -> String {
    let cells = format!("{}-pixel cells", options.cell_size());
    if smooth {
        let rate = options.smooth_rate().pictures_per_second();
        format!("{cells}, {rate} pictures a second")
    } else {
        cells
    }
}

/// `wrote shubbles.gif: 26 frames, 28 KB, 26 s`: where an animation went,
/// how long it plays and what it weighs, so that a user can tell at once
/// whether it fits a tracker's limit.
pub fn wrote_animation(path: &Path, summary: &ReelSummary, bytes: u64) -> String {
    format!(
        "wrote {}: {} frame{}, {}, {}",
        path.display(),
        summary.frames,
        if summary.frames == 1 { "" } else { "s" },
        size_in_words(bytes),
        duration_in_words(summary.duration_cs)
    )
}

/// What the other file names a user may give instead mean.
const TEXT_NAMES: [(&str, &str); 3] = [
    (
        "txt",
        "`shubbles frames` (or `text`, `ascii`) prints the run as text",
    ),
    ("jsonl", "`shubbles events` prints the event log"),
    ("json", "`shubbles solve --json` prints the answer as JSON"),
];

/// The format of an animation written to `path`: `given`, or what the
/// name says; a name that says a text format is refused with a hint.
pub fn choose_animation_format(
    given: Option<AnimationFormat>,
    path: &Path,
) -> Result<AnimationFormat, String> {
    choose_format(given, path, &TEXT_NAMES)
}

pub fn png(args: &PngArgs) -> Ending {
    let options = match RenderOptions::new(args.cell_size) {
        Ok(options) => options,
        Err(error) => return Ending::Invalid(error.to_string()),
    };
    let gif = [
        ("gif", "`shubbles gif` (or `smooth`) writes the animation"),
        ("webp", "`shubbles gif -o FILE.webp` writes the animation"),
    ];
    let elsewhere: Vec<(&str, &str)> = gif.into_iter().chain(TEXT_NAMES).collect();
    if let Err(message) = check_extension(&args.output, "png", "a PNG picture", &elsewhere) {
        return Ending::Invalid(message);
    }
    let source = match Source::from_args(&args.run, args.from_events.as_deref()) {
        Ok(source) => source,
        Err(ending) => return ending,
    };
    let options = args.text.apply(options, source.scenario());
    let Some(last) = source.frames().last() else {
        return Ending::Error(anyhow::anyhow!("the run has no frame to draw"));
    };
    let renderer = Renderer::new(&options);
    let written = write_output(&args.output, "PNG", TEMPORARY_PREFIX, |out| {
        write_png(&renderer.render(&last), out)?;
        Ok(())
    });
    match written {
        Ok(((), bytes)) => {
            if let (Some(bytes), false) = (bytes, args.quiet.quiet) {
                let (width, height) = renderer.canvas_size();
                say(&format!(
                    "wrote {}: {width} by {height} pixels, {}",
                    args.output.display(),
                    size_in_words(bytes)
                ));
            }
            report_outcome(&source, bytes.is_none())
        }
        Err(ending) => ending,
    }
}

/// After a picture is written: `!` and exit status 3 for a failed run (on
/// standard error when the picture itself went to standard output).
fn report_outcome(source: &Source, picture_on_stdout: bool) -> Ending {
    match source.outcome().failure {
        Some((op, failure)) => {
            if picture_on_stdout {
                say("!");
            } else if let Err(error) = print("!\n") {
                return Ending::Error(error);
            }
            explain_failure(source.scenario(), op, failure);
            Ending::Status(RUN_FAILED)
        }
        None => Ending::Success,
    }
}
