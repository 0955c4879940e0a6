//! Text from users made safe to show on a terminal. Team names, comments,
//! player names and program output reach the screen in reports and
//! messages; a control character in them (ESC starting a colour or cursor
//! sequence, OSC setting the window title or a link, BEL, a carriage return
//! that overwrites a line) would be obeyed by the terminal instead of
//! shown, a bidirectional override would show the text in another order
//! than it has, and an invisible character would hide that it is there. Each is replaced by `?`, so what is shown is what is
//! there. Files written for programs (`.ktz`, JSON) keep the data exactly.

use std::borrow::Cow;

/// What stands for a character a terminal would obey rather than show.
pub const REPLACEMENT: char = '?';

/// True for a character a terminal acts on, or that shows as nothing, instead
/// of showing: every control character (the tab too, which would move what
/// follows), the line and paragraph separators, and Unicode's invisible
/// format characters: the marks and overrides that change the direction of
/// the text around them, zero-width spaces and joiners, the byte-order
/// mark, interlinear annotations and tags.
pub fn is_unprintable(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{00AD}'
                | '\u{061C}'
                | '\u{180E}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{206F}'
                | '\u{FEFF}'
                | '\u{FFF9}'..='\u{FFFB}'
                | '\u{E0000}'..='\u{E007F}'
        )
}

/// `text` with every unprintable character (see `is_unprintable`)
/// replaced by `?`; borrowed when there is none, as is almost always so.
pub fn printable(text: &str) -> Cow<'_, str> {
    if !text.chars().any(is_unprintable) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.chars()
            .map(|c| if is_unprintable(c) { REPLACEMENT } else { c })
            .collect(),
    )
}

/// `text`, lines kept: each line made [`printable`] and the line breaks
/// (`\n`) left as they are, for a message or report of several lines.
pub fn printable_lines(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && is_unprintable(c)) {
        return Cow::Borrowed(text);
    }
    Cow::Owned(
        text.split('\n')
            .map(|line| printable(line).into_owned())
            .collect::<Vec<_>>()
            .join("\n"),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_terminal_would_obey_is_shown_as_a_question_mark() {
        assert_eq!(printable("Numazu 沼津"), "Numazu 沼津");
        assert!(matches!(printable("plain"), Cow::Borrowed(_)));
        assert_eq!(printable("\u{1b}[31mred\u{1b}[0m"), "?[31mred?[0m");
        assert_eq!(printable("\u{1b}]0;title\u{7}x"), "?]0;title?x");
        assert_eq!(printable("a\rb\nc\u{0}d\u{9b}e"), "a?b?c?d?e");
        assert_eq!(printable("\u{202E}evil\u{2066}x\u{200F}"), "?evil?x?");
        assert_eq!(printable("tab\there"), "tab?here");
        for invisible in [
            '\u{61C}',
            '\u{200B}',
            '\u{2028}',
            '\u{2029}',
            '\u{FEFF}',
            '\u{FFF9}',
            '\u{E0001}',
        ] {
            assert_eq!(printable(&format!("a{invisible}b")), "a?b", "{invisible:?}");
        }
        assert_eq!(printable_lines("one\u{1b}\ntwo\u{7}\n"), "one?\ntwo?\n");
    }
}
