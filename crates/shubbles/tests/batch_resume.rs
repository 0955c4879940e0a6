//! `batch --resume` and `batch-merge` against what a user may leave behind:
//! an input changed since its manifest was written, other options, forged
//! manifest lines, file names outside the folder, manifests that never end,
//! and two runs of one shard in one folder at once. Each test would fail
//! without the fix it guards.

mod common;

use std::collections::BTreeMap;
use std::fs;
use std::path::Path;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use common::{files_in, run_in, shubbles_in, Run, FIGURE_1A, SHUBBLES as BIN};

/// Five scenario lines, at positions 0 to 4: `a`, `b`, `failing` (its run
/// ends with `!`), one named after its line (`s-0004`) and an invalid one.
fn original() -> String {
    format!(
        "{FIGURE_1A} + a\n{FIGURE_1A} +> b\n{FIGURE_1A} +^^ failing\n{FIGURE_1A} |\nnot-a-state\n"
    )
}

/// `shubbles batch s.txt --out-dir OUT ARGS…` in `dir`.
fn batch(dir: &Path, out: &str, args: &[&str]) -> Run {
    let mut all = vec!["batch", "s.txt", "--out-dir", out];
    all.extend_from_slice(args);
    shubbles_in(dir, &all, "")
}

/// A folder with `s.txt` holding `input`, rendered into `out` with `args`.
fn rendered(input: &str, out: &str, args: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    fs::write(dir.path().join("s.txt"), input).expect("written");
    let run = batch(dir.path(), out, args);
    assert!(matches!(run.code, 0 | 2), "{}", run.stderr);
    dir
}

/// Every file of `folder` with its bytes.
fn snapshot(folder: &Path) -> BTreeMap<String, Vec<u8>> {
    files_in(folder)
        .into_iter()
        .map(|name| {
            let bytes = fs::read(folder.join(&name)).expect("readable");
            (name, bytes)
        })
        .collect()
}

/// The last line of standard error: the batch's summary.
fn summary(run: &Run) -> &str {
    run.stderr.lines().last().unwrap_or_default()
}

fn manifest_lines(manifest: &Path) -> Vec<String> {
    fs::read_to_string(manifest)
        .expect("a manifest")
        .lines()
        .map(str::to_string)
        .collect()
}

fn write_lines(manifest: &Path, lines: &[String]) {
    fs::write(manifest, lines.join("\n") + "\n").expect("written");
}

/// `line` with its fields replaced by those of `fields`.
fn with_fields(line: &str, fields: &[(&str, serde_json::Value)]) -> String {
    let mut value: serde_json::Value = serde_json::from_str(line).expect("JSON");
    for (name, field) in fields {
        value[*name] = field.clone();
    }
    value.to_string()
}

/// The fields of `line` that name its file.
fn file_fields(line: &str) -> Vec<(&'static str, serde_json::Value)> {
    let value: serde_json::Value = serde_json::from_str(line).expect("JSON");
    ["file", "bytes", "sha256"]
        .into_iter()
        .map(|name| (name, value[name].clone()))
        .collect()
}

/// The folder `out` of `dir` holds, file for file and manifest line for
/// line, what a run of the input as it is now writes into a new folder.
fn assert_as_fresh(dir: &Path, out: &str, args: &[&str]) {
    let fresh = format!("{out}-fresh");
    let run = batch(dir, &fresh, args);
    assert!(matches!(run.code, 0 | 2), "{}", run.stderr);
    let manifest = fs::read_to_string(dir.join(&fresh).join("MANIFEST-1-of-1.jsonl"))
        .expect("the fresh manifest");
    assert_eq!(
        fs::read_to_string(dir.join(out).join("MANIFEST-1-of-1.jsonl")).expect("the manifest"),
        manifest,
        "the resumed manifest is the fresh one"
    );
    for line in manifest.lines().skip(1) {
        let value: serde_json::Value = serde_json::from_str(line).expect("JSON");
        if let Some(file) = value["file"].as_str() {
            assert_eq!(
                fs::read(dir.join(out).join(file)).expect("the resumed file"),
                fs::read(dir.join(&fresh).join(file)).expect("the fresh file"),
                "{file}"
            );
        }
    }
}

