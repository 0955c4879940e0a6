//! The animated PNG (APNG) encoder behind [`crate::write_reel`]: lossless,
//! in the palette's colours, each picture after the first storing only the
//! rectangle that changed.
//!
//! APNG states its frame count before the first frame (in `acTL`), and the
//! output may be a pipe, so the frames' compressed chunks are kept until
//! the last one is known and written after the header then. Memory grows
//! with the file's size, not with the pictures': each is compressed as it
//! comes and only the previous one is kept, as palette indices.
//!
//! The colour table is the palette plus one more, fully transparent entry
//! when the palette leaves room: a changed rectangle's unchanged pixels are
//! that entry and the frame is blended over the one before (`APNG_BLEND_OP_OVER`),
//! as the GIF's transparent index does. A palette of 256 colours has no
//! room; its frames store the rectangle as it is and replace what was
//! there.
//!
//! The PNG's palette starts with the colour of the first picture's
//! top-left pixel: every row starts with a filter byte 0, which then
//! continues the run of the colour around the picture rather than breaking
//! it (a smooth demo whose palette started with the cells' white was 13 %
//! larger).

use std::io::Write;

use flate2::write::ZlibEncoder;
use flate2::Compression;
use tiny_skia::Pixmap;

use crate::error::EncodeError;
use crate::gif_writer::{Playback, Rectangle, ReelSummary};
use crate::palette::{Lookup, Palette};
use crate::sink::AnimationSink;

/// The eight bytes every PNG starts with.
const SIGNATURE: [u8; 8] = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A];

/// `fcTL`'s blend operations.
const BLEND_SOURCE: u8 = 0;
const BLEND_OVER: u8 = 1;

/// A frame compressed and waiting: a run of equal pictures may still add
/// to its delay, and the last frame takes the hold.
struct Staged {
    stored: Rectangle,
    blend: u8,
    delay_cs: u16,
    /// The zlib stream of the rectangle's filtered rows.
    data: Vec<u8>,
}

/// An animated PNG being written, one picture at a time.
pub(crate) struct ApngWriter<'p, W: Write> {
    out: W,
    /// The palette given, until the first picture puts its corner's colour
    /// first in `reordered` (when it is not already).
    given: &'p Palette,
    reordered: Option<Palette>,
    width: usize,
    height: usize,
    playback: Playback,
    /// The index that shows the frame before, if the palette leaves room.
    transparent: Option<u8>,
    /// The palette index of every pixel of the picture before; empty until
    /// the first picture.
    shown: Vec<u8>,
    /// The indices of the region being compared, row after row.
    region: Vec<u8>,
    staged: Option<Staged>,
    /// The chunks of the frames written so far (`fcTL`, `IDAT`, `fdAT`).
    body: Vec<u8>,
    /// The next chunk sequence number of `fcTL` and `fdAT`.
    sequence: u32,
    frames_written: usize,
    duration_cs: u64,
}

