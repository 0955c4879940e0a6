//! The shape of the code, as docs/ARCHITECTURE.md describes it: no module imports
//! another in a circle (a stage knows nothing of the stages after it), no
//! module imports through the crate root's re-exports (they are for users),
//! and the GIF pipeline crate knows no game.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// A crate's modules by path (`["puzzle", "draw", "smooth"]`), each with
/// the source it compiles outside its tests.
fn modules(root: &Path) -> BTreeMap<Vec<String>, String> {
    let mut modules = BTreeMap::new();
    let mut folders = vec![root.to_path_buf()];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).expect("a readable source folder") {
            let path = entry.expect("an entry").path();
            // The binaries under src/bin are crates of their own.
            if path.is_dir() && path != root.join("bin") {
                folders.push(path);
            } else if path.is_file() && path.extension().is_some_and(|ext| ext == "rs") {
                let source = fs::read_to_string(&path).expect("readable source");
                modules.insert(module_path(root, &path), without_tests(&source));
            }
        }
    }
    modules
}

fn module_path(root: &Path, file: &Path) -> Vec<String> {
    let relative: PathBuf = file.strip_prefix(root).expect("inside").with_extension("");
    let mut parts: Vec<String> = relative
        .iter()
        .map(|part| part.to_string_lossy().into_owned())
        .collect();
    if matches!(
        parts.last().map(String::as_str),
        Some("mod" | "lib" | "main")
    ) {
        parts.pop();
    }
    parts
}

/// The source without its test module and comments: what the module itself
/// depends on.
fn without_tests(source: &str) -> String {
    let code = match source.find("#[cfg(test)]\nmod tests") {
        Some(at) => &source[..at],
        None => source,
    };
    code.lines()
        .filter(|line| !line.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The module paths a module names with `crate::` or `super::`, each cut
/// to the longest prefix that is a module.
fn imports(
    module: &[String],
    source: &str,
    known: &BTreeMap<Vec<String>, String>,
) -> BTreeSet<Vec<String>> {
    let mut found = BTreeSet::new();
    let words: Vec<&str> = source
        .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
        .filter(|word| word.starts_with("crate::") || word.starts_with("super::"))
        .collect();
    for word in words {
        let mut segments: Vec<&str> = word.split("::").filter(|s| !s.is_empty()).collect();
        let mut path: Vec<String> = match segments.first() {
            Some(&"crate") => Vec::new(),
            _ => module.to_vec(),
        };
        if segments.first() == Some(&"crate") {
            segments.remove(0);
        }
        while segments.first() == Some(&"super") {
            segments.remove(0);
            path.pop();
        }
        path.extend(segments.iter().map(|s| s.to_string()));
        while !path.is_empty() && !known.contains_key(&path) {
            path.pop();
        }
        if path != module {
            found.insert(path);
        }
    }
    found
}

/// A circle of imports, if there is one.
fn circle(edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>) -> Option<Vec<Vec<String>>> {
    fn visit(
        at: &Vec<String>,
        edges: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        trail: &mut Vec<Vec<String>>,
        done: &mut BTreeSet<Vec<String>>,
    ) -> Option<Vec<Vec<String>>> {
        if let Some(start) = trail.iter().position(|m| m == at) {
            return Some(trail[start..].to_vec());
        }
        if !done.insert(at.clone()) {
            return None;
        }
        trail.push(at.clone());
        for next in edges.get(at).into_iter().flatten() {
            if let Some(found) = visit(next, edges, trail, done) {
                return Some(found);
            }
        }
        trail.pop();
        None
    }
    let mut done = BTreeSet::new();
    edges
        .keys()
        .find_map(|module| visit(module, edges, &mut Vec::new(), &mut done))
}

fn check_crate(root: &Path) -> Vec<String> {
    let modules = modules(root);
    let mut problems = Vec::new();
    let mut edges = BTreeMap::new();
    for (module, source) in &modules {
        let mut named = imports(module, source, &modules);
        // The root's own items (the crate's top-level modules declare
        // nothing else) are only re-exports: nothing inside imports them.
        if !module.is_empty() && named.remove(&Vec::new()) {
            problems.push(format!(
                "{}: imports through the crate root",
                module.join("::")
            ));
        }
        // A child naming its parent module's items is a circle with the
        // parent's `mod` only when the parent imports it back, which the
        // search below sees.
        edges.insert(module.clone(), named);
    }
    if let Some(found) = circle(&edges) {
        let names: Vec<String> = found
            .iter()
            .map(|m| format!("crate::{}", m.join("::")))
            .collect();
        problems.push(format!("import circle: {}", names.join(" -> ")));
    }
    problems
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn the_library_has_no_import_circle_and_no_import_through_its_root() {
    let library = root().join("src");
    let mut problems = check_crate(&library);
    // The binaries are crates of their own, under src/bin.
    for binary in fs::read_dir(library.join("bin")).expect("src/bin") {
        problems.extend(check_crate(&binary.expect("an entry").path()));
    }
    problems.extend(check_crate(&root().join("crates/reel/src")));
    assert!(problems.is_empty(), "{problems:#?}");
}

#[test]
fn the_checker_finds_a_circle() {
    let edges: BTreeMap<Vec<String>, BTreeSet<Vec<String>>> = [
        (
            vec!["a".to_string()],
            BTreeSet::from([vec!["b".to_string()]]),
        ),
        (
            vec!["b".to_string()],
            BTreeSet::from([vec!["a".to_string()]]),
        ),
    ]
    .into();
    assert_eq!(circle(&edges).map(|c| c.len()), Some(2));
}

#[test]
fn the_pipeline_crate_knows_no_game() {
    let manifest =
        fs::read_to_string(root().join("crates/reel/Cargo.toml")).expect("reel's manifest");
    assert!(!manifest.contains("shubbles"), "reel depends on the game");
    for (module, source) in modules(&root().join("crates/reel/src")) {
        for word in ["shubble", "smole", "stot", "katazuke", "Scenario"] {
            assert!(
                !source.to_lowercase().contains(&word.to_lowercase()),
                "reel::{} mentions {word}",
                module.join("::")
            );
        }
    }
}
