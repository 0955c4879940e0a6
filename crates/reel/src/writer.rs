//! The animated GIF, streamed one picture at a time, and the seam through
//! which a game's pictures reach it.
//!
//! A game implements [`Painter`]: the size of its canvas, its fixed
//! [`Palette`], and how to paint one of its pictures. [`write_reel`] takes
//! a painter and the [`Shot`]s to show (a picture and how long it stays)
//! and writes the GIF: the palette is the global colour table, so no
//! picture is quantized, and each picture after the first stores only the
//! rectangle of pixels that changed (disposal "keep"), so a long run of
//! small changes stays small. Only the previous picture is kept: memory
//! does not grow with the length of the animation.

use std::borrow::Cow;
use std::io::{BufWriter, Write};

use gif::{DisposalMethod, Encoder, Repeat};
use tiny_skia::Pixmap;

use crate::error::EncodeError;
use crate::lzw::LzwEncoder;
use crate::palette::{Lookup, Palette};

/// What a game gives the GIF writer: its canvas, its palette, and a way to
/// paint its pictures.
pub trait Painter {
    /// One picture of the game, as the game describes it (a frame, a
    /// moment between two frames, a summary).
    type Picture;

    /// Width and height of every picture, in pixels.
    fn canvas_size(&self) -> (u32, u32);

    /// The colours pictures are painted with. Pixels of other colours are
    /// written as the nearest entry.
    fn palette(&self) -> &Palette;

    /// Paints `picture` over all of `canvas`, a pixmap of
    /// [`Painter::canvas_size`] that holds the previous picture.
    fn paint(&self, picture: &Self::Picture, canvas: &mut Pixmap);
}

/// One picture of an animation and how long it shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shot<P> {
    /// What to paint.
    pub picture: P,
    /// How long it shows, in hundredths of a second (GIF's unit).
    pub delay_cs: u16,
}

/// Writes the animated GIF of `shots`, painted by `painter`, to `out`, and
/// returns how many pictures it holds. A shot whose picture equals the one
/// before is not painted again.
pub fn write_reel<P, W>(
    painter: &P,
    shots: impl IntoIterator<Item = Shot<P::Picture>>,
    out: W,
) -> Result<usize, EncodeError>
where
    P: Painter,
    P::Picture: PartialEq,
    W: Write,
{
    let (width, height) = painter.canvas_size();
    let mut gif = GifWriter::new(out, (width, height), painter.palette())?;
    let mut canvas = Pixmap::new(width, height).ok_or(EncodeError::Canvas { width, height })?;
    let mut previous: Option<P::Picture> = None;
    for shot in shots {
        if previous.as_ref() == Some(&shot.picture) {
            gif.push_unchanged(shot.delay_cs)?;
        } else {
            painter.paint(&shot.picture, &mut canvas);
            gif.push(&canvas, shot.delay_cs)?;
        }
        previous = Some(shot.picture);
    }
    let count = gif.frames_written();
    gif.finish()?;
    Ok(count)
}

/// An animated GIF being written, one picture at a time: pictures are
/// compared as drawn and only the changed rectangle is mapped to palette
/// indices (mapping every pixel of every picture was a third of the work
/// of a long run). Holds one previous picture only.
pub struct GifWriter<'p, W: Write> {
    encoder: Encoder<BufWriter<W>>,
    palette: &'p Palette,
    width: usize,
    /// The pixels of the picture before, as drawn.
    previous: Vec<[u8; 4]>,
    /// The changed rectangle of the current picture, mapped for the
    /// encoder.
    patch: Vec<u8>,
    /// Compressing here rather than in the `gif` crate gives the same
    /// bytes, only faster (see the `lzw` module).
    lzw: LzwEncoder,
    compressed: Vec<u8>,
    frames_written: usize,
}