impl<'p, W: Write> ApngWriter<'p, W> {
    /// An APNG of pictures of `width` by `height` in `palette`'s colours.
    pub(crate) fn new(
        out: W,
        (width, height): (u32, u32),
        palette: &'p Palette,
        playback: &Playback,
    ) -> Result<ApngWriter<'p, W>, EncodeError> {
        if width == 0 || height == 0 || width > i32::MAX as u32 || height > i32::MAX as u32 {
            return Err(EncodeError::Canvas { width, height });
        }
        let transparent = u8::try_from(palette.len()).ok();
        Ok(ApngWriter {
            out,
            given: palette,
            reordered: None,
            width: width as usize,
            height: height as usize,
            playback: *playback,
            transparent,
            shown: Vec::new(),
            region: Vec::new(),
            staged: None,
            body: Vec::new(),
            sequence: 0,
            frames_written: 0,
            duration_cs: 0,
        })
    }

    /// The palette the PNG's indices are of.
    fn palette(&self) -> &Palette {
        self.reordered.as_ref().unwrap_or(self.given)
    }

    /// The palette indices of `region` of `pixmap`, row after row.
    fn map_region(&mut self, pixmap: &Pixmap, region: Rectangle) {
        let pixels = pixmap.data().as_chunks::<4>().0;
        let mut lookup = Lookup::new(self.reordered.as_ref().unwrap_or(self.given));
        self.region.clear();
        for y in region.top..region.top + region.height {
            let start = y * self.width + region.left;
            self.region.extend(
                pixels[start..start + region.width]
                    .iter()
                    .map(|&pixel| lookup.index(pixel)),
            );
        }
    }

    /// The smallest rectangle of `region` outside which the mapped picture
    /// equals the one shown; `None` when nothing changed.
    fn changed_within(&self, region: Rectangle) -> Option<Rectangle> {
        let (mut left, mut right, mut top, mut bottom) = (usize::MAX, 0, usize::MAX, 0);
        for y in region.top..region.top + region.height {
            let now = &self.region[(y - region.top) * region.width..][..region.width];
            let before = &self.shown[y * self.width + region.left..][..region.width];
            let Some(first) = now.iter().zip(before).position(|(a, b)| a != b) else {
                continue;
            };
            let last = now
                .iter()
                .zip(before)
                .rposition(|(a, b)| a != b)
                .unwrap_or(first);
            left = left.min(region.left + first);
            right = right.max(region.left + last + 1);
            top = top.min(y);
            bottom = y + 1;
        }
        (top != usize::MAX).then(|| Rectangle {
            left,
            top,
            width: right - left,
            height: bottom - top,
        })
    }

    /// The `changed` rectangle's indices, row after row, its unchanged
    /// pixels `clear` when given.
    fn changed_rows(&self, region: Rectangle, changed: Rectangle, clear: Option<u8>) -> Vec<u8> {
        let mut rows = Vec::with_capacity(changed.width * changed.height);
        for y in changed.top..changed.top + changed.height {
            let from = (y - region.top) * region.width + (changed.left - region.left);
            let now = &self.region[from..from + changed.width];
            let before = &self.shown[y * self.width + changed.left..][..changed.width];
            match clear {
                Some(clear) => rows.extend(now.iter().zip(before).map(|(&index, &was)| {
                    if index == was {
                        clear
                    } else {
                        index
                    }
                })),
                None => rows.extend_from_slice(now),
            }
        }
        rows
    }

    /// Holds `staged` back and writes the frame held before it.
    fn stage(&mut self, staged: Staged) -> Result<(), EncodeError> {
        if let Some(before) = self.staged.replace(staged) {
            self.write_frame(before);
        }
        Ok(())
    }

    /// Appends a frame's control chunk and its data to the body.
    fn write_frame(&mut self, staged: Staged) {
        let stored = staged.stored;
        let mut control = Vec::with_capacity(26);
        control.extend_from_slice(&self.sequence.to_be_bytes());
        for n in [stored.width, stored.height, stored.left, stored.top] {
            // Within the canvas, whose sides `new` held to 31 bits.
            control.extend_from_slice(&(n as u32).to_be_bytes());
        }
        control.extend_from_slice(&staged.delay_cs.to_be_bytes());
        control.extend_from_slice(&100u16.to_be_bytes());
        // Dispose "none": the next frame is drawn over this one, as the
        // GIF's "keep".
        control.extend_from_slice(&[0, staged.blend]);
        self.sequence += 1;
        write_chunk(&mut self.body, b"fcTL", &control);
        if self.frames_written == 0 {
            // The first frame is the PNG's own image, which viewers that
            // know no animation show.
            write_chunk(&mut self.body, b"IDAT", &staged.data);
        } else {
            let mut data = Vec::with_capacity(4 + staged.data.len());
            data.extend_from_slice(&self.sequence.to_be_bytes());
            data.extend_from_slice(&staged.data);
            self.sequence += 1;
            write_chunk(&mut self.body, b"fdAT", &data);
        }
        self.frames_written += 1;
        self.duration_cs += u64::from(staged.delay_cs);
    }
}

