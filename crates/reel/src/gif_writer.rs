//! The GIF encoder behind [`crate::write_reel`]: pictures mapped to the
//! palette's indices, each compared with the one before, and only the
//! changed rectangle compressed, in the smaller of two encodings.

use std::borrow::Cow;
use std::io::{BufWriter, Write};
use std::num::NonZeroU16;

use gif::{DisposalMethod, Encoder, Repeat};
use tiny_skia::Pixmap;

use crate::error::EncodeError;
use crate::lzw::LzwEncoder;
use crate::palette::{Lookup, Palette};

/// How many times an animation plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Loops {
    /// Over and over (the NETSCAPE2.0 extension with a count of 0).
    #[default]
    Forever,
    /// This many times in all: once is a GIF without the extension, `n`
    /// times the extension with `n - 1` repetitions, as browsers read it.
    Times(NonZeroU16),
}

impl Loops {
    /// How many times it plays, 0 for ever: the APNG's `num_plays` and
    /// the WebP's loop count.
    pub(crate) fn plays(self) -> u16 {
        match self {
            Loops::Forever => 0,
            Loops::Times(n) => n.get(),
        }
    }

    /// What the GIF's NETSCAPE2.0 extension says, if it has one.
    fn repeat(self) -> Option<Repeat> {
        match self {
            Loops::Forever => Some(Repeat::Infinite),
            Loops::Times(n) if n.get() == 1 => None,
            Loops::Times(n) => Some(Repeat::Finite(n.get() - 1)),
        }
    }
}

/// How an animation plays, beyond its pictures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct Playback {
    /// How many times it plays.
    pub loops: Loops,
    /// How long the last picture stays, in hundredths of a second, before
    /// the animation starts again or stops; `None` keeps the last shot's
    /// delay (folded, when `fold_repeats`).
    pub hold_cs: Option<u16>,
    /// Write a run of equal pictures as one frame showing for their summed
    /// delays, rather than one frame per shot. Off where the frame count is
    /// part of a contract.
    pub fold_repeats: bool,
}

/// What was written: GIF frames and how long the animation plays once.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ReelSummary {
    /// Frames in the GIF (after folding).
    pub frames: usize,
    /// The sum of their delays, in hundredths of a second.
    pub duration_cs: u64,
}

/// The buffers of a GIF being written, a few hundred kilobytes: kept by
/// the thread once a GIF is finished and taken by its next one, since
/// `batch` writes thousands of short GIFs per thread and allocating (and
/// the kernel zeroing) them afresh was a tenth of its time.
#[derive(Default)]
struct Workspace {
    /// The palette index of every pixel of the picture before; empty until
    /// the first picture.
    shown: Vec<u8>,
    /// The indices of the region being compared, row after row.
    region: Vec<u8>,
    /// The changed rectangle with unchanged pixels transparent.
    transparent_patch: Vec<u8>,
    /// The changed rectangle as it is.
    opaque_patch: Vec<u8>,
    /// Compressing here rather than in the `gif` crate gives the same
    /// bytes, only faster (see the `lzw` module).
    lzw: LzwEncoder,
    /// The other candidate's compressed bytes, and a spare buffer.
    candidate: Vec<u8>,
    spare: Vec<u8>,
}

thread_local! {
    static WORKSPACE: std::cell::RefCell<Option<Workspace>> = const { std::cell::RefCell::new(None) };
}

impl Workspace {
    /// The thread's workspace if it has one, else a new one; ready for a
    /// first picture.
    fn take() -> Workspace {
        let mut work = WORKSPACE
            .with(|kept| kept.borrow_mut().take())
            .unwrap_or_default();
        work.shown.clear();
        work
    }

    /// Keeps this workspace for the thread's next GIF.
    fn keep(self) {
        WORKSPACE.with(|kept| *kept.borrow_mut() = Some(self));
    }
}

/// A frame encoded and waiting to be written: a run of equal pictures may
/// still add to its delay, and the last frame takes the hold.
struct Staged {
    stored: Rectangle,
    transparent: Option<u8>,
    delay: u16,
    /// The minimum code size byte and the LZW data.
    data: Vec<u8>,
}

/// An animated GIF being written, one picture at a time. The previous
/// picture is kept as palette indices: a picture is mapped to indices only
/// where it may have changed, compared there, and only its changed
/// rectangle is compressed.
pub struct GifWriter<'p, W: Write> {
    encoder: Encoder<BufWriter<W>>,
    palette: &'p Palette,
    width: usize,
    height: usize,
    playback: Playback,
    work: Workspace,
    staged: Option<Staged>,
    frames_written: usize,
    duration_cs: u64,
}

