//! The command line as a user meets it: outputs, exit statuses, messages and
//! files (BOX.md §10).

use std::path::Path;

mod common;

use common::{files_in, shubbles, shubbles_in, DEMO_OPS, DEMO_RESULT, FIGURE_1A};

#[test]
fn text_prints_the_final_state() {
    let run = shubbles(&["text", FIGURE_1A, DEMO_OPS], "");
    assert_eq!(
        (run.code, run.stdout.as_str()),
        (0, "o........@..o....oox...xo....\n")
    );
    assert_eq!(run.stderr, "");
}

#[test]
fn text_reads_standard_input_like_the_original_challenge() {
    let run = shubbles(&["text"], &format!("{FIGURE_1A}\n{DEMO_OPS}\n"));
    assert_eq!((run.code, run.stdout.trim()), (0, DEMO_RESULT));
    let only_state = shubbles(&["text"], &format!("  {FIGURE_1A}  \n"));
    assert_eq!((only_state.code, only_state.stdout.trim()), (0, FIGURE_1A));
}

#[test]
fn a_failed_run_prints_a_bang_exits_3_and_says_why_on_standard_error() {
    let run = shubbles(&["text", FIGURE_1A, "+^^"], "");
    assert_eq!((run.code, run.stdout.as_str()), (3, "!\n"));
    assert!(
        run.stderr.contains("operation 3 `^` (stot up)"),
        "{}",
        run.stderr
    );
    let escape = shubbles(&["ascii", "@................x.....o..x..", "+-"], "");
    assert_eq!((escape.code, escape.stdout.as_str()), (3, "!\n"));
    assert!(escape.stderr.contains("a smole fell through the opening"));
}

#[test]
fn operations_may_start_with_a_dash() {
    let turned = shubbles(&["text", FIGURE_1A, "-+"], "");
    assert_eq!(
        (turned.code, turned.stdout.trim()),
        (0, ".........@..o....ooo...xox...")
    );
    // `--` alone after the state is two counter-clockwise turns...
    let dashes = shubbles(&["text", FIGURE_1A, "--"], "");
    assert_eq!(
        (dashes.code, dashes.stdout.trim()),
        (0, ".oox..oo.@..x....o...........")
    );
    // ...and before the operands it ends the options, as usual.
    let separated = shubbles(&["text", "--", FIGURE_1A, "--"], "");
    assert_eq!(separated.stdout, dashes.stdout);
    let both = shubbles(&["text", FIGURE_1A, "--", "--"], "");
    assert_eq!(both.stdout, dashes.stdout);
}

#[test]
fn ascii_prints_the_final_picture_in_its_orientation() {
    let run = shubbles(&["ascii", FIGURE_1A, "+"], "");
    assert_eq!(run.code, 0);
    assert_eq!(
        run.stdout,
        "  .  .\n .....\n .....\n .o...\n xo.@.\n ooo..\n*x  .\n"
    );
}

#[test]
fn frames_dumps_every_frame_with_headers() {
    let run = shubbles(&["frames", FIGURE_1A, DEMO_OPS], "");
    assert_eq!(run.code, 0);
    let blocks: Vec<&str> = run.stdout.split("\n\n").collect();
    assert_eq!(blocks.len(), 26);
    assert!(run.stdout.starts_with(&format!(
        "# input {FIGURE_1A} {DEMO_OPS}\n# frame 0, 0 degrees\n......\n"
    )));
    assert!(blocks[6].starts_with("# frame 6, 180 degrees, operation 3 | (turned)\n*\nxox...\n"));
    assert!(run.stdout.ends_with(&format!("# result {DEMO_RESULT}\n")));

    let failed = shubbles(&["frames", "@......................x.x...", "<"], "");
    assert_eq!(failed.code, 3);
    // The last frame's header names the operation that failed.
    assert!(failed
        .stdout
        .contains("# frame 0, 0 degrees, operation 1 < refused: a wall\n"));
    let refused = shubbles(&["frames", FIGURE_1A, "+^^"], "");
    assert!(refused
        .stdout
        .contains("# frame 5, 90 degrees, operation 3 ^ refused: a wall\n"));
    assert!(failed.stdout.ends_with("# result !\n"));
}

