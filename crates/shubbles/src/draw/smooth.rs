//! The smooth animation: 20 pictures a second, the box turning about its
//! centre, the stot sliding, creatures falling one cell per tick and a
//! shubble leaving through the opening, all derived from the frames of
//! BOX.md §8 (never from a simulation of its own).
//!
//! Each step from one §8 frame to the next becomes a few pictures of motion
//! ending exactly on that frame; each operation then rests on its last
//! frame until it has lasted at least a second, so no more than one
//! operation happens per second. Whenever the motion is at rest, or passes
//! a §8 frame (the 90° of a half turn), the picture is that frame as the
//! 1-second GIF draws it, on a canvas large enough for the box at any angle.
//!
//! Pictures use the blended palette (the inks and their blends, for what
//! slides between whole pixels and for text), fixed in advance; frames stream through, one at a time, so
//! memory stays flat however long the run.

use std::collections::VecDeque;
use std::io::Write;
use std::iter::Peekable;

use reel::tiny_skia::Pixmap;
use reel::{write_reel, EncodeError, Painter, Playback, ReelSummary, Shot};

use super::animation::BoxPainter;
use super::options::RenderOptions;
use super::renderer::Renderer;
use super::scene::{Motion, Scene};
use crate::model::event::Event;
use crate::model::state::State;
use crate::rules::frames::Frame;

/// How long each picture shows, in GIF units of 10 ms: 20 a second.
pub const SMOOTH_DELAY_CENTISECONDS: u16 = 5;

/// How long the last picture stays before the animation starts again,
/// unless the options say otherwise: long enough to read the outcome (and
/// a failure's mark).
pub const SMOOTH_HOLD_CENTISECONDS: u16 = 200;

/// Pictures per second at [`SMOOTH_DELAY_CENTISECONDS`].
pub const PICTURES_PER_SECOND: usize = 20;

/// Pictures of motion for a quarter turn (a half turn takes twice as many,
/// in one motion).
const QUARTER_TURN: usize = 8;
/// Pictures of motion for one falling tick: one cell.
const FALL_TICK: usize = 4;
/// Pictures of motion for the stot's move to the next cell.
const STOT_SLIDE: usize = 8;
/// Rest on a turned box before what it makes fall starts falling, so the
/// turn and the fall read as two things.
const PAUSE_AFTER_TURN: usize = 4;
/// Rest after each operation, at least.
const LEAST_REST: usize = 6;
/// Rest on the start before the first operation.
const START_HOLD: usize = PICTURES_PER_SECOND;
/// Rest on the last frame before the animation loops: long enough to read
/// the outcome (and a failure's mark).
const END_HOLD: usize = 2 * PICTURES_PER_SECOND;

/// Slow at both ends, so a turn starts and stops gently; symmetric, so the
/// middle of a half turn is exactly its 90° frame.
fn ease(t: f32) -> f32 {
    t * t * (3.0 - 2.0 * t)
}

/// The pictures of the smooth animation of `frames`, lazily: at most one
/// operation's worth is held at a time.
pub(crate) struct Shots<I: Iterator<Item = Frame>> {
    frames: Peekable<I>,
    queue: VecDeque<Scene>,
    /// The last §8 frame reached, where the motion rests.
    at: Option<Frame>,
    /// Pictures since the current operation started.
    in_operation: usize,
}

impl<I: Iterator<Item = Frame>> Shots<I> {
    pub(crate) fn new(frames: I) -> Self {
        Shots {
            frames: frames.peekable(),
            queue: VecDeque::new(),
            at: None,
            in_operation: 0,
        }
    }

    fn push(&mut self, shot: Scene) {
        self.queue.push_back(shot);
        self.in_operation += 1;
    }

    /// `steps` pictures from `before` to the frame `next`: the motion at
    /// `1/steps`, `2/steps`, … of the way, then `next` itself, at rest.
    fn glide(&mut self, before: State, next: Frame, steps: usize, motion: impl Fn(f32) -> Motion) {
        for i in 1..steps {
            self.push(Scene::Moving {
                before,
                toward: next,
                motion: motion(i as f32 / steps as f32),
            });
        }
        self.push(Scene::Still(next));
    }

    fn rest(&mut self, frame: Frame, pictures: usize) {
        for _ in 0..pictures {
            self.push(Scene::Still(frame));
        }
    }

