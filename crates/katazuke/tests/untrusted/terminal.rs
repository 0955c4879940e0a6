//! What a terminal would obey is shown, not obeyed: team names, comments,
//! header values and file names holding ESC, OSC, BEL, a carriage return
//! or a direction override reach people as `?`, while the `.ktz` and JSON
//! outputs keep the data exactly.

use crate::common::{katazuke, katazuke_in};

use crate::common::PRACTICE_KTZ as PRACTICE;

/// Colour, screen clearing, a window title (OSC 0), a hyperlink (OSC 8),
/// the bell, a carriage return and a right-to-left override.
const A_NAME: &str = "Numa\u{1b}[31mzu\u{7}";
const B_NAME: &str = "Ta\u{1b}]0;pwned\u{7}ku\rma\u{202e}";
const COMMENT: &str = "two \u{1b}[2J cells \u{1b}]8;;http://example.com\u{7}link";

fn hostile_log() -> String {
    let log = PRACTICE
        .replacen("A: Numazu", &format!("A: {A_NAME}"), 1)
        .replacen("B: Takuma", &format!("B: {B_NAME}"), 1)
        .replacen("event: Practice match", "event: Prac\u{1b}[5mtice", 1)
        .replacen("two cells claimed, container full", COMMENT, 1);
    assert_ne!(log, PRACTICE);
    log
}

/// True when `text` has nothing a terminal would act on: no control
/// character but the line break and the tab, no direction override.
fn shows_only_itself(text: &str) -> bool {
    !text
        .chars()
        .any(|c| (c.is_control() && c != '\n') || ('\u{202a}'..='\u{202e}').contains(&c))
}

#[test]
fn reports_and_messages_show_control_characters_as_question_marks() {
    let log = hostile_log();
    let check = katazuke(&["check", "-"], &log);
    assert_eq!(check.code, 0, "{}", check.stderr);
    assert!(shows_only_itself(&check.stdout), "{:?}", check.stdout);
    assert!(
        check
            .stdout
            .starts_with("A (Numa?[31mzu?) against B (Ta?]0;pwned?ku?ma?)\n"),
        "{:?}",
        check.stdout
    );
    // A broken rule's message, a warning and the standings after it.
    let broken = log.replacen(
        " 5. A 2.5 clear c2:3",
        " 5. A 2.5 clear c2:3 \u{1b}[31m\u{7}",
        1,
    );
    for args in [
        &["check", "-"][..],
        &["ascii", "-"],
        &["suggest", "-"],
        &["fmt", "-"],
    ] {
        let run = katazuke(args, &broken);
        assert_eq!(run.code, 2, "{args:?}");
        assert!(shows_only_itself(&run.stderr), "{args:?}: {:?}", run.stderr);
        assert!(shows_only_itself(&run.stdout), "{args:?}: {:?}", run.stdout);
        assert!(
            run.stderr.contains("unknown step"),
            "{args:?}: {}",
            run.stderr
        );
    }
    // Characters that show as nothing, or move what follows: a tab, an
    // Arabic letter mark, a line separator, a zero-width space, a tag.
    let invisible = PRACTICE.replacen(
        "A: Numazu",
        "A: Nu\tma\u{61C}zu\u{2028}x\u{200B}y\u{E0001}",
        1,
    );
    let run = katazuke(&["check", "-"], &invisible);
    assert!(
        run.stdout
            .starts_with("A (Nu?ma?zu?x?y?) against B (Takuma)\n"),
        "{:?}",
        run.stdout
    );
    let ascii = katazuke(&["ascii", "--every", "-"], &log);
    assert!(shows_only_itself(&ascii.stdout) && shows_only_itself(&ascii.stderr));
    let suggest = katazuke(&["suggest", "--at", "1:3", "-"], &log);
    assert_eq!(suggest.code, 0, "{}", suggest.stderr);
    assert!(shows_only_itself(&suggest.stdout) && shows_only_itself(&suggest.stderr));
}

#[test]
fn a_file_name_with_control_characters_is_named_safely() {
    let folder = tempfile::tempdir().expect("a folder");
    let name = "match\u{1b}]0;title\u{7}.ktz";
    std::fs::write(
        folder.path().join(name),
        PRACTICE.replacen("capacity: 4", "capacity: x", 1),
    )
    .expect("written");
    let run = katazuke_in(folder.path(), &["check", name], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr.starts_with("match?]0;title?.ktz:7:"),
        "{:?}",
        run.stderr
    );
    let missing = katazuke_in(folder.path(), &["check", "gone\u{1b}[2J.ktz"], "");
    assert_eq!(missing.code, 2);
    assert!(shows_only_itself(&missing.stderr), "{:?}", missing.stderr);
}

#[test]
fn the_ktz_and_json_outputs_keep_the_data_exactly() {
    let log = hostile_log();
    let fmt = katazuke(&["fmt", "-"], &log);
    assert_eq!(fmt.code, 0, "{}", fmt.stderr);
    assert!(
        fmt.stdout.contains(&format!("A: {A_NAME}\n")),
        "{:?}",
        fmt.stdout
    );
    assert!(fmt.stdout.contains(&format!("# {COMMENT}\n")));
    let events = katazuke(&["events", "-"], &log);
    let start: serde_json::Value =
        serde_json::from_str(events.stdout.lines().next().expect("a first event")).expect("JSON");
    assert_eq!(start["teams"]["A"], A_NAME);
    assert_eq!(start["teams"]["B"], B_NAME);
    assert!(events
        .stdout
        .contains("\\u001b]8;;http://example.com\\u0007link"));
}
