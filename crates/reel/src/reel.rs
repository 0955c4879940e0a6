//! The seam through which a game's pictures reach the animation file, and
//! the reel that streams them into it one picture at a time ([`write_reel`];
//! the encoding itself is [`crate::gif_writer`]'s, [`crate::apng`]'s or
//! [`crate::webp`]'s, as the [`AnimationFormat`] asks).
//!
//! A game implements [`Painter`]: the size of its canvas, its fixed
//! [`Palette`], and how to paint one of its pictures. [`write_reel`] takes
//! a painter, the [`Shot`]s to show (a picture and how long it stays) and
//! how the animation plays ([`Playback`]: loops, how long the last picture
//! holds, whether repeated pictures fold into one frame) and writes the
//! GIF. The palette is the global colour table, so no picture is
//! quantized. Each picture after the first stores only the rectangle of
//! pixels that changed (disposal "keep"), in whichever of two encodings is
//! smaller: unchanged pixels transparent, or the rectangle as it is. Only
//! the previous picture is kept, as palette indices: memory does not grow
//! with the length of the animation. The APNG stores the same rectangles;
//! libwebp, given whole pictures, finds its own.

use std::io::Write;

use tiny_skia::Pixmap;

use crate::apng::ApngWriter;
use crate::error::EncodeError;
use crate::gif_writer::{GifWriter, Playback, Rectangle, ReelSummary};
use crate::palette::Palette;
use crate::sink::AnimationSink;
use crate::webp::WebpWriter;

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
    /// [`Painter::canvas_size`].
    fn paint(&self, picture: &Self::Picture, canvas: &mut Pixmap);

    /// Paints `picture` into `canvas`, which holds `shown` as painted, and
    /// returns a rectangle outside which no pixel changed. A painter that
    /// knows what differs between two of its pictures repaints only that,
    /// and the writer compares only that; by default the whole canvas is
    /// painted.
    fn repaint(
        &self,
        picture: &Self::Picture,
        shown: &Self::Picture,
        canvas: &mut Pixmap,
    ) -> Rectangle {
        let _ = shown;
        self.paint(picture, canvas);
        Rectangle::whole(canvas)
    }
}

/// One picture of an animation and how long it shows.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Shot<P> {
    /// What to paint.
    pub picture: P,
    /// How long it shows, in hundredths of a second (GIF's unit).
    pub delay_cs: u16,
}

/// The file formats an animation can be written in, each lossless in the
/// painter's palette.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub enum AnimationFormat {
    /// An animated GIF: what every viewer shows; streamed, memory flat.
    #[default]
    Gif,
    /// An animated PNG: PNG's compression, and a still PNG to viewers
    /// that know no animation.
    Apng,
    /// An animated WebP (lossless, by libwebp): the smallest.
    Webp,
}

impl AnimationFormat {
    /// Every format, in the order `--help` lists them.
    pub const ALL: [AnimationFormat; 3] = [
        AnimationFormat::Gif,
        AnimationFormat::Apng,
        AnimationFormat::Webp,
    ];

    /// Its name on a command line: `gif`, `apng`, `webp`.
    pub fn name(self) -> &'static str {
        match self {
            AnimationFormat::Gif => "gif",
            AnimationFormat::Apng => "apng",
            AnimationFormat::Webp => "webp",
        }
    }

    /// What a user calls a file of it: `GIF`, `APNG`, `WebP`.
    pub fn title(self) -> &'static str {
        match self {
            AnimationFormat::Gif => "GIF",
            AnimationFormat::Apng => "APNG",
            AnimationFormat::Webp => "WebP",
        }
    }

    /// The file name extensions that say this format (`.png` is an APNG
    /// when an animation is written).
    pub fn extensions(self) -> &'static [&'static str] {
        match self {
            AnimationFormat::Gif => &["gif"],
            AnimationFormat::Apng => &["apng", "png"],
            AnimationFormat::Webp => &["webp"],
        }
    }

    /// The format a file name's extension says, ignoring case; `None` for
    /// another extension or none.
    pub fn of_path(path: &std::path::Path) -> Option<AnimationFormat> {
        let extension = path.extension()?.to_string_lossy().to_ascii_lowercase();
        AnimationFormat::ALL
            .into_iter()
            .find(|format| format.extensions().contains(&extension.as_str()))
    }
}

