//! `katazuke play`, `suggest` and `replay --annotate` as a user runs them:
//! the protocol a program sees, programs that are slow, crash, close their
//! output, answer garbage or illegal turns (scripted in
//! `tests/players/`), and matches reproducible under the virtual
//! clock.

mod common;

use std::path::Path;
use std::process::Command;

use common::{katazuke, katazuke_in};

fn fixture_player(name: &str, args: &str) -> String {
    let path = common::player(name);
    format!("python3 {} {args}", path.display())
}

fn practice() -> String {
    common::PRACTICE_KTZ_PATH.to_string()
}

fn temporary() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary folder")
}

/// Plays a match of `a` against `b` with `extra` arguments, in `dir`;
/// returns the record and what was said.
fn play(dir: &Path, a: &str, b: &str, extra: &[&str]) -> (String, common::Run) {
    let mut args = vec!["play", "--A", a, "--B", b, "-o", "match.ktz"];
    args.extend_from_slice(extra);
    let run = katazuke_in(dir, &args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let record = std::fs::read_to_string(dir.join("match.ktz")).expect("the record");
    // Every record is a valid log.
    let check = katazuke_in(dir, &["check", "match.ktz"], "");
    assert_eq!(check.code, 0, "{}\n{record}", check.stderr);
    assert!(!check.stderr.contains("warning"), "{}", check.stderr);
    (record, run)
}

#[test]
fn virtual_matches_are_reproducible_bit_for_bit() {
    let dir = temporary();
    let outputs = |name: &str| {
        let args = [
            "play",
            "--A",
            "builtin:2",
            "--B",
            "builtin:greedy",
            "--clock",
            "virtual",
            "-q",
            "-o",
        ];
        let ktz = format!("{name}.ktz");
        let events = format!("{name}.jsonl");
        let gif = format!("{name}.gif");
        let mut all: Vec<&str> = args.to_vec();
        all.extend([ktz.as_str(), "--events", &events, "--gif", &gif]);
        let run = katazuke_in(dir.path(), &all, "");
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert_eq!(run.stderr, "", "-q says nothing");
        [ktz, events, gif].map(|file| std::fs::read(dir.path().join(file)).expect("an output"))
    };
    let first = outputs("one");
    let second = outputs("two");
    assert_eq!(first, second);
    // The events replay to the same GIF as the record.
    let run = katazuke_in(
        dir.path(),
        &["replay", "--from-events", "one.jsonl", "-o", "again.gif"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(
        std::fs::read(dir.path().join("again.gif")).expect("a GIF"),
        first[2]
    );
    let record = String::from_utf8_lossy(&first[0]);
    assert!(
        record.contains("A: builtin:2\nB: builtin:greedy\n"),
        "{record}"
    );
}

#[test]
fn a_program_hears_the_protocol_of_section_15_1() {
    let dir = temporary();
    let transcript = dir.path().join("transcript.txt");
    let output = Command::new(env!("CARGO_BIN_EXE_katazuke"))
        .args([
            "play",
            "--A",
            &fixture_player("echo_pass.py", ""),
            "--B",
            "builtin:greedy",
        ])
        .args([
            "--clock",
            "virtual",
            "--params",
            &practice(),
            "-o",
            "match.ktz",
        ])
        .current_dir(dir.path())
        .env("KATAZUKE_TRANSCRIPT", &transcript)
        .output()
        .expect("katazuke runs");
    assert!(
        output.status.success(),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    let heard = std::fs::read_to_string(&transcript).expect("the transcript");
    let opening = "katazuke 1\nyou A\ncapacity 4\nstock 2 2\nteam_time 20000\ngame_time 36000\n\
                   field 5 5\n1 2 1 3 1\n2 1 3 1 2\n1 3 0 2 1\n2 1 2 1 3\n1 2 1 2 1\n\
                   game 1 first A\nstart A b2*\nstart B d4* d2\nisready\ngo 20000 36000\nplayed A 500 pass\n";
    assert!(heard.starts_with(opening), "{heard}");
    assert!(
        heard.contains("\ngame 2 first B\nstart B c4*\nstart A b2* d2\n"),
        "{heard}"
    );
    assert!(heard.ends_with("\nquit\n"), "{heard}");
    // One `go` for each of A's turns, and a `played` line for every turn.
    let record = std::fs::read_to_string(dir.path().join("match.ktz")).expect("the record");
    let turns_of = |team: &str| {
        record
            .lines()
            .filter(|line| {
                let mut words = line.split_whitespace();
                words.next().is_some_and(|number| number.ends_with('.'))
                    && words.next() == Some(team)
            })
            .count()
    };
    let count = |prefix: &str| {
        heard
            .lines()
            .filter(|line| line.starts_with(prefix))
            .count()
    };
    assert_eq!(count("go "), turns_of("A"));
    // Each `go` right after an `isready`.
    assert!(
        heard
            .lines()
            .zip(heard.lines().skip(1))
            .filter(|(_, line)| line.starts_with("go "))
            .all(|(before, _)| before == "isready"),
        "{heard}"
    );
    assert_eq!(count("isready"), count("go "));
    assert_eq!(count("played "), turns_of("A") + turns_of("B"));
    assert_eq!(count("result A "), 2);
}

/// `short.ktz` in `dir`: a 2 by 3 field, a team clock of `team_time`
/// seconds and a game clock of 3.
fn short_clocks(dir: &Path, team_time: &str) {
    let header = format!(
        "katazuke 1\ncapacity: 4\nstock: 2\nteam time: {team_time}\ngame time: 3\nfield:\n  1 2 1\n  2 1 3\n"
    );
    std::fs::write(dir.join("short.ktz"), header).expect("a header");
}

#[test]
fn a_slow_program_is_stopped_and_its_turn_recorded_as_timeout() {
    let dir = temporary();
    // Under the virtual clock: the third answer takes 2 s, the bound 0.3 s.
    let slow = fixture_player("slow.py", "2000 3");
    let (record, _) = play(
        dir.path(),
        &slow,
        "builtin:greedy",
        &["--clock", "virtual", "--think-ms", "300"],
    );
    let stopped: Vec<&str> = record
        .lines()
        .filter(|line| line.contains("timeout"))
        .collect();
    assert_eq!(
        stopped.len(),
        2,
        "once a game (started afresh for game 2):\n{record}"
    );
    for line in stopped {
        assert!(
            line.contains(" A timeout  # no answer within 300 ms: stopped"),
            "{line}"
        );
    }
    // Under the wall clock: a clock of 1 s, an answer after 3 s.
    short_clocks(dir.path(), "1");
    // A command line of two commands, stopped as a whole.
    let slow = format!(
        "cd {} && python3 slow.py 3000 1",
        common::player("").display()
    );
    let (record, _) = play(
        dir.path(),
        &slow,
        "builtin:greedy",
        &["--params", "short.ktz"],
    );
    assert!(
        record.contains(" A timeout  # no answer within 1000 ms: stopped"),
        "{record}"
    );
}

#[test]
fn an_answer_within_the_time_margin_counts_and_spends_the_clock() {
    let dir = temporary();
    short_clocks(dir.path(), "0.5");
    // Every answer takes 0.7 s against a clock of 0.5 s.
    let slow = fixture_player("slow.py", "700 1");
    let (record, _) = play(
        dir.path(),
        &slow,
        "builtin:greedy",
        &["--params", "short.ktz", "--time-margin", "5000"],
    );
    let late: Vec<&str> = record
        .lines()
        .filter(|line| line.contains(" A 0.5 pass  # answered "))
        .collect();
    // Once a game: the pass counts, charged the 500 ms left, and A is out.
    assert_eq!(late.len(), 2, "{record}");
    assert!(
        late[0].contains(
            "ms after its clock ran out, within the time margin: charged the 500 ms left"
        ),
        "{}",
        late[0]
    );
    let (record, _) = play(
        dir.path(),
        &slow,
        "builtin:greedy",
        &["--params", "short.ktz"],
    );
    assert!(
        record.contains(" A timeout  # no answer within 500 ms: stopped"),
        "{record}"
    );
}

#[test]
fn a_program_that_crashes_or_closes_its_output_passes_and_the_match_goes_on() {
    let dir = temporary();
    let (record, run) = play(
        dir.path(),
        &fixture_player("crash.py", ""),
        "builtin:2",
        &["--clock", "virtual"],
    );
    assert!(
        record.contains("A 0.5 pass  # illegal: the program ended (exit status: 3) without answering; counted as a pass"),
        "{record}"
    );
    // Said on standard error too, with the first such turn.
    assert!(
        run.stderr
            .contains("katazuke: A's player did not answer as asked in ")
            && run.stderr.contains(
                "; the first, game 1 turn 3: illegal: the program ended (exit status: 3)"
            ),
        "{}",
        run.stderr
    );
    let (record, _) = play(
        dir.path(),
        &fixture_player("closer.py", ""),
        "builtin:2",
        &["--clock", "virtual"],
    );
    assert!(
        record.contains("closed its output without answering; counted as a pass"),
        "{record}"
    );
}

#[test]
fn garbage_and_illegal_answers_count_as_passes_or_put_the_team_out() {
    let dir = temporary();
    let virtual_clock = ["--clock", "virtual"];
    let (record, _) = play(
        dir.path(),
        &fixture_player("garbage.py", ""),
        "builtin:greedy",
        &virtual_clock,
    );
    assert!(
        record.contains(r#"A 0.5 pass  # illegal: "hello there": unknown step "hello""#),
        "{record}"
    );
    let (record, _) = play(
        dir.path(),
        &fixture_player("illegal.py", ""),
        "builtin:greedy",
        &virtual_clock,
    );
    assert!(
        record.contains("[E-NOT-ADJACENT]; counted as a pass"),
        "{record}"
    );
    let (record, _) = play(
        dir.path(),
        &fixture_player("garbage.py", ""),
        "builtin:greedy",
        &["--clock", "virtual", "--illegal", "out"],
    );
    let outs: Vec<&str> = record
        .lines()
        .filter(|line| line.contains("out for the game"))
        .collect();
    assert_eq!(outs.len(), 2, "{record}");
    assert!(
        outs.iter()
            .all(|line| line.contains(" A timeout  # illegal:")),
        "{record}"
    );
}

#[test]
fn bad_players_and_parameters_are_one_line_with_status_2() {
    let dir = temporary();
    for (args, expected) in [
        (
            vec!["play", "--A", "builtin:9", "--B", "builtin"],
            "--A: unknown built-in player \"builtin:9\": builtin, builtin:1 to builtin:6, builtin:mcts, builtin:mcts:1 to builtin:mcts:6, builtin:greedy or builtin:random",
        ),
        (vec!["play", "--A", "human", "--B", "human"], "at most one player may be human"),
        (
            vec!["play", "--A", "builtin", "--B", "builtin", "--params", "missing.ktz"],
            "cannot read missing.ktz",
        ),
        (
            vec!["play", "--A", "builtin", "--B", "builtin", "-o", "match.gif"],
            "match.gif",
        ),
    ] {
        let run = katazuke_in(dir.path(), &args, "");
        assert_eq!(run.code, 2, "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: {}", run.stderr);
        assert!(run.stderr.contains(expected), "{args:?}: {}", run.stderr);
    }
    assert!(!dir.path().join("match.gif").exists());
    // A header without a field.
    std::fs::write(
        dir.path().join("nofield.ktz"),
        "katazuke 1\ncapacity: 4\nstock: 2\n",
    )
    .expect("a file");
    let run = katazuke_in(
        dir.path(),
        &[
            "play",
            "--A",
            "builtin",
            "--B",
            "builtin",
            "--params",
            "nofield.ktz",
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.contains("the parameters give no field"),
        "{}",
        run.stderr
    );
}

#[test]
fn suggest_names_the_engines_turn_where_the_log_stops_or_at_a_turn() {
    let run = katazuke(&["suggest", &practice(), "--at", "1:9"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("game 1, turn 10: B "),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains(" cells for B ("), "{}", run.stdout);
    let json = katazuke(&["suggest", &practice(), "--at", "2:0", "--json"], "");
    assert_eq!(json.code, 0, "{}", json.stderr);
    let value: serde_json::Value = serde_json::from_str(&json.stdout).expect("one JSON object");
    assert_eq!(value["team"], "B");
    assert_eq!(value["turn"], 1);
    // A log cut in the middle of game 1: where it stops.
    let log = std::fs::read_to_string(practice()).expect("the example");
    let cut: String = log
        .lines()
        .take_while(|line| !line.starts_with(" 6."))
        .map(|line| format!("{line}\n"))
        .collect();
    let run = katazuke(&["suggest", "-"], &cut);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.starts_with("game 1, turn 6: B "),
        "{}",
        run.stdout
    );
    for (at, expected) in [
        ("1:99", "game 1 has no turn 99"),
        ("1:14", "has ended after turn 14"),
        ("3:1", "expected G:K"),
    ] {
        let run = katazuke(&["suggest", &practice(), "--at", at], "");
        assert_eq!(run.code, 2, "{at}");
        assert!(run.stderr.contains(expected), "{at}: {}", run.stderr);
    }
}

/// `examples/katazuke/suggest_player.py` puts a build of katazuke in a
/// match as a program: each of its turns must be the one that build's
/// `suggest` gives at that point of the finished record, in both games,
/// so the log it rebuilds from the protocol is the referee's; at the level
/// it is given, or without one at `suggest`'s own default (`builtin`'s,
/// 600,000 positions a turn: on a 4 × 4 field whose games last a few
/// turns, where level 1 would open otherwise, so that a debug build plays
/// it in seconds).
#[test]
fn the_suggest_player_plays_what_suggest_says_at_each_of_its_turns() {
    suggest_player_plays_what_suggest_says(Some("1"), &practice());
    suggest_player_plays_what_suggest_says(None, SHORT_GAMES);
}

/// The parameters of a match on a 4 × 4 field with a game clock of 30 s:
/// two or three turns a team.
const SHORT_GAMES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/matches/short-games.ktz");

/// Plays the script at `level` against `builtin:1` with the `--params`
/// log `params`, and checks its turns.
fn suggest_player_plays_what_suggest_says(level: Option<&str>, params: &str) {
    let dir = temporary();
    let player = format!(
        "python3 {} {} {}",
        common::repository("examples/katazuke/suggest_player.py").display(),
        common::KATAZUKE,
        level.unwrap_or("")
    );
    let level: Vec<&str> = level.map_or(Vec::new(), |level| vec!["--level", level]);
    let (record, _) = play(
        dir.path(),
        &player,
        "builtin:1",
        // A bound no loaded machine reaches: a late answer would be a
        // timeout in the record, not the script's turn.
        &[
            "--params",
            params,
            "--clock",
            "virtual",
            "--think-ms",
            "60000",
        ],
    );
    assert!(!record.contains("# illegal"), "{record}");
    let mut game = 0;
    let mut checked = [0; 2];
    for line in record.lines() {
        // `game 2`, not `game time: 36.0`.
        if let Some(Ok(number)) = line.strip_prefix("game ").map(str::parse) {
            game = number;
            continue;
        }
        let Some((turn, rest)) = line.trim_start().split_once(". A ") else {
            continue;
        };
        let Ok(turn) = turn.parse::<u32>() else {
            continue;
        };
        // `A 3.5 clear b1:2`, or `A timeout`: the steps after the duration.
        let steps = match rest.split_once(' ') {
            Some((_, steps)) if rest != "timeout" => steps,
            _ => rest,
        };
        let at = format!("{game}:{}", turn - 1);
        let run = katazuke_in(
            dir.path(),
            &[&["suggest", "match.ktz", "--at", &at, "--json"], &level[..]].concat(),
            "",
        );
        assert_eq!(run.code, 0, "{at}: {}", run.stderr);
        let value: serde_json::Value = serde_json::from_str(&run.stdout).expect("one JSON object");
        assert_eq!(value["action"], steps, "turn {at}\n{record}");
        checked[game - 1] += 1;
    }
    assert!(
        checked.iter().all(|&turns| turns > 0),
        "{checked:?}\n{record}"
    );
}

#[test]
fn annotated_replays_add_the_engines_turn_to_each_caption() {
    let dir = temporary();
    let plain = katazuke_in(dir.path(), &["replay", &practice(), "-o", "plain.gif"], "");
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    let annotated = katazuke_in(
        dir.path(),
        &["replay", &practice(), "--annotate", "-o", "annotated.gif"],
        "",
    );
    assert_eq!(annotated.code, 0, "{}", annotated.stderr);
    let frames = |name: &str| {
        let bytes = std::fs::read(dir.path().join(name)).expect("a GIF");
        reel::decode_gif(&bytes).expect("a GIF").frames.len()
    };
    assert_eq!(frames("plain.gif"), frames("annotated.gif"));
    assert_ne!(
        std::fs::read(dir.path().join("plain.gif")).expect("a GIF"),
        std::fs::read(dir.path().join("annotated.gif")).expect("a GIF")
    );
}

#[test]
fn a_tournament_killed_midway_resumes_to_the_standings_of_one_run() {
    let dir = temporary();
    let args = |results: &str| -> Vec<String> {
        [
            "tournament",
            "builtin:1",
            "builtin:greedy",
            "builtin:random",
            "--fields",
            "5",
        ]
        .into_iter()
        .chain([
            "--clock",
            "virtual",
            "--think-ms",
            "600000",
            "-q",
            "--results",
            results,
        ])
        .map(str::to_string)
        .collect()
    };
    let whole = katazuke_in(
        dir.path(),
        &args("whole.jsonl")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        "",
    );
    assert_eq!(whole.code, 0, "{}", whole.stderr);
    assert!(whole.stdout.contains("Rank  Name"), "{}", whole.stdout);
    let lines = |name: &str| {
        std::fs::read_to_string(dir.path().join(name))
            .map(|text| text.lines().count())
            .unwrap_or(0)
    };
    assert_eq!(
        lines("whole.jsonl"),
        1 + 15,
        "a header and 3 pairs × 5 fields"
    );
    // Killed (SIGKILL) once a few matches are in, then run again.
    let mut child = Command::new(env!("CARGO_BIN_EXE_katazuke"))
        .args(args("killed.jsonl"))
        .current_dir(dir.path())
        .stdout(std::process::Stdio::null())
        .spawn()
        .expect("katazuke starts");
    while lines("killed.jsonl") < 4 {
        if child.try_wait().expect("a status").is_some() {
            break;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    child.kill().expect("killed");
    child.wait().expect("ended");
    let kept = lines("killed.jsonl");
    assert!(kept < 16, "the tournament finished before it was killed");
    let resumed = katazuke_in(
        dir.path(),
        &args("killed.jsonl")
            .iter()
            .map(String::as_str)
            .collect::<Vec<_>>(),
        "",
    );
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    assert_eq!(resumed.stdout, whole.stdout);
    assert_eq!(lines("killed.jsonl"), 16);
    // Another tournament's results are refused, with the file named.
    let mut other = args("whole.jsonl");
    other[1] = "builtin:2".into();
    let refused = katazuke_in(
        dir.path(),
        &other.iter().map(String::as_str).collect::<Vec<_>>(),
        "",
    );
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(refused.stderr.contains("whole.jsonl"), "{}", refused.stderr);
}

#[test]
fn a_person_who_mistypes_is_asked_again() {
    let dir = temporary();
    let run = katazuke_in(
        dir.path(),
        &[
            "play",
            "--A",
            "human",
            "--B",
            "builtin:greedy",
            "--clock",
            "virtual",
            "-o",
            "match.ktz",
        ],
        "clear a1\nbogus\nclear b2\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("not allowed: clear a1: a1 is not adjacent to A's current territory b3 (§5.1) [E-NOT-ADJACENT]"), "{}", run.stderr);
    assert!(
        run.stderr.contains("not a turn: unknown step \"bogus\""),
        "{}",
        run.stderr
    );
    let record = std::fs::read_to_string(dir.path().join("match.ktz")).expect("the record");
    assert!(record.contains("\n 1. A 2.5 clear b2\n"), "{record}");
    // Once standard input ends, the person's turns are passes.
    assert!(
        record.contains("A 0.5 pass  # illegal: standard input ended; counted as a pass"),
        "{record}"
    );
}

#[test]
fn a_program_that_never_reads_and_floods_its_output_neither_blocks_nor_fills_the_memory() {
    let dir = temporary();
    let flood = fixture_player("flood.py", "");
    let (record, _) = play(dir.path(), &flood, &flood, &["--clock", "virtual"]);
    // Its out-of-turn lines are dropped; what it says when asked is a pass.
    assert!(record.contains(" 1. A 0.5 pass\n"), "{record}");
}

#[test]
fn a_signal_stops_the_player_programs_too() {
    let dir = temporary();
    // A duration unique to this test run (its process id in the decimals),
    // to find the program by without mistaking another run's for it.
    let marker = format!("301.{}", std::process::id());
    let sleep = format!("sleep {marker}");
    let mut child = Command::new(env!("CARGO_BIN_EXE_katazuke"))
        .args([
            "play",
            "--A",
            &sleep,
            "--B",
            "builtin:2",
            "-q",
            "-o",
            "match.ktz",
        ])
        .current_dir(dir.path())
        .spawn()
        .expect("katazuke starts");
    let running = || {
        std::fs::read_dir("/proc")
            .expect("/proc")
            .filter_map(Result::ok)
            .filter_map(|entry| std::fs::read(entry.path().join("cmdline")).ok())
            // Arguments end with a NUL: 301.12 is not found in 301.123.
            .any(|cmdline| {
                let wanted = format!("{marker}\0");
                cmdline
                    .windows(wanted.len())
                    .any(|window| window == wanted.as_bytes())
            })
    };
    let started = std::time::Instant::now();
    while !running() && started.elapsed() < std::time::Duration::from_secs(20) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    assert!(running(), "the player program never started");
    let pid = libc::pid_t::try_from(child.id()).expect("a pid");
    // SAFETY: kill only sends a signal to our own child.
    unsafe {
        libc::kill(pid, libc::SIGINT);
    }
    let status = child.wait().expect("katazuke ends");
    assert_eq!(
        std::os::unix::process::ExitStatusExt::signal(&status)
            .or(status.code().map(|code| code - 128)),
        Some(libc::SIGINT)
    );
    std::thread::sleep(std::time::Duration::from_millis(200));
    assert!(!running(), "the player program outlived katazuke");
    assert!(!dir.path().join("match.ktz").exists());
}
