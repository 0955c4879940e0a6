//! Text in pictures (captions, labels, numbers), drawn with DejaVu Sans
//! Mono Bold, embedded in the binary (licence:
//! `crates/reel/assets/fonts/LICENSE-DejaVu.txt`).
//!
//! Glyph coverage is rounded to quarters and blended with the pixel beneath,
//! so text in one ink over another is exactly one of the blends of
//! [`Palette::with_blends`](crate::palette::Palette::with_blends): text
//! never needs a colour the GIF's fixed palette does not have.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::sync::OnceLock;

use ab_glyph::{point, Font, FontRef, PxScale, ScaleFont};
use tiny_skia::{Pixmap, PremultipliedColorU8};

use crate::palette::blend;

static FONT_BYTES: &[u8] = include_bytes!("../assets/fonts/DejaVuSansMono-Bold.ttf");

/// Coverage is rounded to this many steps.
const COVERAGE_STEPS: u32 = 4;

fn font() -> &'static FontRef<'static> {
    static FONT: OnceLock<FontRef<'static>> = OnceLock::new();
    FONT.get_or_init(|| {
        // The bytes are compiled in and checked by the tests: they always
        // parse.
        FontRef::try_from_slice(FONT_BYTES).expect("the embedded font parses")
    })
}

/// Which colour text takes. For the result to stay in a palette, the
/// colours must be inks of a [`Palette::with_blends`] and the text drawn
/// over those inks.
///
/// [`Palette::with_blends`]: crate::palette::Palette::with_blends
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextInk {
    /// Always this colour.
    Fixed([u8; 3]),
    /// `dark` over light pixels and `light` over dark ones, decided pixel
    /// by pixel: a label stays readable over any colour, and over the edge
    /// of something sliding beneath it.
    Contrast {
        /// Taken over light pixels.
        dark: [u8; 3],
        /// Taken over dark pixels.
        light: [u8; 3],
    },
}

impl TextInk {
    fn over(self, beneath: [u8; 3]) -> [u8; 3] {
        match self {
            TextInk::Fixed(rgb) => rgb,
            TextInk::Contrast { dark, light } => {
                let [r, g, b] = beneath.map(u32::from);
                // Rec. 601 luma, in thousandths.
                if 299 * r + 587 * g + 114 * b > 128_000 {
                    dark
                } else {
                    light
                }
            }
        }
    }
}

/// Width in pixels of `text` at `size` pixels per em.
pub fn width(text: &str, size: f32) -> f32 {
    let font = font().as_scaled(PxScale::from(size));
    let mut total = 0.0;
    let mut previous = None;
    for c in text.chars() {
        let id = font.glyph_id(c);
        if let Some(previous) = previous {
            total += font.kern(previous, id);
        }
        total += font.h_advance(id);
        previous = Some(id);
    }
    total
}

/// Which point of a line of text a position names, across.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Anchor {
    /// The start of the text.
    Left,
    /// Its middle.
    Centre,
    /// Its end.
    Right,
}

/// Draws `text` upright, centred on `(x, y)` (the middle of its digits and
/// capitals), `size` pixels per em. Whatever falls outside the pixmap is
/// dropped.
pub fn draw_centred(pixmap: &mut Pixmap, text: &str, at: (f32, f32), size: f32, ink: TextInk) {
    draw(pixmap, text, at, Anchor::Centre, size, ink);
}

/// [`draw_centred`] with hard edges: a pixel is the ink where the glyph
/// covers at least half of it and untouched elsewhere. For text that moves
/// from picture to picture, where blended edges change everywhere each
/// time and cost an animation most of its bytes.
pub fn draw_centred_sharp(
    pixmap: &mut Pixmap,
    text: &str,
    at: (f32, f32),
    size: f32,
    ink: TextInk,
) {
    draw_with(pixmap, text, at, Anchor::Centre, size, ink, Edges::Sharp);
}

/// How a glyph's edge pixels are drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Edges {
    /// Blended by coverage.
    Smooth,
    /// All ink or none.
    Sharp,
}

/// Draws `text` upright, its `anchor` at `x` and the middle of its digits
/// and capitals at `y`, `size` pixels per em. Whatever falls outside the
/// pixmap is dropped.
pub fn draw(
    pixmap: &mut Pixmap,
    text: &str,
    at: (f32, f32),
    anchor: Anchor,
    size: f32,
    ink: TextInk,
) {
    draw_with(pixmap, text, at, anchor, size, ink, Edges::Smooth);
}

fn draw_with(
    pixmap: &mut Pixmap,
    text: &str,
    (x, y): (f32, f32),
    anchor: Anchor,
    size: f32,
    ink: TextInk,
    edges: Edges,
) {
    let font = font().as_scaled(PxScale::from(size));
    let baseline = y + (font.ascent() + font.descent()) / 2.0;
    let mut caret = match anchor {
        Anchor::Left => x,
        Anchor::Centre => x - width(text, size) / 2.0,
        Anchor::Right => x - width(text, size),
    };
    let mut previous = None;
    let (columns, rows) = (pixmap.width(), pixmap.height());
    let pixels = pixmap.pixels_mut();
    for c in text.chars() {
        let id = font.glyph_id(c);
        if let Some(previous) = previous {
            caret += font.kern(previous, id);
        }
        let glyph = id.with_scale_and_position(size, point(caret, baseline));
        caret += font.h_advance(id);
        previous = Some(id);
        let coverage = glyph_coverage(glyph, font.font);
        for &(px, py, steps) in coverage.iter() {
            if px < 0 || py < 0 || px >= i64::from(columns) || py >= i64::from(rows) {
                continue;
            }
            let at = py as usize * columns as usize + px as usize;
            let pixel = pixels[at];
            // Pictures are opaque, so premultiplied and straight agree.
            let beneath = [pixel.red(), pixel.green(), pixel.blue()];
            let steps = match edges {
                Edges::Smooth => steps,
                Edges::Sharp if 2 * steps >= COVERAGE_STEPS => COVERAGE_STEPS,
                Edges::Sharp => continue,
            };
            let [r, g, b] = blend(beneath, ink.over(beneath), steps, COVERAGE_STEPS);
            if let Some(colour) = PremultipliedColorU8::from_rgba(r, g, b, 255) {
                pixels[at] = colour;
            }
        }
    }
}

