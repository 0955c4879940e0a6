//! The tournament as its callers meet it: schedules, results files
//! written, resumed and refused, and standings.

use std::time::Duration;

use super::standings::{short_name, Versus, NAME_CHARS};
use super::*;
use crate::play::arena::OnIllegal;
use crate::play::elo::{Elo, Score};
use crate::play::latency::Latency;
use crate::play::player::Clock;
use crate::play::sprt::{Decision, Sprt, SprtStatus};
use crate::play::suite::practice_setup;
use edge::Shard;

/// Fast and reproducible: the virtual clock, and thinking bounded so
/// generously that the built-in search stops by its node count, never
/// by the wall clock of a busy test machine.
fn tiny(kind: TournamentKind) -> Tournament {
    Tournament {
        entrants: ["builtin:random", "builtin:greedy", "builtin:1"]
            .iter()
            .map(|name| PlayerSpec::parse(name).expect("a built-in player"))
            .collect(),
        fields: vec![practice_setup(1), practice_setup(2)],
        kind,
        options: PlayOptions {
            clock: Clock::Virtual,
            think: Duration::from_secs(600),
            illegal: OnIllegal::Pass,
            margin: Duration::ZERO,
        },
        seed: 7,
        sprt: None,
        io_logs: None,
        shard: Shard::WHOLE,
    }
}

/// The standings without the answer times, which are measured anew by
/// every run.
fn without_times(mut standings: Standings) -> Standings {
    for row in &mut standings.rows {
        row.latency = Latency::default();
    }
    standings
}

/// A result for `pairing` of `schedule`, made up for the standings'
/// tests: each team won a game, territory 10 to 9, A's time 1 s and B's
/// 2 s.
fn made_up(tournament: &Tournament, schedule: &[Pairing], pairing: usize) -> MatchOutcome {
    let p = schedule[pairing];
    MatchOutcome {
        pairing,
        field: p.field,
        a: tournament.entrants[p.a].to_string(),
        b: tournament.entrants[p.b].to_string(),
        winner: None,
        criterion: None,
        wins: PerTeam { a: 1, b: 1 },
        territory: PerTeam { a: 10, b: 9 },
        objects: PerTeam { a: 5, b: 5 },
        time_used: PerTeam { a: 1_000, b: 2_000 },
        turns: 10,
    }
}

fn lines(path: &Path) -> Vec<String> {
    fs::read_to_string(path)
        .expect("the results file")
        .lines()
        .map(String::from)
        .collect()
}

#[test]
fn round_robins_and_gauntlets_are_scheduled_fairly() {
    let round_robin = tiny(TournamentKind::RoundRobin).schedule().expect("small");
    // 3 pairs on each of 2 fields.
    assert_eq!(round_robin.len(), 6);
    assert!(round_robin.iter().enumerate().all(|(i, p)| p.index == i));
    let on = |field: usize| -> Vec<(usize, usize)> {
        round_robin
            .iter()
            .filter(|p| p.field == field)
            .map(|p| (p.a, p.b))
            .collect()
    };
    assert_eq!(on(0), [(0, 1), (0, 2), (1, 2)]);
    assert_eq!(on(1), [(1, 0), (2, 0), (2, 1)]);
    let gauntlet = tiny(TournamentKind::Gauntlet).schedule().expect("small");
    let pairs: Vec<(usize, usize, usize)> = gauntlet.iter().map(|p| (p.a, p.b, p.field)).collect();
    assert_eq!(pairs, [(0, 1, 0), (0, 2, 0), (1, 0, 1), (2, 0, 1)]);
    for kind in [TournamentKind::RoundRobin, TournamentKind::Gauntlet] {
        assert_eq!(kind.name().parse(), Ok(kind));
    }
    assert!("swiss".parse::<TournamentKind>().is_err());
}

