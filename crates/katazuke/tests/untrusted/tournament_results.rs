//! `katazuke tournament` and its results file: lines that lie about their
//! match, files that are not results files, two runs on one file,
//! outputs that cannot be written and schedules too large to play.

use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use serde_json::Value;

use crate::common::{katazuke_in, Run};

/// A tournament that plays its two matches in well under a second:
/// builtin:random against builtin:greedy on two practice fields, the
/// virtual clock.
const PAIR: [&str; 2] = ["builtin:random", "builtin:greedy"];

fn tournament_args<'a>(players: &[&'a str], results: &'a str, extra: &[&'a str]) -> Vec<&'a str> {
    let mut args = vec!["tournament"];
    args.extend_from_slice(players);
    args.extend_from_slice(&["--clock", "virtual", "--think-ms", "600000", "-q"]);
    args.extend_from_slice(&["--results", results]);
    args.extend_from_slice(extra);
    args
}

fn tournament(dir: &Path, results: &str, extra: &[&str]) -> Run {
    let mut args = tournament_args(&PAIR, results, &["--fields", "2"]);
    args.extend_from_slice(extra);
    katazuke_in(dir, &args, "")
}

/// The lines of a finished two-match tournament's results file (header,
/// pairing 0, pairing 1), and its standings.
fn played(dir: &Path) -> (Vec<String>, String) {
    let run = tournament(dir, "played.jsonl", &[]);
    assert_eq!(run.code, 0, "{}", run.stderr);
    let text = fs::read_to_string(dir.join("played.jsonl")).expect("the results file");
    let lines: Vec<String> = text.lines().map(String::from).collect();
    assert_eq!(lines.len(), 3, "{text}");
    (lines, run.stdout)
}

/// `line` with `change` made to its JSON.
fn changed(line: &str, change: impl FnOnce(&mut Value)) -> String {
    let mut value: Value = serde_json::from_str(line).expect("a JSON line");
    change(&mut value);
    value.to_string()
}

fn write_lines(path: &Path, lines: &[String]) -> Vec<u8> {
    let text = lines.join("\n") + "\n";
    fs::write(path, &text).expect("the results file is written");
    text.into_bytes()
}

/// Runs the tournament on `lines` and checks that it is refused with
/// `message` alone, status 2, nothing played and the file as it was.
fn assert_refused(dir: &Path, lines: &[String], message: &str) {
    let path = dir.join("r.jsonl");
    let before = write_lines(&path, lines);
    let run = tournament(dir, "r.jsonl", &[]);
    assert_eq!(
        (run.code, run.stderr.as_str(), run.stdout.as_str()),
        (2, format!("katazuke: {message}\n").as_str(), ""),
        "{}",
        lines.join("\n")
    );
    assert_eq!(fs::read(&path).expect("the results file"), before);
    assert!(!dir.join("r.jsonl.lock").exists());
}

fn damaged(line: usize, problem: &str) -> String {
    format!("r.jsonl line {line}: {problem}; repair or delete the line to resume")
}

