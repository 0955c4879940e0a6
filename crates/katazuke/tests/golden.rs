//! Replay frames of the worked example (KATAZUKE.md §11.4) compared pixel
//! for pixel with the PNGs in `frames/`: the start, a claim, the cancel of
//! a current territory, a team out of time, and the summary.
//! `SHUBBLES_BLESS=1 cargo test -p katazuke --test golden` rewrites them
//! after a change of look has been checked (see `frames/README.md`).

mod common;

use katazuke::{read, DrawOptions, Frame, FrameKind, Frames, Policy, Renderer};
use testing::golden::assert_none_differ;

/// Which frame of the example a golden picture is.
type Which = fn(&Frame) -> bool;

/// Each golden picture: its file, and which frame of the example it is.
const GOLDEN: [(&str, Which); 5] = [
    ("practice_game_1_start.png", |frame| {
        frame.state.game == 1 && matches!(frame.kind, FrameKind::Start)
    }),
    ("practice_game_1_turn_01_claim.png", |frame| {
        frame.state.game == 1 && matches!(&frame.kind, FrameKind::Turn(turn) if turn.number == 1)
    }),
    ("practice_game_1_turn_13_out.png", |frame| {
        frame.state.game == 1 && matches!(&frame.kind, FrameKind::Turn(turn) if turn.number == 13)
    }),
    ("practice_game_2_turn_06_cancel_current.png", |frame| {
        frame.state.game == 2 && matches!(&frame.kind, FrameKind::Turn(turn) if turn.number == 6)
    }),
    ("practice_summary.png", |frame| {
        matches!(frame.kind, FrameKind::Summary(_))
    }),
];

fn frames() -> Vec<Frame> {
    let log = common::PRACTICE_KTZ;
    let mut records = Vec::new();
    let verdict = read(log.as_bytes(), Policy::Strict, |record| {
        records.push(record.clone())
    });
    assert_eq!(verdict.error, None);
    Frames::new(records.into_iter()).collect()
}

#[test]
fn replay_frames_match_the_golden_pngs() {
    let frames = frames();
    let golden = common::golden();
    let renderer = Renderer::new(DrawOptions::default(), 5, 5);
    let mut mismatches = Vec::new();
    for (name, wanted) in GOLDEN {
        let frame = frames
            .iter()
            .find(|frame| wanted(frame))
            .unwrap_or_else(|| panic!("the example has no frame for {name}"));
        let picture = renderer.render(frame).expect("a drawable canvas");
        mismatches.extend(golden.compare(name, &picture, "golden"));
    }
    assert_none_differ(&mismatches, "golden");
}

#[test]
fn the_claim_frame_shows_what_its_caption_says() {
    // Turn 1: A clears b1:2 a2:2 and claims both.
    let frames = frames();
    let FrameKind::Turn(turn) = &frames[1].kind else {
        panic!("frame 1 is turn 1");
    };
    assert_eq!(turn.claimed.len(), 2);
    assert_eq!(frames[1].state.territory(katazuke::Team::A), 3);
}

#[test]
fn every_golden_png_is_listed_in_the_readme() {
    let readme = std::fs::read_to_string(common::golden().frames.join("README.md"))
        .expect("frames/README.md describes the golden frames");
    for (name, _) in GOLDEN {
        assert!(
            readme.contains(name),
            "frames/README.md does not list {name}"
        );
    }
}
