//! `batch-merge`: the manifests of every shard of a run, checked to cover
//! the input exactly once.

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::fs;
use std::path::{Path, PathBuf};

use super::read::read_manifest;
use super::{Header, JobStatus, ManifestError};

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
                    summary.failed += usize::from(entry.outcome == JobStatus::Failed);
                    if let Some(other) = files.insert(file.to_ascii_lowercase(), entry.position) {
                        return Err(coverage(format!(
                            "{}: position {} ({}:{}) lists {file}, which position {other} lists too",
                            path.display(),
                            entry.position,
                            entry.input,
                            entry.line
                        )));
                    }
                    // The folder's own regular file: a link may point anywhere.
                    let size = fs::symlink_metadata(dir.join(file))
                        .ok()
                        .filter(|found| found.is_file())
                        .map(|found| found.len());
                    if size != Some(bytes) {
                        return Err(coverage(format!(
                            "{}: {file} is missing, not a regular file of the folder, or not the \
                             {bytes} bytes its manifest says",
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
