//! The `replay` command: the replay GIF, from a match log or an event log.

use std::path::Path;

use shubbles::cli::{check_extension, say, write_output, Ending};
use shubbles::katazuke::draw::animation::{write_replay, ReplayOptions};
use shubbles::katazuke::draw::renderer::DrawOptions;
use shubbles::katazuke::engine::annotate::annotate;
use shubbles::katazuke::formats::event_log::read_events;
use shubbles::katazuke::model::event::Record;
use shubbles::katazuke::play::player::LEVEL_NODES;
use shubbles::katazuke::TEMPORARY_PREFIX;

use crate::args::ReplayArgs;
use crate::input::{ending_of, print_diagnostics, read_source, referee};

/// The events to draw: from the event log, or from refereeing the match
/// log (which must be refereed to the end: a log with a problem draws no
/// GIF).
fn records(args: &ReplayArgs) -> Result<Vec<Record>, Ending> {
    if let Some(path) = &args.from_events {
        let source = read_source(path)?;
        return read_events(&source.bytes)
            .map_err(|error| Ending::Invalid(format!("{}: {error}", source.label)));
    }
    let path = args.file.as_deref().unwrap_or(Path::new("-"));
    let source = read_source(path)?;
    let refereed = referee(&source, args.illegal.policy());
    print_diagnostics(&source, &refereed.verdict);
    if refereed.verdict.error.is_some() {
        say("katazuke: no replay written: the log cannot be refereed to its end");
        return Err(ending_of(&refereed.verdict));
    }
    Ok(refereed.records)
}

pub fn replay(args: &ReplayArgs) -> Ending {
    let elsewhere = [
        ("ktz", "`katazuke fmt -o FILE` writes a match log"),
        ("jsonl", "`katazuke events` prints the event log"),
    ];
    if let Err(message) = check_extension(&args.output, "gif", "the replay GIF", &elsewhere) {
        return Ending::Invalid(message);
    }
    let mut records = match records(args) {
        Ok(records) => records,
        Err(ending) => return ending,
    };
    if args.annotate {
        let nodes = LEVEL_NODES[usize::from(args.annotate_level) - 1];
        annotate(&mut records, nodes, args.comments);
    }
    let options = ReplayOptions {
        draw: DrawOptions {
            cell: args.cell,
            hints: args.hints,
            comments: args.comments || args.annotate,
        },
        delay_cs: args.delay,
        game: args.game,
        from_turn: args.from_turn,
    };
    let written = write_output(&args.output, "GIF", TEMPORARY_PREFIX, |out| {
        write_replay(&records, &options, out)?;
        Ok(())
    });
    match written {
        Ok(_) => Ending::Success,
        Err(ending) => ending,
    }
}
