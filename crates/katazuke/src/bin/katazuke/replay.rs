//! The `replay` command: the replay GIF, from a match log or an event log.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::mpsc;

use edge::{choose_format, say, size_in_words, write_output, Ending};
use katazuke::{
    read_events_into, read_into, write_replay_streamed, Annotator, CanvasFit, Diagnostic,
    DrawOptions, Entry, Handlers, ReplayOptions, LEVEL_NODES, TEMPORARY_PREFIX,
};
use reel::{first_that_fits, Unfitted};

use crate::args::ReplayArgs;
use crate::input::{ending_of, read_source, referee};

/// Records handed from the referee's thread to the drawing at a time, and
/// batches on their way at most: enough to keep both threads busy, few
/// enough that memory does not grow with the match.
const BATCH: usize = 1024;
const BATCHES_IN_FLIGHT: usize = 4;

pub fn replay(args: &ReplayArgs) -> Ending {
    let elsewhere = [
        ("ktz", "`katazuke fmt -o FILE` writes a match log"),
        ("jsonl", "`katazuke events` prints the event log"),
    ];
    let output = match &args.output {
        Some(path) => path.clone(),
        None => {
            let format = args.animation.format.unwrap_or_default();
            PathBuf::from(format!("katazuke.{}", format.extensions()[0]))
        }
    };
    let format = match choose_format(args.animation.format, &output, &elsewhere) {
        Ok(format) => format,
        Err(message) => return Ending::Invalid(message),
    };
    let options = ReplayOptions {
        draw: DrawOptions {
            cell: args.cell,
            hints: args.hints,
            comments: args.comments || args.annotate,
        },
        delay_cs: args.delay,
        game: args.game,
        from_turn: args.from_turn,
        format,
    };
    let annotator = || {
        let nodes = LEVEL_NODES[usize::from(args.annotate_level) - 1];
        args.annotate.then(|| Annotator::new(nodes, args.comments))
    };
    if let Some(path) = &args.from_events {
        let source = match read_source(path) {
            Ok(source) => source,
            Err(ending) => return ending,
        };
        // A first reading checks the log (one that is refused draws no GIF)
        // and sizes the canvas; the second draws as it reads.
        let mut canvas = CanvasFit::default();
        if let Err(error) = read_events_into(&source.bytes, |entry| canvas.take(&entry)) {
            return Ending::Invalid(format!("{}: {error}", source.label));
        }
        return draw(args, &output, canvas, &options, annotator, |batches| {
            // The same bytes were believed by the first reading: this one
            // finds nothing wrong either.
            let _ = read_events_into(&source.bytes, |entry| batches.send(entry));
        });
    }
    let path = args.file.as_deref().unwrap_or(Path::new("-"));
    let source = match read_source(path) {
        Ok(source) => source,
        Err(ending) => return ending,
    };
    // A first reading checks the log (one with a problem draws no GIF)
    // and sizes the canvas; the second draws as it referees.
    let policy = args.illegal.policy();
    let mut canvas = CanvasFit::default();
    let tally = referee(&source, policy, |entry| canvas.take(entry));
    if tally.error.is_some() {
        say("katazuke: no replay written: the log cannot be refereed to its end");
        return ending_of(&tally);
    }
    draw(args, &output, canvas, &options, annotator, |batches| {
        // Its problems were told by the first reading.
        read_into(
            &source.bytes,
            policy,
            &mut Handlers {
                entries: |entry: &Entry| batches.send(entry.clone()),
                diagnostics: |_: &Diagnostic| {},
            },
        );
    })
}

/// Writes the replay of the records `read` hands to its [`Batches`], drawn
/// as they come: `read` runs on a thread of its own, and the match is
/// never held in memory. Under a size budget it runs again for each
/// smaller drawing until one fits.
fn draw(
    args: &ReplayArgs,
    output: &Path,
    canvas: CanvasFit,
    options: &ReplayOptions,
    annotator: impl Fn() -> Option<Annotator> + Sync,
    read: impl Fn(&mut Batches) + Sync,
) -> Ending {
    let write = |options: &ReplayOptions, out: &mut dyn Write| -> anyhow::Result<usize> {
        let renderer = canvas.renderer(options.draw);
        let mut annotator = annotator();
        Ok(std::thread::scope(|scope| {
            let (sender, receiver) = mpsc::sync_channel(BATCHES_IN_FLIGHT);
            scope.spawn(|| {
                let mut batches = Batches {
                    sender,
                    batch: Vec::with_capacity(BATCH),
                    taken: true,
                };
                read(&mut batches);
                batches.finish();
            });
            let entries = receiver.into_iter().flatten().map(|mut entry| {
                if let Some(annotator) = &mut annotator {
                    annotator.annotate(&mut entry);
                }
                entry
            });
            write_replay_streamed(entries, &renderer, options, out)
        })?)
    };
    let title = options.format.title();
    let written = match args.animation.max_size {
        None => write_output(output, title, TEMPORARY_PREFIX, |out| write(options, out)),
        Some(budget) => {
            let drawings = options.smaller_drawings();
            match first_that_fits(budget, drawings.iter().copied(), write) {
                Ok((chosen, frames, bytes)) => {
                    if chosen != *options {
                        say(&format!(
                            "katazuke: --max-size {}: drawn with {}-pixel cells",
                            size_in_words(budget),
                            chosen.draw.cell
                        ));
                    }
                    write_output(output, title, TEMPORARY_PREFIX, |out| {
                        out.write_all(&bytes)?;
                        Ok(frames)
                    })
                }
                Err(Unfitted::TooLarge) => {
                    let smallest = drawings.last().copied().unwrap_or(*options);
                    return Ending::Invalid(format!(
                        "{}: not written: over --max-size {} even drawn with {}-pixel cells",
                        output.display(),
                        size_in_words(budget),
                        smallest.draw.cell
                    ));
                }
                Err(Unfitted::Failed(error)) => return Ending::Error(error),
            }
        }
    };
    match written {
        Ok(_) => Ending::Success,
        Err(ending) => ending,
    }
}

/// Records sent on to the drawing a batch at a time, until it stops
/// taking them (it failed, or was done).
struct Batches {
    sender: mpsc::SyncSender<Vec<Entry>>,
    batch: Vec<Entry>,
    taken: bool,
}

impl Batches {
    fn send(&mut self, entry: Entry) {
        if !self.taken {
            return;
        }
        self.batch.push(entry);
        if self.batch.len() == BATCH {
            let full = std::mem::replace(&mut self.batch, Vec::with_capacity(BATCH));
            self.taken = self.sender.send(full).is_ok();
        }
    }

    fn finish(self) {
        if self.taken && !self.batch.is_empty() {
            // The drawing may have stopped: then there is nobody to tell.
            let _ = self.sender.send(self.batch);
        }
    }
}
