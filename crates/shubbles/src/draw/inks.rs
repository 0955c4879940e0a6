//! The box's colours: the eight inks of every picture, and the palettes
//! GIFs are written with (the inks alone, or with the blends that
//! anti-aliased edges and text need).

use std::sync::OnceLock;

use reel::text::TextInk;
use reel::Palette;
use tiny_skia::Color;

use crate::model::creature::Creature;

/// The colours pictures are drawn with; the position in [`PALETTE`] is the
/// GIF palette index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Ink {
    /// Around the box: a pale grey-blue, so white cells stand out.
    Background,
    /// An empty cell: white.
    Cell,
    /// The lines between cells: grey.
    Grid,
    /// The box's wall, and dark text: near black.
    Wall,
    /// A shubble: a deep blue.
    Shubble,
    /// A smole: a light red, with a white ring (drawn by the renderer).
    Smole,
    /// The stot: black.
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
    [0, 50, 140],    // shubble: deep blue, 3.3:1 in luminance against the smole
    [230, 90, 90],   // smole: light red, 3.5:1 against a white cell
    [0, 0, 0],       // stot
    [255, 140, 0],   // warning
];

impl Ink {
    /// Every ink, in palette order (for the tests that check the palette).
    #[cfg(test)]
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

/// The eight inks, then seven blends between every two of them: 8 + 28 * 7
/// = 204 colours, for anti-aliased edges and text.
pub(crate) fn blended_palette() -> &'static Palette {
    static BLENDED: OnceLock<Palette> = OnceLock::new();
    BLENDED.get_or_init(|| {
        Palette::with_blends(&PALETTE).expect("eight inks and their blends fit a GIF palette")
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
    fn the_palettes_start_with_the_inks_in_order() {
        assert_eq!(ink_palette().colours(), &PALETTE);
        assert_eq!(blended_palette().len(), 8 + 28 * 7);
        assert_eq!(&blended_palette().colours()[..8], &PALETTE);
        for ink in Ink::ALL {
            assert_eq!(ink_palette().index_of(ink.rgb()), ink.index());
            assert_eq!(blended_palette().index_of(ink.rgb()), ink.index());
        }
    }
}
