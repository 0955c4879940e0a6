//! `shubbles batch` as a user meets it: files written, lines reported,
//! summary and exit status.

use std::path::Path;
use std::process::Command;

use shubbles::{write_png, RenderOptions, Renderer, Scenario};

mod common;

use common::{files_in, shubbles_in, DEMO_OPS, DEMO_RESULT, FIGURE_1A};

fn read(path: impl AsRef<Path>) -> Vec<u8> {
    std::fs::read(path.as_ref()).expect("the file was written")
}

#[test]
fn valid_failing_and_invalid_lines_are_each_handled_and_counted() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let scenarios = format!(
        "# a valid line, an invalid one and a `!` one in the middle\n\
         {FIGURE_1A} {DEMO_OPS} fig1a\n\
         \n\
         {FIGURE_1A}. +\n\
         {FIGURE_1A} +^^\n\
         {FIGURE_1A} -+ # the last one\n"
    );
    std::fs::write(dir.path().join("scenarios.txt"), scenarios).expect("written");
    let run = shubbles_in(
        dir.path(),
        &["batch", "scenarios.txt", "--out-dir", "out"],
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(run.stdout.is_empty());
    assert_eq!(
        files_in(&dir.path().join("out")),
        [
            "MANIFEST-1-of-1.jsonl",
            "fig1a.gif",
            "scenarios-0005.gif",
            "scenarios-0006.gif"
        ]
    );
    let lines: Vec<&str> = run.stderr.lines().collect();
    assert_eq!(
        lines,
        [
            r#"shubbles: scenarios.txt:4: invalid line: the state has 30 characters, expected 29 (one per cell): character 30, ".", is one too many"#,
            "shubbles: scenarios.txt:5: rendered `!`: the run failed at operation 3 `^` (stot up): the stot in cell 4 cannot move up: a wall is in the way",
            "batch: 3 rendered (1 failed with !), 1 invalid; written to out",
        ]
    );
}

#[test]
fn a_hostile_name_writes_nothing_outside_the_folder_and_is_reported() {
    let root = tempfile::tempdir().expect("a temporary folder");
    let inner = root.path().join("work");
    std::fs::create_dir(&inner).expect("made");
    let names = [
        "../evil",
        "/etc/x",
        "a/b",
        "..",
        ".hidden",
        "a\u{1b}[2Jb",
        "ok",
    ];
    let scenarios: String = names
        .iter()
        .map(|name| format!("{FIGURE_1A} + {name}\n"))
        .collect();
    std::fs::write(inner.join("s.txt"), scenarios).expect("written");
    let run = shubbles_in(&inner, &["batch", "s.txt", "--out-dir", "out"], "");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        files_in(&inner.join("out")),
        ["MANIFEST-1-of-1.jsonl", "ok.gif"]
    );
    assert_eq!(files_in(&inner), ["out", "s.txt"]);
    assert_eq!(files_in(root.path()), ["work"]);
    assert!(!Path::new("/etc/x.gif").exists());
    for line in 1..=3 {
        assert!(
            run.stderr.contains(&format!(
                "s.txt:{line}: invalid line: the name has '/' at character"
            )),
            "line {line}: {}",
            run.stderr
        );
    }
    assert!(run
        .stderr
        .contains("s.txt:4: invalid line: the name starts with a dot"));
    assert!(run
        .stderr
        .contains("s.txt:5: invalid line: the name starts with a dot"));
    // The escape is shown, not sent to the terminal.
    assert!(run
        .stderr
        .contains(r"s.txt:6: invalid line: the name has '\u{1b}'"));
    assert!(!run.stderr.contains('\u{1b}'));
    assert!(run
        .stderr
        .ends_with("batch: 1 rendered (0 failed with !), 6 invalid; written to out\n"));
}

#[test]
fn standard_input_to_text_files_exactly_as_text_prints_them() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let input = format!("{FIGURE_1A} {DEMO_OPS}\n{FIGURE_1A} +^^ failing\n{FIGURE_1A} . start\n");
    let run = shubbles_in(
        dir.path(),
        &["batch", "-", "--out-dir", "out", "--format", "text"],
        &input,
    );
    // A `!` run is rendered like any other: it does not change the status.
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = dir.path().join("out");
    assert_eq!(
        files_in(&out),
        [
            "MANIFEST-1-of-1.jsonl",
            "failing.txt",
            "start.txt",
            "stdin-0001.txt"
        ]
    );
    assert_eq!(
        read(out.join("stdin-0001.txt")),
        format!("{DEMO_RESULT}\n").as_bytes()
    );
    assert_eq!(read(out.join("failing.txt")), b"!\n");
    assert_eq!(
        read(out.join("start.txt")),
        format!("{FIGURE_1A}\n").as_bytes()
    );
    assert!(run
        .stderr
        .contains("-:2: rendered `!`: the run failed at operation 3"));
    assert!(run
        .stderr
        .ends_with("batch: 3 rendered (1 failed with !), 0 invalid; written to out\n"));
}

