//! The output file names of a batch: a NAME must stay inside the output
//! folder whatever the platform, and a line without one is named after its
//! file and line.

use std::fmt;
use std::path::Path;

/// The longest NAME accepted, in bytes: with an extension and the folder it
/// stays far inside the 255-byte file-name limit of common file systems.
pub const MAX_NAME_BYTES: usize = 100;

/// Why a NAME cannot be a file name. Only `[A-Za-z0-9._-]` is accepted, so
/// a name can never be a path, a hidden file or a control sequence on a
/// terminal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameError {
    /// No character at all.
    Empty,
    /// Longer than [`MAX_NAME_BYTES`].
    TooLong {
        /// Its length in bytes.
        bytes: usize,
    },
    /// A leading dot would hide the file, and `.`/`..` are folders.
    LeadingDot,
    /// `..` anywhere, which some tools still read as "the parent folder".
    DotDot,
    /// A name ending in a dot: Windows drops it, so `a.` and `a` would be
    /// one file.
    TrailingDot,
    /// A device name that Windows reserves in every folder (`CON`, `PRN`,
    /// `AUX`, `NUL`, `COM0`–`COM9`, `LPT0`–`LPT9`), before any extension:
    /// `nul.final` too opens the device, not a file.
    Reserved {
        /// The device name, as written.
        device: String,
    },
    /// A character outside `[A-Za-z0-9._-]`; `position` counts from 1.
    Character {
        /// Its place in the name, from 1.
        position: usize,
        /// The character.
        found: char,
    },
}

impl fmt::Display for NameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NameError::Empty => write!(f, "the name is empty"),
            NameError::TooLong { bytes } => write!(
                f,
                "the name is {bytes} bytes long, longer than {MAX_NAME_BYTES}"
            ),
            NameError::LeadingDot => write!(f, "the name starts with a dot"),
            NameError::DotDot => write!(f, "the name contains `..`"),
            NameError::TrailingDot => write!(
                f,
                "the name ends with a dot, which Windows drops from file names"
            ),
            NameError::Reserved { device } => write!(
                f,
                "the name {device:?} is a device on Windows (CON, PRN, AUX, NUL, COM0-9 and LPT0-9 are reserved, with any extension)"
            ),
            NameError::Character { position, found } => {
                write!(f, "the name has {found:?} at character {position}")?;
                if matches!(found, '/' | '\\') {
                    write!(f, " (a path separator)")?;
                }
                write!(f, "; names may use only letters, digits, `.`, `_` and `-`")
            }
        }
    }
}

impl std::error::Error for NameError {}

/// Accepts `name` as an output file name (before the extension) only if it
/// stays inside the output folder whatever the platform.
pub fn check_name(name: &str) -> Result<(), NameError> {
    if name.is_empty() {
        return Err(NameError::Empty);
    }
    if name.len() > MAX_NAME_BYTES {
        return Err(NameError::TooLong { bytes: name.len() });
    }
    if let Some((i, found)) = name.chars().enumerate().find(|(_, c)| !is_name_char(*c)) {
        return Err(NameError::Character {
            position: i + 1,
            found,
        });
    }
    if name.starts_with('.') {
        return Err(NameError::LeadingDot);
    }
    if name.contains("..") {
        return Err(NameError::DotDot);
    }
    if name.ends_with('.') {
        return Err(NameError::TrailingDot);
    }
    let device = name.split('.').next().unwrap_or_default();
    if is_windows_device(device) {
        return Err(NameError::Reserved {
            device: device.to_string(),
        });
    }
    Ok(())
}

fn is_windows_device(stem: &str) -> bool {
    let upper = stem.to_ascii_uppercase();
    match upper.as_bytes() {
        b"CON" | b"PRN" | b"AUX" | b"NUL" => true,
        [b'C', b'O', b'M', digit] | [b'L', b'P', b'T', digit] => digit.is_ascii_digit(),
        _ => false,
    }
}

fn is_name_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '-')
}

/// The start of the names of lines without a NAME: the input file's stem,
/// cut down to what [`check_name`] accepts (`stdin` for `-`).
pub(crate) fn default_stem(file: &str) -> String {
    if file == "-" {
        return "stdin".to_string();
    }
    let stem = Path::new(file)
        .file_stem()
        .map(|stem| stem.to_string_lossy())
        .unwrap_or_default();
    let cleaned: String = stem
        .chars()
        .map(|c| if is_name_char(c) { c } else { '_' })
        .collect();
    // Dots are dropped from the front and squeezed so the stem passes
    // `check_name`; room is left for `-` and the line number.
    let mut stem = String::new();
    for c in cleaned.trim_start_matches('.').chars() {
        if !(c == '.' && stem.ends_with('.')) && stem.len() < MAX_NAME_BYTES - 21 {
            stem.push(c);
        }
    }
    if stem.is_empty() {
        "scenarios".to_string()
    } else {
        stem
    }
}

/// The name of a line without a NAME, for example `scenarios-0007`.
pub(crate) fn default_name(stem: &str, line: usize) -> String {
    format!("{stem}-{line:04}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_stay_inside_the_folder() {
        for good in ["a", "fig-1a_v2.final", "-v", "A.b-c_9", &"n".repeat(100)] {
            assert_eq!(check_name(good), Ok(()), "{good}");
        }
        let character = |position, found| NameError::Character { position, found };
        assert_eq!(check_name("../evil"), Err(character(3, '/')));
        assert_eq!(check_name("/etc/x"), Err(character(1, '/')));
        assert_eq!(check_name("a/b"), Err(character(2, '/')));
        assert_eq!(check_name("a\\b"), Err(character(2, '\\')));
        assert_eq!(check_name("a\u{1b}[2J"), Err(character(2, '\u{1b}')));
        assert_eq!(check_name("naïve"), Err(character(3, 'ï')));
        assert_eq!(check_name(""), Err(NameError::Empty));
        assert_eq!(check_name(".."), Err(NameError::LeadingDot));
        assert_eq!(check_name(".hidden"), Err(NameError::LeadingDot));
        assert_eq!(check_name("a..b"), Err(NameError::DotDot));
        assert_eq!(
            check_name(&"n".repeat(101)),
            Err(NameError::TooLong { bytes: 101 })
        );
        assert!(character(1, '/').to_string().contains("path separator"));
        assert_eq!(check_name("final."), Err(NameError::TrailingDot));
        for device in [
            "CON", "con", "Nul", "aux.gif", "PRN.a.b", "com1", "LPT9.txt", "com0",
        ] {
            let stem = device.split('.').next().unwrap_or_default().to_string();
            assert_eq!(
                check_name(device),
                Err(NameError::Reserved { device: stem }),
                "{device}"
            );
        }
        for fine in [
            "console", "nul-0001", "com10", "lpt", "xcon", "COMA", "con_1",
        ] {
            assert_eq!(check_name(fine), Ok(()), "{fine}");
        }
    }

    #[test]
    fn default_names_come_from_the_file_stem_and_line() {
        assert_eq!(default_stem("dir/scenarios.txt"), "scenarios");
        assert_eq!(default_stem("-"), "stdin");
        assert_eq!(default_stem("my runs (2).txt"), "my_runs__2_");
        assert_eq!(default_stem("../..hidden..x.txt"), "hidden.x");
        assert_eq!(default_stem("/"), "scenarios");
        let long = default_stem(&"s".repeat(300));
        assert_eq!(check_name(&default_name(&long, 1_000_000_000)), Ok(()));
        assert_eq!(default_name("scenarios", 7), "scenarios-0007");
        assert_eq!(default_name("s", 12345), "s-12345");
    }
}