#[test]
fn bad_input_is_named_exits_2_and_writes_nothing() {
    let cases: [(&[&str], &str, &str); 11] = [
        (
            &[".........@...o....ooo..xox.."],
            "",
            "the state has 28 characters, expected 29",
        ),
        (
            &[".........@...o....ooo..xoX..."],
            "",
            "the state has 'X' at character 26 (cell 25)",
        ),
        (
            &[".........@...o....ooo..xoo..."],
            "",
            "the state has 1 smole (cell 23), expected exactly 2",
        ),
        (
            &[".........@...o....ooo..xox@.."],
            "",
            "the state has 2 stots (cells 9 and 26), expected exactly 1",
        ),
        (
            &[".o.......@...o....ooo..xox..."],
            "",
            "the creature in cell 1 would fall",
        ),
        (
            &[".........@...o....ooo..xox..o"],
            "",
            "cell 28 holds a shubble",
        ),
        (
            &[FIGURE_1A, "+>a"],
            "",
            "the operations have 'a' at character 3",
        ),
        (
            &[],
            &format!("{FIGURE_1A} + extra"),
            "unexpected extra input \"extra\"",
        ),
        (&[], "", "no input"),
        (&[], "   \n", "no input"),
        (
            &[FIGURE_1A, "+", "extra"],
            "",
            "unexpected argument 'extra'",
        ),
    ];
    for (operands, stdin, message) in cases {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let mut args = vec!["gif", "-o", "out.gif"];
        args.extend_from_slice(operands);
        let run = shubbles_in(dir.path(), &args, stdin);
        assert_eq!(run.code, 2, "{operands:?}: {}", run.stderr);
        assert!(run.stderr.contains(message), "{operands:?}: {}", run.stderr);
        if !message.starts_with("unexpected argument") {
            assert_eq!(run.stderr.lines().count(), 1, "one line: {}", run.stderr);
        }
        assert!(files_in(dir.path()).is_empty(), "{operands:?} left a file");
        assert_eq!(run.stdout, "");
    }
}

#[test]
fn settle_lets_an_unstable_start_fall_first() {
    let floating = ".o.......@...o....ooo..xox...";
    assert_eq!(shubbles(&["text", floating], "").code, 2);
    let settled = shubbles(&["text", "--settle", floating], "");
    assert_eq!(
        (settled.code, settled.stdout.trim()),
        (0, ".........@..oo....ooo..xox...")
    );
    let frames = shubbles(&["frames", "--settle", floating], "");
    assert!(frames
        .stdout
        .contains("# frame 1, 0 degrees, settling the start (fell)"));
    // A shubble over the opening leaves while the start settles.
    let over = shubbles(&["text", "--settle", ".........@...o....ooo..xox..o"], "");
    assert_eq!((over.code, over.stdout.trim()), (0, FIGURE_1A));
}

#[test]
fn gif_writes_the_named_file_and_prints_nothing_on_success() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let run = shubbles_in(dir.path(), &[FIGURE_1A, DEMO_OPS, "-o", "fig.gif"], "");
    assert_eq!((run.code, run.stdout.as_str()), (0, ""));
    assert_eq!(files_in(dir.path()), ["fig.gif"]);
    let bytes = std::fs::read(dir.path().join("fig.gif")).expect("the GIF");
    assert!(bytes.starts_with(b"GIF89a"));
}

#[test]
fn gif_without_a_command_reads_standard_input_and_writes_shubbles_gif() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let run = shubbles_in(dir.path(), &[], &format!("{FIGURE_1A} {DEMO_OPS}"));
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(files_in(dir.path()), ["shubbles.gif"]);
}

#[test]
fn gif_to_standard_output_with_dash() {
    let run = shubbles(&["gif", FIGURE_1A, "+", "-o", "-"], "");
    assert_eq!(run.code, 0);
    assert!(run.bytes.starts_with(b"GIF89a"));
    // A failed run still writes the GIF; the `!` goes to standard error so
    // the GIF stays clean.
    let failed = shubbles(&["gif", FIGURE_1A, "+^^", "-o", "-"], "");
    assert_eq!(failed.code, 3);
    assert!(failed.bytes.starts_with(b"GIF89a"));
    assert!(failed.stderr.starts_with("!\n"));
}

#[test]
fn a_failed_run_still_writes_its_gif_and_prints_a_bang() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let run = shubbles_in(dir.path(), &[FIGURE_1A, "+^^", "-o", "fail.gif"], "");
    assert_eq!((run.code, run.stdout.as_str()), (3, "!\n"));
    assert_eq!(files_in(dir.path()), ["fail.gif"]);
}

