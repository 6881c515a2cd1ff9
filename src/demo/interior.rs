//! The dashboard of a car seen from the driver's seat.

use super::canvas::{Canvas, Rgb, WHITE, circle, line, linear, polygon, rect, rounded_rect};

/// The dashboard seen from the driver's seat, a road ahead, by day or in
/// the evening.
pub fn interior(canvas: &mut Canvas, accent: Rgb, trim: Rgb, evening: bool) {
    let (w, h) = (canvas.w(), canvas.h());
    let (sky, land, road) = if evening {
        ([0x0e1a2e, 0x3a4f78], 0x1f2329, 0x2c3036)
    } else {
        ([0x8fb8e0, 0xe3edf5], 0x8a9096, 0x5d6268)
    };
    canvas.vertical(
        0.0,
        h * 0.42,
        &[(0.0, Rgb::hex(sky[0])), (1.0, Rgb::hex(sky[1]))],
    );
    canvas.fill(rect(0.0, h * 0.42, w, h * 0.2), Rgb::hex(land).color());
    canvas.fill(
        polygon(
            &[
                (w * 0.47, h * 0.42, 0.0),
                (w * 0.53, h * 0.42, 0.0),
                (w * 0.9, h * 0.62, 0.0),
                (w * 0.1, h * 0.62, 0.0),
            ],
            false,
        ),
        Rgb::hex(road).color(),
    );
    canvas.fill(
        polygon(
            &[
                (w * 0.498, h * 0.43, 0.0),
                (w * 0.502, h * 0.43, 0.0),
                (w * 0.51, h * 0.62, 0.0),
                (w * 0.49, h * 0.62, 0.0),
            ],
            false,
        ),
        WHITE.alpha(0.8),
    );
    if evening {
        for k in 0..12 {
            let x = w * (0.08 + 0.075 * k as f32);
            let y = h * (0.4 - 0.012 * (k % 3) as f32);
            canvas.fill(circle(x, y, h * 0.006), Rgb::hex(0xffd98a).color());
        }
    }
    // A-pillars and roof lining.
    canvas.fill(rect(0.0, 0.0, w, h * 0.06), Rgb::hex(0x3a3d42).color());
    for side in [0.0, 1.0] {
        let x = side * w;
        let dx = if side == 0.0 { 1.0 } else { -1.0 };
        canvas.fill(
            polygon(
                &[
                    (x, 0.0, 0.0),
                    (x + dx * w * 0.12, 0.0, 0.0),
                    (x + dx * w * 0.02, h * 0.6, 0.0),
                    (x, h * 0.6, 0.0),
                ],
                false,
            ),
            Rgb::hex(0x2f3236).color(),
        );
    }
    // Dashboard.
    canvas.shade(
        polygon(
            &[
                (0.0, h * 0.58, 0.0),
                (w * 0.5, h * 0.5, w * 0.3),
                (w, h * 0.58, 0.0),
                (w, h, 0.0),
                (0.0, h, 0.0),
            ],
            true,
        ),
        linear(
            0.0,
            h * 0.5,
            0.0,
            h,
            &[
                (0.0, Rgb::hex(0x3b3f45).color()),
                (0.25, Rgb::hex(0x24272b).color()),
                (1.0, Rgb::hex(0x141518).color()),
            ],
        ),
    );
    canvas.fill(rect(0.0, h * 0.74, w, h * 0.035), trim.alpha(0.9));
    // Instrument cluster and the central screen.
    canvas.fill(
        rounded_rect(w * 0.17, h * 0.57, w * 0.27, h * 0.13, h * 0.02),
        Rgb::hex(0x07090c).color(),
    );
    for k in 0..2 {
        let x = w * (0.235 + 0.14 * k as f32);
        canvas.stroke(
            circle(x, h * 0.635, h * 0.045),
            accent.lighten(0.35).color(),
            h * 0.008,
        );
    }
    canvas.fill(
        rounded_rect(w * 0.5, h * 0.53, w * 0.25, h * 0.17, h * 0.015),
        Rgb::hex(0x0c0f14).color(),
    );
    canvas.fill(
        rounded_rect(w * 0.515, h * 0.55, w * 0.13, h * 0.13, h * 0.01),
        Rgb::hex(0x1e3a2e).color(),
    );
    canvas.stroke(
        line(&[
            (w * 0.525, h * 0.66),
            (w * 0.56, h * 0.6),
            (w * 0.6, h * 0.63),
            (w * 0.635, h * 0.57),
        ]),
        accent.lighten(0.4).color(),
        h * 0.006,
    );
    for k in 0..3 {
        canvas.fill(
            rounded_rect(
                w * 0.655,
                h * (0.55 + 0.045 * k as f32),
                w * 0.08,
                h * 0.035,
                h * 0.006,
            ),
            accent.alpha(0.55 + 0.15 * k as f32),
        );
    }
    // Air vents.
    for x in [w * 0.79, w * 0.05] {
        canvas.fill(
            rounded_rect(x, h * 0.6, w * 0.12, h * 0.06, h * 0.01),
            Rgb::hex(0x0f1114).color(),
        );
        for k in 1..4 {
            let y = h * (0.6 + 0.015 * k as f32);
            canvas.stroke(
                line(&[(x + w * 0.01, y), (x + w * 0.11, y)]),
                Rgb::hex(0x4a4f56).color(),
                h * 0.004,
            );
        }
    }
    // Steering wheel.
    let (sx, sy, sr) = (w * 0.305, h * 0.9, h * 0.26);
    canvas.stroke(circle(sx, sy, sr), Rgb::hex(0x121315).color(), h * 0.05);
    canvas.stroke(circle(sx, sy, sr), trim.alpha(0.35), h * 0.012);
    for (dx, dy) in [(-1.0, 0.05), (1.0, 0.05)] {
        canvas.stroke(
            line(&[(sx, sy), (sx + dx * sr, sy + dy * sr)]),
            Rgb::hex(0x1b1c1f).color(),
            h * 0.06,
        );
    }
    canvas.fill(circle(sx, sy, h * 0.08), Rgb::hex(0x1f2124).color());
    canvas.fill(circle(sx, sy, h * 0.025), accent.color());
    // Gear selector on the console.
    canvas.fill(
        rounded_rect(w * 0.58, h * 0.84, w * 0.05, h * 0.12, h * 0.02),
        Rgb::hex(0x2a2d31).color(),
    );
    canvas.fill(
        circle(w * 0.605, h * 0.84, h * 0.03),
        trim.darken(0.3).color(),
    );
}
