//! `play`'s outputs (`-o`, `--events`, `--gif`): one that cannot be
//! written (no folder, a folder in its place, a terminal for standard
//! output), or two that would land in one file, is refused before the
//! match is played, in one line with status 2, with nothing written
//! (issue 20, class 8).

use std::ffi::CStr;
use std::fs::{File, OpenOptions};
use std::os::fd::{AsRawFd, FromRawFd};
use std::os::unix::fs::OpenOptionsExt;
use std::process::Command;

use crate::common::{files_in, katazuke_in};

fn echo_pass() -> String {
    let path = crate::common::player("echo_pass.py");
    format!("python3 {}", path.display())
}

#[test]
fn an_output_that_cannot_be_written_is_refused_before_the_match_is_played() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::write(dir.path().join("file.txt"), "").expect("writable");
    std::fs::create_dir(dir.path().join("folder.ktz")).expect("a folder");
    let aside = tempfile::tempdir().expect("a temporary folder");
    let transcript = aside.path().join("transcript.txt");
    let mut cases = vec![
        (
            vec!["-o", "missing/dir/x.ktz"],
            "cannot write the match record to missing/dir/x.ktz: there is no folder missing/dir",
        ),
        (
            vec!["-o", "r.ktz", "--gif", "missing/x.gif"],
            "cannot write the replay GIF to missing/x.gif: there is no folder missing",
        ),
        (
            vec!["--events", "file.txt/x.jsonl", "-o", "r.ktz"],
            "cannot write the event log to file.txt/x.jsonl: there is no folder file.txt",
        ),
        (
            vec!["-o", "folder.ktz"],
            "cannot write the match record to folder.ktz: it is a folder",
        ),
    ];
    // A folder without write permission holds back anyone but root.
    // SAFETY: geteuid only reads this process's user id.
    let root = unsafe { libc::geteuid() } == 0;
    if !root {
        use std::os::unix::fs::PermissionsExt;
        let locked = dir.path().join("locked");
        std::fs::create_dir(&locked).expect("a folder");
        std::fs::set_permissions(&locked, std::fs::Permissions::from_mode(0o555)).expect("chmod");
        cases.push((
            vec!["-o", "r.ktz", "--gif", "locked/x.gif"],
            "cannot write the replay GIF to locked/x.gif: the folder locked is not writable",
        ));
    }
    let before = files_in(dir.path());
    for (outputs, message) in cases {
        let output = Command::new(env!("CARGO_BIN_EXE_katazuke"))
            .args([
                "play",
                "--A",
                &echo_pass(),
                "--B",
                "builtin:2",
                "--clock",
                "virtual",
            ])
            .args(&outputs)
            .env("KATAZUKE_TRANSCRIPT", &transcript)
            .current_dir(dir.path())
            .output()
            .expect("katazuke runs");
        let said = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{outputs:?}: {said}");
        assert_eq!(said, format!("katazuke: {message}\n"), "{outputs:?}");
        assert!(output.stdout.is_empty(), "{outputs:?}");
        assert_eq!(files_in(dir.path()), before, "{outputs:?}: nothing written");
        assert!(
            files_in(&dir.path().join("folder.ktz")).is_empty(),
            "{outputs:?}"
        );
        // The program never heard a line: no match was played.
        assert!(!transcript.exists(), "{outputs:?}: a match was played");
    }
}

