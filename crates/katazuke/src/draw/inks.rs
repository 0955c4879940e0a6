//! The replay's colours (§13.2): an orange and a sky blue for the two
//! teams, told apart in colour-blind vision, and in greyscale by their
//! lightness (the territory fills differ by 3:1 in luminance) and by the
//! team letter on every territory cell. The palette is the inks and
//! the blends that text and anti-aliased shapes make over the inks they
//! lie on.

use std::sync::OnceLock;

use reel::{blend, Palette, BLEND_STEPS};
use tiny_skia::Color;

use crate::model::team::Team;

/// The colours pictures are drawn with; the position in [`INKS`] is the
/// GIF palette index.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[repr(u8)]
pub enum Ink {
    /// Around the board and the panels.
    Background,
    /// A neutral cell.
    Cell,
    /// Text, grid lines and the board's edge.
    Dark,
    /// Empty bars and pips, faint marks.
    Faint,
    /// Team A's territory: a deep orange, so that the teams' fills differ
    /// by 3:1 in luminance (told apart in greyscale, in print, and by a
    /// reader who cannot tell the hues apart).
    ALight,
    /// Team A's ring, dot and letters: a dark brown.
    ADark,
    /// Team B's territory: a light sky blue.
    BLight,
    /// Team B's ring, dot and letters: Okabe–Ito blue.
    BDark,
    /// The outline of the cells a turn changed.
    Changed,
    /// A cancelled cell's cross, `OUT`, illegal turns.
    Alarm,
    /// The deciding row of the summary.
    Highlight,
}

/// Red, green and blue of each [`Ink`], in palette order.
pub const INKS: [[u8; 3]; 11] = [
    [244, 244, 240], // background
    [255, 255, 255], // cell
    [34, 34, 38],    // dark
    [196, 196, 196], // faint
    [190, 100, 0],   // A light: a deep orange, 3.1:1 in luminance against B's fill
    [80, 35, 0],     // A dark: a brown that stands out on A's fill
    [190, 226, 247], // B light: a lighter sky blue (grey 218)
    [0, 95, 160],    // B dark: Okabe-Ito blue, a little darker
    [240, 200, 0],   // changed: a deep yellow, visible on white
    [205, 30, 30],   // alarm: red
    [255, 243, 170], // highlight: pale yellow
];

impl Ink {
    /// Position in [`INKS`].
    pub const fn index(self) -> u8 {
        self as u8
    }

    /// Red, green and blue.
    pub const fn rgb(self) -> [u8; 3] {
        INKS[self as usize]
    }

    pub(super) fn color(self) -> Color {
        let [r, g, b] = self.rgb();
        Color::from_rgba8(r, g, b, 255)
    }

    /// A team's territory fill.
    pub const fn light(team: Team) -> Ink {
        match team {
            Team::A => Ink::ALight,
            Team::B => Ink::BLight,
        }
    }

    /// A team's marks: ring, dot, letters, bars.
    pub const fn dark(team: Team) -> Ink {
        match team {
            Team::A => Ink::ADark,
            Team::B => Ink::BDark,
        }
    }
}

/// The pairs whose blends the palette holds: text and round shapes, each
/// over the inks it is drawn on.
const BLENDED: [(Ink, Ink); 22] = [
    (Ink::Dark, Ink::Cell),
    (Ink::Dark, Ink::Background),
    (Ink::Dark, Ink::ALight),
    (Ink::Dark, Ink::BLight),
    (Ink::Dark, Ink::Highlight),
    (Ink::Dark, Ink::Changed),
    (Ink::ADark, Ink::ALight),
    (Ink::BDark, Ink::BLight),
    (Ink::ADark, Ink::Background),
    (Ink::BDark, Ink::Background),
    (Ink::ADark, Ink::Cell),
    (Ink::BDark, Ink::Cell),
    (Ink::Alarm, Ink::Cell),
    (Ink::Alarm, Ink::Background),
    (Ink::Alarm, Ink::ALight),
    (Ink::Alarm, Ink::BLight),
    (Ink::Cell, Ink::ADark),
    (Ink::Cell, Ink::BDark),
    (Ink::Cell, Ink::Alarm),
    (Ink::Faint, Ink::Cell),
    (Ink::Faint, Ink::Background),
    (Ink::Dark, Ink::Faint),
];

