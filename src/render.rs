//! Draws one [`Frame`] as a picture in the style of Figure 1(a) of the
//! original puzzle (BOX.md §9): white cells with a grey grid, a thick dark
//! wall with a gap under cell 28, blue shubbles, red smoles, a black stot,
//! the whole box turned to the frame's orientation.
//!
//! Every picture is drawn with the colours of [`PALETTE`] only, so the GIF
//! encoder can map pixels to a palette fixed in advance instead of
//! quantizing each frame.
//!
//! The box is drawn in its own unturned pixel coordinates and placed on the
//! canvas by one rotation about the box centre (the private
//! `Renderer::box_transform` takes the angle as a cosine and sine). Quarter turns use exact `0`/`±1`
//! entries and no anti-aliasing, which keeps every edge on whole pixels; a
//! smooth animation can later pass any angle and switch anti-aliasing on.

use std::fmt;

use tiny_skia::{Color, FillRule, Paint, PathBuilder, Pixmap, Rect, Transform};

use crate::event::{Blocked, Failure};
use crate::frames::Frame;
use crate::geometry::{Cell, Direction, Orientation, EXIT_POSITION, OPENING_CELL};
use crate::state::{Content, Creature};

/// The colours pictures are drawn with; the position in [`PALETTE`] is the
/// GIF palette index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Ink {
    Background,
    Cell,
    Grid,
    Wall,
    Shubble,
    Smole,
    Stot,
    /// Marks what made a run fail.
    Warning,
}

/// Red, green, blue of each [`Ink`], in palette order. Eight entries keep
/// GIF codes at three bits.
pub const PALETTE: [[u8; 3]; 8] = [
    [236, 239, 243], // background: a pale grey-blue, so white cells stand out
    [255, 255, 255], // cell
    [178, 178, 178], // grid
    [38, 38, 46],    // wall
    [30, 100, 220],  // shubble
    [214, 40, 40],   // smole
    [0, 0, 0],       // stot
    [255, 140, 0],   // warning
];

impl Ink {
    pub const ALL: [Ink; 8] = [
        Ink::Background,
        Ink::Cell,
        Ink::Grid,
        Ink::Wall,
        Ink::Shubble,
        Ink::Smole,
        Ink::Stot,
        Ink::Warning,
    ];

    /// Position in [`PALETTE`].
    pub const fn index(self) -> u8 {
        self as u8
    }

    pub const fn rgb(self) -> [u8; 3] {
        PALETTE[self as usize]
    }

    fn color(self) -> Color {
        let [r, g, b] = self.rgb();
        Color::from_rgba8(r, g, b, 255)
    }

    fn of(creature: Creature) -> Ink {
        match creature {
            Creature::Shubble => Ink::Shubble,
            Creature::Smole => Ink::Smole,
        }
    }
}

/// The pixel of each palette entry as [`Pixmap::data`] stores it (opaque, so
/// premultiplied and straight alpha agree), read as one little-endian word.
const PALETTE_WORDS: [u32; 8] = {
    let mut words = [0; 8];
    let mut i = 0;
    while i < 8 {
        let [r, g, b] = PALETTE[i];
        words[i] = u32::from_le_bytes([r, g, b, 255]);
        i += 1;
    }
    words
};

/// The smallest and largest cell size accepted, in pixels: below 4 the grid,
/// inset and wall no longer fit in a cell; above 200 a canvas exceeds what a
/// GIF of reasonable size can hold for a long run.
pub const CELL_SIZES: std::ops::RangeInclusive<u32> = 4..=200;

/// How pictures are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RenderOptions {
    cell_size: u32,
}

impl RenderOptions {
    pub const DEFAULT_CELL_SIZE: u32 = 40;

    /// Options with cells `cell_size` pixels wide, if that is in
    /// [`CELL_SIZES`].
    pub fn new(cell_size: u32) -> Result<RenderOptions, RenderOptionsError> {
        if CELL_SIZES.contains(&cell_size) {
            Ok(RenderOptions { cell_size })
        } else {
            Err(RenderOptionsError::CellSize { given: cell_size })
        }
    }

    pub const fn cell_size(&self) -> u32 {
        self.cell_size
    }
}

impl Default for RenderOptions {
    fn default() -> Self {
        RenderOptions {
            cell_size: RenderOptions::DEFAULT_CELL_SIZE,
        }
    }
}