impl<'p, W: Write> GifWriter<'p, W> {
    /// Starts the GIF: header, `palette` as the global colour table and
    /// "loop forever".
    pub fn new(
        out: W,
        (width, height): (u32, u32),
        palette: &'p Palette,
    ) -> Result<GifWriter<'p, W>, EncodeError> {
        let too_large = EncodeError::Canvas { width, height };
        let (Ok(gif_width), Ok(gif_height)) = (u16::try_from(width), u16::try_from(height)) else {
            return Err(too_large);
        };
        if gif_width == 0 || gif_height == 0 {
            return Err(too_large);
        }
        // The encoder writes many small blocks; buffer them.
        let mut encoder = Encoder::new(
            BufWriter::new(out),
            gif_width,
            gif_height,
            &palette.rgb_bytes(),
        )?;
        encoder.set_repeat(Repeat::Infinite)?;
        Ok(GifWriter {
            encoder,
            palette,
            width: width as usize,
            previous: Vec::new(),
            patch: Vec::new(),
            lzw: LzwEncoder::default(),
            compressed: Vec::new(),
            frames_written: 0,
        })
    }

    /// Appends `pixmap`, a canvas of the size given to `new`, shown for
    /// `delay` hundredths of a second.
    pub fn push(&mut self, pixmap: &Pixmap, delay: u16) -> Result<(), EncodeError> {
        let now = pixels(pixmap);
        let width = self.width;
        let (changed, transparent) = if self.frames_written == 0 {
            self.palette.indices_into(pixmap, &mut self.patch);
            let whole = Rectangle {
                left: 0,
                top: 0,
                width,
                height: now.len() / width,
            };
            (whole, None)
        } else {
            let changed = changed_rectangle(&self.previous, now, width);
            (changed, self.fill_patch(now, changed))
        };
        self.compressed.clear();
        self.lzw.encode(&self.patch, &mut self.compressed);
        // Every coordinate is within the canvas, whose sides fit in u16 in
        // `new`.
        let to_u16 = |n: usize| n as u16;
        let gif_frame = gif::Frame {
            delay,
            dispose: DisposalMethod::Keep,
            transparent,
            left: to_u16(changed.left),
            top: to_u16(changed.top),
            width: to_u16(changed.width),
            height: to_u16(changed.height),
            buffer: Cow::Borrowed(&self.compressed),
            ..gif::Frame::default()
        };
        self.encoder.write_lzw_pre_encoded_frame(&gif_frame)?;
        self.previous.clear();
        self.previous.extend_from_slice(now);
        self.frames_written += 1;
        Ok(())
    }

    /// Appends the picture before again: the same bytes [`GifWriter::push`]
    /// writes for an unchanged picture (one transparent pixel), without
    /// comparing a canvas to find that out. Only after a first `push`.
    pub fn push_unchanged(&mut self, delay: u16) -> Result<(), EncodeError> {
        debug_assert!(self.frames_written > 0, "nothing to repeat yet");
        let gif_frame = gif::Frame {
            delay,
            dispose: DisposalMethod::Keep,
            transparent: Some(0),
            width: 1,
            height: 1,
            buffer: Cow::Borrowed(&[0]),
            ..gif::Frame::default()
        };
        self.encoder.write_frame(&gif_frame)?;
        self.frames_written += 1;
        Ok(())
    }

    /// Maps the changed rectangle of `now` into `patch`. Pixels that did not
    /// change are written as a palette index the changed pixels do not use,
    /// declared transparent: the previous picture shows through, and long
    /// runs of one index compress far better (this is most of what
    /// `gifsicle -O3` would otherwise save).
    fn fill_patch(&mut self, now: &[[u8; 4]], changed: Rectangle) -> Option<u8> {
        let width = self.width;
        let span =
            |row: usize| row * width + changed.left..row * width + changed.left + changed.width;
        let before = &self.previous;
        // Unchanged pixels are marked with an index past the palette until
        // the changed ones have shown which index is free. A full palette
        // of 256 has no index past it: its pictures are stored whole below.
        const UNCHANGED: u8 = u8::MAX;
        let mut used = [false; 256];
        let mut lookup = Lookup::new(self.palette);
        self.patch.clear();
        for row in changed.top..changed.top + changed.height {
            for (now, before) in now[span(row)].iter().zip(&before[span(row)]) {
                let index = if now == before {
                    UNCHANGED
                } else {
                    let index = lookup.index(*now);
                    used[usize::from(index)] = true;
                    index
                };
                self.patch.push(index);
            }
        }
        let free = if self.palette.len() <= usize::from(UNCHANGED) {
            (0..self.palette.len()).find(|&i| !used[i])
        } else {
            None
        };
        match free {
            Some(free) => {
                let free = free as u8;
                for index in self.patch.iter_mut().filter(|i| **i == UNCHANGED) {
                    *index = free;
                }
                Some(free)
            }
            // Every palette entry changes somewhere in the rectangle, so no
            // index can stand for "unchanged": store the pixels themselves.
            None => {
                self.patch.clear();
                for row in changed.top..changed.top + changed.height {
                    self.patch
                        .extend(now[span(row)].iter().map(|pixel| lookup.index(*pixel)));
                }
                None
            }
        }
    }

    /// How many pictures have been appended.
    pub fn frames_written(&self) -> usize {
        self.frames_written
    }

    /// Ends the GIF and hands back the output, flushed.
    pub fn finish(self) -> Result<W, EncodeError> {
        let buffered = self.encoder.into_inner()?;
        buffered
            .into_inner()
            .map_err(|error| EncodeError::Io(error.into_error()))
    }
}

