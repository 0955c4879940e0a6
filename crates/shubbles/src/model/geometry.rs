//! The box's shape: its 29 cells, their neighbours, the opening under cell 28,
//! orientations and sets of cells (BOX.md §1, §3).
//!
//! Everything here is fixed at compile time; the engine's hot loops work on
//! [`CellSet`] bit masks moved by masked shifts, one per direction.

use std::fmt;

/// Number of cells in the box.
pub const CELL_COUNT: usize = 29;

/// The cell with the opening on its bottom side.
pub const OPENING_CELL: Cell = Cell(28);

/// Where a creature that falls through the opening is drawn for one tick: just
/// below cell 28, outside the box.
pub const EXIT_POSITION: (i32, i32) = (6, 5);

/// First and last `x` of each row `y = 0..5`, in the standard frame.
const ROWS: [(i32, i32); 5] = [(0, 5), (1, 6), (1, 5), (0, 5), (1, 6)];

/// One of the 29 cells, numbered row by row as in BOX.md §1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Cell(u8);

impl Cell {
    /// The cell with this number, if there is one.
    pub const fn new(number: usize) -> Option<Cell> {
        if number < CELL_COUNT {
            Some(Cell(number as u8))
        } else {
            None
        }
    }

    /// All cells in number order.
    pub fn all() -> impl DoubleEndedIterator<Item = Cell> + Clone {
        (0..CELL_COUNT as u8).map(Cell)
    }

    /// The cell's number, 0 to 28.
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// `(x, y)` in the standard frame.
    pub const fn position(self) -> (i32, i32) {
        POSITIONS[self.0 as usize]
    }

    /// The cell at `(x, y)` in the standard frame, if any.
    pub const fn at(x: i32, y: i32) -> Option<Cell> {
        if y < 0 || y >= ROWS.len() as i32 {
            return None;
        }
        let (first, last) = ROWS[y as usize];
        if x < first || x > last {
            return None;
        }
        let mut number = 0;
        let mut row = 0;
        while row < y as usize {
            number += ROWS[row].1 - ROWS[row].0 + 1;
            row += 1;
        }
        Some(Cell((number + x - first) as u8))
    }

    /// What lies one step from this cell in `direction` (standard frame).
    /// A table lookup: the engine asks this twice per stot move, and the
    /// solver makes millions of stot moves.
    #[inline]
    pub const fn neighbour(self, direction: Direction) -> Neighbour {
        NEIGHBOURS[self.0 as usize][direction.table_index()]
    }

    /// [`Cell::neighbour`] worked out from the coordinates, to fill its
    /// table at compile time.
    const fn find_neighbour(self, direction: Direction) -> Neighbour {
        let (x, y) = self.position();
        let (dx, dy) = direction.vector();
        match Cell::at(x + dx, y + dy) {
            Some(cell) => Neighbour::Cell(cell),
            None if self.0 == OPENING_CELL.0 && matches!(direction, Direction::Down) => {
                Neighbour::Opening
            }
            None => Neighbour::Wall,
        }
    }

    /// The set of this cell alone.
    pub const fn bit(self) -> CellSet {
        CellSet(1 << self.0)
    }
}

impl fmt::Display for Cell {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

const POSITIONS: [(i32, i32); CELL_COUNT] = {
    let mut table = [(0, 0); CELL_COUNT];
    let mut n = 0;
    let mut y = 0;
    while y < ROWS.len() {
        let mut x = ROWS[y].0;
        while x <= ROWS[y].1 {
            table[n] = (x, y as i32);
            n += 1;
            x += 1;
        }
        y += 1;
    }
    table
};

/// Every cell's neighbour in each direction, indexed by cell number and
/// [`Direction::table_index`].
const NEIGHBOURS: [[Neighbour; 4]; CELL_COUNT] = {
    let mut table = [[Neighbour::Wall; 4]; CELL_COUNT];
    let mut n = 0;
    while n < CELL_COUNT {
        let mut d = 0;
        while d < Direction::ALL.len() {
            table[n][d] = Cell(n as u8).find_neighbour(Direction::ALL[d]);
            d += 1;
        }
        n += 1;
    }
    table
};

/// What is on the other side of one side of a cell.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Neighbour {
    /// Another cell of the box.
    Cell(Cell),
    /// The box's wall.
    Wall,
    /// The bottom side of cell 28: the way out of the box.
    Opening,
}

/// A compass direction in the standard (unturned) frame of the box.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    /// Towards smaller `x`.
    Left,
    /// Towards larger `x`.
    Right,
    /// Towards smaller `y`.
    Up,
    /// Towards larger `y`.
    Down,
}

