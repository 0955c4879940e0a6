//! The manifest of a batch run: a JSON Lines file in the output folder
//! (`MANIFEST-K-of-N.jsonl`), a header line, then one line per scenario of
//! the shard: the file written, its size and SHA-256, or why the line was
//! invalid. Lines are appended and flushed as each file lands (after its
//! rename), so a run killed at any moment leaves a manifest that is true
//! for every line it holds; at the end it is rewritten in input order, the
//! same whatever the threads did. A resumed run keeps the lines that agree
//! with the input it reads now (the same scenario, named the same, at the
//! same position, made with the same options) and whose file is still there
//! with its SHA-256, and renders the rest; the manifests of all shards
//! together say whether the input was covered exactly once.
//!
//! A manifest is read back like every other input, a bounded line at a
//! time, and every line is checked to be one a run could have written
//! before anything is trusted: a position of the shard, listed once, and a
//! file that is a plain name inside the output folder.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::fs;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use reel::Loops;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::lines::InvalidLine;
use super::names::check_name;
use super::shard::Shard;
use super::{Batch, Format, Job, Rendered};
use crate::puzzle::draw::options::RenderOptions;
use crate::puzzle::model::operation::format_operations;
use crate::puzzle::TEMPORARY_PREFIX;
use crate::text_input::{BadLine, BoundedLines, LineError};

/// The version of the manifests this shubbles writes and reads. Version 2
/// records the options of the run and what each file was made from;
/// version 1 did not, so nothing of a version 1 manifest can be checked
/// against the input and a resumed run renders everything again.
pub const MANIFEST_VERSION: u32 = 2;

/// What a manifest is of: its first line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// The manifest format's version, [`MANIFEST_VERSION`].
    pub manifest: u32,
    /// This shard, from 1.
    pub shard: u32,
    /// Shards in all.
    pub of: u32,
    /// Scenario lines in the whole input (every shard's), valid or not.
    pub scenarios: usize,
    /// What each scenario was written as (`gif`, `text`, ...).
    pub format: String,
    /// The options that change what the files hold, as the command line
    /// gives them (`--cell-size 9 --loop 2 --settle`); empty for none.
    pub options: String,
}

impl Header {
    /// The header of a run of `shard` over an input of `scenarios` lines,
    /// writing `format` with `options` (and `--settle` when `settle`).
    pub fn new(
        shard: Shard,
        scenarios: usize,
        format: Format,
        options: &RenderOptions,
        settle: bool,
    ) -> Header {
        Header {
            manifest: MANIFEST_VERSION,
            shard: shard.index(),
            of: shard.count(),
            scenarios,
            format: format.name().to_string(),
            options: option_words(format, options, settle),
        }
    }

    /// Why a manifest with this header is not one of a run with
    /// `expected`'s, if it is not.
    fn difference(&self, expected: &Header) -> Option<String> {
        if (self.shard, self.of, self.scenarios, &self.format)
            != (
                expected.shard,
                expected.of,
                expected.scenarios,
                &expected.format,
            )
        {
            return Some(format!(
                "it is shard {}/{} of {} {} scenarios, this run shard {}/{} of {} {}",
                self.shard,
                self.of,
                self.scenarios,
                self.format,
                expected.shard,
                expected.of,
                expected.scenarios,
                expected.format
            ));
        }
        (self.options != expected.options).then(|| {
            format!(
                "it was made with {}, this run with {}",
                self.options_in_words(),
                expected.options_in_words()
            )
        })
    }

    fn options_in_words(&self) -> &str {
        match self.options.as_str() {
            "" => "no options",
            options => options,
        }
    }
}

/// The options of a run that change the bytes of `format`'s files, as the
/// command line gives them: the cell size for pictures, the loops and the
/// hold for animations, and `--settle` for every format.
fn option_words(format: Format, options: &RenderOptions, settle: bool) -> String {
    let mut words = Vec::new();
    if matches!(format, Format::Gif | Format::Smooth | Format::Png) {
        words.push(format!("--cell-size {}", options.cell_size()));
    }
    if matches!(format, Format::Gif | Format::Smooth) {
        if let Loops::Times(times) = options.loops() {
            words.push(format!("--loop {times}"));
        }
        if let Some(hold) = options.hold_cs() {
            words.push(format!("--hold {}.{:02}", hold / 100, hold % 100));
        }
    }
    if settle {
        words.push("--settle".to_string());
    }
    words.join(" ")
}

