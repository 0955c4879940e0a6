//! Writing an output to a path, or to standard output for `-`; what is
//! said of it once written; and the check that a file's name says what is
//! written in it.

use std::io::{self, BufWriter, IsTerminal, Write};
use std::path::Path;

use anyhow::Context;

use super::ending::Ending;

/// Writes `path` through `write`, whole or not at all (see
/// [`reel::write_atomically`]; `temporary_prefix` begins the hidden
/// temporary file's name), with the path in the message of any error.
/// Returns what `write` returned and how many bytes it wrote.
pub fn write_file<T>(
    path: &Path,
    temporary_prefix: &str,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<T>,
) -> anyhow::Result<(T, u64)> {
    reel::write_atomically(path, temporary_prefix, |out| {
        let mut counted = Counted { out, bytes: 0 };
        let written = write(&mut counted)?;
        anyhow::Ok((written, counted.bytes))
    })
    .with_context(|| format!("cannot write {}", path.display()))
}

/// A writer that counts the bytes it passes on.
struct Counted<'a> {
    out: &'a mut dyn Write,
    bytes: u64,
}

impl Write for Counted<'_> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let written = self.out.write(buf)?;
        self.bytes += written as u64;
        Ok(written)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

/// Writes an output (`what`, for example "GIF") to `path` as
/// [`write_file`] does, or to standard output for `-`, but never to a
/// terminal, where it would only be noise. Returns what `write` returned
/// and the bytes written to a file (`None` for standard output).
pub fn write_output<T>(
    path: &Path,
    what: &str,
    temporary_prefix: &str,
    write: impl FnOnce(&mut dyn Write) -> anyhow::Result<T>,
) -> Result<(T, Option<u64>), Ending> {
    if !is_standard_output(path) {
        return write_file(path, temporary_prefix, write)
            .map(|(written, bytes)| (written, Some(bytes)))
            .map_err(Ending::Error);
    }
    if io::stdout().is_terminal() {
        return Err(Ending::Invalid(format!(
            "refusing to write a {what} to a terminal; redirect standard output or give -o FILE"
        )));
    }
    let mut out = BufWriter::new(io::stdout().lock());
    write(&mut out)
        .and_then(|written| {
            out.flush().context("cannot write to standard output")?;
            Ok((written, None))
        })
        .map_err(Ending::Error)
}

/// Refuses, before any work is done, an output file (`what`, for example
/// "the match record") that could not be written at the end: one line
/// naming it and why, nothing written. Standard output (`-`) passes
/// unless it is a terminal, which [`write_output`] refuses.
pub fn check_writable(path: &Path, what: &str, temporary_prefix: &str) -> Result<(), String> {
    if is_standard_output(path) {
        if io::stdout().is_terminal() {
            return Err(format!(
                "refusing to write {what} to a terminal; redirect standard output or name a file"
            ));
        }
        return Ok(());
    }
    reel::check_writable(path, temporary_prefix).map_err(|error| {
        let folder = match path.parent() {
            Some(parent) if !parent.as_os_str().is_empty() => parent,
            _ => Path::new("."),
        };
        let why = match error.kind() {
            io::ErrorKind::NotFound | io::ErrorKind::NotADirectory => {
                format!("there is no folder {}", folder.display())
            }
            io::ErrorKind::PermissionDenied => {
                format!("the folder {} is not writable", folder.display())
            }
            _ => error.to_string(),
        };
        format!("cannot write {what} to {}: {why}", path.display())
    })
}

/// True for `-`, which names standard output (or input) wherever a file
/// name is taken.
pub fn is_standard_output(path: &Path) -> bool {
    path.as_os_str() == "-"
}

/// A size as people read it: `812 bytes`, `27 KB`, `10.4 MB` (powers of
/// 1,000, as file managers and trackers' limits count them).
pub fn size_in_words(bytes: u64) -> String {
    match bytes {
        0..1_000 => format!("{bytes} bytes"),
        1_000..1_000_000 => format!("{} KB", (bytes + 500) / 1_000),
        _ => format!("{:.1} MB", bytes as f64 / 1e6),
    }
}

/// A length of time in hundredths of a second as people read it: `26 s`,
/// `14.6 s`, `0.05 s`; from a minute on `4 min 16 s`, from an hour on
/// `71 h 13 min`.
pub fn duration_in_words(centiseconds: u64) -> String {
    let (whole, part) = (centiseconds / 100, centiseconds % 100);
    if whole >= 3_600 {
        return format!("{} h {} min", whole / 3_600, whole % 3_600 / 60);
    }
    if whole >= 60 {
        return format!("{} min {} s", whole / 60, whole % 60);
    }
    match part {
        0 => format!("{whole} s"),
        _ if part % 10 == 0 => format!("{whole}.{} s", part / 10),
        _ => format!("{whole}.{part:02} s"),
    }
}

/// Refuses a file name whose extension says another format than the
/// `expected` extension (`gif`, `png`) of what is written there: `-o
/// x.png` on an animation would make a GIF named `.png`. Names without an
/// extension (`/dev/stdout`, a FIFO) and `-` pass. `elsewhere` gives, for
/// extensions another command writes, the command to use instead (`png`,
/// "`shubbles png` writes a PNG of the final state").
pub fn check_extension(
    path: &Path,
    expected: &str,
    what: &str,
    elsewhere: &[(&str, &str)],
) -> Result<(), String> {
    let Some(extension) = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
    else {
        return Ok(());
    };
    if extension == expected || is_standard_output(path) {
        return Ok(());
    }
    let hint = match elsewhere.iter().find(|(known, _)| *known == extension) {
        Some((_, instead)) => format!("; {instead}"),
        None => String::new(),
    };
    Err(format!(
        "{}: this writes {what}, which belongs in a .{expected} file{hint}",
        path.display()
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_durations_read_as_people_say_them() {
        let sizes = [0, 812, 999, 1_000, 27_382, 999_499, 999_500, 10_386_871];
        let said: Vec<String> = sizes.into_iter().map(size_in_words).collect();
        assert_eq!(
            said,
            [
                "0 bytes",
                "812 bytes",
                "999 bytes",
                "1 KB",
                "27 KB",
                "999 KB",
                "1000 KB",
                "10.4 MB"
            ]
        );
        let times = [2_600, 1_460, 1_465, 5, 0, 25_650, 25_643_800];
        let said: Vec<String> = times.into_iter().map(duration_in_words).collect();
        assert_eq!(
            said,
            [
                "26 s",
                "14.6 s",
                "14.65 s",
                "0.05 s",
                "0 s",
                "4 min 16 s",
                "71 h 13 min"
            ]
        );
    }

    #[test]
    fn an_extension_of_another_format_is_refused_with_the_command_to_use() {
        let elsewhere = [("png", "`shubbles png` writes a PNG of the final state")];
        let check =
            |name: &str| check_extension(Path::new(name), "gif", "an animated GIF", &elsewhere);
        for fine in ["a.gif", "A.GIF", "-", "/dev/stdout", "out", "dir.v2/out"] {
            assert_eq!(check(fine), Ok(()), "{fine}");
        }
        assert_eq!(
            check("x.png"),
            Err("x.png: this writes an animated GIF, which belongs in a .gif file; `shubbles png` writes a PNG of the final state".to_string())
        );
        assert_eq!(
            check("x.txt"),
            Err("x.txt: this writes an animated GIF, which belongs in a .gif file".to_string())
        );
    }
}
