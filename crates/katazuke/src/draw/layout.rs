//! Where things go in a replay picture: every size derived from the cell
//! size, in whole pixels, and one canvas for every frame of a match (the
//! largest field of its two games).

use crate::model::field::Cell;

/// Sizes and places, in pixels.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Layout {
    /// Side of a cell.
    pub cell: i32,
    /// Around everything.
    pub margin: i32,
    /// Height of the header line at the top.
    pub header: i32,
    /// Width of the row numbers and height of the column letters.
    pub label: i32,
    /// The board's top left corner.
    pub board_x: i32,
    /// The board's top edge.
    pub board_y: i32,
    /// Rows and columns the canvas has room for.
    pub rows: i32,
    /// Columns the canvas has room for.
    pub columns: i32,
    /// The team panels' left edge.
    pub panel_x: i32,
    /// A panel's width.
    pub panel_w: i32,
    /// A panel's height.
    pub panel_h: i32,
    /// The caption strip's top edge.
    pub caption_y: i32,
    /// The canvas.
    pub width: i32,
    /// The canvas.
    pub height: i32,
}

impl Layout {
    /// The layout for cells of `cell` pixels and fields of up to `rows` by
    /// `columns`.
    pub fn new(cell: u32, rows: u8, columns: u8) -> Layout {
        // At most 160 (the command line's range): products stay small.
        let cell = cell as i32;
        let margin = cell / 4;
        let header = cell * 6 / 10;
        let label = cell * 45 / 100;
        let (rows, columns) = (i32::from(rows), i32::from(columns));
        let board_x = margin + label;
        let board_y = header + label;
        let panel_x = board_x + columns * cell + margin;
        let panel_w = cell * 11 / 2;
        let panel_h = cell * 33 / 10;
        let content = label + (rows * cell).max(2 * panel_h + margin);
        let caption_y = header + content + margin;
        let caption = cell * 12 / 10;
        Layout {
            cell,
            margin,
            header,
            label,
            board_x,
            board_y,
            rows,
            columns,
            panel_x,
            panel_w,
            panel_h,
            caption_y,
            width: panel_x + panel_w + margin,
            height: caption_y + caption + margin / 2,
        }
    }

    /// The top left corner of `cell`.
    pub fn cell_origin(&self, cell: Cell) -> (i32, i32) {
        (
            self.board_x + i32::from(cell.column) * self.cell,
            self.board_y + i32::from(cell.row) * self.cell,
        )
    }

    /// The top edge of `team`'s panel (A's above B's).
    pub fn panel_y(&self, second: bool) -> i32 {
        self.header
            + self.label
            + if second {
                self.panel_h + self.margin
            } else {
                0
            }
    }

    /// Text sizes, pixels per em.
    pub fn text(&self, share: f32) -> f32 {
        self.cell as f32 * share
    }
}
