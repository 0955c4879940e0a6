//! Every animated output in each of its formats (GIF, animated PNG,
//! animated WebP), held to show the same pictures for the same time, and
//! the size budget (`--max-size`) as a user meets it.

mod common;

use std::fs;

use common::{shubbles_in, DEMO_OPS, FIGURE_1A};
use testing::timeline::{self, Timeline};

/// Runs `shubbles ARGS -o NAME` in a fresh folder; the file's timeline
/// and its size, after checking that the run succeeded.
fn written(args: &[&str], name: &str) -> (Timeline, u64) {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let mut all = args.to_vec();
    all.extend(["-o", name]);
    let run = shubbles_in(dir.path(), &all, "");
    assert_eq!(run.code, 0, "{all:?}: {}", run.stderr);
    let bytes = fs::read(dir.path().join(name)).expect("the file was written");
    (timeline::of_file(&bytes), bytes.len() as u64)
}

/// The same animation as GIF, APNG (by `.png` and `.apng`) and WebP shows
/// the same pictures for the same time and plays as often; returns the
/// sizes (GIF, APNG, WebP).
fn same_in_every_format(args: &[&str]) -> (u64, u64, u64) {
    let (gif, gif_size) = written(args, "a.gif");
    let (apng, apng_size) = written(args, "a.png");
    let (webp, webp_size) = written(args, "a.webp");
    assert!(gif.moments.len() > 1, "an animation");
    for (other, name) in [(&apng, "APNG"), (&webp, "WebP")] {
        assert_eq!(other.size, gif.size, "{name}");
        assert_eq!(other.plays, gif.plays, "{name}");
        assert_eq!(other.moments.len(), gif.moments.len(), "{name}: pictures");
        for (n, (theirs, ours)) in other.moments.iter().zip(&gif.moments).enumerate() {
            assert!(
                theirs == ours,
                "{name}: picture {n}: {theirs:?} against {ours:?}"
            );
        }
    }
    let (apng_by_name, _) = written(args, "a.apng");
    assert_eq!(apng_by_name, apng);
    (gif_size, apng_size, webp_size)
}

#[test]
fn the_demo_is_the_same_in_every_format_and_smaller_in_apng_and_webp() {
    let (gif, apng, webp) = same_in_every_format(&["demo"]);
    assert!(apng < gif && webp < apng, "{gif} {apng} {webp}");
}

#[test]
fn a_smooth_run_with_loops_and_hold_is_the_same_in_every_format() {
    let args = ["smooth", FIGURE_1A, "+>|", "--loop", "3", "--hold", "2.5"];
    let (gif_size, apng_size, _) = same_in_every_format(&args);
    // Where everything moves the APNG is the smallest: 0.57 of the GIF
    // (0.64 while its rows' filter bytes broke the background's runs).
    assert!(apng_size * 100 <= gif_size * 60, "{apng_size} {gif_size}");
    let (gif, _) = written(&args, "a.gif");
    assert_eq!(gif.plays, 3);
    assert_eq!(gif.moments.last().map(|m| m.duration_ms), Some(2_500));
}

#[test]
fn a_failed_run_with_captions_is_the_same_in_every_format() {
    // A stot pushed into a wall: the run fails at its second operation,
    // and the GIF's last picture marks it.
    let dir = tempfile::tempdir().expect("a scratch folder");
    let args = [FIGURE_1A, "+<<<<", "--caption", "--numbers", "--no-loop"];
    let mut timelines = Vec::new();
    for name in ["a.gif", "a.png", "a.webp"] {
        let mut all = args.to_vec();
        all.extend(["-o", name]);
        let run = shubbles_in(dir.path(), &all, "");
        assert_eq!(run.code, 3, "{}", run.stderr);
        timelines.push(timeline::of_file(
            &fs::read(dir.path().join(name)).expect("written"),
        ));
    }
    assert_eq!(timelines[0].plays, 1);
    assert!(timelines[1] == timelines[0] && timelines[2] == timelines[0]);
}

