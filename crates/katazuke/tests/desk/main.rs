//! `katazuke desk` as its users meet it: the binary started on an
//! ephemeral loopback port, its JSON API spoken over real sockets, its
//! record read back from disk, and the process killed with SIGKILL.

mod browser;
#[path = "../common/mod.rs"]
mod common;
mod http;

use std::path::Path;

use common::{katazuke, PRACTICE_KTZ, PRACTICE_KTZ_PATH};
use http::{Desk, Reply};
use serde_json::{json, Value};

/// Each turn of the worked example: game, number, steps, ms, comment.
fn example_turns() -> Vec<(u8, u32, String, u64, Option<String>)> {
    let mut game = 0;
    let mut turns = Vec::new();
    for line in PRACTICE_KTZ.lines() {
        let (content, comment) = match line.split_once('#') {
            Some((content, comment)) => (content, Some(comment.trim().to_string())),
            None => (line, None),
        };
        let words: Vec<&str> = content.split_whitespace().collect();
        if words == ["game", "1"] || words == ["game", "2"] {
            game += 1;
            continue;
        }
        let Some(number) = words.first().and_then(|w| w.strip_suffix('.')) else {
            continue;
        };
        let number: u32 = number.parse().expect("a turn number");
        let (steps, ms) = match words[2] {
            "timeout" => ("timeout".to_string(), 0),
            seconds => {
                let seconds: f64 = seconds.parse().expect("seconds");
                (words[3..].join(" "), (seconds * 1000.0).round() as u64)
            }
        };
        turns.push((game, number, steps, ms, comment));
    }
    turns
}

fn turn_body(game: u8, number: u32, steps: &str, ms: u64, comment: Option<&str>) -> Value {
    json!({ "game": game, "turn": number, "steps": steps, "duration_ms": ms, "comment": comment })
}

/// Enters the example's turns from `from` up to `to` (indices into
/// [`example_turns`]), starting games as they come.
fn enter_example(desk: &Desk, from: usize, to: usize) {
    for (game, number, steps, ms, comment) in &example_turns()[from..to] {
        let state = desk.get("/api/state").json();
        if state["game"].as_u64() < Some(u64::from(*game)) || state["phase"] == "between" {
            let started = desk.post("/api/start", &json!({}));
            assert_eq!(started.status, 200, "{}", started.body);
        }
        let reply = desk.post(
            "/api/turn",
            &turn_body(*game, *number, steps, *ms, comment.as_deref()),
        );
        assert_eq!(reply.status, 200, "{game}:{number} {steps}: {}", reply.body);
    }
}

/// A desk on the worked example's field, under the manual clock, keeping
/// its record at `record`.
fn manual_desk(record: &Path) -> Desk {
    Desk::start(&[
        "--params",
        PRACTICE_KTZ_PATH,
        "--record",
        &record.to_string_lossy(),
        "--clock",
        "manual",
    ])
}

