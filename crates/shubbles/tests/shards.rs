//! `batch` split into shards, killed and resumed, and merged (issue 15):
//! whatever the split and whenever the kill, the files and the manifests
//! end as one uninterrupted run's.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use common::{files_in, shubbles_in};

/// A seeded scenario file of `n` lines and two more: one invalid, one
/// whose run fails.
fn scenarios(dir: &Path, n: usize) -> String {
    use shubbles::{format_operations, seeded_legal_operations, Scenario};
    let starts = [
        ".........@...o....ooo..xox...",
        ".........................xx@.",
        "......................@xxo...",
        "..................@....xo.x..",
        "................@x......oxo..",
    ];
    let mut text = String::from("# made by tests/shards.rs\n");
    for i in 0..n {
        let start = Scenario::parse(starts[i % starts.len()], "", false)
            .expect("valid")
            .start;
        let operations = seeded_legal_operations(start, 1 + i % 6, i as u64 + 1);
        let operations = match format_operations(&operations) {
            none if none.is_empty() => ".".to_string(),
            some => some,
        };
        text += &format!("{start} {operations}\n");
    }
    text += "not-a-state\n.........@...o....ooo..xox... +^^ refused\n";
    std::fs::write(dir.join("s.txt"), &text).expect("written");
    "s.txt".to_string()
}

/// Every file of `dir` but the manifests, with its bytes.
fn outputs(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    files_in(dir)
        .into_iter()
        .filter(|name| !name.starts_with("MANIFEST-"))
        .map(|name| {
            let bytes = std::fs::read(dir.join(&name)).expect("readable");
            (name, bytes)
        })
        .collect()
}

/// The scenario lines of every manifest in `dir`, in position order.
fn manifest_lines(dir: &Path) -> Vec<String> {
    let mut lines: Vec<(usize, String)> = Vec::new();
    for name in files_in(dir)
        .into_iter()
        .filter(|n| n.starts_with("MANIFEST-"))
    {
        let text = std::fs::read_to_string(dir.join(name)).expect("readable");
        for line in text.lines().skip(1) {
            let value: serde_json::Value = serde_json::from_str(line).expect("JSON");
            let position = value["position"].as_u64().expect("a position") as usize;
            lines.push((position, line.to_string()));
        }
    }
    lines.sort();
    lines.into_iter().map(|(_, line)| line).collect()
}

#[test]
fn shards_write_exactly_what_one_run_writes_and_merge_says_so() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let input = scenarios(dir.path(), 120);
    let single = shubbles_in(dir.path(), &["batch", &input, "--out-dir", "one", "-q"], "");
    assert_eq!(single.code, 2, "one invalid line: {}", single.stderr);
    for k in 1..=3 {
        let shard = format!("{k}/3");
        let run = shubbles_in(
            dir.path(),
            &[
                "batch",
                &input,
                "--out-dir",
                "split",
                "--shard",
                &shard,
                "-q",
            ],
            "",
        );
        assert!(matches!(run.code, 0 | 2), "{}", run.stderr);
    }
    let (one, split) = (dir.path().join("one"), dir.path().join("split"));
    assert_eq!(outputs(&one), outputs(&split));
    assert_eq!(manifest_lines(&one), manifest_lines(&split));
    assert_eq!(manifest_lines(&one).len(), 122);
    assert_eq!(
        files_in(&split)
            .iter()
            .filter(|n| n.starts_with("MANIFEST-"))
            .collect::<Vec<_>>(),
        [
            "MANIFEST-1-of-3.jsonl",
            "MANIFEST-2-of-3.jsonl",
            "MANIFEST-3-of-3.jsonl"
        ]
    );
    let merged = shubbles_in(dir.path(), &["batch-merge", "split"], "");
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert!(
        merged.stdout.starts_with("3 shards, 122 scenarios, each exactly once: 121 rendered (1 failed with !), 1 invalid; "),
        "{}",
        merged.stdout
    );

    // A shard missing, or one listed twice, is found.
    std::fs::remove_file(split.join("MANIFEST-2-of-3.jsonl")).expect("removed");
    let missing = shubbles_in(dir.path(), &["batch-merge", "split"], "");
    assert_eq!(missing.code, 2);
    assert_eq!(
        missing.stderr,
        "shubbles: the manifests of shard 2 of 3 are missing\n"
    );
    std::fs::copy(
        one.join("MANIFEST-1-of-1.jsonl"),
        split.join("MANIFEST-2-of-3.jsonl"),
    )
    .expect("copied");
    let other = shubbles_in(dir.path(), &["batch-merge", "split"], "");
    assert_eq!(other.code, 2);
    assert!(
        other.stderr.contains("is of another run"),
        "{}",
        other.stderr
    );
}

