//! The GIF encoder behind [`crate::write_reel`]: pictures mapped to the
//! palette's indices, each compared with the one before, and only the
//! changed rectangle compressed, in the smallest of its likely patches
//! (see the `transparency` module); the colour table only as long as the
//! frames' indices need.

use std::borrow::Cow;
use std::io::{BufWriter, Write};
use std::num::NonZeroU16;

use gif::{DisposalMethod, Encoder, Repeat};
use tiny_skia::Pixmap;

use crate::error::EncodeError;
use crate::lzw::LzwEncoder;
use crate::palette::{Lookup, Palette};
use crate::transparency::{self, Patch};

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
    /// The changed rectangle, written as each of its patches.
    patches: [Vec<u8>; 3],
    /// Compressing here rather than in the `gif` crate gives the same
    /// bytes, only faster (see the `lzw` module).
    lzw: LzwEncoder,
    /// The other candidate's compressed bytes, and a spare buffer.
    candidate: Vec<u8>,
    spare: Vec<u8>,
    /// How fast the smallest compression so far wrote its bytes, and the
    /// one being tried.
    best_pace: Vec<u32>,
    pace: Vec<u32>,
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
    header: FrameHeader,
    /// The minimum code size byte and the LZW data.
    data: Vec<u8>,
}

/// Where a frame goes and how it shows.
#[derive(Clone, Copy)]
struct FrameHeader {
    stored: Rectangle,
    transparent: Option<u8>,
    delay: u16,
}

/// An animated GIF being written, one picture at a time. The previous
/// picture is kept as palette indices: a picture is mapped to indices only
/// where it may have changed, compared there, and only its changed
/// rectangle is compressed.
pub struct GifWriter<'p, W: Write> {
    output: Output<W>,
    palette: &'p Palette,
    width: usize,
    height: usize,
    playback: Playback,
    work: Workspace,
    staged: Option<Staged>,
    frames_written: usize,
    duration_cs: u64,
}

/// Compressed frames past which the GIF's header is written with the
/// whole palette: a table of 256 colours is 768 bytes, under 0.08 % of a
/// GIF this large, and the frames held before are all the memory it costs.
const HOLD_BYTES: usize = 1 << 20;

/// Where frames go.
enum Output<W: Write> {
    /// Nothing written yet.
    Holding(Held<W>),
    /// The header is written; each frame follows as it comes.
    Writing(Encoder<BufWriter<W>>),
    /// Writing the header failed: what was held is lost, and so is the GIF.
    Failed,
}

/// The frames so far, compressed, held so that the colour table, written
/// first, need only be as long as the largest index they use (gifsicle
/// shrinks it to the colours used).
struct Held<W> {
    out: W,
    /// Each frame, with the end of its data in `data`.
    frames: Vec<(FrameHeader, usize)>,
    /// The frames' data, one after another: one buffer, not one a frame.
    data: Vec<u8>,
    /// The most colours a frame's codes allow: 2 to the largest minimum
    /// code size.
    colours: usize,
}