impl<'p, W: Write> GifWriter<'p, W> {
    /// Starts the GIF: header, `palette` as the global colour table and
    /// the loop extension `playback` asks for.
    pub fn new(
        out: W,
        (width, height): (u32, u32),
        palette: &'p Palette,
        playback: &Playback,
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
        if let Some(repeat) = playback.loops.repeat() {
            encoder.set_repeat(repeat)?;
        }
        Ok(GifWriter {
            encoder,
            palette,
            width: width as usize,
            height: height as usize,
            playback: *playback,
            work: Workspace::take(),
            staged: None,
            frames_written: 0,
            duration_cs: 0,
        })
    }

    /// Appends `pixmap`, a canvas of the size given to `new`, shown for
    /// `delay` hundredths of a second.
    pub fn push(&mut self, pixmap: &Pixmap, delay: u16) -> Result<(), EncodeError> {
        self.push_region(pixmap, Rectangle::whole(pixmap), delay)
    }

    /// [`GifWriter::push`] for a `pixmap` that differs from the picture
    /// before only within `region`.
    pub fn push_region(
        &mut self,
        pixmap: &Pixmap,
        region: Rectangle,
        delay: u16,
    ) -> Result<(), EncodeError> {
        if self.work.shown.is_empty() {
            self.palette.indices_into(pixmap, &mut self.work.shown);
            let mut data = std::mem::take(&mut self.work.spare);
            data.clear();
            self.work.lzw.encode(&self.work.shown, &mut data);
            let stored = Rectangle::whole(pixmap);
            return self.stage(Staged {
                stored,
                transparent: None,
                delay,
                data,
            });
        }
        let region = region.within(self.width, self.height);
        self.map_region(pixmap, region);
        match changed_rectangle(&self.work.shown, &self.work.region, region, self.width) {
            None => self.push_unchanged(delay),
            Some(changed) => {
                let staged = self.encode_change(region, changed, delay);
                self.stage(staged)
            }
        }
    }

    /// The palette indices of `region` of `pixmap`, row after row.
    fn map_region(&mut self, pixmap: &Pixmap, region: Rectangle) {
        let pixels = pixels(pixmap);
        let mut lookup = Lookup::new(self.palette);
        // Filling a sized buffer (rather than pushing) keeps the loop free
        // of capacity checks: this runs for every pixel that may change.
        self.work.region.clear();
        self.work.region.resize(region.width * region.height, 0);
        if region.width == 0 {
            return;
        }
        let first = region.top * self.width + region.left;
        let mut last = (pixels[first], lookup.index(pixels[first]));
        let rows = self.work.region.chunks_exact_mut(region.width);
        for (y, indices) in (region.top..).zip(rows) {
            let start = y * self.width + region.left;
            let row = &pixels[start..start + region.width];
            // Eight pixels at a time while they are the colour before: one
            // wide comparison instead of eight.
            let (pixel_chunks, pixel_rest) = row.as_chunks::<8>();
            let (index_chunks, index_rest) = indices.as_chunks_mut::<8>();
            for (eight, pixels) in index_chunks.iter_mut().zip(pixel_chunks) {
                if pixels.iter().all(|&pixel| pixel == last.0) {
                    *eight = [last.1; 8];
                    continue;
                }
                for (index, &pixel) in eight.iter_mut().zip(pixels) {
                    if pixel != last.0 {
                        last = (pixel, lookup.index(pixel));
                    }
                    *index = last.1;
                }
            }
            for (index, &pixel) in index_rest.iter_mut().zip(pixel_rest) {
                if pixel != last.0 {
                    last = (pixel, lookup.index(pixel));
                }
                *index = last.1;
            }
        }
    }