impl Direction {
    /// The four directions: left, right, up, down.
    pub const ALL: [Direction; 4] = [
        Direction::Left,
        Direction::Right,
        Direction::Up,
        Direction::Down,
    ];

    /// `(dx, dy)` with `y` growing downwards.
    pub const fn vector(self) -> (i32, i32) {
        match self {
            Direction::Left => (-1, 0),
            Direction::Right => (1, 0),
            Direction::Up => (0, -1),
            Direction::Down => (0, 1),
        }
    }

    /// The direction back.
    pub const fn opposite(self) -> Direction {
        match self {
            Direction::Left => Direction::Right,
            Direction::Right => Direction::Left,
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
        }
    }

    /// `left`, `right`, `up` or `down`, for messages and the event log.
    pub const fn name(self) -> &'static str {
        match self {
            Direction::Left => "left",
            Direction::Right => "right",
            Direction::Up => "up",
            Direction::Down => "down",
        }
    }

    /// The direction's place in [`Direction::ALL`], for tables by
    /// direction.
    pub(crate) const fn table_index(self) -> usize {
        match self {
            Direction::Left => 0,
            Direction::Right => 1,
            Direction::Up => 2,
            Direction::Down => 3,
        }
    }

    /// Every cell of `cells` moved one step in this direction; cells whose
    /// neighbour is not a cell (wall or opening) drop out.
    ///
    /// One arm per direction, each with its shifts as constants: left and
    /// right are one masked shift, up and down two. The arms differ in
    /// shape, so the compiler keeps them apart instead of merging them
    /// into one with the shifts loaded from a table; callers that know the
    /// direction (the engine's settle loop) get just their arm.
    #[inline(always)]
    pub(crate) fn step(self, cells: CellSet) -> CellSet {
        self.steps::<0>(cells)
    }

    /// [`Direction::step`] taken twice.
    #[inline(always)]
    pub(crate) fn step_twice(self, cells: CellSet) -> CellSet {
        self.steps::<1>(cells)
    }

    /// [`Direction::step`] taken four times.
    #[inline(always)]
    pub(crate) fn step_four_times(self, cells: CellSet) -> CellSet {
        self.steps::<2>(cells)
    }

    #[inline(always)]
    fn steps<const K: usize>(self, cells: CellSet) -> CellSet {
        CellSet(match self {
            Direction::Left => shifted::<0, K>(cells.0),
            Direction::Right => shifted::<1, K>(cells.0),
            Direction::Up => shifted::<2, K>(cells.0),
            Direction::Down => shifted::<3, K>(cells.0),
        })
    }

    /// The cells whose neighbour in this direction is a wall (not a cell and
    /// not the opening).
    #[inline(always)]
    pub(crate) fn walled(self) -> CellSet {
        CellSet(SHIFTS[0][self.table_index()].walled)
    }
}

/// `bits` moved by the masked shifts of `SHIFTS[K][D]`, `D` being a
/// [`Direction::table_index`] and `K` the index of 1, 2 or 4 steps;
/// everything but the masks and shifts is decided at compile time.
#[inline(always)]
fn shifted<const D: usize, const K: usize>(bits: u32) -> u32 {
    let shift = &SHIFTS[K][D];
    shift_by(bits & shift.masks[0], shift.deltas[0])
        | shift_by(bits & shift.masks[1], shift.deltas[1])
}

#[inline(always)]
const fn shift_by(bits: u32, delta: i32) -> u32 {
    if delta >= 0 {
        bits << delta
    } else {
        bits >> -delta
    }
}

/// A direction's neighbour map as at most two masked shifts of the cell
/// numbers: rows are offset against each other, so moving down is `+5` for
/// some cells and `+6` for others. This keeps a falling tick to a handful of
/// integer operations.
struct Shift {
    masks: [u32; 2],
    deltas: [i32; 2],
    walled: u32,
}

/// The masked shifts of one, two and four steps in each direction, by
/// `[steps index][Direction::table_index]`.
const SHIFTS: [[Shift; 4]; 3] = [shift_tables(1), shift_tables(2), shift_tables(4)];

const fn shift_tables(steps: usize) -> [Shift; 4] {
    [
        shift_table(Direction::Left, steps),
        shift_table(Direction::Right, steps),
        shift_table(Direction::Up, steps),
        shift_table(Direction::Down, steps),
    ]
}

