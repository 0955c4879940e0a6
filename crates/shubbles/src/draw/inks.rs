//! The box's colours: the eight inks of every picture, and the palettes
//! GIFs are written with (the inks alone, or with the blends that
//! anti-aliased edges and text need).

use std::sync::OnceLock;

use reel::text::TextInk;
use reel::{blend, Palette, BLEND_STEPS};
use tiny_skia::Color;

use crate::model::creature::Creature;

/// The colours pictures are drawn with; the position in [`PALETTE`] is the
/// GIF palette index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Ink {
    /// An empty cell: white.
    Cell,
    /// A shubble: a deep blue.
    Shubble,
    /// A smole: a light red, with a white ring (drawn by the renderer).
    Smole,
    /// The lines between cells: grey.
    Grid,
    /// The stot: black.
    Stot,
    /// Around the box: a pale grey-blue, so white cells stand out.
    Background,
    /// The box's wall, and dark text: near black.
    Wall,
    /// Marks what made a run fail.
    Warning,
}

/// Red, green, blue of each [`Ink`], in palette order. Eight entries keep
/// GIF codes at three bits. They are in the order gifsicle ranks them (by
/// the frames using each): a frame of falling creatures uses the first
/// three, and the fourth, the grid, is then its transparent index, so the
/// grid lines it leaves as they are cost nothing and its codes are of two
/// bits.
pub const PALETTE: [[u8; 3]; 8] = [
    [255, 255, 255], // cell
    [0, 50, 140],    // shubble: deep blue, 3.3:1 in luminance against the smole
    [230, 90, 90],   // smole: light red, 3.5:1 against a white cell
    [178, 178, 178], // grid
    [0, 0, 0],       // stot
    [236, 239, 243], // background: a pale grey-blue, so white cells stand out
    [38, 38, 46],    // wall
    [255, 140, 0],   // warning
];

impl Ink {
    /// Every ink, in palette order (for the tests that check the palette).
    #[cfg(test)]
    pub const ALL: [Ink; 8] = [
        Ink::Cell,
        Ink::Shubble,
        Ink::Smole,
        Ink::Grid,
        Ink::Stot,
        Ink::Background,
        Ink::Wall,
        Ink::Warning,
    ];

    /// Position in [`PALETTE`].
    #[cfg(test)]
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// Red, green and blue.
    pub const fn rgb(self) -> [u8; 3] {
        PALETTE[self as usize]
    }

    /// The ink at `opacity` (0 to 1), for tiny-skia.
    pub(super) fn color(self, opacity: f32) -> Color {
        let [r, g, b] = self.rgb();
        let mut color = Color::from_rgba8(r, g, b, 255);
        color.set_alpha(opacity);
        color
    }

    /// The ink a creature is drawn in.
    pub(super) fn of(creature: Creature) -> Ink {
        match creature {
            Creature::Shubble => Ink::Shubble,
            Creature::Smole => Ink::Smole,
        }
    }
}

/// The eight inks: pictures drawn without anti-aliasing or text use no
/// other colour.
pub(crate) fn ink_palette() -> &'static Palette {
    static INKS: OnceLock<Palette> = OnceLock::new();
    INKS.get_or_init(|| Palette::new(PALETTE.to_vec()).expect("eight inks fit a GIF palette"))
}

/// The colours smooth pictures without text use, most used first: an ink,
/// or `part` eighths of the way from one ink to another (0 is the first ink
/// itself): the blends of turning edges. In the order gifsicle ranks them
/// (by the frames using each) in a 100-operation smooth run.
const PLAIN_MOST_USED: [(Ink, Ink, u32); 16] = [
    (Ink::Cell, Ink::Cell, 0),
    (Ink::Shubble, Ink::Shubble, 0),
    (Ink::Smole, Ink::Smole, 0),
    (Ink::Grid, Ink::Grid, 0),
    (Ink::Stot, Ink::Stot, 0),
    (Ink::Background, Ink::Background, 0),
    (Ink::Wall, Ink::Wall, 0),
    (Ink::Cell, Ink::Stot, 2),
    (Ink::Stot, Ink::Background, 2),
    (Ink::Cell, Ink::Stot, 6),
    (Ink::Grid, Ink::Background, 3),
    (Ink::Shubble, Ink::Background, 4),
    (Ink::Cell, Ink::Shubble, 4),
    (Ink::Cell, Ink::Shubble, 6),
    (Ink::Shubble, Ink::Background, 6),
    (Ink::Shubble, Ink::Grid, 4),
];