    /// Compresses the `changed` rectangle of the mapped `region` in the
    /// smaller of its two encodings, and takes it as the picture shown.
    fn encode_change(&mut self, region: Rectangle, changed: Rectangle, delay: u16) -> Staged {
        let width = self.width;
        let now_row = |row: usize| {
            let start = (row - region.top) * region.width + (changed.left - region.left);
            start..start + changed.width
        };
        let shown_row =
            |row: usize| row * width + changed.left..row * width + changed.left + changed.width;
        let rows = changed.top..changed.top + changed.height;
        // Which indices the changed pixels use.
        let mut used = [false; 256];
        self.work.opaque_patch.clear();
        for row in rows.clone() {
            let now = &self.work.region[now_row(row)];
            for (&index, &before) in now.iter().zip(&self.work.shown[shown_row(row)]) {
                if index != before {
                    used[usize::from(index)] = true;
                }
            }
            self.work.opaque_patch.extend_from_slice(now);
        }
        // How often each candidate's next pixel differs from the one
        // before, on every fourth row: runs are what LZW compresses, so
        // the counts tell when one candidate is sure to be the smaller.
        let (mut opaque_breaks, mut transparent_breaks) = (0usize, 0usize);
        for row in rows.clone().step_by(4) {
            let now = &self.work.region[now_row(row)];
            let before = &self.work.shown[shown_row(row)];
            // Unchanged pixels are one symbol, past every index.
            const UNCHANGED: u16 = 256;
            let symbol = |i: usize| {
                if now[i] == before[i] {
                    UNCHANGED
                } else {
                    u16::from(now[i])
                }
            };
            for i in 1..now.len() {
                opaque_breaks += usize::from(now[i] != now[i - 1]);
                transparent_breaks += usize::from(symbol(i) != symbol(i - 1));
            }
        }
        // Unchanged pixels may instead be an index the changed ones do not
        // use, declared transparent: the previous picture shows through,
        // and runs of one index compress well where little changed (this
        // one is always tried, so no frame is larger than it was). Where
        // nearly everything changed, the scattered unchanged pixels break
        // the runs, and the rectangle as it is is smaller: that one is
        // compressed too only when it has a chance, which saves compressing
        // most frames twice.
        let free = (0..self.palette.len()).find(|&i| !used[i]).map(|i| i as u8);
        let mut best: Option<(Vec<u8>, Option<u8>)> = None;
        if let Some(free) = free {
            self.work.transparent_patch.clear();
            for row in rows.clone() {
                let now = &self.work.region[now_row(row)];
                let before = &self.work.shown[shown_row(row)];
                self.work.transparent_patch.extend(
                    now.iter()
                        .zip(before)
                        .map(|(&index, &before)| if index == before { free } else { index }),
                );
            }
            let mut encoded = std::mem::take(&mut self.work.spare);
            encoded.clear();
            self.work
                .lzw
                .encode(&self.work.transparent_patch, &mut encoded);
            best = Some((encoded, Some(free)));
        }
        if free.is_none() || opaque_breaks < 2 * transparent_breaks {
            let mut encoded = std::mem::take(&mut self.work.candidate);
            encoded.clear();
            self.work.lzw.encode(&self.work.opaque_patch, &mut encoded);
            match &best {
                Some((smallest, _)) if smallest.len() <= encoded.len() => {
                    self.work.candidate = encoded
                }
                _ => {
                    if let Some((beaten, _)) = best.replace((encoded, None)) {
                        self.work.candidate = beaten;
                    }
                }
            }
        }
        let (data, transparent) = best.unwrap_or_default();
        for row in rows {
            let start = (row - region.top) * region.width + (changed.left - region.left);
            self.work.shown[shown_row(row)]
                .copy_from_slice(&self.work.region[start..start + changed.width]);
        }
        Staged {
            stored: changed,
            transparent,
            delay,
            data,
        }
    }

    /// Appends the picture before again, without comparing a canvas to
    /// find that out: its frame's delay grows when repeats fold, otherwise
    /// it is a frame of one transparent pixel. Only after a first `push`.
    pub fn push_unchanged(&mut self, delay: u16) -> Result<(), EncodeError> {
        debug_assert!(!self.work.shown.is_empty(), "nothing to repeat yet");
        if self.playback.fold_repeats {
            if let Some(staged) = &mut self.staged {
                if let Some(sum) = staged.delay.checked_add(delay) {
                    staged.delay = sum;
                    return Ok(());
                }
            }
        }
        let mut data = std::mem::take(&mut self.work.spare);
        data.clear();
        self.work.lzw.encode(&[0], &mut data);
        self.stage(Staged {
            stored: Rectangle {
                left: 0,
                top: 0,
                width: 1,
                height: 1,
            },
            transparent: Some(0),
            delay,
            data,
        })
    }

    /// Holds `staged` back and writes the frame held before it.
    fn stage(&mut self, staged: Staged) -> Result<(), EncodeError> {
        match self.staged.replace(staged) {
            Some(before) => self.write(before),
            None => Ok(()),
        }
    }