/// How a scenario ended up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Outcome {
    /// Rendered; the run succeeded.
    #[serde(rename = "ok")]
    Ok,
    /// Rendered; the run failed (`!`), and the file shows the failure.
    #[serde(rename = "!")]
    Failed,
    /// The line is not a scenario: nothing written.
    #[serde(rename = "invalid")]
    Invalid,
}

/// One scenario's line of a manifest.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Entry {
    /// Its position in the whole input, from 0 (see [`Shard`]).
    pub position: usize,
    /// The input file, as named (`-` for standard input).
    pub input: String,
    /// Its line there, from 1.
    pub line: usize,
    /// How it ended up.
    pub outcome: Outcome,
    /// For a rendered line, what it was rendered from: the SHA-256 of the
    /// line as read (see [`scenario_digest`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub scenario_sha256: Option<String>,
    /// The file written, in the output folder.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub file: Option<String>,
    /// The GIF's frames (for `gif` and `smooth`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub frames: Option<usize>,
    /// The file's size.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes: Option<u64>,
    /// The file's SHA-256, in hexadecimal.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sha256: Option<String>,
    /// Why an invalid line is invalid.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub problem: Option<String>,
}

impl Entry {
    /// The line of `job`, whose file was written as `rendered` says.
    pub fn rendered(job: &Job, rendered: &Rendered) -> Entry {
        Entry {
            position: job.location.position,
            input: job.location.file.to_string(),
            line: job.location.line,
            outcome: match rendered.outcome.failure {
                Some(_) => Outcome::Failed,
                None => Outcome::Ok,
            },
            scenario_sha256: Some(scenario_digest(job)),
            file: rendered
                .path
                .file_name()
                .map(|name| name.to_string_lossy().into_owned()),
            frames: rendered.frames,
            bytes: Some(rendered.bytes),
            sha256: Some(rendered.sha256.clone()),
            problem: None,
        }
    }

    /// The line of an invalid input line.
    pub fn invalid(invalid: &InvalidLine) -> Entry {
        Entry {
            position: invalid.location.position,
            input: invalid.location.file.to_string(),
            line: invalid.location.line,
            outcome: Outcome::Invalid,
            scenario_sha256: None,
            file: None,
            frames: None,
            bytes: None,
            sha256: None,
            problem: Some(cut_short(invalid.problem.to_string())),
        }
    }
}

/// The most characters of a problem a manifest keeps. A problem may quote
/// its line whole (a field past NAME), which may be nearly 1 MiB: kept
/// whole, the manifest's line would be longer than the longest line it can
/// be read back with.
const MAX_PROBLEM_CHARS: usize = 300;

fn cut_short(problem: String) -> String {
    match problem.char_indices().nth(MAX_PROBLEM_CHARS) {
        Some((end, _)) => format!("{}…", &problem[..end]),
        None => problem,
    }
}

/// What a rendered line is checked against when a run is resumed: the
/// SHA-256 of `STATE OPS NAME` with single spaces, OPS `.` for none and
/// NAME the job's (the default one for a line without a NAME). Two lines
/// with the same digest make the same file.
pub fn scenario_digest(job: &Job) -> String {
    let operations = match format_operations(&job.scenario.operations) {
        none if none.is_empty() => ".".to_string(),
        some => some,
    };
    let line = format!("{} {operations} {}", job.scenario.start, job.name());
    hex_digest(&Sha256::digest(line.as_bytes()))
}

/// The default name of a shard's manifest, in the output folder.
pub fn manifest_name(shard: Shard) -> String {
    format!("MANIFEST-{}-of-{}.jsonl", shard.index(), shard.count())
}

/// SHA-256 in hexadecimal.
pub fn hex_digest(digest: &[u8]) -> String {
    digest.iter().map(|byte| format!("{byte:02x}")).collect()
}

/// A writer that passes bytes on and keeps their count and SHA-256: the
/// manifest's figures for a file, taken as it is written.
pub struct Fingerprinted<W: Write> {
    out: W,
    bytes: u64,
    hash: Sha256,
}

impl<W: Write> Fingerprinted<W> {
    /// Counts and hashes what goes to `out`.
    pub fn new(out: W) -> Fingerprinted<W> {
        Fingerprinted {
            out,
            bytes: 0,
            hash: Sha256::new(),
        }
    }

    /// The bytes written and their SHA-256 in hexadecimal.
    pub fn fingerprint(self) -> (u64, String) {
        (self.bytes, hex_digest(&self.hash.finalize()))
    }
}

