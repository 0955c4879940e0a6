//! The animated WebP encoder behind [`crate::write_reel`]: lossless, by
//! libwebp itself (its animation encoder, through the `webp-animation`
//! binding, built from source and linked statically, so every machine
//! writes the same bytes).
//!
//! libwebp was measured against a pure-Rust encoder (`image-webp`, whose
//! frames were wrapped by hand): on the demo 5,178 against about 9,600
//! bytes, and on the smooth demo, whose sliding creatures have blended
//! edges, 216 KB against 518 KB, more than the GIF's 243 KB. libwebp
//! finds each frame's changed rectangle and its transparency itself; it
//! is given whole pictures, in the palette's colours (a pixel of another
//! colour becomes the nearest entry, as in the GIF and the APNG, so that
//! every format shows the same). It keeps the frames it has compressed until
//! the end (a WebP file states its length first), so memory grows with
//! the file's size, not with the pictures'.

use std::io::Write;

use tiny_skia::Pixmap;
use webp_animation::prelude::{Encoder, EncoderOptions, EncodingConfig, EncodingType};
use webp_animation::AnimParams;

use crate::decode::animation_frame_count;
use crate::error::EncodeError;
use crate::gif_writer::{Playback, Rectangle, ReelSummary};
use crate::palette::{Lookup, Palette};
use crate::sink::AnimationSink;

/// The longest side a WebP picture may have.
const MAX_SIDE: u32 = 16_383;

/// An animated WebP being written, one picture at a time.
pub(crate) struct WebpWriter<'p, W: Write> {
    out: W,
    encoder: Encoder,
    palette: &'p Palette,
    /// The picture being shown, in palette colours, RGBA.
    shown: Vec<u8>,
    width: usize,
    playback: Playback,
    /// How long the pictures pushed so far show in all, in milliseconds.
    elapsed_ms: i64,
    /// How long what a GIF of the same pictures would have as its last
    /// frame shows, in milliseconds: the part the hold replaces.
    last_frame_ms: i64,
    /// Frames a GIF of the same pictures and playback would have: the
    /// file's own count comes from libwebp at the end.
    frames_written: usize,
    duration_cs: u64,
}

impl<'p, W: Write> WebpWriter<'p, W> {
    /// An animated WebP of pictures of `width` by `height`.
    pub(crate) fn new(
        out: W,
        (width, height): (u32, u32),
        palette: &'p Palette,
        playback: &Playback,
    ) -> Result<WebpWriter<'p, W>, EncodeError> {
        if width == 0 || height == 0 || width > MAX_SIDE || height > MAX_SIDE {
            return Err(EncodeError::Canvas { width, height });
        }
        let options = EncoderOptions {
            anim_params: AnimParams {
                loop_count: i32::from(playback.loops.plays()),
            },
            // Lossless, at libwebp's default effort (method 4 of 0 to 6);
            // key frames (whole pictures now and then, for seeking) off,
            // as a GIF has none: measured smaller and twice as fast.
            encoding_config: Some(EncodingConfig {
                encoding_type: EncodingType::Lossless,
                quality: 100.0,
                method: 4,
            }),
            ..EncoderOptions::default()
        };
        let encoder = Encoder::new_with_options((width, height), options)?;
        Ok(WebpWriter {
            out,
            encoder,
            palette,
            shown: vec![0; width as usize * height as usize * 4],
            width: width as usize,
            playback: *playback,
            elapsed_ms: 0,
            last_frame_ms: 0,
            frames_written: 0,
            duration_cs: 0,
        })
    }

    /// Adds a shot's time.
    fn advance(&mut self, delay_cs: u16) {
        let ms = i64::from(delay_cs) * 10;
        self.duration_cs += u64::from(delay_cs);
        self.elapsed_ms += ms;
        self.last_frame_ms += ms;
    }
}

impl<W: Write> AnimationSink for WebpWriter<'_, W> {
    /// Appends `pixmap`, an opaque picture of the canvas that differs from
    /// the one before only within `region` (all of it for the first), shown
    /// for `delay_cs` hundredths of a second.
    fn push_region(
        &mut self,
        pixmap: &Pixmap,
        region: Rectangle,
        delay_cs: u16,
    ) -> Result<(), EncodeError> {
        let region = if self.frames_written == 0 {
            Rectangle::whole(pixmap)
        } else {
            region.within(self.width, self.shown.len() / 4 / self.width)
        };
        let pixels = pixmap.data().as_chunks::<4>().0;
        let shown = self.shown.as_chunks_mut::<4>().0;
        let colours = self.palette.colours();
        let mut lookup = Lookup::new(self.palette);
        for y in region.top..region.top + region.height {
            let row = y * self.width + region.left..y * self.width + region.left + region.width;
            for (to, &pixel) in shown[row.clone()].iter_mut().zip(&pixels[row]) {
                // Every picture is painted over all of its canvas: opaque.
                let [r, g, b] = colours[usize::from(lookup.index(pixel))];
                *to = [r, g, b, 255];
            }
        }
        self.encoder
            .add_frame(&self.shown, milliseconds(self.elapsed_ms)?)?;
        self.frames_written += 1;
        self.last_frame_ms = 0;
        self.advance(delay_cs);
        Ok(())
    }

    /// Appends the picture before again. libwebp folds equal pictures into
    /// one frame of their summed time whatever is asked, so this only
    /// adds the time.
    fn push_unchanged(&mut self, delay_cs: u16) -> Result<(), EncodeError> {
        if !self.playback.fold_repeats {
            self.frames_written += 1;
            self.last_frame_ms = 0;
        }
        self.advance(delay_cs);
        Ok(())
    }

    /// Ends the animation (the last picture showing for the hold when
    /// there is one), writes the file, flushed, and says what was written.
    fn finish(mut self) -> Result<ReelSummary, EncodeError> {
        if self.frames_written == 0 {
            return Err(EncodeError::NoPictures);
        }
        let end_ms = match self.playback.hold_cs {
            // The hold replaces the last frame's own time, as in the GIF.
            Some(hold) => {
                let last_cs = (self.last_frame_ms / 10) as u64;
                self.duration_cs = self.duration_cs - last_cs + u64::from(hold);
                self.elapsed_ms - self.last_frame_ms + i64::from(hold) * 10
            }
            None => self.elapsed_ms,
        };
        let data = self.encoder.finalize(milliseconds(end_ms)?)?;
        self.out.write_all(&data)?;
        self.out.flush()?;
        let summary = ReelSummary {
            // libwebp folds equal pictures in a row into one frame: the
            // count is the file's.
            frames: animation_frame_count(&data).unwrap_or(self.frames_written),
            duration_cs: self.duration_cs,
        };
        Ok(summary)
    }
}

/// A time stamp as libwebp takes it; an animation of over 24 days has none.
fn milliseconds(ms: i64) -> Result<i32, EncodeError> {
    i32::try_from(ms).map_err(|_| EncodeError::TooLong { milliseconds: ms })
}