#[test]
fn a_resume_renders_again_every_line_changed_since_and_keeps_the_rest() {
    let other_start = ".........................xx@.";
    for (change, input, expected) in [
        (
            "b's operations, same length",
            original().replace("+> b", "+< b"),
            "batch: 1 rendered (0 failed with !), 1 invalid (3 kept from before); written to out",
        ),
        (
            "a's state",
            original().replace(&format!("{FIGURE_1A} + a"), &format!("{other_start} + a")),
            "batch: 1 rendered (0 failed with !), 1 invalid (3 kept from before); written to out",
        ),
        (
            "b's name",
            original().replace("+> b", "+> b2"),
            "batch: 1 rendered (0 failed with !), 1 invalid (3 kept from before); written to out",
        ),
        (
            "the failing run's operations, so that it succeeds",
            original().replace("+^^ failing", "+<> failing"),
            "batch: 1 rendered (0 failed with !), 1 invalid (3 kept from before); written to out",
        ),
        (
            // Named lines only move (their manifest lines follow them); the
            // line named after its number gets another name.
            "a comment line on top",
            format!("# moved down\n{}", original()),
            "batch: 1 rendered (0 failed with !), 1 invalid (3 kept from before); written to out",
        ),
        (
            "an invalid line made valid",
            original().replace("not-a-state", &format!("{FIGURE_1A} - fixed")),
            "batch: 1 rendered (0 failed with !), 0 invalid (4 kept from before); written to out",
        ),
    ] {
        let dir = rendered(&original(), "out", &[]);
        fs::write(dir.path().join("s.txt"), &input).expect("changed");
        let resumed = batch(dir.path(), "out", &["--resume"]);
        assert_eq!(summary(&resumed), expected, "{change}: {}", resumed.stderr);
        assert_as_fresh(dir.path(), "out", &[]);
    }
}

#[test]
fn a_resume_with_other_options_is_refused_and_changes_nothing() {
    let dir = rendered(&original(), "out", &[]);
    let before = snapshot(&dir.path().join("out"));
    for (options, now) in [
        (&["--cell-size", "9"][..], "--cell-size 9"),
        (&["--loop", "2"], "--cell-size 40 --loop 2"),
        (&["--no-loop"], "--cell-size 40 --loop 1"),
        (&["--hold", "1.5"], "--cell-size 40 --hold 1.50"),
        (&["--settle"], "--cell-size 40 --settle"),
    ] {
        let mut args = vec!["--resume"];
        args.extend_from_slice(options);
        let run = batch(dir.path(), "out", &args);
        assert_eq!(
            (run.code, run.stderr.as_str()),
            (2, format!("shubbles: out/MANIFEST-1-of-1.jsonl is the manifest of another run (it was made with --cell-size 40, this run with {now}); remove it or leave out --resume\n").as_str()),
            "{options:?}"
        );
        assert_eq!(snapshot(&dir.path().join("out")), before, "{options:?}");
    }

    // The same options written another way are the same run, and an
    // option that changes nothing in a format's files is not looked at.
    let looped = batch(dir.path(), "once", &["--loop", "1", "-q"]);
    assert_eq!(looped.code, 2, "{}", looped.stderr);
    let resumed = batch(dir.path(), "once", &["--no-loop", "--resume"]);
    assert_eq!(
        summary(&resumed),
        "batch: 0 rendered (0 failed with !), 1 invalid (4 kept from before); written to once"
    );
    let text = batch(dir.path(), "text", &["--format", "text", "-q"]);
    assert_eq!(text.code, 2, "{}", text.stderr);
    let resumed = batch(
        dir.path(),
        "text",
        &["--format", "text", "--cell-size", "9", "--resume"],
    );
    assert_eq!(
        summary(&resumed),
        "batch: 0 rendered (0 failed with !), 1 invalid (4 kept from before); written to text"
    );

    // Shards made with other options are not one run.
    for (shard, cell_size) in [("1/2", "9"), ("2/2", "40")] {
        let run = batch(
            dir.path(),
            "split",
            &["--shard", shard, "--cell-size", cell_size, "-q"],
        );
        assert!(matches!(run.code, 0 | 2), "{}", run.stderr);
    }
    let merged = shubbles_in(dir.path(), &["batch-merge", "split"], "");
    assert_eq!(
        (merged.code, merged.stderr.as_str()),
        (2, "shubbles: split/MANIFEST-2-of-2.jsonl is of another run than the other manifests (2 shards of 5 gif scenarios with --cell-size 40, not 2 of 5 gif with --cell-size 9)\n")
    );
}

