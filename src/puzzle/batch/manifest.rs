//! The manifest of a batch run: a JSON Lines file in the output folder
//! (`MANIFEST-K-of-N.jsonl`), a header line, then one line per scenario of
//! the shard: the file written, its size and SHA-256, or why the line was
//! invalid. Lines are appended and flushed as each file lands (after its
//! rename), so a run killed at any moment leaves a manifest that is true
//! for every line it holds; at the end it is rewritten in input order, the
//! same whatever the threads did. A resumed run keeps the lines whose file
//! is still there with its SHA-256 and renders the rest, and the manifests
//! of all shards together say whether the input was covered exactly once.

use std::collections::{BTreeMap, HashMap};
use std::fmt;
use std::fs;
use std::io::{self, BufRead, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use super::shard::Shard;
use super::Format;
use crate::puzzle::TEMPORARY_PREFIX;

/// What a manifest is of: its first line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Header {
    /// The manifest format's version, 1.
    pub manifest: u32,
    /// This shard, from 1.
    pub shard: u32,
    /// Shards in all.
    pub of: u32,
    /// Scenario lines in the whole input (every shard's), valid or not.
    pub scenarios: usize,
    /// What each scenario was written as (`gif`, `text`, ...).
    pub format: String,
}

impl Header {
    /// The header of a run of `shard` over an input of `scenarios` lines.
    pub fn new(shard: Shard, scenarios: usize, format: Format) -> Header {
        Header {
            manifest: 1,
            shard: shard.index(),
            of: shard.count(),
            scenarios,
            format: format.name().to_string(),
        }
    }
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
    /// A line is not a manifest line.
    Line {
        /// The manifest.
        path: PathBuf,
        /// Its line, from 1.
        line: usize,
        /// What is wrong.
        problem: String,
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

/// Reads a manifest: its header and entries. A last line cut short (the
/// run was killed while writing it) is left out, as if never written.
pub fn read_manifest(path: &Path) -> Result<(Header, Vec<Entry>), ManifestError> {
    let io_error = |error| ManifestError::Io(path.to_path_buf(), error);
    let file = fs::File::open(path).map_err(io_error)?;
    let mut lines = io::BufReader::new(file).lines().enumerate().peekable();
    let bad = |line: usize, problem: String| ManifestError::Line {
        path: path.to_path_buf(),
        line,
        problem,
    };
    let header: Header = match lines.next() {
        Some((_, line)) => {
            let line = line.map_err(io_error)?;
            serde_json::from_str(&line)
                .map_err(|e| bad(1, format!("not a manifest header: {e}")))?
        }
        None => return Err(bad(1, "empty: no header".to_string())),
    };
    let mut entries = Vec::new();
    while let Some((index, line)) = lines.next() {
        let line = line.map_err(io_error)?;
        match serde_json::from_str::<Entry>(&line) {
            Ok(entry) => entries.push(entry),
            Err(_) if lines.peek().is_none() => break,
            Err(error) => return Err(bad(index + 1, error.to_string())),
        }
    }
    Ok((header, entries))
}

/// What a resumed run keeps of `path`'s manifest: the entries of files
/// still in `out_dir` with their size and SHA-256. Entries of invalid
/// lines are dropped (they are found again as the input is read). `None`
/// when there is no manifest yet.
pub fn resumable_entries(
    path: &Path,
    expected: &Header,
    out_dir: &Path,
) -> Result<Option<Vec<Entry>>, ManifestError> {
    if !path.exists() {
        return Ok(None);
    }
    let (header, entries) = read_manifest(path)?;
    if header != *expected {
        let problem = format!(
            "it is shard {}/{} of {} {} scenarios, this run shard {}/{} of {} {}",
            header.shard,
            header.of,
            header.scenarios,
            header.format,
            expected.shard,
            expected.of,
            expected.scenarios,
            expected.format
        );
        return Err(ManifestError::OtherRun {
            path: path.to_path_buf(),
            problem,
        });
    }
    let kept = entries
        .into_iter()
        .filter(|entry| match (&entry.file, entry.bytes, &entry.sha256) {
            (Some(file), Some(bytes), Some(sha256)) => fingerprint_of(&out_dir.join(file))
                .is_ok_and(|(size, digest)| size == bytes && digest == *sha256),
            _ => false,
        })
        .collect();
    Ok(Some(kept))
}

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
/// shard of one run, hold every position of its input exactly once, each
/// in its own shard, and that every file they list is in `dir` with its
/// size; and sums them up.
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
    let mut seen: HashMap<usize, u32> = HashMap::new();
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
            if (first.of, first.scenarios, &first.format)
                != (header.of, header.scenarios, &header.format)
            {
                return Err(coverage(format!(
                    "{} is of another run than the other manifests ({} shards of {} {} scenarios, not {} of {} {})",
                    path.display(),
                    header.of,
                    header.scenarios,
                    header.format,
                    first.of,
                    first.scenarios,
                    first.format
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
        let shard = Shard::new(header.shard, header.of)
            .map_err(|e| coverage(format!("{}: {e}", path.display())))?;
        for entry in entries {
            if !shard.contains(entry.position) || entry.position >= header.scenarios {
                return Err(coverage(format!(
                    "{}: position {} ({}:{}) is not shard {shard}'s",
                    path.display(),
                    entry.position,
                    entry.input,
                    entry.line
                )));
            }
            if seen.insert(entry.position, header.shard).is_some() {
                return Err(coverage(format!(
                    "{}: position {} ({}:{}) is listed twice",
                    path.display(),
                    entry.position,
                    entry.input,
                    entry.line
                )));
            }
            match entry.outcome {
                Outcome::Invalid => summary.invalid += 1,
                Outcome::Ok | Outcome::Failed => {
                    summary.rendered += 1;
                    summary.failed += usize::from(entry.outcome == Outcome::Failed);
                    let (Some(file), Some(bytes)) = (&entry.file, entry.bytes) else {
                        return Err(coverage(format!(
                            "{}: position {} was rendered but names no file",
                            path.display(),
                            entry.position
                        )));
                    };
                    let size = fs::metadata(dir.join(file)).map(|m| m.len());
                    if size.as_ref().ok() != Some(&bytes) {
                        return Err(coverage(format!(
                            "{}: {file} is missing or not the {bytes} bytes its manifest says",
                            path.display()
                        )));
                    }
                    summary.bytes += bytes;
                }
            }
        }
        first.get_or_insert(header);
    }
    let Some(header) = first else {
        return Err(coverage("no manifest".to_string()));
    };
    let missing_shards: Vec<String> = (1..=header.of)
        .filter(|k| !shards.contains_key(k))
        .map(|k| k.to_string())
        .collect();
    if !missing_shards.is_empty() {
        return Err(coverage(format!(
            "the manifests of shard {} of {} are missing",
            missing_shards.join(", "),
            header.of
        )));
    }
    if seen.len() != header.scenarios {
        let missing = (0..header.scenarios)
            .find(|p| !seen.contains_key(p))
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
