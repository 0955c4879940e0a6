//! 片付けマス under random legal matches: the invariants of KATAZUKE.md
//! §3.4 hold after every event, criteria 1 and 2 never disagree (§9.3),
//! `fmt` is idempotent and means what the log meant, and the events render
//! the same replay as the log.

use proptest::prelude::*;

use katazuke::{
    canonical, random_match, read, read_events, write_replay, DrawOptions, Entry, Event, Field,
    GameState, Params, Policy, ReplayOptions, Seeded, Stock, Team, Verdict,
};

/// Parameters from a seed: fields of 1 to 7 rows by 3 to 7 columns, small
/// counts, capacities, stocks and clocks, so games end by every reason.
fn params(seed: u64) -> Params {
    let mut random = Seeded::new(seed);
    let rows = 1 + random.below(7) as usize;
    let columns = 3 + random.below(5) as usize;
    let field: Vec<Vec<u32>> = (0..rows)
        .map(|_| (0..columns).map(|_| random.below(7) as u32).collect())
        .collect();
    let team_time = 2_000 + random.below(40_000);
    Params {
        field: Field::new(&field).expect("a valid size"),
        capacity: 1 + random.below(9) as u32,
        stock: Stock {
            first: random.below(4) as u32,
            second: random.below(4) as u32,
        },
        team_time,
        game_time: 3_000 + random.below(2 * team_time + 20_000),
    }
}

fn referee(log: &str) -> (Vec<Entry>, Verdict) {
    let mut entries = Vec::new();
    let verdict = read(log.as_bytes(), Policy::Strict, |entry| {
        entries.push(entry.clone())
    });
    (entries, verdict)
}

/// Checks §3.4 on a game's state after an event; `initial` is the total
/// after §3.2.
fn invariants(state: &GameState, initial: u32) -> Result<(), TestCaseError> {
    let size = state.size();
    for cell in size.all() {
        if state.owner(cell).is_some() {
            prop_assert_eq!(state.count(cell), 0, "owned cell {} holds objects", cell);
        }
    }
    for team in Team::BOTH {
        if let Some(current) = state.current[team] {
            prop_assert_eq!(
                state.owner(current),
                Some(team),
                "{}'s current {}",
                team,
                current
            );
        }
        prop_assert!(state.load[team] <= state.params.capacity);
    }
    let loads = state.load.a + state.load.b;
    let emptied = state.emptied.a + state.emptied.b;
    prop_assert_eq!(
        initial + state.placed,
        state.on_field() + loads + emptied,
        "conservation"
    );
    let used = state.time_used.a + state.time_used.b;
    prop_assert_eq!(state.game_left, state.params.game_time - used);
    for team in Team::BOTH {
        prop_assert_eq!(
            state.team_left[team],
            state.params.team_time - state.time_used[team]
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_matches_keep_the_invariants_and_criteria_1_and_2_agree(seed in 1u64..u64::MAX) {
        let params = params(seed);
        let log = random_match(&params, seed ^ 0x5555, 10).to_string();
        let (entries, verdict) = referee(&log);
        prop_assert_eq!(&verdict.error, &None, "{}", log);
        let mut state: Option<GameState> = None;
        let mut initial = 0;
        for (index, entry) in entries.iter().enumerate() {
            // A place and the cancels it causes are one step (§5.3): the
            // invariants hold after the step, not between its events.
            let step_goes_on = matches!(
                entries.get(index + 1).map(|next| &next.event),
                Some(Event::Cancel { .. })
            );
            match &entry.event {
                Event::GameStart(game) => {
                    initial = game.field.concat().iter().sum();
                    state = Some(GameState::after_start(entry.game.unwrap_or(1), game));
                }
                Event::MatchEnd { territory, winner, criterion, .. } => {
                    // §9.3: two wins always come with the larger territory.
                    if *criterion == Some(1) {
                        let winner = winner.expect("criterion 1 names a winner");
                        prop_assert!(territory[winner] > territory[winner.other()], "{}", log);
                    }
                }
                Event::MatchStart(_) => {}
                event => {
                    let state = state.as_mut().expect("a game has started");
                    state.apply(event);
                    if !step_goes_on {
                        invariants(state, initial)?;
                    }
                }
            }
        }
    }

    #[test]
    fn fmt_is_idempotent_and_means_what_the_log_meant(seed in 1u64..u64::MAX) {
        let log = random_match(&params(seed), seed, 10).to_string();
        // Short forms and extra spaces, which fmt writes back long.
        let loose = log
            .replace(" clear ", "  c ")
            .replace(" pass", " -")
            .replace(" empty", " e");
        let once = canonical(loose.as_bytes()).expect("a well-formed log");
        prop_assert_eq!(&canonical(once.as_bytes()).expect("still well-formed"), &once);
        prop_assert_eq!(referee(&once), referee(&log));
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn events_render_the_same_replay_as_the_log(seed in 1u64..u64::MAX) {
        let log = random_match(&params(seed), seed, 10).to_string();
        let (entries, _) = referee(&log);
        let jsonl: String = entries.iter().map(|entry| entry.to_json() + "\n").collect();
        let back = read_events(jsonl.as_bytes()).expect("the events read back");
        prop_assert_eq!(&back, &entries);
        let options = ReplayOptions {
            draw: DrawOptions { cell: 24, ..DrawOptions::default() },
            ..ReplayOptions::default()
        };
        let mut from_log = Vec::new();
        let mut from_events = Vec::new();
        write_replay(&entries, &options, &mut from_log).expect("encodes");
        write_replay(&back, &options, &mut from_events).expect("encodes");
        prop_assert!(from_log == from_events);
    }
}
