//! Reading a document's fenced blocks: transcripts, commands, their
//! comments, and comparing printed lines with a transcript's.

/// A transcript line standing for any number of printed lines.
pub const ELIDED: &str = "...";

/// When set to `1`, a command that needs a tool this machine lacks fails
/// the check instead of being skipped (CI installs them).
pub const NEED_TOOLS: &str = "SHUBBLES_DOCS_NEED_TOOLS";

/// Tools some commands of the docs pipe into, which a machine may lack,
/// each with the shell test that it is there (`parallel` must be GNU
/// parallel: the `parallel` of moreutils takes other arguments).
pub(super) const OPTIONAL_TOOLS: [(&str, &str); 2] = [
    ("gifsicle", "command -v gifsicle"),
    (
        "parallel",
        "parallel --version 2>/dev/null | grep -q '^GNU parallel'",
    ),
];

/// What a fenced block of a document is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Kind {
    /// ` ```console `: commands after `$ `, each followed by what it prints.
    Console,
    /// ` ```sh `: commands, one a line.
    Sh,
}

/// One command a document shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Shown {
    /// Its line in the document, from 1.
    pub line: usize,
    /// The command without its `$ ` and without its comment.
    pub command: String,
    /// Its trailing comment, without the `#`; empty when it has none.
    pub comment: String,
    /// What a transcript shows it printing (always empty in an `sh` block).
    pub output: Vec<String>,
}

/// A ` ```console ` or ` ```sh ` block of a document.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Block {
    /// The line of its opening fence, from 1.
    pub line: usize,
    /// Transcript or commands.
    pub kind: Kind,
    /// Its commands in order.
    pub commands: Vec<Shown>,
}

/// The ` ```console ` and ` ```sh ` blocks of a Markdown document, in
/// order. Panics on a transcript line before any command, which is a
/// document to mend.
pub fn blocks(markdown: &str) -> Vec<Block> {
    let mut found = Vec::new();
    let mut lines = markdown.lines().enumerate().map(|(i, line)| (i + 1, line));
    while let Some((at, line)) = lines.next() {
        let Some(language) = line.strip_prefix("```") else {
            continue;
        };
        let body: Vec<(usize, &str)> = lines
            .by_ref()
            .take_while(|(_, line)| !line.starts_with("```"))
            .collect();
        let kind = match language.trim() {
            "console" => Kind::Console,
            "sh" => Kind::Sh,
            _ => continue,
        };
        let commands = match kind {
            Kind::Console => transcript(&body),
            Kind::Sh => commands(&body),
        };
        found.push(Block {
            line: at,
            kind,
            commands,
        });
    }
    found
}

pub(super) fn transcript(body: &[(usize, &str)]) -> Vec<Shown> {
    let mut commands: Vec<Shown> = Vec::new();
    for &(line, text) in body {
        if let Some(typed) = text.strip_prefix("$ ") {
            let (command, comment) = split_comment(typed);
            commands.push(Shown {
                line,
                command,
                comment,
                output: Vec::new(),
            });
        } else {
            let last = commands.last_mut().unwrap_or_else(|| {
                panic!("line {line}: a transcript line before any `$ ` command: {text:?}")
            });
            last.output.push(text.to_string());
        }
    }
    commands
}

pub(super) fn commands(body: &[(usize, &str)]) -> Vec<Shown> {
    let mut commands = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    for &(line, text) in body {
        let (start, mut joined) = pending.take().unwrap_or((line, String::new()));
        joined.push_str(text);
        // A line ending in a backslash goes on on the next one.
        if let Some(cut) = joined.strip_suffix('\\') {
            pending = Some((start, format!("{cut} ")));
            continue;
        }
        let (command, comment) = split_comment(&joined);
        if !command.is_empty() {
            commands.push(Shown {
                line: start,
                command,
                comment,
                output: Vec::new(),
            });
        }
    }
    commands
}

/// A command line read as bash reads it: its words (quotes removed) with
/// `None` between commands (at `|`, `&`, `;`, `(` and `)`), and the byte
/// where its comment starts (its length when it has none).
pub(super) fn scan(line: &str) -> (Vec<Option<String>>, usize) {
    let mut tokens = Vec::new();
    let mut word: Option<String> = None;
    let mut chars = line.char_indices();
    while let Some((at, c)) = chars.next() {
        match c {
            '\'' => {
                let word = word.get_or_insert_with(String::new);
                word.extend(chars.by_ref().map(|(_, c)| c).take_while(|&c| c != '\''));
            }
            '"' => {
                let word = word.get_or_insert_with(String::new);
                while let Some((_, c)) = chars.next() {
                    match c {
                        '"' => break,
                        '\\' => word.extend(chars.next().map(|(_, c)| c)),
                        c => word.push(c),
                    }
                }
            }
            '\\' => word
                .get_or_insert_with(String::new)
                .extend(chars.next().map(|(_, c)| c)),
            '#' if word.is_none() => {
                tokens.extend(word.take().map(Some));
                return (tokens, at);
            }
            '|' | '&' | ';' | '(' | ')' => {
                tokens.extend(word.take().map(Some));
                tokens.push(None);
            }
            c if c.is_whitespace() => tokens.extend(word.take().map(Some)),
            c => word.get_or_insert_with(String::new).push(c),
        }
    }
    tokens.extend(word.take().map(Some));
    (tokens, line.len())
}

/// A command line's command and its trailing comment (without the `#`),
/// both trimmed; a `#` inside quotes or inside a word is no comment.
pub fn split_comment(line: &str) -> (String, String) {
    let (_, at) = scan(line);
    let comment = line[at..].strip_prefix('#').unwrap_or("");
    (line[..at].trim().to_string(), comment.trim().to_string())
}

/// The words of a command line, quotes removed, comment left out.
pub fn words(line: &str) -> Vec<String> {
    scan(line).0.into_iter().flatten().collect()
}

/// The programs a command line runs: the first word of each of its
/// commands (of a pipeline, a list), after any `NAME=value` assignments.
pub fn programs(line: &str) -> Vec<String> {
    let mut found = Vec::new();
    let mut at_start = true;
    for token in scan(line).0 {
        match token {
            None => at_start = true,
            Some(word) if at_start && !is_assignment(&word) => {
                found.push(word);
                at_start = false;
            }
            Some(_) => {}
        }
    }
    found
}

pub(super) fn is_assignment(word: &str) -> bool {
    word.split_once('=').is_some_and(|(name, _)| {
        name.chars().next().is_some_and(|c| !c.is_ascii_digit())
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
    })
}

/// Whether the printed lines `actual` are those a transcript shows,
/// `expected`, where a line [`ELIDED`] stands for any number of lines.
pub fn same_lines(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first == ELIDED => {
            (0..=actual.len()).any(|skip| same_lines(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual.first() == Some(first) && same_lines(rest, &actual[1..]),
    }
}