    fn write(&mut self, staged: Staged) -> Result<(), EncodeError> {
        // Every coordinate is within the canvas, whose sides fit in u16 in
        // `new`.
        let to_u16 = |n: usize| n as u16;
        let stored = staged.stored;
        let gif_frame = gif::Frame {
            delay: staged.delay,
            dispose: DisposalMethod::Keep,
            transparent: staged.transparent,
            left: to_u16(stored.left),
            top: to_u16(stored.top),
            width: to_u16(stored.width),
            height: to_u16(stored.height),
            buffer: Cow::Borrowed(&staged.data),
            ..gif::Frame::default()
        };
        self.encoder.write_lzw_pre_encoded_frame(&gif_frame)?;
        self.frames_written += 1;
        self.duration_cs += u64::from(staged.delay);
        self.work.spare = staged.data;
        Ok(())
    }

    /// Writes the last frame, with the hold as its delay when there is
    /// one, ends the GIF and hands back the output, flushed, with what was
    /// written.
    pub fn finish(mut self) -> Result<(W, ReelSummary), EncodeError> {
        if let Some(mut last) = self.staged.take() {
            if let Some(hold) = self.playback.hold_cs {
                last.delay = hold;
            }
            self.write(last)?;
        }
        let summary = ReelSummary {
            frames: self.frames_written,
            duration_cs: self.duration_cs,
        };
        self.work.keep();
        let buffered = self.encoder.into_inner()?;
        let out = buffered
            .into_inner()
            .map_err(|error| EncodeError::Io(error.into_error()))?;
        Ok((out, summary))
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

impl Rectangle {
    /// All of `pixmap`.
    pub fn whole(pixmap: &Pixmap) -> Rectangle {
        Rectangle {
            left: 0,
            top: 0,
            width: pixmap.width() as usize,
            height: pixmap.height() as usize,
        }
    }

    /// The part of this rectangle inside a canvas of `width` by `height`.
    pub(crate) fn within(self, width: usize, height: usize) -> Rectangle {
        let left = self.left.min(width);
        let top = self.top.min(height);
        Rectangle {
            left,
            top,
            width: self.width.min(width - left),
            height: self.height.min(height - top),
        }
    }
}

/// The smallest rectangle holding every pixel of `region` (whose indices
/// are `now`, row after row) that differs from `shown`, the whole canvas
/// of `width` pixels a row; `None` when nothing does.
fn changed_rectangle(
    shown: &[u8],
    now: &[u8],
    region: Rectangle,
    width: usize,
) -> Option<Rectangle> {
    if region.width == 0 {
        return None;
    }
    let mut bounds: Option<(usize, usize, usize, usize)> = None;
    for (i, after) in now.chunks_exact(region.width).enumerate() {
        let y = region.top + i;
        let start = y * width + region.left;
        let before = &shown[start..start + region.width];
        if before == after {
            continue;
        }
        let differs = |(a, b): (&u8, &u8)| a != b;
        let pairs = || before.iter().zip(after.iter());
        let first = region.left + pairs().position(differs).unwrap_or(0);
        let last = region.left + region.width - 1 - pairs().rev().position(differs).unwrap_or(0);
        bounds = Some(match bounds {
            None => (first, y, last, y),
            Some((left, top, right, _)) => (left.min(first), top, right.max(last), y),
        });
    }
    bounds.map(|(left, top, right, bottom)| Rectangle {
        left,
        top,
        width: right - left + 1,
        height: bottom - top + 1,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changed_rectangles_are_tight_and_none_when_nothing_changed() {
        let side = 4;
        let before = vec![0u8; 16];
        let mut after = before.clone();
        after[side + 2] = 1;
        after[2 * side + 1] = 1;
        let whole = Rectangle {
            left: 0,
            top: 0,
            width: side,
            height: side,
        };
        assert_eq!(
            changed_rectangle(&before, &after, whole, side),
            Some(Rectangle {
                left: 1,
                top: 1,
                width: 2,
                height: 2
            })
        );
        assert_eq!(changed_rectangle(&before, &before, whole, side), None);
        // Within a region: its rows of `after` only.
        let region = Rectangle {
            left: 1,
            top: 1,
            width: 2,
            height: 2,
        };
        assert_eq!(
            changed_rectangle(&before, &[0, 1, 1, 0], region, side),
            Some(region)
        );
    }
}