/// Options that cannot be drawn with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RenderOptionsError {
    CellSize { given: u32 },
}

impl fmt::Display for RenderOptionsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderOptionsError::CellSize { given } => write!(
                f,
                "a cell size of {given} pixels is not supported: expected {} to {}",
                CELL_SIZES.start(),
                CELL_SIZES.end()
            ),
        }
    }
}

impl std::error::Error for RenderOptionsError {}

/// Sizes in whole pixels, all derived from the cell size, so every edge of
/// an unturned or quarter-turned box falls on a pixel boundary.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Layout {
    cell: i32,
    /// The grid line between two cells is `grid_near` pixels of the cell
    /// after it plus `grid_far` pixels of the cell before it.
    grid_near: i32,
    grid_far: i32,
    /// Creatures are squares this far inside their cell, so the white cell
    /// and the grid show between neighbouring creatures.
    inset: i32,
    wall: i32,
    /// Space around the box on every side of the canvas.
    margin: i32,
}

impl Layout {
    fn new(options: &RenderOptions) -> Layout {
        // At most 200 (validated), so the casts and products stay small.
        let cell = options.cell_size() as i32;
        let grid = (cell / 20).max(1);
        let wall = (cell * 3 / 20).max(2);
        // A refused stot move's arrow reaches half a cell past the box edge;
        // the rest of the margin keeps it off the canvas border.
        let margin = (cell / 2).max(wall) + (cell / 10).max(2);
        Layout {
            cell,
            grid_near: grid / 2,
            grid_far: grid - grid / 2,
            inset: (cell / 8).max(grid),
            wall,
            margin,
        }
    }

    /// The canvas is a square centred on the box centre: the box's 7 by 5
    /// cells (6 rows counting the exit cell) fit in 7 cells at every quarter
    /// turn.
    fn canvas(&self) -> i32 {
        7 * self.cell + 2 * self.margin
    }

    /// The pixel rectangle of the standard-frame position `(x, y)` in box
    /// coordinates (top left corner of cell 0 at the origin).
    fn square(&self, (x, y): (i32, i32)) -> Square {
        Square {
            left: x * self.cell,
            top: y * self.cell,
            size: self.cell,
        }
    }
}

/// An axis-aligned square in box pixel coordinates.
#[derive(Clone, Copy, Debug)]
struct Square {
    left: i32,
    top: i32,
    size: i32,
}

impl Square {
    /// Grown by `by` pixels on every side (shrunk when negative).
    fn grown(self, by: i32) -> Square {
        Square {
            left: self.left - by,
            top: self.top - by,
            size: self.size + 2 * by,
        }
    }

    fn centre(self) -> (i32, i32) {
        (self.left + self.size / 2, self.top + self.size / 2)
    }
}

/// Draws frames at one size. Cheap to make; holds no pixels.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Renderer {
    layout: Layout,
}

/// Where and how the box lands on the canvas.
#[derive(Clone, Copy, Debug)]
struct View {
    transform: Transform,
    anti_alias: bool,
}

impl Renderer {
    pub fn new(options: &RenderOptions) -> Renderer {
        Renderer {
            layout: Layout::new(options),
        }
    }

    /// Width and height of every picture, in pixels, whatever the
    /// orientation.
    pub fn canvas_size(&self) -> u32 {
        self.layout.canvas().unsigned_abs()
    }

    /// A blank canvas of [`Renderer::canvas_size`].
    pub fn new_pixmap(&self) -> Pixmap {
        let side = self.canvas_size();
        // Validated cell sizes give at most a 1,640-pixel square, far inside
        // what tiny-skia allocates.
        Pixmap::new(side, side).expect("a validated cell size gives a drawable canvas")
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
        let view = View {
            transform: self.quarter_turn_transform(frame.state.orientation()),
            // Quarter turns keep every edge on a pixel boundary: no blending,
            // so every pixel is exactly a palette colour.
            anti_alias: false,
        };
        self.draw(frame, pixmap, view);
    }

