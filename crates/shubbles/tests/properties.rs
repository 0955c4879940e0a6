//! Invariants of the engine on random valid states and operation strings.

use proptest::prelude::*;

use shubbles::{format_operations, Creature, Event, Failure, Operation, Scenario, State};

/// A random valid start: random contents, let fall in the standard
/// orientation (a shubble over the opening leaves; starts where a smole
/// would leave are skipped), then read back as a strict state string.
fn valid_state() -> impl Strategy<Value = State> {
    (
        Just((0..29).collect::<Vec<usize>>()).prop_shuffle(),
        0usize..=26,
    )
        .prop_filter_map(
            "a smole fell out while the start settled",
            |(cells, shubbles)| {
                let mut text = vec!['.'; 29];
                text[cells[0]] = '@';
                text[cells[1]] = 'x';
                text[cells[2]] = 'x';
                for &cell in &cells[3..3 + shubbles] {
                    text[cell] = 'o';
                }
                let text: String = text.into_iter().collect();
                let scenario = Scenario::parse(&text, "", true).ok()?;
                let outcome = scenario.run();
                if outcome.failure.is_some() {
                    return None;
                }
                let settled = outcome.state.cells_string();
                Some(State::parse(&settled, false).expect("a settled state is a valid start"))
            },
        )
}

fn operations(max: usize) -> impl Strategy<Value = Vec<Operation>> {
    prop::collection::vec(prop::sample::select(Operation::ALL.to_vec()), 0..max)
}

/// Operations drawn at random, keeping only those that succeed from where
/// the run is, so long runs do not end at the first refused move.
fn legal_operations(max: usize) -> impl Strategy<Value = (State, Vec<Operation>)> {
    (valid_state(), operations(max))
        .prop_map(|(start, choices)| (start, shubbles::legal_operations(start, choices)))
}

fn scenario(start: State, operations: &[Operation]) -> Scenario {
    Scenario::parse(&start.cells_string(), &format_operations(operations), false)
        .expect("a valid start and operations")
}

