//! Palettes fixed in advance, and the mapping of drawn pixels to their
//! entries.
//!
//! A GIF holds at most 256 colours. Quantizing every picture would be slow
//! and would let colours drift between pictures, so a palette is decided
//! once: a game's inks, and for anti-aliased pictures and text also
//! [`BLEND_STEPS`]` - 1` blends between every two inks (an edge between two
//! inks is a blend of the two). Pixels are mapped by exact colour first and
//! otherwise by a lookup table of the nearest entry, computed once.

use std::collections::HashMap;
use std::fmt;
use std::sync::atomic::{AtomicU16, Ordering};

use tiny_skia::Pixmap;

/// Blends between two inks are in steps of one eighth.
pub const BLEND_STEPS: u32 = 8;

/// The most colours a GIF's colour table holds.
pub const MAX_COLOURS: usize = 256;

/// Bits per channel of the nearest-entry table: 32,768 entries, fast to
/// build, and finer than the steps between neighbouring blends.
const TABLE_BITS: u32 = 5;

/// `from` moved `part / whole` of the way to `to`, rounded. Written so that
/// `blend(a, b, p, w) == blend(b, a, w - p, w)` and so that `p / w` and
/// `2p / 2w` give the same colour: text blended in quarters lands exactly on
/// the eighths of a blended palette.
pub fn blend(from: [u8; 3], to: [u8; 3], part: u32, whole: u32) -> [u8; 3] {
    let mix = |a: u8, b: u8| {
        let sum = u32::from(a) * (whole - part) + u32::from(b) * part;
        // At most 255 * whole / whole: fits a byte.
        ((2 * sum + whole) / (2 * whole)) as u8
    };
    [
        mix(from[0], to[0]),
        mix(from[1], to[1]),
        mix(from[2], to[2]),
    ]
}

/// A fixed list of colours (the GIF's global colour table) and the way from
/// a drawn pixel to its index.
#[derive(Debug)]
pub struct Palette {
    colours: Vec<[u8; 3]>,
    exact: HashMap<u32, u8>,
    /// The nearest entry of each cell of a coarse grid of colours, worked
    /// out the first time a pixel falls in it ([`UNKNOWN`] until then):
    /// working out all 32,768 for a palette of a few hundred colours took
    /// longer than a short animation.
    nearest: Vec<AtomicU16>,
}

/// A grid cell whose nearest entry is not worked out yet.
const UNKNOWN: u16 = u16::MAX;

/// Colours that cannot be a GIF's colour table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PaletteError {
    /// No colour at all.
    Empty,
    /// More than [`MAX_COLOURS`].
    TooManyColours {
        /// How many were given.
        given: usize,
    },
}

impl fmt::Display for PaletteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PaletteError::Empty => write!(f, "a palette needs at least one colour"),
            PaletteError::TooManyColours { given } => write!(
                f,
                "a palette of {given} colours does not fit a GIF: at most {MAX_COLOURS}"
            ),
        }
    }
}

impl std::error::Error for PaletteError {}

impl Palette {
    /// `colours` as they are, in this order: a picture drawn with these
    /// colours only is mapped exactly. The first of two equal entries is
    /// the one pixels of that colour get.
    pub fn new(colours: Vec<[u8; 3]>) -> Result<Palette, PaletteError> {
        if colours.is_empty() {
            return Err(PaletteError::Empty);
        }
        if colours.len() > MAX_COLOURS {
            return Err(PaletteError::TooManyColours {
                given: colours.len(),
            });
        }
        let mut exact = HashMap::new();
        for (i, &rgb) in colours.iter().enumerate() {
            // At most 256 entries: every index fits a byte.
            exact.entry(word(rgb)).or_insert(i as u8);
        }
        let cells = 1usize << (3 * TABLE_BITS);
        Ok(Palette {
            colours,
            exact,
            nearest: (0..cells).map(|_| AtomicU16::new(UNKNOWN)).collect(),
        })
    }

