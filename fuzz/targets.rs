//! The fuzz targets: each takes any bytes, feeds them to one of the
//! parsers that read what users give, and checks what must hold whatever
//! the input. A panic anywhere is a finding. Shared by the cargo-fuzz
//! harness (`fuzz_targets/`, nightly, coverage-guided) and the seeded
//! stable run that CI does (`tests/fuzz.rs`).

use shubbles::katazuke::formats::event_log::read_events;
use shubbles::katazuke::log::format::format;
use shubbles::katazuke::log::reader::read;
use shubbles::katazuke::rules::game::Policy;
use shubbles::puzzle::batch::Batch;
use shubbles::puzzle::formats::event_log::{read_event_log, write_event_log};
use shubbles::Scenario;

/// A target: any bytes in; a panic is a finding.
pub type Target = fn(&[u8]);

/// Every target, by the name its seeds and findings go under.
pub const TARGETS: [(&str, Target); 5] = [
    ("state_and_operations", state_and_operations),
    ("event_log", event_log),
    ("batch_lines", batch_lines),
    ("match_log", match_log),
    ("match_events", match_events),
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
    assert_eq!(log.records, log.scenario.events().collect::<Vec<_>>());
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

/// `katazuke check` and `fmt`: refereeing never panics, and the canonical
/// form of a log is its own canonical form.
pub fn match_log(data: &[u8]) {
    for policy in [Policy::Strict, Policy::Pass] {
        let _ = read(data, policy, |_| {});
    }
    if let Ok(formatted) = format(data) {
        let again = format(formatted.as_bytes()).expect("a formatted log formats again");
        assert_eq!(again, formatted);
    }
}

/// `katazuke replay --from-events`: a log is believed only if refereeing
/// its turns makes it again.
pub fn match_events(data: &[u8]) {
    let _ = read_events(data);
}
