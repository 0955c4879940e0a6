//! Pipes, files and signals as `shubbles` meets them: nothing crashes,
//! nothing is lost, nothing forged is believed (`katazuke`'s are in its
//! own crate's file of this name). Real pipes, FIFOs, signals and `/dev/full`;
//! the forged event logs are fixtures (`tests/forged/`).
#![cfg(unix)]

mod common;

use std::fs;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::os::unix::process::ExitStatusExt;
use std::path::{Path, PathBuf};

use common::{files_in, run_in, shubbles, shubbles_in, Run, FIGURE_1A, SHUBBLES};
use testing::unix::{
    assert_ends_quietly_on_a_closed_pipe, interrupted, mkfifo, SIGHUP, SIGINT, SIGTERM,
};

/// Runs `script` in bash (for pipes and redirections as a user types
/// them), with `$SHUBBLES` the binary and `$FIG` Figure 1(a).
fn bash(script: &str) -> Run {
    testing::unix::bash(script, &[("SHUBBLES", SHUBBLES), ("FIG", FIGURE_1A)])
}

/// Many operations that never fail: the stot steps left and back.
fn long_operations(pairs: usize) -> String {
    "<>".repeat(pairs)
}

// 1. Closed or full standard output and error.

#[test]
fn a_closed_pipe_ends_the_command_quietly_by_sigpipe() {
    let many = long_operations(300);
    for args in [
        vec!["solve", FIGURE_1A],
        vec!["gif", FIGURE_1A, "+^^", "-o", "o.gif"],
        vec!["events", FIGURE_1A, &many],
        vec!["gif", FIGURE_1A, &many, "-o", "-"],
        vec!["--help"],
    ] {
        assert_ends_quietly_on_a_closed_pipe(SHUBBLES, &args);
    }
}

#[test]
fn a_closed_pipe_in_a_shell_is_status_141() {
    let script = r#""$SHUBBLES" events "$FIG" "$(printf '<>%.0s' $(seq 3000))" | head -c 1 >/dev/null; echo "${PIPESTATUS[0]}""#;
    let run = bash(script);
    assert_eq!(run.stdout.trim(), "141", "{}", run.stderr);
    assert_eq!(run.stderr, "");
}

#[test]
fn a_full_disk_is_one_line_and_status_1() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    for (command, message) in [
        (
            r#""$SHUBBLES" solve "$FIG" > /dev/full"#,
            "shubbles: cannot write to standard output: No space left on device (os error 28)",
        ),
        (
            r#""$SHUBBLES" text "$FIG" > /dev/full"#,
            "shubbles: cannot write to standard output: No space left on device (os error 28)",
        ),
        (
            r#""$SHUBBLES" gif "$FIG" -o /dev/full"#,
            "shubbles: cannot write /dev/full: No space left on device (os error 28)",
        ),
    ] {
        let run = bash(command);
        assert_eq!(run.code, 1, "{command}: {}", run.stderr);
        let lines: Vec<&str> = run
            .stderr
            .lines()
            .filter(|l| !l.contains("solved in"))
            .collect();
        assert_eq!(lines, [message], "{command}");
    }
    // The device is written to, never replaced, even by root.
    assert!(fs::metadata("/dev/full")
        .expect("exists")
        .file_type()
        .is_char_device());
}

#[test]
fn a_full_standard_error_changes_nothing_but_the_message() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    let run = bash(r#""$SHUBBLES" text bad 2>/dev/full; echo "$?""#);
    assert_eq!(run.stdout.trim(), "2");
    let run =
        bash(r#""$SHUBBLES" gif "$FIG" '+^^' -o "$(mktemp -d)/o.gif" 2>/dev/full; echo "$?""#);
    assert_eq!(run.stdout, "!\n3\n");
}

// 2. Outputs that are not regular files.

#[test]
fn a_fifo_is_written_through_and_stays_a_fifo() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let fifo = dir.path().join("pipe");
    if !mkfifo(&fifo) {
        return;
    }
    let expected = shubbles(&["gif", FIGURE_1A, "+>", "-o", "-"], "").bytes;
    {
        let args = ["gif", FIGURE_1A, "+>", "-o", "pipe"];
        let reader = {
            let fifo = fifo.clone();
            std::thread::spawn(move || {
                let mut bytes = Vec::new();
                fs::File::open(fifo)
                    .and_then(|mut file| file.read_to_end(&mut bytes))
                    .expect("the FIFO reads");
                bytes
            })
        };
        let run = run_in(SHUBBLES, dir.path(), &args, b"");
        assert_eq!(run.code, 0, "{}", run.stderr);
        let bytes = reader.join().expect("the reader ends");
        assert_eq!(bytes, expected);
        let kind = fs::symlink_metadata(&fifo).expect("exists").file_type();
        assert!(kind.is_fifo(), "{args:?} replaced the FIFO");
        assert_eq!(files_in(dir.path()), ["pipe"]);
    }
}

