//! Memory flat in the number of turns: `check`, `check --json`, `events`,
//! `fmt`, `ascii` and `replay` stream a log's turns through the referee
//! into their output instead of keeping its events and diagnostics, so a
//! log of a hundred times as many turns costs no more than its own bytes;
//! so does `replay --from-events`, checking an event log a turn at a time.
//! (A 64 MiB log of 11 million turns once took 4.1 GB to check; the
//! figures are in BENCHMARKS.md.)

use std::process::{Command, Stdio};

/// A valid match whose games each have `turns` passes of 0 s (every one a
/// W-ZERO-DURATION warning, so diagnostics grow with the log too) before
/// both teams time out.
fn zero_duration_match(turns: usize) -> String {
    let practice = crate::common::PRACTICE_KTZ;
    let header = &practice[..practice.find("game 1").expect("a game 1")];
    let game = |number: usize, first: &str, second: &str| {
        let mut text =
            format!("game {number}\nfirst: {first}\n{first} start: b2\n{second} start: d4* d2\n");
        let teams = [first, second];
        for turn in 0..turns {
            text += &format!("{} 0 -\n", teams[turn % 2]);
        }
        text += &format!(
            "{} timeout\n{} timeout\n",
            teams[turns % 2],
            teams[(turns + 1) % 2]
        );
        text
    };
    format!("{header}{}\n{}", game(1, "A", "B"), game(2, "B", "A"))
}

/// Runs `katazuke ARGS` and returns its exit status and the most memory it
/// held, in KiB (the kernel's own count, through `wait4`).
fn peak_kib(args: &[&str]) -> (i32, i64) {
    let child = Command::new(env!("CARGO_BIN_EXE_katazuke"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("katazuke starts");
    let pid = libc::pid_t::try_from(child.id()).expect("a process id");
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value to be overwritten.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: the child is ours and not yet waited for; wait4 fills in
    // `status` and `usage`, which outlive the call.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4 failed");
    std::mem::forget(child); // already reaped
    (libc::WEXITSTATUS(status), usage.ru_maxrss)
}

#[test]
fn long_logs_take_no_more_memory_than_their_bytes() {
    let folder = tempfile::tempdir().expect("a folder");
    let small = folder.path().join("small.ktz");
    let large = folder.path().join("large.ktz");
    std::fs::write(&small, zero_duration_match(1_000)).expect("written");
    let large_log = zero_duration_match(150_000);
    std::fs::write(&large, &large_log).expect("written");
    let gif = folder.path().join("end.gif");
    let gif = gif.to_str().expect("UTF-8");
    let commands: [&[&str]; 6] = [
        &["check"],
        &["check", "--json"],
        &["events"],
        &["fmt"],
        &["ascii"],
        &["replay", "--game", "2", "--from-turn", "150000", "-o", gif],
    ];
    // The large log's bytes are held whole (at most 64 MiB); what the
    // referee made of them must not be: 300,000 turns kept as events and
    // warnings came to hundreds of megabytes.
    let allowed_kib = i64::try_from(large_log.len() / 1024).expect("small") + 16 * 1024;
    for command in commands {
        let run = |log: &std::path::Path| {
            let mut args = command.to_vec();
            args.insert(1, log.to_str().expect("UTF-8"));
            peak_kib(&args)
        };
        let (small_status, small_kib) = run(&small);
        let (large_status, large_kib) = run(&large);
        assert_eq!((small_status, large_status), (0, 0), "{command:?}");
        assert!(
            large_kib - small_kib < allowed_kib,
            "{command:?}: {small_kib} KiB for 2,000 turns, {large_kib} KiB for 300,000"
        );
    }
}

#[test]
fn long_event_logs_replay_in_no_more_memory_than_their_bytes() {
    let folder = tempfile::tempdir().expect("a folder");
    let gif = folder.path().join("end.gif");
    let gif = gif.to_str().expect("UTF-8");
    // Replays the last turns of an event log that `katazuke events` wrote
    // for a match of `turns` passes a game: its peak and the log's bytes.
    let replay_events = |turns: usize| {
        let log = folder.path().join(format!("{turns}.ktz"));
        std::fs::write(&log, zero_duration_match(turns)).expect("written");
        let events = folder.path().join(format!("{turns}.jsonl"));
        let written = Command::new(env!("CARGO_BIN_EXE_katazuke"))
            .arg("events")
            .arg(&log)
            .stdin(Stdio::null())
            .stdout(std::fs::File::create(&events).expect("created"))
            .stderr(Stdio::null())
            .status()
            .expect("katazuke starts");
        assert!(written.success(), "events of {turns} turns a game");
        let from_turn = turns.to_string();
        let events_path = events.to_str().expect("UTF-8");
        let (status, kib) = peak_kib(&[
            "replay",
            "--from-events",
            events_path,
            "--game",
            "2",
            "--from-turn",
            &from_turn,
            "-o",
            gif,
        ]);
        assert_eq!(status, 0, "replay of {turns} turns a game");
        let bytes = std::fs::metadata(&events).expect("written").len();
        (kib, bytes)
    };
    let (small_kib, _) = replay_events(1_000);
    // 200,000 turns make 63 MB of events, under the 64 MiB an input may
    // have; kept as records they came to as much again.
    let (large_kib, large_bytes) = replay_events(100_000);
    let allowed_kib = i64::try_from(large_bytes / 1024).expect("small") + 16 * 1024;
    assert!(
        large_kib - small_kib < allowed_kib,
        "{small_kib} KiB for 2,000 turns, {large_kib} KiB for 200,000"
    );
}
