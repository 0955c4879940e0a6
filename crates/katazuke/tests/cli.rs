//! The `katazuke` command as a user meets it (KATAZUKE.md §10, §14): every
//! error code reachable from a log with its exit status and its one-line
//! message, the warnings, the JSON of §14.1, the replay written whole or
//! not at all, and every command's help.

mod common;

use common::{files_in, katazuke, katazuke_in};

use common::PRACTICE_KTZ as PRACTICE;

/// The practice log with line `number` (from 1) replaced by `line`; an
/// empty `line` removes it.
fn with_line(number: usize, line: &str) -> String {
    let mut lines: Vec<&str> = PRACTICE.lines().collect();
    if line.is_empty() {
        lines.remove(number - 1);
    } else {
        lines[number - 1] = line;
    }
    lines.join("\n") + "\n"
}

/// The practice log with `line` inserted before line `number`.
fn with_inserted(number: usize, line: &str) -> String {
    let mut lines: Vec<&str> = PRACTICE.lines().collect();
    lines.insert(number - 1, line);
    lines.join("\n") + "\n"
}

/// (code, log, exit status, line of the error, words of its message)
fn cases() -> Vec<(&'static str, String, i32, usize, &'static str)> {
    vec![
        (
            "E-SYNTAX",
            with_line(23, " 2. B 2,5 clear d3:2 d5:2"),
            2,
            23,
            "bad duration",
        ),
        (
            "E-HEADER",
            with_line(9, "teamtime: 20"),
            2,
            9,
            "unknown key \"teamtime\"",
        ),
        (
            "E-HEADER",
            with_line(8, "capacity: 4"),
            2,
            8,
            "duplicate key \"capacity\"",
        ),
        ("E-FIELD", with_line(13, "  2 1 3 1"), 2, 13, "ragged field"),
        ("E-FIELD", with_line(13, "  2 1 3 1 100"), 2, 13, "0 to 99"),
        (
            "E-CELL",
            with_line(26, " 5. A 2.5 clear f2:3"),
            2,
            26,
            "f2 is not a cell of the 5x5 field",
        ),
        (
            "E-PARAM",
            with_line(7, "capacity: 0"),
            2,
            7,
            "capacity must be one number 1..999",
        ),
        (
            "E-PARAM",
            with_line(10, "game time: 7200.001"),
            2,
            10,
            "game time must be",
        ),
        (
            "E-START",
            with_line(21, "B start: d4 d2"),
            2,
            21,
            "marked current",
        ),
        (
            "E-START",
            with_line(21, "B start: d4* b2"),
            2,
            21,
            "distinct",
        ),
        (
            "E-FIRST",
            with_line(39, "first: A"),
            2,
            39,
            "A was first in game 1",
        ),
        (
            "E-GAMES",
            with_line(38, "game 3"),
            2,
            38,
            "exactly two games",
        ),
        (
            "E-TEAM",
            with_line(23, " 2. A 2.5 clear d3:2 d5:2"),
            3,
            23,
            "it is B's turn, not A's",
        ),
        (
            "E-TURN-NUMBER",
            with_line(23, " 3. B 2.5 clear d3:2 d5:2"),
            3,
            23,
            "turn number 3, expected 2",
        ),
        (
            "E-ACTIONS",
            with_line(23, " 2. B 2.5 clear d3:2 d5:2 pass"),
            3,
            23,
            "pass is a second one",
        ),
        (
            "E-ACTIONS",
            with_line(23, " 2. B 2.5 empty"),
            3,
            23,
            "none given",
        ),
        (
            "E-EMPTY-TWICE",
            with_line(25, " 4. B 3.0 move d3 empty empty"),
            3,
            25,
            "emptied at most once",
        ),
        (
            "E-CLEAR-AFTER-EMPTY",
            with_line(23, " 2. B 2.5 empty clear d3:2 d5:2"),
            3,
            23,
            "no clear after emptying",
        ),
        (
            "E-NO-CURRENT",
            with_line(48, " 7. B 2.0 clear c3"),
            3,
            48,
            "B has no current territory",
        ),
        (
            "E-NOT-ADJACENT",
            with_line(23, " 2. B 2.5 clear a5"),
            3,
            23,
            "a5 is not adjacent to B's current territory d4",
        ),
        (
            "E-DUP-CELL",
            with_line(23, " 2. B 2.5 clear d3 d3"),
            3,
            23,
            "d3 is listed twice",
        ),
        (
            "E-TOO-MANY",
            with_line(23, " 2. B 2.5 clear d3:5"),
            3,
            23,
            "d3 holds 2",
        ),
        (
            "E-CAPACITY",
            with_line(23, " 2. B 2.5 clear d3:2 d5:2 c4"),
            3,
            23,
            "exceeds the capacity 4",
        ),
        (
            "E-STOCK",
            with_line(30, " 9. A 2.0 place d2:3"),
            3,
            30,
            "with 2 left in stock",
        ),
        (
            "E-MOVE-NOT-OWN",
            with_line(25, " 4. B 3.0 move a1 empty"),
            3,
            25,
            "a1 is not B's territory",
        ),
        (
            "E-MOVE-SAME",
            with_line(25, " 4. B 3.0 move d4 empty"),
            3,
            25,
            "already B's current territory",
        ),
        (
            "E-AFTER-END",
            with_inserted(36, "15. A 1.0 pass"),
            3,
            36,
            "game 1 ended after turn 14",
        ),
        (
            "E-UNFINISHED",
            with_line(35, ""),
            3,
            35,
            "game 1 stops before its end",
        ),
        (
            "E-RESULT-MISMATCH",
            with_line(36, "result: A 6 B 6"),
            3,
            36,
            "the territories are A 5 B 6",
        ),
        (
            "E-RESULT-MISMATCH",
            with_line(60, "winner: A"),
            3,
            60,
            "winner claims A; B wins",
        ),
    ]
}

