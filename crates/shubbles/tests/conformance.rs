//! The conformance vectors of `../shared/conformance` (made from BOX.md by an
//! independent model), run in-process. A few of them are copied into
//! `tests/vectors/` so the check means something on a clone without
//! `../shared`; the full set is read from `../shared` when it is there.

use std::fs;
use std::path::{Path, PathBuf};

use shubbles::{picture, write_frame_dump, Scenario};

fn vector_folders() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut folders = vec![root.join("tests/vectors")];
    let shared = root.join("../shared/conformance");
    if shared.is_dir() {
        folders.push(shared);
    } else {
        eprintln!("note: ../shared/conformance is absent; only tests/vectors is checked");
    }
    folders
}

/// The pictures of a frame dump, normalised as `check.py` does: `#` lines
/// dropped, trailing spaces and common indentation removed.
fn pictures(text: &str) -> Vec<String> {
    let mut pictures = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for line in text.lines().filter(|l| !l.starts_with('#')) {
        if line.trim().is_empty() {
            if !current.is_empty() {
                pictures.push(normalise(&current));
                current.clear();
            }
        } else {
            current.push(line);
        }
    }
    if !current.is_empty() {
        pictures.push(normalise(&current));
    }
    pictures
}

fn normalise(lines: &[&str]) -> String {
    let indent = lines
        .iter()
        .map(|l| l.len() - l.trim_start().len())
        .min()
        .unwrap_or(0);
    lines
        .iter()
        .map(|l| l.trim_end()[indent..].to_string())
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn final_results_match_every_case() {
    let mut checked = 0;
    for folder in vector_folders() {
        let cases = fs::read_to_string(folder.join("cases.tsv")).expect("cases.tsv is readable");
        for line in cases
            .lines()
            .filter(|l| !l.is_empty() && !l.starts_with('#'))
        {
            let fields: Vec<&str> = line.split('\t').collect();
            let [state, ops, expected] = fields[..] else {
                panic!("malformed case line {line:?}");
            };
            let scenario = Scenario::parse(state, ops, false).expect("vectors are valid input");
            assert_eq!(scenario.run().result(), expected, "{state} {ops:?}");
            checked += 1;
        }
    }
    assert!(checked >= 40, "only {checked} cases were read");
}

#[test]
fn frame_dumps_match_picture_by_picture() {
    let mut checked = 0;
    for folder in vector_folders() {
        let frames = if folder.ends_with("vectors") {
            folder.clone()
        } else {
            folder.join("frames")
        };
        let mut names: Vec<PathBuf> = fs::read_dir(&frames)
            .expect("the frames folder is readable")
            .map(|entry| entry.expect("entry").path())
            .filter(|path| path.extension().is_some_and(|e| e == "txt"))
            .collect();
        names.sort();
        for path in names {
            let text = fs::read_to_string(&path).expect("a vector is readable");
            let head: Vec<&str> = text
                .lines()
                .next()
                .unwrap_or("")
                .split_whitespace()
                .collect();
            let (state, ops) = (head[2], head.get(3).copied().unwrap_or(""));
            let scenario = Scenario::parse(state, ops, false).expect("vectors are valid input");
            let mut dump = Vec::new();
            write_frame_dump(&scenario, &mut dump).expect("writing to memory works");
            let want = pictures(&text);
            let got = pictures(&String::from_utf8(dump).expect("the dump is text"));
            assert_eq!(got, want, "{}", path.display());
            let outcome = scenario.run();
            if outcome.failure.is_none() {
                let last = want.last().expect("a dump has a frame");
                assert_eq!(
                    &normalise(&picture(&outcome.state).lines().collect::<Vec<_>>()),
                    last
                );
            }
            assert_eq!(
                text.trim_end().lines().last().unwrap_or(""),
                format!("# result {}", outcome.result()),
                "{}",
                path.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= 5, "only {checked} frame dumps were read");
}
