//! The renderer's drawing tools: where the box lands on the canvas (a
//! view), the pen that fills shapes given in box coordinates through it,
//! and rectangles of whole canvas pixels for what a picture changed.

use reel::Rectangle;
use tiny_skia::{FillRule, Paint, Pixmap, Point, Rect, Transform};

use super::inks::Ink;
use super::layout::Square;

/// Where and how the box lands on the canvas.
#[derive(Clone, Copy, Debug)]
pub(super) struct View {
    pub(super) transform: Transform,
    /// At an angle between quarter turns: the empty box is drawn afresh
    /// rather than taken from the quarter-turn pictures.
    pub(super) turning: bool,
}

/// A rectangle of whole canvas pixels, edges exclusive on the right and
/// bottom; empty when it has no area.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct PixelRect {
    pub(super) left: i32,
    pub(super) top: i32,
    pub(super) right: i32,
    pub(super) bottom: i32,
}

impl PixelRect {
    pub(super) const EMPTY: PixelRect = PixelRect {
        left: 0,
        top: 0,
        right: 0,
        bottom: 0,
    };

    /// Where `square` lands through `transform`, a quarter turn: its
    /// corners are whole pixels.
    pub(super) fn of(square: Square, transform: Transform) -> PixelRect {
        let mut corners = [
            Point::from_xy(square.left, square.top),
            Point::from_xy(square.left + square.size, square.top + square.size),
        ];
        transform.map_points(&mut corners);
        let [a, b] = corners;
        PixelRect {
            left: a.x.min(b.x).floor() as i32,
            top: a.y.min(b.y).floor() as i32,
            right: a.x.max(b.x).ceil() as i32,
            bottom: a.y.max(b.y).ceil() as i32,
        }
    }

    pub(super) fn is_empty(self) -> bool {
        self.left >= self.right || self.top >= self.bottom
    }

    pub(super) fn union(self, other: PixelRect) -> PixelRect {
        match (self.is_empty(), other.is_empty()) {
            (true, _) => other,
            (_, true) => self,
            _ => PixelRect {
                left: self.left.min(other.left),
                top: self.top.min(other.top),
                right: self.right.max(other.right),
                bottom: self.bottom.max(other.bottom),
            },
        }
    }

    pub(super) fn overlaps(self, other: PixelRect) -> bool {
        !self.is_empty()
            && !other.is_empty()
            && self.left < other.right
            && other.left < self.right
            && self.top < other.bottom
            && other.top < self.bottom
    }

    /// Copies this part of `from` into `to`, two pixmaps of one size.
    pub(super) fn copy(self, from: &Pixmap, to: &mut Pixmap) {
        if self.is_empty() {
            return;
        }
        let row_bytes = from.width() as usize * 4;
        let (left, right) = (
            self.left.max(0) as usize * 4,
            self.right.max(0) as usize * 4,
        );
        let right = right.min(row_bytes);
        let bottom = (self.bottom.max(0) as usize).min(from.height() as usize);
        for row in self.top.max(0) as usize..bottom {
            let span = row * row_bytes + left..row * row_bytes + right;
            to.data_mut()[span.clone()].copy_from_slice(&from.data()[span]);
        }
    }

    pub(super) fn rectangle(self) -> Rectangle {
        if self.is_empty() {
            return Rectangle {
                left: 0,
                top: 0,
                width: 0,
                height: 0,
            };
        }
        let clamp = |n: i32| n.max(0) as usize;
        Rectangle {
            left: clamp(self.left),
            top: clamp(self.top),
            width: clamp(self.right) - clamp(self.left),
            height: clamp(self.bottom) - clamp(self.top),
        }
    }
}

/// How a creature is painted.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Fade {
    /// Where the frame has it: drawn like the walls and cells.
    Still,
    /// On its way: anti-aliased, since it sits between whole pixels.
    Opaque,
    /// On its way out of sight, anti-aliased.
    Opacity(f32),
}

/// Fills shapes given in box coordinates through one view.
pub(super) struct Pen<'a> {
    pub(super) pixmap: &'a mut Pixmap,
    pub(super) view: View,
}

impl Pen<'_> {
    pub(super) fn paint(&self, ink: Ink, fade: Fade) -> Paint<'static> {
        let mut paint = Paint::default();
        let (opacity, moving) = match fade {
            Fade::Still => (1.0, false),
            Fade::Opaque => (1.0, true),
            Fade::Opacity(opacity) => (opacity, true),
        };
        paint.set_color(ink.color(opacity));
        paint.anti_alias = moving;
        paint
    }

    pub(super) fn square(&mut self, square: Square, ink: Ink) {
        self.fill(square, ink, Fade::Still);
    }

    pub(super) fn fill(&mut self, square: Square, ink: Ink, fade: Fade) {
        let (right, bottom) = (square.left + square.size, square.top + square.size);
        let paint = self.paint(ink, fade);
        // Sizes come from the layout and are never negative; an empty
        // rectangle (tiny cells) simply draws nothing.
        if let Some(rect) = Rect::from_ltrb(square.left, square.top, right, bottom) {
            self.pixmap
                .fill_rect(rect, &paint, self.view.transform, None);
        }
    }

    pub(super) fn rect(&mut self, left: f32, top: f32, right: f32, bottom: f32, ink: Ink) {
        if let Some(rect) = Rect::from_ltrb(left, top, right, bottom) {
            let paint = self.paint(ink, Fade::Still);
            self.pixmap
                .fill_rect(rect, &paint, self.view.transform, None);
        }
    }

    pub(super) fn polygon(&mut self, points: &[(f32, f32)], ink: Ink) {
        if let Some(path) = reel::shapes::polygon(points) {
            let paint = self.paint(ink, Fade::Still);
            self.pixmap
                .fill_path(&path, &paint, FillRule::Winding, self.view.transform, None);
        }
    }
}