impl<W: Write> Write for Fingerprinted<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let written = self.out.write(buf)?;
        self.bytes += written as u64;
        self.hash.update(&buf[..written]);
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// The size and SHA-256 of the file at `path`, if it can be read.
pub fn fingerprint_of(path: &Path) -> io::Result<(u64, String)> {
    let mut file = fs::File::open(path)?;
    let mut sink = Fingerprinted::new(io::sink());
    let mut buffer = vec![0; 1 << 16];
    loop {
        match file.read(&mut buffer)? {
            0 => break,
            n => sink.write_all(&buffer[..n])?,
        }
    }
    Ok(sink.fingerprint())
}

/// A manifest being written: lines are appended as files land.
pub struct ManifestWriter {
    path: PathBuf,
    header: Header,
    out: Mutex<BufWriter<fs::File>>,
    /// Every entry so far, by position, for the rewrite at the end.
    entries: Mutex<BTreeMap<usize, Entry>>,
}

impl ManifestWriter {
    /// Starts the manifest at `path` over whatever was there: the header,
    /// then `kept` (the entries a resumed run keeps).
    pub fn create(path: &Path, header: Header, kept: Vec<Entry>) -> io::Result<ManifestWriter> {
        let entries: BTreeMap<usize, Entry> = kept.into_iter().map(|e| (e.position, e)).collect();
        // Whole or not at all: a kill here leaves the old manifest.
        reel::write_atomically(path, TEMPORARY_PREFIX, |out| -> io::Result<()> {
            write_line(out, &header)?;
            for entry in entries.values() {
                write_line(out, entry)?;
            }
            Ok(())
        })?;
        let file = fs::OpenOptions::new().append(true).open(path)?;
        Ok(ManifestWriter {
            path: path.to_path_buf(),
            header,
            out: Mutex::new(BufWriter::new(file)),
            entries: Mutex::new(entries),
        })
    }

    /// Appends `entry` and flushes it to the file.
    pub fn append(&self, entry: Entry) -> io::Result<()> {
        {
            let mut out = lock(&self.out);
            write_line(&mut *out, &entry)?;
            out.flush()?;
        }
        lock(&self.entries).insert(entry.position, entry);
        Ok(())
    }

    /// Rewrites the manifest in input order, whole or not at all, and
    /// returns its entries.
    pub fn finish(self) -> io::Result<Vec<Entry>> {
        let entries = self
            .entries
            .into_inner()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        drop(self.out);
        reel::write_atomically(&self.path, TEMPORARY_PREFIX, |out| -> io::Result<()> {
            write_line(out, &self.header)?;
            for entry in entries.values() {
                write_line(out, entry)?;
            }
            Ok(())
        })?;
        Ok(entries.into_values().collect())
    }
}

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    mutex
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn write_line(out: &mut dyn Write, value: &impl Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value)?;
    out.write_all(b"\n")
}

/// A manifest that cannot be used.
#[derive(Debug)]
pub enum ManifestError {
    /// It could not be read.
    Io(PathBuf, io::Error),
    /// A line is not a manifest line, or not one a run could have written.
    Line {
        /// The manifest.
        path: PathBuf,
        /// Its line, from 1.
        line: usize,
        /// What is wrong.
        problem: String,
    },
    /// It is of a version of the manifest format other than
    /// [`MANIFEST_VERSION`].
    Version {
        /// The manifest.
        path: PathBuf,
        /// Its version.
        found: u32,
    },
    /// It is the manifest of another run.
    OtherRun {
        /// The manifest.
        path: PathBuf,
        /// What differs.
        problem: String,
    },
    /// The shards' manifests do not cover the input exactly once.
    Coverage(String),
}

impl fmt::Display for ManifestError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ManifestError::Io(path, error) => write!(f, "cannot read {}: {error}", path.display()),
            ManifestError::Line {
                path,
                line,
                problem,
            } => write!(f, "{} line {line}: {problem}", path.display()),
            ManifestError::Version { path, found } => write!(
                f,
                "{} is a version {found} manifest, written by another version of shubbles (this one reads version {MANIFEST_VERSION})",
                path.display()
            ),
            ManifestError::OtherRun { path, problem } => write!(
                f,
                "{} is the manifest of another run ({problem}); remove it or leave out --resume",
                path.display()
            ),
            ManifestError::Coverage(problem) => write!(f, "{problem}"),
        }
    }
}

impl std::error::Error for ManifestError {}

