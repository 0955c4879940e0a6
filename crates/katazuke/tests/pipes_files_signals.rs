//! Pipes, files and signals as `katazuke` meets them: a closed pipe, a
//! full disk, a FIFO, a replaced file's permissions, a signal in the middle
//! of a write, an endless input, one-line argument errors and a byte-order
//! mark (the box's are in its own crate's file of this name). Real pipes,
//! FIFOs, signals and `/dev/full`.
#![cfg(unix)]

mod common;

use std::fs;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, PermissionsExt};
use std::os::unix::process::ExitStatusExt;
use std::path::Path;

use common::{files_in, katazuke_in, run_in, KATAZUKE, PRACTICE_KTZ_PATH as PRACTICE};
use katazuke::{random_match, random_params};
use testing::unix::{assert_ends_quietly_on_a_closed_pipe, bash, interrupted, mkfifo, SIGINT};

#[test]
fn a_closed_pipe_ends_the_command_quietly_by_sigpipe() {
    for args in [
        vec!["check", PRACTICE],
        vec!["replay", PRACTICE, "-o", "-"],
        vec!["--version"],
    ] {
        assert_ends_quietly_on_a_closed_pipe(KATAZUKE, &args);
    }
}

#[test]
fn a_full_disk_is_one_line_and_status_1() {
    if !Path::new("/dev/full").exists() {
        return;
    }
    for (command, message) in [
        (
            r#""$KATAZUKE" replay "$PRACTICE" -o /dev/full"#,
            "katazuke: cannot write /dev/full: cannot write the picture: No space left on device (os error 28)",
        ),
        (
            r#""$KATAZUKE" check "$PRACTICE" > /dev/full"#,
            "katazuke: cannot write to standard output: No space left on device (os error 28)",
        ),
    ] {
        let run = bash(command, &[("KATAZUKE", KATAZUKE), ("PRACTICE", PRACTICE)]);
        assert_eq!(run.code, 1, "{command}: {}", run.stderr);
        assert_eq!(run.stderr.lines().collect::<Vec<_>>(), [message], "{command}");
    }
    assert!(fs::metadata("/dev/full")
        .expect("exists")
        .file_type()
        .is_char_device());
}

#[test]
fn a_fifo_is_written_through_and_stays_a_fifo() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let fifo = dir.path().join("pipe");
    if !mkfifo(&fifo) {
        return;
    }
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
    let run = run_in(
        KATAZUKE,
        dir.path(),
        &["replay", PRACTICE, "-o", "pipe"],
        b"",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let bytes = reader.join().expect("the reader ends");
    assert!(bytes.starts_with(b"GIF89a"));
    let kind = fs::symlink_metadata(&fifo).expect("exists").file_type();
    assert!(kind.is_fifo(), "replay replaced the FIFO");
    assert_eq!(files_in(dir.path()), ["pipe"]);
}

#[test]
fn a_replaced_file_keeps_its_permissions() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let name = "fmt.ktz";
    fs::write(dir.path().join(name), "old").expect("written");
    fs::set_permissions(dir.path().join(name), fs::Permissions::from_mode(0o640)).expect("chmod");
    let run = katazuke_in(dir.path(), &["fmt", PRACTICE, "-o", name], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let mode = fs::metadata(dir.path().join(name))
        .expect("exists")
        .permissions()
        .mode();
    assert_eq!(mode & 0o7777, 0o640);
    assert_ne!(fs::read(dir.path().join(name)).expect("readable"), b"old");
}

/// A random legal match on a SIDE by SIDE field, with one-hour clocks
/// and SECONDS of game time: the longer, the more turns.
fn long_match(side: usize, seconds: u64) -> impl std::fmt::Display {
    let params = random_params(side, side, 3, seconds * 1000, seconds * 2000).expect("a field");
    random_match(&params, 3, 0)
}

#[test]
fn a_signal_during_a_write_leaves_no_temporary_file() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    fs::write(
        dir.path().join("long.ktz"),
        long_match(16, 3600).to_string(),
    )
    .expect("written");
    let status = interrupted(
        KATAZUKE,
        dir.path(),
        &["replay", "long.ktz", "-o", "long.gif"],
        SIGINT,
    );
    assert_eq!(status.signal(), Some(SIGINT), "{status:?}");
    assert_eq!(files_in(dir.path()), ["long.ktz"]);
}

#[test]
fn an_endless_input_is_refused_in_one_line() {
    let run = common::katazuke(&["check", "/dev/zero"], "");
    assert_eq!(run.code, 2);
    assert_eq!(
        run.stderr,
        "katazuke: /dev/zero is larger than 64 MiB, far more than a match log or its events\n"
    );
}

#[test]
fn argument_errors_are_one_line_pointing_to_help() {
    for (args, message) in [
        (vec!["chek"], "katazuke: unrecognized subcommand 'chek'; did you mean 'check'? (see 'katazuke --help')"),
        (vec!["replay", PRACTICE, "--cell", "x"], "katazuke: invalid value 'x' for '--cell <PX>': invalid digit found in string (see 'katazuke replay --help')"),
    ] {
        let run = run_in(KATAZUKE, Path::new(env!("CARGO_TARGET_TMPDIR")), &args, b"");
        assert_eq!(run.code, 2, "{args:?}");
        assert_eq!(run.stderr, format!("{message}\n"), "{args:?}");
    }
}

#[test]
fn a_byte_order_mark_is_named_with_its_line() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut ktz = b"\xEF\xBB\xBF".to_vec();
    ktz.extend_from_slice(&fs::read(PRACTICE).expect("readable"));
    fs::write(dir.path().join("marked.ktz"), &ktz).expect("written");
    let run = run_in(KATAZUKE, dir.path(), &["fmt", "marked.ktz"], b"");
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(
        run.stderr.lines().next(),
        Some("marked.ktz:1:1: error[E-SYNTAX] the log begins with a UTF-8 byte-order mark (bytes EF BB BF); save it without one (§11.2)")
    );
}
