//! Cars drawn from simple shapes: a side profile per body type (see
//! `profiles`), a front and a rear view.

use super::body::Body;
use super::canvas::{
    BLACK, Canvas, Rgb, WHITE, circle, line, linear, oval, polygon, radial, rect, rounded_rect,
};
use super::profiles::profile;

#[derive(Debug, Clone, Copy, PartialEq)]
pub enum View {
    /// Seen from the side, the front to the right (or to the left).
    Side {
        facing_left: bool,
    },
    Front,
    Rear,
}

/// One car placed on a picture.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Placed {
    pub body: Body,
    pub paint: Rgb,
    /// Brand colour: grille details and the emblem.
    pub accent: Rgb,
    pub view: View,
    /// Centre of the car and the ground line, in pixels.
    pub cx: f32,
    pub ground: f32,
    /// Length (side view) or width (front and rear), in pixels.
    pub size: f32,
    /// Turns the wheels' spokes, in radians.
    pub spin: f32,
}

pub fn draw(canvas: &mut Canvas, car: &Placed) {
    match car.view {
        View::Side { facing_left } => side(canvas, car, facing_left),
        View::Front => front_or_rear(canvas, car, true),
        View::Rear => front_or_rear(canvas, car, false),
    }
}

fn shadow(canvas: &mut Canvas, cx: f32, ground: f32, rx: f32, ry: f32) {
    canvas.shade(
        oval(cx, ground, rx, ry),
        radial(
            cx,
            ground,
            rx,
            ry / rx,
            &[
                (0.0, BLACK.alpha(0.55)),
                (0.6, BLACK.alpha(0.3)),
                (1.0, BLACK.alpha(0.0)),
            ],
        ),
    );
}