    /// Box coordinates to canvas: the box centre goes to the canvas centre,
    /// turned clockwise by the angle whose cosine and sine are given.
    fn box_transform(&self, cos: f32, sin: f32) -> Transform {
        let cell = self.layout.cell as f32;
        let (cx, cy) = (3.5 * cell, 2.5 * cell);
        let half = self.layout.canvas() as f32 / 2.0;
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

    fn draw(&self, frame: &Frame, pixmap: &mut Pixmap, view: View) {
        let layout = &self.layout;
        let state = &frame.state;
        let mut pen = Pen { pixmap, view };
        pen.pixmap.fill(Ink::Background.color());

        // The wall is every pixel within `wall` of a cell that is not in a
        // cell: grow each cell, then draw the cells over the grown squares.
        for cell in Cell::all() {
            pen.square(layout.square(cell.position()).grown(layout.wall), Ink::Wall);
        }
        for cell in Cell::all() {
            let square = layout.square(cell.position());
            pen.square(square, Ink::Grid);
            pen.rect(
                square.left + layout.grid_near,
                square.top + layout.grid_near,
                square.left + square.size - layout.grid_far,
                square.top + square.size - layout.grid_far,
                Ink::Cell,
            );
        }
        let opening = layout.square(OPENING_CELL.position());
        pen.rect(
            opening.left,
            opening.top + opening.size,
            opening.left + opening.size,
            opening.top + opening.size + layout.wall,
            Ink::Background,
        );

        for cell in Cell::all() {
            let ink = match state.content(cell) {
                Content::Empty => continue,
                Content::Creature(creature) => Ink::of(creature),
                Content::Stot => Ink::Stot,
            };
            self.creature(&mut pen, layout.square(cell.position()), ink);
        }
        if let Some(creature) = state.exit() {
            self.creature(&mut pen, self.exit_square(), Ink::of(creature));
        }

        match frame.failure {
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

    /// Just outside the gap: the exit cell, moved past the wall's thickness
    /// so the creature is clearly out of the box.
    fn exit_square(&self) -> Square {
        let mut square = self.layout.square(EXIT_POSITION);
        square.top += self.layout.wall;
        square
    }

    fn creature(&self, pen: &mut Pen<'_>, square: Square, ink: Ink) {
        pen.square(square.grown(-self.layout.inset), ink);
    }

    /// A warning-coloured frame filling the cell around the creature.
    fn outline(&self, pen: &mut Pen<'_>, square: Square, creature: Ink) {
        pen.square(square, Ink::Warning);
        self.creature(pen, square, creature);
    }

    /// The stot outlined, an arrow from it into the refused destination, and
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
                (cx + along * dx - across * dy) as f32,
                (cy + along * dy + across * dx) as f32,
            )
        };
        let head_base = c * 11 / 20;
        let shaft = (c / 10).max(1);
        let head = c * 3 / 10;
        let outline = [
            at(0, -shaft),
            at(head_base, -shaft),
            at(head_base, -head),
            at(c, 0),
            at(head_base, head),
            at(head_base, shaft),
            at(0, shaft),
        ];
        pen.polygon(&outline, Ink::Warning);
    }
}

/// Fills shapes given in box coordinates through one view.
struct Pen<'a> {
    pixmap: &'a mut Pixmap,
    view: View,
}

impl Pen<'_> {
    fn paint(&self, ink: Ink) -> Paint<'static> {
        let mut paint = Paint::default();
        paint.set_color(ink.color());
        paint.anti_alias = self.view.anti_alias;
        paint
    }

    fn square(&mut self, square: Square, ink: Ink) {
        self.rect(
            square.left,
            square.top,
            square.left + square.size,
            square.top + square.size,
            ink,
        );
    }

    fn rect(&mut self, left: i32, top: i32, right: i32, bottom: i32, ink: Ink) {
        // Sizes come from the layout and are never negative; an empty
        // rectangle (tiny cells) simply draws nothing.
        if let Some(rect) = Rect::from_ltrb(left as f32, top as f32, right as f32, bottom as f32) {
            let paint = self.paint(ink);
            self.pixmap
                .fill_rect(rect, &paint, self.view.transform, None);
        }
    }

    fn polygon(&mut self, points: &[(f32, f32)], ink: Ink) {
        let mut builder = PathBuilder::new();
        for (i, &(x, y)) in points.iter().enumerate() {
            if i == 0 {
                builder.move_to(x, y);
            } else {
                builder.line_to(x, y);
            }
        }
        builder.close();
        if let Some(path) = builder.finish() {
            let paint = self.paint(ink);
            self.pixmap
                .fill_path(&path, &paint, FillRule::Winding, self.view.transform, None);
        }
    }
}

