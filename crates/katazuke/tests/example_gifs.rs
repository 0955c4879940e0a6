//! The replays and the record committed in `examples/katazuke/` (and shown
//! in the README and the manual) are what the code makes today, byte for
//! byte. After an intended change:
//! `SHUBBLES_BLESS=1 cargo test -p katazuke --test example_gifs`.

mod common;

use testing::golden::assert_committed;

fn check_bytes(name: &str, made: &[u8]) {
    let path = common::repository("examples/katazuke").join(name);
    assert_committed(&path, made, "-p katazuke --test example_gifs");
}

#[test]
fn the_katazuke_practice_replay_in_the_readme_is_current() {
    use katazuke::{read, write_replay, Policy, ReplayOptions};

    let log = common::PRACTICE_KTZ;
    let mut records = Vec::new();
    let verdict = read(log.as_bytes(), Policy::Strict, |record| {
        records.push(record.clone())
    });
    assert_eq!(verdict.error, None);
    let mut made = Vec::new();
    write_replay(&records, &ReplayOptions::default(), &mut made).expect("encodes");
    check_bytes("practice.gif", &made);
}

#[test]
fn the_katazuke_annotated_replay_in_the_readme_is_current() {
    use katazuke::{annotate, read, write_replay, DrawOptions, Policy, ReplayOptions, LEVEL_NODES};

    let log = common::PRACTICE_KTZ;
    let mut records = Vec::new();
    let verdict = read(log.as_bytes(), Policy::Strict, |record| {
        records.push(record.clone())
    });
    assert_eq!(verdict.error, None);
    // What `katazuke replay practice.ktz --annotate` does: level 2.
    annotate(&mut records, LEVEL_NODES[1], false);
    let options = ReplayOptions {
        draw: DrawOptions {
            comments: true,
            ..DrawOptions::default()
        },
        ..ReplayOptions::default()
    };
    let mut made = Vec::new();
    write_replay(&records, &options, &mut made).expect("encodes");
    check_bytes("annotated.gif", &made);
}

/// The record of the katazuke manual's first `play` command: the computer
/// player against the greedy one under the virtual clock, the same on
/// every machine.
#[test]
fn the_katazuke_played_match_in_the_examples_is_current() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_katazuke"))
        .args([
            "play",
            "--A",
            "builtin",
            "--B",
            "builtin:greedy",
            "--clock",
            "virtual",
            // The record the manual's command writes on an unloaded machine:
            // here only the position budget may end a search, however
            // loaded the machine running a debug build.
            "--think-ms",
            "60000",
            "-q",
        ])
        .output()
        .expect("katazuke runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    check_bytes("builtin-vs-greedy.ktz", &output.stdout);
}