/// The pixels of a picture, one RGBA quadruple each.
fn pixels(pixmap: &Pixmap) -> &[[u8; 4]] {
    pixmap.data().as_chunks::<4>().0
}

/// A rectangle of the canvas, in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rectangle {
    /// Pixels from the canvas's left edge.
    pub left: usize,
    /// Pixels from the canvas's top edge.
    pub top: usize,
    /// Pixels across.
    pub width: usize,
    /// Pixels down.
    pub height: usize,
}

/// The smallest rectangle holding every pixel that differs; a single pixel
/// when nothing does, because a GIF frame cannot be empty and the frame must
/// still be there to take its time.
fn changed_rectangle<T: PartialEq>(previous: &[T], current: &[T], width: usize) -> Rectangle {
    let rows = previous
        .chunks_exact(width)
        .zip(current.chunks_exact(width));
    let mut bounds: Option<(usize, usize, usize, usize)> = None;
    for (y, (before, after)) in rows.enumerate() {
        if before == after {
            continue;
        }
        let differs = |(a, b): (&T, &T)| a != b;
        let pairs = || before.iter().zip(after.iter());
        let first = pairs().position(differs).unwrap_or(0);
        let last = width - 1 - pairs().rev().position(differs).unwrap_or(0);
        bounds = Some(match bounds {
            None => (first, y, last, y),
            Some((left, top, right, _)) => (left.min(first), top, right.max(last), y),
        });
    }
    match bounds {
        Some((left, top, right, bottom)) => Rectangle {
            left,
            top,
            width: right - left + 1,
            height: bottom - top + 1,
        },
        None => Rectangle {
            left: 0,
            top: 0,
            width: 1,
            height: 1,
        },
    }
}

#[cfg(test)]
mod tests {
    use std::io;

    use tiny_skia::{Color, Paint, Rect, Transform};

    use super::*;
    use crate::decode::decode_gif;

    const INKS: [[u8; 3]; 3] = [[236, 239, 243], [30, 100, 220], [214, 40, 40]];

    /// Squares on a background: picture `n` is a blue square at `n` pixels
    /// from the left, and a red one when `n` is odd.
    struct Squares(Palette);

    impl Squares {
        fn new() -> Squares {
            Squares(Palette::new(INKS.to_vec()).unwrap())
        }
    }

    impl Painter for Squares {
        type Picture = u32;

        fn canvas_size(&self) -> (u32, u32) {
            (64, 48)
        }

        fn palette(&self) -> &Palette {
            &self.0
        }

        fn paint(&self, &n: &u32, canvas: &mut Pixmap) {
            let [r, g, b] = INKS[0];
            canvas.fill(Color::from_rgba8(r, g, b, 255));
            let mut square = |left: u32, ink: [u8; 3]| {
                let mut paint = Paint::default();
                paint.set_color_rgba8(ink[0], ink[1], ink[2], 255);
                let rect = Rect::from_xywh(left as f32, 10.0, 8.0, 8.0).unwrap();
                canvas.fill_rect(rect, &paint, Transform::identity(), None);
            };
            square(n, INKS[1]);
            if n % 2 == 1 {
                square(40, INKS[2]);
            }
        }
    }

    fn shots(pictures: &[u32], delay_cs: u16) -> Vec<Shot<u32>> {
        pictures
            .iter()
            .map(|&picture| Shot { picture, delay_cs })
            .collect()
    }

    fn reel(pictures: &[u32]) -> Vec<u8> {
        let mut bytes = Vec::new();
        let written = write_reel(&Squares::new(), shots(pictures, 100), &mut bytes).unwrap();
        assert_eq!(written, pictures.len());
        bytes
    }

