//! The three formats of [`write_reel`] against each other: the same shots
//! decoded from the GIF, the APNG and the WebP (each by a decoder of its
//! own) show the same pictures for the same time and play as often,
//! whatever the playback, and a full palette, which leaves the APNG no
//! transparent entry, too.

use std::num::NonZeroU16;

use reel::tiny_skia::{Color, Paint, Pixmap, Rect, Transform};
use reel::{write_reel, AnimationFormat, Loops, Painter, Palette, Playback, ReelSummary, Shot};
use testing::timeline::{self, Timeline};

/// Pictures of coloured squares: picture `n` has a square of colour `n`
/// of the palette at `n` pixels from the left, on colour 0.
struct Squares(Palette);

impl Painter for Squares {
    type Picture = u32;

    fn canvas_size(&self) -> (u32, u32) {
        (40, 24)
    }

    fn palette(&self) -> &Palette {
        &self.0
    }

    fn paint(&self, &n: &u32, canvas: &mut Pixmap) {
        let colour = |index: usize| {
            let [r, g, b] = self.0.colours()[index % self.0.len()];
            Color::from_rgba8(r, g, b, 255)
        };
        canvas.fill(colour(0));
        let mut paint = Paint::default();
        paint.set_color(colour(n as usize + 1));
        let square = Rect::from_xywh((n % 30) as f32, 6.0, 8.0, 8.0).expect("a square");
        canvas.fill_rect(square, &paint, Transform::identity(), None);
    }
}

/// A palette of `n` distinct colours.
fn palette(n: usize) -> Palette {
    let colours = (0..n)
        .map(|i| [(i * 37 % 256) as u8, (i * 91 % 256) as u8, i as u8])
        .collect();
    Palette::new(colours).expect("at most 256 colours")
}

fn write(
    painter: &Squares,
    pictures: &[u32],
    playback: &Playback,
    format: AnimationFormat,
) -> (Timeline, ReelSummary) {
    let shots = pictures.iter().map(|&picture| Shot {
        picture,
        delay_cs: 7,
    });
    let mut bytes = Vec::new();
    let summary = write_reel(painter, shots, playback, format, &mut bytes).expect("written");
    (timeline::of_file(&bytes), summary)
}

fn same_in_every_format(painter: &Squares, pictures: &[u32], playback: &Playback) -> Timeline {
    let (gif, gif_summary) = write(painter, pictures, playback, AnimationFormat::Gif);
    for format in [AnimationFormat::Apng, AnimationFormat::Webp] {
        let (other, summary) = write(painter, pictures, playback, format);
        assert!(
            other == gif,
            "{format:?} {playback:?}: {other:?} against {gif:?}"
        );
        assert_eq!(
            summary.duration_cs, gif_summary.duration_cs,
            "{format:?} {playback:?}"
        );
        // The APNG has the GIF's frames; libwebp folds equal pictures in a
        // row into one frame, and the count is the file's.
        match format {
            AnimationFormat::Apng => assert_eq!(summary.frames, gif_summary.frames),
            _ => assert!(summary.frames <= gif_summary.frames),
        }
    }
    gif
}

#[test]
fn every_format_shows_the_same_whatever_the_playback() {
    let painter = Squares(palette(5));
    let pictures = [0, 1, 1, 2, 2, 2, 3, 0, 0];
    for playback in [
        Playback::default(),
        Playback {
            loops: Loops::Times(NonZeroU16::MIN),
            hold_cs: Some(150),
            fold_repeats: true,
        },
        Playback {
            loops: Loops::Times(NonZeroU16::new(4).expect("4")),
            hold_cs: Some(3),
            fold_repeats: false,
        },
    ] {
        let shown = same_in_every_format(&painter, &pictures, &playback);
        let plays = match playback.loops {
            Loops::Forever => 0,
            Loops::Times(n) => u32::from(n.get()),
        };
        assert_eq!(shown.plays, plays);
        // Equal pictures in a row are one moment: 0, 1, 2, 3, 0.
        assert_eq!(shown.moments.len(), 5);
        let last = shown.moments.last().map(|moment| moment.duration_ms);
        let expected = match (playback.hold_cs, playback.fold_repeats) {
            (None, _) => 140,
            (Some(hold), true) => u32::from(hold) * 10,
            (Some(hold), false) => 70 + u32::from(hold) * 10,
        };
        assert_eq!(last, Some(expected), "{playback:?}");
    }
}

#[test]
fn a_full_palette_leaves_no_transparent_entry_and_still_shows_the_same() {
    let painter = Squares(palette(256));
    let pictures: Vec<u32> = (0..40).chain([3, 3, 250]).collect();
    same_in_every_format(&painter, &pictures, &Playback::default());
}

#[test]
fn one_picture_is_the_same_picture_in_every_format() {
    // libwebp writes a still picture for it, which has no time.
    let painter = Squares(palette(3));
    let playback = Playback::default();
    let (gif, _) = write(&painter, &[1], &playback, AnimationFormat::Gif);
    for format in [AnimationFormat::Apng, AnimationFormat::Webp] {
        let (other, summary) = write(&painter, &[1], &playback, format);
        assert_eq!(other.moments.len(), 1);
        assert!(other.moments[0].rgba == gif.moments[0].rgba, "{format:?}");
        assert_eq!((summary.frames, summary.duration_cs), (1, 7));
    }
}

#[test]
fn no_picture_is_refused_by_the_formats_that_cannot_hold_it() {
    let painter = Squares(palette(3));
    for format in [AnimationFormat::Apng, AnimationFormat::Webp] {
        let written = write_reel(&painter, [], &Playback::default(), format, Vec::new());
        assert!(
            matches!(written, Err(reel::EncodeError::NoPictures)),
            "{format:?}"
        );
    }
}
