//! The start cells `play` chooses when a parameters file gives none
//! (§15.1 `--start symmetric`); `--start random` draws them with
//! [`super::random::random_start`].

use crate::model::field::{Cell, Size};

/// The first team in the centre, the second at the two ends of the centre
/// row (or column, on a field one or two cells wide).
pub fn symmetric_start(size: Size) -> [Cell; 3] {
    let (rows, columns) = (size.rows, size.columns);
    let centre = Cell {
        column: columns / 2,
        row: rows / 2,
    };
    if columns >= 3 {
        [
            centre,
            Cell {
                column: 0,
                ..centre
            },
            Cell {
                column: columns - 1,
                ..centre
            },
        ]
    } else if rows >= 3 {
        [
            centre,
            Cell { row: 0, ..centre },
            Cell {
                row: rows - 1,
                ..centre
            },
        ]
    } else {
        // 2 × 2: three of the four corners.
        [size.cell(0), size.cell(1), size.cell(3)]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn symmetric_starts_are_the_centre_and_the_ends_of_its_row_or_column() {
        let names = |size: Size| symmetric_start(size).map(|cell| cell.to_string());
        assert_eq!(
            names(Size {
                rows: 5,
                columns: 5
            }),
            ["c3", "a3", "e3"]
        );
        assert_eq!(
            names(Size {
                rows: 4,
                columns: 2
            }),
            ["b3", "b1", "b4"]
        );
        assert_eq!(
            names(Size {
                rows: 2,
                columns: 2
            }),
            ["a1", "b1", "b2"]
        );
    }
}
