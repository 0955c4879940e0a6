//! Renders many scenarios in one run: the library half of `shubbles batch`.
//!
//! A scenario file has one scenario per line, `STATE [OPS [NAME]]`, read by
//! [`Batch::add`] into [`Job`]s or [`InvalidLine`]s that say where and why.
//! Every job gets a file name that cannot leave the output folder and that
//! no other job of the batch uses. [`Batch::render_all`] writes every job on
//! all of rayon's threads; it reports each finished job to a [`Progress`] so
//! that the caller, not the library, decides how to show it.

use std::collections::HashMap;
use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::Arc;

use rayon::prelude::*;

use reel::{write_atomically, write_png, EncodeError};

use crate::puzzle::draw::animation::write_gif;
use crate::puzzle::draw::options::RenderOptions;
use crate::puzzle::draw::renderer::Renderer;
use crate::puzzle::draw::smooth::write_smooth_gif;
use crate::puzzle::formats::ascii::picture;
use crate::puzzle::model::input_error::InputError;
use crate::puzzle::rules::scenario::{Outcome, Scenario};
use crate::puzzle::TEMPORARY_PREFIX;

/// What each scenario is rendered as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// The animated GIF of `shubbles gif`.
    Gif,
    /// The 20 frames-per-second GIF of `shubbles smooth`.
    Smooth,
    /// The last frame as a PNG picture.
    Png,
    /// What `shubbles text` prints: the final state or `!`.
    Text,
    /// What `shubbles ascii` prints: the final picture or `!`.
    Ascii,
}

impl Format {
    pub const ALL: [Format; 5] = [
        Format::Gif,
        Format::Smooth,
        Format::Png,
        Format::Text,
        Format::Ascii,
    ];

