//! `katazuke tournament` as an engine author runs it: a book of fields,
//! a sequential test that stops the run, and what each says when it is
//! given something it cannot use.

mod common;

use std::fs;
use std::path::Path;

use common::{katazuke_in, PRACTICE_KTZ};

fn temporary() -> tempfile::TempDir {
    tempfile::tempdir().expect("a temporary folder")
}

/// A book of three fields: the practice match (with its starts and
/// turns), and two bare headers of capacity 5 and 6.
fn book() -> String {
    let bare = |capacity: u32| {
        format!(
            "katazuke 1\n# bare field {capacity}\ncapacity: {capacity}\nstock: 2\n\
             team time: 20\ngame time: 36\nfield:\n  1 2 3 1\n  2 0 1 2\n  3 1 2 1\n"
        )
    };
    format!("# a book\n{PRACTICE_KTZ}{}{}", bare(5), bare(6))
}

/// The capacity of each record in `dir`, by match index.
fn capacities(dir: &Path, matches: usize) -> Vec<String> {
    (0..matches)
        .map(|index| {
            let record = fs::read_to_string(dir.join(format!("match-{index}.ktz")))
                .expect("a record per match");
            record
                .lines()
                .find(|line| line.starts_with("capacity:"))
                .expect("a capacity line")
                .to_string()
        })
        .collect()
}

fn run(dir: &Path, args: &[&str]) -> common::Run {
    let mut all = vec![
        "tournament",
        "builtin:greedy",
        "builtin:random",
        "--clock",
        "virtual",
        "-q",
    ];
    all.extend_from_slice(args);
    katazuke_in(dir, &all, "")
}

#[test]
fn a_fields_file_is_played_in_order_or_shuffled_by_seed() {
    let dir = temporary();
    fs::write(dir.path().join("book.ktz"), book()).expect("the book");
    let in_order = run(
        dir.path(),
        &[
            "--fields-file",
            "book.ktz",
            "--results",
            "a.jsonl",
            "--records",
            "a",
        ],
    );
    assert_eq!(in_order.code, 0, "{}", in_order.stderr);
    assert_eq!(
        capacities(&dir.path().join("a"), 3),
        ["capacity: 4", "capacity: 5", "capacity: 6"]
    );
    // The practice match's own starts are played.
    let first = fs::read_to_string(dir.path().join("a/match-0.ktz")).expect("a record");
    assert!(first.contains("A start: b2"), "{first}");
    let shuffled = |seed: &str, name: &str| {
        let ran = run(
            dir.path(),
            &[
                "--fields-file",
                "book.ktz",
                "--fields-order",
                "shuffled",
                "--seed",
                seed,
                "--results",
                &format!("{name}.jsonl"),
                "--records",
                name,
            ],
        );
        assert_eq!(ran.code, 0, "{}", ran.stderr);
        capacities(&dir.path().join(name), 3)
    };
    let orders: Vec<Vec<String>> = (1..=6)
        .map(|seed| shuffled(&seed.to_string(), &format!("s{seed}")))
        .collect();
    for order in &orders {
        let mut sorted = order.clone();
        sorted.sort();
        assert_eq!(sorted, ["capacity: 4", "capacity: 5", "capacity: 6"]);
    }
    assert!(
        orders.iter().any(|order| order[0] != "capacity: 4"),
        "six seeds, every one in file order: {orders:?}"
    );
    // The same seed, the same order.
    assert_eq!(shuffled("3", "again"), orders[2]);
    // --fields takes the first N.
    let two = run(
        dir.path(),
        &[
            "--fields-file",
            "book.ktz",
            "--fields",
            "2",
            "--results",
            "two.jsonl",
        ],
    );
    assert_eq!(two.code, 0, "{}", two.stderr);
    let results = fs::read_to_string(dir.path().join("two.jsonl")).expect("results");
    assert_eq!(results.lines().count(), 1 + 2);
}

#[test]
fn a_fields_file_that_cannot_be_played_is_one_line_and_nothing_is_written() {
    let dir = temporary();
    let broken = book().replace("capacity: 6", "capacity: lots");
    fs::write(dir.path().join("broken.ktz"), &broken).expect("the book");
    fs::write(dir.path().join("book.ktz"), book()).expect("the book");
    let line_of_error = broken
        .lines()
        .position(|line| line == "capacity: lots")
        .expect("the broken line")
        + 1;
    for (args, says) in [
        (
            vec!["--fields-file", "broken.ktz"],
            format!("broken.ktz: line {line_of_error}: "),
        ),
        (
            vec!["--fields-file", "book.ktz", "--fields", "4"],
            "--fields 4, but book.ktz has 3 fields".to_string(),
        ),
        (
            vec!["--fields-file", "missing.ktz"],
            "cannot read missing.ktz".to_string(),
        ),
        (
            vec!["--fields-file", "book.ktz", "--params", "book.ktz"],
            "cannot be used with".to_string(),
        ),
    ] {
        let mut all = args.clone();
        all.extend(["--results", "refused.jsonl"]);
        let refused = run(dir.path(), &all);
        assert_eq!(refused.code, 2, "{args:?}: {}", refused.stderr);
        assert!(
            refused.stderr.contains(&says),
            "{args:?}: {}",
            refused.stderr
        );
        if !says.contains("cannot be used") {
            assert_eq!(refused.stderr.lines().count(), 1, "{}", refused.stderr);
        }
        assert!(!dir.path().join("refused.jsonl").exists());
    }
}

