//! Renders many scenarios in one run: the library half of `shubbles batch`.
//!
//! A scenario file has one scenario per line, `STATE [OPS [NAME]]`, read by
//! [`Batch::add`] into [`Job`]s or [`InvalidLine`]s that say where and why.
//! Every job gets a file name that cannot leave the output folder and that
//! no other job of the batch uses. [`Batch::render_all`] writes every job on
//! all of rayon's threads; it reports each finished job to a
//! [`BatchProgress`] so that the caller, not the library, decides how to
//! show it.
//!
//! The files: `lines` (a scenario file's lines and their problems),
//! `names` (output file names) and `format` (what a scenario is written
//! as).

use std::collections::HashMap;
use std::fmt;
use std::io::{self, BufRead};
use std::path::{Path, PathBuf};
use std::sync::{mpsc, Arc, Mutex, PoisonError};

use rayon::prelude::*;
use reel::{AtomicFile, EncodeError, Prepared};

mod format;
mod lines;
pub mod manifest;
mod names;

pub use edge::{Shard, ShardError};
pub use format::{Format, UnknownFormat, Written};
pub use lines::{InvalidLine, LineProblem, Location};
pub use names::{check_name, NameError, MAX_NAME_BYTES};

use lines::split_line;
use names::{default_name, default_stem};

use crate::draw::options::RenderOptions;
use crate::model::input_error::InputError;
use crate::progress::NoProgress;
use crate::rules::scenario::{Outcome, Scenario};
use crate::TEMPORARY_PREFIX;
use edge::BoundedLines;
use manifest::Fingerprinted;

/// One scenario to render.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Job {
    /// The line it comes from.
    pub location: Location,
    /// Private so that only [`Batch::add`] names a job: it is checked by
    /// [`check_name`] and unique in the batch.
    name: String,
    /// What to run.
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

/// The scenarios of one or more files, read and named, ready to render.
#[derive(Debug, Default)]
pub struct Batch {
    settle_first: bool,
    jobs: Vec<Job>,
    invalid: Vec<InvalidLine>,
    /// Lower-cased names taken so far, and by which line.
    names: HashMap<String, Location>,
    /// Scenario lines read so far, valid or not.
    scenarios: usize,
    /// What this batch's temporary files' names begin with.
    temporary_prefix: String,
    /// The lines kept as they are read; the others are only counted and
    /// their names taken.
    shard: Shard,
}

impl Batch {
    /// An empty batch; with `settle_first`, unstable starts fall first
    /// instead of being invalid (as `--settle` does).
    pub fn new(settle_first: bool) -> Batch {
        Batch {
            settle_first,
            temporary_prefix: TEMPORARY_PREFIX.to_string(),
            shard: Shard::WHOLE,
            ..Batch::default()
        }
    }

    /// The beginning of the names of the hidden temporary files this batch
    /// writes its files through: one shard's own (`.shubbles-batch-3-of-8-`),
    /// so that what a killed run of the shard left can be told from the
    /// files of other shards still being written in the same folder.
    pub fn temporary_prefix(&self) -> &str {
        &self.temporary_prefix
    }

    /// Keeps only `shard`'s lines of what is added from now on (every line
    /// is still read, checked and counted, and its name taken, so that the
    /// shard's lines have their positions and names of a run of
    /// everything; the others are not kept, which is most of the memory a
    /// large input takes), and names this batch's temporary files as the
    /// shard's.
    pub fn set_shard(&mut self, shard: Shard) {
        self.shard = shard;
        self.temporary_prefix = format!(
            "{TEMPORARY_PREFIX}batch-{}-of-{}-",
            shard.index(),
            shard.count()
        );
    }

    /// The name of the lock file a run of this batch's shard holds in its
    /// output folder (`.shubbles-batch-3-of-8.lock`, see
    /// [`RunLock`](edge::RunLock)): one live run per shard and
    /// folder, so that no run removes the temporary files, or rewrites the
    /// files, of another run still writing them.
    pub fn lock_name(&self) -> String {
        format!(
            "{TEMPORARY_PREFIX}batch-{}-of-{}.lock",
            self.shard.index(),
            self.shard.count()
        )
    }

    /// Removes from `out_dir` the temporary files a killed run of this
    /// shard left (a kill no process can catch, `SIGKILL`, leaves the one
    /// file each thread was writing); returns how many.
    pub fn remove_leftovers(&self, out_dir: &Path) -> io::Result<usize> {
        let mut removed = 0;
        for entry in std::fs::read_dir(out_dir)? {
            let entry = entry?;
            let name = entry.file_name();
            let name = name.to_string_lossy();
            let rest = name.strip_prefix(self.temporary_prefix.as_str());
            // Exactly what reel makes: the prefix, 8 letters or digits, .tmp.
            let ours = rest.is_some_and(|rest| {
                rest.len() == 12
                    && rest.ends_with(".tmp")
                    && rest[..8].bytes().all(|b| b.is_ascii_alphanumeric())
            });
            if ours && entry.file_type()?.is_file() {
                std::fs::remove_file(entry.path())?;
                removed += 1;
            }
        }
        Ok(removed)
    }

