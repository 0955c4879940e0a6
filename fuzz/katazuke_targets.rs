//! 片付けマス's fuzz targets: each takes any bytes, feeds them to one of
//! the readers of what users give, and checks what must hold whatever the
//! input. A panic anywhere (a failed check included) is a finding. Shared
//! by the cargo-fuzz harness (`fuzz_targets/`, nightly, coverage-guided)
//! and the seeded stable run that CI does (`crates/katazuke/tests/fuzz.rs`).

use katazuke::{canonical, read, read_events, Entry, Policy, Verdict};

/// A target: any bytes in; a panic is a finding.
pub type Target = fn(&[u8]);

/// Every target, by the name its seeds and findings go under.
pub const TARGETS: [(&str, Target); 2] = [("match_log", match_log), ("match_events", match_events)];

/// Referees `text` under `policy`: the verdict and every event on the way.
fn refereed(text: &[u8], policy: Policy) -> (Verdict, Vec<Entry>) {
    let mut entries = Vec::new();
    let verdict = read(text, policy, |entry| entries.push(entry.clone()));
    (verdict, entries)
}

/// What a verdict says, without where: `fmt` moves lines, so line and
/// column numbers may change, but nothing else may.
fn said(verdict: &Verdict) -> (u8, Vec<String>, Vec<String>, Vec<String>) {
    let codes = |diagnostics: &[_]| -> Vec<String> {
        diagnostics
            .iter()
            .map(|d: &katazuke::Diagnostic| format!("{:?}", d.code))
            .collect()
    };
    (
        verdict.exit_status(),
        codes(verdict.error.as_slice()),
        codes(&verdict.warnings),
        codes(&verdict.illegal),
    )
}

/// `katazuke check`, `fmt` and `events`:
/// - refereeing never panics;
/// - the canonical form of a log is its own canonical form, and refereeing
///   it gives the same verdict and the same events as the log itself;
/// - the events of a valid match, written as `katazuke events` writes them,
///   read back (`replay --from-events`) as exactly the referee's events.
pub fn match_log(data: &[u8]) {
    let mut checked = Vec::new();
    for policy in [Policy::Strict, Policy::Pass] {
        checked.push((policy, refereed(data, policy)));
    }
    if let Ok(formatted) = canonical(data) {
        let again = canonical(formatted.as_bytes()).expect("a formatted log formats again");
        assert_eq!(again, formatted, "fmt is idempotent");
        for (policy, (verdict, entries)) in &checked {
            let (verdict_formatted, records_formatted) = refereed(formatted.as_bytes(), *policy);
            assert_eq!(
                said(&verdict_formatted),
                said(verdict),
                "fmt keeps the verdict"
            );
            assert_eq!(&records_formatted, entries, "fmt keeps the events");
        }
    }
    let (verdict, entries) = &checked[0].1;
    if verdict.error.is_none() {
        let lines: String = entries.iter().map(|entry| entry.to_json() + "\n").collect();
        let reread = read_events(lines.as_bytes()).expect("the referee's events read back");
        assert_eq!(&reread, entries, "events re-read equal the referee's");
    }
}

/// `katazuke replay --from-events`: a log is believed only if refereeing
/// its turns makes it again, so whatever is accepted writes back, record by
/// record, to a log that reads as the same records.
pub fn match_events(data: &[u8]) {
    if let Ok(entries) = read_events(data) {
        let lines: String = entries.iter().map(|entry| entry.to_json() + "\n").collect();
        let reread =
            read_events(lines.as_bytes()).expect("accepted events written back read again");
        assert_eq!(reread, entries);
    }
}