#[test]
fn a_manifest_of_the_first_version_is_rendered_again_not_trusted() {
    let dir = rendered(&original(), "out", &["-q"]);
    let manifest = dir.path().join("out/MANIFEST-1-of-1.jsonl");
    // What version 1 wrote: no options, no line's digest.
    let old: Vec<String> = manifest_lines(&manifest)
        .iter()
        .enumerate()
        .map(|(index, line)| match index {
            0 => line
                .replace("\"manifest\":2,", "\"manifest\":1,")
                .replace(",\"options\":\"--cell-size 40\"", ""),
            _ => with_fields(line, &[("scenario_sha256", serde_json::Value::Null)])
                .replace(",\"scenario_sha256\":null", ""),
        })
        .collect();
    write_lines(&manifest, &old);
    let said = "out/MANIFEST-1-of-1.jsonl is a version 1 manifest, written by another version of shubbles (this one reads version 2)";
    let merged = shubbles_in(dir.path(), &["batch-merge", "out"], "");
    assert_eq!(
        (merged.code, merged.stderr.as_str()),
        (2, format!("shubbles: {said}\n").as_str())
    );
    let resumed = batch(dir.path(), "out", &["--resume", "-q"]);
    assert_eq!(
        (resumed.code, resumed.stderr.lines().next()),
        (
            2,
            Some(
                format!(
                    "shubbles: {said}: nothing of it is kept, every scenario is rendered again"
                )
                .as_str()
            )
        )
    );
    assert_as_fresh(dir.path(), "out", &[]);
}

#[test]
fn forged_manifest_lines_are_refused_or_rendered_again_never_kept() {
    let manifest = |dir: &Path| dir.join("out/MANIFEST-1-of-1.jsonl");
    let lines = manifest_lines(&manifest(rendered(&original(), "out", &[]).path()));
    let position = |line: &str, position: usize| {
        line.replacen("\"position\":0,", &format!("\"position\":{position},"), 1)
    };
    // Lines no run writes: refused with their line (not the last, which
    // may be a line cut short by a kill), and nothing is changed.
    for (forged, problem) in [
        (
            position(&lines[1], 7),
            "position 7 is past the input's 5 scenarios",
        ),
        (
            position(&lines[1], usize::MAX),
            "position 18446744073709551615 is past the input's 5 scenarios",
        ),
        (lines[2].clone(), "position 1 is listed twice (line 3 too)"),
        (
            with_fields(&lines[1], &[("scenario_sha256", serde_json::Value::Null)]),
            "position 0 was rendered but does not give its file, bytes, sha256 and scenario_sha256",
        ),
        (
            with_fields(&lines[2], &[("sha256", "not a digest".into())]),
            "position 1 was rendered but does not give its file, bytes, sha256 and scenario_sha256",
        ),
        (
            with_fields(&lines[5], &file_fields(&lines[1])),
            "position 4 is invalid but names a file",
        ),
    ] {
        let dir = rendered(&original(), "out", &[]);
        let mut changed = lines.clone();
        changed.insert(5, forged);
        write_lines(&manifest(dir.path()), &changed);
        let before = snapshot(&dir.path().join("out"));
        let run = batch(dir.path(), "out", &["--resume"]);
        assert_eq!(
            (run.code, run.stderr.as_str()),
            (
                2,
                format!("shubbles: out/MANIFEST-1-of-1.jsonl line 6: {problem}\n").as_str()
            )
        );
        assert_eq!(snapshot(&dir.path().join("out")), before);
    }

    // A position of another shard.
    let dir = rendered(&original(), "out", &["--shard", "1/2"]);
    let path = dir.path().join("out/MANIFEST-1-of-2.jsonl");
    let mut changed = manifest_lines(&path);
    changed.insert(2, position(&changed[1], 1));
    write_lines(&path, &changed);
    let run = batch(dir.path(), "out", &["--shard", "1/2", "--resume"]);
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (
            2,
            "shubbles: out/MANIFEST-1-of-2.jsonl line 3: position 1 is not shard 1/2's\n"
        )
    );

    // Lines a run could write, but not of this input: each is rendered
    // again, and the manifest ends as a fresh run's.
    let digest_of_a: serde_json::Value = serde_json::from_str::<serde_json::Value>(&lines[1])
        .expect("JSON")["scenario_sha256"]
        .clone();
    for (forgery, index, forged, expected) in [
        (
            "the invalid line recorded as a's",
            5,
            position(&lines[1], 4).replace("\"line\":1,", "\"line\":5,"),
            "batch: 0 rendered (0 failed with !), 1 invalid (4 kept from before); written to out",
        ),
        (
            "b recorded with a's file, its size and SHA-256",
            2,
            with_fields(&lines[2], &file_fields(&lines[1])),
            "batch: 1 rendered (0 failed with !), 1 invalid (3 kept from before); written to out",
        ),
        (
            "b recorded as made from a's line",
            2,
            with_fields(&lines[2], &[("scenario_sha256", digest_of_a.clone())]),
            "batch: 1 rendered (0 failed with !), 1 invalid (3 kept from before); written to out",
        ),
        (
            "the failing run recorded as ok",
            3,
            lines[3].replace("\"outcome\":\"!\"", "\"outcome\":\"ok\""),
            "batch: 1 rendered (1 failed with !), 1 invalid (3 kept from before); written to out",
        ),
        (
            "a's GIF recorded with another number of frames",
            1,
            with_fields(&lines[1], &[("frames", 2.into())]),
            "batch: 1 rendered (0 failed with !), 1 invalid (3 kept from before); written to out",
        ),
        (
            "a's GIF recorded without its frames",
            1,
            with_fields(&lines[1], &[("frames", serde_json::Value::Null)]),
            "batch: 1 rendered (0 failed with !), 1 invalid (3 kept from before); written to out",
        ),
    ] {
        let dir = rendered(&original(), "out", &[]);
        let mut changed = lines.clone();
        assert_ne!(changed[index], forged, "{forgery}: a forgery");
        changed[index] = forged;
        write_lines(&manifest(dir.path()), &changed);
        let run = batch(dir.path(), "out", &["--resume"]);
        assert_eq!(
            (run.code, summary(&run)),
            (2, expected),
            "{forgery}: {}",
            run.stderr
        );
        assert_as_fresh(dir.path(), "out", &[]);
    }
}