    /// Reads every line of `input`, the contents of `file` (`-` for standard
    /// input), one at a time. Names are given in the order lines are added,
    /// so the first line to claim a name keeps it. A line longer than
    /// [`MAX_LINE_BYTES`](edge::MAX_LINE_BYTES) is invalid and
    /// ends the file: what follows it is not read. Fails only if reading
    /// does.
    pub fn add(&mut self, file: &str, input: impl BufRead) -> io::Result<()> {
        let file: Arc<str> = Arc::from(file);
        let stem = default_stem(&file);
        for line in BoundedLines::new(input) {
            let number = match &line {
                Ok((number, _)) => *number,
                Err(error) => error.line,
            };
            let location = Location {
                file: Arc::clone(&file),
                line: number,
                position: self.scenarios,
            };
            let read = match line {
                Ok((_, text)) => self.read_line(&text, &stem, &location),
                Err(error) => Err(LineProblem::of_text(error.problem)?),
            };
            let ours = self.shard.contains(location.position);
            match read {
                Ok(None) => continue,
                Ok(Some(job)) if ours => self.jobs.push(job),
                Err(problem) if ours => self.invalid.push(InvalidLine { location, problem }),
                Ok(Some(_)) | Err(_) => {}
            }
            self.scenarios += 1;
        }
        Ok(())
    }

    fn read_line(
        &mut self,
        line: &str,
        stem: &str,
        location: &Location,
    ) -> Result<Option<Job>, LineProblem> {
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

    /// How many scenario lines the input has, valid or not: the positions
    /// run from 0 to this.
    pub fn scenarios(&self) -> usize {
        self.scenarios
    }

    /// Keeps only the lines (valid and invalid) whose position `keep`
    /// accepts: those a resumed run has still to render.
    /// Names were given over the whole input, so every line keeps the file
    /// name it has in a run of everything.
    pub fn retain(&mut self, keep: impl Fn(usize) -> bool) {
        self.jobs.retain(|job| keep(job.location.position));
        self.invalid.retain(|line| keep(line.location.position));
    }

    /// Writes every job into `out_dir` (which must exist), in parallel on
    /// the current rayon pool, and returns each job's result in input order.
    /// One job's failure never stops the others.
    ///
    /// Each file is drawn on the pool, then handed to one of a few threads
    /// of its own that wait for the disk (the flush before the rename and
    /// the folder's after it), so that the pool goes on drawing meanwhile.
    pub fn render_all(
        &self,
        format: Format,
        options: &RenderOptions,
        max_size: Option<u64>,
        out_dir: &Path,
        progress: &impl BatchProgress,
    ) -> Vec<Result<Rendered, NotWritten>> {
        let results = Mutex::new(Vec::from_iter(self.jobs.iter().map(|_| None)));
        let finish = |index: usize, result: Result<Rendered, NotWritten>| {
            progress.finished(&self.jobs[index], &result);
            lock(&results)[index] = Some(result);
        };
        let (send, receive) = mpsc::sync_channel::<(usize, Drawn)>(AWAITING_COMMIT);
        let receive = Mutex::new(receive);
        std::thread::scope(|scope| {
            let committer = || {
                while let Ok((index, drawn)) = lock(&receive).recv() {
                    finish(index, drawn.commit());
                }
            };
            let started = (0..COMMITTERS)
                .filter(|_| {
                    std::thread::Builder::new()
                        .name("commit".into())
                        .spawn_scoped(scope, committer)
                        .is_ok()
                })
                .count();
            // Without a committer, sending fails and each file is
            // committed where it was drawn.
            let send = (started > 0).then_some(send);
            self.jobs.par_iter().enumerate().for_each_with(
                send,
                |send, (index, job)| match draw_job(
                    job,
                    format,
                    options,
                    max_size,
                    out_dir,
                    &self.temporary_prefix,
                ) {
                    Ok(drawn) => {
                        let unsent = match send {
                            Some(send) => send
                                .send((index, drawn))
                                .err()
                                .map(|mpsc::SendError((_, drawn))| drawn),
                            None => Some(drawn),
                        };
                        if let Some(drawn) = unsent {
                            finish(index, drawn.commit());
                        }
                    }
                    Err(not_written) => finish(index, Err(not_written)),
                },
            );
        });
        results
            .into_inner()
            .unwrap_or_else(PoisonError::into_inner)
            .into_iter()
            .map(|result| result.expect("every job is finished once"))
            .collect()
    }
}

/// Threads that wait for the disk while the pool draws: flushing a file to
/// disk takes about as long as drawing a short scenario.
const COMMITTERS: usize = 4;

/// Files drawn and not yet committed, at most: each holds an open file.
const AWAITING_COMMIT: usize = 64;

fn lock<T>(mutex: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    // A panic in a progress report must not hide the other results.
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}

/// Told about each job as it finishes, from whichever thread finished it.
pub trait BatchProgress: Sync {
    /// `job` is done: written (`Ok`) or not.
    fn finished(&self, job: &Job, result: &Result<Rendered, NotWritten>);
}

impl BatchProgress for NoProgress {
    fn finished(&self, _: &Job, _: &Result<Rendered, NotWritten>) {}
}

/// A job whose file was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rendered {
    /// The file written.
    pub path: PathBuf,
    /// How the run ended (a failed run is rendered too).
    pub outcome: Outcome,
    /// The animation's frames, for the animated formats.
    pub frames: Option<usize>,
    /// The smaller drawing a size budget chose, when the one asked for
    /// was over it.
    pub drawn_smaller: Option<RenderOptions>,
    /// The file's size.
    pub bytes: u64,
    /// The file's SHA-256, in hexadecimal.
    pub sha256: String,
}