#[test]
fn a_run_killed_at_any_moment_and_resumed_ends_as_an_uninterrupted_one() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let input = scenarios(dir.path(), 400);
    let single = shubbles_in(dir.path(), &["batch", &input, "--out-dir", "one", "-q"], "");
    assert_eq!(single.code, 2);
    let one = dir.path().join("one");
    let killed = dir.path().join("killed");
    // Killed after a few files, then after many more, then resumed to the
    // end: each resume keeps what the manifest proves and draws the rest.
    let mut killed_midway = 0;
    for landed in [5, 150] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_shubbles"))
            .args([
                "batch",
                &input,
                "--out-dir",
                "killed",
                "--jobs",
                "2",
                "-q",
                "--resume",
            ])
            .current_dir(dir.path())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("starts");
        let manifest = killed.join("MANIFEST-1-of-1.jsonl");
        let began = Instant::now();
        loop {
            let lines = std::fs::read_to_string(&manifest).map_or(0, |t| t.lines().count());
            if lines > landed || began.elapsed() > Duration::from_secs(60) {
                break;
            }
            if child.try_wait().expect("waits").is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
        // SIGKILL: nothing to clean up with.
        let running = child.try_wait().expect("waits").is_none();
        killed_midway += usize::from(running);
        let _ = child.kill();
        child.wait().expect("ends");
    }
    assert!(killed_midway > 0, "the run ended before it could be killed");
    let resumed = shubbles_in(
        dir.path(),
        &["batch", &input, "--out-dir", "killed", "--resume"],
        "",
    );
    assert_eq!(resumed.code, 2, "{}", resumed.stderr);
    assert!(
        resumed.stderr.contains("kept from before"),
        "{}",
        resumed.stderr
    );
    assert_eq!(outputs(&one), outputs(&killed));
    assert_eq!(
        std::fs::read(one.join("MANIFEST-1-of-1.jsonl")).expect("readable"),
        std::fs::read(killed.join("MANIFEST-1-of-1.jsonl")).expect("readable"),
        "the manifests are byte for byte the same"
    );
    assert!(
        files_in(&killed).iter().all(|name| !name.starts_with('.')),
        "no temporary file left"
    );

    // A file changed since: its SHA-256 no longer matches, it is drawn again.
    let name = files_in(&killed)
        .into_iter()
        .find(|n| n.ends_with(".gif"))
        .expect("a GIF");
    std::fs::write(killed.join(&name), b"not the GIF").expect("written");
    let again = shubbles_in(
        dir.path(),
        &["batch", &input, "--out-dir", "killed", "--resume"],
        "",
    );
    assert!(
        again.stderr.contains("batch: 1 rendered"),
        "{}",
        again.stderr
    );
    assert_eq!(outputs(&one), outputs(&killed));
}

#[test]
fn shards_and_manifests_that_cannot_be_are_refused_in_one_line() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let input = scenarios(dir.path(), 10);
    for (shard, message) in [
        ("0/4", "shard 0 of 4 does not exist: shards are numbered 1 to 4"),
        ("2", "'2' is not a shard: expected K/N (such as 2/8), auto or auto/N"),
        ("auto", "--shard auto found neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX; give --shard K/N"),
    ] {
        let run = shubbles_in(dir.path(), &["batch", &input, "--out-dir", "o", "--shard", shard], "");
        assert_eq!((run.code, run.stderr.as_str()), (2, format!("shubbles: {message}\n").as_str()));
    }
    assert!(!dir.path().join("o").exists(), "nothing written");
    // The manifest of another split is not resumed from.
    let first = shubbles_in(
        dir.path(),
        &[
            "batch",
            &input,
            "--out-dir",
            "o",
            "--shard",
            "1/2",
            "-q",
            "--manifest",
            "o/m.jsonl",
        ],
        "",
    );
    assert!(matches!(first.code, 0 | 2), "{}", first.stderr);
    let other = shubbles_in(
        dir.path(),
        &[
            "batch",
            &input,
            "--out-dir",
            "o",
            "--shard",
            "1/3",
            "--resume",
            "--manifest",
            "o/m.jsonl",
        ],
        "",
    );
    assert_eq!(other.code, 2);
    assert!(
        other
            .stderr
            .contains("is the manifest of another run (it is shard 1/2"),
        "{}",
        other.stderr
    );
}

#[test]
fn the_array_jobs_of_slurm_and_kubernetes_name_their_shard() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let input = scenarios(dir.path(), 10);
    let run = |vars: &[(&str, &str)], shard: &str| {
        let mut command = Command::new(env!("CARGO_BIN_EXE_shubbles"));
        command
            .args(["batch", &input, "--out-dir", "o", "-q", "--shard", shard])
            .current_dir(dir.path())
            .stderr(Stdio::null());
        for (name, value) in vars {
            command.env(name, value);
        }
        // 2 when the shard holds the input's one invalid line.
        let code = command.status().expect("runs").code();
        matches!(code, Some(0 | 2))
    };
    let slurm = [
        ("SLURM_ARRAY_TASK_ID", "3"),
        ("SLURM_ARRAY_TASK_MIN", "1"),
        ("SLURM_ARRAY_TASK_COUNT", "4"),
    ];
    assert!(run(&slurm, "auto"));
    assert!(dir.path().join("o/MANIFEST-3-of-4.jsonl").exists());
    assert!(run(&[("JOB_COMPLETION_INDEX", "1")], "auto/5"));
    assert!(dir.path().join("o/MANIFEST-2-of-5.jsonl").exists());
}
