//! The shape of the code, as docs/ARCHITECTURE.md describes it. Between
//! crates: neither game depends on the other, the GIF pipeline (`reel`)
//! and the tools' shared edge (`edge`) know no game, and no crate depends
//! on one that depends on it. Inside each crate: no module imports another
//! in a circle (a stage knows nothing of the stages after it) and no
//! module imports through the crate root's re-exports (they are for
//! users).

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
    let root_source = modules.get(&Vec::new()).cloned().unwrap_or_default();
    let mut problems = Vec::new();
    let mut edges = BTreeMap::new();
    for (module, source) in &modules {
        let mut named = imports(module, source, &modules);
        // The root's items are re-exports for users, which nothing inside
        // imports, and constants the root itself defines (such as the
        // prefix of a crate's temporary files), which anything may use.
        let through_root = source
            .split(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .filter_map(|word| word.strip_prefix("crate::"))
            .map(|rest| rest.split("::").next().unwrap_or(""))
            .any(|item| {
                !modules.contains_key(&vec![item.to_string()])
                    && !root_source.contains(&format!("pub const {item}:"))
            });
        named.remove(&Vec::new());
        if !module.is_empty() && through_root {
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

/// The top of the repository.
fn repository() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The workspace's crates by name, each with the workspace crates it
/// depends on (for its code, its tests or on one platform).
fn crate_graph() -> BTreeMap<String, BTreeSet<String>> {
    let folders: Vec<PathBuf> = fs::read_dir(repository().join("crates"))
        .expect("crates/")
        .map(|entry| entry.expect("an entry").path())
        .filter(|folder| folder.join("Cargo.toml").is_file())
        .collect();
    let names: BTreeSet<String> = folders
        .iter()
        .map(|folder| {
            folder
                .file_name()
                .expect("a name")
                .to_string_lossy()
                .into_owned()
        })
        .collect();
    let mut graph = BTreeMap::new();
    for folder in &folders {
        let name = folder
            .file_name()
            .expect("a name")
            .to_string_lossy()
            .into_owned();
        let manifest = fs::read_to_string(folder.join("Cargo.toml")).expect("a manifest");
        let mut in_dependencies = false;
        let mut depends = BTreeSet::new();
        for line in manifest.lines().map(str::trim) {
            if line.starts_with('[') {
                in_dependencies = line.ends_with("dependencies]");
            } else if in_dependencies {
                let key = line.split(['=', '.', ' ']).next().unwrap_or("");
                if names.contains(key) {
                    depends.insert(key.to_string());
                }
            }
        }
        graph.insert(name, depends);
    }
    graph
}

/// Every crate that `name` depends on, directly or through others.
fn reachable(graph: &BTreeMap<String, BTreeSet<String>>, name: &str) -> BTreeSet<String> {
    let mut seen = BTreeSet::new();
    let mut next = vec![name.to_string()];
    while let Some(at) = next.pop() {
        for depends in graph.get(&at).into_iter().flatten() {
            if seen.insert(depends.clone()) {
                next.push(depends.clone());
            }
        }
    }
    seen
}

#[test]
fn the_crate_graph_is_as_the_architecture_says() {
    let graph = crate_graph();
    let crates: Vec<&str> = graph.keys().map(String::as_str).collect();
    assert_eq!(
        crates,
        [
            "edge",
            "katazuke",
            "reel",
            "repository",
            "shubbles",
            "testing"
        ],
        "a crate was added or removed: describe it in docs/ARCHITECTURE.md and here"
    );
    let games = ["shubbles", "katazuke"];
    for game in games {
        for other in games.iter().filter(|other| **other != game) {
            assert!(
                !reachable(&graph, game).contains(*other),
                "{game} depends on {other}: neither game may know the other"
            );
        }
    }
    for shared in ["reel", "edge", "testing"] {
        let knows = reachable(&graph, shared);
        assert!(
            knows.iter().all(|name| !games.contains(&name.as_str())),
            "{shared} depends on a game: {knows:?}"
        );
    }
    assert_eq!(
        reachable(&graph, "reel"),
        BTreeSet::new(),
        "reel depends on nothing of ours"
    );
    for name in graph.keys() {
        assert!(
            !reachable(&graph, name).contains(name),
            "{name} depends on itself through {:?}",
            graph[name]
        );
    }
}

#[test]
fn the_crate_graph_reader_sees_a_dependency() {
    let graph = crate_graph();
    assert!(graph["shubbles"].contains("reel"));
    assert!(graph["katazuke"].contains("edge"));
    assert!(
        graph["katazuke"].contains("testing"),
        "a dev-dependency counts too"
    );
}

#[test]
fn no_crate_has_an_import_circle_or_imports_through_its_root() {
    let mut problems = Vec::new();
    for name in crate_graph().keys() {
        let library = repository().join("crates").join(name).join("src");
        problems.extend(check_crate(&library));
        // The binaries are crates of their own, under src/bin.
        if let Ok(binaries) = fs::read_dir(library.join("bin")) {
            for binary in binaries {
                problems.extend(check_crate(&binary.expect("an entry").path()));
            }
        }
    }
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
fn the_shared_crates_know_no_game() {
    for shared in ["reel", "edge"] {
        for (module, source) in modules(&repository().join("crates").join(shared).join("src")) {
            for word in [
                "shubble",
                "smole",
                "stot",
                "katazuke",
                "Scenario",
                "territory",
            ] {
                assert!(
                    !source.to_lowercase().contains(&word.to_lowercase()),
                    "{shared}::{} mentions {word}",
                    module.join("::")
                );
            }
        }
    }
}

#[test]
fn neither_game_names_the_other_in_its_code() {
    for (game, other) in [("shubbles", "katazuke"), ("katazuke", "shubbles")] {
        let source = repository().join("crates").join(game).join("src");
        for (module, code) in modules(&source) {
            assert!(
                !code.contains(&format!("{other}::")),
                "{game}::{} uses {other}",
                module.join("::")
            );
        }
    }
}

#[test]
fn no_source_file_is_over_800_lines() {
    let mut long = Vec::new();
    let mut folders = vec![repository().join("crates"), repository().join("fuzz")];
    while let Some(folder) = folders.pop() {
        for entry in fs::read_dir(&folder).expect("a readable folder") {
            let path = entry.expect("an entry").path();
            if path.is_dir() && !path.ends_with("target") {
                folders.push(path);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                let lines = fs::read_to_string(&path).expect("readable").lines().count();
                if lines > 800 {
                    long.push(format!("{}: {lines} lines", path.display()));
                }
            }
        }
    }
    assert!(
        long.is_empty(),
        "a file this long does several jobs; split it along them:\n{}",
        long.join("\n")
    );
}