impl std::str::FromStr for AnimationFormat {
    type Err = String;

    fn from_str(name: &str) -> Result<Self, Self::Err> {
        AnimationFormat::ALL
            .into_iter()
            .find(|format| format.name() == name)
            .ok_or_else(|| {
                format!("'{name}' is not an animation format: expected gif, apng or webp")
            })
    }
}

/// Writes the animation of `shots`, painted by `painter`, played as
/// `playback` says, in `format`, to `out`.
pub fn write_reel<P, W>(
    painter: &P,
    shots: impl IntoIterator<Item = Shot<P::Picture>>,
    playback: &Playback,
    format: AnimationFormat,
    out: W,
) -> Result<ReelSummary, EncodeError>
where
    P: Painter,
    P::Picture: PartialEq,
    W: Write,
{
    let size = painter.canvas_size();
    match format {
        AnimationFormat::Gif => {
            let gif = GifWriter::new(out, size, painter.palette(), playback)?;
            stream(painter, shots, gif)
        }
        AnimationFormat::Apng => {
            let apng = ApngWriter::new(out, size, painter.palette(), playback)?;
            stream(painter, shots, apng)
        }
        AnimationFormat::Webp => {
            let webp = WebpWriter::new(out, size, painter.palette(), playback)?;
            stream(painter, shots, webp)
        }
    }
}

/// Paints each shot (only what changed, when the painter can tell) and
/// hands it to `sink`.
fn stream<P: Painter>(
    painter: &P,
    shots: impl IntoIterator<Item = Shot<P::Picture>>,
    mut sink: impl AnimationSink,
) -> Result<ReelSummary, EncodeError>
where
    P::Picture: PartialEq,
{
    let (width, height) = painter.canvas_size();
    let mut canvas = Pixmap::new(width, height).ok_or(EncodeError::Canvas { width, height })?;
    let mut previous: Option<P::Picture> = None;
    for shot in shots {
        match &previous {
            Some(shown) if *shown == shot.picture => sink.push_unchanged(shot.delay_cs)?,
            Some(shown) => {
                let region = painter.repaint(&shot.picture, shown, &mut canvas);
                sink.push_region(&canvas, region, shot.delay_cs)?;
            }
            None => {
                painter.paint(&shot.picture, &mut canvas);
                sink.push(&canvas, shot.delay_cs)?;
            }
        }
        previous = Some(shot.picture);
    }
    sink.finish()
}

#[cfg(test)]
mod tests {
    use std::io;

    use tiny_skia::{Color, Paint, Rect, Transform};

    use super::*;
    use crate::decode::decode_gif;
    use crate::gif_writer::Loops;
    use gif::Repeat;
    use std::num::NonZeroU16;

    const INKS: [[u8; 3]; 3] = [[236, 239, 243], [30, 100, 220], [214, 40, 40]];

    /// A painter of numbered test pictures, drawn by a function.
    struct Drawn(Palette, fn(u32, &mut Pixmap));

    impl Painter for Drawn {
        type Picture = u32;

        fn canvas_size(&self) -> (u32, u32) {
            (64, 48)
        }

        fn palette(&self) -> &Palette {
            &self.0
        }

        fn paint(&self, &n: &u32, canvas: &mut Pixmap) {
            (self.1)(n, canvas);
        }
    }

    /// Squares on a background: picture `n` is a blue square at `n` pixels
    /// from the left, and a red one when `n` is odd.
    fn squares() -> Drawn {
        Drawn(Palette::new(INKS.to_vec()).unwrap(), paint_squares)
    }