#[test]
fn an_unwritable_output_exits_1_and_leaves_nothing() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let run = shubbles_in(dir.path(), &[FIGURE_1A, "-o", "no/such/folder/x.gif"], "");
    assert_eq!(run.code, 1);
    assert!(run.stderr.contains("no/such/folder"), "{}", run.stderr);
    assert!(files_in(dir.path()).is_empty());
}

#[test]
fn an_unreasonable_cell_size_is_a_usage_error() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let run = shubbles_in(dir.path(), &["demo", "--cell-size", "0"], "");
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("cell size"), "{}", run.stderr);
    assert!(files_in(dir.path()).is_empty());
}

#[test]
fn demo_needs_no_input() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let run = shubbles_in(dir.path(), &["demo"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(files_in(dir.path()), ["shubbles.gif"]);
    let named = shubbles_in(dir.path(), &["demo", "-o", "demo.gif"], "");
    assert_eq!(named.code, 0);
    assert_eq!(files_in(dir.path()), ["demo.gif", "shubbles.gif"]);
}

#[test]
fn help_shows_an_example_for_every_command() {
    for command in [
        "gif", "smooth", "text", "ascii", "frames", "png", "events", "solve", "demo",
    ] {
        let run = shubbles(&[command, "--help"], "");
        assert_eq!(run.code, 0);
        assert!(run.stdout.contains("Examples:"), "{command}");
        assert!(
            run.stdout.contains(&format!("shubbles {command}")),
            "{command}"
        );
    }
    let top = shubbles(&["--help"], "");
    assert!(top
        .stdout
        .contains("Exit status: 0 success, 3 the run failed"));
    let version = shubbles(&["--version"], "");
    assert_eq!(
        version.stdout.trim(),
        format!("shubbles {}", env!("CARGO_PKG_VERSION"))
    );
}

#[test]
fn a_gif_on_standard_output_is_the_whole_file_and_nothing_else() {
    let run = shubbles(&["demo", "-o", "-"], "");
    assert_eq!(run.code, 0);
    assert!(run.bytes.starts_with(b"GIF89a"));
    assert_eq!(
        run.bytes.last(),
        Some(&b';'),
        "the GIF ends with its trailer"
    );
}

/// Width, height and every frame's delay of a GIF.
fn gif_info(bytes: &[u8]) -> (u16, u16, Vec<u16>) {
    let decoded = shubbles::reel::decode_gif(bytes).expect("a readable GIF");
    let delays = decoded.frames.iter().map(|frame| frame.delay_cs).collect();
    (decoded.width as u16, decoded.height as u16, delays)
}

#[test]
fn smooth_writes_shubbles_smooth_gif_at_20_pictures_a_second() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let run = shubbles_in(dir.path(), &["smooth", FIGURE_1A, "+>"], "");
    assert_eq!((run.code, run.stdout.as_str()), (0, ""), "{}", run.stderr);
    assert_eq!(files_in(dir.path()), ["shubbles-smooth.gif"]);
    let bytes = std::fs::read(dir.path().join("shubbles-smooth.gif")).expect("the GIF");
    let (width, height, delays) = gif_info(&bytes);
    // Pictures of 5 hundredths of a second; a rest of equal pictures is one
    // frame shown for all of them: a second at the start, two at the end.
    assert!(delays.iter().all(|&delay| delay % 5 == 0), "{delays:?}");
    assert_eq!((delays[0], delays[delays.len() - 1]), (100, 200));
    // At least a second per operation: a few seconds in all.
    let seconds = f64::from(delays.iter().map(|&d| u32::from(d)).sum::<u32>()) / 100.0;
    assert!((4.0..=10.0).contains(&seconds), "{seconds} s");

    // The canvas fits the box at any angle: larger than the 1-second GIF's.
    let still = shubbles(&["gif", FIGURE_1A, "+>", "-o", "-"], "");
    let (still_width, _, still_delays) = gif_info(&still.bytes);
    assert_eq!(width, height);
    assert!(width > still_width);
    assert!(still_delays.len() < delays.len());
}