/// `steps` steps in `direction` as masked shifts: a cell is in a mask
/// when every step on the way lands on a cell. `walled` is only filled
/// for one step.
const fn shift_table(direction: Direction, steps: usize) -> Shift {
    let mut shift = Shift {
        masks: [0, 0],
        deltas: [0, 0],
        walled: 0,
    };
    let mut used = 0;
    let mut n = 0;
    while n < CELL_COUNT {
        let mut at = Neighbour::Cell(Cell(n as u8));
        let mut taken = 0;
        while taken < steps {
            if let Neighbour::Cell(cell) = at {
                at = cell.find_neighbour(direction);
            }
            taken += 1;
        }
        match at {
            Neighbour::Cell(to) => {
                let delta = to.0 as i32 - n as i32;
                let mut slot = 0;
                while slot < used && shift.deltas[slot] != delta {
                    slot += 1;
                }
                if slot == used {
                    // The box's shape needs at most two distinct offsets per
                    // direction and distance; a third would be a bug in ROWS.
                    assert!(used < 2, "more than two offsets for one direction");
                    shift.deltas[slot] = delta;
                    used += 1;
                }
                shift.masks[slot] |= 1 << n;
            }
            Neighbour::Wall if steps == 1 => shift.walled |= 1 << n,
            Neighbour::Wall | Neighbour::Opening => {}
        }
        n += 1;
    }
    shift
}

/// How often the box has been turned clockwise by a quarter, mod 4.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub struct Orientation(u8);

impl Orientation {
    /// Unturned: gravity points down, the opening is at the bottom.
    pub const STANDARD: Orientation = Orientation(0);

    /// From a number of clockwise quarter turns (any integer, taken mod 4).
    pub const fn from_quarters(quarters: i32) -> Orientation {
        Orientation(quarters.rem_euclid(4) as u8)
    }

    /// Clockwise quarter turns, `0..4`.
    pub const fn quarters(self) -> u8 {
        self.0
    }

    /// Clockwise turn in degrees: 0, 90, 180 or 270.
    pub const fn degrees(self) -> u32 {
        self.0 as u32 * 90
    }

    /// A quarter turn further clockwise.
    pub const fn clockwise(self) -> Orientation {
        Orientation((self.0 + 1) % 4)
    }

    /// A quarter turn back, counter-clockwise.
    pub const fn counter_clockwise(self) -> Orientation {
        Orientation((self.0 + 3) % 4)
    }

    /// The direction creatures fall in, in the box's own (standard) frame.
    #[inline(always)]
    pub const fn gravity(self) -> Direction {
        match self.0 {
            0 => Direction::Down,
            1 => Direction::Right,
            2 => Direction::Up,
            _ => Direction::Left,
        }
    }

    /// A standard-frame position as seen with the box turned this way:
    /// `(x, y) -> (-y, x)` once per clockwise quarter.
    pub const fn turn(self, (x, y): (i32, i32)) -> (i32, i32) {
        match self.0 {
            0 => (x, y),
            1 => (-y, x),
            2 => (-x, -y),
            _ => (y, -x),
        }
    }
}

/// A set of cells as a bit mask: bit `n` is cell `n`.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct CellSet(u32);

impl CellSet {
    /// No cell.
    pub const EMPTY: CellSet = CellSet(0);
    /// Every cell of the box.
    pub const ALL: CellSet = CellSet((1 << CELL_COUNT) - 1);

    /// The cells whose bits are set; bits past cell 28 are ignored.
    pub const fn from_bits(bits: u32) -> CellSet {
        CellSet(bits & CellSet::ALL.0)
    }

    /// Bit `n` set for each cell `n`.
    pub const fn bits(self) -> u32 {
        self.0
    }

    /// True when no cell is in the set.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// How many cells are in the set.
    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// True when `cell` is in the set.
    pub const fn contains(self, cell: Cell) -> bool {
        self.0 & (1 << cell.0) != 0
    }

    /// The cells of either set.
    pub const fn union(self, other: CellSet) -> CellSet {
        CellSet(self.0 | other.0)
    }

    /// The cells of both sets.
    pub const fn intersection(self, other: CellSet) -> CellSet {
        CellSet(self.0 & other.0)
    }

    /// The cells of this set that are not in `other`.
    pub const fn without(self, other: CellSet) -> CellSet {
        CellSet(self.0 & !other.0)
    }

    /// The cells in number order.
    pub fn iter(self) -> impl Iterator<Item = Cell> + Clone {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            if bits == 0 {
                return None;
            }
            let n = bits.trailing_zeros();
            bits &= bits - 1;
            Some(Cell(n as u8))
        })
    }
}

