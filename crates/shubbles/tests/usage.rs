//! What a new user meets in the first five minutes: what `shubbles` alone
//! says on a terminal, mistyped commands, the line that says what was
//! written, file names that say another format, loop and hold, and `-`
//! wherever a file is named.

mod common;

use std::path::Path;

use common::*;
use shubbles::{reel::decode_gif, reel::DecodedGif, reel::Repeat};

fn decoded(bytes: &[u8]) -> DecodedGif {
    decode_gif(bytes).expect("a readable GIF")
}

fn delays(gif: &DecodedGif) -> Vec<u16> {
    gif.frames.iter().map(|frame| frame.delay_cs).collect()
}

fn read(dir: &Path, name: &str) -> Vec<u8> {
    std::fs::read(dir.join(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn netscape_extensions(bytes: &[u8]) -> usize {
    bytes.windows(11).filter(|w| w == b"NETSCAPE2.0").count()
}

#[cfg(unix)]
#[test]
fn shubbles_alone_on_a_terminal_prints_a_short_usage_instead_of_waiting() {
    use std::os::fd::FromRawFd;
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};

    // A pseudo-terminal for standard input: the master stays open, so a
    // program reading it would wait for ever.
    // SAFETY: plain POSIX calls on a descriptor this test owns; the slave
    // name is copied before any other call.
    let (master, slave) = unsafe {
        let master = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(master >= 0, "a pseudo-terminal");
        assert_eq!(libc::grantpt(master), 0);
        assert_eq!(libc::unlockpt(master), 0);
        let name = std::ffi::CStr::from_ptr(libc::ptsname(master))
            .to_string_lossy()
            .into_owned();
        (std::fs::File::from_raw_fd(master), name)
    };
    let terminal = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .open(&slave)
        .expect("the terminal's other end");
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut child = Command::new(env!("CARGO_BIN_EXE_shubbles"))
        .current_dir(dir.path())
        .stdin(Stdio::from(terminal))
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let began = Instant::now();
    while child.try_wait().expect("waits").is_none() {
        if began.elapsed() > Duration::from_secs(20) {
            child.kill().expect("kills");
            panic!("shubbles waited on the terminal");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let output = child.wait_with_output().expect("ends");
    drop(master);
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2));
    assert!(output.stdout.is_empty());
    assert!(
        stderr.contains("Usage: shubbles [COMMAND] [STATE [OPS]] [-o FILE]"),
        "{stderr}"
    );
    assert!(stderr.contains("shubbles demo"), "{stderr}");
    assert!(stderr.lines().count() < 20, "short: {stderr}");
    assert_eq!(std::fs::read_dir(dir.path()).expect("lists").count(), 0);
}

#[test]
fn standard_input_that_is_not_a_terminal_is_still_read() {
    let run = shubbles(&["text"], &format!("{FIGURE_1A} {DEMO_OPS}"));
    assert_eq!((run.code, run.stdout.trim()), (0, DEMO_RESULT));
    assert_eq!(run.stderr, "");
}

#[test]
fn a_mistyped_command_is_named_and_never_read_as_a_state() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    for args in [
        vec!["smoth"],
        vec!["smoth", FIGURE_1A, "+>"],
        vec!["smoth", FIGURE_1A],
    ] {
        let run = shubbles_in(dir.path(), &args, "");
        assert_eq!(run.code, 2, "{args:?}");
        assert_eq!(
            run.stderr,
            "shubbles: unknown command 'smoth'; did you mean 'smooth'? (see 'shubbles --help')\n"
        );
    }
    let far = shubbles(&["frobnicate"], "");
    assert_eq!(far.code, 2);
    assert!(
        far.stderr
            .starts_with("shubbles: unknown command 'frobnicate': expected one of gif, smooth,"),
        "{}",
        far.stderr
    );
    // Where a state or operations belong, a word is named as a word.
    let state = shubbles(&["text", "hello"], "");
    assert_eq!(
        (state.code, state.stderr.as_str()),
        (
            2,
            "shubbles: 'hello' is not a state: expected 29 characters of . o x @, one per cell\n"
        )
    );
    let operations = shubbles(&["text", FIGURE_1A, "smooth"], "");
    assert_eq!(
        (operations.code, operations.stderr.as_str()),
        (
            2,
            "shubbles: 'smooth' is not an operation string: expected + - | < > ^ v\n"
        )
    );
    for stderr in [&state.stderr, &operations.stderr, &far.stderr] {
        assert!(!stderr.contains("at character"), "{stderr}");
    }
    assert_eq!(std::fs::read_dir(dir.path()).expect("lists").count(), 0);
}

#[test]
fn a_written_file_is_told_in_one_line_and_quiet_says_nothing() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let demo = shubbles_in(dir.path(), &["demo"], "");
    assert_eq!((demo.code, demo.stdout.as_str()), (0, ""));
    let size = read(dir.path(), "shubbles.gif").len();
    assert_eq!(
        demo.stderr,
        format!(
            "wrote shubbles.gif: 26 frames, {} KB, 26 s\n",
            (size + 500) / 1000
        )
    );
    let smooth = shubbles_in(dir.path(), &["smooth", FIGURE_1A, "+", "-o", "s.gif"], "");
    assert!(
        smooth.stderr.starts_with("wrote s.gif: "),
        "{}",
        smooth.stderr
    );
    let png = shubbles_in(dir.path(), &["png", FIGURE_1A, "+"], "");
    assert!(
        png.stderr
            .starts_with("wrote shubbles.png: 328 by 328 pixels, "),
        "{}",
        png.stderr
    );
    for args in [
        vec!["demo", "-q"],
        vec!["gif", FIGURE_1A, "+", "--quiet"],
        vec!["smooth", FIGURE_1A, "+", "-q"],
        vec!["png", FIGURE_1A, "+", "-q"],
        vec!["solve", FIGURE_1A, "--gif", "a.gif", "-q"],
    ] {
        let run = shubbles_in(dir.path(), &args, "");
        assert_eq!(run.code, 0, "{args:?}");
        assert_eq!(run.stderr, "", "{args:?}");
    }
    // To standard output: no file to tell of.
    let piped = shubbles_in(dir.path(), &["demo", "-o", "-"], "");
    assert_eq!(piped.stderr, "");
    // A failed run: `!`, the reason, and the file written all the same.
    let failed = shubbles_in(dir.path(), &[FIGURE_1A, "+^^", "-o", "f.gif"], "");
    assert_eq!((failed.code, failed.stdout.as_str()), (3, "!\n"));
    assert!(
        failed.stderr.starts_with("wrote f.gif: 6 frames, "),
        "{}",
        failed.stderr
    );
    assert!(
        failed.stderr.contains("failed at operation 3"),
        "{}",
        failed.stderr
    );
}

