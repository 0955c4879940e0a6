//! Closed-form settling: where every creature comes to rest, in one step
//! instead of tick by tick (see [`State::settled`](super::state::State::settled)).
//!
//! Along gravity the box is cut into lines: the rows when gravity is
//! sideways, the columns when it is vertical (columns `x = 1..5` of five
//! cells; cells 0, 11, 17 and 28 are columns of one cell). The stot cuts
//! its line into two segments. In each segment the creatures keep their
//! order and end packed against the segment's gravity end, so a creature
//! falls by the number of empty cells between it and that end.
//!
//! A line's creature cells make a key of at most 6 bits (bit `i` is the
//! line's `i`-th cell, counted right or down in the standard frame), with
//! 3 more bits for the stot's place in the line when it is there. A table
//! gives, for each key, the line's resting creature cells and how far each
//! creature falls; the resting creatures come out of it for every line at
//! once, and the smoles (whose identity must survive) move by their fall.

use super::geometry::CELL_COUNT;

/// Where row `y`'s first cell is, and its length.
const ROW_START: [u32; 5] = [0, 6, 12, 17, 23];
const ROW_LEN: [u32; 5] = [6, 6, 5, 6, 6];

/// Cell number of row `y` in a column, minus the column's `x`
/// (columns `x = 1..5`).
const COLUMN_OFFSET: [u32; 5] = [0, 5, 11, 17, 22];

/// The cells of column `x` as bits when shifted right by `x`.
const COLUMN_MASK: u32 = 1 | 1 << 5 | 1 << 11 | 1 << 17 | 1 << 22;

/// Multiplying the masked column by this puts its 5 bits, in row order,
/// at bits 18..23; no two partial products meet, so nothing carries
/// (checked for every pattern by a test).
const COLUMN_GATHER: u64 = 1 << 18 | 1 << 14 | 1 << 9 | 1 << 4 | 1;
const COLUMN_GATHER_SHIFT: u32 = 18;

/// Cells that are a line of their own under vertical gravity.
const VERTICAL_SINGLES: u32 = 1 | 1 << 11 | 1 << 17 | 1 << 28;

/// The opening's cell as a bit.
const OPENING_BIT: u32 = 1 << 28;

/// One entry per key: resting creature bits in bits 0..6, from bit
/// `8 + 3 i` how far the creature in the line's cell `i` falls, and from
/// bit 32 the resting cells of a column as cell bits (for `x = 0`; see
/// [`SPREAD_COLUMN`]), so that columns need no second look-up.
type LineTable = [u64; 512];

/// Where an entry's column cell bits start.
const SPREAD_SHIFT: u32 = 32;

/// Bit of a key where the stot's place (1 + its index in the line; 0 when
/// it is not in the line) starts.
const STOT_KEY_SHIFT: u32 = 6;

const fn line_table(len: u32, toward_high: bool) -> LineTable {
    let mut table = [0u64; 512];
    let mut key = 0;
    while key < 512 {
        let occupied = key & 63;
        let stot_place = (key >> STOT_KEY_SHIFT) - 1;
        let mut entry = 0u32;
        let mut step = 0;
        // Walk the line from its gravity end; `dest` is where the next
        // creature comes to rest.
        let mut dest: i32 = if toward_high { len as i32 - 1 } else { 0 };
        while step < len as i32 {
            let i = if toward_high {
                len as i32 - 1 - step
            } else {
                step
            };
            if i == stot_place {
                dest = if toward_high { i - 1 } else { i + 1 };
            } else if occupied >> i & 1 == 1 {
                entry |= 1 << dest;
                let fall = if toward_high { dest - i } else { i - dest };
                entry |= (fall as u32) << (8 + 3 * i);
                dest += if toward_high { -1 } else { 1 };
            }
            step += 1;
        }
        table[key as usize] =
            entry as u64 | (SPREAD_COLUMN[(entry & 31) as usize] as u64) << SPREAD_SHIFT;
        key += 1;
    }
    table
}

