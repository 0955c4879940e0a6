//! The canonical rewrite of a match log (§11.6): long step names, `:1`
//! left out, turn numbers written, one space between fields, canonical
//! durations and parameters; comments and blank lines kept where they are.
//! It is idempotent, and the rewritten log means what the original did.

use super::lines::{self, key_value, split};
use std::io::{self, Write};

use super::reader::{read_into, Diagnostic, Handlers};
use crate::model::code::Severity;
use crate::model::event::Entry;
use crate::model::field::{Size, MAX_SIDE};
use crate::model::turn::{Play, Seconds};
use crate::rules::game::Policy;

/// The canonical form of the log `text`, or the problem that makes it
/// malformed (a log that breaks a rule is still rewritten: a rewrite hides
/// nothing, and `check` still reports it).
pub fn canonical(text: &[u8]) -> Result<String, Diagnostic> {
    let mut out = Vec::new();
    match write_canonical(text, &mut out) {
        Ok(()) => Ok(String::from_utf8_lossy(&out).into_owned()),
        Err(CanonicalError::Malformed(error)) => Err(error),
        // Writing to memory does not fail.
        Err(CanonicalError::Write(_)) => Ok(String::new()),
    }
}

/// Why a log was not rewritten.
#[derive(Debug)]
pub enum CanonicalError {
    /// The log is malformed (§10.2): nothing was written.
    Malformed(Diagnostic),
    /// Writing the rewrite failed.
    Write(io::Error),
}

/// [`canonical()`] written to `out` a line at a time, so that a log of
/// millions of turns is rewritten without holding its rewrite. Nothing is
/// written for a malformed log: it is refereed to its end first.
pub fn write_canonical(text: &[u8], out: &mut impl Write) -> Result<(), CanonicalError> {
    let tally = read_into(
        text,
        Policy::Pass,
        &mut Handlers {
            entries: |_: &Entry| {},
            diagnostics: |_: &Diagnostic| {},
        },
    );
    // The reader stops at a rule it cannot pass over (a turn after the end,
    // a wrong turn number): from that line on nothing was read, so nothing
    // is known to mean anything, and the lines are kept as they are.
    let mut unread_from = usize::MAX;
    if let Some(error) = tally.error {
        if error.code.severity() == Severity::Malformed {
            return Err(CanonicalError::Malformed(error));
        }
        unread_from = error.line.unwrap_or(1);
    }
    rewrite(text, unread_from, out).map_err(CanonicalError::Write)
}

