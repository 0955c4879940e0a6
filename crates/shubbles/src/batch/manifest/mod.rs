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

use std::collections::BTreeMap;
use std::fmt;
use std::fs;
use std::io::{self, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use reel::Loops;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::lines::InvalidLine;
use super::{Format, Job, Rendered};
use crate::draw::options::RenderOptions;
use crate::model::operation::format_operations;
use crate::TEMPORARY_PREFIX;
use edge::Shard;

mod merge;
mod read;

pub use merge::{merge_manifests, MergeSummary};
pub use read::{read_manifest, resumable_entries};

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
    /// writing `format` with `options` within `max_size` (and `--settle`
    /// when `settle`).
    pub fn new(
        shard: Shard,
        scenarios: usize,
        format: Format,
        options: &RenderOptions,
        max_size: Option<u64>,
        settle: bool,
    ) -> Header {
        Header {
            manifest: MANIFEST_VERSION,
            shard: shard.index(),
            of: shard.count(),
            scenarios,
            format: format.name().to_string(),
            options: option_words(format, options, max_size, settle),
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
/// command line gives them: the cell size for pictures, the loops, the hold
/// and the size budget for animations, and `--settle` for every format.
fn option_words(
    format: Format,
    options: &RenderOptions,
    max_size: Option<u64>,
    settle: bool,
) -> String {
    let mut words = Vec::new();
    if format.animation().is_some() || format == Format::Png {
        words.push(format!("--cell-size {}", options.cell_size()));
    }
    if format.animation().is_some() {
        if let Some(budget) = max_size {
            words.push(format!("--max-size {budget}"));
        }
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
pub enum JobStatus {
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
pub struct ManifestLine {
    /// Its position in the whole input, from 0 (see [`Shard`]).
    pub position: usize,
    /// The input file, as named (`-` for standard input).
    pub input: String,
    /// Its line there, from 1.
    pub line: usize,
    /// How it ended up.
    pub outcome: JobStatus,
    /// For a rendered line, what it was rendered from: the SHA-256 of the
    /// line as read (see `scenario_digest`).
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

impl ManifestLine {
    /// The line of `job`, whose file was written as `rendered` says.
    pub fn rendered(job: &Job, rendered: &Rendered) -> ManifestLine {
        ManifestLine {
            position: job.location.position,
            input: job.location.file.to_string(),
            line: job.location.line,
            outcome: match rendered.outcome.failure {
                Some(_) => JobStatus::Failed,
                None => JobStatus::Ok,
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
    pub fn invalid(invalid: &InvalidLine) -> ManifestLine {
        ManifestLine {
            position: invalid.location.position,
            input: invalid.location.file.to_string(),
            line: invalid.location.line,
            outcome: JobStatus::Invalid,
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
    entries: Mutex<BTreeMap<usize, ManifestLine>>,
}

impl ManifestWriter {
    /// Starts the manifest at `path` over whatever was there: the header,
    /// then `kept` (the entries a resumed run keeps).
    pub fn create(
        path: &Path,
        header: Header,
        kept: Vec<ManifestLine>,
    ) -> io::Result<ManifestWriter> {
        let entries: BTreeMap<usize, ManifestLine> =
            kept.into_iter().map(|e| (e.position, e)).collect();
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
    pub fn append(&self, entry: ManifestLine) -> io::Result<()> {
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
    pub fn finish(self) -> io::Result<Vec<ManifestLine>> {
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