fn fmt(path: &Path) -> String {
    let run = katazuke(&["fmt", &path.to_string_lossy()], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    run.stdout
}

#[test]
fn the_worked_example_entered_through_the_api_is_its_record() {
    let dir = tempfile::tempdir().expect("a folder");
    let record = dir.path().join("match.ktz");
    let desk = manual_desk(&record);
    // The record exists before the first turn: the header.
    assert!(std::fs::read_to_string(&record)
        .expect("the record")
        .starts_with("katazuke 1\n"));
    enter_example(&desk, 0, example_turns().len());
    let state = desk.get("/api/state").json();
    assert_eq!(state["phase"], "over");
    assert_eq!(state["match"]["winner"], "B");
    assert_eq!(fmt(&record), fmt(Path::new(PRACTICE_KTZ_PATH)));
    let check = katazuke(&["check", &record.to_string_lossy()], "");
    assert_eq!(check.code, 0, "{}", check.stdout);
    // The events and the replay beside it.
    let events = std::fs::read_to_string(dir.path().join("match.jsonl")).expect("events");
    assert!(events.lines().count() > 30);
    let gif = std::fs::read(dir.path().join("match.gif")).expect("a GIF");
    assert!(gif.starts_with(b"GIF89a"));
}

#[test]
fn every_rule_a_turn_breaks_is_returned_with_its_code_and_nothing_changes() {
    let dir = tempfile::tempdir().expect("a folder");
    let record = dir.path().join("m.ktz");
    let desk = manual_desk(&record);
    desk.post("/api/start", &json!({}));
    let before = std::fs::read_to_string(&record).expect("the record");
    // A is at b2 with 4 in its container's room and a stock of 2.
    let cases = [
        ("clear c3", "E-NOT-ADJACENT", "§5.1"),
        ("clear b1:3", "E-TOO-MANY", "§5.1"),
        ("clear b1:2 a2:2 c2", "E-CAPACITY", "§5.1"),
        ("clear b1 b1", "E-DUP-CELL", "§5.1"),
        ("place b1:3", "E-STOCK", "§5.3"),
        ("move c3", "E-MOVE-NOT-OWN", "§5.2"),
        ("move b2", "E-MOVE-SAME", "§5.2"),
        ("empty pass empty", "E-EMPTY-TWICE", "§5.5"),
        ("empty clear b1", "E-CLEAR-AFTER-EMPTY", "§5.5"),
        ("pass pass", "E-ACTIONS", "§4.3"),
        ("clear z9", "E-CELL", ""),
        ("jump b1", "E-SYNTAX", ""),
    ];
    for (steps, code, section) in cases {
        let reply = desk.post("/api/turn", &turn_body(1, 1, steps, 1_000, None));
        assert_eq!(reply.status, 422, "{steps}: {}", reply.body);
        let error = reply.json();
        assert_eq!(error["code"], code, "{steps}: {error}");
        if !section.is_empty() {
            assert_eq!(error["section"], section, "{steps}: {error}");
        }
    }
    assert_eq!(
        std::fs::read_to_string(&record).expect("the record"),
        before
    );
    // No current territory (§6.4): game 2, after A cancels B's at turn 6.
    let turns = example_turns();
    let game_two = turns.iter().position(|turn| turn.0 == 2).expect("game 2");
    enter_example(&desk, 0, game_two + 6);
    let reply = desk.post("/api/turn", &turn_body(2, 7, "clear d3", 2_000, None));
    assert_eq!(reply.json()["code"], "E-NO-CURRENT", "{}", reply.body);
    // A turn after the end of a game (§8.3).
    enter_example(&desk, game_two + 6, turns.len());
    let reply = desk.post("/api/turn", &turn_body(2, 17, "pass", 500, None));
    assert_eq!(reply.status, 422, "{}", reply.body);
    assert_eq!(reply.json()["code"], "E-AFTER-END", "{}", reply.body);
}

#[test]
fn bad_requests_get_a_clear_message_and_change_nothing() {
    let dir = tempfile::tempdir().expect("a folder");
    let record = dir.path().join("m.ktz");
    let desk = manual_desk(&record);
    let malformed = desk.post_raw("/api/turn", "{\"game\": 1,", "application/json");
    assert_eq!(malformed.status, 400, "{}", malformed.body);
    assert!(malformed.json()["error"]
        .as_str()
        .is_some_and(|error| error.starts_with("the request is not the JSON expected")));
    let huge = "x".repeat(katazuke::MAX_BODY_BYTES + 1);
    let oversized = desk.post_raw("/api/turn", &huge, "application/json");
    assert_eq!(oversized.status, 413, "{}", oversized.body);
    assert_eq!(desk.get("/api/nothing-here").status, 404);
    assert_eq!(
        desk.get("/api/nothing-here").json()["error"],
        "no such page or API path"
    );
    let early = desk.post("/api/turn", &turn_body(1, 1, "pass", 500, None));
    assert_eq!(early.status, 409, "{}", early.body);
    assert_eq!(early.json()["error"], "no game has started");
    desk.post("/api/start", &json!({}));
    let manual_without_duration =
        desk.post("/api/turn", &json!({"game": 1, "turn": 1, "steps": "pass"}));
    assert_eq!(manual_without_duration.status, 400);
    // A turn sent twice is applied once; one for a turn already past is
    // refused.
    let first = turn_body(1, 1, "clear b1:2 a2:2", 3_000, None);
    assert_eq!(desk.post("/api/turn", &first).json()["applied"], true);
    assert_eq!(desk.post("/api/turn", &first).json()["applied"], false);
    let stale = desk.post("/api/turn", &turn_body(1, 1, "pass", 500, None));
    assert_eq!(stale.status, 409, "{}", stale.body);
    let ahead = desk.post("/api/turn", &turn_body(1, 5, "pass", 500, None));
    assert_eq!(ahead.status, 409, "{}", ahead.body);
    let state = desk.get("/api/state").json();
    assert_eq!(state["turn"], 2);
    let record_text = std::fs::read_to_string(&record).expect("the record");
    assert_eq!(record_text.matches(" 1. A ").count(), 1, "{record_text}");
    // An existing record is not overwritten.
    let again = katazuke(
        &["desk", "--record", &record.to_string_lossy(), "--port", "0"],
        "",
    );
    assert_eq!(again.code, 2);
    assert!(
        again
            .stderr
            .contains("exists: continue its match with --resume"),
        "{}",
        again.stderr
    );
}

#[test]
fn the_same_turn_from_two_browsers_at_once_is_applied_once() {
    let dir = tempfile::tempdir().expect("a folder");
    let record = dir.path().join("m.ktz");
    let desk = manual_desk(&record);
    desk.post("/api/start", &json!({}));
    let body = turn_body(1, 1, "clear b1:2 a2:2", 3_000, None);
    let replies: Vec<Reply> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..8)
            .map(|_| scope.spawn(|| desk.post("/api/turn", &body)))
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("a reply"))
            .collect()
    });
    let applied = replies
        .iter()
        .filter(|reply| reply.json()["applied"] == true)
        .count();
    assert_eq!(applied, 1);
    assert!(replies.iter().all(|reply| reply.status == 200));
}