#[test]
fn the_format_can_be_asked_for_and_names_the_default_file() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let run = shubbles_in(dir.path(), &["demo", "--format", "webp"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.starts_with("wrote shubbles.webp: 26 frames,"),
        "{}",
        run.stderr
    );
    let run = shubbles_in(dir.path(), &["demo", "--format", "apng", "-o", "-"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        timeline::of_file(&run.bytes)
            == timeline::of_file(&fs::read(dir.path().join("shubbles.webp")).expect("written"))
    );
}

#[test]
fn a_name_that_says_another_format_is_refused_and_nothing_is_written() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    for (args, message) in [
        (
            vec!["demo", "--format", "webp", "-o", "a.gif"],
            "shubbles: a.gif: --format webp writes an animated WebP, which belongs in a .webp file\n",
        ),
        (
            vec!["demo", "-o", "a.txt"],
            "shubbles: a.txt: this writes an animation, which belongs in a .gif, .webp, .apng or .png file; `shubbles frames` (or `text`, `ascii`) prints the run as text\n",
        ),
        (
            vec!["demo", "--format", "tiff"],
            "shubbles: invalid value 'tiff' for '--format <FORMAT>': 'tiff' is not an animation format: expected gif, apng or webp (see 'shubbles demo --help')\n",
        ),
    ] {
        let run = shubbles_in(dir.path(), &args, "");
        assert_eq!((run.code, run.stderr.as_str()), (2, message), "{args:?}");
    }
    assert_eq!(fs::read_dir(dir.path()).expect("readable").count(), 0);
}

#[test]
fn under_a_size_budget_the_animation_is_drawn_smaller_until_it_fits() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let budget = 20_000;
    let run = shubbles_in(
        dir.path(),
        &["demo", "--max-size", "20KB", "-o", "a.gif"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let said: Vec<&str> = run.stderr.lines().collect();
    let cell: u32 = said[0]
        .strip_prefix("shubbles: --max-size 20 KB: drawn with ")
        .and_then(|rest| rest.strip_suffix("-pixel cells"))
        .and_then(|cell| cell.parse().ok())
        .unwrap_or_else(|| panic!("{}", run.stderr));
    let bytes = fs::read(dir.path().join("a.gif")).expect("written");
    assert!(bytes.len() <= budget, "{}", bytes.len());
    // The drawing chosen is the one `--cell-size` asks for, and the one a
    // fifth larger (the drawing tried before it) is over the budget.
    let asked = cell.to_string();
    let (same, _) = written(&["demo", "--cell-size", &asked], "b.gif");
    assert!(timeline::of_gif(&bytes) == same);
    assert_eq!(same.duration_ms(), 26_000);
    let larger = [40, 32, 25, 20, 16, 12]
        .windows(2)
        .find(|pair| pair[1] == cell)
        .map(|pair| pair[0].to_string())
        .expect("a size the budget tries");
    let (_, over) = written(&["demo", "--cell-size", &larger], "c.gif");
    assert!(over > budget as u64, "{larger}-pixel cells: {over} bytes");
    // -q: the same file, and nothing said.
    let run = shubbles_in(
        dir.path(),
        &["demo", "--max-size", "20KB", "-q", "-o", "e.gif"],
        "",
    );
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    assert!(fs::read(dir.path().join("e.gif")).expect("written") == bytes);
    // A budget the animation meets as it is changes nothing and says so.
    let run = shubbles_in(
        dir.path(),
        &["demo", "--max-size", "10MB", "-o", "d.gif"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.starts_with("wrote d.gif: 26 frames"),
        "{}",
        run.stderr
    );
}

#[test]
fn a_smooth_animation_shows_fewer_pictures_a_second_before_its_cells_get_tiny() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let args = [
        "smooth",
        FIGURE_1A,
        DEMO_OPS,
        "--max-size",
        "80KB",
        "-o",
        "a.webp",
    ];
    let run = shubbles_in(dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.starts_with(
            "shubbles: --max-size 80 KB: drawn with 20-pixel cells, 10 pictures a second\n"
        ),
        "{}",
        run.stderr
    );
    let bytes = fs::read(dir.path().join("a.webp")).expect("written");
    assert!(bytes.len() <= 80_000);
    // Every picture shows for a whole number of tenths of a second.
    let shown = timeline::of_webp(&bytes);
    assert!(
        shown.moments.iter().all(|m| m.duration_ms % 100 == 0),
        "{shown:?}"
    );
}

#[test]
fn a_budget_nothing_legible_fits_is_refused_in_one_line_and_nothing_is_written() {
    let dir = tempfile::tempdir().expect("a scratch folder");
    let args = [
        "smooth",
        FIGURE_1A,
        DEMO_OPS,
        "--max-size",
        "5KB",
        "-o",
        "a.gif",
    ];
    let run = shubbles_in(dir.path(), &args, "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "shubbles: a.gif: not written: over --max-size 5 KB even drawn with 12-pixel cells, 5 pictures a second\n"
    );
    assert_eq!(fs::read_dir(dir.path()).expect("readable").count(), 0);
    let run = shubbles_in(dir.path(), &["demo", "--max-size", "ten"], "");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("'ten' is not a size"), "{}", run.stderr);
}
