//! What a finished match leaves beside its record: the event log (§12)
//! and the replay GIF (§13), each written whole or not at all.

use std::path::Path;

use crate::draw::animation::{write_replay, ReplayOptions};
use crate::log::reader::read;
use crate::model::event::Entry;
use crate::rules::game::Policy;
use crate::TEMPORARY_PREFIX;

/// Writes `record`'s events to `RECORD.jsonl` and its replay to
/// `RECORD.gif`, beside `record_path`.
pub fn write_outputs(record_path: &Path, record: &str) -> Result<(), String> {
    let mut entries: Vec<Entry> = Vec::new();
    read(record.as_bytes(), Policy::Strict, |entry| {
        entries.push(entry.clone())
    });
    let events = record_path.with_extension("jsonl");
    reel::write_atomically(&events, TEMPORARY_PREFIX, |out| {
        for entry in &entries {
            writeln!(out, "{}", entry.to_json())?;
        }
        Ok::<(), std::io::Error>(())
    })
    .map_err(|error| format!("cannot write {}: {error}", events.display()))?;
    let gif = record_path.with_extension("gif");
    reel::write_atomically(&gif, TEMPORARY_PREFIX, |out| {
        write_replay(&entries, &ReplayOptions::default(), out)
            .map(|_| ())
            .map_err(std::io::Error::other)
    })
    .map_err(|error| format!("cannot write {}: {error}", gif.display()))
}