/// Writes each line of `text` in its canonical form, and the lines from
/// `unread_from` on as they are.
fn rewrite(text: &[u8], unread_from: usize, out: &mut impl Write) -> io::Result<()> {
    // The reader read every line as UTF-8 text; a line it could not read
    // ended it with a malformed error above.
    let text = String::from_utf8_lossy(text);
    let any_cell = Size {
        rows: MAX_SIDE as u8,
        columns: MAX_SIDE as u8,
    };
    let mut in_field = false;
    let mut turns = 0u32;
    for (index, line) in text.lines().enumerate() {
        if index + 1 >= unread_from {
            writeln!(out, "{line}")?;
            continue;
        }
        let split = split(line);
        let comment = split.comment.map(|comment| {
            if comment.is_empty() {
                "#".to_string()
            } else {
                format!("# {comment}")
            }
        });
        let canonical = if split.tokens.is_empty() {
            String::new()
        } else if in_field && split.indented {
            let counts: Vec<&str> = split
                .tokens
                .iter()
                .map(|token| if token.text == "." { "0" } else { token.text })
                .collect();
            format!("  {}", counts.join(" "))
        } else {
            in_field = false;
            if let Some((key, value, _)) = key_value(&split) {
                let raw = lines::trim_blanks(
                    &split.content[split.content.find(':').map_or(0, |at| at + 1)..],
                );
                let words: Vec<&str> = value.iter().map(|token| token.text).collect();
                match key.as_str() {
                    "field" => {
                        in_field = true;
                        "field:".to_string()
                    }
                    "team time" | "game time" => {
                        let ms = words.first().and_then(|word| lines::duration(word));
                        match ms {
                            Some(ms) => format!("{key}: {}", Seconds(ms)),
                            None => format!("{key}: {}", words.join(" ")),
                        }
                    }
                    "capacity" | "stock" | "first" | "result" | "winner" | "janken" | "A start"
                    | "B start" => {
                        let numbers: Vec<String> = words
                            .iter()
                            .map(|word| {
                                lines::digits(word).map_or(word.to_string(), |n| n.to_string())
                            })
                            .collect();
                        format!("{key}: {}", numbers.join(" "))
                    }
                    _ if raw.is_empty() => format!("{key}:"),
                    _ => format!("{key}: {raw}"),
                }
            } else if split.tokens[0].text == "game" {
                turns = 0;
                let words: Vec<&str> = split.tokens.iter().map(|token| token.text).collect();
                words.join(" ")
            } else if lines::is_turn(&split) {
                turns += 1;
                match lines::turn(&split, any_cell) {
                    Ok(turn) => {
                        let number = turn.number.unwrap_or(turns);
                        match turn.play {
                            Play::Timeout => format!("{number:>2}. {} timeout", turn.team),
                            play => format!("{number:>2}. {} {play}", turn.team),
                        }
                    }
                    // The reader accepted the line: it reads here too.
                    Err(_) => split.content.trim().to_string(),
                }
            } else {
                let words: Vec<&str> = split.tokens.iter().map(|token| token.text).collect();
                words.join(" ")
            }
        };
        let line = match (canonical.is_empty(), comment) {
            (_, None) => canonical,
            (true, Some(comment)) => comment,
            (false, Some(comment)) => format!("{canonical}  {comment}"),
        };
        writeln!(out, "{line}")?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const EXAMPLE: &str = include_str!("../../../../examples/katazuke/practice.ktz");

    /// Found by the fuzz target `match_log`: lines past the reader's first
    /// error were rewritten as if read (a vertical tab, white space to
    /// `str::trim` but part of a token to the grammar, was dropped, and the
    /// next rewrite read the line differently). They are now kept as they
    /// are.
    #[test]
    fn lines_the_reader_did_not_reach_are_rewritten_idempotently() {
        let log = EXAMPLE.replace(" 2. B 2.5", " 9. B 2.5");
        let log = log.replace(" 7. A 3.0 move c2", " 7. A 3.0 move c2\u{b}");
        let once = canonical(log.as_bytes()).expect("rewritten");
        assert_eq!(canonical(once.as_bytes()).expect("rewritten"), once);
        assert!(once.contains("\n 7. A 3.0 move c2\u{b}\n"));
    }

    #[test]
    fn the_worked_example_is_rewritten_canonically_and_idempotently() {
        let once = canonical(EXAMPLE.as_bytes()).unwrap();
        assert!(
            once.contains("\n 1. A 3.0 clear b1:2 a2:2  # two cells claimed, container full\n"),
            "{once}"
        );
        assert!(once.contains("\n13. A timeout  # A's clock runs out: A is out\n"));
        assert!(once.contains("\nteam time: 20.0\n"));
        assert_eq!(canonical(once.as_bytes()).unwrap(), once);
    }

    #[test]
    fn short_forms_become_long_ones() {
        let log = EXAMPLE
            .replace("12. B 3.0 pass empty", "B 3 - e")
            .replace("clear e2:2 e4:1", "c e2x2 e4");
        let formatted = canonical(log.as_bytes()).unwrap();
        assert!(
            formatted.contains("\n12. B 3.0 pass empty\n"),
            "{formatted}"
        );
        assert!(
            formatted.contains("\n10. B 2.5 clear e2:2 e4\n"),
            "{formatted}"
        );
    }

    #[test]
    fn a_malformed_log_is_refused() {
        let log = EXAMPLE.replace("capacity: 4", "capacity: four");
        let error = canonical(log.as_bytes()).unwrap_err();
        assert_eq!(error.code, crate::model::code::Code::Syntax);
    }
}
