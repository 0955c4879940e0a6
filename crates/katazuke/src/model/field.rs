//! The field: its size, its cells named `c2`, adjacency, and the counts of
//! objects it starts with (§1.2–§1.4, §2.1).

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The most rows and the most columns a field has (§1.2).
pub const MAX_SIDE: usize = 16;

/// The most objects a cell of the initial field holds (§2.1).
pub const MAX_COUNT: u32 = 99;

/// A cell by its column and row, counted from 0: `c2` is column 2, row 1.
/// It may lie outside a given field; [`Size::contains`] says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell {
    /// 0 for column `a`.
    pub column: u8,
    /// 0 for row `1`.
    pub row: u8,
}

impl Cell {
    /// The cell a name such as `c2` or `p16` means: one lowercase letter,
    /// then a row number from 1 without leading zeros (§11.2). A lowercase
    /// letter followed by digits is meant as a cell whether or not a field
    /// has it (§10.6.7), so `b0` and `c01` are [`CellNameError::BadRow`],
    /// never read as another cell.
    pub fn parse(name: &str) -> Result<Cell, CellNameError> {
        let mut chars = name.chars();
        let letter = chars
            .next()
            .filter(char::is_ascii_lowercase)
            .ok_or(CellNameError::NotACellName)?;
        let digits = chars.as_str();
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return Err(CellNameError::NotACellName);
        }
        if digits.starts_with('0') {
            return Err(CellNameError::BadRow);
        }
        // Rows 1 to 256 fit a `u8`; a longer number is still a cell name,
        // of a row no field has.
        let row = digits
            .parse::<u16>()
            .ok()
            .and_then(|row| u8::try_from(row - 1).ok())
            .ok_or(CellNameError::OffEveryField)?;
        Ok(Cell {
            column: letter as u8 - b'a',
            row,
        })
    }

    /// The cells that share an edge with this one, on any field (§1.3).
    pub fn touches(self, other: Cell) -> bool {
        let (dc, dr) = (
            self.column.abs_diff(other.column),
            self.row.abs_diff(other.row),
        );
        dc + dr == 1
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}{}",
            char::from(b'a' + self.column),
            u32::from(self.row) + 1
        )
    }
}

impl Serialize for Cell {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Cell {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Cell, D::Error> {
        let name = String::deserialize(deserializer)?;
        Cell::parse(&name).map_err(|error| serde::de::Error::custom(format!("{name:?} is {error}")))
    }
}

/// Why a name is not a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum CellNameError {
    /// Not a lowercase letter followed by digits: not meant as a cell.
    NotACellName,
    /// A letter and digits whose row is 0 or written with a leading zero
    /// (`b0`, `c01`): no cell is written so.
    BadRow,
    /// A letter and a row number too large for any field (`a300`).
    OffEveryField,
}

impl fmt::Display for CellNameError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            CellNameError::NotACellName => "not a cell name such as b3",
            CellNameError::BadRow => {
                "not a cell name: rows are numbered from 1, without leading zeros"
            }
            CellNameError::OffEveryField => "not a cell of any field (at most 16 rows)",
        })
    }
}

impl std::error::Error for CellNameError {}

/// Rows and columns of a field.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Size {
    /// From 1 to 16.
    pub rows: u8,
    /// From 1 to 16.
    pub columns: u8,
}

impl Size {
    /// True when `cell` is one of this field's.
    pub fn contains(self, cell: Cell) -> bool {
        cell.column < self.columns && cell.row < self.rows
    }

    /// How many cells the field has.
    pub fn cells(self) -> usize {
        usize::from(self.rows) * usize::from(self.columns)
    }

    /// `cell`'s place in row-by-row order (it must be one of this field's).
    pub fn index(self, cell: Cell) -> usize {
        usize::from(cell.row) * usize::from(self.columns) + usize::from(cell.column)
    }

    /// The cell at `index` in row-by-row order.
    pub fn cell(self, index: usize) -> Cell {
        let columns = usize::from(self.columns);
        Cell {
            column: (index % columns) as u8,
            row: (index / columns) as u8,
        }
    }

    /// Every cell, row by row.
    pub fn all(self) -> impl Iterator<Item = Cell> + Clone {
        (0..self.cells()).map(move |index| self.cell(index))
    }

    /// The cells of this field that touch `cell`.
    pub fn neighbours(self, cell: Cell) -> impl Iterator<Item = Cell> {
        let (column, row) = (i32::from(cell.column), i32::from(cell.row));
        [(0, -1), (-1, 0), (1, 0), (0, 1)]
            .into_iter()
            .filter_map(move |(dc, dr)| {
                let (c, r) = (column + dc, row + dr);
                let fits =
                    c >= 0 && r >= 0 && c < i32::from(self.columns) && r < i32::from(self.rows);
                fits.then_some(Cell {
                    column: c as u8,
                    row: r as u8,
                })
            })
    }
}

impl fmt::Display for Size {
    /// `5x5`: rows by columns.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.rows, self.columns)
    }
}

/// The counts of a field, row by row: the field parameter of §2.1.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Field {
    size: Size,
    counts: Vec<u32>,
}

