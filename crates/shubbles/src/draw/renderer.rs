//! Draws one picture of the box in the style of Figure 1(a) of the
//! original puzzle (BOX.md §9): white cells with a grey grid, a thick dark
//! wall with a gap under cell 28, blue shubbles, red smoles, a black stot,
//! the whole box turned to the frame's orientation. Optionally a caption
//! under the box and each cell's number in its cell.
//!
//! Pictures are drawn with the colours of [`PALETTE`](super::inks::PALETTE) only (text adds the
//! blends between them), so the GIF writer can map pixels to a
//! palette fixed in advance instead of quantizing each picture.
//!
//! The box is drawn in its own unturned pixel coordinates and placed on the
//! canvas by one rotation about the box centre (the private
//! `Renderer::box_transform` takes the angle as a cosine and sine). Quarter
//! turns use exact `0`/`±1` entries and no anti-aliasing, which keeps every
//! edge on whole pixels; the smooth animation ([`super::smooth`]) draws the
//! pictures between two frames at any angle and position; only what slides
//! (a falling creature, the stot) is anti-aliased there.

use std::sync::Arc;
use std::sync::{Mutex, OnceLock};

use reel::text::{self, TextInk};
use reel::{Palette, Rectangle};
use tiny_skia::{Pixmap, Point, Transform};

use super::inks::{blended_palette, ink_palette, Ink, NUMBER_INK};
use super::layout::{Layout, Square};
use super::options::RenderOptions;
use super::pen::{Fade, Pen, PixelRect, View};
use super::scene::{Motion, Scene};
use crate::formats::caption::caption;
use crate::model::creature::Content;
use crate::model::event::{Blocked, Failure};
use crate::model::geometry::{Cell, Direction, Orientation, EXIT_POSITION, OPENING_CELL};
use crate::model::operation::Operation;
use crate::rules::frames::Frame;

/// Draws frames at one size. Cheap to make: the pictures of the empty box
/// it keeps are drawn the first time each is needed.
#[derive(Clone, Debug, PartialEq)]
pub struct Renderer {
    layout: Layout,
    options: RenderOptions,
    /// The canvas fits the box at any angle, and pictures may be
    /// anti-aliased: the smooth animation's.
    any_angle: bool,
    empty_boxes: EmptyBoxes,
}

/// The empty box (background, walls, grid, cells, opening) at each quarter
/// turn, drawn once: most of a frame's drawing is this, and it is the same
/// in every frame of that orientation. Shared by every renderer of the same
/// layout in the process, so `batch`, which makes a renderer per scenario,
/// draws each empty box once and not once per scenario.
#[derive(Clone, Debug, Default)]
struct EmptyBoxes(Arc<[OnceLock<Pixmap>; 4]>);

impl EmptyBoxes {
    fn shared(layout: &Layout) -> EmptyBoxes {
        // A handful of layouts at most (one per cell size and caption
        // setting a process uses), so a list is enough.
        static SHARED: Mutex<Vec<(Layout, EmptyBoxes)>> = Mutex::new(Vec::new());
        // A poisoned lock only means another thread panicked while holding
        // it; the list itself is always whole.
        let mut shared = SHARED
            .lock()
            .unwrap_or_else(|poisoned| poisoned.into_inner());
        if let Some((_, boxes)) = shared.iter().find(|(known, _)| known == layout) {
            return boxes.clone();
        }
        let boxes = EmptyBoxes::default();
        shared.push((*layout, boxes.clone()));
        boxes
    }
}

impl PartialEq for EmptyBoxes {
    /// A cache, derived from the renderer's layout: never a difference.
    fn eq(&self, _: &EmptyBoxes) -> bool {
        true
    }
}

impl Renderer {
    /// A renderer for the 1-second GIF and still pictures: the canvas fits
    /// the box at every quarter turn.
    pub fn new(options: &RenderOptions) -> Renderer {
        Renderer::with_layout(options, false)
    }

