use super::*;
use crate::log::canonical::canonical;
use crate::log::lines;
use crate::model::code::Code;
use crate::model::team::Team;

const PRACTICE: &str = include_str!("../../../../examples/katazuke/practice.ktz");

/// Each turn line of a record: game, number, steps (or `timeout`), ms,
/// comment.
fn turns_of(text: &str) -> Vec<(u8, u32, String, u64, Option<String>)> {
    let mut game = 0;
    let mut turns = Vec::new();
    for line in text.lines() {
        let split = lines::split(line);
        if matches!(split.content.trim(), "game 1" | "game 2") {
            game += 1;
            continue;
        }
        if game == 0 || !lines::is_turn(&split) {
            continue;
        }
        let words: Vec<&str> = split.content.split_whitespace().collect();
        let number: u32 = words[0].trim_end_matches('.').parse().expect("a number");
        let (steps, ms) = if words[2] == "timeout" {
            ("timeout".to_string(), 0)
        } else {
            let seconds: f64 = words[2].parse().expect("seconds");
            (words[3..].join(" "), (seconds * 1000.0).round() as u64)
        };
        turns.push((game, number, steps, ms, split.comment.map(str::to_string)));
    }
    turns
}

fn practice_session(clock: DeskClock) -> DeskSession {
    let setup = setup_of(PRACTICE.as_bytes(), None).expect("the example's setup");
    DeskSession::new(header_of(PRACTICE), setup, clock)
}

fn entry(game: u8, turn: u32, steps: &str, ms: u64) -> TurnEntry {
    TurnEntry {
        game,
        turn,
        steps: steps.into(),
        duration: Some(ms),
        comment: None,
    }
}

/// The worked example (§11.4) entered turn by turn under the manual clock.
fn entered_example() -> DeskSession {
    let mut desk = practice_session(DeskClock::Manual);
    let mut now = 0;
    for (game, number, steps, ms, comment) in turns_of(PRACTICE) {
        if desk.games_started() < game {
            assert_eq!(desk.start_game(now), Ok(game));
        }
        now += ms;
        let turn = TurnEntry {
            comment,
            ..entry(game, number, &steps, ms)
        };
        assert_eq!(desk.enter(now, &turn), Ok(Entered::Applied), "{turn:?}");
    }
    desk
}

#[test]
fn the_worked_example_entered_turn_by_turn_is_its_record() {
    let desk = entered_example();
    assert!(desk.is_over());
    assert_eq!(
        canonical(desk.record_text().as_bytes()),
        canonical(PRACTICE.as_bytes())
    );
    assert_eq!(
        desk.match_result().and_then(|result| result.winner),
        Some(Team::B)
    );
}

#[test]
fn a_turn_that_breaks_a_rule_is_refused_with_its_code_and_changes_nothing() {
    let mut desk = practice_session(DeskClock::Manual);
    desk.start_game(0).expect("game 1");
    let before = desk.record_text();
    let cases = [
        ("clear c3", Code::NotAdjacent),
        ("clear b1:3", Code::TooMany),
        ("place b1:3", Code::Stock),
        ("move c3", Code::MoveNotOwn),
        ("clear b1:2 a2:2 c2", Code::Capacity),
        ("clear b1 b1", Code::DupCell),
        ("jump b1", Code::Syntax),
        ("clear z9", Code::Cell),
        ("empty pass empty", Code::EmptyTwice),
        ("empty clear b1", Code::ClearAfterEmpty),
    ];
    for (steps, code) in cases {
        match desk.enter(1_000, &entry(1, 1, steps, 1_000)) {
            Err(DeskError::Rule { code: found, .. }) => assert_eq!(found, code, "{steps}"),
            other => panic!("{steps}: {other:?}"),
        }
    }
    assert_eq!(desk.record_text(), before);
}

#[test]
fn a_turn_sent_twice_is_applied_once_and_a_stale_one_is_refused() {
    let mut desk = practice_session(DeskClock::Manual);
    desk.start_game(0).expect("game 1");
    let first = entry(1, 1, "clear b1:2 a2:2", 3_000);
    assert_eq!(desk.enter(3_000, &first), Ok(Entered::Applied));
    assert_eq!(desk.enter(3_100, &first), Ok(Entered::AlreadyApplied));
    let stale = entry(1, 1, "pass", 1_000);
    assert!(matches!(
        desk.enter(3_200, &stale),
        Err(DeskError::OutOfOrder(_))
    ));
    assert_eq!(desk.state().map(|state| state.turns), Some(1));
}

