//! Every `§` the repository cites is a section of the rules it carries
//! (`docs/BOX.md` for the box, `docs/KATAZUKE.md` for 片付けマス), so that
//! someone who clones it can read the rule a line of code is written
//! against, and a section renumbered in the rules is caught where it is
//! cited.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Path, PathBuf};

/// The sections of a rules document: `## N.` headings, `N.M` paragraphs
/// and the numbered items `K.` inside a paragraph (`N.M.K`), outside code
/// blocks.
fn sections(text: &str) -> BTreeSet<String> {
    let mut found = BTreeSet::new();
    let mut in_code = false;
    let mut paragraph: Option<String> = None;
    for line in text.lines() {
        if line.starts_with("```") {
            in_code = !in_code;
            continue;
        }
        if in_code {
            continue;
        }
        if let Some(heading) = line.strip_prefix("## ") {
            paragraph = None;
            if let Some((number, _)) = heading.split_once(". ") {
                found.insert(number.to_string());
            }
            continue;
        }
        let number: String = line
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let rest = &line[number.len()..];
        let parts: Vec<&str> = number.trim_end_matches('.').split('.').collect();
        if parts.len() == 2
            && parts.iter().all(|part| !part.is_empty())
            && rest.starts_with([' ', '*'])
        {
            let name = parts.join(".");
            found.insert(name.clone());
            paragraph = Some(name);
        } else if parts.len() == 1
            && !parts[0].is_empty()
            && number.ends_with('.')
            && rest.starts_with(' ')
        {
            if let Some(paragraph) = &paragraph {
                found.insert(format!("{paragraph}.{}", parts[0]));
            }
        }
    }
    found
}

/// The files that may cite the rules: code, tests, examples, manuals.
fn citing_files(folder: &Path, into: &mut Vec<PathBuf>) {
    let Ok(entries) = fs::read_dir(folder) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name == "target" {
            continue;
        }
        if path.is_dir() {
            citing_files(&path, into);
        } else if ["rs", "md", "py", "sh", "toml"]
            .iter()
            .any(|extension| name.ends_with(&format!(".{extension}")))
        {
            into.push(path);
        }
    }
}

/// Which rules a citation names on its line: the document named last
/// before it, if any (`BOX.md §10 (and KATAZUKE.md §14)`).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Named {
    Box,
    Game,
    Neither,
}

/// The `§` numbers of `line` (`§9.2`, `§10.6.7`, `§ 3`), each with the
/// document named before it.
fn citations(line: &str) -> Vec<(Named, String)> {
    let mut found = Vec::new();
    for (at, _) in line.match_indices('§') {
        let before = &line[..at];
        let named = match (before.rfind("BOX.md"), before.rfind("KATAZUKE.md")) {
            (Some(one), Some(other)) if one > other => Named::Box,
            (Some(_), None) => Named::Box,
            (_, Some(_)) => Named::Game,
            (None, None) => Named::Neither,
        };
        let number: String = line[at + '§'.len_utf8()..]
            .trim_start()
            .chars()
            .take_while(|c| c.is_ascii_digit() || *c == '.')
            .collect();
        let number = number.trim_end_matches('.');
        if !number.is_empty() {
            found.push((named, number.to_string()));
        }
    }
    found
}

#[test]
fn every_section_cited_is_in_the_rules() {
    let root = &Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let read = |name: &str| fs::read_to_string(root.join("docs").join(name)).expect("the rules");
    let box_rules = sections(&read("BOX.md"));
    let game_rules = sections(&read("KATAZUKE.md"));
    assert!(box_rules.contains("8") && game_rules.contains("10.6.7") && game_rules.contains("9.2"));
    let mut files = Vec::new();
    for folder in ["crates", "examples", "fuzz", "docs", ".ci"] {
        citing_files(&root.join(folder), &mut files);
    }
    files.extend(["README.md", "BENCHMARKS.md"].map(|name| root.join(name)));
    let mut unknown = Vec::new();
    let mut cited = 0;
    for file in &files {
        let Ok(text) = fs::read_to_string(file) else {
            continue;
        };
        let relative = file
            .strip_prefix(root)
            .unwrap_or(file)
            .to_string_lossy()
            .into_owned();
        let of_the_game = relative.contains("katazuke");
        let of_the_box = relative.contains("shubbles") && !of_the_game;
        for (index, line) in text.lines().enumerate() {
            for (named, number) in citations(line) {
                cited += 1;
                // The document the line names, else the one its file is
                // about, else either.
                let known = match named {
                    Named::Box => box_rules.contains(&number),
                    Named::Game => game_rules.contains(&number),
                    Named::Neither if relative == "docs/BOX.md" => box_rules.contains(&number),
                    Named::Neither if relative == "docs/KATAZUKE.md" || of_the_game => {
                        game_rules.contains(&number)
                    }
                    Named::Neither if of_the_box => box_rules.contains(&number),
                    Named::Neither => box_rules.contains(&number) || game_rules.contains(&number),
                };
                if !known {
                    unknown.push(format!("{relative}:{}: §{number}", index + 1));
                }
            }
        }
    }
    assert!(
        cited > 300,
        "only {cited} citations found: is the scan looking in the right places?"
    );
    assert!(
        unknown.is_empty(),
        "sections cited that the rules do not have:\n{}",
        unknown.join("\n")
    );
}
