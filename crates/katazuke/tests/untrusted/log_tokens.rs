//! The tokens of a `.ktz` log read exactly as written or refused: a cell
//! name is a column letter and a row from 1 without leading zeros, and a
//! number that does not fit is a syntax error naming its token, never a
//! different cell or number (KATAZUKE.md §11.2, §10.6.7).

use crate::common::katazuke;

use crate::common::PRACTICE_KTZ as PRACTICE;

/// The practice log with the first `from` replaced by `to` (which must be
/// there: a test of a substitution that did nothing proves nothing).
fn practice_with(from: &str, to: &str) -> String {
    assert!(
        PRACTICE.contains(from),
        "{from:?} is not in the practice log"
    );
    PRACTICE.replacen(from, to, 1)
}

/// `katazuke check` of `log` fails with `code` on `line:column`, and
/// neither `check --json` nor `fmt` takes the log either.
fn refused(log: &str, code: &str, line: usize, column: usize, words: &str) {
    let run = katazuke(&["check", "-"], log);
    assert_eq!(run.code, 2, "{code} {words}: {}", run.stderr);
    let first = run.stderr.lines().next().unwrap_or_default();
    assert!(
        first.starts_with(&format!("-:{line}:{column}: error[{code}]")),
        "{words}: {first}"
    );
    assert!(first.contains(words), "{words}: {first}");
    let json = katazuke(&["check", "--json", "-"], log);
    let value: serde_json::Value = serde_json::from_str(&json.stdout).expect("one JSON object");
    assert_eq!(value["valid"], false, "{words}");
    assert_eq!(value["error"]["code"], code, "{words}");
    assert_eq!(value["error"]["column"], column, "{words}");
    let fmt = katazuke(&["fmt", "-"], log);
    assert_eq!(fmt.code, 2, "fmt must not rewrite {words}: {}", fmt.stdout);
}

#[test]
fn a_row_zero_or_a_leading_zero_is_no_cell_in_any_step_or_start() {
    // Each was read as another cell before: b0 and b01 as b1, c00 as c1.
    let cases = [
        (
            " 1. A 3.0 clear b1:2 a2:2",
            " 1. A 3.0 clear b0:2 a2:2",
            "b0",
            22,
            17,
        ),
        (
            " 1. A 3.0 clear b1:2 a2:2",
            " 1. A 3.0 clear b01:2 a2:2",
            "b01",
            22,
            17,
        ),
        (
            " 1. A 3.0 clear b1:2 a2:2",
            " 1. A 3.0 clear b1:2 a0:2",
            "a0",
            22,
            22,
        ),
        (
            " 5. A 2.5 clear c2:3",
            " 5. A 2.5 clear c00:3",
            "c00",
            26,
            17,
        ),
        (" 5. A 2.5 clear c2:3", " 5. A 2.5 c c02x3", "c02", 26, 13),
        (
            " 4. B 3.0 move d3 empty",
            " 4. B 3.0 move d03 empty",
            "d03",
            25,
            16,
        ),
        (" 9. A 2.0 place d2", " 9. A 2.0 place d0", "d0", 30, 17),
        ("A start: b2", "A start: b02", "b02", 20, 10),
        ("B start: d4* d2", "B start: d04* d2", "d04", 21, 10),
    ];
    for (from, to, name, line, column) in cases {
        let words = format!(
            "{name} is not a cell name: rows are numbered from 1, without leading zeros (§11.2)"
        );
        refused(&practice_with(from, to), "E-CELL", line, column, &words);
    }
}

#[test]
fn counts_and_numbers_too_large_are_syntax_errors_naming_the_token() {
    let cases = [
        // Clamped to 4294967295 and reported as a capacity problem before.
        (
            " 1. A 3.0 clear b1:4294967296 a2:2",
            22,
            17,
            "\"b1:4294967296\": 4294967296 objects do not fit in a count",
        ),
        (
            " 1. A 3.0 clear b1x18446744073709551616",
            22,
            17,
            "\"b1x18446744073709551616\": 18446744073709551616 objects do not fit",
        ),
        (
            " 9. A 2.0 place d2:4294967297",
            30,
            17,
            "\"d2:4294967297\": 4294967297 objects do not fit",
        ),
    ];
    for (line_text, line, column, words) in cases {
        let from = PRACTICE
            .lines()
            .nth(line - 1)
            .expect("the practice log's line");
        refused(
            &practice_with(from, line_text),
            "E-SYNTAX",
            line,
            column,
            words,
        );
    }
    // A turn number too large was clamped and then "expected" another.
    for number in ["4294967297.", "18446744073709551617."] {
        let log = practice_with(" 1. A 3.0", &format!("{number} A 3.0"));
        let words = format!("bad turn number \"{number}\" (too large)");
        refused(&log, "E-SYNTAX", 22, 1, &words);
    }
    // A parameter too large is named as too large, not "not a number".
    let log = practice_with("capacity: 4", "capacity: 4294967296");
    refused(
        &log,
        "E-SYNTAX",
        7,
        11,
        "capacity: \"4294967296\" is too large a number",
    );
}

#[test]
fn a_game_number_too_large_is_no_game() {
    // `game 257` was read as game 255, and its messages said so.
    for number in ["3", "257", "18446744073709551617"] {
        let log = practice_with("game 1", &format!("game {number}"));
        let run = katazuke(&["check", "-"], &log);
        assert_eq!(run.code, 2, "{number}");
        assert!(
            run.stderr
                .starts_with("-:18:1: error[E-GAMES] a match is exactly two games"),
            "{number}: {}",
            run.stderr
        );
        assert!(!run.stderr.contains("game 255"), "{}", run.stderr);
    }
}

#[test]
fn event_logs_with_a_row_zero_are_refused() {
    let events = katazuke(&["events", "-"], PRACTICE);
    assert_eq!(events.code, 0, "{}", events.stderr);
    let no_such_row = "is not a cell name: rows are numbered from 1";
    // a300 was read as row 255's cell and named a256 in the message.
    let off_every_field = "is not a cell of any field";
    for (from, to, words) in [
        ("\"b1\"", "\"b0\"", no_such_row),
        ("\"a2\"", "\"a02\"", no_such_row),
        ("\"d4\"", "\"d00\"", no_such_row),
        ("\"b1\"", "\"a300\"", off_every_field),
    ] {
        assert!(events.stdout.contains(from), "{from}");
        let forged = events.stdout.replacen(from, to, 1);
        let folder = tempfile::tempdir().expect("a folder");
        let path = folder.path().join("forged.jsonl");
        std::fs::write(&path, &forged).expect("written");
        let gif = folder.path().join("x.gif");
        let run = katazuke(
            &[
                "replay",
                "--from-events",
                path.to_str().expect("UTF-8"),
                "-o",
                gif.to_str().expect("UTF-8"),
            ],
            "",
        );
        assert_eq!(run.code, 2, "{to}: {}", run.stderr);
        assert!(
            run.stderr.contains(&format!("{to} {words}")),
            "{to}: {}",
            run.stderr
        );
        assert!(!gif.exists(), "no GIF from a forged log");
    }
}
