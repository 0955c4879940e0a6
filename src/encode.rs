//! Writes drawn frames out: the animated GIF of BOX.md §9, streamed one
//! frame at a time, and single pictures as PNG.
//!
//! The GIF uses the fixed [`PALETTE`] as its global colour table, so no frame
//! is quantized. Each frame after the first stores only the rectangle of
//! pixels that changed (disposal "keep"), so a long run of small changes
//! stays small. Only the previous frame's palette indices are kept: memory
//! does not grow with the length of the run.

use std::borrow::Cow;
use std::fmt;
use std::io::{self, BufWriter, Write};

use gif::{DisposalMethod, Encoder, Repeat};
use tiny_skia::Pixmap;

use crate::frames::Frame;
use crate::lzw::LzwEncoder;
use crate::palette::{Lookup, Palette};
use crate::render::{RenderOptions, Renderer};

/// How long each frame shows, in GIF units of 10 ms: one second.
pub const FRAME_DELAY_CENTISECONDS: u16 = 100;

/// Why a picture could not be written.
#[derive(Debug)]
pub enum EncodeError {
    /// Writing to the output failed.
    Io(io::Error),
    /// The GIF encoder refused the data.
    Gif(gif::EncodingError),
    /// The PNG encoder refused the data (tiny-skia does not re-export the
    /// `png` crate's error type, hence the box).
    Png(Box<dyn std::error::Error + Send + Sync>),
}

impl fmt::Display for EncodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EncodeError::Io(error) => write!(f, "cannot write the picture: {error}"),
            EncodeError::Gif(error) => write!(f, "cannot encode the GIF: {error}"),
            EncodeError::Png(error) => write!(f, "cannot encode the PNG: {error}"),
        }
    }
}

impl std::error::Error for EncodeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            EncodeError::Io(error) => Some(error),
            EncodeError::Gif(error) => Some(error),
            EncodeError::Png(error) => Some(error.as_ref()),
        }
    }
}

impl From<io::Error> for EncodeError {
    fn from(error: io::Error) -> Self {
        EncodeError::Io(error)
    }
}

impl From<gif::EncodingError> for EncodeError {
    fn from(error: gif::EncodingError) -> Self {
        // An I/O failure is the user's disk or pipe, not the encoder: keep
        // it recognisable as one.
        match error {
            gif::EncodingError::Io(error) => EncodeError::Io(error),
            other => EncodeError::Gif(other),
        }
    }
}

/// An animated GIF being written, one frame at a time.
pub struct GifWriter<W: Write> {
    animation: Animation<W>,
    renderer: Renderer,
    pixmap: Pixmap,
}

impl<W: Write> GifWriter<W> {
    /// Starts the GIF: header, global palette and "loop forever".
    pub fn new(out: W, options: &RenderOptions) -> Result<GifWriter<W>, EncodeError> {
        let renderer = Renderer::new(options);
        let animation = Animation::new(out, renderer.canvas_size(), options.palette())?;
        Ok(GifWriter {
            animation,
            pixmap: renderer.new_pixmap(),
            renderer,
        })
    }

    /// Draws `frame` and appends it to the animation.
    pub fn write_frame(&mut self, frame: &Frame) -> Result<(), EncodeError> {
        self.renderer.render_into(frame, &mut self.pixmap);
        self.animation.push(&self.pixmap, FRAME_DELAY_CENTISECONDS)
    }

    pub fn frames_written(&self) -> usize {
        self.animation.frames_written()
    }

    /// Ends the GIF and hands back the output, flushed.
    pub fn finish(self) -> Result<W, EncodeError> {
        self.animation.finish()
    }
}

/// The encoding shared by the 1-second and the smooth GIF: drawn pictures
/// mapped to a fixed palette, each after the first stored as the rectangle
/// that changed. Pictures are compared as drawn and only the changed
/// rectangle is mapped to palette indices (mapping every pixel of every
/// picture was a third of the work of a long run). Holds one previous
/// picture only.
pub(crate) struct Animation<W: Write> {
    encoder: Encoder<BufWriter<W>>,
    palette: &'static Palette,
    width: usize,
    /// The pixels of the picture before, as drawn.
    previous: Vec<[u8; 4]>,
    /// The changed rectangle of the current frame, mapped for the encoder.
    patch: Vec<u8>,
    /// Compressing here rather than in the `gif` crate gives the same
    /// bytes, only faster (see [`crate::lzw`]).
    lzw: LzwEncoder,
    compressed: Vec<u8>,
    frames_written: usize,
}