#[test]
fn off_loopback_every_change_needs_the_token_and_the_screen_is_read_only() {
    let dir = tempfile::tempdir().expect("a folder");
    let record = dir.path().join("m.ktz");
    let desk = Desk::start(&[
        "--record",
        &record.to_string_lossy(),
        "--bind",
        "0.0.0.0",
        "--clock",
        "manual",
    ]);
    let token = desk.token.clone().expect("a token printed");
    assert_eq!(token.len(), 32);
    let refused = desk.post("/api/start", &json!({}));
    assert_eq!(refused.status, 401, "{}", refused.body);
    let wrong = desk.post_with("/api/start", &json!({}), Some("not-it"));
    assert_eq!(wrong.status, 401);
    assert_eq!(desk.get("/api/state").json()["phase"], "before");
    let allowed = desk.post_with("/api/start", &json!({}), Some(&token));
    assert_eq!(allowed.status, 200, "{}", allowed.body);
    assert_eq!(desk.get("/screen").status, 200);
    assert_eq!(desk.get("/api/state").json()["phase"], "playing");
}

#[test]
fn a_desk_killed_mid_match_is_resumed_from_its_record() {
    let dir = tempfile::tempdir().expect("a folder");
    let record = dir.path().join("m.ktz");
    let record_arg = record.to_string_lossy().into_owned();
    let turns = example_turns();
    let cut = 20;
    {
        let desk = Desk::start(&[
            "--params",
            PRACTICE_KTZ_PATH,
            "--record",
            &record_arg,
            "--clock",
            "manual",
        ]);
        enter_example(&desk, 0, cut);
        desk.kill_hard();
    }
    // The record is a log up to the last turn entered.
    let check = katazuke(&["suggest", &record_arg, "--level", "1"], "");
    assert_eq!(check.code, 0, "{}", check.stderr);
    let desk = Desk::start(&[
        "--resume",
        &record_arg,
        "--params",
        PRACTICE_KTZ_PATH,
        "--clock",
        "manual",
    ]);
    let state = desk.get("/api/state").json();
    let (game, number, ..) = &turns[cut];
    assert_eq!(state["game"], u64::from(*game));
    assert_eq!(state["turn"], u64::from(*number));
    enter_example(&desk, cut, turns.len());
    let without_notes: String = std::fs::read_to_string(&record)
        .expect("the record")
        .lines()
        .filter(|line| !line.starts_with("# the desk stopped"))
        .map(|line| format!("{line}\n"))
        .collect();
    let kept = dir.path().join("kept.ktz");
    std::fs::write(&kept, without_notes).expect("written");
    assert_eq!(fmt(&kept), fmt(Path::new(PRACTICE_KTZ_PATH)));
}

#[test]
fn an_advisor_suggests_its_teams_turn_in_match_terms_and_a_desk_does_not() {
    let dir = tempfile::tempdir().expect("a folder");
    let record = dir.path().join("ours.ktz");
    let advisor = Desk::start(&[
        "--params",
        PRACTICE_KTZ_PATH,
        "--record",
        &record.to_string_lossy(),
        "--advise",
        "A",
        "--level",
        "1",
        "--clock",
        "manual",
    ]);
    advisor.post("/api/start", &json!({}));
    let advice = advisor.get("/api/advice").json();
    assert_eq!(advice["team"], "A");
    assert_eq!(advice["to_move"], "A");
    assert!(
        advice["steps"]
            .as_str()
            .is_some_and(|steps| !steps.is_empty()),
        "{advice}"
    );
    assert!(
        advice["explanation"]
            .as_str()
            .is_some_and(|words| words.starts_with("game 1: expects to end")),
        "{advice}"
    );
    assert_eq!(advisor.get("/api/state").json()["advise"], "A");
    let desk = Desk::start(&["--record", &dir.path().join("d.ktz").to_string_lossy()]);
    assert_eq!(desk.get("/api/advice").status, 404);
}

#[test]
fn another_match_is_set_up_before_game_one_and_not_after() {
    let dir = tempfile::tempdir().expect("a folder");
    let record = dir.path().join("m.ktz");
    let desk = Desk::start(&["--record", &record.to_string_lossy(), "--clock", "manual"]);
    let header = "katazuke 1\nA: Red\ncapacity: 3\nstock: 1\nfield:\n  1 2 1\n  2 0 2\n  1 2 1\n";
    let set_up = desk.post("/api/setup", &json!({ "header": header }));
    assert_eq!(set_up.status, 200, "{}", set_up.body);
    let state = set_up.json()["state"].clone();
    assert_eq!(
        (state["rows"].as_u64(), state["capacity"].as_u64()),
        (Some(3), Some(3))
    );
    assert_eq!(state["teams"]["A"]["name"], "Red");
    assert!(std::fs::read_to_string(&record)
        .expect("the record")
        .starts_with(header));
    let bad = desk.post(
        "/api/setup",
        &json!({ "header": "katazuke 1\ncapacity: 3\n" }),
    );
    assert_eq!(bad.status, 400, "{}", bad.body);
    desk.post("/api/start", &json!({}));
    let late = desk.post("/api/setup", &json!({ "header": header }));
    assert_eq!(late.status, 409, "{}", late.body);
}
