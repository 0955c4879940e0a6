//! Running a document's commands in a fresh folder, as a user runs them,
//! and telling what differs from what the document shows.

use std::collections::BTreeSet;
use std::fmt::Write as _;
use std::fs;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

use super::parse::*;
use crate::unix::{bash_in, bash_interleaved};

/// A file or program a command shows but a user supplies (`big.txt`,
/// `generate-scenarios`): made before a block that names it runs.
pub struct StandIn<'a> {
    /// The word the block's commands name it by.
    pub name: &'a str,
    /// A bash script, run in the block's folder with the tool on `PATH`,
    /// that makes it; `$BIN` is the folder on `PATH` (for a program).
    pub script: &'a str,
}

/// A check of what a command's comment or its context claims (`#
/// byte-identical to …`), run in its folder right after it.
pub struct Claim<'a> {
    /// The command, as the document shows it without its comment.
    pub after: &'a str,
    /// A bash script that exits 0 when the claim holds.
    pub check: &'a str,
}

/// How many commands of a document were checked, and how.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct Tally {
    /// Transcript commands run and compared with what the document shows.
    pub compared: usize,
    /// `sh` lines run (and checked for their status and their comment's
    /// claims), counting those skipped for a missing tool.
    pub run: usize,
    /// `sh` lines skipped because a tool they need is missing.
    pub skipped: usize,
    /// `cargo` lines, each run by a named line of `.ci/run`.
    pub left_to_ci: usize,
}

impl std::ops::AddAssign for Tally {
    fn add_assign(&mut self, other: Tally) {
        self.compared += other.compared;
        self.run += other.run;
        self.skipped += other.skipped;
        self.left_to_ci += other.left_to_ci;
    }
}

/// A document to check: which of its commands are this tool's, and how
/// many there must be at least, so that a parser gone wrong cannot pass
/// by checking nothing.
pub struct Doc<'a> {
    /// Its path from the top of the repository.
    pub path: &'a str,
    /// Whether a command is this tool's to check (the README shows both
    /// tools; each test takes its own).
    pub belongs: fn(&str) -> bool,
    /// The least it must hold: `compared`, `run` and `left_to_ci` are
    /// minimums (`skipped` is not looked at).
    pub at_least: Tally,
}

/// A tool's commands as its documents show them, and what the check needs
/// to know beyond the documents.
pub struct Manual<'a> {
    /// The tool's name, as the documents call it (`shubbles`).
    pub tool: &'a str,
    /// The binary under test (`env!("CARGO_BIN_EXE_…")`).
    pub binary: &'a str,
    /// The top of the repository.
    pub repository: PathBuf,
    /// Applied to each line, shown and printed, before they are compared:
    /// where what a command prints legitimately varies (a time).
    pub normalise: fn(&str) -> String,
    /// Transcript commands that end with another status than 0.
    pub statuses: &'a [(&'a str, i32)],
    /// Files and programs a user supplies.
    pub stand_ins: &'a [StandIn<'a>],
    /// Claims checked after their commands.
    pub claims: &'a [Claim<'a>],
    /// Each `cargo` line of the documents, with the line of `.ci/run` that
    /// runs it (CI adds `--locked`, `--quiet` or an output folder).
    pub left_to_ci: &'a [(&'a str, &'a str)],
}

/// Why a block stopped: the messages to print.
type Problems = Vec<String>;