impl<W: Write> AnimationSink for ApngWriter<'_, W> {
    /// Appends `pixmap`, which differs from the picture before only within
    /// `region` (the whole canvas for the first picture), shown for
    /// `delay_cs` hundredths of a second.
    fn push_region(
        &mut self,
        pixmap: &Pixmap,
        region: Rectangle,
        delay_cs: u16,
    ) -> Result<(), EncodeError> {
        if self.shown.is_empty() {
            self.given.indices_into(pixmap, &mut self.shown);
            let corner = usize::from(self.shown[0]);
            if corner != 0 {
                // The same colours in another order (unless the corner's
                // is listed twice, when it is left as it was: the
                // transparent entry follows the palette's length).
                let first = [self.given.colours()[corner]];
                if let Ok(palette) = self.given.with_first(&first) {
                    if palette.len() == self.given.len() {
                        palette.indices_into(pixmap, &mut self.shown);
                        self.reordered = Some(palette);
                    }
                }
            }
            let whole = Rectangle::whole(pixmap);
            let data = compress_rows(self.shown.chunks_exact(self.width))?;
            return self.stage(Staged {
                stored: whole,
                blend: BLEND_SOURCE,
                delay_cs,
                data,
            });
        }
        let region = region.within(self.width, self.height);
        self.map_region(pixmap, region);
        let Some(changed) = self.changed_within(region) else {
            return self.push_unchanged(delay_cs);
        };
        // The rectangle as it is, and with its unchanged pixels transparent
        // where the palette leaves room: the smaller is kept. Transparency
        // makes long runs where little changed, and breaks them where
        // nearly everything did (a turning box).
        let compress = |clear| {
            let rows = self.changed_rows(region, changed, clear);
            compress_rows(rows.chunks_exact(changed.width))
        };
        let mut data = compress(None)?;
        let mut blend = BLEND_SOURCE;
        if let Some(clear) = self.transparent {
            let clear_data = compress(Some(clear))?;
            if clear_data.len() <= data.len() {
                (data, blend) = (clear_data, BLEND_OVER);
            }
        }
        for row in changed.top..changed.top + changed.height {
            let from = (row - region.top) * region.width + (changed.left - region.left);
            let to = row * self.width + changed.left;
            self.shown[to..to + changed.width]
                .copy_from_slice(&self.region[from..from + changed.width]);
        }
        self.stage(Staged {
            stored: changed,
            blend,
            delay_cs,
            data,
        })
    }

    /// Appends the picture before again: its frame's delay grows when
    /// repeats fold, otherwise it is a frame of one transparent pixel (or
    /// of the pixel as it is, for a palette without room).
    fn push_unchanged(&mut self, delay_cs: u16) -> Result<(), EncodeError> {
        if self.playback.fold_repeats {
            if let Some(staged) = &mut self.staged {
                if let Some(sum) = staged.delay_cs.checked_add(delay_cs) {
                    staged.delay_cs = sum;
                    return Ok(());
                }
            }
        }
        let pixel = self.transparent.unwrap_or(self.shown[0]);
        let data = compress_rows([[pixel].as_slice()].into_iter())?;
        self.stage(Staged {
            stored: Rectangle {
                left: 0,
                top: 0,
                width: 1,
                height: 1,
            },
            blend: BLEND_OVER,
            delay_cs,
            data,
        })
    }

    /// Writes the last frame, with the hold as its delay when there is
    /// one, then the whole file, flushed, and says what was written.
    fn finish(mut self) -> Result<ReelSummary, EncodeError> {
        if let Some(mut last) = self.staged.take() {
            if let Some(hold) = self.playback.hold_cs {
                last.delay_cs = hold;
            }
            self.write_frame(last);
        }
        if self.frames_written == 0 {
            return Err(EncodeError::NoPictures);
        }
        let mut head = Vec::with_capacity(64 + 4 * 256);
        head.extend_from_slice(&SIGNATURE);
        let mut header = Vec::with_capacity(13);
        header.extend_from_slice(&(self.width as u32).to_be_bytes());
        header.extend_from_slice(&(self.height as u32).to_be_bytes());
        // 8 bits a pixel, indexed colour, deflate, the one filter method,
        // not interlaced.
        header.extend_from_slice(&[8, 3, 0, 0, 0]);
        write_chunk(&mut head, b"IHDR", &header);
        let mut colours = self.palette().rgb_bytes();
        if self.transparent.is_some() {
            colours.extend_from_slice(&[0, 0, 0]);
            let mut alphas = vec![255; self.palette().len()];
            alphas.push(0);
            write_chunk(&mut head, b"PLTE", &colours);
            write_chunk(&mut head, b"tRNS", &alphas);
        } else {
            write_chunk(&mut head, b"PLTE", &colours);
        }
        let mut control = Vec::with_capacity(8);
        control.extend_from_slice(&(self.frames_written as u32).to_be_bytes());
        control.extend_from_slice(&u32::from(self.playback.loops.plays()).to_be_bytes());
        write_chunk(&mut head, b"acTL", &control);
        self.out.write_all(&head)?;
        self.out.write_all(&self.body)?;
        let mut end = Vec::with_capacity(12);
        write_chunk(&mut end, b"IEND", &[]);
        self.out.write_all(&end)?;
        self.out.flush()?;
        let summary = ReelSummary {
            frames: self.frames_written,
            duration_cs: self.duration_cs,
        };
        Ok(summary)
    }
}

/// The zlib stream of `rows`, each after its filter byte. Filter "none"
/// suits palette indices best (the PNG specification's advice): the
/// differences the other filters take mean nothing between indices.
fn compress_rows<'a>(rows: impl Iterator<Item = &'a [u8]>) -> Result<Vec<u8>, EncodeError> {
    let mut zlib = ZlibEncoder::new(Vec::new(), Compression::best());
    let (mut width, mut height) = (0, 0);
    for row in rows {
        zlib.write_all(&[0])?;
        zlib.write_all(row)?;
        (width, height) = (row.len(), height + 1);
    }
    let data = zlib.finish()?;
    // A chunk holds at most 2^31 - 1 bytes (less the sequence number).
    if data.len() > i32::MAX as usize - 4 {
        let side = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        return Err(EncodeError::Canvas {
            width: side(width),
            height: side(height),
        });
    }
    Ok(data)
}

/// Appends a chunk: its length, type, data and CRC.
fn write_chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    // `compress_rows` held every chunk's data under 2^31 bytes.
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = crc32fast::Hasher::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.finalize().to_be_bytes());
}