#[test]
fn dev_null_dev_stdout_and_links_to_them_are_written_through() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::os::unix::fs::symlink("/dev/null", dir.path().join("nowhere.gif")).expect("a link");
    for target in ["/dev/null", "nowhere.gif"] {
        let run = shubbles_in(dir.path(), &["gif", FIGURE_1A, "-o", target], "");
        assert_eq!(run.code, 0, "{}", run.stderr);
    }
    let link = fs::symlink_metadata(dir.path().join("nowhere.gif")).expect("exists");
    assert!(link.file_type().is_symlink());
    assert!(fs::metadata("/dev/null")
        .expect("exists")
        .file_type()
        .is_char_device());
    assert_eq!(files_in(dir.path()), ["nowhere.gif"]);
    let through_stdout = shubbles_in(dir.path(), &["gif", FIGURE_1A, "-o", "/dev/stdout"], "");
    let dash = shubbles_in(dir.path(), &["gif", FIGURE_1A, "-o", "-"], "");
    assert_eq!(through_stdout.code, 0, "{}", through_stdout.stderr);
    assert_eq!(through_stdout.bytes, dash.bytes);
    assert_eq!(files_in(dir.path()), ["nowhere.gif"]);
}

#[test]
fn a_link_to_a_regular_file_keeps_the_link_and_replaces_its_target() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    fs::write(dir.path().join("real.gif"), "old").expect("written");
    std::os::unix::fs::symlink("real.gif", dir.path().join("link.gif")).expect("a link");
    let run = shubbles_in(dir.path(), &["gif", FIGURE_1A, "-o", "link.gif"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let link = fs::symlink_metadata(dir.path().join("link.gif")).expect("exists");
    assert!(link.file_type().is_symlink());
    let real = fs::read(dir.path().join("real.gif")).expect("readable");
    assert!(real.starts_with(b"GIF89a"));
}

// 3. Replaced files keep their permissions.

#[test]
fn a_replaced_file_keeps_its_permissions() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mode = |name: &str| {
        fs::metadata(dir.path().join(name))
            .expect("exists")
            .permissions()
            .mode()
            & 0o7777
    };
    for (name, wanted) in [("private.gif", 0o600), ("shared.gif", 0o664)] {
        fs::write(dir.path().join(name), "old").expect("written");
        fs::set_permissions(dir.path().join(name), fs::Permissions::from_mode(wanted))
            .expect("chmod");
        let run = shubbles_in(dir.path(), &["gif", FIGURE_1A, "-o", name], "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(mode(name), wanted, "{name}");
        assert_ne!(fs::read(dir.path().join(name)).expect("readable"), b"old");
    }
}

// 4. Signals during a long write.

#[test]
fn a_signal_during_a_write_leaves_the_old_file_and_no_temporary_one() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    fs::write(dir.path().join("out.gif"), "old").expect("written");
    let operations = long_operations(20_000);
    for signal in [SIGINT, SIGTERM, SIGHUP] {
        let status = interrupted(
            SHUBBLES,
            dir.path(),
            &["smooth", FIGURE_1A, &operations, "-o", "out.gif"],
            signal,
        );
        assert_eq!(status.signal(), Some(signal), "{status:?}");
        assert_eq!(files_in(dir.path()), ["out.gif"]);
        assert_eq!(
            fs::read(dir.path().join("out.gif")).expect("readable"),
            b"old"
        );
    }
}

// 5. Bounded resources.

#[test]
fn an_endless_line_is_refused_with_its_number() {
    let run = shubbles(
        &["gif", "--from-events", "/dev/zero", "-o", "never.gif"],
        "",
    );
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "shubbles: /dev/zero: event log line 1: the line is longer than 1 MiB, the most a line may hold\n"
    );
    let long_input = "o".repeat(3 << 20);
    let run = shubbles(&["text"], &long_input);
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "shubbles: standard input line 1: the line is longer than 1 MiB, the most a line may hold\n"
    );
}