#[test]
fn a_line_whose_winner_contradicts_its_totals_is_refused_with_its_number() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (lines, standings) = played(dir.path());
    // As played: match 0 won by B (builtin:greedy) 2-0, match 1 by A
    // (builtin:greedy again) 2-0.
    let (header, first, second) = (&lines[0], &lines[1], &lines[2]);
    assert!(first.contains(r#""winner":"B","criterion":1,"wins":{"A":0,"B":2}"#));
    assert!(second.contains(r#""winner":"A","criterion":1,"wins":{"A":2,"B":0}"#));

    // The true file is believed: nothing to play, the same standings.
    write_lines(&dir.path().join("r.jsonl"), &lines);
    let again = tournament(dir.path(), "r.jsonl", &[]);
    assert_eq!((again.code, again.stdout), (0, standings));

    let two_wins_b = "B wins by two game wins (criterion 1)";
    let cases: Vec<(usize, String, String)> = vec![
        // The winner turned round, the scores left as they were.
        (
            2,
            changed(first, |v| v["winner"] = "A".into()),
            format!("match 0 says A wins by two game wins (criterion 1), but its totals give {two_wins_b}"),
        ),
        // No winner claimed for a match won 2-0.
        (
            3,
            changed(second, |v| {
                v["winner"] = Value::Null;
                v["criterion"] = Value::Null;
            }),
            "match 1 says no winner (level on criteria 1-4), but its totals give A wins by two game wins (criterion 1)".into(),
        ),
        // The right winner for the wrong reason.
        (
            2,
            changed(first, |v| v["criterion"] = 3.into()),
            format!("match 0 says B wins by objects total (criterion 3), but its totals give {two_wins_b}"),
        ),
        // One game each: the territory total decides, not two wins.
        (
            2,
            changed(first, |v| v["wins"] = serde_json::json!({"A": 1, "B": 1})),
            "match 0 says B wins by two game wins (criterion 1), but its totals give B wins by territory total (criterion 2)".into(),
        ),
        // Level on criteria 1 to 4: the program never draws lots.
        (
            2,
            changed(first, |v| {
                let level = serde_json::json!({"A": 20, "B": 20});
                v["wins"] = serde_json::json!({"A": 1, "B": 1});
                v["territory"] = level.clone();
                v["objects"] = level;
                v["time_used"] = serde_json::json!({"A": 100000, "B": 100000});
                v["criterion"] = 5.into();
            }),
            "match 0 says B wins by janken (criterion 5), but its totals give no winner (level on criteria 1-4)".into(),
        ),
        // A criterion that does not exist.
        (
            3,
            changed(second, |v| v["criterion"] = 9.into()),
            "match 1 says winner A by criterion 9, but its totals give A wins by two game wins (criterion 1)".into(),
        ),
    ];
    for (number, line, problem) in cases {
        let mut file = vec![header.clone(), first.clone(), second.clone()];
        file[number - 1] = line;
        assert_refused(dir.path(), &file, &damaged(number, &problem));
    }
}

#[test]
fn totals_that_no_game_on_the_field_can_give_are_refused() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (lines, _) = played(dir.path());
    let (header, first, second) = (&lines[0], &lines[1], &lines[2]);
    let cases: Vec<(usize, String, &str)> = vec![
        // B won both games with less territory.
        (
            2,
            changed(first, |v| v["territory"] = serde_json::json!({"A": 27, "B": 15})),
            "match 0 has game wins 0-2 with territory 27-15, which cannot be: a game is won by more territory, and drawn with as much",
        ),
        // Two drawn games and different territories.
        (
            3,
            changed(second, |v| {
                v["wins"] = serde_json::json!({"A": 0, "B": 0});
                v["criterion"] = 2.into();
            }),
            "match 1 has game wins 0-0 with territory 26-16, which cannot be: a game is won by more territory, and drawn with as much",
        ),
        // A game won with no territory at all.
        (
            2,
            changed(first, |v| {
                v["wins"] = serde_json::json!({"A": 1, "B": 1});
                v["territory"] = serde_json::json!({"A": 0, "B": 42});
                v["criterion"] = 2.into();
            }),
            "match 0 has game wins 1-1 with territory 0-42, which cannot be: a game is won by more territory, and drawn with as much",
        ),
        // Three game wins in a match of two games.
        (
            2,
            changed(first, |v| v["wins"] = serde_json::json!({"A": 0, "B": 3})),
            "match 0 has 0 and 3 game wins in a match of 2 games",
        ),
        // More territory than the field has cells.
        (
            2,
            changed(first, |v| v["territory"] = serde_json::json!({"A": 15, "B": 4_000_000_000u32})),
            "match 0 has 4000000015 cells of territory over both games, more than field 0 allows (70)",
        ),
        // More objects than the field and the stocks hold.
        (
            3,
            changed(second, |v| v["objects"] = serde_json::json!({"A": 4_294_967_295u32, "B": 32})),
            "match 1 has 4294967327 objects cleared over both games, more than field 1 allows (192)",
        ),
        // More time than a team's clocks give it, and so much that a sum
        // of it would overflow.
        (
            2,
            changed(first, |v| v["time_used"]["A"] = u64::MAX.into()),
            "match 0 has 18446744073709551615 ms used by A over both games, more than field 0 allows (240000)",
        ),
        // Each team within its clock, both together beyond the game's.
        (
            3,
            changed(second, |v| v["time_used"] = serde_json::json!({"A": 240000, "B": 240000})),
            "match 1 has 480000 ms used by both teams over both games, more than field 1 allows (360000)",
        ),
        // Territory without the objects cleared to claim it.
        (
            2,
            changed(first, |v| v["objects"] = serde_json::json!({"A": 0, "B": 0})),
            "cells of territory with 0 objects cleared, which cannot be: a team holds its 3 start cells and the cells it cleared (§3.1, §6.1)",
        ),
        // Turns that took no time.
        (
            3,
            changed(second, |v| v["time_used"] = serde_json::json!({"A": 0, "B": 0})),
            "turns in 0 ms, which cannot be: every turn takes at least a millisecond (§7)",
        ),
    ];
    for (number, line, problem) in cases {
        let mut file = vec![header.clone(), first.clone(), second.clone()];
        file[number - 1] = line;
        let damaged = damaged(number, problem);
        // The two last cases name counts of the played match: compare the
        // line's number and the words of the rule.
        if problem.starts_with("match") {
            assert_refused(dir.path(), &file, &damaged);
        } else {
            let path = dir.path().join("r.jsonl");
            write_lines(&path, &file);
            let run = tournament(dir.path(), "r.jsonl", &[]);
            assert_eq!(run.code, 2, "{}", run.stderr);
            assert!(
                run.stderr.contains(&format!("line {number}: match "))
                    && run.stderr.contains(problem),
                "{}",
                run.stderr
            );
        }
    }
}

#[test]
fn every_line_must_be_the_match_the_schedule_has_at_its_place() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (lines, _) = played(dir.path());
    let (header, first, second) = (&lines[0], &lines[1], &lines[2]);
    let cases: Vec<(Vec<String>, String)> = vec![
        // The letters turned round: on field 0 the earlier entrant is A.
        (
            vec![
                header.clone(),
                changed(first, |v| {
                    v["a"] = "builtin:greedy".into();
                    v["b"] = "builtin:random".into();
                }),
            ],
            damaged(2, "match 0 is builtin:random as A against builtin:greedy as B (the letters alternate from field to field), not the other way round"),
        ),
        // Match 1's result filed as match 0.
        (
            vec![header.clone(), changed(second, |v| v["pairing"] = 0.into())],
            damaged(2, "match 0 is builtin:random against builtin:greedy on field 0, not builtin:greedy against builtin:random on field 1"),
        ),
        // A player who is not in this tournament.
        (
            vec![header.clone(), changed(first, |v| v["b"] = "builtin:3".into())],
            damaged(2, "match 0 is builtin:random against builtin:greedy on field 0, not builtin:random against builtin:3 on field 0"),
        ),
        // A match the schedule does not have.
        (
            vec![header.clone(), first.clone(), changed(second, |v| v["pairing"] = 2.into())],
            damaged(3, "match 2 is not in the schedule of 2 matches"),
        ),
        // One match twice.
        (
            vec![header.clone(), first.clone(), second.clone(), first.clone()],
            damaged(4, "match 0 is already on line 2"),
        ),
    ];
    for (file, message) in cases {
        assert_refused(dir.path(), &file, &message);
    }
}

#[test]
fn results_are_read_back_a_bounded_line_at_a_time() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let (lines, _) = played(dir.path());
    let (header, first) = (&lines[0], &lines[1]);

    // An endless device is not a results file: refused at once.
    let started = Instant::now();
    let zero = tournament(dir.path(), "/dev/zero", &[]);
    assert_eq!(
        (zero.code, zero.stderr.as_str()),
        (2, "katazuke: the results file /dev/zero cannot be written: it is not a regular file, and a results file is read back and appended to\n")
    );
    assert!(started.elapsed() < Duration::from_secs(10));

    // A valid result padded past the line limit, as a hostile editor
    // might: refused by its length, not parsed.
    let padded = first.replacen(',', &format!(",{}", " ".repeat(2 << 20)), 1);
    assert!(serde_json::from_str::<Value>(&padded).is_ok());
    let too_long = "the line is longer than 1 MiB, the most a line may hold";
    assert_refused(dir.path(), &[header.clone(), padded], &damaged(2, too_long));

    // 256 MiB of zero bytes after the header (a sparse file, so it
    // costs no disk): refused after the first MiB.
    let path = dir.path().join("r.jsonl");
    fs::write(&path, format!("{header}\n")).expect("a header");
    let file = fs::OpenOptions::new()
        .write(true)
        .open(&path)
        .expect("the file opens");
    file.set_len(256 << 20).expect("a sparse file");
    drop(file);
    let started = Instant::now();
    let run = tournament(dir.path(), "r.jsonl", &[]);
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (2, format!("katazuke: {}\n", damaged(2, too_long)).as_str())
    );
    assert!(started.elapsed() < Duration::from_secs(10));
    assert_eq!(fs::metadata(&path).expect("still there").len(), 256 << 20);

    // A byte that is not UTF-8, named with its line and column.
    let bytes = [
        header.as_bytes(),
        b"\n",
        first.as_bytes(),
        b"\n{\"pairing\xFF\n",
    ]
    .concat();
    fs::write(&path, &bytes).expect("a bad byte");
    let run = tournament(dir.path(), "r.jsonl", &[]);
    let message = damaged(3, "the line is not UTF-8 text: byte 0xFF at column 10");
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (2, format!("katazuke: {message}\n").as_str())
    );
    assert_eq!(fs::read(&path).expect("unchanged"), bytes);

    // A header that an editor saved with a byte-order mark.
    let bytes = [b"\xEF\xBB\xBF", header.as_bytes(), b"\n"].concat();
    fs::write(&path, &bytes).expect("a marked header");
    let run = tournament(dir.path(), "r.jsonl", &[]);
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (2, "katazuke: r.jsonl is not the results file of this tournament (its first line is not a tournament's header: the text begins with a UTF-8 byte-order mark (bytes EF BB BF); save it without one); name another results file, or delete this one to start afresh\n")
    );
    assert_eq!(fs::read(&path).expect("unchanged"), bytes);
}

