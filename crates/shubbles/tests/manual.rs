//! Every command the docs show for `shubbles` runs as a user runs it: the
//! transcripts of docs/manual-shubbles.md (` ```console `) print exactly
//! what they show, and the lines of its ` ```sh ` blocks and of the
//! README end as their comments say (status 0 unless "exits N"). How the
//! blocks are read and run: `testing::transcript`.
//!
//! Left to CI (`.ci/run`, each line in `LEFT_TO_CI` with the line of
//! `.ci/run` that runs it): the README's `cargo run --release -- demo`,
//! `cargo test` and `cargo install --path crates/shubbles`, and the
//! golden frames' regeneration command of crates/shubbles/frames/README.md.
//!
//! Needs a tool that may be missing, so run only where it is installed
//! (the test prints what it skipped; CI installs both and sets
//! `SHUBBLES_DOCS_NEED_TOOLS=1`, so that there a missing one fails):
//! `shubbles gif … -o - | gifsicle --info` (gifsicle) and the GNU
//! `parallel` line of the shards example, with the lines after it in its
//! block, which build on it.
#![cfg(unix)]

mod common;

use testing::transcript::{Claim, Doc, Manual, StandIn, Tally};

/// `solve` tells how long it searched, which varies from run to run: the
/// summary's `… visited in 87.0 ms` (or, from a table, `… look-ups) in
/// 0.127 ms`) and the JSON's `"time_ms":115.907` are compared without
/// their number. Nothing else is normalised.
fn normalise(line: &str) -> String {
    let decimal = |text: &str| {
        text.split_once('.').is_some_and(|(whole, tenths)| {
            [whole, tenths]
                .iter()
                .all(|part| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit()))
        })
    };
    if line.starts_with("shubbles: ") {
        if let Some((head, tail)) = line.rsplit_once(" visited in ") {
            if tail.strip_suffix(" ms").is_some_and(decimal) {
                return format!("{head} visited in <ms> ms");
            }
        }
        // An answer read from a table: `… (32 look-ups) in 0.127 ms`.
        if let Some((head, tail)) = line.rsplit_once(" look-ups) in ") {
            if tail.strip_suffix(" ms").is_some_and(decimal) {
                return format!("{head} look-ups) in <ms> ms");
            }
        }
    }
    if line.starts_with("{\"outcome\":") {
        if let Some((head, tail)) = line.rsplit_once(",\"time_ms\":") {
            if tail.strip_suffix('}').is_some_and(decimal) {
                return format!("{head},\"time_ms\":<ms>}}");
            }
        }
    }
    line.to_string()
}

/// Transcript commands whose status is not 0, as the manual says.
const STATUSES: &[(&str, i32)] = &[
    // A failed run: `!` and status 3.
    ("shubbles text .........@...o....ooo..xox... '+^^'", 3),
    // A forged event log, an unstable start and a mistyped option are
    // invalid input: status 2.
    ("shubbles gif --from-events forged.jsonl", 2),
    ("shubbles text .o.......@...o....ooo..xox...", 2),
    ("shubbles gif --cell 20", 2),
    // A state with more shubbles than the table covers: status 2.
    (
        "shubbles table query --table small.table .........@...o....ooo..xox...",
        2,
    ),
];

/// What a user supplies where the manual names it, made by the test.
const STAND_INS: &[StandIn] = &[
    // The batch transcript's input: the lines its `cat` shows.
    StandIn {
        name: "scenarios.txt",
        script: "printf '%s\\n' \
            '# STATE                       OPS        NAME (optional)' \
            '.........@...o....ooo..xox... +>|<-v+^+  fig1a' \
            '.........@...o....ooo..xox... +^^' \
            '.........@...o....ooo..xox... .          start' > scenarios.txt",
    },
    // The event log of the run the transcript before it shows, with its
    // line 6 forged as the message says ("op" 4 where the run has 1).
    StandIn {
        name: "forged.jsonl",
        script: "shubbles events .........@...o....ooo..xox... '+>' \
            | sed '6s/\"op\":1/\"op\":4/' > forged.jsonl",
    },
    // `batch a.txt b.txt`: two small scenario files, a failing run among them.
    StandIn {
        name: "a.txt",
        script: "printf '%s\\n' '.........@...o....ooo..xox... +>|<-v+^+ fig1a' \
            '.........@...o....ooo..xox... +^^' > a.txt",
    },
    StandIn {
        name: "b.txt",
        script: "printf '%s\\n' '.........@...o....ooo..xox... . start' \
            '@................x.....x..o.. +-' > b.txt",
    },
    // `big.txt` of the shards example: 16 scenarios, two a shard of 8.
    StandIn {
        name: "big.txt",
        script: "for ops in + - '|' '+>' '+>|' '-+' . '+>|<' '+>|<-' '+>|<-v' \
            '+>|<-v+' '+>|<-v+^' '+>|<-v+^+' '++' '--' '||'; do \
            echo \".........@...o....ooo..xox... $ops\"; done > big.txt",
    },
    // `generate-scenarios | shubbles batch -`: a program printing scenarios.
    StandIn {
        name: "generate-scenarios",
        script: "printf '%s\\n' '#!/bin/sh' \
            \"echo '.........@...o....ooo..xox... +>|<-v+^+ fig1a'\" \
            \"echo '@................x.....x..o.. +-'\" > \"$BIN/generate-scenarios\" \
            && chmod +x \"$BIN/generate-scenarios\"",
    },
];