#[test]
fn a_round_robin_is_played_and_written_down() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let results = dir.path().join("results.jsonl");
    let records = dir.path().join("records");
    let tournament = tiny(TournamentKind::RoundRobin);
    let mut seen = Vec::new();
    let standings = tournament
        .run(
            &results,
            2,
            Some(&records),
            &mut |outcome: &MatchOutcome| seen.push(outcome.pairing),
        )
        .expect("the tournament is played");
    seen.sort_unstable();
    assert_eq!(seen, [0, 1, 2, 3, 4, 5]);

    let lines = lines(&results);
    assert_eq!(lines.len(), 1 + 6);
    let header: serde_json::Value = serde_json::from_str(&lines[0]).expect("a JSON header");
    assert_eq!(header["entrants"][2], "builtin:1");
    assert_eq!(header["clock"], "virtual");
    let schedule = tournament.schedule().expect("small");
    for line in &lines[1..] {
        let outcome: MatchOutcome = serde_json::from_str(line).expect("a result line");
        let pairing = schedule[outcome.pairing];
        assert_eq!(outcome.a, tournament.entrants[pairing.a].to_string());
        assert_eq!(outcome.field, pairing.field);
        assert!(outcome.wins.a + outcome.wins.b <= 2);
        assert!(outcome.turns > 0);
        assert_eq!(outcome.winner.is_some(), outcome.criterion.is_some());
        let record = fs::read(records.join(format!("match-{}.ktz", outcome.pairing)))
            .expect("the match's record");
        let mut result = None;
        let verdict = read(&record, Policy::Strict, |r| {
            result = result.or(MatchResult::of(&r.event))
        });
        assert_eq!(verdict.error, None);
        let result = result.expect("the record's result");
        assert_eq!((result.winner, result.wins), (outcome.winner, outcome.wins));
        // builtin:1 beats builtin:random every time.
        for team in Team::BOTH {
            if pairing.entrant(team) == 2 && pairing.entrant(team.other()) == 0 {
                assert_eq!(outcome.winner, Some(team), "{line}");
            }
        }
    }

    assert_eq!(standings.rows.len(), 3);
    assert!(standings.rows.iter().all(|row| row.matches.total() == 4));
    let total: f64 = standings.rows.iter().map(|row| row.points).sum();
    assert_eq!(total, 6.0);
    let random = standings
        .rows
        .iter()
        .position(|row| row.name == "builtin:random");
    let level_1 = standings
        .rows
        .iter()
        .position(|row| row.name == "builtin:1");
    let (random, level_1) = (random.expect("a row"), level_1.expect("a row"));
    assert!(level_1 < random);
    assert_eq!(
        standings.cross[level_1][random],
        Some(Versus {
            points: 2.0,
            matches: 2
        })
    );
    assert_eq!(standings.cross[random][random], None);
    let table = standings.table();
    assert!(table.contains("builtin:greedy"), "{table}");
    assert!(
        table
            .lines()
            .next()
            .unwrap_or_default()
            .starts_with("Rank  Name"),
        "{table}"
    );
}

#[test]
fn a_run_cut_short_resumes_to_the_same_standings() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let tournament = tiny(TournamentKind::RoundRobin);
    let fresh_path = dir.path().join("fresh.jsonl");
    let fresh = tournament
        .run(&fresh_path, 2, None, &mut |_: &MatchOutcome| {})
        .expect("the fresh run");

    // Killed after two matches, in the middle of writing a third.
    let cut_path = dir.path().join("cut.jsonl");
    let kept = lines(&fresh_path);
    let third = &kept[3];
    let cut = format!(
        "{}\n{}\n{}\n{}",
        kept[0],
        kept[1],
        kept[2],
        &third[..third.len() / 2]
    );
    fs::write(&cut_path, cut).expect("the cut file");
    let session = tournament.open(&cut_path, None).expect("readable");
    assert_eq!(session.finished().len(), 2);
    drop(session);

    let mut replayed = 0;
    let resumed = tournament
        .run(&cut_path, 1, None, &mut |_: &MatchOutcome| replayed += 1)
        .expect("the resumed run");
    assert_eq!(replayed, 4);
    assert_eq!(without_times(resumed.clone()), without_times(fresh.clone()));
    assert_eq!(resumed.table(), fresh.table());
    let resumed_lines = lines(&cut_path);
    assert_eq!(resumed_lines.len(), 1 + 6);
    assert!(resumed_lines[1..]
        .iter()
        .all(|line| serde_json::from_str::<MatchOutcome>(line).is_ok()));
    let mut fresh_lines = kept;
    let mut resumed_lines = resumed_lines;
    fresh_lines.sort();
    resumed_lines.sort();
    assert_eq!(resumed_lines, fresh_lines);

    // Nothing left to play: the same standings again, file unchanged.
    let again = tournament
        .run(&cut_path, 2, None, &mut |_: &MatchOutcome| {
            panic!("nothing to play")
        })
        .expect("the finished run");
    assert_eq!(again, without_times(fresh));
    assert_eq!(again.answer_times(), "");
    assert_eq!(lines(&cut_path).len(), 7);
}