#[test]
fn gifs_are_byte_identical_to_the_gif_command() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let cases = [
        (FIGURE_1A, DEMO_OPS, "demo"),
        (FIGURE_1A, "+^^", "failed"),
        ("@................x.....o..x..", "+-", "smole"),
        (FIGURE_1A, "-|<", "dash"),
    ];
    let lines: String = cases
        .iter()
        .map(|(state, ops, name)| format!("{state} {ops} {name}\n"))
        .collect();
    std::fs::write(dir.path().join("s.txt"), lines).expect("written");
    for cell_size in ["40", "13"] {
        let run = shubbles_in(
            dir.path(),
            &[
                "batch",
                "s.txt",
                "--out-dir",
                "out",
                "--cell-size",
                cell_size,
            ],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        for (state, ops, name) in cases {
            let single = shubbles_in(
                dir.path(),
                &["gif", state, ops, "-o", "-", "--cell-size", cell_size],
                "",
            );
            assert!(!single.bytes.is_empty());
            assert!(
                read(dir.path().join(format!("out/{name}.gif"))) == single.bytes,
                "{name} at cell size {cell_size}"
            );
        }
    }
}

#[test]
fn ascii_and_png_formats_show_the_end_of_the_run() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(
        dir.path().join("s.txt"),
        format!("{FIGURE_1A} + turned\n{FIGURE_1A} ^^ failed\n"),
    )
    .expect("written");
    for format in ["ascii", "png"] {
        let run = shubbles_in(
            dir.path(),
            &["batch", "s.txt", "--out-dir", format, "--format", format],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    let ascii = shubbles_in(dir.path(), &["ascii", FIGURE_1A, "+"], "");
    assert_eq!(read(dir.path().join("ascii/turned.txt")), ascii.bytes);
    assert_eq!(read(dir.path().join("ascii/failed.txt")), b"!\n");

    let renderer = Renderer::new(&RenderOptions::default());
    for (name, ops) in [("turned", "+"), ("failed", "^^")] {
        let scenario = Scenario::parse(FIGURE_1A, ops, false).expect("valid");
        let last = scenario.frames().last().expect("frame 0 at least");
        let mut expected = Vec::new();
        write_png(&renderer.render(&last), &mut expected).expect("encodes");
        assert!(
            read(dir.path().join(format!("png/{name}.png"))) == expected,
            "{name}"
        );
    }
}

#[test]
fn the_later_of_two_lines_with_one_name_is_invalid() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(
        dir.path().join("s.txt"),
        format!("{FIGURE_1A} + Same\n{FIGURE_1A} - same\n"),
    )
    .expect("written");
    let run = shubbles_in(dir.path(), &["batch", "s.txt", "--out-dir", "out"], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        files_in(&dir.path().join("out")),
        ["MANIFEST-1-of-1.jsonl", "Same.gif"]
    );
    assert!(run
        .stderr
        .contains("s.txt:2: invalid line: the output name \"same\" is already used by s.txt:1"));
    let single = shubbles_in(dir.path(), &["gif", FIGURE_1A, "+", "-o", "-"], "");
    assert!(read(dir.path().join("out/Same.gif")) == single.bytes);
}

#[test]
fn an_unreadable_input_file_renders_nothing_and_exits_1() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(dir.path().join("s.txt"), format!("{FIGURE_1A} +\n")).expect("written");
    let run = shubbles_in(
        dir.path(),
        &["batch", "s.txt", "missing.txt", "--out-dir", "out"],
        "",
    );
    assert_eq!(run.code, 1);
    assert!(
        run.stderr
            .starts_with("shubbles: cannot read missing.txt: "),
        "{}",
        run.stderr
    );
    assert_eq!(files_in(dir.path()), ["s.txt"]);
}