impl Manual<'_> {
    /// Checks every command of `docs` (blocks side by side) and returns
    /// what was checked, document by document; panics naming every
    /// problem, every table entry no document used, and every document
    /// holding fewer commands than it must.
    pub fn check(&self, docs: &[Doc]) -> Vec<Tally> {
        let used = Mutex::new(BTreeSet::new());
        let mut problems = Vec::new();
        let mut tallies = Vec::new();
        for doc in docs {
            let text = fs::read_to_string(self.repository.join(doc.path))
                .unwrap_or_else(|e| panic!("{}: {e}", doc.path));
            let found = blocks(&text);
            let results: Vec<Result<Tally, Problems>> = std::thread::scope(|scope| {
                let running: Vec<_> = found
                    .iter()
                    .map(|block| scope.spawn(|| self.block(doc, block, &used)))
                    .collect();
                running
                    .into_iter()
                    .map(|thread| thread.join().expect("a block's thread ends"))
                    .collect()
            });
            let mut tally = Tally::default();
            let earlier = problems.len();
            for result in results {
                match result {
                    Ok(counted) => tally += counted,
                    Err(found) => problems.extend(found),
                }
            }
            let least = doc.at_least;
            // A block that failed stopped there: its count means nothing.
            if problems.len() == earlier
                && (tally.compared < least.compared
                    || tally.run < least.run
                    || tally.left_to_ci < least.left_to_ci)
            {
                problems.push(format!(
                    "{}: found fewer commands than it holds ({tally:?}, at least {least:?}): \
                     is the transcript parser broken?",
                    doc.path
                ));
            }
            println!("{}: {tally:?}", doc.path);
            tallies.push(tally);
        }
        let used = used.into_inner().expect("no block panicked");
        // After a failure, entries of the commands after it are unused.
        let keys_checked = problems.is_empty();
        let keys = self
            .statuses
            .iter()
            .map(|(command, _)| *command)
            .chain(self.claims.iter().map(|claim| claim.after))
            .chain(self.left_to_ci.iter().map(|(command, _)| *command))
            .chain(self.stand_ins.iter().map(|stand_in| stand_in.name));
        for key in keys {
            if keys_checked && !used.contains(key) {
                problems.push(format!(
                    "the test's tables name {key:?}, which no checked document shows"
                ));
            }
        }
        assert!(problems.is_empty(), "\n{}", problems.join("\n\n"));
        tallies
    }

    fn block(
        &self,
        doc: &Doc,
        block: &Block,
        used: &Mutex<BTreeSet<String>>,
    ) -> Result<Tally, Problems> {
        let mine: Vec<&Shown> = block
            .commands
            .iter()
            .filter(|shown| (doc.belongs)(&shown.command))
            .collect();
        if mine.is_empty() {
            return Ok(Tally::default());
        }
        let use_key = |key: &str| {
            used.lock().expect("not poisoned").insert(key.to_string());
        };
        let folder = Folder::new(self, block, &mine, use_key)?;
        let mut tally = Tally::default();
        let mut skipping: Option<String> = None;
        for shown in mine {
            let at = format!("{}:{}", doc.path, shown.line);
            if block.kind == Kind::Console {
                tally.compared += 1;
                self.console(&folder, shown, &at, use_key)?;
            } else if programs(&shown.command).first().map(String::as_str) == Some("cargo") {
                tally.left_to_ci += 1;
                self.ci(shown, &at, use_key)?;
            } else if words(&shown.command).iter().any(|word| word == self.tool) {
                tally.run += 1;
                if let Some(tool) = &skipping {
                    tally.skipped += 1;
                    println!(
                        "{at}: skipped, as it builds on a line before, which needs {tool}: {}",
                        shown.command
                    );
                } else if let Some(tool) = folder.missing_tool(&shown.command, &at)? {
                    tally.skipped += 1;
                    println!("{at}: skipped, {tool} is not installed: {}", shown.command);
                    skipping = Some(tool);
                } else {
                    self.sh(&folder, shown, &at, use_key)?;
                }
            } else {
                return Err(vec![format!(
                    "{at}: `{}` neither runs {} nor is left to CI: what should check it?",
                    shown.command, self.tool
                )]);
            }
        }
        folder.examples_unchanged(&self.repository, &format!("{}:{}", doc.path, block.line))?;
        Ok(tally)
    }

    /// Runs a transcript's command and compares what it printed and its
    /// status with what the document shows.
    fn console(
        &self,
        folder: &Folder,
        shown: &Shown,
        at: &str,
        use_key: impl Fn(&str),
    ) -> Result<(), Problems> {
        let expected_status = match self.statuses.iter().find(|(c, _)| *c == shown.command) {
            Some(&(command, status)) => {
                use_key(command);
                status
            }
            None => 0,
        };
        let (status, printed) = bash_interleaved(&folder.work, &shown.command, &folder.env());
        let normalise = |line: &str| {
            if line == ELIDED {
                line.to_string()
            } else {
                (self.normalise)(line)
            }
        };
        let mut expected: Vec<String> = shown.output.iter().map(|l| normalise(l)).collect();
        let mut actual: Vec<String> = printed.lines().map(normalise).collect();
        // `ls` prints names in columns on a terminal and one a line on a
        // pipe, in the order of the locale: its names are compared.
        if programs(&shown.command).first().map(String::as_str) == Some("ls") {
            for lines in [&mut expected, &mut actual] {
                let mut names: Vec<String> =
                    lines.iter().flat_map(|l| words(l)).collect::<Vec<_>>();
                names.sort();
                *lines = names;
            }
        }
        if status != expected_status || !same_lines(&expected, &actual) {
            let mut message = format!(
                "{at}: `{}` does not print what the transcript shows\n  shown (status {expected_status}):\n",
                shown.command
            );
            for line in &shown.output {
                let _ = writeln!(message, "    |{line}");
            }
            let _ = writeln!(message, "  printed (status {status}):");
            for line in printed.lines() {
                let _ = writeln!(message, "    |{line}");
            }
            return Err(vec![message]);
        }
        self.claims_after(folder, shown, at, use_key)
    }

    /// Runs an `sh` line and checks its status and what its comment says.
    fn sh(
        &self,
        folder: &Folder,
        shown: &Shown,
        at: &str,
        use_key: impl Fn(&str),
    ) -> Result<(), Problems> {
        let said = Said::from(&shown.comment);
        let run = bash_in(
            &folder.work,
            &format!("set -o pipefail\n{}", shown.command),
            &folder.env(),
        );
        let mut problems = Vec::new();
        if run.code != said.status {
            problems.push(format!("exits {} instead of {}", run.code, said.status));
        }
        if let Some(stdout) = &said.stdout {
            if run.stdout != *stdout {
                problems.push(format!("prints {:?} instead of {stdout:?}", run.stdout));
            }
        }
        if let Some(stderr) = &said.stderr {
            if run.stderr != *stderr {
                problems.push(format!(
                    "writes {:?} on standard error instead of {stderr:?}",
                    run.stderr
                ));
            }
        }
        for file in &said.writes {
            let written = fs::metadata(folder.work.join(file)).map(|m| m.len());
            if !matches!(written, Ok(length) if length > 0) {
                problems.push(format!("does not write {file}"));
            }
        }
        if !problems.is_empty() {
            return Err(vec![format!(
                "{at}: `{}` {}\n  standard output: {:?}\n  standard error: {:?}",
                shown.command,
                problems.join(", "),
                run.stdout,
                run.stderr
            )]);
        }
        self.claims_after(folder, shown, at, use_key)
    }

    /// Checks that a `cargo` line is left to a line of `.ci/run` that
    /// runs it.
    fn ci(&self, shown: &Shown, at: &str, use_key: impl Fn(&str)) -> Result<(), Problems> {
        let Some(&(command, ci_line)) = self.left_to_ci.iter().find(|(c, _)| *c == shown.command)
        else {
            return Err(vec![format!(
                "{at}: `{}` is left to CI, but the test does not say which line of .ci/run runs it",
                shown.command
            )]);
        };
        use_key(command);
        let ci = fs::read_to_string(self.repository.join(".ci/run")).expect(".ci/run is readable");
        if !ci.lines().any(|line| line.contains(ci_line)) {
            return Err(vec![format!(
                "{at}: `{}` is left to CI, but .ci/run has no line `{ci_line}`",
                shown.command
            )]);
        }
        Ok(())
    }

    fn claims_after(
        &self,
        folder: &Folder,
        shown: &Shown,
        at: &str,
        use_key: impl Fn(&str),
    ) -> Result<(), Problems> {
        for claim in self.claims.iter().filter(|c| c.after == shown.command) {
            use_key(claim.after);
            let run = bash_in(&folder.work, claim.check, &folder.env());
            if run.code != 0 {
                return Err(vec![format!(
                    "{at}: after `{}`, `{}` fails (status {}): {}{}",
                    shown.command, claim.check, run.code, run.stdout, run.stderr
                )]);
            }
        }
        Ok(())
    }
}

