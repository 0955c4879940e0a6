//! The box's pictures through the shared GIF pipeline (`reel`): what one
//! picture of an animation of the box shows, how a [`Renderer`] paints it,
//! and the 1-second GIF of BOX.md §9, streamed one frame at a time.

use std::io::Write;

use reel::tiny_skia::Pixmap;
use reel::{write_reel, EncodeError, Painter, Palette, Playback, Rectangle, ReelSummary, Shot};

use super::options::RenderOptions;
use super::renderer::Renderer;
use super::scene::Scene;
use crate::rules::frames::Frame;

/// How long each frame of the 1-second GIF shows, in GIF units of 10 ms.
pub const FRAME_DELAY_CENTISECONDS: u16 = 100;

/// The box's side of the seam: a renderer painting [`Scene`]s, the box's
/// pictures.
pub(crate) struct BoxPainter<'a>(pub(crate) &'a Renderer);

impl Painter for BoxPainter<'_> {
    type Picture = Scene;

    fn canvas_size(&self) -> (u32, u32) {
        self.0.canvas_size()
    }

    fn palette(&self) -> &Palette {
        self.0.palette()
    }

    fn repaint(&self, picture: &Scene, shown: &Scene, canvas: &mut Pixmap) -> Rectangle {
        if let (Scene::Still(frame), Scene::Still(shown)) = (picture, shown) {
            if let Some(changed) = self.0.redraw_changes(frame, shown, canvas) {
                return changed;
            }
        }
        self.paint(picture, canvas);
        Rectangle::whole(canvas)
    }

    fn paint(&self, picture: &Scene, canvas: &mut Pixmap) {
        self.0.draw(picture, canvas);
    }
}

/// Writes the animated GIF of `frames` (BOX.md §9: each frame for one
/// second, looping forever, unless `options` loop or hold otherwise) to
/// `out` and returns its frame count and length. Every frame is a frame of
/// the GIF, even one that looks as the one before.
pub fn write_gif<W: Write>(
    frames: impl IntoIterator<Item = Frame>,
    options: &RenderOptions,
    out: W,
) -> Result<ReelSummary, EncodeError> {
    let renderer = Renderer::new(options);
    let shots = frames.into_iter().map(|frame| Shot {
        picture: Scene::Still(frame),
        delay_cs: FRAME_DELAY_CENTISECONDS,
    });
    let playback = Playback {
        loops: options.loops(),
        hold_cs: options.hold_cs(),
        fold_repeats: false,
    };
    write_reel(
        &BoxPainter(&renderer),
        shots,
        &playback,
        options.format(),
        out,
    )
}

#[cfg(test)]
mod tests {
    use reel::{decode_gif, DecodedGif, Repeat};

    use super::*;
    use crate::draw::inks::{ink_palette, PALETTE};
    use crate::rules::scenario::Scenario;

    fn gif_of(scenario: &Scenario) -> DecodedGif {
        let mut bytes = Vec::new();
        let written = write_gif(scenario.frames(), &RenderOptions::default(), &mut bytes).unwrap();
        assert_eq!(written.frames, scenario.frames().count());
        assert_eq!(written.duration_cs, 100 * written.frames as u64);
        decode_gif(&bytes).unwrap()
    }