    /// The name users give to `--format`.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Gif => "gif",
            Format::Smooth => "smooth",
            Format::Png => "png",
            Format::Text => "text",
            Format::Ascii => "ascii",
        }
    }

    /// The extension of the files written, without the dot.
    pub const fn extension(self) -> &'static str {
        match self {
            Format::Gif | Format::Smooth => "gif",
            Format::Png => "png",
            Format::Text | Format::Ascii => "txt",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `--format` that is not one of [`Format::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownFormat(pub String);

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<&str> = Format::ALL.iter().map(|format| format.name()).collect();
        write!(
            f,
            "unknown format {:?}: expected one of {}",
            self.0,
            known.join(", ")
        )
    }
}

impl std::error::Error for UnknownFormat {}

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(name: &str) -> Result<Format, UnknownFormat> {
        Format::ALL
            .into_iter()
            .find(|format| format.name() == name)
            .ok_or_else(|| UnknownFormat(name.to_string()))
    }
}

/// Writes what `format` shows of `scenario` to `out` and returns how the run
/// ended. The bytes are exactly those of the single-scenario command of the
/// same name (`shubbles gif`, `smooth`, `text`, `ascii`; `png` is the last
/// frame).
pub fn write_output(
    scenario: &Scenario,
    format: Format,
    options: &RenderOptions,
    mut out: impl Write,
) -> Result<Outcome, EncodeError> {
    let outcome = scenario.run();
    match format {
        Format::Gif => {
            write_gif(scenario.frames(), options, out)?;
        }
        Format::Smooth => {
            write_smooth_gif(scenario.frames(), options, out)?;
        }
        Format::Png => {
            // There is always frame 0, the start, so `last` finds one.
            if let Some(frame) = scenario.frames().last() {
                write_png(&Renderer::new(options).render(&frame), out)?;
            }
        }
        Format::Text => {
            out.write_all((outcome.result() + "\n").as_bytes())?;
            out.flush()?;
        }
        Format::Ascii => {
            let text = match outcome.failure {
                Some(_) => "!\n".to_string(),
                None => picture(&outcome.state),
            };
            out.write_all(text.as_bytes())?;
            out.flush()?;
        }
    }
    Ok(outcome)
}

/// A line of a scenario file.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Location {
    /// The file as the user named it (`-` for standard input).
    pub file: Arc<str>,
    /// Counted from 1, blank and comment lines included.
    pub line: usize,
}

impl fmt::Display for Location {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.file, self.line)
    }
}

/// One scenario to render.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    pub location: Location,
    /// Private so that only [`Batch::add`] names a job: it is checked by
    /// [`check_name`] and unique in the batch.
    name: String,
    pub scenario: Scenario,
}

impl Job {
    /// The output file's name without its extension.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// The output file's name in the given format.
    pub fn file_name(&self, format: Format) -> String {
        format!("{}.{}", self.name, format.extension())
    }
}

/// The longest NAME accepted, in bytes: with an extension and the folder it
/// stays far inside the 255-byte file-name limit of common file systems.
pub const MAX_NAME_BYTES: usize = 100;

/// Why a NAME cannot be a file name. Only `[A-Za-z0-9._-]` is accepted, so
/// a name can never be a path, a hidden file or a control sequence on a
/// terminal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    Empty,
    TooLong {
        bytes: usize,
    },
    /// A leading dot would hide the file, and `.`/`..` are folders.
    LeadingDot,
    /// `..` anywhere, which some tools still read as "the parent folder".
    DotDot,
    /// A character outside `[A-Za-z0-9._-]`; `position` counts from 1.
    Character {
        position: usize,
        found: char,
    },
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameError::Empty => write!(f, "the name is empty"),
            NameError::TooLong { bytes } => write!(
                f,
                "the name is {bytes} bytes long, longer than {MAX_NAME_BYTES}"
            ),
            NameError::LeadingDot => write!(f, "the name starts with a dot"),
            NameError::DotDot => write!(f, "the name contains `..`"),
            NameError::Character { position, found } => {
                write!(f, "the name has {found:?} at character {position}")?;
                if matches!(found, '/' | '\\') {
                    write!(f, " (a path separator)")?;
                }
                write!(f, "; names may use only letters, digits, `.`, `_` and `-`")
            }
        }
    }
}

impl std::error::Error for NameError {}

/// Accepts `name` as an output file name (before the extension) only if it
/// stays inside the output folder whatever the platform.
pub fn check_name(name: &str) -> Result<(), NameError> {
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    if name.len() > MAX_NAME_BYTES {
        return Err(NameError::TooLong { bytes: name.len() });
    }
    if let Some((i, found)) = name.chars().enumerate().find(|(_, c)| !is_name_char(*c)) {
        return Err(NameError::Character {
            position: i + 1,
            found,
        });
    }
    if name.starts_with('.') {
        return Err(NameError::LeadingDot);
    }
    if name.contains("..") {
        return Err(NameError::DotDot);
    }
    Ok(())
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')
}

/// The start of the names of lines without a NAME: the input file's stem,
/// cut down to what [`check_name`] accepts (`stdin` for `-`).
pub fn default_stem(file: &str) -> String {
    if file == "-" {
        return "stdin".to_string();
    }
    let stem = Path::new(file)
        .file_stem()
        .map(|stem| stem.to_string_lossy())
        .unwrap_or_default();
    let cleaned: String = stem
        .chars()
        .map(|c| if is_name_char(c) { c } else { '_' })
        .collect();
    // Dots are dropped from the front and squeezed so the stem passes
    // `check_name`; room is left for `-` and the line number.
    let mut stem = String::new();
    for c in cleaned.trim_start_matches('.').chars() {
        if !(c == '.' && stem.ends_with('.')) && stem.len() < MAX_NAME_BYTES - 21 {
            stem.push(c);
        }
    }
    if stem.is_empty() {
        "scenarios".to_string()
    } else {
        stem
    }
}

/// The name of a line without a NAME, for example `scenarios-0007`.
pub fn default_name(stem: &str, line: usize) -> String {
    format!("{stem}-{line:04}")
}

/// The fields of a scenario line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fields<'a> {
    pub state: &'a str,
    /// Empty when the line has none or gives `.` for none.
    pub operations: &'a str,
    pub name: Option<&'a str>,
}

/// Splits a line into its fields, or `None` for a blank or comment line.
///
/// `#` starts a comment anywhere: no state, operation or name contains it.
/// The second field is always the operations (an operation string may start
/// with `-`, and `v` or `-` could also be names, so position decides, never
/// the look of a field); `.` there stands for "no operations", so that a
/// scenario without operations can still be named.
pub fn split_line(line: &str) -> Result<Option<Fields<'_>>, LineProblem> {
    let content = match line.find('#') {
        Some(comment) => &line[..comment],
        None => line,
    };
    let mut fields = content.split_whitespace();
    let Some(state) = fields.next() else {
        return Ok(None);
    };
    let operations = match fields.next() {
        Some(".") | None => "",
        Some(operations) => operations,
    };
    let name = fields.next();
    let extra: Vec<&str> = fields.collect();
    if let Some(first) = extra.first() {
        return Err(LineProblem::ExtraFields {
            first: first.to_string(),
            count: extra.len(),
        });
    }
    Ok(Some(Fields {
        state,
        operations,
        name,
    }))
}

/// What is wrong with a line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LineProblem {
    /// The line is not UTF-8 text.
    NotText,
    /// More than `STATE OPS NAME`.
    ExtraFields {
        first: String,
        count: usize,
    },
    /// The state or the operations are invalid (BOX.md §2, §3).
    Input(InputError),
    /// Only two fields and the second is not an operation string: perhaps a
    /// NAME meant for a scenario with no operations.
    NameWithoutOperations(InputError),
    Name(NameError),
    /// Another line already writes a file of this name (compared without
    /// regard to case, as some file systems do).
    DuplicateName {
        name: String,
        first: Location,
    },
}

