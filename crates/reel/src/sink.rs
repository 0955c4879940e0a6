//! What each animation format's writer does with the pictures of a reel
//! ([`crate::write_reel`] streams them into one): the seam between the
//! reel and the GIF, APNG and WebP writers.

use std::io::Write;

use tiny_skia::Pixmap;

use crate::error::EncodeError;
use crate::gif_writer::{GifWriter, Rectangle, ReelSummary};

/// What each format's writer does with the pictures of a reel.
pub(crate) trait AnimationSink {
    /// The first picture, or one that may differ anywhere.
    fn push(&mut self, canvas: &Pixmap, delay_cs: u16) -> Result<(), EncodeError> {
        self.push_region(canvas, Rectangle::whole(canvas), delay_cs)
    }
    /// A picture that differs from the one before only within `region`.
    fn push_region(
        &mut self,
        canvas: &Pixmap,
        region: Rectangle,
        delay_cs: u16,
    ) -> Result<(), EncodeError>;
    /// The picture before, again.
    fn push_unchanged(&mut self, delay_cs: u16) -> Result<(), EncodeError>;
    /// Ends the file.
    fn finish(self) -> Result<ReelSummary, EncodeError>;
}

impl<W: Write> AnimationSink for GifWriter<'_, W> {
    fn push_region(
        &mut self,
        canvas: &Pixmap,
        region: Rectangle,
        delay_cs: u16,
    ) -> Result<(), EncodeError> {
        GifWriter::push_region(self, canvas, region, delay_cs)
    }

    fn push_unchanged(&mut self, delay_cs: u16) -> Result<(), EncodeError> {
        GifWriter::push_unchanged(self, delay_cs)
    }

    fn finish(self) -> Result<ReelSummary, EncodeError> {
        Ok(GifWriter::finish(self)?.1)
    }
}
