//! Where things go in a picture of the box: every size derived from the
//! cell size, in whole pixels.

use super::options::RenderOptions;

/// Sizes in whole pixels, all derived from the cell size, so every edge of
/// an unturned or quarter-turned box falls on a pixel boundary.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Layout {
    pub(super) cell: i32,
    /// The grid line between two cells is `grid_near` pixels of the cell
    /// after it plus `grid_far` pixels of the cell before it.
    pub(super) grid_near: i32,
    pub(super) grid_far: i32,
    /// Creatures are squares this far inside their cell, so the white cell
    /// and the grid show between neighbouring creatures.
    pub(super) inset: i32,
    pub(super) wall: i32,
    /// Side of the square part of the canvas, centred on the box centre.
    pub(super) side: i32,
    /// Height of the caption strip under the square (0 without a caption).
    pub(super) strip: i32,
    pub(super) caption_size: f32,
    pub(super) number_size: f32,
}

impl Layout {
    pub(super) fn new(options: &RenderOptions, any_angle: bool) -> Layout {
        // At most 200 (validated), so the casts and products stay small.
        let cell = options.cell_size() as i32;
        let grid = (cell / 20).max(1);
        let wall = (cell * 3 / 20).max(2);
        let side = if any_angle {
            // The circle through the farthest point ever drawn: the corner
            // of a creature leaving the exit cell (half a cell below it, see
            // `Scene`), 3.5 cells across and 4 cells plus a wall down from
            // the box centre. Refused moves' arrows and the walls' corners
            // stay nearer.
            let reach = (3.5 * f64::from(cell)).hypot(4.0 * f64::from(cell) + f64::from(wall));
            // The same parity as the cell size keeps the box centre (3.5 by
            // 2.5 cells) as far off whole pixels as on the 1-second canvas:
            // box edges at rest fall on pixel boundaries either way.
            2 * (reach.ceil() as i32 + (cell / 10).max(2)) + cell % 2
        } else {
            // The box's 7 by 5 cells (6 rows counting the exit cell) fit in
            // 7 cells at every quarter turn. A refused stot move's arrow
            // reaches half a cell past the box edge; the rest of the margin
            // keeps it off the canvas border.
            let margin = (cell / 2).max(wall) + (cell / 10).max(2);
            7 * cell + 2 * margin
        };
        let caption_size = cell as f32 * 0.45;
        let strip = if options.caption().is_some() {
            // Two lines (the operation; what failed) and some air.
            (caption_size * 3.0).ceil() as i32
        } else {
            0
        };
        Layout {
            cell,
            grid_near: grid / 2,
            grid_far: grid - grid / 2,
            inset: (cell / 8).max(grid),
            wall,
            side,
            strip,
            caption_size,
            number_size: cell as f32 * 0.38,
        }
    }

    /// The pixel rectangle of the standard-frame position `(x, y)` in box
    /// coordinates (top left corner of cell 0 at the origin).
    pub(super) fn square(&self, (x, y): (i32, i32)) -> Square {
        Square {
            left: (x * self.cell) as f32,
            top: (y * self.cell) as f32,
            size: self.cell as f32,
        }
    }
}

/// An axis-aligned square in box pixel coordinates. At rest every
/// coordinate is a whole number; in motion it may be anywhere.
#[derive(Clone, Copy, Debug)]
pub(super) struct Square {
    pub(super) left: f32,
    pub(super) top: f32,
    pub(super) size: f32,
}

impl Square {
    /// Grown by `by` pixels on every side (shrunk when negative).
    pub(super) fn grown(self, by: i32) -> Square {
        let by = by as f32;
        Square {
            left: self.left - by,
            top: self.top - by,
            size: self.size + 2.0 * by,
        }
    }

    /// Moved `(dx, dy)` pixels.
    pub(super) fn shifted(self, (dx, dy): (f32, f32)) -> Square {
        Square {
            left: self.left + dx,
            top: self.top + dy,
            ..self
        }
    }

    /// The centre, rounded down to a whole pixel like the layout's integer
    /// sizes, so an odd cell size places marks as it always has.
    pub(super) fn centre(self) -> (f32, f32) {
        let half = (self.size / 2.0).floor();
        (self.left + half, self.top + half)
    }
}