    /// `inks`, then `BLEND_STEPS - 1` blends between every two of them
    /// (eight inks give 8 + 28 * 7 = 204 colours): for anti-aliased edges
    /// and for text, which [`crate::text`] blends in quarters.
    pub fn with_blends(inks: &[[u8; 3]]) -> Result<Palette, PaletteError> {
        let mut colours = inks.to_vec();
        for (i, &a) in inks.iter().enumerate() {
            for &b in &inks[i + 1..] {
                colours.extend((1..BLEND_STEPS).map(|part| blend(a, b, part, BLEND_STEPS)));
            }
        }
        Palette::new(colours)
    }

    /// `inks`, then `BLEND_STEPS - 1` blends between each pair of `pairs`
    /// (indices into `inks`): for a game with more inks than the 256
    /// colours of every pairing allow, whose text and anti-aliased edges
    /// only ever lie over a few of the others.
    pub fn with_blends_between(
        inks: &[[u8; 3]],
        pairs: &[(usize, usize)],
    ) -> Result<Palette, PaletteError> {
        let mut colours = inks.to_vec();
        for &(a, b) in pairs {
            let (Some(&a), Some(&b)) = (inks.get(a), inks.get(b)) else {
                continue;
            };
            colours.extend((1..BLEND_STEPS).map(|part| blend(a, b, part, BLEND_STEPS)));
        }
        Palette::new(colours)
    }

    /// The same colours with `first` moved to the front, in that order
    /// (a colour of `first` not in the palette is added there, and one the
    /// palette holds twice is left once: pixels only ever get the first of
    /// equal entries). A GIF
    /// frame's codes are as wide as its largest index needs, so a frame
    /// that uses only the palette's first 4, 8 or 16 entries compresses
    /// smaller: a game lists first the colours most of its frames use, as
    /// gifsicle orders a GIF's colours by how many frames use each.
    pub fn with_first(&self, first: &[[u8; 3]]) -> Result<Palette, PaletteError> {
        let mut colours = first.to_vec();
        colours.extend(self.colours.iter().filter(|colour| !first.contains(colour)));
        Palette::new(colours)
    }

    /// How many colours the palette has (1 to [`MAX_COLOURS`]).
    pub fn len(&self) -> usize {
        self.colours.len()
    }

    /// Never true: a palette has at least one colour.
    pub fn is_empty(&self) -> bool {
        self.colours.is_empty()
    }

    /// The colours, in index order.
    pub fn colours(&self) -> &[[u8; 3]] {
        &self.colours
    }

    /// The colour table as the GIF encoder takes it: red, green, blue, ...
    pub fn rgb_bytes(&self) -> Vec<u8> {
        self.colours.iter().flatten().copied().collect()
    }

    /// The index of one opaque pixel: its own entry when it has one,
    /// otherwise the nearest.
    pub fn index_of(&self, rgb: [u8; 3]) -> u8 {
        match self.exact.get(&word(rgb)) {
            Some(&index) => index,
            None => {
                let shift = 8 - TABLE_BITS;
                let [r, g, b] = rgb.map(|c| usize::from(c >> shift));
                let cell = &self.nearest[(r << (2 * TABLE_BITS)) | (g << TABLE_BITS) | b];
                match cell.load(Ordering::Relaxed) {
                    UNKNOWN => {
                        // The grid cell's centre, as the whole table used
                        // to be computed: the same entry whichever thread
                        // asks first.
                        let levels = 1u32 << TABLE_BITS;
                        let centre =
                            |level: usize| ((level as u32 * 255 + 127) / (levels - 1)) as i32;
                        let index = closest(&self.colours, [centre(r), centre(g), centre(b)]);
                        cell.store(u16::from(index), Ordering::Relaxed);
                        index
                    }
                    known => known as u8,
                }
            }
        }
    }

    /// The index of every pixel of `pixmap`, row by row.
    pub fn indices(&self, pixmap: &Pixmap) -> Vec<u8> {
        let mut indices = Vec::new();
        self.indices_into(pixmap, &mut indices);
        indices
    }