#[test]
fn smooth_keeps_the_exit_statuses_and_outputs_of_gif() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let failed = shubbles_in(dir.path(), &["smooth", FIGURE_1A, "+^^", "-o", "f.gif"], "");
    assert_eq!((failed.code, failed.stdout.as_str()), (3, "!\n"));
    assert_eq!(files_in(dir.path()), ["f.gif"]);

    let invalid = shubbles_in(dir.path(), &["smooth", "@@", "+"], "");
    assert_eq!(invalid.code, 2);
    assert_eq!(files_in(dir.path()), ["f.gif"]);

    let piped = shubbles(&["smooth", "-o", "-"], &format!("{FIGURE_1A} -"));
    assert_eq!(piped.code, 0, "{}", piped.stderr);
    assert!(piped.bytes.starts_with(b"GIF89a"));
    assert_eq!(piped.bytes.last(), Some(&b';'));

    let unwritable = shubbles_in(dir.path(), &["smooth", FIGURE_1A, "-o", "no/dir/x.gif"], "");
    assert_eq!(unwritable.code, 1);
}

#[test]
fn caption_and_numbers_are_accepted_everywhere_a_gif_is_written() {
    let plain = gif_info(&shubbles(&["gif", FIGURE_1A, "+", "-o", "-"], "").bytes);
    for args in [
        vec!["gif", FIGURE_1A, "+", "--caption", "-o", "-"],
        vec![
            "smooth",
            FIGURE_1A,
            "+",
            "--caption",
            "--numbers",
            "-o",
            "-",
        ],
        vec!["demo", "--caption", "--numbers", "-o", "-"],
        vec![FIGURE_1A, "+", "--numbers", "-o", "-"],
    ] {
        let run = shubbles(&args, "");
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        let (width, height, _) = gif_info(&run.bytes);
        if args.contains(&"--caption") {
            // The caption is a strip under the box.
            assert!(height > width, "{args:?}");
        } else {
            assert_eq!((width, height), (plain.0, plain.1), "{args:?}");
        }
    }
}

#[test]
fn png_draws_the_final_state_and_marks_a_failure() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let run = shubbles_in(dir.path(), &["png", FIGURE_1A, DEMO_OPS], "");
    assert_eq!((run.code, run.stdout.as_str()), (0, ""));
    let bytes = std::fs::read(dir.path().join("shubbles.png")).expect("the PNG");
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
    let failed = shubbles_in(
        dir.path(),
        &["png", FIGURE_1A, "+^^", "-o", "failed.png"],
        "",
    );
    assert_eq!((failed.code, failed.stdout.as_str()), (3, "!\n"));
    let marked = std::fs::read(dir.path().join("failed.png")).expect("the PNG");
    assert_ne!(marked, bytes);
    let invalid = shubbles_in(dir.path(), &["png", "nonsense", "-o", "bad.png"], "");
    assert_eq!(invalid.code, 2);
    assert_eq!(files_in(dir.path()), ["failed.png", "shubbles.png"]);
}