/// The pixels a glyph covers, where it is drawn, and how much of each (in
/// [`COVERAGE_STEPS`], never 0).
type Coverage = Rc<[(i64, i64, u32)]>;

/// The most glyphs a thread keeps drawn.
const CACHED_GLYPHS: usize = 4096;

/// `glyph`'s coverage, drawn once per thread for each exact size and place:
/// an animation draws the same labels in the same places frame after frame,
/// and outlining and rasterising them was most of the cost of its text. A
/// glyph at another place, even a whole pixel away, is drawn anew, so the
/// pixels are exactly those of drawing it every time.
fn glyph_coverage(glyph: ab_glyph::Glyph, font: &FontRef<'static>) -> Coverage {
    thread_local! {
        static DRAWN: RefCell<HashMap<(u16, u32, u32, u32), Coverage>> = RefCell::new(HashMap::new());
    }
    let key = (
        glyph.id.0,
        glyph.scale.x.to_bits(),
        glyph.position.x.to_bits(),
        glyph.position.y.to_bits(),
    );
    DRAWN.with(|drawn| {
        if let Some(coverage) = drawn.borrow().get(&key) {
            return Rc::clone(coverage);
        }
        let mut pixels = Vec::new();
        if let Some(outlined) = font.outline_glyph(glyph) {
            let bounds = outlined.px_bounds();
            outlined.draw(|gx, gy, coverage| {
                let steps = (coverage.clamp(0.0, 1.0) * COVERAGE_STEPS as f32).round() as u32;
                if steps > 0 {
                    pixels.push((
                        bounds.min.x as i64 + i64::from(gx),
                        bounds.min.y as i64 + i64::from(gy),
                        steps,
                    ));
                }
            });
        }
        let coverage: Coverage = pixels.into();
        let mut drawn = drawn.borrow_mut();
        if drawn.len() >= CACHED_GLYPHS {
            drawn.clear();
        }
        drawn.insert(key, Rc::clone(&coverage));
        coverage
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::palette::Palette;
    use tiny_skia::Color;

    const WHITE: [u8; 3] = [255, 255, 255];
    const BLUE: [u8; 3] = [30, 100, 220];
    const DARK: [u8; 3] = [38, 38, 46];

    #[test]
    fn the_font_has_every_character_captions_use() {
        let font = font();
        for c in
            "0123456789/|+-<>^v°·:. abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ".chars()
        {
            assert_ne!(font.glyph_id(c).0, 0, "{c:?}");
        }
    }

    #[test]
    fn text_is_drawn_in_palette_colours_only() {
        let mut pixmap = Pixmap::new(120, 40).unwrap();
        pixmap.fill(Color::from_rgba8(255, 255, 255, 255));
        let [r, g, b] = BLUE;
        let half = tiny_skia::Rect::from_xywh(60.0, 0.0, 60.0, 40.0).unwrap();
        let mut paint = tiny_skia::Paint::default();
        paint.set_color_rgba8(r, g, b, 255);
        pixmap.fill_rect(half, &paint, tiny_skia::Transform::identity(), None);
        let ink = TextInk::Contrast {
            dark: DARK,
            light: WHITE,
        };
        draw_centred(&mut pixmap, "12 34 5°", (60.0, 20.0), 24.0, ink);
        let palette = Palette::with_blends(&[WHITE, BLUE, DARK]).unwrap();
        let mut inked = 0;
        for pixel in pixmap.pixels() {
            let rgb = [pixel.red(), pixel.green(), pixel.blue()];
            assert!(palette.colours().contains(&rgb), "{rgb:?}");
            inked += usize::from(rgb != WHITE && rgb != BLUE);
        }
        assert!(inked > 100, "{inked} pixels of text");
        assert!(width("12", 24.0) > 20.0);
    }

    #[test]
    fn sharp_text_is_ink_or_untouched() {
        let blank = || {
            let mut pixmap = Pixmap::new(80, 40).unwrap();
            pixmap.fill(Color::from_rgba8(255, 255, 255, 255));
            pixmap
        };
        let (mut sharp, mut smooth) = (blank(), blank());
        // Half a pixel off the grid, as a number on a turning box is.
        let at = (40.5, 20.3);
        draw_centred_sharp(&mut sharp, "28", at, 20.0, TextInk::Fixed(DARK));
        draw_centred(&mut smooth, "28", at, 20.0, TextInk::Fixed(DARK));
        let colours = |pixmap: &Pixmap| {
            let mut seen: Vec<[u8; 3]> = pixmap
                .pixels()
                .iter()
                .map(|p| [p.red(), p.green(), p.blue()])
                .collect();
            seen.sort_unstable();
            seen.dedup();
            seen
        };
        assert_eq!(colours(&sharp), {
            let mut two = vec![WHITE, DARK];
            two.sort_unstable();
            two
        });
        assert!(colours(&smooth).len() > 2, "smooth text blends its edges");
        let inked = |pixmap: &Pixmap| pixmap.pixels().iter().filter(|p| p.red() != 255).count();
        // The same glyphs: about as many pixels inked.
        let (a, b) = (inked(&sharp), inked(&smooth));
        assert!(a * 10 > b * 7 && a < b, "{a} sharp, {b} smooth");
    }
}