#[test]
fn a_file_name_of_another_format_is_refused_naming_the_right_command() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let animation = "this writes an animation, which belongs in a .gif, .webp, .apng or .png file";
    let cases: [(&[&str], String); 6] = [
        (&["gif", FIGURE_1A, "+", "-o", "x.jsonl"], format!("x.jsonl: {animation}; `shubbles events` prints the event log")),
        (&["smooth", FIGURE_1A, "+", "-o", "x.txt"], format!("x.txt: {animation}; `shubbles frames` (or `text`, `ascii`) prints the run as text")),
        (&["demo", "-o", "demo.jpg"], format!("demo.jpg: {animation}")),
        (&["png", FIGURE_1A, "+", "-o", "x.gif"], "x.gif: this writes a PNG picture, which belongs in a .png file; `shubbles gif` (or `smooth`) writes the animation".to_string()),
        (&["png", FIGURE_1A, "+", "-o", "x.webp"], "x.webp: this writes a PNG picture, which belongs in a .png file; `shubbles gif -o FILE.webp` writes the animation".to_string()),
        (&["solve", FIGURE_1A, "--smooth", "answer.jpg"], format!("answer.jpg: {animation}")),
    ];
    for (args, message) in cases {
        let run = shubbles_in(dir.path(), args, "");
        assert_eq!(run.code, 2, "{args:?}");
        assert_eq!(run.stderr, format!("shubbles: {message}\n"));
        assert_eq!(run.stdout, "");
    }
    assert_eq!(std::fs::read_dir(dir.path()).expect("lists").count(), 0);
    // Upper case and names without an extension are fine; `.png` is an
    // animated PNG.
    for (name, signature) in [
        ("UP.GIF", &b"GIF89a"[..]),
        ("plain", b"GIF89a"),
        ("x.png", b"\x89PNG"),
    ] {
        let run = shubbles_in(dir.path(), &["demo", "-o", name, "-q"], "");
        assert_eq!(run.code, 0, "{name}: {}", run.stderr);
        let written = std::fs::read(dir.path().join(name)).expect("written");
        assert!(written.starts_with(signature), "{name}");
    }
}

