//! The replay in each of its formats (GIF, animated PNG, animated WebP),
//! held to show the same pictures for the same time, and the size budget
//! (`--max-size`) as a user meets it.

mod common;

use std::fs;

use common::{katazuke_in, PRACTICE_KTZ_PATH};
use testing::timeline;

#[test]
fn the_replay_is_the_same_in_every_format_and_smaller_in_apng_and_webp() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let mut shown = Vec::new();
    for name in ["r.gif", "r.png", "r.webp"] {
        let args = ["replay", PRACTICE_KTZ_PATH, "--game", "1", "-o", name];
        let run = katazuke_in(dir.path(), &args, "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        let bytes = fs::read(dir.path().join(name)).expect("written");
        shown.push((timeline::of_file(&bytes), bytes.len()));
    }
    let (gif, gif_size) = &shown[0];
    assert!(gif.moments.len() > 10);
    for (other, size) in &shown[1..] {
        assert!(other == gif);
        assert!(size < gif_size, "{size} against the GIF's {gif_size}");
    }
}

#[test]
fn the_default_file_follows_the_format_and_a_contrary_name_is_refused() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let run = katazuke_in(
        dir.path(),
        &["replay", PRACTICE_KTZ_PATH, "--format", "webp"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(dir.path().join("katazuke.webp").exists());
    let args = [
        "replay",
        PRACTICE_KTZ_PATH,
        "--format",
        "apng",
        "-o",
        "x.webp",
    ];
    let run = katazuke_in(dir.path(), &args, "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "katazuke: x.webp: --format apng writes an animated APNG, which belongs in a .apng file\n"
    );
    assert!(!dir.path().join("x.webp").exists());
}

#[test]
fn under_a_size_budget_the_replay_is_drawn_with_smaller_cells_or_refused() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let args = [
        "replay",
        PRACTICE_KTZ_PATH,
        "--max-size",
        "100KB",
        "-o",
        "r.gif",
    ];
    let run = katazuke_in(dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let cell: u32 = run
        .stderr
        .strip_prefix("katazuke: --max-size 100 KB: drawn with ")
        .and_then(|rest| rest.strip_suffix("-pixel cells\n"))
        .and_then(|cell| cell.parse().ok())
        .unwrap_or_else(|| panic!("{}", run.stderr));
    let bytes = fs::read(dir.path().join("r.gif")).expect("written");
    assert!(bytes.len() <= 100_000);
    // The same as asking for that cell.
    let asked = cell.to_string();
    let args = ["replay", PRACTICE_KTZ_PATH, "--cell", &asked, "-o", "s.gif"];
    assert_eq!(katazuke_in(dir.path(), &args, "").code, 0);
    assert_eq!(fs::read(dir.path().join("s.gif")).expect("written"), bytes);

    let args = [
        "replay",
        PRACTICE_KTZ_PATH,
        "--max-size",
        "2KB",
        "-o",
        "t.gif",
    ];
    let run = katazuke_in(dir.path(), &args, "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "katazuke: t.gif: not written: over --max-size 2 KB even drawn with 24-pixel cells\n"
    );
    assert!(!dir.path().join("t.gif").exists());
}

#[test]
fn play_writes_its_replay_in_the_format_its_name_says() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let play = [
        "play",
        "--A",
        "builtin:1",
        "--B",
        "builtin:greedy",
        "--clock",
        "virtual",
        "-q",
        "-o",
        "m.ktz",
        "--gif",
        "m.webp",
    ];
    let run = katazuke_in(dir.path(), &play, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let run = katazuke_in(dir.path(), &["replay", "m.ktz", "-o", "again.webp"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let read = |name: &str| fs::read(dir.path().join(name)).expect("written");
    assert!(read("m.webp").starts_with(b"RIFF"));
    assert!(read("m.webp") == read("again.webp"));
    let refused = katazuke_in(
        dir.path(),
        &["play", "--A", "builtin", "--B", "builtin", "--gif", "m.txt"],
        "",
    );
    assert_eq!(refused.code, 2);
    assert_eq!(
        refused.stderr,
        "katazuke: m.txt: this writes an animation, which belongs in a .gif, .webp, .apng or .png file\n"
    );
}