    #[test]
    fn decoded_pictures_equal_the_painted_ones_and_loop_forever() {
        let pictures = [0, 3, 4, 4, 9, 0];
        let decoded = decode_gif(&reel(&pictures)).unwrap();
        assert_eq!((decoded.width, decoded.height), (64, 48));
        assert_eq!(decoded.repeat, Repeat::Infinite);
        assert_eq!(&decoded.palette[..9], INKS.as_flattened());
        let painter = Squares::new();
        let mut canvas = Pixmap::new(64, 48).unwrap();
        assert_eq!(decoded.frames.len(), pictures.len());
        for (&n, frame) in pictures.iter().zip(&decoded.frames) {
            painter.paint(&n, &mut canvas);
            assert_eq!(
                frame.indices,
                painter.palette().indices(&canvas),
                "picture {n}"
            );
            assert_eq!(frame.delay_cs, 100);
        }
    }

    #[test]
    fn later_pictures_store_only_what_changed() {
        let decoded = decode_gif(&reel(&[0, 2, 2, 3])).unwrap();
        let stored: Vec<Rectangle> = decoded.frames.iter().map(|frame| frame.stored).collect();
        assert_eq!((stored[0].width, stored[0].height), (64, 48));
        // The square moved two pixels right: its first 2 columns and last 2.
        assert_eq!(
            stored[1],
            Rectangle {
                left: 0,
                top: 10,
                width: 10,
                height: 8
            }
        );
        // An unchanged picture is a single transparent pixel.
        assert_eq!((stored[2].width, stored[2].height), (1, 1));
        assert_eq!(decoded.frames[2].transparent, Some(0));
        assert_eq!(decoded.frames[2].indices, decoded.frames[1].indices);
    }

    #[test]
    fn an_unchanged_picture_costs_the_same_bytes_painted_or_not() {
        // Pushing an unchanged canvas and pushing "unchanged" write the
        // same bytes.
        let painter = Squares::new();
        let mut canvas = Pixmap::new(64, 48).unwrap();
        painter.paint(&5, &mut canvas);
        let mut compared = GifWriter::new(Vec::new(), (64, 48), painter.palette()).unwrap();
        let mut skipped = GifWriter::new(Vec::new(), (64, 48), painter.palette()).unwrap();
        for gif in [&mut compared, &mut skipped] {
            gif.push(&canvas, 5).unwrap();
        }
        compared.push(&canvas, 5).unwrap();
        skipped.push_unchanged(5).unwrap();
        assert_eq!(compared.finish().unwrap(), skipped.finish().unwrap());
    }

    #[test]
    fn shots_keep_their_delays() {
        let mut bytes = Vec::new();
        let mut all = shots(&[1, 2], 5);
        all.push(Shot {
            picture: 2,
            delay_cs: 300,
        });
        write_reel(&Squares::new(), all, &mut bytes).unwrap();
        let delays: Vec<u16> = decode_gif(&bytes)
            .unwrap()
            .frames
            .iter()
            .map(|frame| frame.delay_cs)
            .collect();
        assert_eq!(delays, [5, 5, 300]);
    }

    #[test]
    fn a_failing_output_is_reported_as_io() {
        struct Full;
        impl Write for Full {
            fn write(&mut self, _: &[u8]) -> io::Result<usize> {
                Err(io::Error::new(io::ErrorKind::StorageFull, "disk full"))
            }
            fn flush(&mut self) -> io::Result<()> {
                Ok(())
            }
        }
        let error = write_reel(&Squares::new(), shots(&[0, 1, 2], 100), Full).unwrap_err();
        assert!(matches!(&error, EncodeError::Io(e) if e.kind() == io::ErrorKind::StorageFull));
        assert_eq!(error.to_string(), "cannot write the picture");
        let cause = std::error::Error::source(&error).map(ToString::to_string);
        assert_eq!(cause.as_deref(), Some("disk full"));
    }

    #[test]
    fn canvases_a_gif_cannot_hold_are_refused() {
        let palette = Palette::new(INKS.to_vec()).unwrap();
        for size in [(0, 10), (10, 0), (65_536, 1)] {
            let error = GifWriter::new(Vec::new(), size, &palette).err().unwrap();
            assert!(matches!(error, EncodeError::Canvas { .. }), "{size:?}");
        }
        assert_eq!(
            EncodeError::Canvas {
                width: 0,
                height: 10
            }
            .to_string(),
            "cannot draw a picture of 0 by 10 pixels"
        );
    }

    #[test]
    fn changed_rectangles_are_tight() {
        let side = 4;
        let before = vec![0u8; 16];
        let mut after = before.clone();
        after[side + 2] = 1;
        after[2 * side + 1] = 1;
        assert_eq!(
            changed_rectangle(&before, &after, side),
            Rectangle {
                left: 1,
                top: 1,
                width: 2,
                height: 2
            }
        );
    }
}
