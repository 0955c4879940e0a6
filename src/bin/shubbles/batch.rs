//! The `batch` command: many scenarios, one file each, on all cores.

use std::fs;
use std::io::{self, IsTerminal};

use shubbles::cli::{say, Ending};
use shubbles::puzzle::batch::{self, Batch, Format};
use shubbles::RenderOptions;

use crate::args::BatchArgs;
use crate::exit::PROGRAM;

pub fn run_batch(args: &BatchArgs) -> Ending {
    let options = match RenderOptions::new(args.cell_size) {
        Ok(options) => args.playback.apply(options),
        Err(error) => return Ending::Invalid(error.to_string()),
    };
    if args.playback.given() && !matches!(args.format, Format::Gif | Format::Smooth) {
        return Ending::Invalid(format!(
            "--loop, --no-loop and --hold apply to animations: --format {} writes none",
            args.format.name()
        ));
    }
    // Every input is read before anything is written, so a mistyped file
    // name costs nothing but the message.
    let mut batch = Batch::new(args.settle);
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
    for invalid in batch.invalid() {
        say(&format!(
            "{PROGRAM}: {}: invalid line: {}",
            invalid.location, invalid.problem
        ));
    }

    let bar = progress_bar(batch.jobs().len());
    let render = || batch.render_all(args.format, &options, &args.out_dir, &bar);
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
    bar.0.finish_and_clear();

    for (job, result) in batch.jobs().iter().zip(&results) {
        match result {
            Ok(rendered) => {
                if let (Some((op, failure)), false) = (rendered.outcome.failure, args.quiet) {
                    let why = job.scenario.explain_failure(op, failure);
                    say(&format!("{PROGRAM}: {}: rendered `!`: {why}", job.location));
                }
            }
            Err(error) => say(&format!("{PROGRAM}: {error}")),
        }
    }
    let summary = batch::Summary::new(&batch, &results);
    if !args.quiet {
        say(&format!(
            "batch: {summary}; written to {}",
            args.out_dir.display()
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