/// What an `sh` line's comment says the command does.
struct Said {
    status: i32,
    stdout: Option<String>,
    stderr: Option<String>,
    writes: Vec<String>,
}

impl Said {
    fn from(comment: &str) -> Said {
        let mut said = Said {
            status: 0,
            stdout: None,
            stderr: None,
            writes: Vec::new(),
        };
        if comment.starts_with("wrote ") {
            said.stderr = Some(format!("{comment}\n"));
            return said;
        }
        for clause in comment.split([',', ';']).map(str::trim) {
            if let Some(status) = clause.strip_prefix("exits ") {
                said.status = status.parse().expect("`exits N` gives a number");
            } else if let Some(printed) = clause.strip_prefix("prints ") {
                said.stdout = Some(format!("{printed}\n"));
            } else if let Some(file) = clause.strip_prefix("writes ") {
                said.writes.push(file.to_string());
            }
        }
        said
    }
}

/// A block's own folders: `work`, where its commands run, with a copy of
/// `examples/`, and `bin`, first on `PATH`, where the tool's name leads
/// to the binary under test.
struct Folder {
    _root: tempfile::TempDir,
    work: PathBuf,
    bin: PathBuf,
    path: String,
}

impl Folder {
    fn new(
        manual: &Manual,
        block: &Block,
        mine: &[&Shown],
        use_key: impl Fn(&str),
    ) -> Result<Folder, Problems> {
        let root = tempfile::tempdir().expect("a temporary folder");
        let (work, bin) = (root.path().join("work"), root.path().join("bin"));
        fs::create_dir_all(&bin).expect("a bin folder");
        std::os::unix::fs::symlink(manual.binary, bin.join(manual.tool)).expect("a symlink");
        copy_folder(&manual.repository.join("examples"), &work.join("examples"));
        let path = format!(
            "{}:{}",
            bin.display(),
            std::env::var("PATH").unwrap_or_default()
        );
        let folder = Folder {
            _root: root,
            work,
            bin,
            path,
        };
        let named: BTreeSet<String> = mine.iter().flat_map(|s| words(&s.command)).collect();
        for stand_in in manual.stand_ins {
            if named.contains(stand_in.name) {
                use_key(stand_in.name);
                let run = bash_in(&folder.work, stand_in.script, &folder.env());
                if run.code != 0 {
                    return Err(vec![format!(
                        "block at line {}: the stand-in {} cannot be made: {}",
                        block.line, stand_in.name, run.stderr
                    )]);
                }
            }
        }
        Ok(folder)
    }