    /// [`Palette::indices`] into a buffer that is reused between pictures.
    pub fn indices_into(&self, pixmap: &Pixmap, indices: &mut Vec<u8>) {
        let data = pixmap.data();
        // Filling a sized buffer (rather than pushing) keeps the loop free
        // of capacity checks: this runs for every pixel of a picture.
        indices.clear();
        indices.resize(data.len() / 4, 0);
        let mut lookup = Lookup::new(self);
        for (index, pixel) in indices.iter_mut().zip(data.as_chunks::<4>().0) {
            *index = lookup.index(*pixel);
        }
    }
}

/// [`Palette::index_of`] for pixels as [`Pixmap::data`] stores them
/// (opaque RGBA). Runs of one colour are the rule, so the last pixel is
/// tried first; then a small table of the colours seen, since a picture
/// alternates between a few (a cell's white, the grid, a creature) far
/// more often than a hash lookup is cheap.
pub(crate) struct Lookup<'a> {
    palette: &'a Palette,
    last: Option<([u8; 4], u8)>,
    /// `SEEN_MARK | pixel << 8 | index` at the slot of `pixel`'s hash;
    /// without the mark, empty.
    seen: [u64; SEEN_SLOTS],
}

const SEEN_SLOTS: usize = 64;
const SEEN_MARK: u64 = 1 << 40;

