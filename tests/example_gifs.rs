//! The GIFs committed beside the examples (and shown in the README) are what
//! the code makes today, byte for byte. After an intended change in the
//! pictures: `SHUBBLES_BLESS=1 cargo test --test example_gifs`.

mod common;

use std::path::PathBuf;

use shubbles::write_gif;
use shubbles::RenderOptions;
use shubbles::Scenario;

fn check(name: &str, scenario: &Scenario) {
    let mut made = Vec::new();
    write_gif(scenario.frames(), &RenderOptions::default(), &mut made).expect("encodes");
    check_bytes(name, &made);
}

fn check_bytes(name: &str, made: &[u8]) {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("examples")
        .join(name);
    if std::env::var("SHUBBLES_BLESS").is_ok_and(|v| v == "1") {
        std::fs::write(&path, made).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    }
    let committed = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    assert!(
        committed == made,
        "{} is out of date ({} bytes committed, {} made); regenerate it with SHUBBLES_BLESS=1 cargo test --test example_gifs",
        path.display(),
        committed.len(),
        made.len()
    );
}

#[test]
fn the_demo_gif_in_the_readme_is_current() {
    check("demo.gif", &Scenario::figure_1a());
}

#[test]
fn the_release_one_shubble_example_gif_is_current() {
    let scenario = Scenario::parse("@................x.....x..o..", "+-", false).expect("valid");
    check("release_one_shubble.gif", &scenario);
}

#[test]
fn the_solve_answer_gif_in_the_readme_is_current() {
    let answer =
        Scenario::parse(".........@...o....ooo..xox...", "-->--+-+-+-+-+-", false).expect("valid");
    assert_eq!(
        answer.run().state.shubbles().len(),
        0,
        "the answer releases every shubble"
    );
    check("solve_figure_1a.gif", &answer);
}

#[test]
fn the_katazuke_practice_replay_in_the_readme_is_current() {
    use shubbles::katazuke::draw::animation::{write_replay, ReplayOptions};
    use shubbles::katazuke::log::reader::read;
    use shubbles::katazuke::rules::game::Policy;

    let log = common::PRACTICE_KTZ;
    let mut records = Vec::new();
    let verdict = read(log.as_bytes(), Policy::Strict, |record| {
        records.push(record.clone())
    });
    assert_eq!(verdict.error, None);
    let mut made = Vec::new();
    write_replay(&records, &ReplayOptions::default(), &mut made).expect("encodes");
    check_bytes("katazuke/practice.gif", &made);
}

#[test]
fn the_katazuke_annotated_replay_in_the_readme_is_current() {
    use shubbles::katazuke::draw::animation::{write_replay, ReplayOptions};
    use shubbles::katazuke::draw::renderer::DrawOptions;
    use shubbles::katazuke::engine::annotate::annotate;
    use shubbles::katazuke::log::reader::read;
    use shubbles::katazuke::play::player::LEVEL_NODES;
    use shubbles::katazuke::rules::game::Policy;

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
    check_bytes("katazuke/annotated.gif", &made);
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
            "-q",
        ])
        .output()
        .expect("katazuke runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    check_bytes("katazuke/builtin-vs-greedy.ktz", &output.stdout);
}
