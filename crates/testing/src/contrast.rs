//! How far apart two colours are once the colour is gone: WCAG's relative
//! luminance and contrast ratio, for the tests that check a picture reads
//! in greyscale (printed, or by a reader who cannot tell hues apart).

/// Relative luminance of an sRGB colour, 0 (black) to 1 (white).
pub fn luminance(rgb: [u8; 3]) -> f64 {
    let linear = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    0.2126 * linear(rgb[0]) + 0.7152 * linear(rgb[1]) + 0.0722 * linear(rgb[2])
}

/// The contrast ratio of two colours, 1 (the same lightness) to 21
/// (black on white).
pub fn contrast(a: [u8; 3], b: [u8; 3]) -> f64 {
    let (a, b) = (luminance(a), luminance(b));
    (a.max(b) + 0.05) / (a.min(b) + 0.05)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn black_on_white_is_twenty_one_to_one_and_a_colour_on_itself_one() {
        assert!((contrast([0, 0, 0], [255, 255, 255]) - 21.0).abs() < 1e-9);
        assert!((contrast([230, 90, 90], [230, 90, 90]) - 1.0).abs() < 1e-12);
    }
}