    fn paint_squares(n: u32, canvas: &mut Pixmap) {
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

    fn shots(pictures: &[u32], delay_cs: u16) -> Vec<Shot<u32>> {
        pictures
            .iter()
            .map(|&picture| Shot { picture, delay_cs })
            .collect()
    }

    fn reel(pictures: &[u32]) -> Vec<u8> {
        let mut bytes = Vec::new();
        let written = write_reel(
            &squares(),
            shots(pictures, 100),
            &Playback::default(),
            AnimationFormat::Gif,
            &mut bytes,
        )
        .unwrap();
        assert_eq!(written.frames, pictures.len());
        assert_eq!(written.duration_cs, 100 * pictures.len() as u64);
        bytes
    }

    #[test]
    fn decoded_pictures_equal_the_painted_ones_and_loop_forever() {
        let pictures = [0, 3, 4, 4, 9, 0];
        let decoded = decode_gif(&reel(&pictures)).unwrap();
        assert_eq!((decoded.width, decoded.height), (64, 48));
        assert_eq!(decoded.repeat, Repeat::Infinite);
        assert_eq!(&decoded.palette[..9], INKS.as_flattened());
        let painter = squares();
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
        let painter = squares();
        let mut canvas = Pixmap::new(64, 48).unwrap();
        painter.paint(&5, &mut canvas);
        let playback = Playback::default();
        let mut compared =
            GifWriter::new(Vec::new(), (64, 48), painter.palette(), &playback).unwrap();
        let mut skipped =
            GifWriter::new(Vec::new(), (64, 48), painter.palette(), &playback).unwrap();
        for gif in [&mut compared, &mut skipped] {
            gif.push(&canvas, 5).unwrap();
        }
        compared.push(&canvas, 5).unwrap();
        skipped.push_unchanged(5).unwrap();
        assert_eq!(compared.finish().unwrap().0, skipped.finish().unwrap().0);
    }

    #[test]
    fn shots_keep_their_delays() {
        let mut bytes = Vec::new();
        let mut all = shots(&[1, 2], 5);
        all.push(Shot {
            picture: 2,
            delay_cs: 300,
        });
        write_reel(
            &squares(),
            all,
            &Playback::default(),
            AnimationFormat::Gif,
            &mut bytes,
        )
        .unwrap();
        assert_eq!(delays_of(&bytes), [5, 5, 300]);
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
        let error = write_reel(
            &squares(),
            shots(&[0, 1, 2], 100),
            &Playback::default(),
            AnimationFormat::Gif,
            Full,
        )
        .unwrap_err();
        assert!(matches!(&error, EncodeError::Io(e) if e.kind() == io::ErrorKind::StorageFull));
        assert_eq!(error.to_string(), "cannot write the picture");
        let cause = std::error::Error::source(&error).map(ToString::to_string);
        assert_eq!(cause.as_deref(), Some("disk full"));
    }

    #[test]
    fn canvases_a_gif_cannot_hold_are_refused() {
        let palette = Palette::new(INKS.to_vec()).unwrap();
        for size in [(0, 10), (10, 0), (65_536, 1)] {
            let error = GifWriter::new(Vec::new(), size, &palette, &Playback::default())
                .err()
                .unwrap();
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

    fn reel_with(pictures: &[u32], delay_cs: u16, playback: Playback) -> (Vec<u8>, ReelSummary) {
        let mut bytes = Vec::new();
        let summary = write_reel(
            &squares(),
            shots(pictures, delay_cs),
            &playback,
            AnimationFormat::Gif,
            &mut bytes,
        )
        .unwrap();
        (bytes, summary)
    }

    fn delays_of(bytes: &[u8]) -> Vec<u16> {
        let decoded = decode_gif(bytes).unwrap();
        decoded.frames.iter().map(|f| f.delay_cs).collect()
    }

    fn netscape_extensions(bytes: &[u8]) -> usize {
        bytes.windows(11).filter(|w| w == b"NETSCAPE2.0").count()
    }

    #[test]
    fn loops_are_written_as_browsers_read_them() {
        let times = |n: u16| Loops::Times(NonZeroU16::new(n).unwrap());
        for (loops, repeat, extensions) in [
            (Loops::Forever, Repeat::Infinite, 1),
            // Played once: no extension at all (a count of 0 would loop
            // forever).
            (times(1), Repeat::Finite(0), 0),
            // Three plays: the first and two repetitions.
            (times(3), Repeat::Finite(2), 1),
            (times(u16::MAX), Repeat::Finite(u16::MAX - 1), 1),
        ] {
            let playback = Playback {
                loops,
                ..Playback::default()
            };
            let (bytes, _) = reel_with(&[0, 1], 100, playback);
            assert_eq!(netscape_extensions(&bytes), extensions, "{loops:?}");
            assert_eq!(decode_gif(&bytes).unwrap().repeat, repeat, "{loops:?}");
        }
    }

    #[test]
    fn the_hold_is_the_last_frames_delay() {
        let playback = Playback {
            hold_cs: Some(250),
            ..Playback::default()
        };
        let (bytes, summary) = reel_with(&[0, 1, 2], 5, playback);
        let delays = delays_of(&bytes);
        assert_eq!(delays, [5, 5, 250]);
        assert_eq!(summary.duration_cs, 260);
    }

    #[test]
    fn repeated_pictures_fold_into_one_frame_with_their_summed_delay() {
        let pictures = [0, 0, 0, 1, 2, 2, 0];
        let fold = Playback {
            fold_repeats: true,
            ..Playback::default()
        };
        let (bytes, summary) = reel_with(&pictures, 5, fold);
        let decoded = decode_gif(&bytes).unwrap();
        let delays: Vec<u16> = decoded.frames.iter().map(|f| f.delay_cs).collect();
        assert_eq!(delays, [15, 5, 10, 5]);
        assert_eq!(
            summary,
            ReelSummary {
                frames: 4,
                duration_cs: 35
            }
        );
        let painter = squares();
        let mut canvas = Pixmap::new(64, 48).unwrap();
        for (&n, frame) in [0, 1, 2, 0].iter().zip(&decoded.frames) {
            painter.paint(&n, &mut canvas);
            assert_eq!(frame.indices, painter.palette().indices(&canvas));
        }
        // Without folding, one frame per shot; a hold replaces the folded
        // delay of the last picture.
        let (bytes, _) = reel_with(&pictures, 5, Playback::default());
        assert_eq!(decode_gif(&bytes).unwrap().frames.len(), pictures.len());
        let held = Playback {
            hold_cs: Some(200),
            ..fold
        };
        let (bytes, _) = reel_with(&[3, 4, 4, 4], 5, held);
        let delays = delays_of(&bytes);
        assert_eq!(delays, [5, 200]);
    }

    #[test]
    fn a_fold_longer_than_a_gif_delay_goes_on_in_a_second_frame() {
        let fold = Playback {
            fold_repeats: true,
            ..Playback::default()
        };
        let (bytes, summary) = reel_with(&[7, 7, 7], 30_000, fold);
        let delays = delays_of(&bytes);
        assert_eq!(delays, [60_000, 30_000]);
        assert_eq!(summary.duration_cs, 90_000);
    }

    /// Stripes of every colour, moved `n % 100` pixels; from 100 on, with
    /// the two corner pixels painted over.
    fn paint_stripes(n: u32, canvas: &mut Pixmap) {
        let width = canvas.width();
        let last = canvas.data().len() / 4 - 1;
        for (i, pixel) in canvas.data_mut().chunks_exact_mut(4).enumerate() {
            let x = i as u32 % width + n % 100;
            let mut ink = INKS[((x / 3 + x / 5) % 3) as usize];
            if n >= 100 && (i == 0 || i == last) {
                ink = if ink == INKS[2] { INKS[1] } else { INKS[2] };
            }
            pixel.copy_from_slice(&[ink[0], ink[1], ink[2], 255]);
        }
    }

    #[test]
    fn each_frame_is_stored_in_the_smaller_encoding() {
        let painter = Drawn(Palette::new(INKS.to_vec()).unwrap(), paint_stripes);
        let pictures = [0, 1, 2, 102];
        let mut bytes = Vec::new();
        write_reel(
            &painter,
            shots(&pictures, 10),
            &Playback::default(),
            AnimationFormat::Gif,
            &mut bytes,
        )
        .unwrap();
        let decoded = decode_gif(&bytes).unwrap();
        let mut canvas = Pixmap::new(64, 48).unwrap();
        for (&n, frame) in pictures.iter().zip(&decoded.frames) {
            painter.paint(&n, &mut canvas);
            assert_eq!(
                frame.indices,
                painter.palette().indices(&canvas),
                "picture {n}"
            );
        }
        // Moved stripes: the few unchanged pixels are scattered, and making
        // them transparent would break the stripes' runs. Stored as they
        // are.
        assert!(decoded.frames[1..3].iter().all(|f| f.transparent.is_none()));
        // Two corners changed: the rectangle is the whole canvas, and all
        // but two of its pixels are one transparent run.
        let last = &decoded.frames[3];
        assert_eq!((last.stored.width, last.stored.height), (64, 48));
        assert!(last.transparent.is_some());
    }
}