#[test]
fn another_tournaments_results_are_refused() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let results = dir.path().join("other.jsonl");
    let mut other = tiny(TournamentKind::Gauntlet);
    other.fields.truncate(1);
    other.entrants.truncate(2);
    other
        .run(&results, 1, None, &mut |_: &MatchOutcome| {})
        .expect("the other tournament");
    let before = fs::read(&results).expect("its results");

    let error = tiny(TournamentKind::RoundRobin)
        .run(&results, 1, None, &mut |_: &MatchOutcome| {
            panic!("nothing is played")
        })
        .expect_err("another tournament's file");
    let message = error.to_string();
    assert!(
        matches!(error, TournamentError::Foreign { .. }),
        "{message}"
    );
    assert!(message.contains("other.jsonl"), "{message}");
    assert!(
        message.contains("format \"gauntlet\" there, \"round-robin\" here"),
        "{message}"
    );
    assert!(message.contains("delete"), "{message}");
    assert_eq!(fs::read(&results).expect("its results"), before);

    fs::write(&results, "not a results file\n").expect("a stray file");
    let round_robin = tiny(TournamentKind::RoundRobin);
    let message = round_robin
        .open(&results, None)
        .err()
        .expect("a stray file")
        .to_string();
    assert!(message.contains("not a tournament's header"), "{message}");
}

#[test]
fn a_header_cut_short_starts_afresh_and_a_damaged_line_is_reported() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let results = dir.path().join("results.jsonl");
    let mut tournament = tiny(TournamentKind::Gauntlet);
    tournament.fields.truncate(1);
    tournament.entrants.truncate(2);
    let header = json_line(&tournament.header());
    fs::write(&results, &header[..10]).expect("a cut header");
    tournament
        .run(&results, 1, None, &mut |_: &MatchOutcome| {})
        .expect("played afresh");
    let written = lines(&results);
    assert_eq!((written.len(), written[0].as_str()), (2, header.trim_end()));

    fs::write(&results, format!("{header}{{\"pairing\": 0}}\n")).expect("a bad line");
    let message = tournament
        .open(&results, None)
        .err()
        .expect("a bad line")
        .to_string();
    assert!(
        message.contains("results.jsonl line 2: not a match's result"),
        "{message}"
    );
}

#[test]
fn unplayable_tournaments_are_refused_before_any_match() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let results = dir.path().join("results.jsonl");
    let refused = |tournament: Tournament| -> String {
        match tournament.run(&results, 1, None, &mut |_: &MatchOutcome| {
            panic!("nothing is played")
        }) {
            Err(TournamentError::Setup(problem)) => problem,
            other => panic!("expected a refusal, found {other:?}"),
        }
    };
    let mut alone = tiny(TournamentKind::RoundRobin);
    alone.entrants.truncate(1);
    assert!(refused(alone).contains("two entrants"));
    let mut twice = tiny(TournamentKind::RoundRobin);
    twice.entrants[2] = PlayerSpec::Random;
    assert!(refused(twice).contains("builtin:random is an entrant twice"));
    let mut human = tiny(TournamentKind::RoundRobin);
    human.entrants[0] = PlayerSpec::Human;
    assert!(refused(human).contains("human"));
    let mut same_first = tiny(TournamentKind::RoundRobin);
    let mut games = same_first.fields[1].games().clone();
    games[1].first = games[0].first;
    same_first.fields[1] = same_first.fields[1].with_games(games);
    assert!(refused(same_first).starts_with("field 1 cannot be played"));
    assert!(!results.exists());
}