impl fmt::Display for LineProblem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LineProblem::NotText => write!(f, "the line is not UTF-8 text"),
            LineProblem::ExtraFields { first, count } => write!(
                f,
                "unexpected extra field {first:?}{}: expected STATE OPS NAME at most",
                if *count > 1 {
                    format!(" and {} more", count - 1)
                } else {
                    String::new()
                }
            ),
            LineProblem::Input(error) => error.fmt(f),
            LineProblem::NameWithoutOperations(error) => write!(
                f,
                "{error} (the second field is always the operations: write `STATE . NAME` to name a scenario with none)"
            ),
            LineProblem::Name(error) => error.fmt(f),
            LineProblem::DuplicateName { name, first } => write!(
                f,
                "the output name {name:?} is already used by {first}"
            ),
        }
    }
}

impl std::error::Error for LineProblem {}

/// A line that is not rendered, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidLine {
    pub location: Location,
    pub problem: LineProblem,
}

impl fmt::Display for InvalidLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.location, self.problem)
    }
}

impl std::error::Error for InvalidLine {}

/// The scenarios of one or more files, read and named, ready to render.
#[derive(Debug, Default)]
pub struct Batch {
    settle_first: bool,
    jobs: Vec<Job>,
    invalid: Vec<InvalidLine>,
    /// Lower-cased names taken so far, and by which line.
    names: HashMap<String, Location>,
}

impl Batch {
    /// An empty batch; with `settle_first`, unstable starts fall first
    /// instead of being invalid (as `--settle` does).
    pub fn new(settle_first: bool) -> Batch {
        Batch {
            settle_first,
            ..Batch::default()
        }
    }

    /// Reads every line of `text`, the contents of `file` (`-` for standard
    /// input). Names are given in the order lines are added, so the first
    /// line to claim a name keeps it.
    pub fn add(&mut self, file: &str, text: &[u8]) {
        let file: Arc<str> = Arc::from(file);
        let stem = default_stem(&file);
        for (i, line) in text.split(|&byte| byte == b'\n').enumerate() {
            let location = Location {
                file: Arc::clone(&file),
                line: i + 1,
            };
            match self.read_line(line, &stem, &location) {
                Ok(None) => {}
                Ok(Some(job)) => self.jobs.push(job),
                Err(problem) => self.invalid.push(InvalidLine { location, problem }),
            }
        }
    }