    #[test]
    fn the_demo_gif_shows_every_frame_for_a_second_forever() {
        let decoded = gif_of(&Scenario::figure_1a());
        assert_eq!(decoded.frames.len(), 26);
        assert_eq!(decoded.repeat, Repeat::Infinite);
        assert!(decoded.frames.iter().all(|frame| frame.delay_cs == 100));
        assert_eq!(&decoded.palette[..24], PALETTE.as_flattened());
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
            let decoded = gif_of(&scenario);
            let size = (decoded.width as u32, decoded.height as u32);
            assert_eq!(size, renderer.canvas_size());
            for (frame, decoded) in scenario.frames().zip(&decoded.frames) {
                let expected = ink_palette().indices(&renderer.render(&frame));
                assert!(
                    expected == decoded.indices,
                    "frame {} of {state} {ops} differs",
                    frame.index
                );
            }
        }
    }

    #[test]
    fn later_frames_store_only_what_changed() {
        let decoded = gif_of(&Scenario::figure_1a());
        let side = decoded.width;
        let stored: Vec<_> = decoded.frames.iter().map(|frame| frame.stored).collect();
        assert_eq!((stored[0].width, stored[0].height), (side, side));
        // Frame 5 is the stot's one step right; frame 2 a single tick of
        // three shubbles and two smoles: both touch a few cells only.
        for i in [2, 5] {
            let area = stored[i].width * stored[i].height;
            assert!(area * 4 < side * side, "frame {i}: {:?}", stored[i]);
        }
    }

    #[test]
    fn repainting_what_changed_gives_the_whole_picture() {
        use crate::rules::engine::seeded_legal_operations;
        let mut scenarios = Vec::new();
        for (i, state) in [
            ".........@...o....ooo..xox...",
            "@................x.....o..x..",
            "x@.....o.o...o.o.o.o.oo.ooox.",
            "x@.........oo.o..oo.o.xooooo.",
        ]
        .into_iter()
        .enumerate()
        {
            let start = Scenario::parse(state, "", false).unwrap().start;
            let operations = seeded_legal_operations(start, 40, 7 + i as u64);
            scenarios.push(Scenario {
                start,
                operations,
                settle_first: false,
            });
        }
        // Failing runs: the mark of a refused move and of an escape.
        scenarios.push(Scenario::parse(".........@...o....ooo..xox...", "+^^", false).unwrap());
        scenarios.push(Scenario::parse("@......................x.x...", "<", false).unwrap());
        for scenario in &scenarios {
            let plain = RenderOptions::default();
            let marked = RenderOptions::new(23)
                .unwrap()
                .with_numbers(true)
                .with_caption(&scenario.operations);
            for options in [plain, marked] {
                let renderer = Renderer::new(&options);
                let painter = BoxPainter(&renderer);
                let frames: Vec<Frame> = scenario.frames().collect();
                let mut canvas = renderer.new_pixmap();
                painter.paint(&Scene::Still(frames[0]), &mut canvas);
                for pair in frames.windows(2) {
                    let (shown, next) = (Scene::Still(pair[0]), Scene::Still(pair[1]));
                    let before = canvas.clone();
                    let changed = painter.repaint(&next, &shown, &mut canvas);
                    let whole = renderer.render(&pair[1]);
                    assert!(
                        canvas == whole,
                        "frame {} of {}",
                        pair[1].index,
                        scenario.start
                    );
                    // Nothing changed outside the rectangle returned.
                    let width = whole.width() as usize;
                    let pixels = |p: &Pixmap| {
                        p.data()
                            .chunks_exact(4)
                            .map(<[u8]>::to_vec)
                            .collect::<Vec<_>>()
                    };
                    for (i, (a, b)) in pixels(&before).iter().zip(pixels(&whole)).enumerate() {
                        let (x, y) = (i % width, i / width);
                        let outside = x < changed.left
                            || x >= changed.left + changed.width
                            || y < changed.top
                            || y >= changed.top + changed.height;
                        assert!(!outside || *a == b, "pixel {x},{y} changed outside");
                    }
                }
            }
        }
    }

    #[test]
    fn an_unchanged_frame_is_one_pixel() {
        let mut frames: Vec<Frame> = Scenario::figure_1a().frames().take(2).collect();
        frames.insert(1, frames[0]);
        let mut bytes = Vec::new();
        let written = write_gif(frames, &RenderOptions::default(), &mut bytes).unwrap();
        assert_eq!(written.frames, 3);
        let decoded = decode_gif(&bytes).unwrap();
        let stored = decoded.frames[1].stored;
        assert_eq!((stored.width, stored.height), (1, 1));
        assert_eq!(decoded.frames[1].indices, decoded.frames[0].indices);
    }
}