#[test]
fn every_error_code_is_reported_with_its_status_line_and_message() {
    for (code, log, status, line, words) in cases() {
        let run = katazuke(&["check", "-"], &log);
        assert_eq!(run.code, status, "{code}: {}", run.stderr);
        let message = run
            .stderr
            .lines()
            .find(|message| message.contains(&format!("error[{code}]")))
            .unwrap_or_else(|| panic!("{code}: no message in {:?}", run.stderr));
        assert!(
            message.starts_with(&format!("-:{line}:")),
            "{code}: {message}"
        );
        assert!(message.contains(words), "{code}: {message}");
        assert!(message.contains("(§"), "{code} names no section: {message}");
        // The JSON says the same, and nothing else is on standard output.
        let json = katazuke(&["check", "--json", "-"], &log);
        assert_eq!(json.code, status, "{code}");
        let value: serde_json::Value = serde_json::from_str(&json.stdout).expect("one JSON object");
        assert_eq!(value["valid"], false, "{code}");
        assert_eq!(value["games"], serde_json::Value::Null, "{code}");
        assert_eq!(value["error"]["code"], code, "{code}");
        assert_eq!(value["error"]["line"], line, "{code}");
        assert_eq!(json.stderr, "", "{code}");
    }
}

#[test]
fn rule_messages_name_game_turn_team_and_role() {
    let log = with_line(23, " 2. B 2.5 clear a5");
    let run = katazuke(&["check", "-"], &log);
    let message = run
        .stderr
        .lines()
        .find(|l| l.contains("error["))
        .expect("a message");
    assert_eq!(
        message,
        "-:23:17: error[E-NOT-ADJACENT] game 1, turn 2, B (second): clear a5: a5 is not adjacent to B's current territory d4 (§5.1)"
    );
    // The standings before the problem follow the report.
    assert!(
        run.stdout
            .contains("standings before the problem: game 1, after turn 1"),
        "{}",
        run.stdout
    );
}