#[test]
fn standings_rank_by_share_and_cross_table_by_rank() {
    let tournament = tiny(TournamentKind::Gauntlet);
    let schedule = tournament.schedule().expect("small");
    let outcome = |pairing: usize, winner: Option<Team>| MatchOutcome {
        winner,
        criterion: winner.map(|_| 2),
        ..made_up(&tournament, &schedule, pairing)
    };
    // Gauntlet: 0–1 and 0–2 on field 0 (0 is A), 1–0 and 2–0 on
    // field 1 (0 is B). Entrant 0 wins three and leaves one level.
    let outcomes = [
        outcome(0, Some(Team::A)),
        outcome(1, Some(Team::A)),
        outcome(2, Some(Team::B)),
        outcome(3, None),
    ];
    let standings = tournament.standings(&schedule, &outcomes);
    let mut reversed = outcomes.clone();
    reversed.reverse();
    assert_eq!(tournament.standings(&schedule, &reversed), standings);
    let order: Vec<usize> = standings.rows.iter().map(|row| row.entrant).collect();
    // Entrant 2 scored ½ of 2, entrant 1 nothing.
    assert_eq!(order, [0, 2, 1]);
    assert_eq!(standings.rows[0].points, 3.5);
    assert_eq!(
        standings.rows[0].matches,
        Score {
            wins: 3,
            draws: 1,
            losses: 0
        }
    );
    assert_eq!(
        standings.rows[0].games,
        Score {
            wins: 4,
            draws: 0,
            losses: 4
        }
    );
    assert_eq!(standings.rows[0].time_used, 6_000);
    assert_eq!(standings.rows[2].elo, Elo::AllLost);
    assert_eq!(
        standings.cross[1][0],
        Some(Versus {
            points: 0.5,
            matches: 2
        })
    );
    assert_eq!(standings.cross[1][2], None);
    let table = standings.table();
    assert!(
        table.contains("\n   2  builtin:1       0.5/2      -    -\n"),
        "{table}"
    );
}

#[test]
fn schedules_are_refused_just_past_their_limits() {
    let mut large = tiny(TournamentKind::RoundRobin);
    large.entrants = (0..MAX_ENTRANTS)
        .map(|i| PlayerSpec::parse(&format!("player-{i}")).expect("a program"))
        .collect();
    // 1000 entrants meet in 499,500 pairs.
    large.fields = vec![practice_setup(1); 2];
    assert_eq!(large.schedule().expect("999,000 matches").len(), 999_000);
    large.fields.push(practice_setup(3));
    let refused = large.schedule().expect_err("1,498,500 matches");
    assert!(
        refused.to_string().contains("is 1498500 matches"),
        "{refused}"
    );

    large.kind = TournamentKind::Gauntlet;
    assert_eq!(large.schedule().expect("2,997 matches").len(), 2_997);
    large
        .entrants
        .push(PlayerSpec::parse("one more").expect("a program"));
    let refused = large.schedule().expect_err("1,001 entrants");
    assert!(
        refused.to_string().starts_with("1001 entrants"),
        "{refused}"
    );
}

#[test]
fn jobs_out_of_bounds_are_refused_before_the_file_is_made() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let results = dir.path().join("results.jsonl");
    for jobs in [0, MAX_JOBS + 1] {
        let error = tiny(TournamentKind::RoundRobin)
            .run(&results, jobs, None, &mut |_: &MatchOutcome| {
                panic!("nothing is played")
            })
            .expect_err("too many or no jobs");
        assert!(error.to_string().ends_with(": 1 to 256"), "{error}");
    }
    assert!(!results.exists());
}

