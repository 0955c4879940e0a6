//! Nothing left for the lossless optimiser: `gifsicle -O3` saves at most
//! 0.2 % of a replay GIF (skipped where gifsicle is not installed, except
//! in CI).

mod common;

use common::{katazuke, PRACTICE_KTZ_PATH};
use testing::gifsicle::assert_nothing_left_for_it;

#[test]
fn gifsicle_finds_nothing_to_save_in_a_replay() {
    let run = katazuke(&["replay", PRACTICE_KTZ_PATH, "-o", "-"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_nothing_left_for_it("the practice match's replay", &run.bytes);
}