/// What the manual says beside a command, checked after it.
const CLAIMS: &[Claim] = &[
    // "byte-identical to rendering the run"
    Claim {
        after: "shubbles gif --from-events run.jsonl -o run.gif",
        check: "shubbles gif .........@...o....ooo..xox... '+>' -q -o - | cmp - run.gif",
    },
    // The README: the animation it shows is what `shubbles demo` writes.
    Claim {
        after: "shubbles demo",
        check: "cmp shubbles.gif examples/demo.gif",
    },
];

/// The `cargo` lines of the docs, each with the line of `.ci/run` that
/// runs it.
const LEFT_TO_CI: &[(&str, &str)] = &[
    (
        "cargo run --release -- demo",
        "cargo run --locked --quiet --manifest-path \"$OLDPWD/Cargo.toml\" --release -- demo",
    ),
    ("cargo test", "SHUBBLES_DOCS_NEED_TOOLS=1 cargo test --locked"),
    (
        "cargo install --path crates/shubbles",
        "cargo install --locked --quiet --path \"crates/$tool\" --root \"$install_root/$tool\" --target-dir target",
    ),
    (
        "SHUBBLES_BLESS=1 cargo test -p shubbles --test golden_frames",
        "SHUBBLES_BLESS=1 cargo test --locked -p shubbles --test golden_frames",
    ),
];

/// A command of the README (or of the docs beside it) is this test's
/// unless it is `katazuke`'s.
fn not_katazuke(command: &str) -> bool {
    !command.contains("katazuke")
}

fn every(_: &str) -> bool {
    true
}

#[test]
fn every_command_the_docs_show_for_shubbles_runs_as_shown() {
    let manual = Manual {
        tool: "shubbles",
        binary: common::SHUBBLES,
        repository: common::repository(""),
        normalise,
        statuses: STATUSES,
        stand_ins: STAND_INS,
        claims: CLAIMS,
        left_to_ci: LEFT_TO_CI,
    };
    let at_least = |compared, run, left_to_ci| Tally {
        compared,
        run,
        skipped: 0,
        left_to_ci,
    };
    manual.check(&[
        Doc {
            path: "docs/manual-shubbles.md",
            belongs: every,
            at_least: at_least(18, 20, 0),
        },
        Doc {
            path: "README.md",
            belongs: not_katazuke,
            at_least: at_least(0, 1, 3),
        },
        Doc {
            path: "crates/shubbles/frames/README.md",
            belongs: every,
            at_least: at_least(0, 0, 1),
        },
        // No commands today; any added is checked.
        Doc {
            path: "docs/DEVELOPMENT.md",
            belongs: not_katazuke,
            at_least: Tally::default(),
        },
        Doc {
            path: "docs/ARCHITECTURE.md",
            belongs: not_katazuke,
            at_least: Tally::default(),
        },
    ]);
}

#[test]
fn only_the_time_of_solve_is_normalised() {
    assert_eq!(
        normalise("shubbles: solved in 15 operations: 517635 states visited in 87.0 ms"),
        "shubbles: solved in 15 operations: 517635 states visited in <ms> ms"
    );
    assert_eq!(
        normalise("shubbles: no solution: all 210 reachable states visited in 0.3 ms"),
        "shubbles: no solution: all 210 reachable states visited in <ms> ms"
    );
    assert_eq!(
        normalise(
            "shubbles: solved in 18 operations: read from the table (32 look-ups) in 0.127 ms"
        ),
        "shubbles: solved in 18 operations: read from the table (32 look-ups) in <ms> ms"
    );
    assert_eq!(
        normalise(
            r#"{"outcome":"solved","answer":"--","length":2,"states_visited":5,"time_ms":115.907}"#
        ),
        r#"{"outcome":"solved","answer":"--","length":2,"states_visited":5,"time_ms":<ms>}"#
    );
    for kept in [
        "shubbles: solved in 15 operations: 517635 states visited in 87.0 s",
        "shubbles: solved in 15 operations: 517635 states visited in 87 ms",
        "wrote run.gif: 6 frames, 8 KB, 6 s",
        r#"{"outcome":"solved","time_ms":"115.907"}"#,
    ] {
        assert_eq!(normalise(kept), kept);
    }
}
