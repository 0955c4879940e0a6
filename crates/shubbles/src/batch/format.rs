//! What each scenario of a batch is rendered as, and the writing of one
//! scenario in each format.

use std::fmt;
use std::io::Write;
use std::str::FromStr;

use reel::{first_that_fits, write_png, AnimationFormat, EncodeError, ReelSummary, Unfitted};

use crate::draw::animation::write_gif;
use crate::draw::options::RenderOptions;
use crate::draw::renderer::Renderer;
use crate::draw::smooth::write_smooth_gif;
use crate::formats::ascii::picture;
use crate::rules::scenario::{Outcome, Scenario};

/// What each scenario is rendered as.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// The animated GIF of `shubbles gif`.
    Gif,
    /// The 20 frames-per-second GIF of `shubbles smooth`.
    Smooth,
    /// `gif` as an animated WebP (`shubbles gif -o FILE.webp`).
    Webp,
    /// `smooth` as an animated WebP.
    SmoothWebp,
    /// `gif` as an animated PNG (`shubbles gif -o FILE.apng`).
    Apng,
    /// `smooth` as an animated PNG.
    SmoothApng,
    /// The last frame as a PNG picture.
    Png,
    /// What `shubbles text` prints: the final state or `!`.
    Text,
    /// What `shubbles ascii` prints: the final picture or `!`.
    Ascii,
}

impl Format {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [Format; 9] = [
        Format::Gif,
        Format::Smooth,
        Format::Webp,
        Format::SmoothWebp,
        Format::Apng,
        Format::SmoothApng,
        Format::Png,
        Format::Text,
        Format::Ascii,
    ];

    /// The name users give to `--format`.
    pub const fn name(self) -> &'static str {
        match self {
            Format::Gif => "gif",
            Format::Smooth => "smooth",
            Format::Webp => "webp",
            Format::SmoothWebp => "smooth-webp",
            Format::Apng => "apng",
            Format::SmoothApng => "smooth-apng",
            Format::Png => "png",
            Format::Text => "text",
            Format::Ascii => "ascii",
        }
    }

    /// The extension of the files written, without the dot.
    pub const fn extension(self) -> &'static str {
        match self {
            Format::Gif | Format::Smooth => "gif",
            Format::Webp | Format::SmoothWebp => "webp",
            Format::Apng | Format::SmoothApng => "apng",
            Format::Png => "png",
            Format::Text | Format::Ascii => "txt",
        }
    }
}

