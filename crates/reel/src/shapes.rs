//! Shapes every game draws, as tiny-skia paths.

use tiny_skia::{Path, PathBuilder};

/// The closed polygon through `points`, in order; none for fewer than two.
pub fn polygon(points: &[(f32, f32)]) -> Option<Path> {
    let mut builder = PathBuilder::new();
    let (&(x, y), rest) = points.split_first()?;
    builder.move_to(x, y);
    for &(x, y) in rest {
        builder.line_to(x, y);
    }
    builder.close();
    builder.finish()
}

/// The straight line from `from` to `to`.
pub fn line(from: (f32, f32), to: (f32, f32)) -> Option<Path> {
    let mut builder = PathBuilder::new();
    builder.move_to(from.0, from.1);
    builder.line_to(to.0, to.1);
    builder.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_triangle_has_its_three_corners() {
        let path = polygon(&[(0.0, 0.0), (4.0, 0.0), (0.0, 3.0)]).unwrap();
        let bounds = path.bounds();
        assert_eq!((bounds.width(), bounds.height()), (4.0, 3.0));
        assert!(polygon(&[]).is_none());
        assert!(line((0.0, 0.0), (2.0, 2.0)).is_some());
    }
}
