//! How pictures of the box are drawn and played: the cell size, the
//! opt-in caption and cell numbers, and an animation's loops and hold.

use std::fmt;
use std::sync::Arc;

use reel::{AnimationFormat, Loops};

use crate::model::operation::Operation;

/// The smallest and largest cell size accepted, in pixels: below 4 the grid,
/// inset and wall no longer fit in a cell; above 200 a canvas exceeds what a
/// GIF of reasonable size can hold for a long run.
pub const CELL_SIZES: std::ops::RangeInclusive<u32> = 4..=200;

/// The smallest cell size a size budget (`--max-size`) draws at: the
/// smallest at which a smole's ring and the stot still read at a glance.
pub const SMALLEST_LEGIBLE_CELL_SIZE: u32 = 12;

/// At this cell size or smaller a smooth animation drops pictures a
/// second before it draws smaller still.
const SMOOTH_SHRINKS_RATE_FROM: u32 = 24;

/// How pictures are drawn: the cell size, and the opt-in caption and cell
/// numbers; and how an animation plays: its loops, and how long its last
/// picture holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    cell_size: u32,
    /// The run's operations, to name them in the caption; `None` draws no
    /// caption.
    caption: Option<Arc<[Operation]>>,
    numbers: bool,
    loops: Loops,
    /// In hundredths of a second; `None` for the animation's own.
    hold_cs: Option<u16>,
    format: AnimationFormat,
    smooth_rate: SmoothRate,
}

impl RenderOptions {
    /// The side of a cell when none is given, in pixels.
    pub const DEFAULT_CELL_SIZE: u32 = 40;

    /// Options with cells `cell_size` pixels wide, if that is in
    /// [`CELL_SIZES`].
    pub fn new(cell_size: u32) -> Result<RenderOptions, RenderOptionsError> {
        if CELL_SIZES.contains(&cell_size) {
            Ok(RenderOptions {
                cell_size,
                ..RenderOptions::default()
            })
        } else {
            Err(RenderOptionsError::CellSize { given: cell_size })
        }
    }

    /// Adds a strip under the box naming, on every picture, the operation
    /// of `operations` that made it, its position and the orientation (and
    /// on the last picture of a failed run, what failed).
    pub fn with_caption(mut self, operations: &[Operation]) -> RenderOptions {
        self.caption = Some(operations.into());
        self
    }

    /// Writes each cell's number in its cell, upright whatever the turn.
    pub fn with_numbers(mut self, numbers: bool) -> RenderOptions {
        self.numbers = numbers;
        self
    }

    /// Plays an animation `loops` times (forever by default).
    pub fn with_loops(mut self, loops: Loops) -> RenderOptions {
        self.loops = loops;
        self
    }

    /// Shows an animation's last picture for `hold_cs` hundredths of a
    /// second before it starts again or stops, instead of the animation's
    /// own (1 second for the 1-second GIF, 2 for the smooth one).
    pub fn with_hold(mut self, hold_cs: u16) -> RenderOptions {
        self.hold_cs = Some(hold_cs);
        self
    }

    /// Writes animations as `format` (GIF by default).
    pub fn with_format(mut self, format: AnimationFormat) -> RenderOptions {
        self.format = format;
        self
    }

    /// How many pictures a second a smooth animation shows.
    pub const fn smooth_rate(&self) -> SmoothRate {
        self.smooth_rate
    }

    /// These options, then ever smaller drawings of the same animation, to
    /// try in turn until one fits a size budget: cells a fifth smaller at a
    /// time, down to [`SMALLEST_LEGIBLE_CELL_SIZE`]; a `smooth` animation,
    /// once its cells are at most 24 pixels, first shows 10 and then 5
    /// pictures a second before its cells shrink further.
    pub fn smaller_drawings(&self, smooth: bool) -> Vec<RenderOptions> {
        let mut drawings = vec![self.clone()];
        let mut drawing = self.clone();
        loop {
            let slower = match drawing.smooth_rate {
                SmoothRate::Full => SmoothRate::Half,
                SmoothRate::Half | SmoothRate::Quarter => SmoothRate::Quarter,
            };
            if smooth
                && drawing.cell_size <= SMOOTH_SHRINKS_RATE_FROM
                && slower != drawing.smooth_rate
            {
                drawing.smooth_rate = slower;
            } else if drawing.cell_size > SMALLEST_LEGIBLE_CELL_SIZE {
                drawing.cell_size = (drawing.cell_size * 4 / 5)
                    .min(drawing.cell_size - 1)
                    .max(SMALLEST_LEGIBLE_CELL_SIZE);
            } else {
                return drawings;
            }
            drawings.push(drawing.clone());
        }
    }

    /// The file format of animations.
    pub const fn format(&self) -> AnimationFormat {
        self.format
    }

    /// How many times an animation plays.
    pub const fn loops(&self) -> Loops {
        self.loops
    }

    /// How long an animation's last picture holds, when it was given.
    pub const fn hold_cs(&self) -> Option<u16> {
        self.hold_cs
    }

    /// The side of one cell, in pixels.
    pub const fn cell_size(&self) -> u32 {
        self.cell_size
    }

    /// The operations the caption names, when there is a caption.
    pub fn caption(&self) -> Option<&[Operation]> {
        self.caption.as_deref()
    }

    /// True when each cell's number is written in it.
    pub const fn numbers(&self) -> bool {
        self.numbers
    }

    /// True when pictures have text, which is anti-aliased in blends of
    /// the inks.
    pub(super) fn has_text(&self) -> bool {
        self.caption.is_some() || self.numbers
    }
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            cell_size: RenderOptions::DEFAULT_CELL_SIZE,
            caption: None,
            numbers: false,
            loops: Loops::Forever,
            hold_cs: None,
            format: AnimationFormat::Gif,
            smooth_rate: SmoothRate::Full,
        }
    }
}

/// How many pictures a second a smooth animation shows: all 20, or every
/// second or fourth of them, each for the time of those it stands for (to
/// keep a file small).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum SmoothRate {
    /// 20 pictures a second.
    #[default]
    Full,
    /// 10 pictures a second.
    Half,
    /// 5 pictures a second.
    Quarter,
}

impl SmoothRate {
    /// Pictures a second.
    pub const fn pictures_per_second(self) -> usize {
        match self {
            SmoothRate::Full => 20,
            SmoothRate::Half => 10,
            SmoothRate::Quarter => 5,
        }
    }
}

/// Options that cannot be drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderOptionsError {
    /// A cell size outside [`CELL_SIZES`].
    CellSize {
        /// The size asked for, in pixels.
        given: u32,
    },
}

impl fmt::Display for RenderOptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderOptionsError::CellSize { given } => write!(
                f,
                "a cell size of {given} pixels is not supported: expected {} to {}",
                CELL_SIZES.start(),
                CELL_SIZES.end()
            ),
        }
    }
}

impl std::error::Error for RenderOptionsError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_sizes_outside_the_range_are_refused() {
        assert_eq!(RenderOptions::default().cell_size(), 40);
        assert!(RenderOptions::new(4).is_ok());
        assert!(RenderOptions::new(200).is_ok());
        assert_eq!(
            RenderOptions::new(3),
            Err(RenderOptionsError::CellSize { given: 3 })
        );
        let error = RenderOptions::new(201).unwrap_err();
        assert_eq!(
            error.to_string(),
            "a cell size of 201 pixels is not supported: expected 4 to 200"
        );
    }
}
