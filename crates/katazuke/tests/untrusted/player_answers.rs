//! What a player program writes besides a plain answer to each `go`: lines
//! out of turn, lines too long or without end, bytes that are not text.
//! None may be taken for an answer it is not, make two virtual-clock runs
//! of a match differ, or cost the referee memory (issue 20, classes 6, 7
//! and 12).

use std::fs::File;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

fn player(name: &str) -> String {
    let path = crate::common::player(name);
    let runner = if name.ends_with(".py") {
        "python3"
    } else {
        "sh"
    };
    format!("{runner} {}", path.display())
}

/// Plays `a` against `b` under the virtual clock in `dir`, the players
/// started with `KATAZUKE_STRAYS` set to `strays`; returns the record and
/// what was said on standard error.
fn play_virtual(dir: &Path, a: &str, b: &str, strays: &str) -> (String, String) {
    let output = Command::new(env!("CARGO_BIN_EXE_katazuke"))
        .args(["play", "--A", a, "--B", b, "--clock", "virtual", "-q"])
        .args(["-o", "match.ktz"])
        .env("KATAZUKE_STRAYS", strays)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .expect("katazuke runs");
    let stderr = String::from_utf8_lossy(&output.stderr).into_owned();
    assert_eq!(output.status.code(), Some(0), "{stderr}");
    let record = std::fs::read_to_string(dir.join("match.ktz")).expect("the record");
    (record, stderr)
}

#[test]
fn lines_written_out_of_turn_are_never_answers_and_every_run_is_the_same() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    // Each program writes lines that would be answers (`timeout` would put
    // its team out) before and after each of its answers, at random
    // moments; the record must be the one it makes without them, run
    // after run.
    for (a, b) in [
        (player("stray.py"), "builtin:greedy".to_string()),
        ("builtin:2".to_string(), player("stray.sh")),
    ] {
        let (expected, expected_said) = play_virtual(dir.path(), &a, &b, "0");
        assert!(!expected.contains("illegal"), "{expected}");
        for run in 1..=3 {
            let (record, said) = play_virtual(dir.path(), &a, &b, "1");
            assert_eq!(record, expected, "run {run} of {a} v {b}: {said}");
            assert_eq!(said, expected_said, "run {run} of {a} v {b}");
        }
    }
}

#[test]
fn lines_dropped_from_a_program_that_does_not_mark_its_answers_are_told() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    // It writes a line after each answer, which is dropped before its next
    // `go` if it has arrived by then (as it has here, while the computer
    // player thinks) and taken for the answer if not: a run of it cannot
    // be told to be the same as another.
    let (record, said) = play_virtual(dir.path(), &player("chatty.py"), "builtin", "1");
    let told: Vec<&str> = said
        .lines()
        .filter(|line| line.starts_with("katazuke: A's program wrote "))
        .collect();
    assert_eq!(told.len(), 1, "{said}\n{record}");
    assert!(
        told[0].ends_with(" lines out of turn while not marking its answers with readyok; they were dropped as they came, but such a line that comes late is taken for an answer, so another run may differ"),
        "{said}"
    );
}

/// A's first `count` turn lines in `record`.
fn first_turns_of_a(record: &str, count: usize) -> Vec<&str> {
    record
        .lines()
        .filter(|line| {
            let mut words = line.split_whitespace();
            words.next().is_some_and(|number| number.ends_with('.')) && words.next() == Some("A")
        })
        .take(count)
        .collect()
}

#[test]
fn an_answer_line_over_64_kib_is_garbage_whatever_it_begins_with() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (record, said) = play_virtual(dir.path(), &player("long_lines.py"), "builtin:greedy", "1");
    let turns_of_a = first_turns_of_a(&record, 6);
    let too_long = "illegal: the line is longer than 64 KiB (65536 bytes), the most an answer may hold; counted as a pass";
    assert_eq!(
        turns_of_a,
        [
            format!(" 1. A 0.5 pass  # {too_long}"),
            // 65,536 bytes: the most an answer may hold, taken.
            " 3. A 0.5 pass".to_string(),
            format!(" 5. A 0.5 pass  # {too_long}"),
            // 3 MiB, past the line reader's own limit: the rest of the line
            // is skipped, and the program's next answer read.
            format!(" 7. A 0.5 pass  # {too_long}"),
            " 9. A 0.5 pass  # illegal: the line is not UTF-8 text: byte 0xFF at column 5; counted as a pass".to_string(),
            "11. A 0.5 pass".to_string(),
        ],
        "{record}"
    );
    assert_eq!(
        said,
        format!("katazuke: A's player did not answer as asked in 4 turns; the first, game 1 turn 1: {too_long}\n")
    );
}

