//! The box's fuzz targets: each takes any bytes, feeds them to one of the
//! parsers that read what users give, and checks what must hold whatever
//! the input. A panic anywhere (a failed check included) is a finding.
//! Shared by the cargo-fuzz harness (`fuzz_targets/`, nightly,
//! coverage-guided) and the seeded stable run that CI does
//! (`crates/shubbles/tests/fuzz.rs`).

use shubbles::{read_event_log, write_event_log, Batch, Scenario};

/// A target: any bytes in; a panic is a finding.
pub type Target = fn(&[u8]);

/// Every target, by the name its seeds and findings go under.
pub const TARGETS: [(&str, Target); 3] = [
    ("state_and_operations", state_and_operations),
    ("event_log", event_log),
    ("batch_lines", batch_lines),
];

/// Standard input of `shubbles text`: a state and operations. A scenario
/// that parses runs to the same end through its events as directly.
pub fn state_and_operations(data: &[u8]) {
    let Some((&settle, text)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(text) else {
        return;
    };
    if let Ok(scenario) = Scenario::from_text(text, settle % 2 == 1) {
        let outcome = scenario.run();
        let mut state = scenario.start;
        for record in scenario.events() {
            state.apply(&record.event);
        }
        assert_eq!(state, outcome.state);
    }
}

/// `shubbles gif --from-events`: a log is believed only if it is its own
/// run's log, so whatever is accepted must write back to an accepted log
/// with the same events.
pub fn event_log(data: &[u8]) {
    let Ok(log) = read_event_log(data) else {
        return;
    };
    assert_eq!(log.entries, log.scenario.events().collect::<Vec<_>>());
    let mut written = Vec::new();
    write_event_log(&log.scenario, &mut written).expect("in memory");
    let again = read_event_log(written.as_slice()).expect("a log it wrote reads back");
    assert_eq!(again, log);
}

/// `shubbles batch`: every line is a job, an invalid line or nothing.
pub fn batch_lines(data: &[u8]) {
    let mut batch = Batch::new(false);
    if batch.add("fuzz.txt", data).is_ok() {
        let lines = data.split(|&byte| byte == b'\n').count();
        assert!(batch.jobs().len() + batch.invalid().len() <= lines);
    }
}
