#![no_main]

// The file holds every target; this binary uses one of them.
#[allow(dead_code)]
#[path = "../targets.rs"]
mod targets;

libfuzzer_sys::fuzz_target!(|data: &[u8]| targets::state_and_operations(data));