impl<'p, W: Write> GifWriter<'p, W> {
    /// Starts the GIF: nothing is written until the first megabyte of
    /// frames or the end, when the header goes first, with as much of
    /// `palette` as the frames use for the global colour table and the
    /// loop extension `playback` asks for.
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
        Ok(GifWriter {
            output: Output::Holding(Held {
                out,
                frames: Vec::new(),
                data: Vec::new(),
                colours: 0,
            }),
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
                header: FrameHeader {
                    stored,
                    transparent: None,
                    delay,
                },
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
    /// smallest of its likely patches, and takes it as the picture shown.
    fn encode_change(&mut self, region: Rectangle, changed: Rectangle, delay: u16) -> Staged {
        let width = self.width;
        let Workspace {
            shown,
            region: now,
            patches,
            lzw,
            candidate,
            spare,
            best_pace,
            pace,
        } = &mut self.work;
        best_pace.clear();
        let rows = || {
            (changed.top..changed.top + changed.height).map(|row| {
                let start = (row - region.top) * region.width + (changed.left - region.left);
                let shown_start = row * width + changed.left;
                (
                    &now[start..start + changed.width],
                    &shown[shown_start..shown_start + changed.width],
                )
            })
        };
        // Unchanged pixels may be an index the changed ones do not use,
        // declared transparent: the picture before shows through.
        let mut used = [false; 256];
        for (now, before) in rows() {
            transparency::mark_changed(now, before, &mut used);
        }
        let free = (0..self.palette.len()).find(|&i| !used[i]).map(|i| i as u8);
        // Each patch written out, with its breaks: the one breaking its
        // runs least is compressed first, and each other one only while
        // it keeps pace with the smallest so far (most fall behind early).
        let mut tried: Vec<(usize, Patch)> = transparency::write_patches(rows(), free, patches)
            .into_iter()
            .map(|kind| {
                let breaks = transparency::breaks(&patches[kind.slot()], changed.width);
                (breaks, kind)
            })
            .collect();
        tried.sort_unstable_by_key(|&(breaks, kind)| (breaks, kind.slot()));
        let mut best: Option<(Vec<u8>, Patch)> = None;
        for &(_, kind) in &tried {
            let slot = kind.slot();
            let mut encoded = std::mem::take(if best.is_none() { spare } else { candidate });
            encoded.clear();
            let finished = lzw.encode_against(&patches[slot], &mut encoded, best_pace, pace);
            match &best {
                Some((smallest, _)) if !finished || smallest.len() <= encoded.len() => {
                    *candidate = encoded
                }
                _ => {
                    std::mem::swap(best_pace, pace);
                    if let Some((beaten, _)) = best.replace((encoded, kind)) {
                        *candidate = beaten;
                    }
                }
            }
        }
        let (data, kind) = best.unwrap_or((Vec::new(), Patch::Opaque));
        let transparent = (kind != Patch::Opaque).then_some(free.unwrap_or(0));
        for row in changed.top..changed.top + changed.height {
            let start = (row - region.top) * region.width + (changed.left - region.left);
            let shown_start = row * width + changed.left;
            shown[shown_start..shown_start + changed.width]
                .copy_from_slice(&now[start..start + changed.width]);
        }
        Staged {
            header: FrameHeader {
                stored: changed,
                transparent,
                delay,
            },
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
                if let Some(sum) = staged.header.delay.checked_add(delay) {
                    staged.header.delay = sum;
                    return Ok(());
                }
            }
        }
        let mut data = std::mem::take(&mut self.work.spare);
        data.clear();
        self.work.lzw.encode(&[0], &mut data);
        self.stage(Staged {
            header: FrameHeader {
                stored: Rectangle {
                    left: 0,
                    top: 0,
                    width: 1,
                    height: 1,
                },
                transparent: Some(0),
                delay,
            },
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
        self.frames_written += 1;
        self.duration_cs += u64::from(staged.header.delay);
        match &mut self.output {
            Output::Writing(encoder) => write_frame(encoder, staged.header, &staged.data)?,
            Output::Holding(held) => {
                held.colours = held
                    .colours
                    .max(1 << staged.data.first().copied().unwrap_or(8));
                held.data.extend_from_slice(&staged.data);
                held.frames.push((staged.header, held.data.len()));
                if held.data.len() > HOLD_BYTES {
                    self.work.spare = staged.data;
                    return self.start(Some(self.palette.len()));
                }
            }
            Output::Failed => return Err(header_failed()),
        }
        self.work.spare = staged.data;
        Ok(())
    }

    /// Writes the header, with the first `colours` of the palette (as many
    /// as the frames held use when `None`), and the frames held so far.
    fn start(&mut self, colours: Option<usize>) -> Result<(), EncodeError> {
        if !matches!(self.output, Output::Holding(_)) {
            return Ok(());
        }
        let Output::Holding(held) = std::mem::replace(&mut self.output, Output::Failed) else {
            return Ok(());
        };
        // Even a GIF of no frames has a colour table of two.
        let colours = colours
            .unwrap_or(held.colours)
            .clamp(2, self.palette.len().max(2));
        let table: Vec<u8> = self.palette.colours()[..colours.min(self.palette.len())]
            .iter()
            .flatten()
            .copied()
            .collect();
        // Sides checked in `new`.
        let (width, height) = (self.width as u16, self.height as u16);
        // The encoder writes many small blocks; buffer them.
        let mut encoder = Encoder::new(BufWriter::new(held.out), width, height, &table)?;
        if let Some(repeat) = self.playback.loops.repeat() {
            encoder.set_repeat(repeat)?;
        }
        let mut start = 0;
        for (header, end) in held.frames {
            write_frame(&mut encoder, header, &held.data[start..end])?;
            start = end;
        }
        self.output = Output::Writing(encoder);
        Ok(())
    }

    /// Writes the last frame, with the hold as its delay when there is
    /// one, ends the GIF and hands back the output, flushed, with what was
    /// written.
    pub fn finish(mut self) -> Result<(W, ReelSummary), EncodeError> {
        if let Some(mut last) = self.staged.take() {
            if let Some(hold) = self.playback.hold_cs {
                last.header.delay = hold;
            }
            self.write(last)?;
        }
        let summary = ReelSummary {
            frames: self.frames_written,
            duration_cs: self.duration_cs,
        };
        self.start(None)?;
        let Output::Writing(encoder) = self.output else {
            return Err(header_failed());
        };
        self.work.keep();
        let buffered = encoder.into_inner()?;
        let out = buffered
            .into_inner()
            .map_err(|error| EncodeError::Io(error.into_error()))?;
        Ok((out, summary))
    }
}

/// What writing to a GIF whose header could not be written says.
fn header_failed() -> EncodeError {
    EncodeError::Io(std::io::Error::other(
        "the GIF's header could not be written earlier",
    ))
}

/// Writes a frame: `data` is its minimum code size byte and LZW data.
fn write_frame<W: Write>(
    encoder: &mut Encoder<BufWriter<W>>,
    header: FrameHeader,
    data: &[u8],
) -> Result<(), EncodeError> {
    // Every coordinate is within the canvas, whose sides fit in u16 in
    // `GifWriter::new`.
    let to_u16 = |n: usize| n as u16;
    let stored = header.stored;
    let gif_frame = gif::Frame {
        delay: header.delay,
        dispose: DisposalMethod::Keep,
        transparent: header.transparent,
        left: to_u16(stored.left),
        top: to_u16(stored.top),
        width: to_u16(stored.width),
        height: to_u16(stored.height),
        buffer: Cow::Borrowed(data),
        ..gif::Frame::default()
    };
    encoder.write_lzw_pre_encoded_frame(&gif_frame)?;
    Ok(())
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

    /// A palette of 256 distinct colours, and a picture of `side` square
    /// pixels whose pixel `p` is colour `colour_of(p)`.
    fn picture(side: u32, colour_of: impl Fn(usize) -> u8) -> (Palette, Pixmap) {
        let palette =
            Palette::new((0..=255u8).map(|i| [i, 255 - i, i / 2]).collect()).expect("256 colours");
        let mut pixmap = Pixmap::new(side, side).expect("a pixmap");
        for (p, pixel) in pixmap.data_mut().chunks_exact_mut(4).enumerate() {
            let [r, g, b] = palette.colours()[usize::from(colour_of(p))];
            pixel.copy_from_slice(&[r, g, b, 255]);
        }
        (palette, pixmap)
    }

    #[test]
    fn the_colour_table_is_as_long_as_the_frames_need() {
        // Colours 0 to 5 of 256: a table of 8 (each frame's largest index
        // and its transparent index fit).
        let mut bytes = Vec::new();
        let (palette, first) = picture(16, |p| (p % 3) as u8);
        let mut gif =
            GifWriter::new(&mut bytes, (16, 16), &palette, &Playback::default()).expect("started");
        gif.push(&first, 100).expect("pushed");
        let (_, second) = picture(16, |p| (p % 6) as u8);
        gif.push(&second, 100).expect("pushed");
        gif.finish().expect("finished");
        let decoded = crate::decode_gif(&bytes).expect("decoded");
        assert_eq!(decoded.palette.len(), 8 * 3);
        assert_eq!(decoded.palette[..18], palette.rgb_bytes()[..18]);
        assert_eq!(decoded.frames[1].indices, palette.indices(&second));
    }

    #[test]
    fn a_gif_past_the_first_megabyte_is_written_whole_with_every_colour() {
        // Noise of 256 colours, 300 by 300: about 100 KB a frame, so the
        // header is written at the twelfth frame or so, with the whole
        // palette, and frames follow as they come.
        let mut seed = 0x9E37_79B9_7F4A_7C15_u64;
        let mut noise = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut pictures = Vec::new();
        for _ in 0..14 {
            let values: Vec<u8> = (0..300 * 300).map(|_| noise() as u8).collect();
            pictures.push(picture(300, |p| values[p]));
        }
        let palette = &pictures[0].0;
        let mut bytes = Vec::new();
        let mut gif =
            GifWriter::new(&mut bytes, (300, 300), palette, &Playback::default()).expect("started");
        for (_, pixmap) in &pictures {
            gif.push(pixmap, 10).expect("pushed");
        }
        let (_, summary) = gif.finish().expect("finished");
        assert!(bytes.len() > HOLD_BYTES + HOLD_BYTES / 4, "{}", bytes.len());
        assert_eq!(summary.frames, 14);
        let decoded = crate::decode_gif(&bytes).expect("decoded");
        assert_eq!(decoded.palette, palette.rgb_bytes());
        for ((_, pixmap), frame) in pictures.iter().zip(&decoded.frames) {
            assert!(frame.indices == palette.indices(pixmap));
        }
    }
}