#[test]
fn two_outputs_that_land_in_one_file_are_refused() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    std::fs::create_dir(dir.path().join("sub")).expect("a folder");
    std::os::unix::fs::symlink("r.ktz", dir.path().join("link")).expect("a link");
    let before = files_in(dir.path());
    let both = |first: &str, second: &str, place: &str| {
        format!("katazuke: {first} and {second} both write to {place}: give each output a file of its own\n")
    };
    let cases: [(&[&str], String); 4] = [
        // The record goes to standard output when -o is not given.
        (&["--gif", "-"], both("-o", "--gif", "standard output")),
        (
            &["-o", "out", "--events", "out"],
            both("-o", "--events", "out"),
        ),
        (
            &["-o", "r.ktz", "--gif", "link"],
            both("-o", "--gif", "r.ktz"),
        ),
        (
            &["-o", "r.ktz", "--events", "e", "--gif", "sub/../e"],
            both("--events", "--gif", "e"),
        ),
    ];
    for (outputs, message) in cases {
        let mut args = vec!["play", "--A", "builtin", "--B", "builtin:greedy"];
        args.extend_from_slice(outputs);
        let run = katazuke_in(dir.path(), &args, "");
        assert_eq!(run.code, 2, "{outputs:?}: {}", run.stderr);
        assert_eq!(run.stderr, message, "{outputs:?}");
        assert!(run.bytes.is_empty(), "{outputs:?}");
        assert_eq!(files_in(dir.path()), before, "{outputs:?}: nothing written");
    }
    // A device takes any number of outputs.
    let run = katazuke_in(
        dir.path(),
        &[
            "play",
            "--A",
            "builtin:2",
            "--B",
            "builtin:greedy",
            "--clock",
            "virtual",
            "-q",
            "-o",
            "/dev/null",
            "--gif",
            "/dev/null",
        ],
        "",
    );
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    assert_eq!(files_in(dir.path()), before);
}

/// A pseudo-terminal: its controlling end, and the terminal a program
/// sees.
fn pseudo_terminal() -> (File, File) {
    // SAFETY: these calls only open and set up a new pseudo-terminal, on
    // the descriptor they return; the name is read from a buffer that
    // ptsname_r filled and ended with a zero.
    let (controller, name) = unsafe {
        let controller = libc::posix_openpt(libc::O_RDWR | libc::O_NOCTTY);
        assert!(controller >= 0, "{}", std::io::Error::last_os_error());
        let controller = File::from_raw_fd(controller);
        assert_eq!(libc::grantpt(controller.as_raw_fd()), 0);
        assert_eq!(libc::unlockpt(controller.as_raw_fd()), 0);
        let mut name = [0 as libc::c_char; 128];
        assert_eq!(
            libc::ptsname_r(controller.as_raw_fd(), name.as_mut_ptr(), name.len()),
            0
        );
        let name = CStr::from_ptr(name.as_ptr())
            .to_str()
            .expect("a name")
            .to_string();
        (controller, name)
    };
    let terminal = OpenOptions::new()
        .read(true)
        .write(true)
        .custom_flags(libc::O_NOCTTY)
        .open(name)
        .expect("the terminal opens");
    (controller, terminal)
}

#[test]
fn standard_output_on_a_terminal_is_refused_before_the_match_is_played() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let aside = tempfile::tempdir().expect("a temporary folder");
    let transcript = aside.path().join("transcript.txt");
    let cases: [(&[&str], &str); 2] = [
        // The record goes to standard output when -o is not given.
        (&[], "the match record"),
        (&["-o", "r.ktz", "--gif", "-"], "the replay GIF"),
    ];
    for (outputs, what) in cases {
        let (_controller, terminal) = pseudo_terminal();
        let output = Command::new(env!("CARGO_BIN_EXE_katazuke"))
            .args([
                "play",
                "--A",
                &echo_pass(),
                "--B",
                "builtin:2",
                "--clock",
                "virtual",
            ])
            .args(outputs)
            .env("KATAZUKE_TRANSCRIPT", &transcript)
            .current_dir(dir.path())
            .stdout(terminal)
            .output()
            .expect("katazuke runs");
        let said = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(2), "{outputs:?}: {said}");
        assert_eq!(
            said,
            format!("katazuke: refusing to write {what} to a terminal; redirect standard output or name a file\n"),
            "{outputs:?}"
        );
        assert!(
            files_in(dir.path()).is_empty(),
            "{outputs:?}: nothing written"
        );
        assert!(!transcript.exists(), "{outputs:?}: a match was played");
    }
}