fn side(canvas: &mut Canvas, car: &Placed, facing_left: bool) {
    let p = profile(car.body);
    let len = car.size * p.scale;
    let dir = if facing_left { -1.0 } else { 1.0 };
    let at = |x: f32, y: f32| (car.cx + dir * (x - 0.5) * len, car.ground - y * len);
    let map = |pts: &[(f32, f32, f32)]| -> Vec<(f32, f32, f32)> {
        pts.iter()
            .map(|&(x, y, r)| {
                let (px, py) = at(x, y);
                (px, py, r * len)
            })
            .collect()
    };
    shadow(canvas, car.cx, car.ground, 0.58 * len, 0.045 * len);
    let paint = car.paint;
    if p.spare {
        let (sx, sy) = at(-0.012, 0.215);
        canvas.fill(circle(sx, sy, 0.07 * len), Rgb::hex(0x1b1d20).color());
        canvas.fill(circle(sx, sy, 0.045 * len), paint.darken(0.2).color());
    }
    if p.rails {
        let roof = p.body[4].1;
        let y = car.ground - (roof + 0.012) * len;
        let rail = Rgb::hex(0x2a2d31).color();
        let (x0, _) = at(0.1, 0.0);
        let (x1, _) = at(0.52, 0.0);
        let (left, right) = (x0.min(x1), x0.max(x1));
        canvas.fill(
            rounded_rect(left, y - 0.004 * len, right - left, 0.01 * len, 0.004 * len),
            rail,
        );
        for x in [left + 0.02 * len, right - 0.03 * len] {
            canvas.fill(rect(x, y, 0.012 * len, 0.014 * len), rail);
        }
    }
    // Body, shaded from a light roof to a dark sill.
    let top = car.ground - 0.42 * len;
    canvas.shade(
        polygon(&map(p.body), true),
        linear(
            0.0,
            top,
            0.0,
            car.ground,
            &[
                (0.0, paint.lighten(0.28).color()),
                (0.45, paint.lighten(0.08).color()),
                (0.62, paint.color()),
                (1.0, paint.darken(0.45).color()),
            ],
        ),
    );
    if p.bed {
        let (x0, y0) = at(0.01, 0.255);
        let (x1, _) = at(0.36, 0.255);
        canvas.stroke(
            line(&[(x0, y0 + 0.004 * len), (x1, y0 + 0.004 * len)]),
            paint.darken(0.5).color(),
            0.01 * len,
        );
    }
    if p.cladding > 0.0 {
        let (x0, _) = at(0.02, 0.0);
        let (x1, _) = at(0.985, 0.0);
        let (left, right) = (x0.min(x1), x0.max(x1));
        canvas.fill(
            rounded_rect(
                left,
                car.ground - p.cladding * len,
                right - left,
                (p.cladding - 0.055) * len,
                0.015 * len,
            ),
            Rgb::hex(0x2b2e33).color(),
        );
    }
    // Shoulder highlight and door seams.
    let (sx0, sy) = at(0.05, p.shoulder);
    let (sx1, _) = at(0.93, p.shoulder);
    canvas.stroke(
        line(&[(sx0, sy), (sx1, sy)]),
        WHITE.alpha(0.28),
        0.004 * len,
    );
    for &(top_x, bottom_x) in p.seams {
        let a = at(top_x, p.shoulder + 0.02);
        let b = at(bottom_x, p.cladding.max(0.06) + 0.01);
        canvas.stroke(line(&[a, b]), paint.darken(0.55).alpha(0.8), 0.0025 * len);
    }
    for &(x, _) in &p.seams[..2] {
        let (hx, hy) = at(x - 0.07, p.shoulder - 0.015);
        canvas.fill(
            rounded_rect(hx - 0.02 * len, hy, 0.04 * len, 0.008 * len, 0.004 * len),
            paint.darken(0.35).color(),
        );
    }
    // Glass with a reflection, then the pillars.
    let glass = map(p.glass);
    let gtop = glass.iter().map(|g| g.1).fold(f32::MAX, f32::min);
    let gbottom = glass.iter().map(|g| g.1).fold(f32::MIN, f32::max);
    canvas.shade(
        polygon(&glass, true),
        linear(
            0.0,
            gtop,
            0.0,
            gbottom,
            &[
                (0.0, Rgb::hex(0x3d4c5e).color()),
                (1.0, Rgb::hex(0x151b23).color()),
            ],
        ),
    );
    for &x in p.pillars {
        let (px, _) = at(x, 0.0);
        canvas.fill(
            rect(
                px - 0.009 * len,
                gtop - 0.004 * len,
                0.018 * len,
                gbottom - gtop + 0.006 * len,
            ),
            paint.darken(0.15).color(),
        );
    }
    // Mirror by the windshield.
    let m = glass[glass.len() - 1];
    canvas.fill(
        polygon(
            &[
                (m.0 - dir * 0.01 * len, m.1 - 0.004 * len, 0.003 * len),
                (m.0 + dir * 0.028 * len, m.1 - 0.01 * len, 0.004 * len),
                (m.0 + dir * 0.03 * len, m.1 + 0.016 * len, 0.004 * len),
                (m.0 - dir * 0.008 * len, m.1 + 0.014 * len, 0.003 * len),
            ],
            true,
        ),
        paint.darken(0.2).color(),
    );
    // Lamps.
    let (hx, hy) = at(p.head_lamp.0, p.head_lamp.1);
    canvas.fill(
        polygon(
            &[
                (hx - dir * 0.035 * len, hy - 0.008 * len, 0.004 * len),
                (hx + dir * 0.03 * len, hy - 0.002 * len, 0.006 * len),
                (hx + dir * 0.02 * len, hy + 0.016 * len, 0.004 * len),
                (hx - dir * 0.03 * len, hy + 0.01 * len, 0.004 * len),
            ],
            true,
        ),
        Rgb::hex(0xeef3fb).color(),
    );
    let (tx, ty) = at(p.tail_lamp.0, p.tail_lamp.1);
    canvas.fill(
        rounded_rect(
            tx - 0.018 * len,
            ty - 0.012 * len,
            0.036 * len,
            0.024 * len,
            0.006 * len,
        ),
        Rgb::hex(0xc41e25).color(),
    );
    // Wheels in their arches.
    let r = p.wheel_r * len;
    for (i, &x) in p.wheels.iter().enumerate() {
        let (wx, wy) = at(x, p.wheel_r);
        let arch = if p.cladding > 0.0 { 0x26292d } else { 0x141518 };
        canvas.fill(
            circle(wx, wy - 0.012 * len, r * 1.17),
            Rgb::hex(arch).color(),
        );
        wheel(canvas, wx, wy, r, car.spin + i as f32 * 0.7);
    }
}