static TOWARD_LOW: LineTable = line_table(6, false);
static TOWARD_HIGH_5: LineTable = line_table(5, true);
static TOWARD_HIGH_6: LineTable = line_table(6, true);

/// For each cell: its line (0..5; 5 for a line of one cell, which has no
/// key) and its index in the line, for rows (`[0]`) and columns (`[1]`).
const PLACES: [[(u8, u8); CELL_COUNT]; 2] = {
    let mut places = [[(5u8, 0u8); CELL_COUNT]; 2];
    let mut y = 0;
    while y < 5 {
        let mut i = 0;
        while i < ROW_LEN[y] {
            places[0][(ROW_START[y] + i) as usize] = (y as u8, i as u8);
            i += 1;
        }
        y += 1;
    }
    let mut x = 1;
    while x <= 5 {
        let mut i = 0;
        while i < 5 {
            places[1][(x + COLUMN_OFFSET[i]) as usize] = ((x - 1) as u8, i as u8);
            i += 1;
        }
        x += 1;
    }
    places
};

/// Where a creature in each cell comes to rest after falling 0..7 cells,
/// by orientation (gravity down, right, up, left).
const DESTINATIONS: [[[u8; 8]; CELL_COUNT]; 4] = {
    let mut table = [[[0u8; 8]; CELL_COUNT]; 4];
    let mut quarters = 0;
    while quarters < 4 {
        let mut cell = 0;
        while cell < CELL_COUNT {
            let (line, i) = PLACES[if quarters % 2 == 0 { 1 } else { 0 }][cell];
            let mut fall = 0;
            while fall < 8 {
                let i = i as i32;
                let reach = match quarters {
                    0 | 1 => i + fall,
                    _ => i - fall,
                };
                let len = if quarters % 2 == 0 {
                    5
                } else if line < 5 {
                    ROW_LEN[line as usize] as i32
                } else {
                    0
                };
                table[quarters][cell][fall as usize] = if line == 5 || reach < 0 || reach >= len {
                    // Never asked for: no creature falls out of its line.
                    cell as u8
                } else if quarters % 2 == 0 {
                    (line as u32 + 1 + COLUMN_OFFSET[reach as usize]) as u8
                } else {
                    (ROW_START[line as usize] + reach as u32) as u8
                };
                fall += 1;
            }
            cell += 1;
        }
        quarters += 1;
    }
    table
};

/// The resting shubbles and smoles (as cell bits) of a box turned
/// `quarters` clockwise whose stot is in cell `stot`, or `None` if a smole
/// falls through the opening. A shubble in cell 28 with gravity down falls
/// out (nothing can follow it: the cell above 28 is wall).
#[inline(always)]
pub(crate) fn rest(shubbles: u32, smoles: u32, stot: u32, quarters: u8) -> Option<(u32, u32)> {
    let creatures = shubbles | smoles;
    match quarters & 3 {
        gravity @ (1 | 3) => {
            let [rows] = rows(creatures, stot, [gravity as usize]);
            Some(smoles_moved(gravity as usize, smoles, rows))
        }
        gravity => {
            let [columns] = columns(creatures, stot, [gravity as usize]);
            vertical_rest(gravity as usize, shubbles, smoles, columns)
        }
    }
}

