//! The `batch` command: many scenarios, one file each, on all cores; one
//! shard of them when the input is split over many runs; and
//! `batch-merge`, which checks the shards' manifests together.

use std::fs;
use std::io::{self, IsTerminal};
use std::sync::Mutex;

use edge::{print, say, size_in_words, Ending, LockError, RunLock};
use shubbles::RenderOptions;
use shubbles::{
    manifest_name, merge_manifests, resumable_entries, Header, ManifestError, ManifestLine,
    ManifestWriter,
};
use shubbles::{Batch, BatchProgress, Job, NotWritten, Rendered, Shard, Summary};

use crate::args::{BatchArgs, BatchMergeArgs};
use crate::exit::PROGRAM;
use crate::render::drawing_in_words;

pub fn run_batch(args: &BatchArgs) -> Ending {
    let options = match RenderOptions::new(args.cell_size) {
        Ok(options) => args.playback.apply(options),
        Err(error) => return Ending::Invalid(error.to_string()),
    };
    if (args.playback.given() || args.max_size.is_some()) && args.format.animation().is_none() {
        return Ending::Invalid(format!(
            "--loop, --no-loop, --hold and --max-size apply to animations: --format {} writes none",
            args.format.name()
        ));
    }
    let shard = match &args.shard {
        Some(text) => match Shard::parse(
            text,
            |name| std::env::var(name).ok(),
            "SHUBBLES_SHARD_COUNT",
        ) {
            Ok(shard) => shard,
            Err(error) => return Ending::Invalid(error.to_string()),
        },
        None => Shard::WHOLE,
    };
    // Every input is read before anything is written, so a mistyped file
    // name costs nothing but the message; and every shard of the input
    // sees all of it, so that positions and names are the same in each.
    let mut batch = Batch::new(args.settle);
    batch.set_shard(shard);
    for file in &args.files {
        let label = file.to_string_lossy();
        let read = if label == "-" {
            batch.add(&label, io::stdin().lock())
        } else {
            fs::File::open(file).and_then(|opened| batch.add(&label, io::BufReader::new(opened)))
        };
        if let Err(error) = read {
            return Ending::Error(anyhow::anyhow!("cannot read {label}: {error}"));
        }
    }
    if let Err(error) = fs::create_dir_all(&args.out_dir) {
        return Ending::Error(anyhow::anyhow!(
            "cannot create {}: {error}",
            args.out_dir.display()
        ));
    }
    let manifest_path = match &args.manifest {
        Some(path) => path.clone(),
        None => args.out_dir.join(manifest_name(shard)),
    };
    let header = Header::new(
        shard,
        batch.scenarios(),
        args.format,
        &options,
        args.max_size,
        args.settle,
    );
    // Held to the end: one live run per shard and folder.
    let _lock = match RunLock::acquire(&args.out_dir.join(batch.lock_name())) {
        Ok(lock) => lock,
        Err(error @ LockError::Held { .. }) => return Ending::Invalid(error.to_string()),
        Err(error) => return Ending::Error(error.into()),
    };
    // With the lock held, this shard's temporary files are from a run of
    // it that was killed.
    if let Err(error) = batch.remove_leftovers(&args.out_dir) {
        return Ending::Error(anyhow::anyhow!(
            "cannot clear what a killed run left in {}: {error}",
            args.out_dir.display()
        ));
    }
    let kept = if args.resume {
        match resumable_entries(&manifest_path, &header, &batch, args.format, &args.out_dir) {
            Ok(kept) => kept,
            // Nothing in it can be checked against the input: it is as if
            // there were none.
            Err(error @ ManifestError::Version { .. }) => {
                say(&format!(
                    "{PROGRAM}: {error}: nothing of it is kept, every scenario is rendered again"
                ));
                Vec::new()
            }
            Err(error) => return Ending::Invalid(error.to_string()),
        }
    } else {
        Vec::new()
    };
    let resumed = kept.len();
    let done: std::collections::HashSet<usize> = kept.iter().map(|e| e.position).collect();
    batch.retain(|position| !done.contains(&position));
    let manifest = match ManifestWriter::create(&manifest_path, header, kept) {
        Ok(manifest) => manifest,
        Err(error) => {
            return Ending::Error(anyhow::anyhow!(
                "cannot write {}: {error}",
                manifest_path.display()
            ))
        }
    };
    let mut manifest_errors = Vec::new();
    for invalid in batch.invalid() {
        say(&format!(
            "{PROGRAM}: {}: invalid line: {}",
            invalid.location, invalid.problem
        ));
        if let Err(error) = manifest.append(ManifestLine::invalid(invalid)) {
            manifest_errors.push(error);
        }
    }

    let reporter = Reporter {
        bar: progress_bar(batch.jobs().len(), shard, resumed),
        manifest: &manifest,
        errors: Mutex::new(manifest_errors),
    };
    let render = || {
        let max_size = args.max_size;
        batch.render_all(args.format, &options, max_size, &args.out_dir, &reporter)
    };
    let results = match args.jobs {
        Some(threads) => match rayon::ThreadPoolBuilder::new()
            .num_threads(usize::from(threads))
            .build()
        {
            Ok(pool) => pool.install(render),
            Err(error) => return Ending::Error(error.into()),
        },
        None => render(),
    };
    reporter.bar.finish_and_clear();
    let manifest_errors = reporter
        .errors
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner);
    let finished = manifest.finish();

    for (job, result) in batch.jobs().iter().zip(&results) {
        match result {
            Ok(rendered) => {
                if let (Some(drawing), Some(budget)) = (&rendered.drawn_smaller, args.max_size) {
                    let smooth = args.format.animation().is_some_and(|(smooth, _)| smooth);
                    say(&format!(
                        "{PROGRAM}: {}: --max-size {}: drawn with {}",
                        job.location,
                        size_in_words(budget),
                        drawing_in_words(drawing, smooth)
                    ));
                }
                if let (Some((op, failure)), false) = (rendered.outcome.failure, args.quiet) {
                    let why = job.scenario.explain_failure(op, failure);
                    say(&format!("{PROGRAM}: {}: rendered `!`: {why}", job.location));
                }
            }
            Err(error) => say(&format!("{PROGRAM}: {error}")),
        }
    }
    let summary = Summary::new(&batch, &results);
    if !args.quiet {
        let shard_words = match shard {
            Shard::WHOLE => String::new(),
            shard => format!("shard {shard}: "),
        };
        let resumed_words = match resumed {
            0 => String::new(),
            n => format!(" ({n} kept from before)"),
        };
        say(&format!(
            "batch: {shard_words}{summary}{resumed_words}; written to {}",
            args.out_dir.display()
        ));
    }
    if let Some(error) = manifest_errors.into_iter().next() {
        return Ending::Error(anyhow::anyhow!(
            "cannot write {}: {error}",
            manifest_path.display()
        ));
    }
    if let Err(error) = finished {
        return Ending::Error(anyhow::anyhow!(
            "cannot write {}: {error}",
            manifest_path.display()
        ));
    }
    if summary.invalid > 0 {
        Ending::Status(2)
    } else if summary.not_written > 0 {
        Ending::Status(1)
    } else {
        Ending::Success
    }
}