/// Starts a tournament of three built-in players on `fields` fields that
/// takes seconds, in `dir`, on `results`.
fn start_slow(dir: &Path, results: &str, fields: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_katazuke"))
        .args(tournament_args(
            &["builtin:2", "builtin:greedy", "builtin:random"],
            results,
            &["--fields", fields],
        ))
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("katazuke starts")
}

/// Waits until `child` has written its results file's header.
fn wait_for_header(child: &mut Child, results: &Path) {
    let deadline = Instant::now() + Duration::from_secs(60);
    while fs::read_to_string(results).map_or(true, |text| !text.contains('\n')) {
        assert!(
            child.try_wait().expect("a status").is_none(),
            "the first run ended before writing its header"
        );
        assert!(Instant::now() < deadline, "no header after a minute");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// The pairings of a results file's lines, in order.
fn pairings(results: &Path) -> Vec<u64> {
    fs::read_to_string(results)
        .expect("the results file")
        .lines()
        .skip(1)
        .map(|line| {
            let value: Value = serde_json::from_str(line).expect("a result line");
            value["pairing"].as_u64().expect("a pairing")
        })
        .collect()
}

#[test]
fn a_second_run_on_a_results_file_in_use_is_refused_naming_the_first() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let results = dir.path().join("r.jsonl");
    let mut first = start_slow(dir.path(), "r.jsonl", "4");
    wait_for_header(&mut first, &results);
    let real = fs::canonicalize(dir.path()).expect("the folder");
    let holder = format!(
        "katazuke: r.jsonl is in use: {}/r.jsonl.lock is held by process {} (",
        real.display(),
        first.id()
    );
    std::os::unix::fs::symlink("r.jsonl", dir.path().join("link.jsonl")).expect("a link");
    // A hard link is the same file under a name with a lock file of its
    // own: the file itself is locked too.
    fs::hard_link(&results, dir.path().join("hard.jsonl")).expect("a hard link");
    let second = katazuke_in(
        dir.path(),
        &tournament_args(
            &["builtin:2", "builtin:greedy", "builtin:random"],
            "hard.jsonl",
            &["--fields", "4"],
        ),
        "",
    );
    assert_eq!(second.code, 2, "{}", second.stderr);
    assert_eq!(
        second.stderr,
        "katazuke: hard.jsonl is in use: hard.jsonl is held by another run that names it \
         otherwise (a link to it), which is still running; wait for it to finish or stop it\n"
    );
    // The same file by its name, another spelling of it, and a symbolic
    // link to it.
    for name in ["r.jsonl", "./r.jsonl", "link.jsonl"] {
        let second = katazuke_in(
            dir.path(),
            &tournament_args(
                &["builtin:2", "builtin:greedy", "builtin:random"],
                name,
                &["--fields", "4"],
            ),
            "",
        );
        assert_eq!(second.code, 2, "{name}: {}", second.stderr);
        let said = second.stderr.replace(name, "r.jsonl");
        assert!(said.starts_with(&holder), "{said}");
        assert!(
            said.ends_with(
                "--fields 4), which is still running; wait for it to finish or stop it\n"
            ),
            "{said}"
        );
        assert_eq!(said.lines().count(), 1, "{said}");
        assert_eq!(second.stdout, "");
    }
    assert!(
        first.try_wait().expect("a status").is_none(),
        "the first run must still be playing for this test to mean anything"
    );
    let status = first.wait().expect("the first run ends");
    assert!(status.success());
    // Every match once, and the lock gone with its holder.
    let mut played = pairings(&results);
    played.sort_unstable();
    assert_eq!(played, (0..12).collect::<Vec<u64>>());
    assert!(!dir.path().join("r.jsonl.lock").exists());

    // Two runs started together: one plays, the other is refused.
    let fresh = dir.path().join("both.jsonl");
    let runs = [
        start_slow(dir.path(), "both.jsonl", "2"),
        start_slow(dir.path(), "both.jsonl", "2"),
    ];
    let ended: Vec<(i32, String)> = runs
        .into_iter()
        .map(|child| {
            let output = child.wait_with_output().expect("it ends");
            (
                output.status.code().unwrap_or(-1),
                String::from_utf8_lossy(&output.stderr).into_owned(),
            )
        })
        .collect();
    let mut codes: Vec<i32> = ended.iter().map(|(code, _)| *code).collect();
    codes.sort_unstable();
    assert_eq!(codes, [0, 2], "{ended:?}");
    assert!(ended
        .iter()
        .any(|(_, said)| said.contains("both.jsonl is in use")));
    let mut played = pairings(&fresh);
    played.sort_unstable();
    assert_eq!(played, (0..6).collect::<Vec<u64>>());
}

#[test]
fn a_run_killed_leaves_a_lock_that_does_not_hold_the_next() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let results = dir.path().join("r.jsonl");
    let mut first = start_slow(dir.path(), "r.jsonl", "2");
    wait_for_header(&mut first, &results);
    first.kill().expect("killed");
    first.wait().expect("ended");
    assert!(dir.path().join("r.jsonl.lock").exists());
    let next = katazuke_in(
        dir.path(),
        &tournament_args(
            &["builtin:2", "builtin:greedy", "builtin:random"],
            "r.jsonl",
            &["--fields", "2"],
        ),
        "",
    );
    assert_eq!(next.code, 0, "{}", next.stderr);
    let mut played = pairings(&results);
    played.sort_unstable();
    assert_eq!(played, (0..6).collect::<Vec<u64>>());
    assert!(!dir.path().join("r.jsonl.lock").exists());
}

