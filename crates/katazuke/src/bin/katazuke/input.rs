//! The match a command reads: a file or standard input, refereed, with its
//! problems printed as §10.1 says.

use std::fs::File;
use std::io::{self, Read};
use std::path::Path;

use edge::{Ending, Saying, MAX_INPUT_BYTES};
use katazuke::{read_into, read_unfinished_into, Diagnostic, Entry, Handlers, Policy, Sink, Tally};

/// A match log's bytes and the name messages give it.
pub struct Source {
    /// The file as the user named it (`-` for standard input).
    pub label: String,
    pub bytes: Vec<u8>,
}

/// Reads `path`, or standard input for `-`: at most
/// [`MAX_INPUT_BYTES`], so that an endless input (`/dev/zero`) is refused
/// instead of filling the memory.
pub fn read_source(path: &Path) -> Result<Source, Ending> {
    let label = path.to_string_lossy().into_owned();
    let mut bytes = Vec::new();
    let limit = MAX_INPUT_BYTES as u64 + 1;
    let read = if label == "-" {
        io::stdin().lock().take(limit).read_to_end(&mut bytes)
    } else {
        File::open(path).and_then(|file| file.take(limit).read_to_end(&mut bytes))
    };
    let name = if label == "-" {
        "standard input"
    } else {
        &label
    };
    if let Err(error) = read {
        return Err(Ending::Invalid(format!("cannot read {name}: {error}")));
    }
    if bytes.len() > MAX_INPUT_BYTES {
        return Err(Ending::Invalid(format!(
            "{name} is larger than {} MiB, far more than a match log or its events",
            MAX_INPUT_BYTES >> 20
        )));
    }
    Ok(Source { label, bytes })
}

/// Referees `source` under `policy`, handing each event to `on_record` as
/// the referee makes it, and saying each warning and illegal turn on
/// standard error as it is found, then the problem reading stopped at, if
/// any (§10.1): one line each, in file order. Nothing of the match is
/// kept, so a log of millions of turns takes no more memory than one.
pub fn referee(source: &Source, policy: Policy, on_record: impl FnMut(&Entry)) -> Tally {
    referee_by(read_into, source, policy, on_record)
}

/// [`referee`] for a log that may stop anywhere (§15.2).
pub fn referee_unfinished(source: &Source, policy: Policy, on_record: impl FnMut(&Entry)) -> Tally {
    referee_by(read_unfinished_into, source, policy, on_record)
}

fn referee_by(
    read: fn(&[u8], Policy, &mut dyn Sink) -> Tally,
    source: &Source,
    policy: Policy,
    on_record: impl FnMut(&Entry),
) -> Tally {
    let mut saying = Saying::new();
    let tally = read(
        &source.bytes,
        policy,
        &mut Handlers {
            entries: on_record,
            diagnostics: |diagnostic: &Diagnostic| saying.line(&diagnostic.line_for(&source.label)),
        },
    );
    if let Some(error) = &tally.error {
        saying.line(&error.line_for(&source.label));
    }
    tally
}

/// The exit status of a refereed match, as an ending (its messages have
/// been printed).
pub fn ending_of(tally: &Tally) -> Ending {
    match tally.exit_status() {
        0 => Ending::Success,
        status => Ending::Status(status),
    }
}

/// `G:K` given to `flag`: game 1 or 2, and a turn from 0.
pub fn game_turn(flag: &str, text: &str) -> Result<(u8, u32), Ending> {
    let invalid = || {
        Ending::Invalid(format!(
            "{flag} {text:?}: expected G:K, a game (1 or 2) and a turn from 0, as in 1:9"
        ))
    };
    let (game, turn) = text.split_once(':').ok_or_else(invalid)?;
    let game: u8 = game.parse().map_err(|_| invalid())?;
    let turn: u32 = turn.parse().map_err(|_| invalid())?;
    if !(1..=2).contains(&game) {
        return Err(invalid());
    }
    Ok((game, turn))
}
