//! Single pictures as PNG.

use std::io::Write;

use tiny_skia::Pixmap;

use crate::error::EncodeError;

/// Writes one picture as PNG to `out`, flushed.
pub fn write_png<W: Write>(pixmap: &Pixmap, mut out: W) -> Result<(), EncodeError> {
    let bytes = pixmap
        .encode_png()
        .map_err(|error| EncodeError::Png(Box::new(error)))?;
    out.write_all(&bytes)?;
    out.flush()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_png_round_trips() {
        let mut pixmap = Pixmap::new(7, 3).unwrap();
        pixmap.fill(tiny_skia::Color::from_rgba8(30, 100, 220, 255));
        pixmap.pixels_mut()[4] = tiny_skia::ColorU8::from_rgba(255, 140, 0, 255).premultiply();
        let mut bytes = Vec::new();
        write_png(&pixmap, &mut bytes).unwrap();
        assert_eq!(Pixmap::decode_png(&bytes).unwrap(), pixmap);
    }
}