#[test]
fn loop_and_hold_are_written_as_browsers_read_them() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let gif = |args: &[&str]| {
        let mut all = args.to_vec();
        all.extend(["-o", "-"]);
        let run = shubbles_in(dir.path(), &all, "");
        assert_eq!(run.code, 0, "{args:?}: {}", run.stderr);
        run.bytes
    };
    // By default: forever, a second per frame, two on the smooth GIF's last.
    let plain = gif(&["demo"]);
    assert_eq!(decoded(&plain).repeat, Repeat::Infinite);
    assert_eq!(delays(&decoded(&plain)), [100; 26]);
    let smooth = decoded(&gif(&["smooth", FIGURE_1A, DEMO_OPS]));
    assert_eq!(smooth.repeat, Repeat::Infinite);
    assert_eq!(delays(&smooth).last(), Some(&200));

    let three = gif(&["demo", "--loop", "3"]);
    assert_eq!(
        decoded(&three).repeat,
        Repeat::Finite(2),
        "played 3 times: 2 repeats"
    );
    assert_eq!(gif(&["demo", "--loop", "0"]), plain);
    for once in [gif(&["demo", "--no-loop"]), gif(&["demo", "--loop", "1"])] {
        assert_eq!(netscape_extensions(&once), 0, "no loop extension at all");
        assert_eq!(netscape_extensions(&plain), 1);
    }

    // The hold is the last frame's delay, not more frames.
    let held = decoded(&gif(&["gif", FIGURE_1A, DEMO_OPS, "--hold", "3.5"]));
    let mut expected = vec![100; 26];
    expected[25] = 350;
    assert_eq!(delays(&held), expected);
    let short = decoded(&gif(&["smooth", FIGURE_1A, DEMO_OPS, "--hold", "0.5"]));
    assert_eq!(short.frames.len(), smooth.frames.len());
    assert_eq!(delays(&short).last(), Some(&50));

    // solve and batch take them too.
    let solved = shubbles_in(
        dir.path(),
        &["solve", FIGURE_1A, "--gif", "-", "--no-loop", "--hold", "2"],
        "",
    );
    let answer = decoded(&solved.bytes);
    assert_eq!(answer.repeat, Repeat::Finite(0));
    assert_eq!(delays(&answer).last(), Some(&200));
    let batch = shubbles_in(
        dir.path(),
        &[
            "batch",
            "-",
            "--out-dir",
            "out",
            "--loop",
            "2",
            "--hold",
            "4",
            "-q",
        ],
        &format!("{FIGURE_1A} {DEMO_OPS} fig\n"),
    );
    assert_eq!((batch.code, batch.stderr.as_str()), (0, ""));
    let fig = decoded(&read(&dir.path().join("out"), "fig.gif"));
    assert_eq!(fig.repeat, Repeat::Finite(1));
    assert_eq!(delays(&fig).last(), Some(&400));

    for (args, problem) in [
        (vec!["demo", "--hold", "0"], "'0' is not a hold"),
        (vec!["demo", "--hold", "1.234"], "'1.234' is not a hold"),
        (
            vec!["demo", "--loop", "2", "--no-loop"],
            "cannot be used with",
        ),
        (
            vec!["solve", FIGURE_1A, "--hold", "2"],
            "--loop, --no-loop and --hold apply to the animations",
        ),
    ] {
        let run = shubbles_in(dir.path(), &args, "");
        assert_eq!(run.code, 2, "{args:?}");
        assert!(run.stderr.contains(problem), "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    }
}

#[test]
fn a_smooth_gif_folds_its_rests_into_single_frames() {
    let run = shubbles(&["smooth", FIGURE_1A, DEMO_OPS, "-o", "-"], "");
    let gif = decoded(&run.bytes);
    // No frame repeats the picture before it: a rest is one frame, shown
    // for the whole rest.
    for (i, pair) in gif.frames.windows(2).enumerate() {
        assert!(
            pair[0].indices != pair[1].indices,
            "frames {i} and {} are equal",
            i + 1
        );
    }
    assert_eq!(delays(&gif)[0], 100, "a second on the start");
    let total: u32 = delays(&gif).iter().map(|&d| u32::from(d)).sum();
    assert!(
        (1_300..=1_700).contains(&total),
        "{total} cs for 9 operations"
    );
}

#[test]
fn the_smooth_demo_stays_small() {
    // 562,962 bytes before issue 13, 230,856 after; gifsicle -O3 saves
    // 0.9 % of it now (BENCHMARKS.md).
    let run = shubbles(&["smooth", FIGURE_1A, DEMO_OPS, "-o", "-"], "");
    assert_eq!(run.code, 0);
    assert!(run.bytes.len() < 250_000, "{} bytes", run.bytes.len());
}

#[test]
fn a_dash_is_standard_input_or_output_wherever_a_file_is_named() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let events = shubbles(&["events", FIGURE_1A, DEMO_OPS], "");
    let from_log = shubbles_in(
        dir.path(),
        &["gif", "--from-events", "-", "-o", "-"],
        &events.stdout,
    );
    assert_eq!(from_log.code, 0, "{}", from_log.stderr);
    let direct = shubbles(&["gif", FIGURE_1A, DEMO_OPS, "-o", "-"], "");
    assert!(from_log.bytes == direct.bytes);

    // solve's GIF on standard output: the answer moves to standard error.
    let answer = shubbles(&["solve", FIGURE_1A], "");
    let answer = answer.stdout.trim().to_string();
    for option in ["--gif", "--smooth"] {
        let run = shubbles_in(dir.path(), &["solve", FIGURE_1A, option, "-"], "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(run.bytes.starts_with(b"GIF89a"), "{option}");
        assert!(
            run.stderr.starts_with(&format!("{answer}\n")),
            "{}",
            run.stderr
        );
    }
    let both = shubbles_in(
        dir.path(),
        &["solve", FIGURE_1A, "--gif", "-", "--smooth", "-"],
        "",
    );
    assert_eq!(both.code, 2);
    assert_eq!(
        both.stderr,
        "shubbles: --gif and --smooth cannot both write to standard output\n"
    );
    let json = shubbles_in(
        dir.path(),
        &["solve", FIGURE_1A, "--json", "--gif", "-"],
        "",
    );
    assert_eq!(json.code, 2);
    assert_eq!(std::fs::read_dir(dir.path()).expect("lists").count(), 0);
}

#[test]
fn solve_settles_an_unstable_start_as_the_other_commands_do() {
    let unstable = ".o.......@...o....ooo..xox...";
    let refused = shubbles(&["solve", unstable], "");
    assert_eq!(refused.code, 2);
    assert!(refused.stderr.contains("--settle"), "{}", refused.stderr);
    let solved = shubbles(&["solve", unstable, "--settle"], "");
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    let operations = solved.stdout.trim();
    // The answer, after the fall, releases every shubble and keeps both
    // smoles in.
    let replay = shubbles(&["text", unstable, operations, "--settle"], "");
    assert_eq!(replay.code, 0, "{}", replay.stderr);
    let end = replay.stdout.trim();
    assert!(!end.contains('o') && end.matches('x').count() == 2, "{end}");
    // Its GIF shows the fall too: more frames than the settled start's.
    let dir = tempfile::tempdir().expect("a temporary folder");
    let gif = shubbles_in(
        dir.path(),
        &["solve", unstable, "--settle", "--gif", "a.gif"],
        "",
    );
    assert_eq!(gif.code, 0);
    let frames = decoded(&read(dir.path(), "a.gif")).frames.len();
    let dump = shubbles(&["frames", unstable, operations, "--settle"], "");
    assert_eq!(frames, dump.stdout.matches("# frame ").count());
}
