//! The replay GIF (§13.1) through the shared pipeline (`reel`): frames
//! derived from a match's events, painted by the [`Renderer`], one at a
//! time; each turn shows one second, the summary three.

use std::io::Write;

use reel::tiny_skia::Pixmap;
use reel::{write_reel, AnimationFormat, EncodeError, Painter, Palette, Playback, Shot};

use super::inks::palette;
use super::renderer::{DrawOptions, Renderer};
use crate::model::event::{Entry, Event};
use crate::rules::frames::{Frame, FrameKind, Frames};

/// How long a frame shows by default, in GIF units of 10 ms.
pub const FRAME_DELAY_CENTISECONDS: u16 = 100;

/// How long the summary shows: three times a frame (§13.1).
pub const SUMMARY_DELAYS: u16 = 3;

/// What a replay shows and how.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReplayOptions {
    /// How pictures are drawn.
    pub draw: DrawOptions,
    /// How long each frame shows, in hundredths of a second.
    pub delay_cs: u16,
    /// Only this game, and no summary.
    pub game: Option<u8>,
    /// Begin each game at this turn.
    pub from_turn: Option<u32>,
    /// The file format.
    pub format: AnimationFormat,
}

impl Default for ReplayOptions {
    fn default() -> Self {
        ReplayOptions {
            draw: DrawOptions::default(),
            delay_cs: FRAME_DELAY_CENTISECONDS,
            game: None,
            from_turn: None,
            format: AnimationFormat::Gif,
        }
    }
}

/// The smallest cell a size budget (`--max-size`) draws a replay with:
/// the smallest `replay --cell` takes, where a cell's count still reads.
pub const SMALLEST_LEGIBLE_CELL: u32 = 24;

impl ReplayOptions {
    /// These options, then ever smaller drawings of the same replay, to try
    /// in turn until one fits a size budget: cells a fifth smaller at a
    /// time, down to [`SMALLEST_LEGIBLE_CELL`].
    pub fn smaller_drawings(&self) -> Vec<ReplayOptions> {
        let mut drawings = vec![*self];
        let mut drawing = *self;
        while drawing.draw.cell > SMALLEST_LEGIBLE_CELL {
            let cell = drawing.draw.cell;
            drawing.draw.cell = (cell * 4 / 5).min(cell - 1).max(SMALLEST_LEGIBLE_CELL);
            drawings.push(drawing);
        }
        drawings
    }
}

struct ReplayPainter<'a>(&'a Renderer);

impl Painter for ReplayPainter<'_> {
    type Picture = Frame;

    fn canvas_size(&self) -> (u32, u32) {
        self.0.canvas_size()
    }

    fn palette(&self) -> &Palette {
        palette()
    }

    fn paint(&self, frame: &Frame, canvas: &mut Pixmap) {
        self.0.paint(frame, canvas);
    }
}

/// The renderer for the match of `records`: its canvas holds the larger
/// field of the two games.
pub fn renderer_for(entries: &[Entry], options: DrawOptions) -> Renderer {
    let mut canvas = CanvasFit::default();
    entries.iter().for_each(|entry| canvas.take(entry));
    canvas.renderer(options)
}

/// The field a replay's canvas must hold, gathered one record at a time:
/// the larger of the two games' fields, row by row and column by column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CanvasFit {
    rows: u8,
    columns: u8,
}

impl Default for CanvasFit {
    fn default() -> Self {
        CanvasFit {
            rows: 1,
            columns: 1,
        }
    }
}

impl CanvasFit {
    /// Takes the next record of the match into account.
    pub fn take(&mut self, entry: &Entry) {
        if let Event::GameStart(game) = &entry.event {
            let size = game.params.field.size();
            self.rows = self.rows.max(size.rows);
            self.columns = self.columns.max(size.columns);
        }
    }

    /// The renderer of a canvas this size.
    pub fn renderer(self, options: DrawOptions) -> Renderer {
        Renderer::new(options, self.rows, self.columns)
    }
}

/// True when `frame` is in the replay `options` ask for.
fn shown(frame: &Frame, options: &ReplayOptions) -> bool {
    if let Some(game) = options.game {
        if frame.state.game != game || matches!(frame.kind, FrameKind::Summary(_)) {
            return false;
        }
    }
    match (&frame.kind, options.from_turn) {
        (FrameKind::Start, Some(from)) => from == 0,
        (FrameKind::Turn(turn), Some(from)) => turn.number >= from,
        _ => true,
    }
}

/// Writes the replay GIF of the match whose events are `records` to `out`
/// and returns how many frames it holds.
pub fn write_replay<W: Write>(
    entries: &[Entry],
    options: &ReplayOptions,
    out: W,
) -> Result<usize, EncodeError> {
    let renderer = renderer_for(entries, options.draw);
    write_replay_streamed(entries.iter().cloned(), &renderer, options, out)
}

/// [`write_replay`] of a match whose records arrive one at a time (from a
/// referee reading the log), drawn as they come with `renderer` (whose
/// canvas a first reading sized, [`CanvasFit`]): memory stays flat however
/// long the match.
pub fn write_replay_streamed<W: Write>(
    entries: impl Iterator<Item = Entry>,
    renderer: &Renderer,
    options: &ReplayOptions,
    out: W,
) -> Result<usize, EncodeError> {
    let shots = Frames::new(entries)
        .filter(|frame| shown(frame, options))
        .map(|frame| {
            let delay_cs = match frame.kind {
                FrameKind::Summary(_) => options.delay_cs.saturating_mul(SUMMARY_DELAYS),
                _ => options.delay_cs,
            };
            Shot {
                picture: frame,
                delay_cs,
            }
        });
    // Every turn is a frame of the replay, even one that changes nothing.
    let playback = Playback::default();
    Ok(write_reel(
        &ReplayPainter(renderer),
        shots,
        &playback,
        options.format,
        out,
    )?
    .frames)
}