impl<W: Write> Animation<W> {
    /// Starts the GIF: header, global palette and "loop forever".
    pub(crate) fn new(
        out: W,
        (width, height): (u32, u32),
        palette: &'static Palette,
    ) -> Result<Animation<W>, EncodeError> {
        // Validated cell sizes give canvases of at most 2,482 pixels.
        let to_u16 =
            |n: u32| u16::try_from(n).expect("a validated cell size gives a canvas a GIF can hold");
        // The encoder writes many small blocks; buffer them.
        let mut encoder = Encoder::new(
            BufWriter::new(out),
            to_u16(width),
            to_u16(height),
            &palette.rgb_bytes(),
        )?;
        encoder.set_repeat(Repeat::Infinite)?;
        Ok(Animation {
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
    pub(crate) fn push(&mut self, pixmap: &Pixmap, delay: u16) -> Result<(), EncodeError> {
        let now = pixels(pixmap);
        let width = self.width;
        let (changed, transparent) = if self.frames_written == 0 {
            self.palette.indices_into(pixmap, &mut self.patch);
            let whole = Changed {
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

    /// Appends the picture before again: the same bytes [`Animation::push`]
    /// writes for an unchanged picture (one transparent pixel), without
    /// comparing a canvas to find that out. Only after a first `push`.
    pub(crate) fn push_unchanged(&mut self, delay: u16) -> Result<(), EncodeError> {
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
    fn fill_patch(&mut self, now: &[[u8; 4]], changed: Changed) -> Option<u8> {
        let width = self.width;
        let span =
            |row: usize| row * width + changed.left..row * width + changed.left + changed.width;
        let before = &self.previous;
        // Unchanged pixels are marked with an index past every palette
        // (at most 204 entries) until the changed ones have shown which
        // index is free.
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
        match (0..self.palette.len()).find(|&i| !used[i]) {
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

    pub(crate) fn frames_written(&self) -> usize {
        self.frames_written
    }

    /// Ends the GIF and hands back the output, flushed.
    pub(crate) fn finish(self) -> Result<W, EncodeError> {
        let buffered = self.encoder.into_inner()?;
        buffered
            .into_inner()
            .map_err(|error| EncodeError::Io(error.into_error()))
    }
}

/// Writes the animated GIF of `frames` to `out` and returns how many frames
/// it holds.
pub fn write_gif<W: Write>(
    frames: impl IntoIterator<Item = Frame>,
    options: &RenderOptions,
    out: W,
) -> Result<usize, EncodeError> {
    let mut writer = GifWriter::new(out, options)?;
    for frame in frames {
        writer.write_frame(&frame)?;
    }
    let count = writer.frames_written();
    writer.finish()?;
    Ok(count)
}

/// Writes one picture as PNG (the golden frames are stored this way).
pub fn write_png<W: Write>(pixmap: &Pixmap, mut out: W) -> Result<(), EncodeError> {
    let bytes = pixmap
        .encode_png()
        .map_err(|error| EncodeError::Png(Box::new(error)))?;
    out.write_all(&bytes)?;
    out.flush()?;
    Ok(())
}

/// The pixels of a picture, one RGBA quadruple each.
fn pixels(pixmap: &Pixmap) -> &[[u8; 4]] {
    pixmap.data().as_chunks::<4>().0
}

/// A rectangle of the canvas, in pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Changed {
    pub(crate) left: usize,
    pub(crate) top: usize,
    pub(crate) width: usize,
    pub(crate) height: usize,
}

/// The smallest rectangle holding every pixel that differs; a single pixel
/// when nothing does, because a GIF frame cannot be empty and the frame must
/// still be there to take its second.
fn changed_rectangle<T: PartialEq>(previous: &[T], current: &[T], width: usize) -> Changed {
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
        Some((left, top, right, bottom)) => Changed {
            left,
            top,
            width: right - left + 1,
            height: bottom - top + 1,
        },
        None => Changed {
            left: 0,
            top: 0,
            width: 1,
            height: 1,
        },
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::render::{palette_indices, PALETTE};
    use crate::Scenario;

    /// Every frame of a GIF composited onto the canvas, as palette indices,
    /// with each frame's stored rectangle and delay.
    pub(crate) struct Decoded {
        pub width: usize,
        pub height: usize,
        pub repeat: Repeat,
        pub palette: Vec<u8>,
        pub frames: Vec<(Vec<u8>, Changed, u16)>,
    }

    pub(crate) fn decode(bytes: &[u8]) -> Decoded {
        let mut options = gif::DecodeOptions::new();
        options.set_color_output(gif::ColorOutput::Indexed);
        let mut decoder = options.read_info(bytes).unwrap();
        let (width, height) = (decoder.width() as usize, decoder.height() as usize);
        let palette = decoder.global_palette().unwrap().to_vec();
        let mut canvas = vec![0u8; width * height];
        let mut frames = Vec::new();
        while let Some(frame) = decoder.read_next_frame().unwrap() {
            assert_eq!(frame.dispose, DisposalMethod::Keep);
            let rect = Changed {
                left: frame.left as usize,
                top: frame.top as usize,
                width: frame.width as usize,
                height: frame.height as usize,
            };
            for row in 0..rect.height {
                let from = &frame.buffer[row * rect.width..(row + 1) * rect.width];
                let start = (rect.top + row) * width + rect.left;
                for (pixel, &index) in canvas[start..start + rect.width].iter_mut().zip(from) {
                    if Some(index) != frame.transparent {
                        *pixel = index;
                    }
                }
            }
            frames.push((canvas.clone(), rect, frame.delay));
        }
        Decoded {
            width,
            height,
            repeat: decoder.repeat(),
            palette,
            frames,
        }
    }

    fn gif_of(scenario: &Scenario) -> Vec<u8> {
        let mut bytes = Vec::new();
        let written = write_gif(scenario.frames(), &RenderOptions::default(), &mut bytes).unwrap();
        assert_eq!(written, scenario.frames().count());
        bytes
    }

    #[test]
    fn the_demo_gif_shows_every_frame_for_a_second_forever() {
        let scenario = Scenario::figure_1a();
        let decoded = decode(&gif_of(&scenario));
        assert_eq!(decoded.frames.len(), 26);
        assert_eq!(decoded.repeat, Repeat::Infinite);
        assert!(decoded.frames.iter().all(|(_, _, delay)| *delay == 100));
        let flat: Vec<u8> = PALETTE.iter().flatten().copied().collect();
        assert_eq!(&decoded.palette[..flat.len()], flat.as_slice());
    }

    #[test]
    fn decoded_frames_equal_the_rendered_pictures() {
        let renderer = Renderer::new(&RenderOptions::default());
        for (state, ops) in [
            (".........@...o....ooo..xox...", "+>|<-v+^+"),
            ("@................x.....o..x..", "+-"),
            ("@......................x.x...", "<"),
        ] {
            let scenario = Scenario::parse(state, ops, false).unwrap();
            let decoded = decode(&gif_of(&scenario));
            let size = (decoded.width as u32, decoded.height as u32);
            assert_eq!(size, renderer.canvas_size());
            for (frame, (canvas, _, _)) in scenario.frames().zip(&decoded.frames) {
                let expected = palette_indices(&renderer.render(&frame));
                assert!(
                    expected == *canvas,
                    "frame {} of {state} {ops} differs",
                    frame.index
                );
            }
        }
    }

    #[test]
    fn later_frames_store_only_what_changed() {
        let decoded = decode(&gif_of(&Scenario::figure_1a()));
        let side = decoded.width;
        let rects: Vec<Changed> = decoded.frames.iter().map(|(_, rect, _)| *rect).collect();
        assert_eq!((rects[0].width, rects[0].height), (side, side));
        // Frame 5 is the stot's one step right; frame 2 a single tick of
        // three shubbles and two smoles: both touch a few cells only.
        for i in [2, 5] {
            let area = rects[i].width * rects[i].height;
            assert!(area * 4 < side * side, "frame {i}: {:?}", rects[i]);
        }
    }

    #[test]
    fn an_unchanged_frame_is_one_pixel() {
        let mut frames: Vec<Frame> = Scenario::figure_1a().frames().take(2).collect();
        frames.insert(1, frames[0]);
        let mut bytes = Vec::new();
        assert_eq!(
            write_gif(frames, &RenderOptions::default(), &mut bytes).unwrap(),
            3
        );
        let decoded = decode(&bytes);
        let rect = decoded.frames[1].1;
        assert_eq!((rect.width, rect.height), (1, 1));
        assert_eq!(decoded.frames[1].0, decoded.frames[0].0);
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
        let error = write_gif(
            Scenario::figure_1a().frames(),
            &RenderOptions::default(),
            Full,
        )
        .unwrap_err();
        assert!(matches!(&error, EncodeError::Io(e) if e.kind() == io::ErrorKind::StorageFull));
        assert_eq!(error.to_string(), "cannot write the picture: disk full");
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
            Changed {
                left: 1,
                top: 1,
                width: 2,
                height: 2
            }
        );
    }

    #[test]
    fn a_png_round_trips() {
        let renderer = Renderer::new(&RenderOptions::new(10).unwrap());
        let pixmap = renderer.render(&Scenario::figure_1a().frames().next().unwrap());
        let mut bytes = Vec::new();
        write_png(&pixmap, &mut bytes).unwrap();
        assert_eq!(Pixmap::decode_png(&bytes).unwrap(), pixmap);
    }
}