/// Where everything comes to rest under both gravities across the one
/// with `quarters` (the two quarter turns from it): `[turned clockwise,
/// turned counter-clockwise]`, each as [`rest`] gives it. The two share
/// their lines and the lines' keys, so this costs less than two calls.
#[inline(always)]
pub(crate) fn rest_across(
    shubbles: u32,
    smoles: u32,
    stot: u32,
    quarters: u8,
) -> [Option<(u32, u32)>; 2] {
    let creatures = shubbles | smoles;
    match quarters & 3 {
        // Gravity down or up: the quarter turns make it right and left.
        now @ (0 | 2) => {
            let [right, left] = rows(creatures, stot, [1, 3]);
            let right = Some(smoles_moved(1, smoles, right));
            let left = Some(smoles_moved(3, smoles, left));
            // Clockwise from down is right; from up, left.
            if now == 0 {
                [right, left]
            } else {
                [left, right]
            }
        }
        now => {
            let [down, up] = columns(creatures, stot, [0, 2]);
            let down = vertical_rest(0, shubbles, smoles, down);
            let up = vertical_rest(2, shubbles, smoles, up);
            // Clockwise from right is up; from left, down.
            if now == 1 {
                [up, down]
            } else {
                [down, up]
            }
        }
    }
}

/// The lines of a box under one gravity: each line's table entry (see
/// [`LineTable`]) and the cells where its creatures rest.
type RestedLines = ([u64; 8], u32);

/// The rows of a box with creatures `creatures` and its stot in `stot`,
/// rested under each of `gravities` (1: right, 3: left). The rows' keys
/// are worked out once for all of them.
#[inline(always)]
fn rows<const N: usize>(creatures: u32, stot: u32, gravities: [usize; N]) -> [RestedLines; N] {
    let stot_places = STOT_PLACES[0][stot as usize % CELL_COUNT] as u32;
    let mut rested = [([0u64; 8], 0u32); N];
    let mut y = 0;
    while y < 5 {
        let cells = creatures >> ROW_START[y] & ((1 << ROW_LEN[y]) - 1);
        let key = key(cells, stot_places, y as u32);
        for (&gravity, (entries, resting)) in gravities.iter().zip(&mut rested) {
            entries[y] = table(gravity, ROW_LEN[y])[key];
            *resting |= (entries[y] as u32 & 63) << ROW_START[y];
        }
        y += 1;
    }
    rested
}

/// The columns likewise, under each of `gravities` (0: down, 2: up); the
/// lines of one cell stay as they are.
#[inline(always)]
fn columns<const N: usize>(creatures: u32, stot: u32, gravities: [usize; N]) -> [RestedLines; N] {
    let stot_places = STOT_PLACES[1][stot as usize % CELL_COUNT] as u32;
    let mut rested = [([0u64; 8], creatures & VERTICAL_SINGLES); N];
    let mut x = 0;
    while x < 5 {
        let key = key(gather_column(creatures >> (x + 1)), stot_places, x);
        for (&gravity, (entries, resting)) in gravities.iter().zip(&mut rested) {
            entries[x as usize] = table(gravity, 5)[key];
            *resting |= ((entries[x as usize] >> SPREAD_SHIFT) as u32) << (x + 1);
        }
        x += 1;
    }
    rested
}

/// The resting shubbles and smoles under `gravity`, from the rested lines:
/// the smoles (whose identity the lines' cells lose) move by their fall.
#[inline(always)]
fn smoles_moved(gravity: usize, smoles: u32, (entries, resting): RestedLines) -> (u32, u32) {
    let smoles = move_smoles(gravity, smoles, &entries);
    (resting & !smoles, smoles)
}

/// [`smoles_moved`] under gravity down (0) or up (2). Down, a smole in
/// cell 28 falls out (`None`) and a shubble there leaves; cell 28 is a line
/// of its own, so that changes no other line.
#[inline(always)]
fn vertical_rest(
    gravity: usize,
    shubbles: u32,
    smoles: u32,
    columns: RestedLines,
) -> Option<(u32, u32)> {
    if gravity != 0 {
        return Some(smoles_moved(gravity, smoles, columns));
    }
    if smoles & OPENING_BIT != 0 {
        return None;
    }
    let (rested, smoles) = smoles_moved(gravity, smoles, columns);
    Some((rested & !(shubbles & OPENING_BIT), smoles))
}