impl<'a> Lookup<'a> {
    pub(crate) fn new(palette: &'a Palette) -> Lookup<'a> {
        Lookup {
            palette,
            last: None,
            seen: [0; SEEN_SLOTS],
        }
    }

    #[inline]
    pub(crate) fn index(&mut self, pixel: [u8; 4]) -> u8 {
        match self.last {
            Some((seen, index)) if seen == pixel => index,
            _ => {
                let index = self.index_seen(pixel);
                self.last = Some((pixel, index));
                index
            }
        }
    }

    fn index_seen(&mut self, pixel: [u8; 4]) -> u8 {
        let key = u32::from_le_bytes(pixel);
        let slot = (key.wrapping_mul(0x9E37_79B1) >> 26) as usize % SEEN_SLOTS;
        let entry = self.seen[slot];
        if entry & SEEN_MARK != 0 && (entry >> 8) as u32 == key {
            return entry as u8;
        }
        let index = self.palette.index_of([pixel[0], pixel[1], pixel[2]]);
        self.seen[slot] = SEEN_MARK | u64::from(key) << 8 | u64::from(index);
        index
    }
}

fn word([r, g, b]: [u8; 3]) -> u32 {
    u32::from_le_bytes([r, g, b, 0])
}

fn closest(colours: &[[u8; 3]], rgb: [i32; 3]) -> u8 {
    let distance =
        |entry: &[u8; 3]| -> i32 { (0..3).map(|i| (i32::from(entry[i]) - rgb[i]).pow(2)).sum() };
    colours
        .iter()
        .enumerate()
        .min_by_key(|(_, entry)| distance(entry))
        .map_or(0, |(i, _)| i as u8)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn with_first_moves_colours_to_the_front_and_keeps_the_rest_in_order() {
        let palette = Palette::new(vec![[0; 3], [1; 3], [2; 3], [3; 3]]).unwrap();
        let reordered = palette.with_first(&[[2; 3], [9; 3]]).unwrap();
        assert_eq!(
            reordered.colours(),
            &[[2; 3], [9; 3], [0; 3], [1; 3], [3; 3]]
        );
        assert_eq!(reordered.index_of([2; 3]), 0);
        assert_eq!(reordered.index_of([3; 3]), 4);
        // A colour held twice is left once when moved.
        let twice = Palette::new(vec![[0; 3], [1; 3], [1; 3]]).unwrap();
        assert_eq!(
            twice.with_first(&[[1; 3]]).unwrap().colours(),
            &[[1; 3], [0; 3]]
        );
        let full = Palette::new((0..=255).map(|i| [i; 3]).collect()).unwrap();
        assert_eq!(
            full.with_first(&[[7, 7, 8]]).unwrap_err(),
            PaletteError::TooManyColours { given: 257 }
        );
    }

    const WHITE: [u8; 3] = [255, 255, 255];
    const BLUE: [u8; 3] = [30, 100, 220];
    const ORANGE: [u8; 3] = [255, 140, 0];
    const INKS: [[u8; 3]; 4] = [[236, 239, 243], WHITE, BLUE, ORANGE];

    #[test]
    fn blends_are_symmetric_and_halves_equal_quarters() {
        let (a, b) = (BLUE, WHITE);
        for part in 0..=8 {
            assert_eq!(blend(a, b, part, 8), blend(b, a, 8 - part, 8));
        }
        for part in 0..=4 {
            assert_eq!(blend(a, b, part, 4), blend(a, b, 2 * part, 8));
        }
        assert_eq!(blend(a, b, 0, 8), a);
        assert_eq!(blend(a, b, 8, 8), b);
    }

    #[test]
    fn every_entry_maps_to_itself_or_an_equal_colour() {
        let inks = Palette::new(INKS.to_vec()).unwrap();
        let blended = Palette::with_blends(&INKS).unwrap();
        for palette in [&inks, &blended] {
            for (i, &rgb) in palette.colours().iter().enumerate() {
                let index = palette.index_of(rgb);
                assert_eq!(palette.colours()[usize::from(index)], rgb, "entry {i}");
            }
        }
        assert_eq!(blended.len(), 4 + 6 * 7);
        assert_eq!(&blended.colours()[..4], &INKS);
        assert_eq!(blended.rgb_bytes().len(), 3 * blended.len());
    }

    #[test]
    fn other_colours_go_to_a_near_entry() {
        let palette = Palette::new(INKS.to_vec()).unwrap();
        assert_eq!(palette.index_of([250, 150, 10]), 3);
        assert_eq!(palette.index_of([28, 98, 225]), 2);
        // Halfway between white and blue is a blend.
        let blended = Palette::with_blends(&INKS).unwrap();
        let half = blend(WHITE, BLUE, 1, 2);
        let near = [half[0] + 3, half[1] - 2, half[2]];
        let got = blended.colours()[usize::from(blended.index_of(near))];
        assert!(
            (0..3).all(|i| (i32::from(got[i]) - i32::from(near[i])).abs() <= 16),
            "{near:?} -> {got:?}"
        );
    }

    #[test]
    fn indices_follow_the_palette_and_off_palette_pixels_snap_to_the_nearest() {
        let palette = Palette::new(INKS.to_vec()).unwrap();
        let mut pixmap = Pixmap::new(3, 1).unwrap();
        pixmap.fill(tiny_skia::Color::from_rgba8(255, 255, 255, 255));
        pixmap.pixels_mut()[1] = tiny_skia::ColorU8::from_rgba(250, 150, 10, 255).premultiply();
        pixmap.pixels_mut()[2] = tiny_skia::ColorU8::from_rgba(30, 100, 220, 255).premultiply();
        assert_eq!(palette.indices(&pixmap), [1, 3, 2]);
    }

    #[test]
    fn a_palette_holds_one_to_256_colours() {
        assert_eq!(Palette::new(Vec::new()).unwrap_err(), PaletteError::Empty);
        assert_eq!(
            Palette::new(vec![WHITE; 257]).unwrap_err().to_string(),
            "a palette of 257 colours does not fit a GIF: at most 256"
        );
        assert_eq!(Palette::new(vec![WHITE; 256]).unwrap().len(), 256);
        let some = Palette::with_blends_between(&INKS, &[(1, 2), (0, 3)]).unwrap();
        assert_eq!(some.len(), 4 + 2 * 7);
        assert!(some.colours().contains(&blend(WHITE, BLUE, 4, 8)));
        assert!(!some.colours().contains(&blend(WHITE, ORANGE, 4, 8)));
        // Equal entries: the first is the one pixels get.
        assert_eq!(
            Palette::new(vec![BLUE, WHITE, BLUE])
                .unwrap()
                .index_of(BLUE),
            0
        );
    }
}
