//! 片付けマス's fuzz targets (`fuzz/katazuke_targets.rs`) run on stable
//! by the seeded mutator of `fuzz/mutator.rs`.

#[path = "../../../fuzz/mutator.rs"]
mod mutator;
#[path = "../../../fuzz/katazuke_targets.rs"]
mod targets;

use targets::TARGETS;

#[test]
fn match_log() {
    mutator::fuzz("match_log", &TARGETS);
}

#[test]
fn match_events() {
    mutator::fuzz("match_events", &TARGETS);
}