/// The palette index of every pixel of `pixmap`, row by row.
pub fn palette_indices(pixmap: &Pixmap) -> Vec<u8> {
    let mut indices = Vec::new();
    palette_indices_into(pixmap, &mut indices);
    indices
}

/// [`palette_indices`] into a buffer that is reused between frames. A pixel
/// that is not exactly a palette colour (as anti-aliased edges would be)
/// gets the nearest one.
pub fn palette_indices_into(pixmap: &Pixmap, indices: &mut Vec<u8>) {
    let data = pixmap.data();
    // Sized once and written in place: pushing pixel by pixel checked the
    // capacity every time, a quarter of a GIF's cost.
    indices.clear();
    indices.resize(data.len() / 4, 0);
    // Runs of one colour are the rule, so the last match is tried first,
    // and a whole span of it at once (a comparison the compiler vectorizes).
    const SPAN: usize = 16;
    let word = |pixel: &[u8]| u32::from_le_bytes([pixel[0], pixel[1], pixel[2], pixel[3]]);
    let mut last = 0;
    let spans = data.chunks(4 * SPAN).zip(indices.chunks_mut(SPAN));
    for (pixels, span) in spans {
        let same = PALETTE_WORDS[last];
        if pixels.len() == 4 * SPAN
            && pixels
                .chunks_exact(4)
                .fold(true, |all, pixel| all & (word(pixel) == same))
        {
            span.fill(last as u8);
            continue;
        }
        for (pixel, index) in pixels.chunks_exact(4).zip(span.iter_mut()) {
            let word = word(pixel);
            if PALETTE_WORDS[last] != word {
                last = PALETTE_WORDS
                    .iter()
                    .position(|&entry| entry == word)
                    .unwrap_or_else(|| nearest([pixel[0], pixel[1], pixel[2]]));
            }
            *index = last as u8;
        }
    }
}

fn nearest(rgb: [u8; 3]) -> usize {
    let distance = |entry: &[u8; 3]| -> i32 {
        (0..3)
            .map(|i| (i32::from(entry[i]) - i32::from(rgb[i])).pow(2))
            .sum()
    };
    PALETTE
        .iter()
        .enumerate()
        .min_by_key(|(_, entry)| distance(entry))
        .map_or(0, |(i, _)| i)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Scenario;

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
        let half = renderer.layout.canvas() / 2;
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
    fn cell_sizes_outside_the_range_are_refused() {
        assert_eq!(RenderOptions::default().cell_size(), 40);
        assert!(RenderOptions::new(4).is_ok());
        assert!(RenderOptions::new(200).is_ok());
        assert_eq!(
            RenderOptions::new(3),
            Err(RenderOptionsError::CellSize { given: 3 })
        );
        let error = RenderOptions::new(201).unwrap_err();
        assert_eq!(
            error.to_string(),
            "a cell size of 201 pixels is not supported: expected 4 to 200"
        );
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
        let side = renderer.canvas_size();
        assert!(sizes.iter().all(|&size| size == (side, side)), "{sizes:?}");
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
                let word = u32::from_le_bytes([pixel[0], pixel[1], pixel[2], pixel[3]]);
                assert!(PALETTE_WORDS.contains(&word), "{pixel:?}");
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
                let half = renderer.layout.canvas() / 2;
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
            let side = renderer.canvas_size();
            for i in 0..side {
                for at in [(i, 0), (i, side - 1), (0, i), (side - 1, i)] {
                    assert_eq!(ink_at(&pixmap, at), Ink::Background, "{at:?}");
                }
            }
        }
    }

    #[test]
    fn indices_follow_the_palette_and_off_palette_pixels_snap_to_the_nearest() {
        let mut pixmap = Pixmap::new(3, 1).unwrap();
        pixmap.fill(Ink::Smole.color());
        pixmap.pixels_mut()[1] = tiny_skia::ColorU8::from_rgba(250, 150, 10, 255).premultiply();
        pixmap.pixels_mut()[2] = tiny_skia::ColorU8::from_rgba(30, 100, 220, 255).premultiply();
        assert_eq!(
            palette_indices(&pixmap),
            [
                Ink::Smole.index(),
                Ink::Warning.index(),
                Ink::Shubble.index()
            ]
        );
    }
}