fn wheel(canvas: &mut Canvas, x: f32, y: f32, r: f32, spin: f32) {
    canvas.fill(circle(x, y, r), Rgb::hex(0x131416).color());
    canvas.stroke(circle(x, y, r * 0.86), Rgb::hex(0x26282b).color(), r * 0.05);
    canvas.shade(
        circle(x, y, r * 0.64),
        linear(
            x,
            y - r,
            x,
            y + r,
            &[
                (0.0, Rgb::hex(0xe4e7eb).color()),
                (1.0, Rgb::hex(0x7d848c).color()),
            ],
        ),
    );
    canvas.fill(circle(x, y, r * 0.56), Rgb::hex(0x30343a).color());
    for k in 0..5 {
        let a = spin + k as f32 * std::f32::consts::TAU / 5.0;
        let (ex, ey) = (x + a.cos() * r * 0.58, y + a.sin() * r * 0.58);
        canvas.stroke(
            line(&[(x, y), (ex, ey)]),
            Rgb::hex(0xc3c8ce).color(),
            r * 0.13,
        );
    }
    canvas.fill(circle(x, y, r * 0.15), Rgb::hex(0x9aa1a8).color());
    canvas.fill(circle(x, y, r * 0.06), Rgb::hex(0x3a3f45).color());
}

/// Height (in widths), ground clearance and roof narrowing of each body,
/// seen from the front or the rear.
fn stance(body: Body) -> (f32, f32, f32) {
    match body {
        Body::Sedan => (0.7, 0.06, 0.34),
        Body::Hatchback => (0.76, 0.06, 0.33),
        Body::Wagon => (0.74, 0.06, 0.35),
        Body::Crossover => (0.84, 0.08, 0.36),
        Body::Coupe => (0.96, 0.09, 0.41),
        Body::Pickup => (0.92, 0.09, 0.4),
    }
}