/// [`PLACES`] as the smoles use it: each cell's line (5: a one-cell line)
/// and where its fall is in the line's table entry.
const FALL_PLACES: [[(u8, u8); CELL_COUNT]; 2] = {
    let mut table = [[(5u8, 0u8); CELL_COUNT]; 2];
    let mut axis = 0;
    while axis < 2 {
        let mut cell = 0;
        while cell < CELL_COUNT {
            let (line, i) = PLACES[axis][cell];
            table[axis][cell] = (line, 8 + 3 * i);
            cell += 1;
        }
        axis += 1;
    }
    table
};

/// For each cell, the stot's key bits for every line when the stot is
/// there: 3 bits per line (line `l` from bit `3 l`) holding 1 + the stot's
/// index in that line, or 0. Rows `[0]`, columns `[1]`.
const STOT_PLACES: [[u16; CELL_COUNT]; 2] = {
    let mut table = [[0u16; CELL_COUNT]; 2];
    let mut axis = 0;
    while axis < 2 {
        let mut cell = 0;
        while cell < CELL_COUNT {
            let (line, i) = PLACES[axis][cell];
            if line < 5 {
                table[axis][cell] = (i as u16 + 1) << (3 * line);
            }
            cell += 1;
        }
        axis += 1;
    }
    table
};

/// The key of line `line`: its creature cells (`creatures`, already cut
/// out of the box and shifted down to bit 0) and the stot's place in it.
#[inline(always)]
fn key(creatures: u32, stot_places: u32, line: u32) -> usize {
    (creatures | (stot_places >> (3 * line) & 7) << STOT_KEY_SHIFT) as usize & 511
}

/// Moves each smole by its fall, read from its line's table entry.
#[inline(always)]
fn move_smoles(gravity: usize, smoles: u32, entries: &[u64; 8]) -> u32 {
    let vertical = gravity.is_multiple_of(2);
    let mut rest = smoles;
    let mut moved = 0;
    while rest != 0 {
        let cell = rest.trailing_zeros() as usize;
        rest &= rest - 1;
        let (line, shift) = FALL_PLACES[vertical as usize][cell];
        // One-cell lines have entry 0: they never fall.
        let fall = entries[line as usize % 8] >> shift & 7;
        moved |= 1 << DESTINATIONS[gravity % 4][cell][fall as usize];
    }
    moved
}

/// The table for `gravity` and a line of `len` cells.
#[inline(always)]
fn table(gravity: usize, len: u32) -> &'static LineTable {
    match (gravity, len) {
        (2 | 3, _) => &TOWARD_LOW,
        (_, 5) => &TOWARD_HIGH_5,
        _ => &TOWARD_HIGH_6,
    }
}

/// The cells of a column (already shifted right by its `x`) as 5 bits in
/// row order.
#[inline(always)]
const fn gather_column(shifted: u32) -> u32 {
    (((shifted & COLUMN_MASK) as u64 * COLUMN_GATHER) >> COLUMN_GATHER_SHIFT) as u32 & 31
}

/// The inverse of [`gather_column`].
const SPREAD_COLUMN: [u32; 32] = {
    let mut table = [0u32; 32];
    let mut pattern = 0;
    while pattern < 32 {
        let mut i = 0;
        while i < 5 {
            if pattern >> i & 1 == 1 {
                table[pattern] |= 1 << COLUMN_OFFSET[i];
            }
            i += 1;
        }
        pattern += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn columns_gather_and_spread_back() {
        for pattern in 0..32u32 {
            assert_eq!(gather_column(SPREAD_COLUMN[pattern as usize]), pattern);
            for x in 1..=5 {
                assert_eq!(
                    gather_column(SPREAD_COLUMN[pattern as usize] << x >> x),
                    pattern
                );
            }
        }
        // Nothing of other columns leaks into a column's key.
        for x in 1..=5u32 {
            let others = ((1u32 << CELL_COUNT) - 1) & !(SPREAD_COLUMN[31] << x);
            assert_eq!(gather_column(others >> x), 0);
        }
    }
}