#[test]
fn outputs_that_cannot_be_written_are_refused_before_any_match() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    fs::write(dir.path().join("a-file"), "").expect("a file");
    fs::create_dir(dir.path().join("a-folder")).expect("a folder");
    // The running user may be root, whom permissions do not stop: these
    // outputs cannot be written by anyone.
    let cases = [
        (
            ["r.jsonl", "a-file"],
            "the records folder a-file cannot be written: it is not a folder",
        ),
        (
            ["r.jsonl", "a-file/records"],
            "the records folder a-file/records cannot be written: Not a directory (os error 20)",
        ),
        // One name for both: the results file is made first.
        (
            ["same", "same"],
            "the records folder same cannot be written: it is not a folder",
        ),
        (
            ["a-folder", "records"],
            "the results file a-folder cannot be written: it is a folder",
        ),
        (
            ["missing/r.jsonl", "records"],
            "the results file missing/r.jsonl cannot be written: cannot lock missing/r.jsonl.lock: No such file or directory (os error 2)",
        ),
    ];
    for ([results, records], message) in cases {
        let run = tournament(dir.path(), results, &["--records", records]);
        assert_eq!(
            (run.code, run.stderr.as_str(), run.stdout.as_str()),
            (2, format!("katazuke: {message}\n").as_str(), ""),
            "{results} {records}"
        );
        assert_eq!(
            crate::common::files_in(dir.path()),
            ["a-file", "a-folder"],
            "{results} {records}: nothing is made"
        );
    }

    // The lock file is found through the real path of the folder.
    let run = tournament(dir.path(), "a-file/r.jsonl", &[]);
    let real = fs::canonicalize(dir.path()).expect("the folder");
    assert_eq!(
        (run.code, run.stderr),
        (
            2,
            format!(
                "katazuke: the results file a-file/r.jsonl cannot be written: cannot lock {}/a-file/r.jsonl.lock: Not a directory (os error 20)\n",
                real.display()
            )
        )
    );
    assert_eq!(crate::common::files_in(dir.path()), ["a-file", "a-folder"]);

    // A results file cut short by a kill is left as it was when the
    // records folder is refused: it is only cut when play begins.
    let (lines, _) = played(dir.path());
    let path = dir.path().join("r.jsonl");
    let cut = format!("{}\n{}\n{}", lines[0], lines[1], &lines[2][..40]);
    fs::write(&path, &cut).expect("a cut file");
    let run = tournament(dir.path(), "r.jsonl", &["--records", "a-file"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert_eq!(fs::read_to_string(&path).expect("the file"), cut);
}

#[test]
fn schedules_too_large_to_play_are_refused_in_one_line() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let names =
        |count: usize| -> Vec<String> { (1..=count).map(|i| format!("player-{i}")).collect() };
    let many = names(2000);
    let some = names(1415);
    let gauntlet = names(1001);
    let cases: Vec<(Vec<&str>, &str, String)> = vec![
        (
            many.iter().map(String::as_str).collect(),
            "10000",
            "a round-robin of 2000 entrants on 10000 fields is 19990000000 matches; a tournament may have at most 1000000 (fewer entrants or fields)".into(),
        ),
        // Just past the limit on a single field.
        (
            some.iter().map(String::as_str).collect(),
            "1",
            "a round-robin of 1415 entrants on 1 field is 1000405 matches; a tournament may have at most 1000000 (fewer entrants or fields)".into(),
        ),
        // Few matches, but a cross table of a million cells.
        (
            gauntlet.iter().map(String::as_str).collect(),
            "1",
            "1001 entrants: a tournament may have at most 1000 (its cross table has a row and a column for each)".into(),
        ),
    ];
    for (players, fields, message) in cases {
        let mut args = tournament_args(&players, "r.jsonl", &["--fields", fields]);
        if players.len() == 1001 {
            args.push("--gauntlet");
        }
        let started = Instant::now();
        let run = katazuke_in(dir.path(), &args, "");
        assert_eq!(
            (run.code, run.stderr.as_str(), run.stdout.as_str()),
            (2, format!("katazuke: {message}\n").as_str(), ""),
        );
        assert!(started.elapsed() < Duration::from_secs(20));
        assert!(crate::common::files_in(dir.path()).is_empty());
    }

    // Names so long that a line of the results file could not be read
    // back (the line limit is 1 MiB).
    let long: Vec<String> = (0..11)
        .map(|i| format!("true # {i} {}", "x".repeat(100_000)))
        .collect();
    let players: Vec<&str> = long.iter().map(String::as_str).collect();
    let run = katazuke_in(
        dir.path(),
        &tournament_args(&players, "r.jsonl", &["--fields", "1"]),
        "",
    );
    assert_eq!(run.code, 2, "{}", run.stderr);
    assert!(
        run.stderr.starts_with(
            "katazuke: the entrants' names are too long: a line of the results file would take "
        ),
        "{}",
        run.stderr
    );
    assert!(run
        .stderr
        .ends_with(" bytes, and a line may hold at most 1 MiB\n"));
    assert!(crate::common::files_in(dir.path()).is_empty());
}