#[test]
fn merge_and_resume_refuse_file_names_outside_the_folder() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    fs::write(dir.path().join("s.txt"), original()).expect("written");
    let out = "a/b/out";
    let run = batch(dir.path(), out, &["-q"]);
    assert_eq!(run.code, 2, "{}", run.stderr);
    let manifest = dir.path().join(out).join("MANIFEST-1-of-1.jsonl");
    let lines = manifest_lines(&manifest);
    // Each victim is a's file, so that its size is the one recorded.
    let a = fs::read(dir.path().join(out).join("a.gif")).expect("a.gif");
    let absolute = dir.path().join("victim.gif");
    fs::create_dir_all(dir.path().join(out).join("sub")).expect("made");
    for victim in [
        dir.path().join("a/victim.gif"),
        absolute.clone(),
        dir.path().join(out).join("sub/a.gif"),
    ] {
        fs::write(victim, &a).expect("written");
    }
    let separator = "(a path separator); names may use only letters, digits, `.`, `_` and `-`";
    for (file, problem) in [
        (
            "../../victim.gif".to_string(),
            format!("the name has '/' at character 3 {separator}"),
        ),
        (
            absolute.display().to_string(),
            format!("the name has '/' at character 1 {separator}"),
        ),
        (
            "sub/a.gif".to_string(),
            format!("the name has '/' at character 4 {separator}"),
        ),
        (
            "..\\victim.gif".to_string(),
            format!("the name has '\\\\' at character 3 {separator}"),
        ),
        (String::new(), "it does not end in .gif".to_string()),
        (".gif".to_string(), "the name is empty".to_string()),
        (
            "..gif".to_string(),
            "the name starts with a dot".to_string(),
        ),
    ] {
        let mut changed = lines.clone();
        changed[1] = with_fields(&lines[1], &[("file", file.clone().into())]);
        write_lines(&manifest, &changed);
        let message = format!(
            "shubbles: {out}/MANIFEST-1-of-1.jsonl line 2: the file {file:?} is not a file of the output folder: {problem}\n"
        );
        let merged = shubbles_in(dir.path(), &["batch-merge", out], "");
        assert_eq!((merged.code, merged.stderr.as_str()), (2, message.as_str()));
        let resumed = batch(dir.path(), out, &["--resume"]);
        assert_eq!(
            (resumed.code, resumed.stderr.as_str()),
            (2, message.as_str())
        );
    }

    // The forgery: the invalid line recorded as rendered, into a
    // file another line has; then "0 invalid" would be a lie.
    let mut changed = lines.clone();
    changed[5] = with_fields(&lines[5], &file_fields(&lines[1]))
        .replace("\"outcome\":\"invalid\"", "\"outcome\":\"ok\"");
    let value: serde_json::Value = serde_json::from_str(&lines[1]).expect("JSON");
    changed[5] = with_fields(
        &changed[5],
        &[
            ("scenario_sha256", value["scenario_sha256"].clone()),
            ("problem", serde_json::Value::Null),
        ],
    );
    write_lines(&manifest, &changed);
    let merged = shubbles_in(dir.path(), &["batch-merge", out], "");
    assert_eq!(
        (merged.code, merged.stderr.as_str()),
        (2, "shubbles: a/b/out/MANIFEST-1-of-1.jsonl: position 4 (s.txt:5) lists a.gif, which position 0 lists too\n")
    );

    // The same between two shards' manifests.
    for shard in ["1/2", "2/2"] {
        let run = batch(dir.path(), "split", &["--shard", shard, "-q"]);
        assert!(matches!(run.code, 0 | 2), "{}", run.stderr);
    }
    let first = manifest_lines(&dir.path().join("split/MANIFEST-1-of-2.jsonl"));
    let second_path = dir.path().join("split/MANIFEST-2-of-2.jsonl");
    let mut second = manifest_lines(&second_path);
    second[1] = with_fields(&second[1], &file_fields(&first[1]));
    write_lines(&second_path, &second);
    let merged = shubbles_in(dir.path(), &["batch-merge", "split"], "");
    assert_eq!(
        (merged.code, merged.stderr.as_str()),
        (2, "shubbles: split/MANIFEST-2-of-2.jsonl: position 1 (s.txt:2) lists a.gif, which position 0 lists too\n")
    );
}

