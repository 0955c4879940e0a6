//! The commands a document shows, run as a user runs them and compared
//! with what the document says they print, so that every command of the
//! docs is checked by a test or by CI.
//!
//! A ` ```console ` block is a transcript: a line starting with `$ ` is a
//! command, and the lines after it (up to the next `$ ` line or the end of
//! the block) are what it prints, standard output and standard error
//! interleaved as a terminal shows them; a line `...` stands for any
//! number of lines. A ` ```sh ` block holds commands, one a line, each
//! with an optional `# comment` that may say what the command does:
//! `exits N`, `prints X` (its standard output, one line), `writes FILE`,
//! or `wrote …` (the one line it writes on standard error).
//!
//! [`Manual::check`] runs the commands of documents block by block, each
//! block in a fresh folder holding a copy of the repository's `examples/`,
//! with a folder first on `PATH` where the tool's name is the binary under
//! test. Lines starting with `cargo` are left to CI: the manual names the
//! line of `.ci/run` that runs each, and the check finds it there.

mod check;
mod parse;

pub use check::*;
pub use parse::*;

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(str::to_string).collect()
    }

    #[test]
    fn console_and_sh_blocks_are_read_with_their_lines_and_comments() {
        let markdown = "\
# Title

```console
$ tool text a '+|'   # a comment
one
two
$ tool quiet
```

```sh
tool a '#not' # exits 3, prints !
  # a comment alone
tool b \\
  c
```

```text
$ not a command
```
";
        let found = blocks(markdown);
        assert_eq!(found.len(), 2);
        assert_eq!((found[0].line, found[0].kind), (3, Kind::Console));
        assert_eq!(
            found[0].commands,
            [
                Shown {
                    line: 4,
                    command: "tool text a '+|'".into(),
                    comment: "a comment".into(),
                    output: lines("one\ntwo"),
                },
                Shown {
                    line: 7,
                    command: "tool quiet".into(),
                    comment: String::new(),
                    output: Vec::new(),
                },
            ]
        );
        assert_eq!((found[1].line, found[1].kind), (10, Kind::Sh));
        let sh: Vec<(usize, &str, &str)> = found[1]
            .commands
            .iter()
            .map(|s| (s.line, s.command.as_str(), s.comment.as_str()))
            .collect();
        assert_eq!(
            sh,
            [
                (11, "tool a '#not'", "exits 3, prints !"),
                (13, "tool b    c", ""),
            ]
        );
    }

    #[test]
    #[should_panic(expected = "before any `$ ` command")]
    fn output_before_any_command_is_refused() {
        blocks("```console\nstray\n$ tool\n```\n");
    }

    #[test]
    fn programs_are_the_first_words_of_each_command() {
        assert_eq!(
            programs("echo 'a | b' | X=1 tool -o - | gifsicle --info; echo \"$?\" # c | d"),
            ["echo", "tool", "gifsicle", "echo"]
        );
        assert_eq!(
            words("parallel tool --shard {}/8 ::: 1 2"),
            ["parallel", "tool", "--shard", "{}/8", ":::", "1", "2"]
        );
        assert_eq!(words("a\\ b \"c d\"e"), ["a b", "c de"]);
    }

    #[test]
    fn an_elided_line_stands_for_any_lines_and_nothing_else_differs() {
        let shown = lines("head\n...\ntail");
        assert!(same_lines(&shown, &lines("head\ntail")));
        assert!(same_lines(&shown, &lines("head\n1\n2\ntail")));
        assert!(!same_lines(&shown, &lines("head\n1\n2\ntail\nmore")));
        assert!(!same_lines(&shown, &lines("heads\ntail")));
        assert!(same_lines(&lines("a\nb"), &lines("a\nb")));
        assert!(!same_lines(&lines("a\nb"), &lines("a\nb ")));
        assert!(!same_lines(&lines("a"), &[]));
        assert!(same_lines(&lines("..."), &[]));
    }
}