#[test]
fn events_are_json_lines_that_redraw_the_same_pictures() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let log = shubbles_in(dir.path(), &["events", FIGURE_1A, DEMO_OPS], "");
    assert_eq!(log.code, 0);
    let lines: Vec<&str> = log.stdout.lines().collect();
    assert!(lines[0].starts_with(r#"{"kind":"start","state":".........@...o....ooo..xox...""#));
    assert!(lines[1..].iter().all(|l| l.starts_with(r#"{"frame":"#)));
    std::fs::write(dir.path().join("run.jsonl"), &log.stdout).expect("writable");

    for (command, file) in [("gif", "x.gif"), ("png", "x.png"), ("smooth", "s.gif")] {
        let direct = shubbles_in(dir.path(), &[command, FIGURE_1A, DEMO_OPS, "-o", file], "");
        let logged = shubbles_in(
            dir.path(),
            &[
                command,
                "--from-events",
                "run.jsonl",
                "-o",
                &format!("log-{file}"),
            ],
            "",
        );
        assert_eq!((direct.code, logged.code), (0, 0), "{}", logged.stderr);
        let read = |name: &str| std::fs::read(dir.path().join(name)).expect("written");
        assert!(
            read(file) == read(&format!("log-{file}")),
            "{command} differs"
        );
    }

    let failed = shubbles_in(dir.path(), &["events", FIGURE_1A, "+^^"], "");
    assert_eq!(failed.code, 3);
    assert!(
        failed.stdout.trim_end().ends_with(
            r#""kind":"failed","orientation":90,"cells":[4],"reason":"wall","direction":"up"}"#
        ),
        "{}",
        failed.stdout
    );

    std::fs::write(dir.path().join("bad.jsonl"), "{\"kind\":\"fell\"}\n").expect("writable");
    let bad = shubbles_in(
        dir.path(),
        &["gif", "--from-events", "bad.jsonl", "-o", "bad.gif"],
        "",
    );
    assert_eq!(bad.code, 2);
    assert!(
        bad.stderr.contains("bad.jsonl: event log line 1"),
        "{}",
        bad.stderr
    );
    assert!(!dir.path().join("bad.gif").exists());
    let both = shubbles_in(
        dir.path(),
        &["gif", FIGURE_1A, "--from-events", "run.jsonl"],
        "",
    );
    assert_eq!(both.code, 2, "a log and a state together are a usage error");
}

#[test]
fn solve_prints_a_shortest_answer_that_replays() {
    let run = shubbles(&["solve", "...................x...x@o..."], "");
    assert_eq!((run.code, run.stdout.as_str()), (0, "+-\n"));
    assert!(
        run.stderr.contains("solved in 2 operations"),
        "{}",
        run.stderr
    );
    let replayed = shubbles(&["text", "...................x...x@o...", "+-"], "");
    assert_eq!(replayed.stdout.trim(), ".......................x@..x.");

    let nothing_to_do = shubbles(&["solve"], "...................x...x@....\n");
    assert_eq!(
        (nothing_to_do.code, nothing_to_do.stdout.as_str()),
        (0, "\n")
    );
}

#[test]
fn solve_reports_its_limit_and_json() {
    let limited = shubbles(&["solve", FIGURE_1A, "--max-states", "100"], "");
    assert_eq!((limited.code, limited.stdout.as_str()), (5, ""));
    assert!(
        limited
            .stderr
            .contains("search limit reached: 100 states visited"),
        "{}",
        limited.stderr
    );
    let json = shubbles(&["solve", "...................x...x@o...", "--json"], "");
    assert_eq!(json.code, 0);
    assert!(
        json.stdout
            .starts_with(r#"{"outcome":"solved","answer":"+-","length":2,"states_visited":"#),
        "{}",
        json.stdout
    );
    assert_eq!(json.stderr, "");
    let invalid = shubbles(&["solve", "..."], "");
    assert_eq!(invalid.code, 2);
    let with_ops = shubbles(&["solve"], &format!("{FIGURE_1A} +"));
    assert_eq!(with_ops.code, 2);
}

#[test]
fn solve_says_when_no_answer_exists_and_exits_4() {
    let run = shubbles(&["solve", "oooxoooooooxooooooooooooooo@."], "");
    assert_eq!((run.code, run.stdout.as_str()), (4, ""));
    assert!(
        run.stderr
            .contains("no solution: all 210 reachable states visited"),
        "{}",
        run.stderr
    );
}

#[test]
fn solve_can_render_its_answer_as_gif_and_smooth() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let state = "...................x...x@o...";
    let read = |name: &str| std::fs::read(dir.path().join(name)).expect("the GIF");
    for (flag, command) in [("--gif", "gif"), ("--smooth", "smooth")] {
        let run = shubbles_in(dir.path(), &["solve", state, flag, "answer.gif"], "");
        assert_eq!(run.code, 0, "{flag}: {}", run.stderr);
        let direct = shubbles_in(dir.path(), &[command, state, "+-", "-o", "direct.gif"], "");
        assert_eq!(direct.code, 0);
        assert!(read("answer.gif") == read("direct.gif"), "{flag}");
    }
}

#[test]
fn png_writes_the_golden_picture_of_the_last_frame() {
    let run = shubbles(&["png", FIGURE_1A, DEMO_OPS, "-o", "-"], "");
    assert_eq!(run.code, 0);
    let golden = Path::new(env!("CARGO_MANIFEST_DIR")).join("frames/png_figure_1a_final.png");
    let made = tiny_skia::Pixmap::decode_png(&run.bytes).expect("a PNG");
    let want = tiny_skia::Pixmap::load_png(&golden).expect("the golden PNG");
    assert_eq!((made.width(), made.height()), (want.width(), want.height()));
    assert!(
        made.data() == want.data(),
        "shubbles png differs from {}",
        golden.display()
    );
}