/// A job whose file could not be written.
#[derive(Debug)]
pub struct NotWritten {
    /// The job's line.
    pub location: Location,
    /// The file that could not be written.
    pub path: PathBuf,
    /// Why the file could not be written (the disk, the folder, the
    /// encoder).
    pub error: EncodeError,
}

impl fmt::Display for NotWritten {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let (location, path, error) = (&self.location, self.path.display(), &self.error);
        // A budget nothing fits is the request's doing, not the disk's.
        if matches!(error, EncodeError::OverBudget { .. }) {
            write!(f, "{location}: {path}: not written: {error}")?;
        } else {
            write!(f, "{location}: cannot write {path}: {error}")?;
        }
        match std::error::Error::source(&self.error) {
            Some(cause) => write!(f, ": {cause}"),
            None => Ok(()),
        }
    }
}

/// The message names the cause itself (the `error` field keeps it for a
/// program), so there is no source to print twice.
impl std::error::Error for NotWritten {}

/// A job's file, drawn into a hidden temporary file beside its path and
/// waiting to be renamed over it. A leftover temporary file starts with a
/// dot, so it can never be mistaken for (or replace) a job's output.
struct Drawn {
    location: Location,
    rendered: Rendered,
    file: Prepared,
}

impl Drawn {
    fn commit(self) -> Result<Rendered, NotWritten> {
        match self.file.commit() {
            Ok(()) => Ok(self.rendered),
            Err(error) => Err(NotWritten {
                location: self.location,
                path: self.rendered.path,
                error: EncodeError::Io(error),
            }),
        }
    }
}

fn draw_job(
    job: &Job,
    format: Format,
    options: &RenderOptions,
    max_size: Option<u64>,
    out_dir: &Path,
    temporary_prefix: &str,
) -> Result<Drawn, NotWritten> {
    let path = out_dir.join(job.file_name(format));
    match AtomicFile::new(&path, temporary_prefix).prepare(|out| {
        let mut fingerprinted = Fingerprinted::new(out);
        let written = format.write(&job.scenario, options, max_size, &mut fingerprinted)?;
        Ok::<_, EncodeError>((written, fingerprinted.fingerprint()))
    }) {
        Ok(((written, (bytes, sha256)), file)) => Ok(Drawn {
            location: job.location.clone(),
            rendered: Rendered {
                path,
                outcome: written.outcome,
                frames: written.frames,
                drawn_smaller: written.drawn_smaller,
                bytes,
                sha256,
            },
            file,
        }),
        Err(error) => Err(NotWritten {
            location: job.location.clone(),
            path,
            error,
        }),
    }
}

/// Counts for the closing line of a batch.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Files written, failed runs included.
    pub rendered: usize,
    /// Of those, runs that ended with `!`.
    pub failed: usize,
    /// Lines that were not rendered.
    pub invalid: usize,
    /// Jobs whose file could not be written.
    pub not_written: usize,
}

impl Summary {
    /// The counts of `batch`, whose jobs ended with `results`.
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
        batch
            .add("dir/scenarios.txt", text.as_ref())
            .expect("in memory");
        batch
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
            &LineProblem::Input(InputError::StateLength {
                found: 30,
                extra: "x".into()
            })
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
        assert_eq!(
            batch.invalid()[0].problem,
            LineProblem::NotText {
                column: 1,
                byte: 0xFF
            }
        );
        assert_eq!(batch.invalid()[0].location.line, 2);
    }

    #[test]
    fn a_default_name_cannot_take_one_already_given() {
        let mut batch = Batch::new(false);
        batch
            .add("a/s.txt", format!("{FIGURE_1A}\n").as_bytes())
            .expect("in memory");
        batch
            .add("b/s.txt", format!("{FIGURE_1A}\n").as_bytes())
            .expect("in memory");
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
        settled.add("s", unstable.as_bytes()).expect("in memory");
        assert_eq!(settled.jobs().len(), 1);
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