#[test]
fn a_last_line_cut_inside_a_character_is_dropped_and_crlf_lines_are_read() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let results = dir.path().join("results.jsonl");
    let mut tournament = tiny(TournamentKind::Gauntlet);
    tournament.entrants = ["片付け 1", "片付け 2"]
        .iter()
        .map(|name| PlayerSpec::parse(name).expect("a program"))
        .collect();
    let level = |pairing: usize| MatchOutcome {
        pairing,
        field: pairing,
        a: tournament.entrants[pairing].to_string(),
        b: tournament.entrants[1 - pairing].to_string(),
        winner: None,
        criterion: None,
        wins: PerTeam { a: 0, b: 0 },
        territory: PerTeam { a: 3, b: 3 },
        objects: PerTeam { a: 0, b: 0 },
        time_used: PerTeam { a: 0, b: 0 },
        turns: 0,
    };
    let kept = json_line(&tournament.header()) + &json_line(&level(0));
    let cut = json_line(&level(1));
    // One byte into the three of 付.
    let inside = cut.find('付').expect("a name") + 1;
    let crlf = kept.replace('\n', "\r\n");
    let bytes = [crlf.as_bytes(), &cut.as_bytes()[..inside]].concat();
    assert!(String::from_utf8(bytes.clone()).is_err());
    fs::write(&results, bytes).expect("a cut file");
    let session = tournament.open(&results, None).expect("readable");
    assert_eq!(session.finished(), [level(0)]);
    assert_eq!(session.total(), 2);
    drop(session);
    assert_eq!(fs::read_to_string(&results).expect("the file"), crlf);
}

#[test]
fn long_names_keep_both_ends() {
    let name = "python3 /home/someone/players/katazuke/alpha.py --level 4";
    let short = short_name(name);
    assert_eq!(short.chars().count(), NAME_CHARS);
    assert!(short.starts_with("python3 /"), "{short}");
    assert!(short.ends_with("alpha.py --level 4"), "{short}");
    assert_eq!(short_name("builtin:1"), "builtin:1");
}

#[test]
fn an_sprt_stops_where_its_ratio_crosses_whatever_the_jobs() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut tournament = tiny(TournamentKind::RoundRobin);
    tournament.entrants.truncate(2);
    tournament.entrants.reverse();
    tournament.fields = (1..=40).map(practice_setup).collect();
    let test: Sprt = "elo0=0 elo1=100".parse().expect("a test");
    tournament.sprt = Some(test);
    let mut reached = Vec::new();
    for jobs in [1, 2] {
        let results = dir.path().join(format!("sprt-{jobs}.jsonl"));
        let mut statuses = Vec::new();
        struct Seen<'s>(&'s mut Vec<SprtStatus>);
        impl TournamentProgress for Seen<'_> {
            fn match_played(&mut self, _outcome: &MatchOutcome) {}
            fn test_read(&mut self, status: &SprtStatus) {
                self.0.push(*status);
            }
        }
        let standings = tournament
            .run(&results, jobs, None, &mut Seen(&mut statuses))
            .expect("the tournament is played");
        let status = standings.sprt.expect("the test's state");
        assert_eq!(status.decision, Decision::AcceptElo1);
        // The random player never takes a match's two games from greedy.
        assert_eq!(status.pairs.classes()[..2], [0, 0]);
        // Once the bound is crossed, the test says the same after every
        // match still in flight.
        let first_crossing = statuses
            .iter()
            .position(|s| s.decision != Decision::Continue)
            .expect("crossed");
        assert_eq!(statuses[first_crossing], status);
        assert!(statuses[first_crossing..].iter().all(|s| *s == status));
        let played = lines(&results).len() - 1;
        assert!(played >= status.pairs.total() as usize);
        // Past it: only matches started within 2 × jobs − 1 places of
        // the first unended one, however the threads were scheduled.
        assert!(
            played < status.pairs.total() as usize + 2 * jobs,
            "{played} played, {} in the test, {jobs} at once",
            status.pairs.total()
        );
        assert!(status.llr >= test.bounds().1);
        reached.push(status);
        // Run again: the test has decided, so nothing is played.
        let before = lines(&results);
        let again = tournament
            .run(&results, jobs, None, &mut |_: &MatchOutcome| {
                panic!("a decided test plays no match")
            })
            .expect("the standings again");
        assert_eq!(again.sprt, Some(status));
        assert_eq!(lines(&results), before);
    }
    assert_eq!(reached[0], reached[1]);
}

#[test]
fn an_sprt_needs_two_entrants() {
    let mut tournament = tiny(TournamentKind::RoundRobin);
    tournament.sprt = Some("elo0=0 elo1=10".parse().expect("a test"));
    let dir = tempfile::tempdir().expect("a temporary folder");
    let results = dir.path().join("three.jsonl");
    let error = tournament
        .run(&results, 1, None, &mut |_: &MatchOutcome| {})
        .expect_err("three entrants");
    assert_eq!(
        error.to_string(),
        "an SPRT tests one player against another: 3 entrants given, two needed"
    );
    assert!(!results.exists());
}