    /// Queues the motion from `at` to the next frame (or the next two, for a
    /// half turn) and the rest that follows it.
    fn advance(&mut self, at: Frame) -> Option<()> {
        let next = self.frames.next()?;
        let record = next.cause?;
        let before = at.state;
        let mut last = next;
        match record.event {
            Event::Turned { from, to } => {
                let start = from.quarters() as f32 * 90.0;
                let same_op = |f: &Frame| {
                    f.cause.is_some_and(|r| {
                        r.op == record.op && matches!(r.event, Event::Turned { .. })
                    })
                };
                let halfway = self.frames.next_if(same_op);
                let (sweep, stills) = match halfway {
                    // `|`: one motion through the 90° frame to the 180° one.
                    Some(end) => {
                        last = end;
                        (180.0, vec![(QUARTER_TURN, next), (2 * QUARTER_TURN, end)])
                    }
                    None if to == from.clockwise() => (90.0, vec![(QUARTER_TURN, next)]),
                    None => (-90.0, vec![(QUARTER_TURN, next)]),
                };
                let pictures = stills.last().map_or(0, |&(at, _)| at);
                for i in 1..=pictures {
                    match stills.iter().find(|&&(at, _)| at == i) {
                        Some(&(_, frame)) => self.push(Scene::Still(frame)),
                        None => {
                            let t = ease(i as f32 / pictures as f32);
                            // The caption names the frame being turned to.
                            let toward = stills
                                .iter()
                                .find(|&&(at, _)| at > i)
                                .map_or(next, |&(_, f)| f);
                            self.push(Scene::Moving {
                                before,
                                toward,
                                motion: Motion::Turning {
                                    degrees: start + sweep * t,
                                },
                            });
                        }
                    }
                }
                let falls_next = self
                    .frames
                    .peek()
                    .is_some_and(|f| f.cause.is_some_and(|r| r.op == record.op));
                if falls_next {
                    self.rest(last, PAUSE_AFTER_TURN);
                }
            }
            Event::Fell { moved } => self.glide(before, next, FALL_TICK, |t| Motion::Falling {
                moved,
                progress: t,
            }),
            Event::StotMoved { to, .. } => {
                self.glide(before, next, STOT_SLIDE, |t| Motion::StotSliding {
                    to,
                    progress: ease(t),
                })
            }
            // Frames are made by the three events above only.
            Event::Left { .. } | Event::Failed(_) => self.push(Scene::Still(next)),
        }
        self.at = Some(last);
        let operation_ends = match self.frames.peek() {
            None => true,
            Some(f) => f.cause.map(|r| r.op) != Some(record.op),
        };
        if operation_ends {
            let mut rest = LEAST_REST.max(PICTURES_PER_SECOND.saturating_sub(self.in_operation));
            if self.frames.peek().is_none() {
                rest = rest.max(END_HOLD);
            }
            self.rest(last, rest);
            self.in_operation = 0;
        }
        Some(())
    }
}

impl<I: Iterator<Item = Frame>> Iterator for Shots<I> {
    type Item = Scene;

    fn next(&mut self) -> Option<Scene> {
        while self.queue.is_empty() {
            match self.at {
                None => {
                    let start = self.frames.next()?;
                    self.at = Some(start);
                    let hold = if self.frames.peek().is_some() {
                        START_HOLD
                    } else {
                        END_HOLD
                    };
                    self.rest(start, hold);
                    self.in_operation = 0;
                }
                Some(at) => self.advance(at)?,
            }
        }
        self.queue.pop_front()
    }
}