#[test]
fn the_holder_of_a_results_file_is_named_on_one_line_whatever_its_command_line() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let results = dir.path().join("r.jsonl");
    // A program entrant whose command line holds a line break and an
    // escape: it ends at once, so its turns are passes.
    let odd = "exit 0\n# \u{1b}[2J two lines";
    let players = ["builtin:2", "builtin:greedy", odd];
    let mut first = Command::new(env!("CARGO_BIN_EXE_katazuke"))
        .args(tournament_args(&players, "r.jsonl", &["--fields", "4"]))
        .current_dir(dir.path())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("katazuke starts");
    wait_for_header(&mut first, &results);
    let second = katazuke_in(
        dir.path(),
        &tournament_args(&players, "r.jsonl", &["--fields", "4"]),
        "",
    );
    let still_playing = first.try_wait().expect("a status").is_none();
    first.kill().expect("stopped");
    first.wait().expect("ended");
    assert!(still_playing, "the first run must still be playing");
    assert_eq!(second.code, 2, "{}", second.stderr);
    assert_eq!(second.stderr.lines().count(), 1, "{}", second.stderr);
    assert!(
        second.stderr.contains(
            " exit 0?# ?[2J two lines --clock virtual --think-ms 600000 -q --results r.jsonl --fields 4), which is still running"
        ),
        "{}",
        second.stderr
    );
}
