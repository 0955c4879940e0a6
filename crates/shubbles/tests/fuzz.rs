//! The box's fuzz targets (`fuzz/box_targets.rs`) run on stable by the
//! seeded mutator of `fuzz/mutator.rs`.

#[path = "../../../fuzz/mutator.rs"]
mod mutator;
#[path = "../../../fuzz/box_targets.rs"]
mod targets;

use targets::TARGETS;

#[test]
fn state_and_operations() {
    mutator::fuzz("state_and_operations", &TARGETS);
}

#[test]
fn event_log() {
    mutator::fuzz("event_log", &TARGETS);
}

#[test]
fn batch_lines() {
    mutator::fuzz("batch_lines", &TARGETS);
}
