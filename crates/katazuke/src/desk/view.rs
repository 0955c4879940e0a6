//! What the desk's pages show of the match: the board as the replay GIF
//! draws it (the same renderer, the same inks and layout), its caption,
//! and where each cell lies in the picture, so that a page can let people
//! click cells.

use crate::draw::animation::CanvasFit;
use crate::draw::renderer::DrawOptions;
use crate::formats::caption::caption;
use crate::log::reader::read_unfinished;
use crate::rules::frames::FrameFold;
use crate::rules::game::Policy;

/// The board's picture as it stands, and its words.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Picture {
    /// A PNG.
    pub png: Vec<u8>,
    /// Its size, pixels.
    pub size: (u32, u32),
    /// The caption's line: what the last turn did (or the start, the end).
    pub caption: String,
    /// Its second line, if any.
    pub detail: Option<String>,
    /// Each cell's square in the picture, row by row: left, top, side.
    pub cells: Vec<(i32, i32, i32)>,
}

/// The picture of the last frame of `record` (a log that may stop
/// anywhere), or none before the first game starts.
pub fn picture(record: &str) -> Option<Picture> {
    // One reading: the canvas fitted and the frames folded as the entries
    // come, the last frame kept.
    let (mut fit, mut fold, mut last) = (CanvasFit::default(), FrameFold::default(), None);
    read_unfinished(record.as_bytes(), Policy::Strict, |entry| {
        fit.take(entry);
        if let Some(frame) = fold.push(entry.clone()) {
            last = Some(frame);
        }
    });
    let frame = last?;
    let renderer = fit.renderer(DrawOptions {
        comments: true,
        ..DrawOptions::default()
    });
    let pixmap = renderer.render(&frame)?;
    let mut png = Vec::new();
    reel::write_png(&pixmap, &mut png).ok()?;
    let size = frame.state.size();
    let cells = size.all().map(|cell| renderer.cell_rect(cell)).collect();
    let (caption, detail) = caption(&frame, true);
    Some(Picture {
        png,
        size: renderer.canvas_size(),
        caption,
        detail,
        cells,
    })
}