/// The version a header line gives, read before the rest of the header so
/// that a header of another version is named as such.
#[derive(Deserialize)]
struct Version {
    manifest: u32,
}

/// Reads a manifest: its header and entries, each checked to be a line a
/// run of that header could have written (a position of its shard, in the
/// input, listed once; a rendered line with its file, a plain name of the
/// output folder, its size and both SHA-256s). A last line cut short (the
/// run was killed while writing it) is left out, as if never written.
pub fn read_manifest(path: &Path) -> Result<(Header, Vec<Entry>), ManifestError> {
    let io_error = |error| ManifestError::Io(path.to_path_buf(), error);
    let bad = |line: usize, problem: String| ManifestError::Line {
        path: path.to_path_buf(),
        line,
        problem,
    };
    let file = fs::File::open(path).map_err(io_error)?;
    let mut lines = BoundedLines::new(io::BufReader::new(file)).peekable();
    let header = match lines.next() {
        None => return Err(bad(1, "empty: no header".to_string())),
        Some(Err(error)) => return Err(line_error(path, error)),
        Some(Ok((_, text))) => {
            let not_a_header = |error| bad(1, format!("not a manifest header: {error}"));
            let version: Version = serde_json::from_str(&text).map_err(not_a_header)?;
            if version.manifest != MANIFEST_VERSION {
                return Err(ManifestError::Version {
                    path: path.to_path_buf(),
                    found: version.manifest,
                });
            }
            serde_json::from_str::<Header>(&text).map_err(not_a_header)?
        }
    };
    let shard = Shard::new(header.shard, header.of).map_err(|e| bad(1, e.to_string()))?;
    let format: Format = header.format.parse().map_err(|e| bad(1, format!("{e}")))?;
    let mut entries = Vec::new();
    // Each position listed so far, and on which line.
    let mut listed: HashMap<usize, usize> = HashMap::new();
    while let Some(item) = lines.next() {
        let last = lines.peek().is_none();
        let (number, entry) = match item {
            Ok((number, text)) => match serde_json::from_str::<Entry>(&text) {
                Ok(entry) => (number, entry),
                Err(_) if last => break,
                Err(error) => return Err(bad(number, error.to_string())),
            },
            Err(LineError {
                problem: BadLine::NotUtf8 { .. },
                ..
            }) if last => break,
            Err(error) => return Err(line_error(path, error)),
        };
        check_entry(&entry, &header, shard, format).map_err(|problem| bad(number, problem))?;
        if let Some(first) = listed.insert(entry.position, number) {
            return Err(bad(
                number,
                format!(
                    "position {} is listed twice (line {first} too)",
                    entry.position
                ),
            ));
        }
        entries.push(entry);
    }
    Ok((header, entries))
}

/// The error of a manifest line that could not be read as text.
fn line_error(path: &Path, error: LineError) -> ManifestError {
    match error.problem {
        BadLine::Unreadable(error) => ManifestError::Io(path.to_path_buf(), error),
        problem => ManifestError::Line {
            path: path.to_path_buf(),
            line: error.line,
            problem: problem.to_string(),
        },
    }
}

/// Whether `entry` is a line a run of `header` could have written.
fn check_entry(entry: &Entry, header: &Header, shard: Shard, format: Format) -> Result<(), String> {
    if entry.position >= header.scenarios {
        return Err(format!(
            "position {} is past the input's {} scenarios",
            entry.position, header.scenarios
        ));
    }
    if !shard.contains(entry.position) {
        return Err(format!(
            "position {} is not shard {shard}'s",
            entry.position
        ));
    }
    if let Some(file) = &entry.file {
        check_file_name(file, format)?;
    }
    let rendered = entry.outcome != Outcome::Invalid;
    let complete = entry.file.is_some()
        && entry.bytes.is_some()
        && entry.sha256.as_deref().is_some_and(is_digest)
        && entry.scenario_sha256.as_deref().is_some_and(is_digest);
    if rendered && !complete {
        return Err(format!(
            "position {} was rendered but does not give its file, bytes, sha256 and scenario_sha256",
            entry.position
        ));
    }
    if !rendered && entry.file.is_some() {
        return Err(format!(
            "position {} is invalid but names a file",
            entry.position
        ));
    }
    Ok(())
}

