//! Reading a GIF back as its viewer shows it: each frame composited over
//! the ones before, as palette indices. For tests and tools that check
//! what was written (frame counts, delays, loops, the pixels of a frame).

use gif::{DisposalMethod, Repeat};

use crate::gif_writer::Rectangle;

/// A whole GIF, decoded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodedGif {
    /// Canvas width in pixels.
    pub width: usize,
    /// Canvas height in pixels.
    pub height: usize,
    /// How often it plays (the NETSCAPE2.0 extension).
    pub repeat: Repeat,
    /// The global colour table: red, green, blue, ...
    pub palette: Vec<u8>,
    /// Every frame, in order.
    pub frames: Vec<DecodedFrame>,
}

/// One frame as a viewer shows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DecodedFrame {
    /// The whole canvas after this frame, as palette indices, row by row.
    pub indices: Vec<u8>,
    /// The rectangle the frame stores.
    pub stored: Rectangle,
    /// How long it shows, in hundredths of a second.
    pub delay_cs: u16,
    /// The index that lets the frame before show through, if any.
    pub transparent: Option<u8>,
    /// What happens to the frame when the next one is drawn.
    pub dispose: DisposalMethod,
}

/// Decodes `bytes`. Frames are composited as if each were kept (the only
/// disposal [`crate::write_reel`] writes); a frame's `dispose` says what it
/// asked for.
pub fn decode_gif(bytes: &[u8]) -> Result<DecodedGif, gif::DecodingError> {
    let mut options = gif::DecodeOptions::new();
    options.set_color_output(gif::ColorOutput::Indexed);
    let mut decoder = options.read_info(bytes)?;
    let (width, height) = (usize::from(decoder.width()), usize::from(decoder.height()));
    let palette = decoder.global_palette().unwrap_or_default().to_vec();
    let mut canvas = vec![0u8; width * height];
    let mut frames = Vec::new();
    while let Some(frame) = decoder.read_next_frame()? {
        let stored = Rectangle {
            left: usize::from(frame.left),
            top: usize::from(frame.top),
            width: usize::from(frame.width),
            height: usize::from(frame.height),
        };
        for row in 0..stored.height {
            let y = stored.top + row;
            let from = &frame.buffer[row * stored.width..(row + 1) * stored.width];
            if y >= height {
                break;
            }
            let start = y * width + stored.left;
            let end = (start + stored.width).min((y + 1) * width);
            for (pixel, &index) in canvas[start..end].iter_mut().zip(from) {
                if Some(index) != frame.transparent {
                    *pixel = index;
                }
            }
        }
        frames.push(DecodedFrame {
            indices: canvas.clone(),
            stored,
            delay_cs: frame.delay,
            transparent: frame.transparent,
            dispose: frame.dispose,
        });
    }
    Ok(DecodedGif {
        width,
        height,
        repeat: decoder.repeat(),
        palette,
        frames,
    })
}
/// How many frames the animation `bytes` holds, whatever its format (GIF,
/// APNG, WebP), counted from its blocks without decompressing a picture:
/// for checking a file against what was recorded of it. `None` when the
/// bytes are none of these formats (an APNG's chunks are not checked
/// further; a WebP's must lead to its end).
pub fn animation_frame_count(bytes: &[u8]) -> Option<usize> {
    if bytes.starts_with(b"\x89PNG\r\n\x1a\n") {
        return apng_frame_count(bytes);
    }
    if bytes.starts_with(b"RIFF") && bytes.get(8..12) == Some(b"WEBP") {
        return webp_frame_count(bytes);
    }
    gif_frame_count(bytes)
}

/// The frame count an APNG's `acTL` chunk gives.
fn apng_frame_count(bytes: &[u8]) -> Option<usize> {
    let mut at = 8;
    loop {
        let length = u32::from_be_bytes(bytes.get(at..at + 4)?.try_into().ok()?) as usize;
        let kind = bytes.get(at + 4..at + 8)?;
        if kind == b"acTL" {
            let count = bytes.get(at + 8..at + 12)?;
            return Some(u32::from_be_bytes(count.try_into().ok()?) as usize);
        }
        if kind == b"IDAT" || kind == b"IEND" {
            // `acTL` comes before the image data, or the PNG is a still.
            return None;
        }
        at = at.checked_add(12 + length)?;
    }
}

/// The frames (`ANMF` chunks) of a WebP; 1 for a still picture.
fn webp_frame_count(bytes: &[u8]) -> Option<usize> {
    let (mut at, mut frames, mut still) = (12, 0, false);
    while at < bytes.len() {
        let kind = bytes.get(at..at + 4)?;
        let size = u32::from_le_bytes(bytes.get(at + 4..at + 8)?.try_into().ok()?) as usize;
        frames += usize::from(kind == b"ANMF");
        still |= kind == b"VP8L" || kind == b"VP8 ";
        at = at.checked_add(8 + size + size % 2)?;
    }
    (at == bytes.len()).then_some(if frames == 0 && still { 1 } else { frames })
}

/// How many frames the GIF `bytes` holds, counted from its blocks without
/// decompressing a picture: for checking a file against what was recorded
/// of it. `None` when the bytes are not a whole GIF.
pub fn gif_frame_count(bytes: &[u8]) -> Option<usize> {
    if !(bytes.starts_with(b"GIF87a") || bytes.starts_with(b"GIF89a")) {
        return None;
    }
    // A colour table's length from a packed flags byte: 3 bytes a colour.
    let table = |flags: u8| {
        if flags & 0x80 == 0 {
            0
        } else {
            3 << ((flags & 0x07) + 1)
        }
    };
    // Skips data sub-blocks from `at`, to just past the empty one.
    let sub_blocks = |mut at: usize| -> Option<usize> {
        loop {
            let size = usize::from(*bytes.get(at)?);
            at += 1 + size;
            if size == 0 {
                return Some(at);
            }
        }
    };
    let mut at = 13 + table(*bytes.get(10)?);
    let mut frames = 0;
    loop {
        match *bytes.get(at)? {
            // An extension: its label, then its sub-blocks.
            0x21 => at = sub_blocks(at + 2)?,
            // An image: its descriptor, local table, code size, data.
            0x2C => {
                let flags = *bytes.get(at + 9)?;
                at = sub_blocks(at + 10 + table(flags) + 1)?;
                frames += 1;
            }
            0x3B => return Some(frames),
            _ => return None,
        }
    }
}

#[cfg(test)]
mod tests {
    use tiny_skia::{Color, Pixmap};

    use super::*;
    use crate::{GifWriter, Palette, Playback};

    #[test]
    fn frames_are_counted_without_decoding_and_a_cut_gif_is_none() {
        let palette = Palette::new(vec![[0, 0, 0], [255, 255, 255]]).expect("a palette");
        let mut bytes = Vec::new();
        let mut gif =
            GifWriter::new(&mut bytes, (8, 8), &palette, &Playback::default()).expect("started");
        let mut pixmap = Pixmap::new(8, 8).expect("a pixmap");
        for n in 0..3 {
            pixmap.fill(if n % 2 == 0 {
                Color::BLACK
            } else {
                Color::WHITE
            });
            gif.push(&pixmap, 100).expect("pushed");
        }
        gif.finish().expect("finished");
        let decoded = decode_gif(&bytes).expect("decoded").frames.len();
        assert_eq!(gif_frame_count(&bytes), Some(decoded));
        assert_eq!(decoded, 3);
        assert_eq!(gif_frame_count(&bytes[..bytes.len() - 1]), None);
        assert_eq!(gif_frame_count(b"\x89PNG"), None);
    }
}