/// `shubbles ARGS…` in `dir` with 2 GiB of address space and 30 seconds of
/// processor time: far more than a bounded read takes, far less than
/// reading an endless file does.
fn shubbles_within_bounds(dir: &Path, args: &[&str]) -> Run {
    let limits = "ulimit -v 2097152 && ulimit -t 30 && exec \"$0\" \"$@\"";
    let mut all = vec!["-c", limits, BIN];
    all.extend_from_slice(args);
    run_in("/bin/sh", dir, &all, b"")
}

#[test]
fn manifests_are_read_a_bounded_line_at_a_time() {
    let too_long =
        "shubbles: {} line {}: the line is longer than 1 MiB, the most a line may hold\n";
    let message = |path: &str, line: usize| {
        too_long
            .replacen("{}", path, 1)
            .replacen("{}", &line.to_string(), 1)
    };
    // A manifest that never ends, to resume from and to merge.
    let dir = rendered(&original(), "out", &["-q"]);
    let before = snapshot(&dir.path().join("out"));
    let run = shubbles_within_bounds(
        dir.path(),
        &[
            "batch",
            "s.txt",
            "--out-dir",
            "out",
            "--resume",
            "--manifest",
            "/dev/zero",
        ],
    );
    assert_eq!(
        (run.code, run.stderr.as_str()),
        (2, message("/dev/zero", 1).as_str())
    );
    assert_eq!(snapshot(&dir.path().join("out")), before);
    fs::create_dir(dir.path().join("zero")).expect("made");
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("zero/MANIFEST-1-of-1.jsonl"))
        .expect("linked");
    let merged = shubbles_within_bounds(dir.path(), &["batch-merge", "zero"]);
    assert_eq!(
        (merged.code, merged.stderr.as_str()),
        (2, message("zero/MANIFEST-1-of-1.jsonl", 1).as_str())
    );

    // One line too long, last or not, is refused: it is no line cut short
    // by a kill.
    let manifest = dir.path().join("out/MANIFEST-1-of-1.jsonl");
    let lines = manifest_lines(&manifest);
    let huge = format!("{{\"position\":0{}}}", " ".repeat(2 << 20));
    for (at, line) in [(6, 7), (1, 2)] {
        let mut changed = lines.clone();
        changed.insert(at, huge.clone());
        write_lines(&manifest, &changed);
        let resumed = batch(dir.path(), "out", &["--resume"]);
        let expected = message("out/MANIFEST-1-of-1.jsonl", line);
        assert_eq!(
            (resumed.code, resumed.stderr.as_str()),
            (2, expected.as_str())
        );
        let merged = shubbles_in(dir.path(), &["batch-merge", "out"], "");
        assert_eq!(
            (merged.code, merged.stderr.as_str()),
            (2, expected.as_str())
        );
    }
    // A header claiming billions of shards: the missing ones are counted,
    // not listed.
    let mut changed = lines.clone();
    changed[0] = changed[0].replace("\"of\":1,", "\"of\":4294967295,");
    changed.truncate(2);
    write_lines(&manifest, &changed);
    let merged = shubbles_within_bounds(dir.path(), &["batch-merge", "out"]);
    assert_eq!(
        (merged.code, merged.stderr.as_str()),
        (2, "shubbles: the manifests of shard 2, 3, 4, 5, 6, 7, 8, 9, 10, 11 and 4294967284 more of 4294967295 are missing\n")
    );

    let mut bytes = lines[..3].join("\n").into_bytes();
    bytes.extend_from_slice(b"\n\xff\n");
    bytes.extend_from_slice(lines[3..].join("\n").as_bytes());
    fs::write(&manifest, bytes).expect("written");
    let resumed = batch(dir.path(), "out", &["--resume"]);
    assert_eq!(
        (resumed.code, resumed.stderr.as_str()),
        (2, "shubbles: out/MANIFEST-1-of-1.jsonl line 4: the line is not UTF-8 text: byte 0xFF at column 1\n")
    );

    // A listed file that is an endless device is not read: it is rendered
    // again (through the link, as any output is).
    write_lines(&manifest, &lines);
    fs::remove_file(dir.path().join("out/a.gif")).expect("removed");
    std::os::unix::fs::symlink("/dev/zero", dir.path().join("out/a.gif")).expect("linked");
    let resumed = shubbles_within_bounds(
        dir.path(),
        &["batch", "s.txt", "--out-dir", "out", "--resume"],
    );
    assert_eq!(
        (resumed.code, summary(&resumed)),
        (
            2,
            "batch: 1 rendered (0 failed with !), 1 invalid (3 kept from before); written to out"
        )
    );

    // What a run writes itself is always read back: the problem of a line
    // nearly 1 MiB long is cut short in its manifest.
    let long = format!(
        "{FIGURE_1A} + long {}\n{FIGURE_1A} + ok\n",
        "\u{1}".repeat((1 << 20) - 100)
    );
    let dir = rendered(&long, "out", &["-q"]);
    let resumed = batch(dir.path(), "out", &["--resume", "-q"]);
    assert_eq!(resumed.code, 2, "{}", resumed.stderr);
    assert!(
        resumed
            .stderr
            .ends_with("expected STATE OPS NAME at most\n"),
        "only the invalid line is told: {}",
        &resumed.stderr[resumed.stderr.len().saturating_sub(200)..]
    );
    let merged = shubbles_in(dir.path(), &["batch-merge", "out"], "");
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert!(
        merged.stdout.starts_with(
            "1 shard, 2 scenarios, each exactly once: 1 rendered (0 failed with !), 1 invalid; "
        ),
        "{}",
        merged.stdout
    );
}