/// A file of a manifest is `NAME.EXT`, a plain name inside the output
/// folder: a NAME a scenario line may give and its format's extension.
fn check_file_name(file: &str, format: Format) -> Result<(), String> {
    let extension = format.extension();
    let name = file
        .strip_suffix(extension)
        .and_then(|rest| rest.strip_suffix('.'))
        .ok_or_else(|| {
            format!("the file {file:?} is not a file of the output folder: it does not end in .{extension}")
        })?;
    check_name(name)
        .map_err(|error| format!("the file {file:?} is not a file of the output folder: {error}"))
}

fn is_digest(text: &str) -> bool {
    text.len() == 64
        && text
            .bytes()
            .all(|byte| byte.is_ascii_digit() || (b'a'..=b'f').contains(&byte))
}

/// What a resumed run of `batch` keeps of `path`'s manifest (none when
/// there is no manifest yet): the rendered lines that agree with what
/// `batch` read now at their position (the same scenario and name, so the
/// same file and outcome) and whose file is still in `out_dir` with its
/// size and SHA-256. Each kept line is given its line's place in the input
/// as read now. Lines of invalid input lines are dropped (they are found
/// again as the input is read).
///
/// A manifest of another shard, input length, format or options is
/// refused; so is one with a line no run could have written.
pub fn resumable_entries(
    path: &Path,
    expected: &Header,
    batch: &Batch,
    format: Format,
    out_dir: &Path,
) -> Result<Vec<Entry>, ManifestError> {
    if !path.exists() {
        return Ok(Vec::new());
    }
    let (header, entries) = read_manifest(path)?;
    if let Some(problem) = header.difference(expected) {
        return Err(ManifestError::OtherRun {
            path: path.to_path_buf(),
            problem,
        });
    }
    let jobs: HashMap<usize, &Job> = batch
        .jobs()
        .iter()
        .map(|job| (job.location.position, job))
        .collect();
    let kept = entries
        .into_iter()
        .filter_map(|entry| {
            let job = jobs.get(&entry.position)?;
            let (Some(file), Some(bytes), Some(sha256)) = (&entry.file, entry.bytes, &entry.sha256)
            else {
                return None;
            };
            // Cheapest first: the file is read last.
            let agrees = *file == job.file_name(format)
                && entry.scenario_sha256.as_deref() == Some(scenario_digest(job).as_str())
                && entry.outcome == outcome_of(job)
                && holds(&out_dir.join(file), bytes, sha256);
            agrees.then(|| Entry {
                input: job.location.file.to_string(),
                line: job.location.line,
                ..entry
            })
        })
        .collect();
    Ok(kept)
}

/// Whether `path` is a regular file of `bytes` bytes with this SHA-256. Its
/// size is looked at before it is read: a device or a FIFO in its place
/// (`/dev/zero` never ends) is not read at all.
fn holds(path: &Path, bytes: u64, sha256: &str) -> bool {
    fs::metadata(path).is_ok_and(|file| file.is_file() && file.len() == bytes)
        && fingerprint_of(path).is_ok_and(|(size, digest)| size == bytes && digest == sha256)
}

/// How `job`'s run ends, as its manifest line says it.
fn outcome_of(job: &Job) -> Outcome {
    match job.scenario.run().failure {
        Some(_) => Outcome::Failed,
        None => Outcome::Ok,
    }
}

/// How many missing shards `batch-merge` names at most.
const MISSING_SHARDS_NAMED: usize = 10;

/// What the shards' manifests say of the whole run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MergeSummary {
    /// Shards in all.
    pub shards: u32,
    /// Scenario lines in the input.
    pub scenarios: usize,
    /// Rendered, the runs that failed included.
    pub rendered: usize,
    /// Rendered with `!`.
    pub failed: usize,
    /// Invalid lines.
    pub invalid: usize,
    /// Bytes of every file.
    pub bytes: u64,
}

impl fmt::Display for MergeSummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{} shard{}, {} scenarios, each exactly once: {} rendered ({} failed with !), {} invalid; {} bytes",
            self.shards,
            if self.shards == 1 { "" } else { "s" },
            self.scenarios,
            self.rendered,
            self.failed,
            self.invalid,
            self.bytes
        )
    }
}