    fn read_line(
        &mut self,
        line: &[u8],
        stem: &str,
        location: &Location,
    ) -> Result<Option<Job>, LineProblem> {
        let line = std::str::from_utf8(line).map_err(|_| LineProblem::NotText)?;
        let Some(fields) = split_line(line)? else {
            return Ok(None);
        };
        let scenario = Scenario::parse(fields.state, fields.operations, self.settle_first)
            .map_err(|error| match (&error, fields.name) {
                (InputError::OperationCharacter { .. }, None) => {
                    LineProblem::NameWithoutOperations(error)
                }
                _ => LineProblem::Input(error),
            })?;
        let name = match fields.name {
            Some(name) => {
                check_name(name).map_err(LineProblem::Name)?;
                name.to_string()
            }
            None => default_name(stem, location.line),
        };
        let key = name.to_ascii_lowercase();
        if let Some(first) = self.names.get(&key) {
            return Err(LineProblem::DuplicateName {
                name,
                first: first.clone(),
            });
        }
        self.names.insert(key, location.clone());
        Ok(Some(Job {
            location: location.clone(),
            name,
            scenario,
        }))
    }

    /// The valid lines, in input order.
    pub fn jobs(&self) -> &[Job] {
        &self.jobs
    }

    /// The invalid lines, in input order.
    pub fn invalid(&self) -> &[InvalidLine] {
        &self.invalid
    }

    /// Writes every job into `out_dir` (which must exist), in parallel on
    /// the current rayon pool, and returns each job's result in input order.
    /// One job's failure never stops the others.
    pub fn render_all(
        &self,
        format: Format,
        options: &RenderOptions,
        out_dir: &Path,
        progress: &impl Progress,
    ) -> Vec<Result<Rendered, NotWritten>> {
        self.jobs
            .par_iter()
            .map(|job| {
                let result = write_job(job, format, options, out_dir);
                progress.finished(job, &result);
                result
            })
            .collect()
    }
}

/// Told about each job as it finishes, from whichever thread rendered it.
pub trait Progress: Sync {
    fn finished(&self, job: &Job, result: &Result<Rendered, NotWritten>);
}

/// A [`Progress`] that shows nothing.
#[derive(Clone, Copy, Debug, Default)]
pub struct Quiet;

impl Progress for Quiet {
    fn finished(&self, _: &Job, _: &Result<Rendered, NotWritten>) {}
}

/// A job whose file was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    pub path: PathBuf,
    pub outcome: Outcome,
}

/// A job whose file could not be written.
#[derive(Debug)]
pub struct NotWritten {
    pub location: Location,
    pub path: PathBuf,
    pub error: EncodeError,
}

impl fmt::Display for NotWritten {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: cannot write {}: {}",
            self.location,
            self.path.display(),
            self.error
        )
    }
}

impl std::error::Error for NotWritten {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Writes one job's file into `out_dir`, whole or not at all: into a hidden
/// temporary file beside it, then renamed. A leftover temporary file starts
/// with a dot, so it can never be mistaken for (or replace) a job's output.
pub fn write_job(
    job: &Job,
    format: Format,
    options: &RenderOptions,
    out_dir: &Path,
) -> Result<Rendered, NotWritten> {
    let path = out_dir.join(job.file_name(format));
    let not_written = |error: EncodeError| NotWritten {
        location: job.location.clone(),
        path: path.clone(),
        error,
    };
    let outcome = write_atomically(&path, TEMPORARY_PREFIX, |out| {
        write_output(&job.scenario, format, options, out)
    })
    .map_err(not_written)?;
    Ok(Rendered { path, outcome })
}

/// Counts for the closing line of a batch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Files written, failed runs included.
    pub rendered: usize,
    /// Of those, runs that ended with `!`.
    pub failed: usize,
    pub invalid: usize,
    pub not_written: usize,
}