#[test]
fn a_batch_line_too_long_is_invalid_and_ends_its_file() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let text = format!(
        "{FIGURE_1A} + first\n{}\n{FIGURE_1A} - never\n",
        ".".repeat(2 << 20)
    );
    fs::write(dir.path().join("s.txt"), text).expect("written");
    let run = shubbles_in(dir.path(), &["batch", "s.txt", "--out-dir", "out"], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr.lines().next(),
        Some("shubbles: s.txt:2: invalid line: the line is longer than 1 MiB, the most a line may hold; the rest of the file is not read")
    );
    assert_eq!(
        files_in(&dir.path().join("out")),
        ["MANIFEST-1-of-1.jsonl", "first.gif"]
    );
}

#[test]
fn too_many_jobs_are_refused_in_one_line() {
    let run = shubbles(&["batch", "-", "--out-dir", "out", "--jobs", "100000"], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "shubbles: invalid value '100000' for '--jobs <N>': 100000 is not in 1..=1024 (see 'shubbles batch --help')\n"
    );
}

// 6. An event log must describe its run.

fn forged(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(format!("tests/forged/{name}.jsonl"))
}

#[test]
fn every_forged_event_log_is_refused_at_its_first_wrong_line() {
    let cases = [
        (
            "truncated",
            24,
            "the log ends before its run does; expected {\"frame\":23,",
        ),
        (
            "start-alone",
            2,
            "the log ends before its run does; expected {\"frame\":1,",
        ),
        (
            "another-run",
            3,
            "\"cells\" is [17,23,26] where the run has [13,18,19,20,23,24,25]",
        ),
        (
            "reordered",
            6,
            "a \"turned\" event where the run has a \"stot-moved\" event",
        ),
        ("renumbered", 6, "\"op\" is 4 where the run has 1"),
        ("wrong-frame", 3, "\"frame\" is 7 where the run has 2"),
        (
            "wrong-operation",
            6,
            "\"operation\" is \"<\" where the run has \">\"",
        ),
        (
            "move-while-falling",
            4,
            "a \"stot-moved\" event where the run has a \"fell\" event",
        ),
        (
            "forged-wall",
            2,
            "a \"failed\" event where the run has a \"stot-moved\" event",
        ),
        (
            "forged-escape",
            6,
            "the run ended on line 5; nothing may follow",
        ),
        (
            "after-failure",
            12,
            "the run ended on line 11; nothing may follow",
        ),
    ];
    let dir = tempfile::tempdir().expect("a temporary folder");
    for (name, line, message) in cases {
        let path = forged(name);
        let path = path.to_string_lossy();
        let run = shubbles_in(
            dir.path(),
            &["gif", "--from-events", &path, "-o", "x.gif"],
            "",
        );
        assert_eq!(run.code, 2, "{name}");
        let expected = format!("shubbles: {path}: event log line {line}: {message}");
        assert!(
            run.stderr.starts_with(&expected),
            "{name}:\n{}\n{expected}",
            run.stderr
        );
        assert_eq!(run.stderr.lines().count(), 1, "{name}");
        assert!(files_in(dir.path()).is_empty(), "{name} left a file");
    }
}

#[test]
fn a_hundred_thousand_empty_falls_are_refused_at_the_first() {
    let start = r#"{"kind":"start","state":".........@...o....ooo..xox...","operations":"+","settle":false}"#;
    let fell = r#"{"frame":1,"op":0,"operation":"+","kind":"fell","orientation":0,"cells":[]}"#;
    let log = format!("{start}\n{}", format!("{fell}\n").repeat(100_000));
    let run = shubbles(&["gif", "--from-events", "-", "-o", "-"], &log);
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with(
            "shubbles: -: event log line 2: a \"fell\" event where the run has a \"turned\" event"
        ),
        "{}",
        run.stderr
    );
    assert!(run.bytes.is_empty());
}

#[test]
fn an_honest_log_still_draws_what_the_run_draws() {
    let log = shubbles(&["events", FIGURE_1A, "+>|<-v+^+"], "").bytes;
    let log = String::from_utf8(log).expect("text");
    let from_log = shubbles(&["gif", "--from-events", "-", "-o", "-"], &log);
    let from_run = shubbles(&["gif", FIGURE_1A, "+>|<-v+^+", "-o", "-"], "");
    assert_eq!(from_log.code, 0, "{}", from_log.stderr);
    assert_eq!(from_log.bytes, from_run.bytes);
}

// 7. Messages.