/// Checks that the manifests `MANIFEST-*-of-N.jsonl` in `dir` are every
/// shard of one run (one input, format and options), hold every position
/// of its input exactly once, each in its own shard, and that every file
/// they list is a plain name in `dir`, listed once, there with its size;
/// and sums them up.
pub fn merge_manifests(dir: &Path) -> Result<MergeSummary, ManifestError> {
    let listing = fs::read_dir(dir).map_err(|e| ManifestError::Io(dir.to_path_buf(), e))?;
    let mut paths: Vec<PathBuf> = listing
        .filter_map(|entry| entry.ok().map(|entry| entry.path()))
        .filter(|path| {
            path.file_name()
                .and_then(|name| name.to_str())
                .is_some_and(|name| name.starts_with("MANIFEST-") && name.ends_with(".jsonl"))
        })
        .collect();
    paths.sort();
    let coverage = |problem: String| ManifestError::Coverage(problem);
    if paths.is_empty() {
        return Err(coverage(format!(
            "{} has no MANIFEST-K-of-N.jsonl: nothing to merge",
            dir.display()
        )));
    }
    let mut first: Option<Header> = None;
    let mut shards: HashMap<u32, PathBuf> = HashMap::new();
    let mut seen: HashSet<usize> = HashSet::new();
    // Each file listed so far (compared without regard to case, as names
    // are), and at which position.
    let mut files: HashMap<String, usize> = HashMap::new();
    let mut summary = MergeSummary {
        shards: 0,
        scenarios: 0,
        rendered: 0,
        failed: 0,
        invalid: 0,
        bytes: 0,
    };
    for path in &paths {
        let (header, entries) = read_manifest(path)?;
        if let Some(first) = &first {
            if (first.of, first.scenarios, &first.format, &first.options)
                != (header.of, header.scenarios, &header.format, &header.options)
            {
                return Err(coverage(format!(
                    "{} is of another run than the other manifests ({} shards of {} {} scenarios with {}, not {} of {} {} with {})",
                    path.display(),
                    header.of,
                    header.scenarios,
                    header.format,
                    header.options_in_words(),
                    first.of,
                    first.scenarios,
                    first.format,
                    first.options_in_words()
                )));
            }
        }
        if let Some(other) = shards.insert(header.shard, path.clone()) {
            return Err(coverage(format!(
                "shard {} has two manifests: {} and {}",
                header.shard,
                other.display(),
                path.display()
            )));
        }
        // Each entry's position is in the input and of this manifest's
        // shard, and listed once in it; a rendered entry names its file
        // and size, an invalid one no file (`read_manifest`). The shards
        // are told apart above, so no position is in two manifests.
        for entry in entries {
            seen.insert(entry.position);
            match (&entry.file, entry.bytes) {
                (Some(file), Some(bytes)) => {
                    summary.rendered += 1;
                    summary.failed += usize::from(entry.outcome == Outcome::Failed);
                    if let Some(other) = files.insert(file.to_ascii_lowercase(), entry.position) {
                        return Err(coverage(format!(
                            "{}: position {} ({}:{}) lists {file}, which position {other} lists too",
                            path.display(),
                            entry.position,
                            entry.input,
                            entry.line
                        )));
                    }
                    let size = fs::metadata(dir.join(file)).map(|m| m.len());
                    if size.as_ref().ok() != Some(&bytes) {
                        return Err(coverage(format!(
                            "{}: {file} is missing or not the {bytes} bytes its manifest says",
                            path.display()
                        )));
                    }
                    summary.bytes += bytes;
                }
                _ => summary.invalid += 1,
            }
        }
        first.get_or_insert(header);
    }
    let Some(header) = first else {
        return Err(coverage("no manifest".to_string()));
    };
    // Every shard in `shards` is one of 1 to N, so the count is exact; a
    // header may claim billions of shards, so only the first are named.
    let missing_shards = header.of as usize - shards.len();
    if missing_shards > 0 {
        let named: Vec<String> = (1..=header.of)
            .filter(|k| !shards.contains_key(k))
            .take(MISSING_SHARDS_NAMED)
            .map(|k| k.to_string())
            .collect();
        let more = match missing_shards - named.len() {
            0 => String::new(),
            more => format!(" and {more} more"),
        };
        return Err(coverage(format!(
            "the manifests of shard {}{more} of {} are missing",
            named.join(", "),
            header.of
        )));
    }
    if seen.len() != header.scenarios {
        let missing = (0..header.scenarios)
            .find(|p| !seen.contains(p))
            .unwrap_or(0);
        return Err(coverage(format!(
            "{} of {} scenarios are in no manifest (the first at position {missing}, of shard {}/{}): run that shard again with --resume",
            header.scenarios - seen.len(),
            header.scenarios,
            missing % header.of as usize + 1,
            header.of
        )));
    }
    summary.shards = header.of;
    summary.scenarios = header.scenarios;
    Ok(summary)
}
