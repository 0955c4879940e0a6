//! `shubbles table` and `solve --table` as a user meets them: the file
//! they build and read, what they print, their exit statuses, a build
//! killed and run again, and a table that is damaged or wrong.

use std::fs;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

mod common;

use common::{shubbles_in, FIGURE_1A, SHUBBLES};

/// One shubble on the stot's right: `+-` rolls it to cell 28 and out.
const ONE_SHUBBLE: &str = "...................x...x@o...";

/// Runs `shubbles ARGS` in `dir` with nothing on standard input, checks
/// its status and that `says` is in what it printed on either stream.
fn runs(dir: &Path, args: &[&str], code: i32, says: &str) -> testing::Run {
    let run = shubbles_in(dir, args, "");
    assert_eq!(run.code, code, "{args:?}: {}", run.stderr);
    assert!(
        run.stdout.contains(says) || run.stderr.contains(says),
        "{args:?} does not say {says:?}: {}{}",
        run.stdout,
        run.stderr
    );
    run
}

fn built(dir: &Path, max: &str) -> Vec<u8> {
    let run = shubbles_in(
        dir,
        &["table", "build", "--max-shubbles", max, "-o", "t.table"],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    fs::read(dir.join("t.table")).expect("the table is there")
}

#[test]
fn a_table_is_built_queried_and_used_by_solve() {
    let dir = tempfile::tempdir().unwrap();
    runs(
        dir.path(),
        &["table", "build", "--max-shubbles", "2", "-o", "t.table"],
        0,
        "shubbles: wrote t.table: 180988 states with up to 2 shubbles, ",
    );
    assert_eq!(testing::files_in(dir.path()), ["t.table"]);

    let two = "..................ox...x@o...";
    let query = shubbles_in(
        dir.path(),
        &["table", "query", "--table", "t.table", ONE_SHUBBLE],
        "",
    );
    assert_eq!(
        (query.code, query.stdout.as_str()),
        (0, "...................x...x@o... 2 +-\n")
    );
    // From standard input, one state a line; blank lines are skipped.
    let query = shubbles_in(
        dir.path(),
        &["table", "query", "--table", "t.table"],
        &format!("{ONE_SHUBBLE}\n\n.....................@.xx....\n{two}\n{ONE_SHUBBLE}\n"),
    );
    let lines: Vec<&str> = query.stdout.lines().collect();
    assert_eq!(query.code, 0, "{}", query.stderr);
    assert_eq!(
        lines[..2],
        [
            format!("{ONE_SHUBBLE} 2 +-"),
            ".....................@.xx.... 0".to_string()
        ]
    );
    assert!(lines[2].starts_with(&format!("{two} ")));
    assert_eq!(lines.len(), 4, "every line is read");

    // solve --table prints the answer the search's length has.
    let searched = shubbles_in(dir.path(), &["solve", two], "");
    let read = shubbles_in(dir.path(), &["solve", two, "--table", "t.table"], "");
    assert_eq!(read.code, 0, "{}", read.stderr);
    assert_eq!(read.stdout.trim().len(), searched.stdout.trim().len());
    assert_eq!(read.stdout.trim(), lines[2].rsplit(' ').next().unwrap());
    assert!(
        read.stderr.contains("read from the table"),
        "{}",
        read.stderr
    );
    let json = shubbles_in(
        dir.path(),
        &["solve", two, "--table", "t.table", "--json"],
        "",
    );
    assert!(
        json.stdout.contains("\"source\":\"table\""),
        "{}",
        json.stdout
    );
    // A state the table does not cover is searched for instead.
    let more = runs(
        dir.path(),
        &["solve", FIGURE_1A, "--table", "t.table"],
        0,
        "t.table covers up to 2 shubbles, the start has 5: searching instead",
    );
    assert!(
        more.stderr.contains("solved in 15 operations"),
        "{}",
        more.stderr
    );

    let stats = runs(
        dir.path(),
        &["table", "stats", "--table", "t.table", "--hardest", "1"],
        0,
        "| 2 | 47190 | 16884 | 66030 | 16884 | 0 | 0 | 13 | 7.04 |",
    );
    assert!(
        stats
            .stdout
            .contains("57959 of the 57959 unturned starts can be solved; 0 cannot."),
        "{}",
        stats.stdout
    );
}

#[test]
fn bad_states_and_tables_are_refused_with_status_2_and_nothing_printed() {
    let dir = tempfile::tempdir().unwrap();
    built(dir.path(), "1");
    let cases: [(&[&str], &str, &str); 5] = [
        (&["table", "query", "--table", "t.table", FIGURE_1A], "", "the state has 5 shubbles but the table covers at most 1: build one with --max-shubbles 5 or more"),
        (&["table", "query", "--table", "t.table"], &format!("{ONE_SHUBBLE}\nnot a state\n"), "line 2: "),
        (&["table", "query", "--table", "missing.table", ONE_SHUBBLE], "", "missing.table: "),
        (&["table", "query", "--table", "t.table", ".o.......@.............xx...."], "", "the state is not stable: the creature in cell 1 would fall"),
        (&["table", "build", "--max-shubbles", "27"], "", "27"),
    ];
    for (args, stdin, message) in cases {
        let run = shubbles_in(dir.path(), args, stdin);
        assert_eq!(
            (run.code, run.stdout.as_str()),
            (2, ""),
            "{args:?}: {}",
            run.stderr
        );
        assert!(run.stderr.contains(message), "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    }
    // A damaged table: one flipped bit.
    let mut bytes = fs::read(dir.path().join("t.table")).unwrap();
    let middle = bytes.len() - 50;
    bytes[middle] ^= 4;
    fs::write(dir.path().join("bad.table"), &bytes).unwrap();
    let run = runs(
        dir.path(),
        &["solve", ONE_SHUBBLE, "--table", "bad.table"],
        2,
        "bad.table: not a usable table (its layer of 1 shubbles does not match its checksum): \
         build it again",
    );
    assert_eq!(run.stdout, "");
}

#[test]
fn verify_finds_a_wrong_distance_that_the_checksums_cannot() {
    let dir = tempfile::tempdir().unwrap();
    let mut bytes = built(dir.path(), "1");
    runs(
        dir.path(),
        &["table", "verify", "--table", "t.table"],
        0,
        "all 34000 distances follow from their successors",
    );
    // Layer 0's first state made unsolvable (one bit a state, all ones),
    // its block's checksum made right again.
    const BLOCK: usize = 20;
    bytes[BLOCK + 20] |= 1;
    let payload = BLOCK + 20..BLOCK + 20 + 3436usize.div_ceil(8);
    let mut crc = crc32fast::Hasher::new();
    crc.update(&bytes[BLOCK..BLOCK + 16]);
    crc.update(&bytes[payload]);
    bytes[BLOCK + 16..BLOCK + 20].copy_from_slice(&crc.finalize().to_le_bytes());
    fs::write(dir.path().join("wrong.table"), &bytes).unwrap();
    runs(
        dir.path(),
        &["table", "verify", "--table", "wrong.table"],
        2,
        "the table says unsolvable, its successors 0",
    );
}

#[test]
fn a_killed_build_goes_on_from_its_last_whole_layer() {
    let dir = tempfile::tempdir().unwrap();
    let fresh = built(dir.path(), "5");
    let killed = dir.path().join("killed");
    fs::create_dir(&killed).unwrap();
    let partial = killed.join("t.table.partial");
    let mut child = Command::new(SHUBBLES)
        .args(["table", "build", "--max-shubbles", "5", "-o", "t.table"])
        .current_dir(&killed)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    // Killed once the first layers are written, before the last.
    let began = Instant::now();
    while fs::metadata(&partial).map_or(0, |m| m.len()) < 20_000
        && began.elapsed() < Duration::from_secs(120)
    {
        std::thread::sleep(Duration::from_millis(2));
    }
    let running = child.try_wait().unwrap().is_none();
    // While it runs, a second build of the same file is refused.
    let second = shubbles_in(
        &killed,
        &["table", "build", "--max-shubbles", "5", "-o", "t.table"],
        "",
    );
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(running, "the build ended before it could be killed");
    assert_eq!(second.code, 2, "{}", second.stderr);
    assert!(
        second.stderr.contains("t.table.lock is held by process"),
        "{}",
        second.stderr
    );
    assert!(
        !killed.join("t.table").exists(),
        "no table until it is whole"
    );
    runs(
        &killed,
        &["table", "build", "--max-shubbles", "5", "-o", "t.table"],
        0,
        "layers kept from the partial file",
    );
    assert_eq!(fs::read(killed.join("t.table")).unwrap(), fresh);
    assert!(!partial.exists());
}