impl Summary {
    pub fn new(batch: &Batch, results: &[Result<Rendered, NotWritten>]) -> Summary {
        let mut summary = Summary {
            invalid: batch.invalid().len(),
            ..Summary::default()
        };
        for result in results {
            match result {
                Ok(rendered) => {
                    summary.rendered += 1;
                    summary.failed += usize::from(rendered.outcome.failure.is_some());
                }
                Err(_) => summary.not_written += 1,
            }
        }
        summary
    }
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} rendered ({} failed with !), {} invalid",
            self.rendered, self.failed, self.invalid
        )?;
        if self.not_written > 0 {
            write!(f, ", {} not written", self.not_written)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIGURE_1A: &str = ".........@...o....ooo..xox...";

    fn batch(text: impl AsRef<[u8]>) -> Batch {
        let mut batch = Batch::new(false);
        batch.add("dir/scenarios.txt", text.as_ref());
        batch
    }

    #[test]
    fn fields_are_state_operations_and_name() {
        fn fields(line: &str) -> Option<Fields<'_>> {
            split_line(line).unwrap()
        }
        assert_eq!(fields("   "), None);
        assert_eq!(fields("  # a comment"), None);
        assert_eq!(
            fields(&format!("{FIGURE_1A} -+< first # why")),
            Some(Fields {
                state: FIGURE_1A,
                operations: "-+<",
                name: Some("first")
            })
        );
        assert_eq!(
            fields(FIGURE_1A),
            Some(Fields {
                state: FIGURE_1A,
                operations: "",
                name: None
            })
        );
        assert_eq!(
            fields(&format!("\t{FIGURE_1A}  .  empty\r")),
            Some(Fields {
                state: FIGURE_1A,
                operations: "",
                name: Some("empty")
            })
        );
        // A second field that looks like a name is still the operations.
        assert_eq!(fields(&format!("{FIGURE_1A} v")).unwrap().operations, "v");
        assert_eq!(
            split_line(&format!("{FIGURE_1A} + a b c")),
            Err(LineProblem::ExtraFields {
                first: "b".into(),
                count: 2
            })
        );
    }

    #[test]
    fn names_stay_inside_the_folder() {
        for good in ["a", "fig-1a_v2.final", "-v", "A.b-c_9", &"n".repeat(100)] {
            assert_eq!(check_name(good), Ok(()), "{good}");
        }
        let character = |position, found| NameError::Character { position, found };
        assert_eq!(check_name("../evil"), Err(character(3, '/')));
        assert_eq!(check_name("/etc/x"), Err(character(1, '/')));
        assert_eq!(check_name("a/b"), Err(character(2, '/')));
        assert_eq!(check_name("a\\b"), Err(character(2, '\\')));
        assert_eq!(check_name("a\u{1b}[2J"), Err(character(2, '\u{1b}')));
        assert_eq!(check_name("naïve"), Err(character(3, 'ï')));
        assert_eq!(check_name(""), Err(NameError::Empty));
        assert_eq!(check_name(".."), Err(NameError::LeadingDot));
        assert_eq!(check_name(".hidden"), Err(NameError::LeadingDot));
        assert_eq!(check_name("a..b"), Err(NameError::DotDot));
        assert_eq!(
            check_name(&"n".repeat(101)),
            Err(NameError::TooLong { bytes: 101 })
        );
        assert!(character(1, '/').to_string().contains("path separator"));
    }

    #[test]
    fn default_names_come_from_the_file_stem_and_line() {
        assert_eq!(default_stem("dir/scenarios.txt"), "scenarios");
        assert_eq!(default_stem("-"), "stdin");
        assert_eq!(default_stem("my runs (2).txt"), "my_runs__2_");
        assert_eq!(default_stem("../..hidden..x.txt"), "hidden.x");
        assert_eq!(default_stem("/"), "scenarios");
        let long = default_stem(&"s".repeat(300));
        assert_eq!(check_name(&default_name(&long, 1_000_000_000)), Ok(()));
        assert_eq!(default_name("scenarios", 7), "scenarios-0007");
        assert_eq!(default_name("s", 12345), "s-12345");
    }

    #[test]
    fn lines_become_jobs_or_say_where_and_why_they_are_not() {
        let text = format!(
            "# header\n\n{FIGURE_1A} +\n{FIGURE_1A}x -\n{FIGURE_1A} . Fig\n{FIGURE_1A} | fig\n{FIGURE_1A} ../evil x\n{FIGURE_1A} ../evil\n"
        );
        let batch = batch(&text);
        let jobs: Vec<(usize, &str)> = batch
            .jobs()
            .iter()
            .map(|job| (job.location.line, job.name.as_str()))
            .collect();
        assert_eq!(jobs, [(3, "scenarios-0003"), (5, "Fig")]);
        let problems: Vec<(String, &LineProblem)> = batch
            .invalid()
            .iter()
            .map(|invalid| (invalid.location.to_string(), &invalid.problem))
            .collect();
        assert_eq!(problems.len(), 4);
        assert_eq!(problems[0].0, "dir/scenarios.txt:4");
        assert_eq!(
            problems[0].1,
            &LineProblem::Input(InputError::StateLength { found: 30 })
        );
        assert!(matches!(
            problems[1].1,
            LineProblem::DuplicateName { name, first } if name == "fig" && first.line == 5
        ));
        assert!(matches!(problems[2].1, LineProblem::Input(_)));
        assert!(matches!(
            problems[3].1,
            LineProblem::NameWithoutOperations(_)
        ));
        assert!(problems[3].1.to_string().contains("STATE . NAME"));
    }

    #[test]
    fn a_line_that_is_not_text_is_invalid_alone() {
        let mut text = format!("{FIGURE_1A} + a\n").into_bytes();
        text.extend_from_slice(b"\xff\xfe\n");
        text.extend_from_slice(format!("{FIGURE_1A} - b").as_bytes());
        let batch = batch(&text);
        assert_eq!(batch.jobs().len(), 2);
        assert_eq!(batch.invalid()[0].problem, LineProblem::NotText);
        assert_eq!(batch.invalid()[0].location.line, 2);
    }

    #[test]
    fn a_default_name_cannot_take_one_already_given() {
        let mut batch = Batch::new(false);
        batch.add("a/s.txt", format!("{FIGURE_1A}\n").as_bytes());
        batch.add("b/s.txt", format!("{FIGURE_1A}\n").as_bytes());
        assert_eq!(batch.jobs().len(), 1);
        assert_eq!(
            batch.invalid()[0].to_string(),
            "b/s.txt:1: the output name \"s-0001\" is already used by a/s.txt:1"
        );
    }

    #[test]
    fn settling_is_allowed_only_when_asked_for() {
        let unstable = ".o.......@...o....ooo..xox...";
        assert_eq!(batch(unstable).invalid().len(), 1);
        let mut settled = Batch::new(true);
        settled.add("s", unstable.as_bytes());
        assert_eq!(settled.jobs().len(), 1);
    }

    #[test]
    fn formats_have_names_and_extensions() {
        for format in Format::ALL {
            assert_eq!(format.name().parse::<Format>(), Ok(format));
        }
        assert_eq!(Format::Ascii.extension(), "txt");
        assert_eq!(Format::Smooth.extension(), "gif");
        let unknown = "jpeg".parse::<Format>().unwrap_err();
        assert_eq!(
            unknown.to_string(),
            "unknown format \"jpeg\": expected one of gif, smooth, png, text, ascii"
        );
    }

    #[test]
    fn text_outputs_are_what_the_commands_print() {
        let output = |state, ops, format| {
            let scenario = Scenario::parse(state, ops, false).unwrap();
            let mut bytes = Vec::new();
            write_output(&scenario, format, &RenderOptions::default(), &mut bytes).unwrap();
            String::from_utf8(bytes).unwrap()
        };
        assert_eq!(
            output(FIGURE_1A, "+>|<-v+^+", Format::Text),
            "o........@..o....oox...xo....\n"
        );
        assert_eq!(output(FIGURE_1A, "+^^", Format::Text), "!\n");
        assert_eq!(output(FIGURE_1A, "+^^", Format::Ascii), "!\n");
        assert_eq!(
            output(FIGURE_1A, "+", Format::Ascii),
            "  .  .\n .....\n .....\n .o...\n xo.@.\n ooo..\n*x  .\n"
        );
    }

    #[test]
    fn summaries_count_every_line() {
        let summary = Summary {
            rendered: 9998,
            failed: 3,
            invalid: 2,
            not_written: 0,
        };
        assert_eq!(
            summary.to_string(),
            "9998 rendered (3 failed with !), 2 invalid"
        );
        let summary = Summary {
            not_written: 1,
            ..summary
        };
        assert!(summary.to_string().ends_with(", 1 not written"));
    }
}