fn front_or_rear(canvas: &mut Canvas, car: &Placed, front: bool) {
    let w = car.size;
    let (height, clearance, roof) = stance(car.body);
    let h = height * w;
    let at = |u: f32, v: f32| (car.cx + u * w, car.ground - v * w);
    let paint = car.paint;
    shadow(canvas, car.cx, car.ground, 0.62 * w, 0.06 * w);
    // Tyres below the body.
    for side in [-1.0f32, 1.0] {
        let (x, y) = at(side * 0.39, clearance + 0.13);
        canvas.fill(
            rounded_rect(x - 0.07 * w, y, 0.14 * w, car.ground - y, 0.02 * w),
            Rgb::hex(0x141518).color(),
        );
    }
    let shoulder = 0.6 * h;
    // Cabin, then the lower body over it.
    let (cx0, cy0) = at(-0.45, shoulder / w);
    let (cx1, cy1) = at(-roof, height);
    let cabin = [
        (cx0, cy0, 0.0),
        (cx1, cy1, 0.05 * w),
        (2.0 * car.cx - cx1, cy1, 0.05 * w),
        (2.0 * car.cx - cx0, cy0, 0.0),
    ];
    canvas.fill(polygon(&cabin, true), paint.darken(0.05).color());
    let glass_top = height - 0.065;
    let glass_bottom = shoulder / w + 0.02;
    let inset = if front { 0.0 } else { 0.04 };
    let (gx0, gy0) = at(-0.41 + inset, glass_bottom);
    let (gx1, gy1) = at(-roof + 0.05 + inset, glass_top - inset);
    canvas.shade(
        polygon(
            &[
                (gx0, gy0, 0.01 * w),
                (gx1, gy1, 0.03 * w),
                (2.0 * car.cx - gx1, gy1, 0.03 * w),
                (2.0 * car.cx - gx0, gy0, 0.01 * w),
            ],
            true,
        ),
        linear(
            0.0,
            gy1,
            0.0,
            gy0,
            &[
                (0.0, Rgb::hex(0x4a5a6d).color()),
                (1.0, Rgb::hex(0x161c24).color()),
            ],
        ),
    );
    let (bx, by) = at(-0.5, shoulder / w + 0.02);
    let body_h = car.ground - clearance * w - by;
    canvas.shade(
        rounded_rect(bx, by, w, body_h, 0.07 * w),
        linear(
            0.0,
            by,
            0.0,
            by + body_h,
            &[
                (0.0, paint.lighten(0.22).color()),
                (0.35, paint.color()),
                (1.0, paint.darken(0.4).color()),
            ],
        ),
    );
    // Mirrors.
    for side in [-1.0f32, 1.0] {
        let (mx, my) = at(side * 0.5, shoulder / w + 0.09);
        canvas.fill(
            rounded_rect(mx - 0.05 * w, my, 0.1 * w, 0.05 * w, 0.02 * w),
            paint.darken(0.15).color(),
        );
    }
    let v = |t: f32| clearance + t * (shoulder / w + 0.02 - clearance);
    // Lamps.
    let lamp = if front {
        Rgb::hex(0xf1f5fb)
    } else {
        Rgb::hex(0xc8202a)
    };
    for side in [-1.0f32, 1.0] {
        let (x0, y0) = at(side * 0.46, v(0.78));
        let (x1, y1) = at(side * 0.24, v(0.72));
        canvas.fill(
            polygon(
                &[
                    (x0, y0 - 0.02 * w, 0.01 * w),
                    (x1, y1 - 0.012 * w, 0.01 * w),
                    (x1, y1 + 0.03 * w, 0.01 * w),
                    (x0, y0 + 0.035 * w, 0.01 * w),
                ],
                true,
            ),
            lamp.color(),
        );
    }
    if front {
        // Grille with bars and the emblem, lower intake.
        let (gx, gy) = at(-0.21, v(0.7));
        let gw = 0.42 * w;
        let gh = (v(0.7) - v(0.38)) * w;
        canvas.fill(
            rounded_rect(gx, gy, gw, gh, 0.025 * w),
            Rgb::hex(0x1b1e22).color(),
        );
        for k in 1..4 {
            let y = gy + gh * k as f32 / 4.0;
            canvas.stroke(
                line(&[(gx + 0.02 * w, y), (gx + gw - 0.02 * w, y)]),
                car.accent.lighten(0.3).alpha(0.7),
                0.006 * w,
            );
        }
        let (ex, ey) = at(0.0, v(0.55));
        canvas.fill(circle(ex, ey, 0.035 * w), car.accent.color());
        canvas.stroke(
            circle(ex, ey, 0.035 * w),
            Rgb::hex(0xd5d9de).color(),
            0.006 * w,
        );
        let (ix, iy) = at(-0.3, v(0.2));
        canvas.fill(
            rounded_rect(ix, iy, 0.6 * w, 0.06 * w, 0.02 * w),
            Rgb::hex(0x202327).color(),
        );
    } else {
        let (lx, ly) = at(-0.24, v(0.76));
        canvas.fill(
            rect(lx, ly, 0.48 * w, 0.012 * w),
            Rgb::hex(0x9c1a20).color(),
        );
        let (ex, ey) = at(0.0, v(0.6));
        canvas.fill(circle(ex, ey, 0.03 * w), car.accent.color());
        let (dx, dy) = at(-0.34, v(0.16));
        canvas.fill(
            rounded_rect(dx, dy, 0.68 * w, 0.05 * w, 0.02 * w),
            Rgb::hex(0x1d2024).color(),
        );
        if car.body == Body::Coupe {
            let (sx, sy) = at(0.0, v(1.0) + 0.1);
            canvas.fill(circle(sx, sy, 0.12 * w), Rgb::hex(0x17191c).color());
            canvas.fill(circle(sx, sy, 0.07 * w), paint.darken(0.25).color());
        }
    }
    // Number plate: white, with the flag strip on the right.
    let (px, py) = at(-0.1, v(if front { 0.33 } else { 0.45 }));
    canvas.fill(
        rounded_rect(px, py, 0.2 * w, 0.045 * w, 0.006 * w),
        WHITE.color(),
    );
    canvas.stroke(
        rounded_rect(px, py, 0.2 * w, 0.045 * w, 0.006 * w),
        Rgb::hex(0x222222).color(),
        0.003 * w,
    );
    for (k, color) in [0xffffff, 0x1c3f94, 0xd52b1e].into_iter().enumerate() {
        canvas.fill(
            rect(
                px + 0.165 * w,
                py + 0.008 * w + k as f32 * 0.006 * w,
                0.025 * w,
                0.006 * w,
            ),
            Rgb::hex(color).color(),
        );
    }
}