#[test]
fn standings_count_each_match_as_a_pair_of_games() {
    let tournament = tiny(TournamentKind::Gauntlet);
    let schedule = tournament.schedule().expect("small");
    let outcome = |pairing: usize, wins: PerTeam<u32>| MatchOutcome {
        winner: None,
        criterion: None,
        wins,
        ..made_up(&tournament, &schedule, pairing)
    };
    // Entrant 0 is A on field 0 and B on field 1: two wins, a win and a
    // draw, a loss and a draw, two draws.
    let outcomes = [
        outcome(0, PerTeam { a: 2, b: 0 }),
        outcome(1, PerTeam { a: 1, b: 0 }),
        outcome(2, PerTeam { a: 1, b: 0 }),
        outcome(3, PerTeam { a: 0, b: 0 }),
    ];
    let standings = tournament.standings(&schedule, &outcomes);
    let first = standings
        .rows
        .iter()
        .find(|row| row.entrant == 0)
        .expect("entrant 0");
    assert_eq!(first.pairs.classes(), [0, 1, 1, 1, 1]);
    assert_eq!(first.pair_elo, first.pairs.elo());
    assert!(
        standings.table().contains("[0, 1, 1, 1, 1]"),
        "{}",
        standings.table()
    );
}

#[test]
fn shards_merge_to_the_results_of_one_run_byte_for_byte() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let whole = tiny(TournamentKind::RoundRobin);
    let single = dir.path().join("single.jsonl");
    let standings = whole
        .run(&single, 1, None, &mut |_: &MatchOutcome| {})
        .expect("one run");
    let mut paths = Vec::new();
    for index in 1..=4 {
        let mut shard = whole.clone();
        shard.shard = Shard::new(index, 4).expect("a shard");
        let path = dir.path().join(format!("shard-{index}.jsonl"));
        let played = shard
            .run(&path, 2, None, &mut |_: &MatchOutcome| {})
            .expect("a shard's run");
        // Matches 0 and 4 are shard 1's, 1 and 5 shard 2's, 2 shard 3's,
        // 3 shard 4's.
        let count = played
            .rows
            .iter()
            .map(|row| row.matches.total())
            .sum::<u32>()
            / 2;
        assert_eq!(count, if index <= 2 { 2 } else { 1 });
        assert!(lines(&path)[0].ends_with(&format!(",\"shard\":\"{index}/4\"}}")));
        paths.push(path);
    }
    paths.reverse();
    let merged = merge_results(&paths).expect("the shards merge");
    assert_eq!(
        merged.results_file(),
        fs::read_to_string(&single).expect("the single run's file")
    );
    assert_eq!(merged.standings, without_times(standings));
    // A shard missing, or given twice.
    let error = merge_results(&paths[1..]).expect_err("shard 4 missing");
    assert_eq!(error.to_string(), "shard 4 of 4 is missing");
    let twice = [paths[0].clone(), paths[0].clone()];
    assert!(merge_results(&twice)
        .expect_err("twice")
        .to_string()
        .starts_with("shard 4/4 is given twice"));
    // A line in another shard's file.
    let one = dir.path().join("shard-1.jsonl");
    let mut moved = lines(&one);
    moved.push(lines(&dir.path().join("shard-3.jsonl"))[1].clone());
    fs::write(&one, moved.join("\n") + "\n").expect("rewritten");
    let error = merge_results(&paths).expect_err("a match in the wrong shard");
    assert!(
        error
            .to_string()
            .contains("line 4: match 2 is not one of shard 1/4's"),
        "{error}"
    );
    // A shard's run refuses it too, on resuming.
    let mut first = whole.clone();
    first.shard = Shard::new(1, 4).expect("a shard");
    let error = first
        .run(&one, 1, None, &mut |_: &MatchOutcome| {})
        .expect_err("refused");
    assert!(
        error
            .to_string()
            .contains("match 2 is not one of shard 1/4's"),
        "{error}"
    );
}
