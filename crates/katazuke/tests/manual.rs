//! Every command the docs show for `katazuke` runs as a user runs it: the
//! transcripts of docs/manual-katazuke.md (` ```console `) print exactly
//! what they show. How the blocks are read and run:
//! `testing::transcript`.
//!
//! Left to CI (`.ci/run`, each line in `LEFT_TO_CI` with the line of
//! `.ci/run` that runs it): every ` ```sh ` line of the manual and the
//! README's `katazuke` lines start with `cargo` (the quick start's
//! `replay`, `cargo test -p katazuke`, `cargo install --path
//! crates/katazuke`, the four `play` commands), and so does the golden
//! frames' regeneration command of crates/katazuke/frames/README.md.
//!
//! The tournament transcript plays 12 matches of the computer player at
//! level 3: about 20 s of the test's time in a debug build (its blocks run
//! side by side, so the rest takes no longer). It is kept: the standings it
//! prints are checked nowhere else.
#![cfg(unix)]

mod common;

use testing::transcript::{Claim, Doc, Manual, Tally};

/// Nothing `katazuke` prints in the manual varies from run to run (the
/// tournament's progress lines, whose order does, are `...` there).
fn normalise(line: &str) -> String {
    line.to_string()
}

/// Transcript commands whose status is not 0, as the manual says.
const STATUSES: &[(&str, i32)] = &[
    // A rule broken: status 3 (the status of the pipeline is `check`'s).
    (
        "sed 's/ 2. B 2.5 clear d3:2 d5:2/ 2. B 2.5 clear a5/' examples/katazuke/practice.ktz | katazuke check - > /dev/null",
        3,
    ),
];

/// What the manual says beside a command, checked after it.
const CLAIMS: &[Claim] = &[
    // "byte-identical to replaying the log"
    Claim {
        after: "katazuke replay --from-events practice.jsonl -o practice.gif",
        check: "katazuke replay examples/katazuke/practice.ktz -o - | cmp - practice.gif",
    },
    // The picture under the transcript is what it writes.
    Claim {
        after: "katazuke replay examples/katazuke/practice.ktz --annotate -o annotated.gif",
        check: "cmp annotated.gif examples/katazuke/annotated.gif",
    },
];

/// The `cargo` lines of the docs, each with the line of `.ci/run` that
/// runs it.
const LEFT_TO_CI: &[(&str, &str)] = &[
    (
        "cargo run --release --bin katazuke -- replay examples/katazuke/practice.ktz -o practice.gif",
        "cargo run --locked --release --bin katazuke -- replay examples/katazuke/practice.ktz -o \"$demo_dir.gif\"",
    ),
    // Every crate's tests, katazuke's among them.
    ("cargo test -p katazuke", "SHUBBLES_DOCS_NEED_TOOLS=1 cargo test --locked"),
    (
        "cargo install --path crates/katazuke",
        "cargo install --locked --quiet --path \"crates/$tool\" --root \"$install_root/$tool\" --target-dir target",
    ),
    (
        "cargo run --release --bin katazuke -- play --A builtin --B builtin:greedy --clock virtual -o match.ktz --gif match.gif",
        "cargo run --locked --release --bin katazuke -- play --A builtin --B builtin:greedy --clock virtual -o \"$play_dir/match.ktz\" --gif \"$play_dir/match.gif\"",
    ),
    (
        "cargo build --release --example katazuke_player",
        "cargo build --locked --release --example katazuke_player",
    ),
    (
        "cargo run --release --bin katazuke -- play --A \"python3 examples/katazuke/player.py\" --B target/release/examples/katazuke_player --clock virtual -o bots.ktz",
        "cargo run --locked --release --bin katazuke -- play --A \"python3 examples/katazuke/player.py\" --B target/release/examples/katazuke_player --clock virtual -o \"$play_dir/bots.ktz\"",
    ),
    (
        "cargo run --release --bin katazuke -- play --A \"python3 examples/katazuke/player.py\" --B builtin -o against-builtin.ktz",
        "cargo run --locked --release --bin katazuke -- play --A \"python3 examples/katazuke/player.py\" --B builtin -o \"$play_dir/against-builtin.ktz\"",
    ),
    (
        "SHUBBLES_BLESS=1 cargo test -p katazuke --test golden",
        "SHUBBLES_BLESS=1 cargo test --locked -p katazuke --test golden",
    ),
];

/// A command of the README (or of the docs beside it) is this test's
/// when it names `katazuke`.
fn katazuke(command: &str) -> bool {
    command.contains("katazuke")
}

fn every(_: &str) -> bool {
    true
}

#[test]
fn every_command_the_docs_show_for_katazuke_runs_as_shown() {
    let manual = Manual {
        tool: "katazuke",
        binary: common::KATAZUKE,
        repository: common::repository(""),
        normalise,
        statuses: STATUSES,
        stand_ins: &[],
        claims: CLAIMS,
        left_to_ci: LEFT_TO_CI,
    };
    let at_least = |compared, left_to_ci| Tally {
        compared,
        run: 0,
        skipped: 0,
        left_to_ci,
    };
    manual.check(&[
        Doc {
            path: "docs/manual-katazuke.md",
            belongs: every,
            at_least: at_least(9, 6),
        },
        Doc {
            path: "README.md",
            belongs: katazuke,
            at_least: at_least(0, 3),
        },
        Doc {
            path: "crates/katazuke/frames/README.md",
            belongs: every,
            at_least: at_least(0, 1),
        },
        // No commands today; any added is checked.
        Doc {
            path: "docs/DEVELOPMENT.md",
            belongs: katazuke,
            at_least: Tally::default(),
        },
        Doc {
            path: "docs/ARCHITECTURE.md",
            belongs: katazuke,
            at_least: Tally::default(),
        },
    ]);
}