#[test]
fn the_worked_example_checks_as_section_11_5_says() {
    let run = katazuke(&["check", "--json", "-"], PRACTICE);
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    assert_eq!(
        run.stdout,
        concat!(
            r#"{"valid":true,"games":[{"game":1,"first":"A","end":"time","turns":14,"territory":{"A":5,"B":6},"#,
            r#""objects":{"A":8,"B":10},"time_used":{"A":20000,"B":16000},"winner":"B"},"#,
            r#"{"game":2,"first":"B","end":"time","turns":16,"territory":{"A":6,"B":5},"objects":{"A":6,"B":10},"#,
            r#""time_used":{"A":18000,"B":18000},"winner":"A"}],"match":{"wins":{"A":1,"B":1},"#,
            r#""territory":{"A":11,"B":11},"objects":{"A":14,"B":20},"time_used":{"A":38000,"B":34000},"#,
            r#""winner":"B","criterion":3},"illegal":[],"warnings":[]}"#,
            "\n"
        )
    );
    let human = katazuke(&["check", "-"], PRACTICE);
    assert_eq!(human.code, 0);
    assert!(
        human
            .stdout
            .contains("match: B (Takuma) wins by criterion 3 (objects total)"),
        "{}",
        human.stdout
    );
}

/// A match that earns every warning: a turn of 0 s, an empty emptied, an
/// overrun, fields that differ, a janken not needed.
const WARNED: &str = "katazuke 1
capacity: 3
stock: 1
team time: 10
game time: 15
field:
  1 1 1 1

game 1
first: A
A start: a1
B start: b1* c1
1. A 0 pass
2. B 1 empty move c1
3. A 20 pass
4. B 1 clear d1

game 2
field:
  1 1 1 2
first: B
B start: a1
A start: b1 c1*
1. B 1 pass
2. A 1 clear d1:2

janken: A
";

