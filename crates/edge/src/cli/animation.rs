//! What both tools' animated outputs share on the command line: the file
//! format (`--format`, or the extension of `-o`) and a size budget
//! (`--max-size`), met by drawing smaller until the file fits
//! ([`reel::first_that_fits`]).

use std::path::Path;

use clap::Args;
use reel::AnimationFormat;

use super::output::is_standard_output;

/// The format and size options of an animated output.
#[derive(Args, Clone, Copy, Debug, Default)]
pub struct AnimationArgs {
    /// The file format: gif, apng (an animated PNG) or webp (lossless, the
    /// smallest). Default: what the extension of -o says (.gif, .apng or
    /// .png, .webp), else gif.
    #[arg(long, value_name = "FORMAT", value_parser = parse_format)]
    pub format: Option<AnimationFormat>,
    /// Keep the file at or under SIZE (10MB, 500KB, 2MiB, 123456): if it
    /// would be larger, draw it smaller until it fits, and say on standard
    /// error what was chosen; refuse, writing nothing, when even the
    /// smallest legible drawing is larger. 1 MB is 1,000,000 bytes, 1 MiB
    /// 1,048,576.
    #[arg(long, value_name = "SIZE", value_parser = parse_size)]
    pub max_size: Option<u64>,
}

fn parse_format(name: &str) -> Result<AnimationFormat, String> {
    name.parse()
}

/// A size as people write it: bytes, or a number (with a fraction) and a
/// unit, decimal (`KB`, `MB`, `GB`) or binary (`KiB`, `MiB`, `GiB`), in
/// either case, a space allowed between.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let refused = || {
        format!("'{text}' is not a size: expected bytes or a number and a unit, as 10MB, 500KB, 2MiB or 123456")
    };
    let trimmed = text.trim();
    let split = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let scale: u64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "b" => 1,
        "kb" | "k" => 1_000,
        "mb" | "m" => 1_000_000,
        "gb" | "g" => 1_000_000_000,
        "kib" => 1 << 10,
        "mib" => 1 << 20,
        "gib" => 1 << 30,
        _ => return Err(refused()),
    };
    let value: f64 = number.parse().map_err(|_| refused())?;
    let bytes = (value * scale as f64).floor();
    if !(1.0..=u64::MAX as f64).contains(&bytes) {
        return Err(format!("'{text}' is not a size a file can be held to"));
    }
    Ok(bytes as u64)
}

/// The format an animation written to `path` takes: `given` (`--format`)
/// or what the extension says; GIF for standard output or a name without
/// an extension. A name whose extension says another format, or another
/// kind of file (`elsewhere`: extension and what writes it instead, as
/// [`super::check_extension`] takes them), is refused in one line.
pub fn choose_format(
    given: Option<AnimationFormat>,
    path: &Path,
    elsewhere: &[(&str, &str)],
) -> Result<AnimationFormat, String> {
    let Some(extension) = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
        .filter(|_| !is_standard_output(path))
    else {
        return Ok(given.unwrap_or_default());
    };
    match (AnimationFormat::of_path(path), given) {
        (Some(said), Some(given)) if said != given => Err(format!(
            "{}: --format {} writes an animated {}, which belongs in a .{} file",
            path.display(),
            given.name(),
            given.title(),
            given.extensions()[0]
        )),
        (Some(said), _) => Ok(said),
        (None, _) => {
            let hint = match elsewhere.iter().find(|(known, _)| *known == extension) {
                Some((_, instead)) => format!("; {instead}"),
                None => String::new(),
            };
            Err(format!(
                "{}: this writes an animation, which belongs in a .gif, .webp, .apng or .png file{hint}",
                path.display()
            ))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(parse_size("10MB"), Ok(10_000_000));
        assert_eq!(parse_size("10 mb"), Ok(10_000_000));
        assert_eq!(parse_size("2MiB"), Ok(2 * 1_048_576));
        assert_eq!(parse_size("1.5KB"), Ok(1_500));
        assert_eq!(parse_size("123456"), Ok(123_456));
        for bad in ["", "MB", "ten MB", "10 parsecs", "0", "-3MB", "1e3"] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn the_format_is_what_the_name_says_or_what_was_asked() {
        let choose = |given, name: &str| choose_format(given, Path::new(name), &[]);
        assert_eq!(choose(None, "a.gif"), Ok(AnimationFormat::Gif));
        assert_eq!(choose(None, "a.WEBP"), Ok(AnimationFormat::Webp));
        assert_eq!(choose(None, "a.png"), Ok(AnimationFormat::Apng));
        assert_eq!(choose(None, "a.apng"), Ok(AnimationFormat::Apng));
        assert_eq!(choose(None, "a"), Ok(AnimationFormat::Gif));
        assert_eq!(choose(None, "-"), Ok(AnimationFormat::Gif));
        let webp = Some(AnimationFormat::Webp);
        assert_eq!(choose(webp, "-"), Ok(AnimationFormat::Webp));
        assert_eq!(choose(webp, "a"), Ok(AnimationFormat::Webp));
        assert_eq!(
            choose(webp, "a.gif"),
            Err(
                "a.gif: --format webp writes an animated WebP, which belongs in a .webp file"
                    .into()
            )
        );
        assert!(choose(None, "a.txt").is_err());
    }
}
