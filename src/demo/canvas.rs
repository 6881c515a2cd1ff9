//! Small drawing helpers over tiny-skia: colours, gradients, rounded
//! polygons and a canvas that turns into the pixels the media store takes.

use tiny_skia::{
    Color, FillRule, GradientStop, LinearGradient, Paint, Path, PathBuilder, Pixmap, Point,
    RadialGradient, Rect, Shader, SpreadMode, Stroke, Transform,
};

/// An opaque colour.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rgb(pub u8, pub u8, pub u8);

impl Rgb {
    pub const fn hex(value: u32) -> Rgb {
        Rgb((value >> 16) as u8, (value >> 8) as u8, value as u8)
    }

    /// Towards `other` by `t` (0..=1).
    pub fn mix(self, other: Rgb, t: f32) -> Rgb {
        let t = t.clamp(0.0, 1.0);
        let channel = |a: u8, b: u8| (f32::from(a) + (f32::from(b) - f32::from(a)) * t) as u8;
        Rgb(
            channel(self.0, other.0),
            channel(self.1, other.1),
            channel(self.2, other.2),
        )
    }

    pub fn lighten(self, t: f32) -> Rgb {
        self.mix(Rgb(255, 255, 255), t)
    }

    pub fn darken(self, t: f32) -> Rgb {
        self.mix(Rgb(0, 0, 0), t)
    }

    pub fn color(self) -> Color {
        Color::from_rgba8(self.0, self.1, self.2, 255)
    }

    pub fn alpha(self, a: f32) -> Color {
        Color::from_rgba8(self.0, self.1, self.2, (a.clamp(0.0, 1.0) * 255.0) as u8)
    }
}

pub const WHITE: Rgb = Rgb(255, 255, 255);
pub const BLACK: Rgb = Rgb(0, 0, 0);

/// The colour at `t` (0..=1) of a gradient given by (offset, colour) stops.
fn color_at(stops: &[(f32, Rgb)], t: f32) -> Rgb {
    let Some(&(mut offset, mut color)) = stops.first() else {
        return BLACK;
    };
    if t <= offset {
        return color;
    }
    for &(next_offset, next) in &stops[1..] {
        if t <= next_offset {
            let span = (next_offset - offset).max(1e-6);
            return color.mix(next, (t - offset) / span);
        }
        (offset, color) = (next_offset, next);
    }
    color
}

/// Gradient stops from (offset, colour) pairs.
pub fn stops(list: &[(f32, Color)]) -> Vec<GradientStop> {
    list.iter()
        .map(|&(offset, color)| GradientStop::new(offset, color))
        .collect()
}

pub fn linear(x0: f32, y0: f32, x1: f32, y1: f32, list: &[(f32, Color)]) -> Shader<'static> {
    LinearGradient::new(
        Point::from_xy(x0, y0),
        Point::from_xy(x1, y1),
        stops(list),
        SpreadMode::Pad,
        Transform::identity(),
    )
    .unwrap_or(Shader::SolidColor(list[0].1))
}

/// A radial gradient, squashed vertically by `squash` (1 = round).
pub fn radial(cx: f32, cy: f32, r: f32, squash: f32, list: &[(f32, Color)]) -> Shader<'static> {
    let transform = Transform::from_row(1.0, 0.0, 0.0, squash, 0.0, cy * (1.0 - squash));
    RadialGradient::new(
        Point::from_xy(cx, cy),
        Point::from_xy(cx, cy),
        r.max(0.5),
        stops(list),
        SpreadMode::Pad,
        transform,
    )
    .unwrap_or(Shader::SolidColor(list[list.len() - 1].1))
}

pub fn rect(x: f32, y: f32, w: f32, h: f32) -> Option<Path> {
    Rect::from_xywh(x, y, w.max(0.1), h.max(0.1)).map(PathBuilder::from_rect)
}

pub fn circle(cx: f32, cy: f32, r: f32) -> Option<Path> {
    PathBuilder::from_circle(cx, cy, r.max(0.1))
}

pub fn oval(cx: f32, cy: f32, rx: f32, ry: f32) -> Option<Path> {
    Rect::from_xywh(cx - rx, cy - ry, 2.0 * rx, 2.0 * ry).and_then(PathBuilder::from_oval)
}

pub fn rounded_rect(x: f32, y: f32, w: f32, h: f32, r: f32) -> Option<Path> {
    let r = r.min(w / 2.0).min(h / 2.0);
    polygon(
        &[(x, y, r), (x + w, y, r), (x + w, y + h, r), (x, y + h, r)],
        true,
    )
}