#[test]
fn under_the_wall_clock_a_turn_lasts_until_it_is_entered_and_pauses_do_not_count() {
    let mut desk = practice_session(DeskClock::Wall);
    desk.start_game(10_000).expect("game 1");
    desk.pause(11_000).expect("paused");
    assert!(desk.enter(12_000, &entry(1, 1, "pass", 0)).is_err());
    desk.resume(15_000).expect("running");
    // 1 s before the pause and 1.5 s after it.
    assert_eq!(desk.turn_elapsed(16_500), 2_500);
    let (team_left, game_left) = desk.clocks(16_500).expect("clocks");
    assert_eq!(
        (team_left.a, team_left.b, game_left),
        (17_500, 20_000, 33_500)
    );
    desk.enter(16_500, &entry(1, 1, "clear b1:2 a2:2", 99))
        .expect("applied");
    let record = desk.record_text();
    assert!(
        record.contains("# paused 4.0 s\n 1. A 2.5 clear b1:2 a2:2\n"),
        "{record}"
    );
}

#[test]
fn a_clock_that_runs_out_ends_the_turn_with_a_timeout() {
    let mut desk = practice_session(DeskClock::Wall);
    desk.start_game(0).expect("game 1");
    // A's 20 s run out at 20 s: a turn entered then still counts (§7.2),
    // a millisecond later the team is out, and B's turn began at 20 s.
    assert!(!desk.catch_up(20_000));
    assert!(desk.catch_up(20_001));
    let state = desk.state().expect("a game");
    assert!(state.out.a);
    assert_eq!(state.to_move, Team::B);
    assert_eq!(desk.turn_elapsed(21_000), 1_000);
    let mut exact = practice_session(DeskClock::Wall);
    exact.start_game(0).expect("game 1");
    assert_eq!(
        exact.enter(20_000, &entry(1, 1, "pass", 0)),
        Ok(Entered::Applied)
    );
    assert!(exact.record_text().contains(" 1. A 20.0 pass\n"));
    assert!(desk
        .record_text()
        .contains(" 1. A timeout  # the clock ran out\n"));
}

#[test]
fn undo_takes_back_the_last_turn_and_says_so_in_the_record() {
    let mut desk = practice_session(DeskClock::Manual);
    desk.start_game(0).expect("game 1");
    desk.enter(3_000, &entry(1, 1, "clear b1:2 a2:2", 3_000))
        .expect("turn 1");
    assert!(matches!(
        desk.undo(4_000, 1, 2),
        Err(DeskError::OutOfOrder(_))
    ));
    desk.undo(4_000, 1, 1).expect("undone");
    let state = desk.state().expect("a game");
    assert_eq!((state.turns, state.to_move, state.load.a), (0, Team::A, 0));
    desk.enter(5_000, &entry(1, 1, "clear b1", 2_000))
        .expect("turn 1 again");
    let record = desk.record_text();
    assert!(
        record.contains("# undone: 1. A 3.0 clear b1:2 a2:2\n 1. A 2.0 clear b1\n"),
        "{record}"
    );
    assert!(crate::log::reader::read_unfinished(
        record.as_bytes(),
        crate::rules::game::Policy::Strict,
        |_| {}
    )
    .error
    .is_none());
}

#[test]
fn a_record_cut_anywhere_is_taken_up_where_it_stopped() {
    let whole = entered_example().record_text();
    let desk = entered_example();
    for cut in [14, 20, 30] {
        let mut partial = practice_session(DeskClock::Manual);
        let mut now = 0;
        for (game, number, steps, ms, comment) in turns_of(PRACTICE).into_iter().take(cut) {
            if partial.games_started() < game {
                partial.start_game(now).expect("a game");
            }
            now += ms;
            let turn = TurnEntry {
                comment,
                ..entry(game, number, &steps, ms)
            };
            partial.enter(now, &turn).expect("a turn");
        }
        let text = partial.record_text();
        let mut taken_up =
            resume(&text, DeskClock::Manual, Some(desk.setup()), 0).expect("resumed");
        assert_eq!(
            taken_up.state().map(|state| (state.game, state.turns)),
            partial.state().map(|state| (state.game, state.turns)),
            "cut at {cut}"
        );
        // Played on to the end, it is the match entered at one sitting.
        for (game, number, steps, ms, comment) in turns_of(PRACTICE).into_iter().skip(cut) {
            if taken_up.games_started() < game {
                taken_up.start_game(now).expect("a game");
            }
            let turn = TurnEntry {
                comment,
                ..entry(game, number, &steps, ms)
            };
            taken_up.enter(now, &turn).expect("a turn");
        }
        let notes_left_out: String = taken_up
            .record_text()
            .lines()
            .filter(|line| !line.starts_with("# the desk stopped"))
            .map(|line| format!("{line}\n"))
            .collect();
        assert_eq!(
            canonical(notes_left_out.as_bytes()),
            canonical(whole.as_bytes()),
            "cut at {cut}"
        );
    }
}