#[test]
fn help_explains_the_format_and_the_exit_statuses() {
    let run = shubbles_in(
        Path::new(env!("CARGO_TARGET_TMPDIR")),
        &["batch", "--help"],
        "",
    );
    assert_eq!(run.code, 0);
    let help = &run.stdout;
    for expected in [
        "STATE [OPS [NAME]]",
        "Examples:",
        "Exit status: 0",
        "--jobs",
    ] {
        assert!(help.contains(expected), "{expected}: {help}");
    }
}

#[test]
fn the_smooth_format_writes_the_same_gif_as_the_smooth_command() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(
        dir.path().join("one.txt"),
        "@................x.....x..o.. +- leaving\n",
    )
    .expect("writable");
    let batch = Command::new(env!("CARGO_BIN_EXE_shubbles"))
        .args(["batch", "one.txt", "--out-dir", "out", "--format", "smooth"])
        .current_dir(dir.path())
        .output()
        .expect("runs");
    assert_eq!(batch.status.code(), Some(0));
    let single = Command::new(env!("CARGO_BIN_EXE_shubbles"))
        .args([
            "smooth",
            "@................x.....x..o..",
            "+-",
            "-o",
            "single.gif",
        ])
        .current_dir(dir.path())
        .output()
        .expect("runs");
    assert_eq!(single.status.code(), Some(0));
    let read = |path: &str| std::fs::read(dir.path().join(path)).expect("written");
    assert!(read("out/leaving.gif") == read("single.gif"));
}

#[test]
fn webp_and_apng_formats_write_what_the_single_commands_write_to_such_files() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(dir.path().join("one.txt"), format!("{FIGURE_1A} +>| fig\n")).expect("writable");
    for (format, single, file) in [
        ("webp", "gif", "fig.webp"),
        ("smooth-webp", "smooth", "fig.webp"),
        ("apng", "gif", "fig.apng"),
        ("smooth-apng", "smooth", "fig.apng"),
    ] {
        let out = format!("out-{format}");
        let args = ["batch", "one.txt", "--out-dir", &out, "--format", format];
        let run = shubbles_in(dir.path(), &args, "");
        assert_eq!(run.code, 0, "{format}: {}", run.stderr);
        assert_eq!(
            files_in(&dir.path().join(&out)),
            ["MANIFEST-1-of-1.jsonl", file]
        );
        let run = shubbles_in(dir.path(), &[single, FIGURE_1A, "+>|", "-o", file], "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(
            read(dir.path().join(&out).join(file)) == read(dir.path().join(file)),
            "{format}"
        );
        // A resumed run keeps the file: its frames are counted from it.
        let run = shubbles_in(dir.path(), &[&args[..], &["--resume"]].concat(), "");
        assert!(
            run.stderr.contains("(1 kept from before)"),
            "{format}: {}",
            run.stderr
        );
    }
}

#[test]
fn under_a_size_budget_each_animation_is_drawn_smaller_or_not_written() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let lines = format!("{FIGURE_1A} {DEMO_OPS} long\n{FIGURE_1A} + short\n");
    std::fs::write(dir.path().join("two.txt"), lines).expect("writable");
    let args = [
        "batch",
        "two.txt",
        "--out-dir",
        "out",
        "--format",
        "smooth",
        "--max-size",
        "100KB",
    ];
    let run = shubbles_in(dir.path(), &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let said: Vec<&str> = run.stderr.lines().collect();
    assert!(
        said[0].starts_with("shubbles: two.txt:1: --max-size 100 KB: drawn with "),
        "{}",
        run.stderr
    );
    assert_eq!(
        said.len(),
        2,
        "only the long one is drawn smaller: {}",
        run.stderr
    );
    for file in ["long.gif", "short.gif"] {
        assert!(read(dir.path().join("out").join(file)).len() <= 100_000);
    }
    let manifest =
        String::from_utf8(read(dir.path().join("out/MANIFEST-1-of-1.jsonl"))).expect("text");
    assert!(manifest
        .lines()
        .next()
        .is_some_and(|header| header.contains("--max-size 100000")));

    let args = [
        "batch",
        "two.txt",
        "--out-dir",
        "tiny",
        "--format",
        "smooth",
        "--max-size",
        "3KB",
    ];
    let run = shubbles_in(dir.path(), &args, "");
    assert_eq!(run.code, 1, "{}", run.stderr);
    assert!(
        run.stderr.contains("two.txt:1: tiny/long.gif: not written: over --max-size 3000 bytes even drawn at the smallest legible size"),
        "{}",
        run.stderr
    );
    assert!(!files_in(&dir.path().join("tiny")).contains(&"long.gif".to_string()));
}
