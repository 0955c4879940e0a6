//! What an animation shows over time, whatever its format: each file
//! decoded by a decoder independent of the one that wrote it (the `gif`
//! crate's, the `png` crate's, libwebp's demuxer) into the pictures a
//! viewer shows and for how long, so that a GIF, an APNG and a WebP of the
//! same run can be held to show the same thing.

use std::io::Cursor;

/// One picture of an animation and how long it shows.
#[derive(Clone, PartialEq, Eq)]
pub struct Moment {
    /// Red, green, blue and alpha of every pixel, row after row.
    pub rgba: Vec<u8>,
    /// How long it shows, in milliseconds.
    pub duration_ms: u32,
}

impl std::fmt::Debug for Moment {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Moment({} bytes, {} ms)",
            self.rgba.len(),
            self.duration_ms
        )
    }
}

/// An animation as a viewer plays it: its size, how many times it plays
/// (0 for ever) and its pictures, a run of equal ones counted as one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Timeline {
    /// Width and height in pixels.
    pub size: (u32, u32),
    /// How many times it plays; 0 for ever.
    pub plays: u32,
    /// The pictures in order; no two in a row are equal.
    pub moments: Vec<Moment>,
}

impl Timeline {
    fn new(size: (u32, u32), plays: u32) -> Timeline {
        Timeline {
            size,
            plays,
            moments: Vec::new(),
        }
    }

    /// Adds a picture, folded into the one before when they are equal.
    fn show(&mut self, rgba: &[u8], duration_ms: u32) {
        match self.moments.last_mut() {
            Some(last) if last.rgba == rgba => last.duration_ms += duration_ms,
            _ => self.moments.push(Moment {
                rgba: rgba.to_vec(),
                duration_ms,
            }),
        }
    }

    /// The whole animation's length, in milliseconds.
    pub fn duration_ms(&self) -> u32 {
        self.moments.iter().map(|moment| moment.duration_ms).sum()
    }
}

/// The timeline of a GIF.
pub fn of_gif(bytes: &[u8]) -> Timeline {
    let gif = reel::decode_gif(bytes).expect("a GIF");
    let plays = match gif.repeat {
        reel::Repeat::Infinite => 0,
        reel::Repeat::Finite(repeats) => u32::from(repeats) + 1,
    };
    let mut timeline = Timeline::new((gif.width as u32, gif.height as u32), plays);
    for frame in &gif.frames {
        let rgba: Vec<u8> = frame
            .indices
            .iter()
            .flat_map(|&index| {
                let at = 3 * usize::from(index);
                [
                    gif.palette[at],
                    gif.palette[at + 1],
                    gif.palette[at + 2],
                    255,
                ]
            })
            .collect();
        timeline.show(&rgba, u32::from(frame.delay_cs) * 10);
    }
    timeline
}

/// The timeline of an animated PNG.
pub fn of_apng(bytes: &[u8]) -> Timeline {
    let mut decoder = png::Decoder::new(Cursor::new(bytes));
    decoder.set_transformations(png::Transformations::EXPAND | png::Transformations::ALPHA);
    let mut reader = decoder.read_info().expect("a PNG");
    let info = reader.info();
    let (width, height) = (info.width, info.height);
    let control = info.animation_control.expect("an animated PNG (acTL)");
    let mut timeline = Timeline::new((width, height), control.num_plays);
    let mut canvas = vec![0u8; (width * height * 4) as usize];
    let mut frame = vec![0u8; reader.output_buffer_size().expect("a size")];
    for _ in 0..control.num_frames {
        reader.next_frame(&mut frame).expect("a frame");
        let control = reader.info().frame_control.expect("fcTL");
        let (left, top) = (control.x_offset as usize, control.y_offset as usize);
        let frame_width = control.width as usize;
        for y in 0..control.height as usize {
            for x in 0..frame_width {
                let from = 4 * (y * frame_width + x);
                let to = 4 * ((top + y) * width as usize + left + x);
                let pixel = &frame[from..from + 4];
                let over = control.blend_op == png::BlendOp::Over;
                // Our frames' pixels are opaque or wholly transparent.
                if !over || pixel[3] == 255 {
                    canvas[to..to + 4].copy_from_slice(pixel);
                }
            }
        }
        assert_eq!(
            control.dispose_op,
            png::DisposeOp::None,
            "only 'none' is written"
        );
        let den = if control.delay_den == 0 {
            100
        } else {
            control.delay_den
        };
        timeline.show(
            &canvas,
            u32::from(control.delay_num) * 1000 / u32::from(den),
        );
    }
    timeline
}

/// The timeline of an animated WebP.
pub fn of_webp(bytes: &[u8]) -> Timeline {
    let decoder = webp_animation::Decoder::new(bytes).expect("a WebP");
    let (width, height) = decoder.dimensions();
    let plays = webp_loop_count(bytes);
    let mut timeline = Timeline::new((width, height), plays);
    // libwebp gives each frame with the time it ends.
    let mut start = 0;
    for frame in decoder.into_iter() {
        let end = frame.timestamp() as u32;
        timeline.show(frame.data(), end - start);
        start = end;
    }
    timeline
}

/// The loop count of a WebP's `ANIM` chunk; 0 (shown for ever) for a
/// still picture, which libwebp writes for an animation of one picture.
fn webp_loop_count(bytes: &[u8]) -> u32 {
    let mut at = 12;
    while at + 8 <= bytes.len() {
        let kind = &bytes[at..at + 4];
        let size = u32::from_le_bytes(bytes[at + 4..at + 8].try_into().expect("4 bytes")) as usize;
        if kind == b"ANIM" {
            return u32::from(u16::from_le_bytes([bytes[at + 12], bytes[at + 13]]));
        }
        at += 8 + size + size % 2;
    }
    0
}

/// The timeline of an animation file, by its first bytes.
pub fn of_file(bytes: &[u8]) -> Timeline {
    if bytes.starts_with(b"GIF8") {
        of_gif(bytes)
    } else if bytes.starts_with(b"\x89PNG") {
        of_apng(bytes)
    } else if bytes.starts_with(b"RIFF") {
        of_webp(bytes)
    } else {
        panic!("not a GIF, PNG or WebP")
    }
}