/// Writes the smooth animated GIF of `frames` (the frames of BOX.md §8, in
/// order, as [`Scenario::frames`] gives them) to `out` and returns its
/// frame count and length. Each picture shows for
/// [`SMOOTH_DELAY_CENTISECONDS`]; a run of equal pictures (a rest) is one
/// frame showing for their sum, and the last one holds for
/// [`SMOOTH_HOLD_CENTISECONDS`] or the options' hold.
///
/// [`Scenario::frames`]: crate::rules::scenario::Scenario::frames
pub fn write_smooth_gif<W: Write>(
    frames: impl IntoIterator<Item = Frame>,
    options: &RenderOptions,
    out: W,
) -> Result<ReelSummary, EncodeError> {
    let renderer = Renderer::any_angle(options);
    // At fewer pictures a second, every `every`-th picture shows for the
    // time of those it stands for, and the last picture is kept: the
    // motion is coarser, and a change shows at most one picture's time
    // late (a rest beginning between two kept pictures begins at the next).
    let every = PICTURES_PER_SECOND / options.smooth_rate().pictures_per_second();
    let mut pictures = Shots::new(frames.into_iter()).peekable();
    let mut final_shot: Option<Shot<Scene>> = None;
    let shots = std::iter::from_fn(move || {
        if let Some(shot) = final_shot.take() {
            return Some(shot);
        }
        let shown = pictures.next()?;
        let mut stands_for = 1;
        let mut latest = None;
        while stands_for < every {
            let Some(later) = pictures.next() else { break };
            stands_for += 1;
            latest = Some(later);
        }
        // The animation's last picture comes at its own time, after the
        // group it ends.
        if pictures.peek().is_none() {
            if let Some(picture) = latest {
                stands_for -= 1;
                final_shot = Some(Shot {
                    picture,
                    delay_cs: SMOOTH_DELAY_CENTISECONDS,
                });
            }
        }
        Some(Shot {
            picture: shown,
            delay_cs: SMOOTH_DELAY_CENTISECONDS * stands_for as u16,
        })
    });
    // A rest is many equal pictures: one frame each would be 1-pixel
    // frames of no use.
    let playback = Playback {
        loops: options.loops(),
        hold_cs: Some(options.hold_cs().unwrap_or(SMOOTH_HOLD_CENTISECONDS)),
        fold_repeats: true,
    };
    write_reel(
        &BoxPainter(&renderer),
        shots,
        &playback,
        options.format(),
        out,
    )
}

/// Scene `n` (from 0) of the smooth animation of `frames`, as
/// [`write_smooth_gif`] draws it; `None` past the end. For a still or a
/// thumbnail of one moment of the motion, and for golden tests.
pub fn smooth_picture(
    frames: impl IntoIterator<Item = Frame>,
    options: &RenderOptions,
    n: usize,
) -> Option<Pixmap> {
    let picture = Shots::new(frames.into_iter()).nth(n)?;
    let renderer = Renderer::any_angle(options);
    let mut pixmap = renderer.new_pixmap();
    BoxPainter(&renderer).paint(&picture, &mut pixmap);
    Some(pixmap)
}

#[cfg(test)]
mod tests {
    use reel::decode_gif;

    use super::*;
    use crate::draw::inks::Ink;
    use crate::rules::scenario::Scenario;

    const FIGURE_1A: &str = ".........@...o....ooo..xox...";
    const DEMO_OPS: &str = "+>|<-v+^+";

    fn shots(state: &str, ops: &str) -> Vec<Scene> {
        let scenario = Scenario::parse(state, ops, false).unwrap();
        Shots::new(scenario.frames()).collect()
    }

    /// The §8 frame each picture shows or moves towards.
    fn target(shot: &Scene) -> Frame {
        match *shot {
            Scene::Still(frame) => frame,
            Scene::Moving { toward, .. } => toward,
        }
    }

    #[test]
    fn the_first_picture_is_the_start_and_every_frame_is_shown_in_order() {
        for (state, ops) in [
            (FIGURE_1A, DEMO_OPS),
            ("@................x.....o..x..", "+-"),
            ("@......................x.x...", "<"),
            ("@................x.....x..o..", "|||"),
        ] {
            let scenario = Scenario::parse(state, ops, false).unwrap();
            let all = shots(state, ops);
            let first = scenario.frames().next().unwrap();
            assert_eq!(all[0], Scene::Still(first), "{state} {ops}");
            let stills: Vec<usize> = all
                .iter()
                .filter_map(|shot| match shot {
                    Scene::Still(frame) => Some(frame.index),
                    Scene::Moving { .. } => None,
                })
                .collect();
            let mut shown = stills.clone();
            shown.dedup();
            let every: Vec<usize> = (0..scenario.frames().count()).collect();
            assert_eq!(shown, every, "{state} {ops}");
            // It ends resting on the last frame, long enough to read it.
            let last = *every.last().unwrap();
            assert!(stills.iter().rev().take(END_HOLD).all(|&i| i == last));
        }
    }

