//! Nothing left for the lossless optimiser: `gifsicle -O3` saves at most
//! 0.2 % of our GIFs, at one picture a second and smooth, with captions
//! and numbers and without (skipped where gifsicle is not installed,
//! except in CI).

mod common;

use common::{shubbles, DEMO_OPS, FIGURE_1A};
use testing::gifsicle::assert_nothing_left_for_it;

fn gif(args: &[&str]) -> Vec<u8> {
    let mut all = args.to_vec();
    all.extend(["-q", "-o", "-"]);
    let run = shubbles(&all, "");
    assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
    run.bytes
}

#[test]
fn gifsicle_finds_nothing_to_save_in_the_demo_or_the_smooth_demo() {
    assert_nothing_left_for_it("the demo", &gif(&["demo"]));
    assert_nothing_left_for_it("the smooth demo", &gif(&["smooth", FIGURE_1A, DEMO_OPS]));
}

#[test]
fn gifsicle_finds_nothing_to_save_with_captions_and_numbers() {
    let text = ["--caption", "--numbers"];
    for command in ["gif", "smooth"] {
        let mut args = vec![command, FIGURE_1A, DEMO_OPS];
        args.extend(text);
        assert_nothing_left_for_it(&format!("{command} {text:?}"), &gif(&args));
    }
}