/// Starts `batch` in `dir` and waits until it holds `lock`: it is then
/// rendering, its holder line written.
fn start_holding(dir: &Path, args: &[&str], lock: &Path) -> (Child, String) {
    let mut child = Command::new(BIN)
        .args(args)
        .current_dir(dir)
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("starts");
    let began = Instant::now();
    loop {
        let holder = fs::read_to_string(lock).unwrap_or_default();
        if holder.ends_with('\n') {
            return (child, holder.trim_end().to_string());
        }
        let ended = child.try_wait().expect("waits");
        assert!(
            ended.is_none() && began.elapsed() < Duration::from_secs(60),
            "the run never held {}: {ended:?}",
            lock.display()
        );
        std::thread::sleep(Duration::from_millis(5));
    }
}

#[test]
fn one_live_run_per_shard_and_folder_and_the_second_says_who_holds_it() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let input: String = (1..=30)
        .map(|i| format!("{FIGURE_1A} +>|<-v+^+-|<>+ s{i}\n"))
        .collect();
    fs::write(dir.path().join("s.txt"), input).expect("written");
    let lock = dir.path().join("out/.shubbles-batch-1-of-2.lock");
    let first = [
        "batch",
        "s.txt",
        "--out-dir",
        "out",
        "--shard",
        "1/2",
        "--jobs",
        "1",
        "-q",
    ];
    let (mut running, holder) = start_holding(dir.path(), &first, &lock);
    assert!(
        holder.starts_with(&format!("process {} (", running.id())),
        "{holder}"
    );

    // A second run of the shard, resumed or not, touches nothing of the
    // first: it says who holds the shard and exits 2.
    for resume in [&[][..], &["--resume"]] {
        let mut args = vec!["--shard", "1/2", "-q"];
        args.extend_from_slice(resume);
        let second = batch(dir.path(), "out", &args);
        assert_eq!(
            (second.code, second.stderr.as_str()),
            (2, format!("shubbles: out/.shubbles-batch-1-of-2.lock is held by {holder}, which is still running; wait for it to finish or stop it\n").as_str())
        );
    }
    assert!(
        running.try_wait().expect("waits").is_none(),
        "the first run ended before the second was refused: give it more to render"
    );
    // Another shard of the same folder runs beside it.
    let other = batch(dir.path(), "out", &["--shard", "2/2", "-q"]);
    assert_eq!(other.code, 0, "{}", other.stderr);

    let ended = running.wait_with_output().expect("ends");
    assert!(
        ended.status.success(),
        "{}",
        String::from_utf8_lossy(&ended.stderr)
    );
    assert!(!lock.exists(), "the lock file is removed at the end");
    assert_eq!(
        manifest_lines(&dir.path().join("out/MANIFEST-1-of-2.jsonl")).len(),
        16
    );
    let merged = shubbles_in(dir.path(), &["batch-merge", "out"], "");
    assert_eq!(merged.code, 0, "{}", merged.stderr);
    assert!(
        merged.stdout.starts_with(
            "2 shards, 30 scenarios, each exactly once: 30 rendered (0 failed with !), 0 invalid; "
        ),
        "{}",
        merged.stdout
    );

    // A run killed with SIGKILL leaves its lock file, but not its lock:
    // the next run takes it over.
    let (mut killed, _) = start_holding(dir.path(), &first, &lock);
    killed.kill().expect("killed");
    killed.wait().expect("ends");
    assert!(lock.exists(), "SIGKILL leaves the lock file");
    let resumed = batch(dir.path(), "out", &["--shard", "1/2", "--resume"]);
    assert_eq!(resumed.code, 0, "{}", resumed.stderr);
    assert!(!lock.exists());
    let merged = shubbles_in(dir.path(), &["batch-merge", "out"], "");
    assert_eq!(merged.code, 0, "{}", merged.stderr);
}

#[test]
fn a_file_replaced_by_a_link_is_rendered_again_and_not_merged() {
    // The link points at the very bytes the manifest records, from outside
    // the folder: neither resume nor merge may count it as the folder's.
    let dir = rendered(&original(), "out", &["-q"]);
    let out = dir.path().join("out");
    let outside = dir.path().join("outside.gif");
    fs::rename(out.join("a.gif"), &outside).expect("moved");
    std::os::unix::fs::symlink(&outside, out.join("a.gif")).expect("a link");
    let merged = shubbles_in(dir.path(), &["batch-merge", "out"], "");
    assert_eq!(merged.code, 2, "{}", merged.stdout);
    assert!(
        merged
            .stderr
            .contains("a.gif is missing, not a regular file of the folder, or not the"),
        "{}",
        merged.stderr
    );
    let resumed = batch(dir.path(), "out", &["--resume", "-q"]);
    assert_eq!(resumed.code, 2, "{}", resumed.stderr);
    let kind = fs::symlink_metadata(out.join("a.gif")).expect("a.gif");
    assert!(kind.is_file(), "a.gif is rendered again in the folder");
    assert_as_fresh(dir.path(), "out", &[]);
}