pub fn merge(args: &BatchMergeArgs) -> Ending {
    match merge_manifests(&args.dir) {
        Ok(summary) => match print(&format!("{summary}\n")) {
            Ok(()) => Ending::Success,
            Err(error) => Ending::Error(error),
        },
        Err(error) => Ending::Invalid(error.to_string()),
    }
}

/// Hears of each job as its file lands: moves the bar and appends the
/// job's manifest line.
struct Reporter<'m> {
    bar: indicatif::ProgressBar,
    manifest: &'m ManifestWriter,
    errors: Mutex<Vec<io::Error>>,
}

impl BatchProgress for Reporter<'_> {
    fn finished(&self, job: &Job, result: &Result<Rendered, NotWritten>) {
        self.bar.inc(1);
        // A file that was not written has no line: a resumed run draws it.
        let Ok(rendered) = result else { return };
        if let Err(error) = self.manifest.append(ManifestLine::rendered(job, rendered)) {
            self.errors
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .push(error);
        }
    }
}

/// The progress bar, drawn only on a terminal: on a pipe or in a log it
/// would be noise. It names the shard, and the scenarios a resumed run
/// kept.
fn progress_bar(total: usize, shard: Shard, resumed: usize) -> indicatif::ProgressBar {
    if !io::stderr().is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total as u64);
    let mut prefix = match shard {
        Shard::WHOLE => String::new(),
        shard => format!("shard {shard} "),
    };
    if resumed > 0 {
        prefix += &format!("(+{resumed} kept) ");
    }
    if let Ok(style) = indicatif::ProgressStyle::with_template(&format!(
        "{prefix}{{bar:40}} {{pos}}/{{len}} scenarios, {{elapsed}} elapsed, about {{eta}} left"
    )) {
        bar.set_style(style);
    }
    bar
}