fn count(creature: Creature, state: &State) -> u32 {
    match creature {
        Creature::Shubble => state.shubbles().len(),
        Creature::Smole => state.smoles().len(),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn creatures_are_conserved_inside_plus_exited(start in valid_state(), ops in operations(40)) {
        let scenario = scenario(start, &ops);
        let mut state = start;
        let mut exited = [0u32; 2];
        // Counted between pictures: within one tick the creature is first
        // taken out of cell 28, then placed in the exit cell by `Left`.
        let check = |state: &State, exited: &[u32; 2]| {
            [Creature::Shubble, Creature::Smole].iter().all(|&creature| {
                count(creature, state) + exited[creature as usize] == count(creature, &start)
            })
        };
        for record in scenario.events() {
            if record.event.makes_frame() {
                prop_assert!(check(&state, &exited), "{:?}", state);
            }
            state.apply(&record.event);
            if let Event::Left { creature } = record.event {
                exited[creature as usize] += 1;
            }
            prop_assert!(state.shubbles().intersection(state.smoles()).is_empty());
            prop_assert!(!state.creatures().contains(state.stot()));
        }
        prop_assert!(check(&state, &exited));
        prop_assert_eq!(state, scenario.run().state);
    }

    #[test]
    fn a_smole_never_leaves_without_a_bang(start in valid_state(), ops in operations(40)) {
        let scenario = scenario(start, &ops);
        let events: Vec<Event> = scenario.events().map(|r| r.event).collect();
        let escaped = events.iter().position(|e| *e == Event::Left { creature: Creature::Smole });
        let outcome = scenario.run();
        match escaped {
            Some(at) => {
                prop_assert_eq!(outcome.result(), "!");
                prop_assert_eq!(&events[at + 1..], &[Event::Failed(Failure::SmoleEscaped)]);
            }
            None => prop_assert!(!matches!(outcome.failure, Some((_, Failure::SmoleEscaped)))),
        }
        if outcome.failure.is_none() {
            prop_assert_eq!(outcome.state.smoles().len(), 2);
        }
    }

    /// `|` is two clockwise quarters with no falling between them, so it
    /// ends in the orientation `++` ends in (unless a smole escapes at the
    /// quarter between), and where `++` ends whenever nothing falls after
    /// the first `+`.
    #[test]
    fn a_half_turn_ends_where_two_quarter_turns_end((start, ops) in legal_operations(20)) {
        let with = |more: &str| {
            Scenario::parse(&start.cells_string(), &(format_operations(&ops) + more), false)
                .expect("valid start and operations")
        };
        let half = with("|").run();
        let quarters = with("++").run();
        if half.failure.is_none() && quarters.failure.is_none() {
            prop_assert_eq!(half.state.orientation(), quarters.state.orientation());
        }
        let nothing_fell_after_the_first_quarter = !with("+").events()
            .skip_while(|r| r.op != Some(ops.len()))
            .any(|r| matches!(r.event, Event::Fell { .. }));
        if nothing_fell_after_the_first_quarter {
            // (The failing operation's index differs: `|` is one, `++` two.)
            prop_assert_eq!(half.state, quarters.state);
            prop_assert_eq!(half.result(), quarters.result());
        }
    }

    /// Four quarter turns bring the box back to the standard orientation;
    /// when nothing falls on the way, every cell is as it was.
    #[test]
    fn four_quarter_turns_return_a_stable_state_to_itself(start in valid_state()) {
        let turned = scenario(start, &[Operation::Rotate(shubbles::Rotation::Clockwise); 4]);
        let outcome = turned.run();
        prop_assume!(outcome.failure.is_none());
        prop_assert_eq!(outcome.state.orientation(), shubbles::Orientation::STANDARD);
        prop_assert!(outcome.state.is_stable());
        let fell = turned.events().any(|r| matches!(r.event, Event::Fell { .. }));
        if !fell {
            prop_assert_eq!(outcome.state, start);
        }
        // Four more turns from where they ended change nothing further when
        // the first four changed nothing.
        if outcome.state == start {
            prop_assert_eq!(scenario(outcome.state, &[Operation::Rotate(shubbles::Rotation::Clockwise); 4]).run().state, start);
        }
    }

    #[test]
    fn the_frame_dump_ends_in_the_ascii_picture_of_the_result(start in valid_state(), ops in operations(30)) {
        let scenario = scenario(start, &ops);
        let frames: Vec<_> = scenario.frames().collect();
        let making = scenario.events().filter(|r| r.event.makes_frame()).count();
        prop_assert_eq!(frames.len(), making + 1);
        let outcome = scenario.run();
        let last = frames.last().expect("frame 0 always exists");
        prop_assert_eq!(last.state, outcome.state);
        prop_assert_eq!(last.failure.is_some(), outcome.failure.is_some());
        prop_assert!(frames[..frames.len() - 1].iter().all(|f| f.failure.is_none()));
    }
}

/// The literal reading of "`|` ends where `++` ends" does not hold under
/// BOX.md §4: after `+` the creatures fall before the second quarter. A
/// shubble in cell 27 shows it.
#[test]
fn a_half_turn_differs_from_two_quarter_turns_when_something_falls_between() {
    let start = ".......................x@.xo.";
    let half = Scenario::parse(start, "|", false).expect("valid").run();
    let quarters = Scenario::parse(start, "++", false).expect("valid").run();
    // `|`: the shubble falls straight up from 27 to 5. `++`: it first
    // falls right into 28, where a wall is above it.
    assert_eq!(half.state.cells_string(), ".x..xo..................@....");
    assert_eq!(
        quarters.state.cells_string(),
        ".x...x..................@...o"
    );
}

/// Likewise four quarter turns can move a stable state: the shubble in
/// cell 17 (wall below) falls right, up, left and down, and the smoles move
/// too.
#[test]
fn four_quarter_turns_move_creatures_that_can_fall_on_the_way() {
    let outcome = Scenario::parse("@................o.....x.x...", "++++", false)
        .expect("valid")
        .run();
    assert_eq!(
        outcome.state.cells_string(),
        "@...........o.....x....x....."
    );
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(40))]

    /// The GIF has exactly the frames of the frame dump, each shown for one
    /// second.
    #[test]
    fn the_gif_has_as_many_frames_as_the_frame_dump((start, ops) in legal_operations(12), tail in operations(3)) {
        let mut all = ops;
        all.extend(tail);
        let scenario = scenario(start, &all);
        let mut gif = Vec::new();
        let options = shubbles::RenderOptions::new(4).expect("a valid cell size");
        let written = shubbles::write_gif(scenario.frames(), &options, &mut gif).expect("encodes");
        let mut dump = Vec::new();
        shubbles::write_frame_dump(&scenario, &mut dump).expect("in memory");
        let dumped = String::from_utf8(dump).expect("text").matches("# frame ").count();
        let decoded = shubbles::reel::decode_gif(&gif).expect("a GIF");
        prop_assert!(decoded.frames.iter().all(|frame| frame.delay_cs == 100));
        prop_assert_eq!(decoded.frames.len(), dumped);
        prop_assert_eq!(written.frames, dumped);
        prop_assert_eq!(written.duration_cs, 100 * dumped as u64);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(60))]

    /// The event log is the single source of truth: read back, it makes the
    /// same frames and the same GIF, byte for byte, as running the rules.
    #[test]
    fn events_round_trip_to_identical_output((start, ops) in legal_operations(15), tail in operations(3)) {
        let mut all = ops;
        all.extend(tail);
        let scenario = scenario(start, &all);
        let mut log = Vec::new();
        shubbles::write_event_log(&scenario, &mut log).expect("in memory");
        let read = shubbles::read_event_log(log.as_slice()).expect("a log reads back");
        prop_assert_eq!(&read.scenario, &scenario);
        prop_assert_eq!(read.outcome(), scenario.run());
        let options = shubbles::RenderOptions::new(4).expect("a valid cell size");
        let gif_of = |frames: &mut dyn Iterator<Item = shubbles::Frame>| {
            let mut bytes = Vec::new();
            shubbles::write_gif(frames, &options, &mut bytes).expect("encodes");
            bytes
        };
        prop_assert!(gif_of(&mut read.frames()) == gif_of(&mut scenario.frames()));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    /// The solver's quiet operations (closed-form settle, no events) end
    /// where the event-producing ones end, and fail where they fail.
    #[test]
    fn quiet_operations_agree_with_the_engine(start in valid_state(), ops in operations(40)) {
        let mut loud = start;
        let mut quiet = start;
        for operation in ops {
            let expected = shubbles::perform(&mut loud, operation, &mut |_| {});
            prop_assert_eq!(shubbles::perform_quietly(&mut quiet, operation), expected);
            if expected.is_err() {
                break;
            }
            prop_assert_eq!(quiet, loud);
        }
    }
}