#[test]
fn an_sprt_prints_its_ratio_after_every_match_and_stops_when_it_decides() {
    let dir = temporary();
    let ran = katazuke_in(
        dir.path(),
        &[
            "tournament",
            "builtin:greedy",
            "builtin:random",
            "--clock",
            "virtual",
            "--sprt",
            "elo0=0",
            "elo1=100",
            "alpha=0.05",
            "beta=0.05",
            "--results",
            "sprt.jsonl",
        ],
        "",
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    let tests: Vec<&str> = ran
        .stderr
        .lines()
        .filter(|line| line.trim_start().starts_with("SPRT [0, 100]: LLR "))
        .collect();
    let matches = ran
        .stderr
        .lines()
        .filter(|line| line.starts_with("match "))
        .count();
    assert_eq!(tests.len(), matches, "{}", ran.stderr);
    assert!(tests.iter().all(|line| line.contains("(-2.94, 2.94)")));
    // The verdict closes the standings; the answer times, measured, are
    // said on standard error after them.
    let last = ran.stdout.lines().last().unwrap_or_default();
    assert!(
        last.starts_with("SPRT [0, 100]: LLR ") && last.contains("accept elo1 = 100 (H1)"),
        "{}",
        ran.stdout
    );
    let times = ran
        .stderr
        .split_once("Answer times, matches of this run:\n")
        .expect("answer times")
        .1;
    assert!(times.contains("builtin:greedy"), "{times}");
    assert!(!ran.stdout.contains("Answer times"), "{}", ran.stdout);
    assert!(ran.stdout.contains("Pairs (0-2)"), "{}", ran.stdout);
    // -j 1: it stops at the match that decides it, far short of the
    // 10,000 fields it may use.
    let played = fs::read_to_string(dir.path().join("sprt.jsonl"))
        .expect("results")
        .lines()
        .count()
        - 1;
    assert_eq!(played, matches);
    assert!(played < 40, "{played}");
    let refused = katazuke_in(
        dir.path(),
        &[
            "tournament",
            "builtin:greedy",
            "builtin:random",
            "--sprt",
            "elo0=10",
            "elo1=0",
        ],
        "",
    );
    assert_eq!(refused.code, 2);
    assert_eq!(
        refused.stderr,
        "katazuke: --sprt: elo0 (10) must be less than elo1 (0), both finite\n"
    );
}

#[test]
fn each_match_with_a_program_logs_its_lines_with_their_times() {
    let dir = temporary();
    let program = format!(
        "python3 {}",
        common::repository("examples/katazuke/player.py").display()
    );
    let ran = katazuke_in(
        dir.path(),
        &[
            "tournament",
            &program,
            "builtin:1",
            "builtin:random",
            "--fields",
            "1",
            "--clock",
            "virtual",
            "-q",
            "--log-io",
            "io",
        ],
        "",
    );
    assert_eq!(ran.code, 0, "{}", ran.stderr);
    // The program plays matches 0 and 1; the built-in players' match 2
    // exchanges no lines.
    let mut logs: Vec<String> = fs::read_dir(dir.path().join("io"))
        .expect("the logs folder")
        .map(|entry| {
            entry
                .expect("an entry")
                .file_name()
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    logs.sort();
    assert_eq!(logs, ["match-0.log", "match-1.log"]);
    for name in logs {
        let log = fs::read_to_string(dir.path().join("io").join(&name)).expect("a log");
        let lines: Vec<(f64, &str, &str, &str)> = log
            .lines()
            .map(|line| {
                let mut words = line.trim_start().splitn(4, ' ');
                let seconds = words.next().unwrap_or_default().parse().expect("seconds");
                let team = words.next().unwrap_or_default();
                let direction = words.next().unwrap_or_default();
                (seconds, team, direction, words.next().unwrap_or_default())
            })
            .collect();
        assert!(lines.windows(2).all(|pair| pair[0].0 <= pair[1].0), "{log}");
        assert_eq!(lines[0].2, "!", "{log}");
        assert!(lines[0].3.starts_with("started: python3 "), "{log}");
        assert_eq!(lines[1].3, "katazuke 1", "{log}");
        let team = lines[0].1;
        assert!(
            lines.iter().all(|line| line.1 == team),
            "one program: {log}"
        );
        // Every go is answered: readyok, then the answer.
        let gos = lines
            .iter()
            .filter(|line| line.3.starts_with("go "))
            .count();
        let answers = lines.iter().filter(|line| line.2 == "<").count();
        assert!(gos > 5, "{log}");
        assert_eq!(answers, 2 * gos, "{log}");
        assert!(lines.iter().any(|line| line.3 == "quit"), "{log}");
    }
    // A logs folder that is a file is refused before any match.
    fs::write(dir.path().join("taken"), "").expect("a file");
    let refused = katazuke_in(
        dir.path(),
        &[
            "tournament",
            &program,
            "builtin:1",
            "--log-io",
            "taken",
            "--results",
            "refused.jsonl",
        ],
        "",
    );
    assert_eq!(refused.code, 2, "{}", refused.stderr);
    assert!(
        refused
            .stderr
            .contains("the I/O logs folder taken cannot be written"),
        "{}",
        refused.stderr
    );
    assert!(!dir.path().join("refused.jsonl").exists());
}

#[test]
fn help_groups_the_options_as_a_cutechess_user_looks_for_them() {
    let dir = temporary();
    let help = katazuke_in(dir.path(), &["tournament", "--help"], "");
    assert_eq!(help.code, 0, "{}", help.stderr);
    let headings = [
        "Players and format:",
        "Fields and start cells (the openings):",
        "Time control and illegal answers:",
        "Statistics:",
        "Running and output:",
    ];
    let places: Vec<usize> = headings
        .iter()
        .map(|heading| {
            help.stdout
                .lines()
                .position(|line| line == *heading)
                .unwrap_or_else(|| panic!("{heading} in\n{}", help.stdout))
        })
        .collect();
    assert!(
        places.windows(2).all(|pair| pair[0] < pair[1]),
        "{places:?}"
    );
    // Each option under its heading.
    let under = |option: &str| {
        let line = help
            .stdout
            .lines()
            .position(|line| line.trim_start().starts_with(option))
            .unwrap_or_else(|| panic!("{option} in\n{}", help.stdout));
        headings[places
            .iter()
            .rposition(|&place| place < line)
            .expect("under a heading")]
    };
    for (option, heading) in [
        ("--gauntlet", headings[0]),
        ("--fields-file", headings[1]),
        ("--time-margin", headings[2]),
        ("--sprt", headings[3]),
        ("--shard", headings[4]),
        ("--log-io", headings[4]),
    ] {
        assert_eq!(under(option), heading, "{option}");
    }
}

#[test]
fn an_array_job_plays_its_own_shard_into_its_own_file() {
    let dir = temporary();
    let run = |environment: &[(&str, &str)]| {
        std::process::Command::new(common::KATAZUKE)
            .args([
                "tournament",
                "builtin:greedy",
                "builtin:random",
                "--fields",
                "4",
                "--clock",
                "virtual",
                "-q",
                "--shard",
                "auto",
            ])
            .env_remove("SLURM_ARRAY_TASK_ID")
            .env_remove("JOB_COMPLETION_INDEX")
            .envs(environment.iter().copied())
            .current_dir(dir.path())
            .output()
            .expect("katazuke runs")
    };
    let slurm = run(&[
        ("SLURM_ARRAY_TASK_ID", "3"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "4"),
    ]);
    assert!(slurm.status.success(), "{slurm:?}");
    let results = fs::read_to_string(dir.path().join("tournament-3-of-4.jsonl")).expect("shard 3");
    // Shard 3 of 4 of four matches: match 2 alone.
    assert_eq!(results.lines().count(), 2, "{results}");
    assert!(results
        .lines()
        .nth(1)
        .unwrap_or_default()
        .starts_with("{\"pairing\":2,"));
    let kubernetes = run(&[("JOB_COMPLETION_INDEX", "0"), ("KATAZUKE_SHARD_COUNT", "2")]);
    assert!(kubernetes.status.success(), "{kubernetes:?}");
    assert!(dir.path().join("tournament-1-of-2.jsonl").exists());
    let no_count = run(&[("JOB_COMPLETION_INDEX", "0")]);
    assert_eq!(no_count.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&no_count.stderr),
        "katazuke: --shard auto found a shard index but no count: give --shard auto/N \
         or set SLURM_ARRAY_TASK_COUNT or KATAZUKE_SHARD_COUNT\n"
    );
}
