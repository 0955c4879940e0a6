#![no_main]

// The file holds every target of its game; this binary uses one of them.
#[allow(dead_code)]
#[path = "../katazuke_targets.rs"]
mod targets;

libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::match_events(data));