impl Format {
    /// For an animation, whether it is the smooth one and its file format.
    pub const fn animation(self) -> Option<(bool, AnimationFormat)> {
        match self {
            Format::Gif => Some((false, AnimationFormat::Gif)),
            Format::Smooth => Some((true, AnimationFormat::Gif)),
            Format::Webp => Some((false, AnimationFormat::Webp)),
            Format::SmoothWebp => Some((true, AnimationFormat::Webp)),
            Format::Apng => Some((false, AnimationFormat::Apng)),
            Format::SmoothApng => Some((true, AnimationFormat::Apng)),
            Format::Png | Format::Text | Format::Ascii => None,
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A `--format` that is not one of [`Format::ALL`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownFormat(pub String);

impl fmt::Display for UnknownFormat {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let known: Vec<&str> = Format::ALL.iter().map(|format| format.name()).collect();
        write!(
            f,
            "unknown format {:?}: expected one of {}",
            self.0,
            known.join(", ")
        )
    }
}

impl std::error::Error for UnknownFormat {}

impl FromStr for Format {
    type Err = UnknownFormat;

    fn from_str(name: &str) -> Result<Format, UnknownFormat> {
        Format::ALL
            .into_iter()
            .find(|format| format.name() == name)
            .ok_or_else(|| UnknownFormat(name.to_string()))
    }
}

/// What [`Format::write`] wrote.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Written {
    /// How the run ended.
    pub outcome: Outcome,
    /// The animation's frames, for the animated formats.
    pub frames: Option<usize>,
    /// The smaller drawing a size budget chose, when the one asked for
    /// was over it.
    pub drawn_smaller: Option<RenderOptions>,
}

impl Format {
    /// Writes what this format shows of `scenario` to `out` and returns how
    /// the run ended (and the animation's frames). The bytes are exactly
    /// those of the single-scenario command of the same name (`shubbles
    /// gif`, `smooth`, `text`, `ascii`; `png` is the last frame; the WebP
    /// and APNG formats are `gif` and `smooth` written to such a file).
    /// An animation over `max_size` bytes is drawn smaller until it fits,
    /// as `--max-size` does ([`RenderOptions::smaller_drawings`]), or not
    /// written ([`EncodeError::OverBudget`]).
    pub fn write(
        self,
        scenario: &Scenario,
        options: &RenderOptions,
        max_size: Option<u64>,
        mut out: impl Write,
    ) -> Result<Written, EncodeError> {
        let outcome = scenario.run();
        if let Some((smooth, file)) = self.animation() {
            let (summary, drawn_smaller) =
                write_animation(scenario, options, smooth, file, max_size, out)?;
            return Ok(Written {
                outcome,
                frames: Some(summary.frames),
                drawn_smaller,
            });
        }
        match self {
            Format::Png => {
                // There is always frame 0, the start, so `last` finds one.
                if let Some(frame) = scenario.frames().last() {
                    write_png(&Renderer::new(options).render(&frame), out)?;
                }
            }
            Format::Text => {
                out.write_all((outcome.result() + "\n").as_bytes())?;
                out.flush()?;
            }
            // Ascii, the last format without an animation.
            _ => {
                let text = match outcome.failure {
                    Some(_) => "!\n".to_string(),
                    None => picture(&outcome.state),
                };
                out.write_all(text.as_bytes())?;
                out.flush()?;
            }
        }
        Ok(Written {
            outcome,
            frames: None,
            drawn_smaller: None,
        })
    }
}

/// Writes the animation (`smooth` or one frame a second) of `scenario` as
/// `file` to `out`, within `max_size` when given; returns what was written
/// and the smaller drawing chosen, if one was.
fn write_animation(
    scenario: &Scenario,
    options: &RenderOptions,
    smooth: bool,
    file: AnimationFormat,
    max_size: Option<u64>,
    mut out: impl Write,
) -> Result<(ReelSummary, Option<RenderOptions>), EncodeError> {
    let options = options.clone().with_format(file);
    let write = |options: &RenderOptions, out: &mut dyn Write| {
        if smooth {
            write_smooth_gif(scenario.frames(), options, out)
        } else {
            write_gif(scenario.frames(), options, out)
        }
    };
    let Some(budget) = max_size else {
        return Ok((write(&options, &mut out)?, None));
    };
    match first_that_fits(budget, options.smaller_drawings(smooth), write) {
        Ok((chosen, summary, bytes)) => {
            out.write_all(&bytes)?;
            out.flush()?;
            Ok((summary, (chosen != options).then_some(chosen)))
        }
        Err(Unfitted::TooLarge) => Err(EncodeError::OverBudget { budget }),
        Err(Unfitted::Failed(error)) => Err(error),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const FIGURE_1A: &str = ".........@...o....ooo..xox...";

    #[test]
    fn formats_have_names_and_extensions() {
        for format in Format::ALL {
            assert_eq!(format.name().parse::<Format>(), Ok(format));
        }
        assert_eq!(Format::Ascii.extension(), "txt");
        assert_eq!(Format::Smooth.extension(), "gif");
        let unknown = "jpeg".parse::<Format>().unwrap_err();
        assert_eq!(
            unknown.to_string(),
            "unknown format \"jpeg\": expected one of gif, smooth, webp, smooth-webp, apng, smooth-apng, png, text, ascii"
        );
    }

    #[test]
    fn text_outputs_are_what_the_commands_print() {
        let output = |state, ops, format: Format| {
            let scenario = Scenario::parse(state, ops, false).unwrap();
            let mut bytes = Vec::new();
            format
                .write(&scenario, &RenderOptions::default(), None, &mut bytes)
                .unwrap();
            String::from_utf8(bytes).unwrap()
        };
        assert_eq!(
            output(FIGURE_1A, "+>|<-v+^+", Format::Text),
            "o........@..o....oox...xo....\n"
        );
        assert_eq!(output(FIGURE_1A, "+^^", Format::Text), "!\n");
        assert_eq!(output(FIGURE_1A, "+^^", Format::Ascii), "!\n");
        assert_eq!(
            output(FIGURE_1A, "+", Format::Ascii),
            "  .  .\n .....\n .....\n .o...\n xo.@.\n ooo..\n*x  .\n"
        );
    }
}
