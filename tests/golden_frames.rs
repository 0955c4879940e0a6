//! Renders chosen frames and compares them pixel for pixel with the PNGs in
//! `frames/`. A change in how pictures look must be looked at and accepted
//! on purpose: `SHUBBLES_BLESS=1 cargo test --test golden_frames` rewrites
//! the PNGs (see `frames/README.md`).

use std::fs::File;
use std::io::BufWriter;
use std::path::PathBuf;

use shubbles::{write_png, Frame, RenderOptions, Renderer, Scenario};
use tiny_skia::Pixmap;

/// File name, state, operations, frame index. Keep `frames/README.md` in
/// step with this list.
const GOLDEN: &[(&str, &str, &str, usize)] = &[
    (
        "figure_1a_frame_00.png",
        ".........@...o....ooo..xox...",
        "+>|<-v+^+",
        0,
    ),
    (
        "figure_1a_frame_01.png",
        ".........@...o....ooo..xox...",
        "+>|<-v+^+",
        1,
    ),
    (
        "figure_1a_frame_06.png",
        ".........@...o....ooo..xox...",
        "+>|<-v+^+",
        6,
    ),
    (
        "figure_1a_frame_07.png",
        ".........@...o....ooo..xox...",
        "+>|<-v+^+",
        7,
    ),
    (
        "shubble_exit_frame_08.png",
        "@................x.....x..o..",
        "+-",
        8,
    ),
    (
        "smole_escape_frame_08.png",
        "@................x.....o..x..",
        "+-",
        8,
    ),
    (
        "stot_into_wall_frame_00.png",
        "@......................x.x...",
        "<",
        0,
    ),
];

fn frames_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("frames")
}

fn frame(state: &str, ops: &str, index: usize) -> Frame {
    let scenario = Scenario::parse(state, ops, false).expect("golden scenarios are valid");
    scenario
        .frames()
        .nth(index)
        .unwrap_or_else(|| panic!("{state} {ops} has no frame {index}"))
}

fn save(pixmap: &Pixmap, path: &PathBuf) {
    let file = File::create(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    write_png(pixmap, BufWriter::new(file)).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
}

#[test]
fn rendered_frames_match_the_golden_pngs() {
    let bless = std::env::var("SHUBBLES_BLESS").is_ok_and(|v| v == "1");
    let renderer = Renderer::new(&RenderOptions::default());
    let mut mismatches = Vec::new();
    for &(name, state, ops, index) in GOLDEN {
        let actual = renderer.render(&frame(state, ops, index));
        let path = frames_dir().join(name);
        if bless {
            save(&actual, &path);
            continue;
        }
        let expected = Pixmap::load_png(&path).unwrap_or_else(|e| {
            panic!(
                "cannot read {}: {e}; to create it run SHUBBLES_BLESS=1 cargo test --test golden_frames",
                path.display()
            )
        });
        if expected == actual {
            continue;
        }
        // Keep what was drawn next to the build so the two can be compared.
        let drawn = PathBuf::from(env!("CARGO_TARGET_TMPDIR")).join(name);
        save(&actual, &drawn);
        let detail = if (expected.width(), expected.height()) != (actual.width(), actual.height()) {
            format!(
                "size {}x{} instead of {}x{}",
                actual.width(),
                actual.height(),
                expected.width(),
                expected.height()
            )
        } else {
            let differing = expected
                .pixels()
                .iter()
                .zip(actual.pixels())
                .filter(|(a, b)| a != b)
                .count();
            format!("{differing} pixels differ")
        };
        mismatches.push(format!("{name}: {detail} (drawn: {})", drawn.display()));
    }
    assert!(
        mismatches.is_empty(),
        "frames differ from the golden PNGs:\n{}\nIf the change is intended, look at the drawn \
         files, then run SHUBBLES_BLESS=1 cargo test --test golden_frames",
        mismatches.join("\n")
    );
}

#[test]
fn every_golden_png_is_listed_in_the_readme() {
    let readme = std::fs::read_to_string(frames_dir().join("README.md"))
        .expect("frames/README.md describes the golden frames");
    for &(name, state, ops, index) in GOLDEN {
        let line = readme
            .lines()
            .find(|line| line.contains(name))
            .unwrap_or_else(|| panic!("frames/README.md does not list {name}"));
        assert!(
            line.contains(&format!(
                "state `{state}`, operations `{ops}`, frame {index}:"
            )),
            "frames/README.md describes {name} with another scenario: {line}"
        );
    }
}