    fn env(&self) -> [(&str, &str); 2] {
        [
            ("PATH", self.path.as_str()),
            ("BIN", self.bin.to_str().expect("a UTF-8 path")),
        ]
    }

    /// The optional tool a command needs and this machine lacks, if any;
    /// a problem instead when [`NEED_TOOLS`] is set.
    fn missing_tool(&self, command: &str, at: &str) -> Result<Option<String>, Problems> {
        let needed = programs(command);
        for (tool, test) in OPTIONAL_TOOLS {
            if needed.iter().any(|program| program == tool)
                && bash_in(&self.work, test, &self.env()).code != 0
            {
                if std::env::var(NEED_TOOLS).is_ok_and(|v| v == "1") {
                    return Err(vec![format!(
                        "{at}: `{command}` needs {tool}, which is not installed, and {NEED_TOOLS}=1"
                    )]);
                }
                return Ok(Some(tool.to_string()));
            }
        }
        Ok(None)
    }

    /// A command that writes into `examples/` must write what is committed
    /// there.
    fn examples_unchanged(&self, repository: &Path, at: &str) -> Result<(), Problems> {
        let mut problems = Vec::new();
        let mut folders = vec![PathBuf::from("examples")];
        while let Some(folder) = folders.pop() {
            for entry in fs::read_dir(repository.join(&folder)).expect("examples/ is readable") {
                let relative = folder.join(entry.expect("an entry").file_name());
                if repository.join(&relative).is_dir() {
                    folders.push(relative);
                } else if fs::read(repository.join(&relative)).ok()
                    != fs::read(self.work.join(&relative)).ok()
                {
                    problems.push(format!(
                        "{at}: the block's commands leave {} other than the committed file",
                        relative.display()
                    ));
                }
            }
        }
        if problems.is_empty() {
            Ok(())
        } else {
            Err(problems)
        }
    }
}

fn copy_folder(from: &Path, to: &Path) {
    fs::create_dir_all(to).unwrap_or_else(|e| panic!("{}: {e}", to.display()));
    for entry in fs::read_dir(from).unwrap_or_else(|e| panic!("{}: {e}", from.display())) {
        let entry = entry.expect("an entry");
        let target = to.join(entry.file_name());
        if entry.path().is_dir() {
            copy_folder(&entry.path(), &target);
        } else {
            fs::copy(entry.path(), &target)
                .unwrap_or_else(|e| panic!("{}: {e}", entry.path().display()));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comment_says_status_output_and_files() {
        let said = Said::from("prints !, exits 3; the PNG marks the failure");
        assert_eq!(
            (said.status, said.stdout.as_deref(), said.stderr),
            (3, Some("!\n"), None)
        );
        let said = Said::from("wrote shubbles.gif: 26 frames, 27 KB, 26 s");
        assert_eq!(
            (said.status, said.stderr.as_deref()),
            (0, Some("wrote shubbles.gif: 26 frames, 27 KB, 26 s\n"))
        );
        assert_eq!(Said::from("writes shubbles.gif").writes, ["shubbles.gif"]);
        assert_eq!(Said::from("one eighth of the input").status, 0);
    }
}