/// A closed polygon whose corners are rounded by their own radius, in
/// pixels; a radius of 0 keeps the corner sharp. With `smooth` false the
/// corners are all sharp.
pub fn polygon(points: &[(f32, f32, f32)], smooth: bool) -> Option<Path> {
    let n = points.len();
    if n < 3 {
        return None;
    }
    let mut pb = PathBuilder::new();
    let corner = |i: usize| {
        let (x, y, r) = points[i];
        let (px, py, _) = points[(i + n - 1) % n];
        let (nx, ny, _) = points[(i + 1) % n];
        let toward = |tx: f32, ty: f32| {
            let len = ((tx - x).powi(2) + (ty - y).powi(2)).sqrt().max(1e-3);
            let t = if smooth { (r / len).min(0.5) } else { 0.0 };
            (x + (tx - x) * t, y + (ty - y) * t)
        };
        (toward(px, py), (x, y), toward(nx, ny))
    };
    let (start, _, _) = corner(0);
    pb.move_to(start.0, start.1);
    for i in 0..n {
        let (from, at, to) = corner(i);
        pb.line_to(from.0, from.1);
        pb.quad_to(at.0, at.1, to.0, to.1);
    }
    pb.close();
    pb.finish()
}

/// An open line through points.
pub fn line(points: &[(f32, f32)]) -> Option<Path> {
    let (first, rest) = points.split_first()?;
    let mut pb = PathBuilder::new();
    pb.move_to(first.0, first.1);
    for &(x, y) in rest {
        pb.line_to(x, y);
    }
    pb.finish()
}

/// A picture `width` x `height` drawn into a pixmap of any size: drawing
/// code works in the picture's own units and is scaled to the pixmap.
pub struct Canvas {
    pixmap: Pixmap,
    width: f32,
    height: f32,
    transform: Transform,
}

impl Canvas {
    pub fn new(width: u32, height: u32, pixels_wide: u32, pixels_high: u32) -> Canvas {
        let pixmap =
            Pixmap::new(pixels_wide.max(1), pixels_high.max(1)).expect("picture size is not zero");
        let (width, height) = (width.max(1) as f32, height.max(1) as f32);
        Canvas {
            transform: Transform::from_scale(
                pixmap.width() as f32 / width,
                pixmap.height() as f32 / height,
            ),
            pixmap,
            width,
            height,
        }
    }

    pub fn w(&self) -> f32 {
        self.width
    }

    pub fn h(&self) -> f32 {
        self.height
    }

    pub fn fill(&mut self, path: Option<Path>, color: Color) {
        self.shade(path, Shader::SolidColor(color));
    }

    pub fn shade(&mut self, path: Option<Path>, shader: Shader) {
        if let Some(path) = path {
            let paint = Paint {
                shader,
                anti_alias: true,
                ..Paint::default()
            };
            self.pixmap
                .fill_path(&path, &paint, FillRule::Winding, self.transform, None);
        }
    }

    /// Fills the band from `y0` to `y1` with a vertical gradient of opaque
    /// colours, one solid pixel row at a time: far cheaper than a gradient
    /// shader over a large area, and the same to the eye.
    pub fn vertical(&mut self, y0: f32, y1: f32, stops: &[(f32, Rgb)]) {
        let scale = self.pixmap.height() as f32 / self.height;
        let first = (y0 * scale).round().max(0.0) as u32;
        let end = ((y1 * scale).round().max(0.0) as u32).min(self.pixmap.height());
        let width = self.pixmap.width() as f32;
        let mut paint = Paint {
            anti_alias: false,
            ..Paint::default()
        };
        for row in first..end {
            let t = if end > first + 1 {
                (row - first) as f32 / (end - first - 1) as f32
            } else {
                0.0
            };
            paint.set_color(color_at(stops, t).color());
            if let Some(rect) = Rect::from_xywh(0.0, row as f32, width, 1.0) {
                self.pixmap
                    .fill_rect(rect, &paint, Transform::identity(), None);
            }
        }
    }

    /// Fills the whole canvas.
    pub fn shade_all(&mut self, shader: Shader) {
        let (w, h) = (self.w(), self.h());
        self.shade(rect(0.0, 0.0, w, h), shader);
    }

    pub fn stroke(&mut self, path: Option<Path>, color: Color, width: f32) {
        if let Some(path) = path {
            let mut paint = Paint::default();
            paint.set_color(color);
            paint.anti_alias = true;
            let stroke = Stroke {
                width,
                line_cap: tiny_skia::LineCap::Round,
                line_join: tiny_skia::LineJoin::Round,
                ..Stroke::default()
            };
            self.pixmap
                .stroke_path(&path, &paint, &stroke, self.transform, None);
        }
    }

    /// The pixels for the media store: opaque pictures as they are,
    /// transparent ones with their alpha un-premultiplied.
    pub fn into_pixels(self, transparent: bool) -> Vec<u8> {
        let mut data = self.pixmap.take();
        if transparent {
            for px in data.chunks_exact_mut(4) {
                let a = u16::from(px[3]);
                if a != 0 && a != 255 {
                    for c in &mut px[..3] {
                        *c = ((u16::from(*c) * 255 + a / 2) / a).min(255) as u8;
                    }
                }
            }
        }
        data
    }
}