/// What makes counts not a field.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FieldError {
    /// Fewer than 3 cells, or a side longer than 16.
    Size {
        /// Rows given.
        rows: usize,
        /// Columns of the first row.
        columns: usize,
    },
    /// A row whose length is not the first row's.
    Ragged {
        /// Which row, from 0.
        row: usize,
        /// Its length.
        found: usize,
        /// The first row's.
        expected: usize,
    },
    /// A count above [`MAX_COUNT`].
    Count {
        /// Which row, from 0.
        row: usize,
        /// The count.
        found: u32,
    },
}

impl fmt::Display for FieldError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FieldError::Size { rows, columns } => write!(
                f,
                "a field has 1 to {MAX_SIDE} rows and columns and R*C >= 3 cells; this one has {rows} row(s) of {columns} (§1.2)"
            ),
            FieldError::Ragged { found, expected, .. } => write!(
                f,
                "ragged field: {found} numbers, the first row has {expected} (§2.1)"
            ),
            FieldError::Count { found, .. } => {
                write!(f, "a count is 0 to {MAX_COUNT}; found {found} (§2.1)")
            }
        }
    }
}

impl std::error::Error for FieldError {}

impl Field {
    /// A field from its rows of counts, checked (§1.2, §2.1).
    pub fn new(rows: &[Vec<u32>]) -> Result<Field, FieldError> {
        let columns = rows.first().map_or(0, Vec::len);
        for (row, counts) in rows.iter().enumerate() {
            if counts.len() != columns {
                return Err(FieldError::Ragged {
                    row,
                    found: counts.len(),
                    expected: columns,
                });
            }
            if let Some(&found) = counts.iter().find(|&&count| count > MAX_COUNT) {
                return Err(FieldError::Count { row, found });
            }
        }
        let fits = |side: usize| (1..=MAX_SIDE).contains(&side);
        if !fits(rows.len()) || !fits(columns) || rows.len() * columns < 3 {
            return Err(FieldError::Size {
                rows: rows.len(),
                columns,
            });
        }
        Ok(Field {
            size: Size {
                rows: rows.len() as u8,
                columns: columns as u8,
            },
            counts: rows.concat(),
        })
    }

    /// Rows and columns.
    pub fn size(&self) -> Size {
        self.size
    }

    /// The count of `cell`, which must be one of the field's.
    pub fn count(&self, cell: Cell) -> u32 {
        self.counts[self.size.index(cell)]
    }

    /// Every count, row by row.
    pub fn counts(&self) -> &[u32] {
        &self.counts
    }

    /// The rows of counts.
    pub fn rows(&self) -> Vec<Vec<u32>> {
        self.counts
            .chunks(usize::from(self.size.columns))
            .map(<[u32]>::to_vec)
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(name: &str) -> Cell {
        Cell::parse(name).unwrap()
    }

    #[test]
    fn cells_are_named_by_column_letter_and_row_number() {
        assert_eq!(cell("c2"), Cell { column: 2, row: 1 });
        assert_eq!(cell("a1").to_string(), "a1");
        assert_eq!(cell("p16").to_string(), "p16");
        for bad in ["", "c", "C2", "2c", "c2x", "cc2", "c-1", "é2", "c+1", "c 1"] {
            assert_eq!(Cell::parse(bad), Err(CellNameError::NotACellName), "{bad}");
        }
        // Never read as another cell: b0 is not b1, c01 is not c1.
        for bad in ["b0", "a0", "c00", "c01", "p016", "a0000000000000000000001"] {
            assert_eq!(Cell::parse(bad), Err(CellNameError::BadRow), "{bad}");
        }
        // Lexically a cell even when no field has it.
        let far = cell("a12");
        let size = Size {
            rows: 6,
            columns: 3,
        };
        assert!(!size.contains(far));
        assert!(!size.contains(cell("z1")));
        assert!(size.contains(cell("c6")));
        assert_eq!(
            cell("a256"),
            Cell {
                column: 0,
                row: 255
            }
        );
        for far in ["a257", "a99999999999999999999"] {
            assert_eq!(Cell::parse(far), Err(CellNameError::OffEveryField), "{far}");
        }
    }

    #[test]
    fn adjacency_is_by_edge_only() {
        assert!(cell("b2").touches(cell("b1")));
        assert!(cell("b2").touches(cell("c2")));
        assert!(!cell("b2").touches(cell("c3")));
        assert!(!cell("b2").touches(cell("b2")));
        let size = Size {
            rows: 2,
            columns: 3,
        };
        let around: Vec<String> = size.neighbours(cell("a1")).map(|c| c.to_string()).collect();
        assert_eq!(around, ["b1", "a2"]);
    }

    #[test]
    fn fields_are_checked() {
        let field = Field::new(&[vec![1, 2, 3], vec![0, 0, 9]]).unwrap();
        assert_eq!(field.size().to_string(), "2x3");
        assert_eq!(field.count(cell("c2")), 9);
        assert_eq!(field.rows(), vec![vec![1, 2, 3], vec![0, 0, 9]]);
        assert!(matches!(
            Field::new(&[vec![1, 2]]),
            Err(FieldError::Size {
                rows: 1,
                columns: 2
            })
        ));
        assert!(matches!(
            Field::new(&[vec![1, 2, 3], vec![1, 2]]),
            Err(FieldError::Ragged {
                row: 1,
                found: 2,
                expected: 3
            })
        ));
        assert!(matches!(
            Field::new(&[vec![1, 100, 3]]),
            Err(FieldError::Count { row: 0, found: 100 })
        ));
        assert!(Field::new(&vec![vec![0; 17]; 1]).is_err());
    }
}