    /// A renderer whose canvas fits the box turned by any angle (the circle
    /// around it): the smooth animation's. Frames drawn by it look as
    /// [`Renderer::new`]'s do, with more space around them.
    pub fn any_angle(options: &RenderOptions) -> Renderer {
        Renderer::with_layout(options, true)
    }

    fn with_layout(options: &RenderOptions, any_angle: bool) -> Renderer {
        let layout = Layout::new(options, any_angle);
        Renderer {
            empty_boxes: EmptyBoxes::shared(&layout),
            layout,
            options: options.clone(),
            any_angle,
        }
    }

    /// The palette this renderer's pictures are written with: the inks
    /// alone, or with their blends when pictures have anti-aliased edges
    /// (at any angle) or text.
    pub fn palette(&self) -> &'static Palette {
        if self.any_angle || self.options.has_text() {
            blended_palette(self.options.has_text())
        } else {
            ink_palette()
        }
    }

    /// Width and height of every picture, in pixels, whatever the
    /// orientation: the square around the box, and the caption strip under
    /// it when there is one.
    pub fn canvas_size(&self) -> (u32, u32) {
        let side = self.layout.side.unsigned_abs();
        (side, side + self.layout.strip.unsigned_abs())
    }

    /// A blank canvas of [`Renderer::canvas_size`].
    pub fn new_pixmap(&self) -> Pixmap {
        let (width, height) = self.canvas_size();
        // Validated cell sizes give at most a 2,212 by 2,482-pixel canvas
        // (smooth, with a caption), far inside what tiny-skia allocates.
        Pixmap::new(width, height).expect("a validated cell size gives a drawable canvas")
    }

    /// The picture of `frame`.
    pub fn render(&self, frame: &Frame) -> Pixmap {
        let mut pixmap = self.new_pixmap();
        self.render_into(frame, &mut pixmap);
        pixmap
    }

    /// Draws `frame` over all of `pixmap`, which must be a canvas of this
    /// renderer (from [`Renderer::new_pixmap`]); reusing one keeps a long
    /// run from allocating a canvas per frame.
    pub fn render_into(&self, frame: &Frame, pixmap: &mut Pixmap) {
        self.draw(&Scene::Still(*frame), pixmap);
    }

    /// Draws `scene` over all of `pixmap`.
    pub(crate) fn draw(&self, scene: &Scene, pixmap: &mut Pixmap) {
        let view = match scene.motion() {
            Motion::Turning { degrees } => {
                let (sin, cos) = degrees.to_radians().sin_cos();
                // Not anti-aliased either: the blends of a turning grid's
                // edges were most of a smooth GIF's bytes (a 100-operation
                // run of half turns made 14.4 MB with them, 7.2 without),
                // and at 20 pictures a second in motion they are hardly seen.
                View {
                    transform: self.box_transform(cos, sin),
                    turning: true,
                }
            }
            // Quarter turns keep every edge on a pixel boundary: no
            // blending, so every pixel is exactly a palette colour. Only a
            // sliding creature or stot is anti-aliased.
            _ => View {
                transform: self.quarter_turn_transform(scene.state().orientation()),
                turning: false,
            },
        };
        self.draw_box(scene, pixmap, view);
        if self.options.numbers() {
            self.draw_numbers(pixmap, view);
        }
        if let Some(operations) = self.options.caption() {
            self.draw_caption(scene, operations, pixmap);
        }
    }

    /// Box coordinates to canvas: the box centre goes to the centre of the
    /// square part of the canvas, turned clockwise by the angle whose cosine
    /// and sine are given.
    fn box_transform(&self, cos: f32, sin: f32) -> Transform {
        let cell = self.layout.cell as f32;
        let (cx, cy) = (3.5 * cell, 2.5 * cell);
        let half = self.layout.side as f32 / 2.0;
        Transform::from_row(
            cos,
            sin,
            -sin,
            cos,
            half - (cos * cx - sin * cy),
            half - (sin * cx + cos * cy),
        )
    }

    /// Exact entries: `f32` sine and cosine of 90° are not exactly 0 and
    /// would move edges off whole pixels.
    fn quarter_turn_transform(&self, orientation: Orientation) -> Transform {
        let (cos, sin) = match orientation.quarters() {
            0 => (1.0, 0.0),
            1 => (0.0, 1.0),
            2 => (-1.0, 0.0),
            _ => (0.0, -1.0),
        };
        self.box_transform(cos, sin)
    }

    fn draw_box(&self, scene: &Scene, pixmap: &mut Pixmap, view: View) {
        let layout = &self.layout;
        let state = scene.state();
        let mut pen = Pen { pixmap, view };
        if view.turning {
            self.draw_empty_box(&mut pen);
        } else {
            let quarters = usize::from(state.orientation().quarters());
            let empty = self.empty_boxes.0[quarters].get_or_init(|| {
                let mut empty = self.new_pixmap();
                self.draw_empty_box(&mut Pen {
                    pixmap: &mut empty,
                    view,
                });
                empty
            });
            pen.pixmap.data_mut().copy_from_slice(empty.data());
        }

        let gravity = state.orientation().gravity();
        for cell in Cell::all() {
            let square = layout.square(cell.position());
            match (state.content(cell), scene.motion()) {
                (content, Motion::Rest) => self.still_content(&mut pen, square, content),
                (Content::Empty, _) => {}
                (Content::Stot, Motion::StotSliding { to, progress }) => {
                    let target = layout.square(to.position());
                    let shift = (
                        (target.left - square.left) * progress,
                        (target.top - square.top) * progress,
                    );
                    self.creature(&mut pen, square.shifted(shift), Ink::Stot, Fade::Opaque);
                }
                (Content::Stot, _) => self.creature(&mut pen, square, Ink::Stot, Fade::Still),
                (Content::Creature(creature), Motion::Falling { moved, progress })
                    if moved.contains(cell) =>
                {
                    let (dx, dy) = gravity.vector();
                    // Through the opening the way is one cell and the wall
                    // to the exit cell, drawn just outside.
                    let step = if cell == OPENING_CELL && gravity == Direction::Down {
                        (layout.cell + layout.wall) as f32
                    } else {
                        layout.cell as f32
                    };
                    let shift = (dx as f32 * step * progress, dy as f32 * step * progress);
                    let ink = Ink::of(creature);
                    self.creature(&mut pen, square.shifted(shift), ink, Fade::Opaque);
                }
                (content, _) => self.still_content(&mut pen, square, content),
            }
        }
        if let Some(creature) = state.exit() {
            let ink = Ink::of(creature);
            match scene.motion() {
                // The tick after it came out, it goes on down half a cell
                // and fades away: gone, as in the next frame.
                Motion::Falling { progress, .. } => {
                    let shift = (0.0, layout.cell as f32 / 2.0 * progress);
                    let square = self.exit_square().shifted(shift);
                    self.creature(&mut pen, square, ink, Fade::Opacity(1.0 - progress));
                }
                _ => self.creature(&mut pen, self.exit_square(), ink, Fade::Still),
            }
        }

        match scene.failure() {
            Some(Failure::SmoleEscaped) => {
                self.outline(&mut pen, self.exit_square(), Ink::Smole);
            }
            Some(Failure::StotBlocked {
                from,
                direction,
                reason,
            }) => self.mark_refused_move(&mut pen, from, direction, reason),
            None => {}
        }
    }

    /// What a cell holds, where the frame has it.
    fn still_content(&self, pen: &mut Pen<'_>, square: Square, content: Content) {
        match content {
            Content::Empty => {}
            Content::Stot => self.creature(pen, square, Ink::Stot, Fade::Still),
            Content::Creature(creature) => {
                self.creature(pen, square, Ink::of(creature), Fade::Still);
            }
        }
    }

    /// Draws `frame` over `pixmap`, which holds `shown` as this renderer
    /// drew it, repainting only the cells whose content differs (and the
    /// exit, and the caption strip): most frames move a creature or two,
    /// and repainting the whole canvas was most of their cost. Returns the
    /// rectangle outside which no pixel changed, or `None`, drawing
    /// nothing, when the two differ in more than their cells (a turn, a
    /// failure's mark).
    pub(crate) fn redraw_changes(
        &self,
        frame: &Frame,
        shown: &Frame,
        pixmap: &mut Pixmap,
    ) -> Option<Rectangle> {
        let orientation = frame.state.orientation();
        if frame.failure.is_some()
            || shown.failure.is_some()
            || orientation != shown.state.orientation()
        {
            return None;
        }
        let empty = self.empty_boxes.0[usize::from(orientation.quarters())].get()?;
        let view = View {
            transform: self.quarter_turn_transform(orientation),
            turning: false,
        };
        let on_canvas = |square: Square| PixelRect::of(square, view.transform);
        let (state, before) = (&frame.state, &shown.state);
        let mut cells = PixelRect::EMPTY;
        for cell in Cell::all() {
            if state.content(cell) != before.content(cell) {
                cells = cells.union(on_canvas(self.layout.square(cell.position())));
            }
        }
        let exit = on_canvas(self.exit_square());
        if state.exit() != before.exit() {
            cells = cells.union(exit);
        }
        let (width, height) = self.canvas_size();
        let strip = match self.options.caption() {
            Some(_) => PixelRect {
                left: 0,
                top: self.layout.side,
                right: width as i32,
                bottom: height as i32,
            },
            None => PixelRect::EMPTY,
        };
        for area in [cells, strip] {
            area.copy(empty, pixmap);
        }
        // The changed cells' bounds may take in others: every square lies
        // on the cell grid, so those are inside whole, and are drawn again
        // whole.
        let mut pen = Pen { pixmap, view };
        let inside = |square: Square| cells.overlaps(on_canvas(square));
        for cell in Cell::all() {
            let square = self.layout.square(cell.position());
            if inside(square) {
                self.still_content(&mut pen, square, state.content(cell));
            }
        }
        if let Some(creature) = state.exit() {
            if cells.overlaps(exit) {
                self.creature(&mut pen, self.exit_square(), Ink::of(creature), Fade::Still);
            }
        }
        if self.options.numbers() {
            for cell in Cell::all() {
                if inside(self.layout.square(cell.position())) {
                    self.draw_number(pixmap, view, cell);
                }
            }
        }
        if let Some(operations) = self.options.caption() {
            self.draw_caption(&Scene::Still(*frame), operations, pixmap);
        }
        Some(cells.union(strip).rectangle())
    }

    /// Background, walls, grid, cells and the gap of the opening.
    fn draw_empty_box(&self, pen: &mut Pen<'_>) {
        let layout = &self.layout;
        pen.pixmap.fill(Ink::Background.color(1.0));
        // The wall is every pixel within `wall` of a cell that is not in a
        // cell: grow each cell, then draw the cells over the grown squares.
        for cell in Cell::all() {
            pen.square(layout.square(cell.position()).grown(layout.wall), Ink::Wall);
        }
        for cell in Cell::all() {
            let square = layout.square(cell.position());
            pen.square(square, Ink::Grid);
            pen.rect(
                square.left + layout.grid_near as f32,
                square.top + layout.grid_near as f32,
                square.left + square.size - layout.grid_far as f32,
                square.top + square.size - layout.grid_far as f32,
                Ink::Cell,
            );
        }
        let opening = layout.square(OPENING_CELL.position());
        pen.rect(
            opening.left,
            opening.top + opening.size,
            opening.left + opening.size,
            opening.top + opening.size + layout.wall as f32,
            Ink::Background,
        );
    }

    /// Each cell's number at its centre, upright: read as easily at 90° as
    /// at 0°, and at rest exactly where the still picture has it.
    fn draw_numbers(&self, pixmap: &mut Pixmap, view: View) {
        for cell in Cell::all() {
            self.draw_number(pixmap, view, cell);
        }
    }

    fn draw_number(&self, pixmap: &mut Pixmap, view: View, cell: Cell) {
        let (x, y) = self.layout.square(cell.position()).centre();
        let mut centre = Point::from_xy(x, y);
        view.transform.map_point(&mut centre);
        let label = cell.to_string();
        let at = (centre.x, centre.y);
        let size = self.layout.number_size;
        // Numbers on a turning box move every picture: hard edges, as the
        // box's own, keep them from costing more than the box.
        if view.turning {
            text::draw_centred_sharp(pixmap, &label, at, size, NUMBER_INK);
        } else {
            text::draw_centred(pixmap, &label, at, size, NUMBER_INK);
        }
    }

    /// The caption lines, centred in the strip, each shrunk to fit the
    /// width when it is long.
    fn draw_caption(&self, scene: &Scene, operations: &[Operation], pixmap: &mut Pixmap) {
        let (frame, show_failure) = scene.caption();
        let (first, second) = caption(frame, operations, show_failure);
        let layout = &self.layout;
        let width = layout.side as f32;
        let room = width - 2.0 * (layout.cell as f32 / 4.0).max(2.0);
        let line = layout.strip as f32 / 2.0;
        let top = layout.side as f32 + layout.caption_size * 0.2;
        let lines = [(Some(first), Ink::Wall), (second, Ink::Smole)];
        for (i, (words, ink)) in lines.into_iter().enumerate() {
            let Some(words) = words else { continue };
            let natural = text::width(&words, layout.caption_size);
            let size = if natural > room {
                layout.caption_size * room / natural
            } else {
                layout.caption_size
            };
            let centre = (width / 2.0, top + line * (i as f32 + 0.5));
            text::draw_centred(pixmap, &words, centre, size, TextInk::Fixed(ink.rgb()));
        }
    }

    /// Just outside the gap: the exit cell, moved past the wall's thickness
    /// so the creature is clearly out of the box.
    fn exit_square(&self) -> Square {
        let mut square = self.layout.square(EXIT_POSITION);
        square.top += self.layout.wall as f32;
        square
    }

    fn creature(&self, pen: &mut Pen<'_>, square: Square, ink: Ink, fade: Fade) {
        let body = square.grown(-self.layout.inset);
        pen.fill(body, ink, fade);
        // A smole wears a white ring, so that it is told from a shubble
        // without colour (printed, or by a reader who cannot tell red from
        // blue); its centre keeps its ink.
        if ink == Ink::Smole {
            let size = body.size as i32;
            let ring = body.grown(-(size / 5).max(1));
            pen.fill(ring, Ink::Cell, fade);
            pen.fill(ring.grown(-(size / 8).max(1)), Ink::Smole, fade);
        }
    }

    /// A warning-coloured frame filling the cell around the creature.
    fn outline(&self, pen: &mut Pen<'_>, square: Square, creature: Ink) {
        pen.square(square, Ink::Warning);
        self.creature(pen, square, creature, Fade::Still);
    }

    /// The stot outlined, an arrow from its edge into the refused destination, and
    /// the creature that was in the way or on top outlined too.
    fn mark_refused_move(
        &self,
        pen: &mut Pen<'_>,
        from: Cell,
        direction: Direction,
        reason: Blocked,
    ) {
        let layout = &self.layout;
        let stot = layout.square(from.position());
        self.outline(pen, stot, Ink::Stot);
        match reason {
            Blocked::Occupied { cell, creature } | Blocked::Loaded { cell, creature } => {
                self.outline(pen, layout.square(cell.position()), Ink::of(creature));
            }
            Blocked::Wall | Blocked::Opening => {}
        }

        let c = layout.cell;
        let (dx, dy) = direction.vector();
        let (cx, cy) = stot.centre();
        // (along the move, across it) from the stot's centre to box pixels.
        let at = |along: i32, across: i32| {
            (
                cx + (along * dx - across * dy) as f32,
                cy + (along * dy + across * dx) as f32,
            )
        };
        // From the stot's edge into where it was to go, clear of the cells'
        // centres, where their numbers are written (at most about a quarter
        // of a cell each side): into a cell only a little way, through a
        // wall or the opening a whole cell, out where nothing is written.
        let tail = c * 7 / 20;
        let (head_base, tip) = match reason {
            Blocked::Occupied { .. } | Blocked::Loaded { .. } => (c * 11 / 20, c * 29 / 40),
            Blocked::Wall | Blocked::Opening => (c * 13 / 20, c),
        };
        let shaft = (c / 10).max(1);
        let head = c * 3 / 10;
        let outline = [
            at(tail, -shaft),
            at(head_base, -shaft),
            at(head_base, -head),
            at(tip, 0),
            at(head_base, head),
            at(head_base, shaft),
            at(tail, shaft),
        ];
        pen.polygon(&outline, Ink::Warning);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::draw::inks::PALETTE;
    use crate::model::creature::Creature;
    use crate::rules::scenario::Scenario;

    fn frames(state: &str, ops: &str) -> Vec<Frame> {
        Scenario::parse(state, ops, false)
            .unwrap()
            .frames()
            .collect()
    }

    /// Canvas pixel of the centre of standard-frame position `position` in
    /// `frame`, found by turning the position like the ASCII picture does.
    fn centre_of(renderer: &Renderer, frame: &Frame, position: (i32, i32)) -> (u32, u32) {
        let c = renderer.layout.cell;
        let (x, y) = position;
        // Box centre (3.5, 2.5) in cell units, doubled to stay in integers.
        let (rx, ry) = frame
            .state
            .orientation()
            .turn((2 * x + 1 - 7, 2 * y + 1 - 5));
        let half = renderer.layout.side / 2;
        ((half + rx * c / 2) as u32, (half + ry * c / 2) as u32)
    }

    fn ink_at(pixmap: &Pixmap, (x, y): (u32, u32)) -> Ink {
        let pixel = pixmap.pixel(x, y).unwrap();
        let rgb = [pixel.red(), pixel.green(), pixel.blue()];
        *Ink::ALL
            .iter()
            .find(|ink| ink.rgb() == rgb)
            .unwrap_or_else(|| panic!("{rgb:?} at ({x}, {y}) is not a palette colour"))
    }

    fn cell(n: usize) -> Cell {
        Cell::new(n).unwrap()
    }

    #[test]
    fn a_smole_wears_a_ring_and_a_shubble_none_in_every_orientation() {
        // Across its middle, a smole shows a white ring inside its square;
        // with the inks' lightness (inks.rs), it is told from a shubble
        // without colour.
        let renderer = Renderer::new(&RenderOptions::default());
        for frame in Scenario::figure_1a().frames() {
            let pixmap = renderer.render(&frame);
            for n in 0..29 {
                let Content::Creature(creature) = frame.state.content(cell(n)) else {
                    continue;
                };
                let (x, y) = centre_of(&renderer, &frame, cell(n).position());
                let half = (renderer.layout.cell / 2 - renderer.layout.inset - 1) as u32;
                let across: Vec<Ink> = (x - half..=x + half)
                    .map(|x| ink_at(&pixmap, (x, y)))
                    .collect();
                let ringed = across.contains(&Ink::Cell);
                assert_eq!(
                    ringed,
                    creature == Creature::Smole,
                    "cell {n} in frame {}: {across:?}",
                    frame.index
                );
            }
        }
    }

    #[test]
    fn every_orientation_has_the_same_canvas() {
        let renderer = Renderer::new(&RenderOptions::default());
        let sizes: Vec<(u32, u32)> = Scenario::figure_1a()
            .frames()
            .map(|frame| renderer.render(&frame))
            .map(|pixmap| (pixmap.width(), pixmap.height()))
            .collect();
        assert_eq!(sizes.len(), 26);
        let size = renderer.canvas_size();
        assert_eq!(size.0, size.1);
        assert!(sizes.iter().all(|&s| s == size), "{sizes:?}");
    }

    #[test]
    fn creatures_have_their_colours_at_every_orientation() {
        let renderer = Renderer::new(&RenderOptions::default());
        for frame in Scenario::figure_1a().frames() {
            let pixmap = renderer.render(&frame);
            for n in 0..29 {
                let expected = match frame.state.content(cell(n)) {
                    Content::Empty => Ink::Cell,
                    Content::Creature(Creature::Shubble) => Ink::Shubble,
                    Content::Creature(Creature::Smole) => Ink::Smole,
                    Content::Stot => Ink::Stot,
                };
                let at = centre_of(&renderer, &frame, cell(n).position());
                assert_eq!(
                    ink_at(&pixmap, at),
                    expected,
                    "cell {n} in frame {}",
                    frame.index
                );
            }
        }
    }

    #[test]
    fn only_palette_colours_are_drawn() {
        let renderer = Renderer::new(&RenderOptions::new(37).unwrap());
        for frame in frames("@......................x.x...", "<")
            .into_iter()
            .chain(Scenario::figure_1a().frames())
        {
            let pixmap = renderer.render(&frame);
            for pixel in pixmap.data().chunks_exact(4) {
                let rgb = [pixel[0], pixel[1], pixel[2]];
                assert!(pixel[3] == 255 && PALETTE.contains(&rgb), "{pixel:?}");
            }
        }
    }

    #[test]
    fn the_grid_shows_between_neighbouring_creatures() {
        // Cells 18, 19 and 20 hold shubbles side by side in Figure 1(a).
        let renderer = Renderer::new(&RenderOptions::default());
        let frame = Scenario::figure_1a().frames().next().unwrap();
        let pixmap = renderer.render(&frame);
        let (x18, y) = centre_of(&renderer, &frame, cell(18).position());
        let (x19, _) = centre_of(&renderer, &frame, cell(19).position());
        let between: Vec<Ink> = (x18..x19).map(|x| ink_at(&pixmap, (x, y))).collect();
        assert!(between.contains(&Ink::Grid), "{between:?}");
        assert!(between.contains(&Ink::Cell), "{between:?}");
        assert_eq!(between.first(), Some(&Ink::Shubble));
    }

    #[test]
    fn the_gap_under_cell_28_is_open_and_the_rest_is_walled() {
        let renderer = Renderer::new(&RenderOptions::default());
        let wall = renderer.layout.wall;
        for frame in Scenario::figure_1a().frames() {
            let pixmap = renderer.render(&frame);
            // Half a wall's thickness below the middle of the bottom side of
            // cell 28 (the gap) and of cell 27 (wall), turned with the box.
            let probe = |x: i32| {
                let c = renderer.layout.cell;
                let offset = (2 * x + 1 - 7, 2 * 5 - 5);
                let (rx, ry) = frame.state.orientation().turn(offset);
                let (gx, gy) = frame.state.orientation().turn((0, wall / 2));
                let half = renderer.layout.side / 2;
                let at = (
                    (half + rx * c / 2 + gx) as u32,
                    (half + ry * c / 2 + gy) as u32,
                );
                ink_at(&pixmap, at)
            };
            assert_eq!(probe(6), Ink::Background, "frame {}", frame.index);
            assert_eq!(probe(5), Ink::Wall, "frame {}", frame.index);
        }
    }

    #[test]
    fn a_creature_in_the_exit_cell_is_drawn_outside_the_box() {
        let run = frames("@................x.....x..o..", "+-");
        let frame = &run[8];
        assert_eq!(frame.state.exit(), Some(Creature::Shubble));
        let renderer = Renderer::new(&RenderOptions::default());
        let pixmap = renderer.render(frame);
        let (x, y) = centre_of(&renderer, frame, EXIT_POSITION);
        assert_eq!(
            ink_at(&pixmap, (x, y + renderer.layout.wall as u32)),
            Ink::Shubble
        );
        // The frame after shows it gone.
        let pixmap = renderer.render(&run[9]);
        assert_eq!(ink_at(&pixmap, (x, y)), Ink::Background);
    }

    #[test]
    fn an_escaped_smole_is_outlined() {
        let run = frames("@................x.....o..x..", "+-");
        let last = run.last().unwrap();
        let renderer = Renderer::new(&RenderOptions::default());
        let pixmap = renderer.render(last);
        let (x, y) = centre_of(&renderer, last, EXIT_POSITION);
        let y = y + renderer.layout.wall as u32;
        assert_eq!(ink_at(&pixmap, (x, y)), Ink::Smole);
        let edge = x - renderer.layout.cell as u32 / 2 + 1;
        assert_eq!(ink_at(&pixmap, (edge, y)), Ink::Warning);

        // Without the failure the same picture has no warning colour at all.
        let plain = renderer.render(&Frame {
            failure: None,
            ..*last
        });
        assert_eq!(ink_at(&plain, (edge, y)), Ink::Background);
    }

    #[test]
    fn a_refused_stot_move_points_at_the_wall_it_hit() {
        let run = frames("@......................x.x...", "<");
        let frame = &run[0];
        let renderer = Renderer::new(&RenderOptions::default());
        let pixmap = renderer.render(frame);
        let c = renderer.layout.cell as u32;
        let (x, y) = centre_of(&renderer, frame, cell(0).position());
        assert_eq!(ink_at(&pixmap, (x, y - c / 4)), Ink::Stot);
        assert_eq!(ink_at(&pixmap, (x, y - c / 2 + 1)), Ink::Warning);
        // The arrow crosses the wall on the left of cell 0.
        assert_eq!(ink_at(&pixmap, (x - c / 2 - 2, y)), Ink::Warning);
        assert_eq!(ink_at(&pixmap, (x + c / 2 + 2, y)), Ink::Cell);
    }

    #[test]
    fn a_loaded_stot_outlines_the_creature_on_top() {
        // Cell 19 holds a smole resting on the stot in 24.
        let run = frames("...................x...x@....", ">");
        let frame = run.last().unwrap();
        assert!(matches!(
            frame.failure,
            Some(Failure::StotBlocked {
                reason: Blocked::Loaded { .. },
                ..
            })
        ));
        let renderer = Renderer::new(&RenderOptions::default());
        let pixmap = renderer.render(frame);
        let (x, y) = centre_of(&renderer, frame, cell(19).position());
        assert_eq!(ink_at(&pixmap, (x, y)), Ink::Smole);
        assert_eq!(
            ink_at(&pixmap, (x, y - renderer.layout.cell as u32 / 2 + 1)),
            Ink::Warning
        );
    }

    #[test]
    fn nothing_reaches_the_canvas_border() {
        let renderer = Renderer::new(&RenderOptions::default());
        // Refused moves whose arrows reach furthest from the box centre
        // (left of cell 0, right of cell 11), at every orientation, and an
        // escaped smole outlined below the gap.
        let mut runs = vec![frames("@................x.....o..x..", "+-")];
        for turn in ["", "+", "|", "-"] {
            runs.push(frames("@......................xx....", &format!("{turn}<")));
            runs.push(frames("...........@...........xx....", &format!("{turn}>")));
        }
        assert!(runs.iter().all(|run| run.last().unwrap().failure.is_some()));
        for frame in runs.iter().flatten() {
            let pixmap = renderer.render(frame);
            let (side, _) = renderer.canvas_size();
            for i in 0..side {
                for at in [(i, 0), (i, side - 1), (0, i), (side - 1, i)] {
                    assert_eq!(ink_at(&pixmap, at), Ink::Background, "{at:?}");
                }
            }
        }
    }
}