    #[test]
    fn no_more_than_one_operation_a_second() {
        for (state, ops) in [
            (FIGURE_1A, DEMO_OPS),
            ("@................x.....x..o..", "+-><|"),
        ] {
            let all = shots(state, ops);
            // Where each operation's first picture is.
            let mut starts: Vec<usize> = vec![0];
            let mut current = None;
            for (i, shot) in all.iter().enumerate() {
                let op = target(shot).cause.and_then(|record| record.op);
                if op.is_some() && op != current {
                    starts.push(i);
                    current = op;
                }
            }
            assert_eq!(starts.len(), ops.len() + 1, "{state} {ops}");
            for pair in starts.windows(2) {
                assert!(
                    pair[1] - pair[0] >= PICTURES_PER_SECOND,
                    "{state} {ops}: operations start at {starts:?}"
                );
            }
        }
    }

    #[test]
    fn picture_23_of_the_demo_is_the_first_turn_halfway() {
        // The golden frame smooth_figure_1a_turn_45.png relies on this.
        let all = shots(FIGURE_1A, DEMO_OPS);
        assert_eq!(START_HOLD + QUARTER_TURN / 2 - 1, 23);
        assert!(matches!(
            all[23],
            Scene::Moving {
                motion: Motion::Turning { degrees },
                ..
            } if degrees == 45.0
        ));
    }

    #[test]
    fn motion_is_continuous_a_half_turn_included() {
        let all = shots(FIGURE_1A, "|");
        let angles: Vec<f32> = all
            .iter()
            .map(|shot| match shot {
                Scene::Moving {
                    motion: Motion::Turning { degrees },
                    ..
                } => *degrees,
                other => target(other).state.orientation().degrees() as f32,
            })
            .collect();
        // From 0° to 180° with no pause at 90°, in steps of at most 40°.
        let moving: Vec<f32> = angles
            .iter()
            .copied()
            .skip_while(|&a| a == 0.0)
            .take_while(|&a| a < 180.0)
            .collect();
        assert_eq!(moving.len(), 2 * QUARTER_TURN - 1, "{angles:?}");
        assert!(moving.contains(&90.0));
        assert!(angles
            .windows(2)
            .all(|w| w[1] >= w[0] && w[1] - w[0] <= 40.0));

        // A fall of one tick is FALL_TICK pictures, ending on the frame.
        let fall = shots("@................x.....x..o..", "+");
        let falling = fall
            .iter()
            .filter(|shot| {
                matches!(
                    shot,
                    Scene::Moving {
                        motion: Motion::Falling { .. },
                        ..
                    }
                )
            })
            .count();
        let ticks = Scenario::parse("@................x.....x..o..", "+", false)
            .unwrap()
            .frames()
            .filter(|f| {
                f.cause
                    .is_some_and(|r| matches!(r.event, Event::Fell { .. }))
            })
            .count();
        assert_eq!(falling, ticks * (FALL_TICK - 1));
    }

