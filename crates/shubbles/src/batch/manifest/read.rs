//! A manifest read back and checked: every line one a run could have
//! written, and on resume only the lines that agree with the input now.

use std::collections::HashMap;
use std::fs;
use std::io;
use std::path::Path;

use serde::Deserialize;

use crate::batch::names::check_name;
use crate::batch::{Batch, Format, Job};
use edge::Shard;
use edge::{BadLine, BoundedLines, LineError};

use super::{
    fingerprint_of, scenario_digest, Header, JobStatus, ManifestError, ManifestLine,
    MANIFEST_VERSION,
};

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
pub fn read_manifest(path: &Path) -> Result<(Header, Vec<ManifestLine>), ManifestError> {
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
            Ok((number, text)) => match serde_json::from_str::<ManifestLine>(&text) {
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
fn check_entry(
    entry: &ManifestLine,
    header: &Header,
    shard: Shard,
    format: Format,
) -> Result<(), String> {
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
    let rendered = entry.outcome != JobStatus::Invalid;
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
) -> Result<Vec<ManifestLine>, ManifestError> {
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
                && holds(&out_dir.join(file), bytes, sha256)
                && frames_agree(&out_dir.join(file), format, entry.frames);
            if !agrees {
                // A link in the file's place is removed (not what it points
                // to), so that the line is rendered again as a file of the
                // folder rather than written through the link.
                unlink(&out_dir.join(file));
            }
            agrees.then(|| ManifestLine {
                input: job.location.file.to_string(),
                line: job.location.line,
                ..entry
            })
        })
        .collect();
    Ok(kept)
}

/// Whether a kept line's frame count is the file's: an animation's frames
/// are counted from its blocks (the file was just checked to be the one
/// the line records), and the other formats have none.
fn frames_agree(path: &Path, format: Format, frames: Option<usize>) -> bool {
    match format.animation() {
        Some(_) => {
            frames.is_some()
                && fs::read(path)
                    .ok()
                    .and_then(|bytes| reel::animation_frame_count(&bytes))
                    == frames
        }
        None => frames.is_none(),
    }
}

/// Removes `path` if it is a symbolic link; anything else stays.
fn unlink(path: &Path) {
    if fs::symlink_metadata(path).is_ok_and(|found| found.file_type().is_symlink()) {
        // Failing, the render that follows reports the file it cannot write.
        let _ = fs::remove_file(path);
    }
}

/// Whether `path` is a regular file of `bytes` bytes with this SHA-256. Its
/// size is looked at before it is read: a device or a FIFO in its place
/// (`/dev/zero` never ends) is not read at all.
fn holds(path: &Path, bytes: u64, sha256: &str) -> bool {
    // A link is not kept, even to the right bytes: the file must be the
    // folder's own, not something elsewhere that may change or go.
    fs::symlink_metadata(path).is_ok_and(|file| file.is_file() && file.len() == bytes)
        && fingerprint_of(path).is_ok_and(|(size, digest)| size == bytes && digest == sha256)
}

/// How `job`'s run ends, as its manifest line says it.
fn outcome_of(job: &Job) -> JobStatus {
    match job.scenario.run().failure {
        Some(_) => JobStatus::Failed,
        None => JobStatus::Ok,
    }
}
