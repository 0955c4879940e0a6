//! The animations committed beside the examples (and shown in the README) are what
//! the code makes today, byte for byte. After an intended change in the
//! pictures: `SHUBBLES_BLESS=1 cargo test -p shubbles --test example_gifs`.

mod common;

use shubbles::reel::AnimationFormat;
use shubbles::{write_gif, RenderOptions, Scenario};
use testing::golden::assert_committed;

fn check(name: &str, scenario: &Scenario) {
    let mut made = Vec::new();
    write_gif(scenario.frames(), &RenderOptions::default(), &mut made).expect("encodes");
    check_bytes(name, &made);
}

fn check_bytes(name: &str, made: &[u8]) {
    let path = common::repository("examples").join(name);
    assert_committed(&path, made, "-p shubbles --test example_gifs");
}

#[test]
fn the_demo_gif_in_the_readme_is_current() {
    check("demo.gif", &Scenario::figure_1a());
}

#[test]
fn the_demo_webp_beside_it_in_the_readme_is_current() {
    let options = RenderOptions::default().with_format(AnimationFormat::Webp);
    let mut made = Vec::new();
    write_gif(Scenario::figure_1a().frames(), &options, &mut made).expect("encodes");
    check_bytes("demo.webp", &made);
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

/// The hardest unturned start (the table's `stats`, BENCHMARKS.md) and the
/// shortest answer the table gives: 71 operations, which the search finds
/// too (`shubbles solve`, 6.6 s).
#[test]
fn the_hardest_start_gif_in_the_readme_is_current() {
    let answer = Scenario::parse(
        ".ooooooooooooooo@oooooooooxx.",
        "---++v|++-+v>|---<^--+-+-+-+-+-+-+-+-|---<---+-+-+-+-+-+-+-+-+-+-+-+-+-",
        false,
    )
    .expect("valid");
    assert_eq!(answer.operations.len(), 71);
    let run = answer.run();
    assert!(run.failure.is_none() && run.state.shubbles().is_empty());
    check("hardest_start.gif", &answer);
}