#[test]
fn warnings_are_printed_in_file_order_and_change_no_status() {
    let run = katazuke(&["check", "--json", "-"], WARNED);
    assert_eq!(run.code, 0, "{}", run.stdout);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    let warnings: Vec<(String, u64)> = value["warnings"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|w| {
            (
                w["code"].as_str().unwrap_or("").to_string(),
                w["line"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    let expected = [
        ("W-ZERO-DURATION", 13),
        ("W-EMPTY-NOOP", 14),
        ("W-OVERTIME", 15),
        ("W-FIELD-DIFFERS", 19),
        ("W-JANKEN-UNUSED", 27),
    ];
    let expected: Vec<(String, u64)> = expected.iter().map(|(c, l)| (c.to_string(), *l)).collect();
    assert_eq!(warnings, expected);
    // 1-1, territory 4-4; A cleared 2 objects, B 1.
    assert_eq!(value["match"]["criterion"], 3);
    assert_eq!(value["match"]["winner"], "A");
    let human = katazuke(&["check", "-"], WARNED);
    assert_eq!(human.code, 0);
    assert_eq!(human.stderr.lines().count(), 5, "{}", human.stderr);
    assert!(human.stderr.contains("-:15:"), "{}", human.stderr);
    assert!(human.stderr.contains("warning[W-OVERTIME] game 1, turn 3, A (first): the turn ended after the time had run out; nothing applied, 10000 ms charged (§7.2)"), "{}", human.stderr);
}

#[test]
fn illegal_pass_reports_every_illegal_turn_and_goes_on() {
    // Turn 2 breaks a rule: passed, B's territory stays as it was.
    let log = with_line(23, " 2. B 2.5 clear a5");
    let run = katazuke(&["check", "--json", "--illegal=pass", "-"], &log);
    let value: serde_json::Value = serde_json::from_str(&run.stdout).expect("JSON");
    // The claims that follow no longer hold: turn 4 moves to d3, which B
    // never claimed; that is the next illegal turn.
    let illegal: Vec<(String, u64)> = value["illegal"]
        .as_array()
        .expect("a list")
        .iter()
        .map(|i| {
            (
                i["code"].as_str().unwrap_or("").to_string(),
                i["line"].as_u64().unwrap_or(0),
            )
        })
        .collect();
    assert_eq!(illegal[0], ("E-NOT-ADJACENT".to_string(), 23));
    assert!(illegal.len() > 1, "{illegal:?}");
    // The claimed results no longer match: a rule the policy never passes.
    assert_eq!(run.code, 3);
    assert_eq!(value["error"]["code"], "E-RESULT-MISMATCH");
}

#[test]
fn events_ascii_and_fmt_print_what_they_say() {
    let events = katazuke(&["events", "-"], PRACTICE);
    assert_eq!(events.code, 0);
    let lines: Vec<&str> = events.stdout.lines().collect();
    assert!(
        lines[0].starts_with(r#"{"v":1,"ev":"match_start","teams":{"A":"Numazu","B":"Takuma"}"#)
    );
    assert!(lines.contains(&r#"{"v":1,"ev":"place","game":1,"turn":9,"t":22000,"team":"A","items":[["d2",1]],"stock":1}"#));
    assert!(lines.contains(&r#"{"v":1,"ev":"cancel","game":1,"turn":9,"t":22000,"cell":"d2","owner":"B","was_current":false}"#));
    assert!(lines
        .last()
        .is_some_and(|l| l.starts_with(r#"{"v":1,"ev":"match_end""#)));

    let ascii = katazuke(&["ascii", "-", "--turn", "1:9"], PRACTICE);
    assert_eq!(ascii.code, 0);
    assert!(
        ascii.stdout.starts_with(
            "# game 1, after turn 9 (A)\n    a  b  c  d  e\n  1 1  A  1  3  1\n  2 A  A  A* 1  2\n"
        ),
        "{}",
        ascii.stdout
    );
    let missing = katazuke(&["ascii", "-", "--turn", "1:99"], PRACTICE);
    assert_eq!(missing.code, 2);
    assert_eq!(missing.stderr, "katazuke: game 1 has no turn 99\n");
    let bad = katazuke(&["ascii", "-", "--turn", "x"], PRACTICE);
    assert_eq!(bad.code, 2);

    let formatted = katazuke(&["fmt", "-"], PRACTICE);
    assert_eq!(formatted.code, 0);
    assert!(formatted
        .stdout
        .contains("\n 1. A 3.0 clear b1:2 a2:2  # two cells claimed, container full\n"));
    let again = katazuke(&["fmt", "-"], &formatted.stdout);
    assert_eq!(again.stdout, formatted.stdout);
    let malformed = katazuke(&["fmt", "-"], &with_line(7, "capacity: x"));
    assert_eq!(malformed.code, 2);
    assert!(
        malformed.stderr.starts_with("-:7:11: error[E-SYNTAX]"),
        "{}",
        malformed.stderr
    );
}

#[test]
fn the_replay_is_written_whole_or_not_at_all() {
    let dir = tempfile::tempdir().expect("a folder");
    std::fs::write(dir.path().join("practice.ktz"), PRACTICE).expect("writable");
    let run = katazuke_in(
        dir.path(),
        &["replay", "practice.ktz", "-o", "practice.gif"],
        "",
    );
    assert_eq!((run.code, run.stderr.as_str()), (0, ""));
    let gif = std::fs::read(dir.path().join("practice.gif")).expect("the GIF");
    let decoded = reel::decode_gif(&gif).expect("a GIF");
    // Start, 14 turns and the end of game 1, then of game 2 (16 turns),
    // then the summary, shown for three seconds.
    assert_eq!(decoded.frames.len(), 16 + 18 + 1);
    assert!(decoded.frames[..34]
        .iter()
        .all(|frame| frame.delay_cs == 100));
    assert_eq!(decoded.frames[34].delay_cs, 300);

    // From the events: the same bytes.
    let events = katazuke_in(dir.path(), &["events", "practice.ktz"], "");
    std::fs::write(dir.path().join("practice.jsonl"), &events.stdout).expect("writable");
    let again = katazuke_in(
        dir.path(),
        &["replay", "--from-events", "practice.jsonl", "-o", "-"],
        "",
    );
    assert_eq!(again.code, 0, "{}", again.stderr);
    assert!(again.bytes == gif, "replay --from-events differs");

    // A log that cannot be refereed writes nothing.
    std::fs::write(
        dir.path().join("broken.ktz"),
        with_line(23, " 2. B 2.5 clear a5"),
    )
    .expect("writable");
    let broken = katazuke_in(
        dir.path(),
        &["replay", "broken.ktz", "-o", "broken.gif"],
        "",
    );
    assert_eq!(broken.code, 3);
    assert!(
        broken.stderr.contains("no replay written"),
        "{}",
        broken.stderr
    );
    // A forged event log neither.
    let forged = events.stdout.replacen("\"load\":4", "\"load\":3", 1);
    std::fs::write(dir.path().join("forged.jsonl"), forged).expect("writable");
    let refused = katazuke_in(
        dir.path(),
        &[
            "replay",
            "--from-events",
            "forged.jsonl",
            "-o",
            "forged.gif",
        ],
        "",
    );
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(
        refused
            .stderr
            .starts_with("katazuke: forged.jsonl: event log line "),
        "{}",
        refused.stderr
    );
    // An output that cannot be written: status 1, nothing left behind.
    let unwritable = katazuke_in(
        dir.path(),
        &["replay", "practice.ktz", "-o", "no/such/folder/x.gif"],
        "",
    );
    assert_eq!(unwritable.code, 1);
    assert_eq!(
        files_in(dir.path()),
        [
            "practice.gif",
            "practice.jsonl",
            "practice.ktz",
            "broken.ktz",
            "forged.jsonl"
        ]
        .iter()
        .map(|name| name.to_string())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect::<Vec<_>>()
    );
}

#[test]
fn every_command_has_help_with_examples_and_the_version_is_printed() {
    for command in ["check", "events", "replay", "fmt", "ascii"] {
        let run = katazuke(&[command, "--help"], "");
        assert_eq!(run.code, 0, "{command}");
        assert!(
            run.stdout.contains("Examples:\n  katazuke "),
            "{command}: {}",
            run.stdout
        );
    }
    let help = katazuke(&["--help"], "");
    assert!(help
        .stdout
        .contains("Exit status: 0 valid, 2 a malformed log or bad usage, 3 a rule broken"));
    let version = katazuke(&["--version"], "");
    assert_eq!(
        version.stdout,
        format!("katazuke {}\n", env!("CARGO_PKG_VERSION"))
    );
    let missing = katazuke(&["check", "no-such.ktz"], "");
    assert_eq!(missing.code, 2);
    assert!(
        missing
            .stderr
            .starts_with("katazuke: cannot read no-such.ktz: "),
        "{}",
        missing.stderr
    );
}

#[test]
fn a_replay_can_show_one_game_from_a_turn_on() {
    let frames = |args: &[&str]| {
        let mut all = vec!["replay", "-", "-o", "-"];
        all.extend_from_slice(args);
        let run = katazuke(&all, PRACTICE);
        assert_eq!(run.code, 0, "{}", run.stderr);
        reel::decode_gif(&run.bytes).expect("a GIF").frames.len()
    };
    // Game 2 alone: its start, 16 turns and its end, no summary.
    assert_eq!(frames(&["--game", "2"]), 18);
    // Game 1 from turn 10: turns 10 to 14 and the end.
    assert_eq!(frames(&["--game", "1", "--from-turn", "10"]), 6);
    let small = katazuke(
        &[
            "replay",
            "-",
            "-o",
            "-",
            "--cell",
            "24",
            "--hints",
            "--comments",
        ],
        PRACTICE,
    );
    let decoded = reel::decode_gif(&small.bytes).expect("a GIF");
    assert!(decoded.width < 400, "{} pixels across", decoded.width);
    let bad = katazuke(&["replay", "-", "-o", "-", "--game", "3"], PRACTICE);
    assert_eq!(bad.code, 2);
}

#[test]
fn a_place_whose_counts_would_wrap_round_is_over_the_stock() {
    // 4294967295 + 2 is 1 in 32 bits: within a stock of 2 if summed there.
    let log = PRACTICE.replace(" 9. A 2.0 place d2 ", " 9. A 2.0 place d2:4294967295 c1:2 ");
    assert_ne!(log, PRACTICE);
    let run = katazuke(&["check", "-"], &log);
    assert_eq!(run.code, 3, "{}", run.stderr);
    assert!(
        run.stderr.contains("error[E-STOCK] game 1, turn 9, A (first): place of 4294967297 with 2 left in stock (§5.3)"),
        "{}",
        run.stderr
    );
}