impl FromIterator<Cell> for CellSet {
    fn from_iter<I: IntoIterator<Item = Cell>>(cells: I) -> CellSet {
        cells
            .into_iter()
            .fold(CellSet::EMPTY, |set, cell| set.union(cell.bit()))
    }
}

impl fmt::Debug for CellSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter().map(|c| c.0)).finish()
    }
}

/// Cell numbers as `3, 4 and 9`, for messages.
pub(crate) fn list_cells(cells: CellSet) -> String {
    let names: Vec<String> = cells.iter().map(|c| c.to_string()).collect();
    match names.as_slice() {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {}", rest.join(", "), last),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_are_numbered_row_by_row() {
        assert_eq!(Cell::at(0, 0), Cell::new(0));
        assert_eq!(Cell::at(6, 1), Cell::new(11));
        assert_eq!(Cell::at(1, 2), Cell::new(12));
        assert_eq!(Cell::at(0, 3), Cell::new(17));
        assert_eq!(Cell::at(6, 4), Cell::new(28));
        assert_eq!(Cell::at(0, 1), None);
        assert_eq!(Cell::at(6, 2), None);
        for cell in Cell::all() {
            let (x, y) = cell.position();
            assert_eq!(Cell::at(x, y), Some(cell));
        }
    }

    #[test]
    fn stot_moves_follow_the_standard_frame() {
        let ten = Cell::new(10).unwrap();
        assert_eq!(
            ten.neighbour(Direction::Up),
            Neighbour::Cell(Cell::new(5).unwrap())
        );
        assert_eq!(
            ten.neighbour(Direction::Right),
            Neighbour::Cell(Cell::new(11).unwrap())
        );
        assert_eq!(OPENING_CELL.neighbour(Direction::Down), Neighbour::Opening);
        assert_eq!(OPENING_CELL.neighbour(Direction::Right), Neighbour::Wall);
        assert_eq!(OPENING_CELL.neighbour(Direction::Up), Neighbour::Wall);
        assert_eq!(
            Cell::new(0).unwrap().neighbour(Direction::Down),
            Neighbour::Wall
        );
    }

    #[test]
    fn the_neighbour_table_agrees_with_the_coordinates() {
        for cell in Cell::all() {
            for direction in Direction::ALL {
                assert_eq!(cell.neighbour(direction), cell.find_neighbour(direction));
            }
        }
    }

    #[test]
    fn masked_shifts_agree_with_the_neighbour_table() {
        for direction in Direction::ALL {
            for cell in Cell::all() {
                let stepped = direction.step(cell.bit());
                match cell.neighbour(direction) {
                    Neighbour::Cell(to) => assert_eq!(stepped, to.bit(), "{cell} {direction:?}"),
                    Neighbour::Wall => {
                        assert!(stepped.is_empty());
                        assert!(direction.walled().contains(cell));
                    }
                    Neighbour::Opening => {
                        assert!(stepped.is_empty());
                        assert!(!direction.walled().contains(cell));
                    }
                }
            }
        }
    }

    #[test]
    fn longer_steps_are_repeated_steps() {
        for direction in Direction::ALL {
            for cell in Cell::all() {
                let once = |set| direction.step(set);
                let twice = once(once(cell.bit()));
                assert_eq!(
                    direction.step_twice(cell.bit()),
                    twice,
                    "{cell} {direction:?}"
                );
                assert_eq!(direction.step_four_times(cell.bit()), once(once(twice)));
            }
        }
    }

    #[test]
    fn gravity_turns_with_the_box() {
        let gravities: Vec<Direction> = (0..4)
            .map(|q| Orientation::from_quarters(q).gravity())
            .collect();
        assert_eq!(
            gravities,
            [
                Direction::Down,
                Direction::Right,
                Direction::Up,
                Direction::Left
            ]
        );
        // Seen on screen, gravity always points down.
        for q in 0..4 {
            let o = Orientation::from_quarters(q);
            assert_eq!(o.turn(o.gravity().vector()), (0, 1));
        }
        assert_eq!(
            Orientation::from_quarters(-1),
            Orientation::from_quarters(3)
        );
    }

    #[test]
    fn cell_lists_read_as_prose() {
        let set: CellSet = [3, 4, 9].iter().filter_map(|&n| Cell::new(n)).collect();
        assert_eq!(list_cells(set), "3, 4 and 9");
        assert_eq!(list_cells(Cell::new(7).unwrap().bit()), "7");
    }
}