/// [`PLAIN_MOST_USED`] for pictures with captions and cell numbers, whose
/// letters blend dark ink into the cells and creatures under them: ranked
/// in the same run with `--caption --numbers`, then in the demo's figure
/// with them, smooth and not.
const TEXT_MOST_USED: [(Ink, Ink, u32); 32] = [
    (Ink::Cell, Ink::Cell, 0),
    (Ink::Shubble, Ink::Shubble, 0),
    (Ink::Grid, Ink::Grid, 0),
    (Ink::Stot, Ink::Stot, 0),
    (Ink::Background, Ink::Background, 0),
    (Ink::Smole, Ink::Smole, 0),
    (Ink::Wall, Ink::Wall, 0),
    (Ink::Cell, Ink::Wall, 2),
    (Ink::Cell, Ink::Wall, 4),
    (Ink::Cell, Ink::Wall, 6),
    (Ink::Smole, Ink::Wall, 6),
    (Ink::Smole, Ink::Wall, 4),
    (Ink::Smole, Ink::Wall, 2),
    (Ink::Cell, Ink::Shubble, 6),
    (Ink::Cell, Ink::Shubble, 4),
    (Ink::Cell, Ink::Shubble, 2),
    (Ink::Cell, Ink::Stot, 2),
    (Ink::Cell, Ink::Stot, 6),
    (Ink::Cell, Ink::Stot, 4),
    (Ink::Background, Ink::Wall, 2),
    (Ink::Background, Ink::Wall, 4),
    (Ink::Background, Ink::Wall, 6),
    (Ink::Stot, Ink::Background, 2),
    (Ink::Cell, Ink::Stot, 3),
    (Ink::Stot, Ink::Background, 4),
    (Ink::Grid, Ink::Wall, 6),
    (Ink::Grid, Ink::Background, 3),
    (Ink::Shubble, Ink::Background, 4),
    (Ink::Shubble, Ink::Background, 6),
    (Ink::Shubble, Ink::Grid, 4),
    (Ink::Shubble, Ink::Grid, 5),
    (Ink::Grid, Ink::Wall, 4),
];

/// The eight inks and seven blends between every two of them: 8 + 28 * 7
/// = 204 colours, for anti-aliased edges and `text`. The colours such
/// pictures use most come first, so most of their frames need at most 16
/// or 32 entries (codes of 5 or 6 bits) rather than 256: a GIF frame's
/// codes are as wide as its largest index needs.
pub(crate) fn blended_palette(text: bool) -> &'static Palette {
    static PLAIN: OnceLock<Palette> = OnceLock::new();
    static TEXT: OnceLock<Palette> = OnceLock::new();
    let (palette, most_used): (_, &[(Ink, Ink, u32)]) = if text {
        (&TEXT, &TEXT_MOST_USED)
    } else {
        (&PLAIN, &PLAIN_MOST_USED)
    };
    palette.get_or_init(|| {
        let first: Vec<[u8; 3]> = most_used
            .iter()
            .map(|&(from, to, part)| blend(from.rgb(), to.rgb(), part, BLEND_STEPS))
            .collect();
        Palette::with_blends(&PALETTE)
            .and_then(|palette| palette.with_first(&first))
            .expect("eight inks and their blends fit a GIF palette")
    })
}

/// Cell numbers: dark over light pixels and white over dark ones, decided
/// pixel by pixel, so a number stays readable over an empty cell, a
/// creature, the stot, or a creature sliding halfway over its cell.
pub(super) const NUMBER_INK: TextInk = TextInk::Contrast {
    dark: Ink::Wall.rgb(),
    light: Ink::Cell.rgb(),
};

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shubbles_and_smoles_differ_by_three_to_one_in_greyscale() {
        // At least 3:1 between them, and each against an empty cell.
        use testing::contrast::contrast;
        let (shubble, smole, cell) = (Ink::Shubble.rgb(), Ink::Smole.rgb(), Ink::Cell.rgb());
        assert!(
            contrast(shubble, smole) >= 3.0,
            "{}",
            contrast(shubble, smole)
        );
        assert!(contrast(smole, cell) >= 3.0);
        assert!(contrast(shubble, cell) >= 3.0);
    }

    #[test]
    fn the_palettes_hold_every_ink_exactly() {
        assert_eq!(ink_palette().colours(), &PALETTE);
        let mut all = Palette::with_blends(&PALETTE).unwrap().colours().to_vec();
        all.sort();
        for text in [false, true] {
            // The same colours, only in another order.
            let mut colours = blended_palette(text).colours().to_vec();
            colours.sort();
            assert_eq!(colours, all);
            for ink in Ink::ALL {
                let index = blended_palette(text).index_of(ink.rgb());
                assert_eq!(
                    blended_palette(text).colours()[usize::from(index)],
                    ink.rgb()
                );
            }
        }
        for ink in Ink::ALL {
            assert_eq!(ink_palette().index_of(ink.rgb()), ink.index());
        }
    }
}