/// The colours replays use, most used first: an ink, or `part` eighths of
/// the way from one ink to another (0 is the first ink itself), in the
/// order gifsicle ranks them (by the frames using each) in the replays of
/// a 201-turn 7×7 match and of `examples/katazuke/practice.ktz`. A GIF
/// frame's codes are as wide as its largest index needs, so most frames
/// then take codes of 6 bits rather than 8.
const MOST_USED: [(Ink, Ink, u32); 71] = [
    (Ink::Background, Ink::Background, 0),
    (Ink::Dark, Ink::Dark, 0),
    (Ink::Dark, Ink::Background, 2),
    (Ink::Dark, Ink::Background, 4),
    (Ink::Dark, Ink::Background, 6),
    (Ink::Cell, Ink::Cell, 0),
    (Ink::Faint, Ink::Faint, 0),
    (Ink::Dark, Ink::Cell, 2),
    (Ink::Dark, Ink::Cell, 4),
    (Ink::Dark, Ink::Cell, 6),
    (Ink::BDark, Ink::BDark, 0),
    (Ink::BDark, Ink::BLight, 1),
    (Ink::BDark, Ink::BLight, 3),
    (Ink::BDark, Ink::Cell, 1),
    (Ink::BDark, Ink::Background, 4),
    (Ink::BDark, Ink::Background, 6),
    (Ink::BDark, Ink::Cell, 4),
    (Ink::BDark, Ink::Background, 1),
    (Ink::BDark, Ink::Background, 7),
    (Ink::BLight, Ink::BLight, 0),
    (Ink::ADark, Ink::ADark, 0),
    (Ink::ADark, Ink::Background, 1),
    (Ink::ADark, Ink::Background, 4),
    (Ink::ADark, Ink::Background, 6),
    (Ink::Dark, Ink::ALight, 3),
    (Ink::ADark, Ink::Background, 3),
    (Ink::ADark, Ink::Cell, 4),
    (Ink::Faint, Ink::Background, 2),
    (Ink::Faint, Ink::Background, 5),
    (Ink::Changed, Ink::Changed, 0),
    (Ink::BDark, Ink::BLight, 2),
    (Ink::BDark, Ink::BLight, 4),
    (Ink::BDark, Ink::BLight, 5),
    (Ink::BDark, Ink::BLight, 6),
    (Ink::BDark, Ink::BLight, 7),
    (Ink::ALight, Ink::ALight, 0),
    (Ink::ADark, Ink::ALight, 2),
    (Ink::ADark, Ink::ALight, 4),
    (Ink::ADark, Ink::ALight, 5),
    (Ink::ADark, Ink::ALight, 6),
    (Ink::ADark, Ink::ALight, 1),
    (Ink::ADark, Ink::ALight, 3),
    (Ink::ADark, Ink::ALight, 7),
    (Ink::Dark, Ink::Highlight, 4),
    (Ink::Dark, Ink::BLight, 1),
    (Ink::Dark, Ink::ALight, 1),
    (Ink::Dark, Ink::Changed, 6),
    (Ink::Alarm, Ink::Alarm, 0),
    (Ink::Alarm, Ink::Cell, 4),
    (Ink::Dark, Ink::Changed, 7),
    (Ink::Alarm, Ink::Cell, 3),
    (Ink::Alarm, Ink::Cell, 5),
    (Ink::Alarm, Ink::Background, 1),
    (Ink::Alarm, Ink::Background, 3),
    (Ink::Alarm, Ink::Background, 7),
    (Ink::Alarm, Ink::ALight, 1),
    (Ink::Alarm, Ink::ALight, 5),
    (Ink::Alarm, Ink::Cell, 2),
    (Ink::Alarm, Ink::Cell, 6),
    (Ink::Alarm, Ink::Background, 2),
    (Ink::Alarm, Ink::Background, 4),
    (Ink::Alarm, Ink::Background, 6),
    (Ink::Highlight, Ink::Highlight, 0),
    (Ink::Dark, Ink::Highlight, 2),
    (Ink::Dark, Ink::Highlight, 6),
    (Ink::ADark, Ink::Background, 2),
    (Ink::BDark, Ink::Background, 2),
    (Ink::ADark, Ink::Cell, 2),
    (Ink::ADark, Ink::Cell, 6),
    (Ink::BDark, Ink::Cell, 2),
    (Ink::BDark, Ink::Cell, 6),
];

/// The replay's palette: 11 inks and the blends of 22 pairs, at most 165
/// colours (a blend two pairs share is kept once when listed as most
/// used), the most used first.
pub fn palette() -> &'static Palette {
    static PALETTE: OnceLock<Palette> = OnceLock::new();
    PALETTE.get_or_init(|| {
        let pairs: Vec<(usize, usize)> = BLENDED
            .iter()
            .map(|(a, b)| (usize::from(a.index()), usize::from(b.index())))
            .collect();
        let first: Vec<[u8; 3]> = MOST_USED
            .iter()
            .map(|&(from, to, part)| blend(from.rgb(), to.rgb(), part, BLEND_STEPS))
            .collect();
        Palette::with_blends_between(&INKS, &pairs)
            .and_then(|palette| palette.with_first(&first))
            .expect("165 colours fit a GIF palette")
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Rec. 601 luma, 0 to 255.
    fn grey([r, g, b]: [u8; 3]) -> f64 {
        0.299 * f64::from(r) + 0.587 * f64::from(g) + 0.114 * f64::from(b)
    }

    #[test]
    fn the_teams_differ_in_greyscale_and_marks_stand_out_on_their_fill() {
        let ratio = testing::contrast::contrast(Ink::ALight.rgb(), Ink::BLight.rgb());
        assert!(ratio >= 3.0, "{ratio}");
        for team in Team::BOTH {
            let fill = grey(Ink::light(team).rgb());
            let mark = grey(Ink::dark(team).rgb());
            assert!(fill - mark > 60.0, "{team}: {fill} {mark}");
        }
        // The same colours as the inks and their blends (each once: blends
        // of two pairs can be equal), only in another order.
        let unordered = {
            let pairs: Vec<(usize, usize)> = BLENDED
                .iter()
                .map(|(a, b)| (usize::from(a.index()), usize::from(b.index())))
                .collect();
            Palette::with_blends_between(&INKS, &pairs).expect("fits")
        };
        assert_eq!(unordered.len(), 11 + 22 * 7);
        let mut sorted = palette().colours().to_vec();
        let mut expected = unordered.colours().to_vec();
        sorted.sort();
        sorted.dedup();
        expected.sort();
        expected.dedup();
        assert_eq!(sorted, expected);
        assert!(palette().len() <= 11 + 22 * 7);
        for ink in INKS {
            let index = palette().index_of(ink);
            assert_eq!(palette().colours()[usize::from(index)], ink);
        }
    }
}