#[test]
fn argument_errors_are_one_line_pointing_to_help() {
    for (args, message) in [
        (vec!["gif", "--bogus"], "shubbles: unexpected argument '--bogus' found (see 'shubbles gif --help')"),
        (vec!["gif", "--cell"], "shubbles: unexpected argument '--cell' found; did you mean '--cell-size'? (see 'shubbles gif --help')"),
        (vec!["gif", "-o"], "shubbles: a value is required for '--output <FILE>' but none was supplied (see 'shubbles gif --help')"),
        (vec!["batch", "x"], "shubbles: the following required arguments were not provided: --out-dir <DIR> (see 'shubbles batch --help')"),
        (vec!["solve", FIGURE_1A, "+"], "shubbles: unexpected argument '+' found (see 'shubbles solve --help')"),
    ] {
        let run = run_in(SHUBBLES, Path::new(env!("CARGO_TARGET_TMPDIR")), &args, b"");
        assert_eq!(run.code, 2, "{args:?}");
        assert_eq!(run.stderr, format!("{message}\n"), "{args:?}");
    }
}

#[test]
fn a_state_too_long_names_what_is_past_the_last_cell() {
    let run = shubbles(&["text", &format!("{FIGURE_1A}.")], "");
    assert_eq!(
        run.stderr,
        "shubbles: the state has 30 characters, expected 29 (one per cell): character 30, \".\", is one too many\n"
    );
    let run = shubbles(&["text", &format!("{FIGURE_1A}abcd")], "");
    assert_eq!(
        run.stderr,
        "shubbles: the state has 33 characters, expected 29 (one per cell): the 4 from character 30 on (\"abcd\") are too many\n"
    );
    assert!(!run.stderr.contains("cell 29"));
}

#[test]
fn a_byte_order_mark_and_bad_utf8_are_named_with_their_line() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let log = shubbles(&["events", FIGURE_1A, "+"], "").bytes;
    let mut marked = b"\xEF\xBB\xBF".to_vec();
    marked.extend_from_slice(&log);
    fs::write(dir.path().join("marked.jsonl"), &marked).expect("written");
    let mut broken = log.clone();
    let second_line = broken.iter().position(|&b| b == b'\n').expect("two lines") + 3;
    broken[second_line] = 0xFF;
    fs::write(dir.path().join("broken.jsonl"), &broken).expect("written");
    fs::write(
        dir.path().join("marked.txt"),
        format!("\u{feff}{FIGURE_1A} + a\n{FIGURE_1A} - b\n"),
    )
    .expect("written");
    for (args, message) in [
        (vec!["gif", "--from-events", "marked.jsonl"], "shubbles: marked.jsonl: event log line 1: the text begins with a UTF-8 byte-order mark (bytes EF BB BF); save it without one"),
        (vec!["gif", "--from-events", "broken.jsonl"], "shubbles: broken.jsonl: event log line 2: the line is not UTF-8 text: byte 0xFF at column 3"),
        (vec!["batch", "marked.txt", "--out-dir", "out"], "shubbles: marked.txt:1: invalid line: the file begins with a UTF-8 byte-order mark (bytes EF BB BF); save it without one"),
    ] {
        let run = run_in(SHUBBLES, dir.path(), &args, b"");
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().next(), Some(message), "{args:?}");
    }
    // The batch's other lines are still rendered.
    assert_eq!(
        files_in(&dir.path().join("out")),
        ["MANIFEST-1-of-1.jsonl", "b.gif"]
    );
}

// 8. Batch names that Windows reserves.

#[test]
fn batch_names_reserved_on_windows_are_invalid() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let names = [
        "CON",
        "nul.final",
        "Com1",
        "LPT9",
        "aux.x.y",
        "end.",
        "console",
        "com10",
    ];
    let text: String = names
        .iter()
        .map(|name| format!("{FIGURE_1A} + {name}\n"))
        .collect();
    let run = shubbles_in(dir.path(), &["batch", "-", "--out-dir", "out"], &text);
    assert_eq!(run.code, 2);
    let invalid: Vec<&str> = run
        .stderr
        .lines()
        .filter(|l| l.contains("invalid line"))
        .collect();
    assert_eq!(invalid.len(), 6, "{}", run.stderr);
    assert!(invalid[1].ends_with(
        "-:2: invalid line: the name \"nul\" is a device on Windows (CON, PRN, AUX, NUL, COM0-9 and LPT0-9 are reserved, with any extension)"
    ));
    assert!(invalid[5].ends_with(
        "-:6: invalid line: the name ends with a dot, which Windows drops from file names"
    ));
    assert_eq!(
        files_in(&dir.path().join("out")),
        ["MANIFEST-1-of-1.jsonl", "com10.gif", "console.gif"]
    );
}