#[test]
fn an_answer_that_begins_with_a_byte_order_mark_is_named_so_each_time() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    // Some runtimes begin what they write with one: the first line or
    // any other, it is no answer, and the record says why.
    let program = "while read -r line; do case $line in go*) printf '\\357\\273\\277pass\\n';; quit) exit;; esac; done";
    let (record, _) = play_virtual(dir.path(), program, "builtin:greedy", "1");
    let marked = "A 0.5 pass  # illegal: the line begins with a UTF-8 byte-order mark (bytes EF BB BF); counted as a pass";
    assert_eq!(
        first_turns_of_a(&record, 2),
        [format!(" 1. {marked}"), format!(" 3. {marked}")],
        "{record}"
    );
}

/// The most memory `katazuke` held at once (VmHWM, in KiB) over a run of
/// `args` with `stdin` as its standard input: read from /proc while it
/// runs, the last reading before it ends. Its address space is capped at
/// 2 GiB, so that a referee that does keep what it reads fails the test
/// rather than filling the machine.
fn peak_memory_kib(dir: &Path, args: &[&str], stdin: File) -> u64 {
    use std::os::unix::process::CommandExt;
    let mut command = Command::new(env!("CARGO_BIN_EXE_katazuke"));
    command
        .args(args)
        .current_dir(dir)
        .stdin(stdin)
        .stdout(Stdio::null())
        .stderr(Stdio::null());
    // SAFETY: between fork and exec the closure only calls setrlimit,
    // which is async-signal-safe, and allocates nothing.
    unsafe {
        command.pre_exec(|| {
            let cap = libc::rlimit {
                rlim_cur: 2 << 30,
                rlim_max: 2 << 30,
            };
            if libc::setrlimit(libc::RLIMIT_AS, &cap) == 0 {
                Ok(())
            } else {
                Err(std::io::Error::last_os_error())
            }
        });
    }
    let mut child = command.spawn().expect("katazuke starts");
    let status = format!("/proc/{}/status", child.id());
    let mut peak = 0;
    loop {
        if let Ok(text) = std::fs::read_to_string(&status) {
            let high_water = text
                .lines()
                .find_map(|line| line.strip_prefix("VmHWM:"))
                .and_then(|value| value.trim().trim_end_matches("kB").trim().parse().ok());
            peak = high_water.unwrap_or(peak).max(peak);
        }
        if child.try_wait().expect("katazuke runs").is_some() {
            break;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    assert!(peak > 0, "no reading of {status}");
    assert!(
        dir.join("match.ktz").exists(),
        "the match was played to its end"
    );
    peak
}

/// Memory `katazuke` may hold at most, in KiB: a few times what a match
/// needs, far below what an endless line would take.
const MEMORY_LIMIT_KIB: u64 = 64 << 10;

/// `play --A A_PLAYER --B builtin:greedy` under the virtual clock, each
/// turn thought over for at most a second.
fn play_against_greedy(a: &str) -> Vec<&str> {
    vec![
        "play",
        "--B",
        "builtin:greedy",
        "--clock",
        "virtual",
        "--think-ms",
        "1000",
        "-q",
        "-o",
        "match.ktz",
        "--A",
        a,
    ]
}

#[test]
fn an_endless_answer_costs_the_referee_no_memory() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    // A program that never reads and writes one endless line, and one that
    // marks its answer and then writes an endless one.
    let programs = [
        "cat /dev/zero",
        "while read -r line && [ \"$line\" != isready ]; do :; done; echo readyok; exec cat /dev/zero",
    ];
    for program in programs {
        let _ = std::fs::remove_file(dir.path().join("match.ktz"));
        let null = File::open("/dev/null").expect("/dev/null");
        let peak = peak_memory_kib(dir.path(), &play_against_greedy(program), null);
        assert!(peak < MEMORY_LIMIT_KIB, "{program}: {peak} KiB");
        let record = std::fs::read_to_string(dir.path().join("match.ktz")).expect("the record");
        assert!(
            record.contains(" 1. A 0.5 pass  # illegal: the line is longer than 64 KiB (65536 bytes), the most an answer may hold; counted as a pass\n"),
            "{program}: {record}"
        );
    }
}

#[test]
fn a_person_whose_input_is_one_endless_line_costs_no_memory() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let zeros = File::open("/dev/zero").expect("/dev/zero");
    let peak = peak_memory_kib(dir.path(), &play_against_greedy("human"), zeros);
    assert!(peak < MEMORY_LIMIT_KIB, "{peak} KiB");
    let record = std::fs::read_to_string(dir.path().join("match.ktz")).expect("the record");
    assert!(
        record.contains(" 1. A 0.5 pass  # illegal: standard input: the line is longer than 1 MiB, the most a line may hold; counted as a pass\n"),
        "{record}"
    );
}