    #[test]
    fn a_rest_picture_is_exactly_its_frame_as_the_one_second_renderer_draws_it() {
        // "Exactly": the decoded GIF's palette indices at a rest picture
        // equal the indices of the frame drawn by the still renderer on the
        // smooth canvas, pixel for pixel; and that picture is the 1-second
        // GIF's picture with a wider margin.
        let odd = Scenario::parse("@................x.....x..o..", "+-", false).unwrap();
        for (options, scenario) in [
            (RenderOptions::default(), Scenario::figure_1a()),
            (RenderOptions::new(23).unwrap(), odd),
        ] {
            let mut bytes = Vec::new();
            let written = write_smooth_gif(scenario.frames(), &options, &mut bytes).unwrap();
            // The demo stays attachable (BENCHMARKS.md).
            assert!(bytes.len() < 1_000_000, "{} bytes", bytes.len());
            let decoded = decode_gif(&bytes).unwrap();
            assert_eq!(decoded.frames.len(), written.frames);
            // A run of equal pictures is one frame, shown for the run; the
            // last holds for 2 seconds.
            let mut runs: Vec<(Scene, u16)> = Vec::new();
            for shot in Shots::new(scenario.frames()) {
                match runs.last_mut() {
                    Some((picture, delay)) if *picture == shot => *delay += 5,
                    _ => runs.push((shot, 5)),
                }
            }
            if let Some(last) = runs.last_mut() {
                last.1 = 200;
            }
            let delays: Vec<u16> = decoded.frames.iter().map(|f| f.delay_cs).collect();
            assert_eq!(delays, runs.iter().map(|run| run.1).collect::<Vec<_>>());
            let total: u64 = delays.iter().map(|&d| u64::from(d)).sum();
            assert_eq!(written.duration_cs, total);

            let smooth = Renderer::any_angle(&options);
            let still = Renderer::new(&options);
            let palette = smooth.palette();
            let mut checked = 0;
            let mut expected = Vec::new();
            let mut drawn = None;
            for (&(shot, _), decoded) in runs.iter().zip(&decoded.frames) {
                let canvas = &decoded.indices;
                let Scene::Still(frame) = shot else {
                    continue;
                };
                checked += 1;
                if drawn == Some(frame.index) {
                    assert!(
                        expected == *canvas,
                        "a rest on frame {} differs",
                        frame.index
                    );
                    continue;
                }
                let wide = smooth.render(&frame);
                palette.indices_into(&wide, &mut expected);
                assert!(expected == *canvas, "frame {} differs", frame.index);

                let narrow = still.render(&frame);
                let offset = ((wide.width() - narrow.width()) / 2) as usize;
                let row = |pixmap: &Pixmap, y: usize, skip: usize, len: usize| {
                    let start = 4 * (y * pixmap.width() as usize + skip);
                    pixmap.data()[start..start + 4 * len].to_vec()
                };
                let n = narrow.width() as usize;
                for y in 0..n {
                    assert!(
                        row(&narrow, y, 0, n) == row(&wide, y + offset, offset, n),
                        "frame {}, row {y}: the smooth canvas shows another picture",
                        frame.index
                    );
                }
                drawn = Some(frame.index);
            }
            // Every frame of §8 is a rest picture at least once.
            assert!(
                checked >= scenario.frames().count(),
                "{checked} rest pictures"
            );
        }
    }

    #[test]
    fn nothing_reaches_the_canvas_border_at_any_angle() {
        let options = RenderOptions::new(12).unwrap();
        let renderer = Renderer::any_angle(&options);
        let mut pixmap = renderer.new_pixmap();
        let background = Ink::Background.rgb();
        for (state, ops) in [
            (FIGURE_1A, DEMO_OPS),
            ("@................x.....x..o..", "+-"),
            ("@................x.....o..x..", "+-"),
            ("...........@...........xx....", "|+>"),
            ("@......................xx....", "-<"),
        ] {
            for shot in shots(state, ops) {
                BoxPainter(&renderer).paint(&shot, &mut pixmap);
                let side = pixmap.width();
                for i in 0..side {
                    for (x, y) in [(i, 0), (i, side - 1), (0, i), (side - 1, i)] {
                        let pixel = pixmap.pixel(x, y).unwrap();
                        let rgb = [pixel.red(), pixel.green(), pixel.blue()];
                        assert_eq!(rgb, background, "{state} {ops} {shot:?} at ({x}, {y})");
                    }
                }
            }
        }
    }

    #[test]
    fn a_leaving_shubble_is_seen_outside_and_then_gone() {
        let all = shots("@................x.....x..o..", "+-");
        let renderer = Renderer::any_angle(&RenderOptions::default());
        let (side, _) = renderer.canvas_size();
        let half = side / 2;
        // Near the bottom of the exit cell (drawn a wall's thickness below
        // the gap), where only a creature on its way out is ever drawn.
        let probe = (half + 3 * 40, half + 3 * 40 + 20);
        let mut pixmap = renderer.new_pixmap();
        let mut seen = Vec::new();
        for shot in &all {
            BoxPainter(&renderer).paint(shot, &mut pixmap);
            let pixel = pixmap.pixel(probe.0, probe.1).unwrap();
            seen.push([pixel.red(), pixel.green(), pixel.blue()]);
        }
        let blue = Ink::Shubble.rgb();
        let background = Ink::Background.rgb();
        let first_blue = seen.iter().position(|&rgb| rgb == blue).unwrap();
        // Faded over several pictures, then background to the end.
        let gone = first_blue
            + seen[first_blue..]
                .iter()
                .position(|&rgb| rgb == background)
                .unwrap();
        assert!(seen[first_blue..gone].iter().any(|&rgb| rgb != blue));
        assert!(seen[gone..].iter().all(|&rgb| rgb == background));
    }
}
