//! Emblems, bank logos and the symbols drawn over banners and promotions.

use super::canvas::{Canvas, Rgb, WHITE, circle, line, linear, oval, polygon, rect, rounded_rect};

/// Geometric marks of emblems and bank logos (the site has no fonts here).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mark {
    Bars,
    Triangle,
    Shield,
    Cross,
    Ring,
    Chevron,
    Diamond,
    Sail,
    Wave,
    Ellipses,
    Wing,
    Quarters,
    Star,
    Check,
    Flame,
    Letter,
}

/// Drawn over a scene, for banners and promotions.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Decor {
    Plain,
    Percent,
    Arrows,
    Coins,
    Magnifier,
    Gift,
    Shield,
    Snowflake,
}

fn arc(cx: f32, cy: f32, r: f32, from: f32, to: f32) -> Vec<(f32, f32)> {
    (0..=32)
        .map(|k| {
            let a = from + (to - from) * k as f32 / 32.0;
            (cx + r * a.cos(), cy + r * a.sin())
        })
        .collect()
}

pub fn draw_decor(canvas: &mut Canvas, decor: Decor) {
    let (w, h) = (canvas.w(), canvas.h());
    let u = w.min(h);
    let (cx, cy) = (w * 0.78, h * 0.28);
    let ink = WHITE.alpha(0.92);
    let gold = Rgb::hex(0xf2c14e);
    match decor {
        Decor::Plain => {}
        Decor::Percent => {
            canvas.stroke(
                circle(cx - u * 0.09, cy - u * 0.08, u * 0.05),
                ink,
                u * 0.03,
            );
            canvas.stroke(
                circle(cx + u * 0.09, cy + u * 0.08, u * 0.05),
                ink,
                u * 0.03,
            );
            canvas.stroke(
                line(&[
                    (cx + u * 0.12, cy - u * 0.14),
                    (cx - u * 0.12, cy + u * 0.14),
                ]),
                ink,
                u * 0.035,
            );
        }
        Decor::Arrows => {
            let r = u * 0.14;
            let pi = std::f32::consts::PI;
            for (from, to) in [(pi * 1.1, pi * 1.9), (pi * 0.1, pi * 0.9)] {
                let points = arc(cx, cy, r, from, to);
                canvas.stroke(line(&points), ink, u * 0.028);
                let (ex, ey) = points[points.len() - 1];
                let (px, py) = points[points.len() - 4];
                let (dx, dy) = (ex - px, ey - py);
                let len = (dx * dx + dy * dy).sqrt().max(1e-3);
                let (nx, ny) = (dx / len, dy / len);
                let head = u * 0.05;
                canvas.fill(
                    polygon(
                        &[
                            (ex + nx * head, ey + ny * head, 0.0),
                            (ex - ny * head * 0.7, ey + nx * head * 0.7, 0.0),
                            (ex + ny * head * 0.7, ey - nx * head * 0.7, 0.0),
                        ],
                        false,
                    ),
                    ink,
                );
            }
        }
        Decor::Coins => {
            for (k, stack) in [5, 8, 3].into_iter().enumerate() {
                let x = cx + (k as f32 - 1.0) * u * 0.13;
                for level in 0..stack {
                    let y = cy + u * 0.15 - level as f32 * u * 0.03;
                    canvas.fill(
                        oval(x, y + u * 0.012, u * 0.06, u * 0.022),
                        gold.darken(0.3).color(),
                    );
                    canvas.fill(oval(x, y, u * 0.06, u * 0.022), gold.color());
                }
            }
        }
        Decor::Magnifier => {
            canvas.fill(circle(cx, cy, u * 0.11), WHITE.alpha(0.18));
            canvas.stroke(circle(cx, cy, u * 0.11), ink, u * 0.028);
            canvas.stroke(
                line(&[
                    (cx + u * 0.08, cy + u * 0.08),
                    (cx + u * 0.19, cy + u * 0.19),
                ]),
                ink,
                u * 0.045,
            );
        }
        Decor::Gift => {
            let red = Rgb::hex(0xd62d3a);
            canvas.fill(
                rounded_rect(cx - u * 0.12, cy - u * 0.06, u * 0.24, u * 0.2, u * 0.015),
                red.color(),
            );
            canvas.fill(
                rounded_rect(cx - u * 0.135, cy - u * 0.1, u * 0.27, u * 0.06, u * 0.012),
                red.lighten(0.1).color(),
            );
            canvas.fill(
                rect(cx - u * 0.018, cy - u * 0.1, u * 0.036, u * 0.24),
                gold.color(),
            );
            for side in [-1.0f32, 1.0] {
                canvas.stroke(
                    oval(cx + side * u * 0.045, cy - u * 0.13, u * 0.045, u * 0.03),
                    gold.color(),
                    u * 0.02,
                );
            }
        }
        Decor::Shield => {
            canvas.fill(
                polygon(
                    &[
                        (cx - u * 0.12, cy - u * 0.14, u * 0.02),
                        (cx + u * 0.12, cy - u * 0.14, u * 0.02),
                        (cx + u * 0.11, cy + u * 0.02, u * 0.08),
                        (cx, cy + u * 0.16, u * 0.01),
                        (cx - u * 0.11, cy + u * 0.02, u * 0.08),
                    ],
                    true,
                ),
                WHITE.alpha(0.85),
            );
            canvas.stroke(
                line(&[
                    (cx - u * 0.05, cy),
                    (cx - u * 0.01, cy + u * 0.045),
                    (cx + u * 0.06, cy - u * 0.05),
                ]),
                Rgb::hex(0x2e8b57).color(),
                u * 0.03,
            );
        }
        Decor::Snowflake => {
            for k in 0..6 {
                let a = k as f32 * std::f32::consts::PI / 3.0;
                let (ex, ey) = (cx + a.cos() * u * 0.14, cy + a.sin() * u * 0.14);
                canvas.stroke(line(&[(cx, cy), (ex, ey)]), ink, u * 0.02);
                let (mx, my) = (cx + a.cos() * u * 0.09, cy + a.sin() * u * 0.09);
                for turn in [-0.6f32, 0.6] {
                    let b = a + turn;
                    canvas.stroke(
                        line(&[(mx, my), (mx + b.cos() * u * 0.04, my + b.sin() * u * 0.04)]),
                        ink,
                        u * 0.016,
                    );
                }
            }
        }
    }
}

pub fn emblem(canvas: &mut Canvas, primary: Rgb, secondary: Rgb, mark: Mark, square: bool) {
    let c = 256.0;
    let background = linear(
        0.0,
        20.0,
        0.0,
        492.0,
        &[
            (0.0, primary.lighten(0.2).color()),
            (1.0, primary.darken(0.25).color()),
        ],
    );
    if square {
        canvas.shade(rounded_rect(16.0, 16.0, 480.0, 480.0, 110.0), background);
    } else {
        canvas.fill(circle(c, c, 240.0), secondary.color());
        canvas.shade(circle(c, c, 218.0), background);
        canvas.stroke(circle(c, c, 198.0), WHITE.alpha(0.45), 4.0);
    }
    let ink = if square {
        secondary.color()
    } else {
        WHITE.color()
    };
    let star = |points: usize, outer: f32, inner: f32| -> Vec<(f32, f32, f32)> {
        (0..points * 2)
            .map(|k| {
                let a =
                    -std::f32::consts::FRAC_PI_2 + k as f32 * std::f32::consts::PI / points as f32;
                let r = if k % 2 == 0 { outer } else { inner };
                (c + a.cos() * r, c + a.sin() * r, 4.0)
            })
            .collect()
    };
    match mark {
        Mark::Bars => {
            for (k, width) in [230.0, 190.0, 150.0].into_iter().enumerate() {
                let y = 180.0 + k as f32 * 58.0;
                canvas.fill(rounded_rect(c - width / 2.0, y, width, 36.0, 18.0), ink);
            }
        }
        Mark::Triangle => {
            let tri = [
                (c, 120.0, 14.0),
                (c + 130.0, 350.0, 14.0),
                (c - 130.0, 350.0, 14.0),
            ];
            canvas.stroke(polygon(&tri, true), ink, 30.0);
            canvas.fill(circle(c, 280.0, 30.0), ink);
        }
        Mark::Shield => {
            let shape = [
                (c - 120.0, 140.0, 20.0),
                (c + 120.0, 140.0, 20.0),
                (c + 110.0, 290.0, 80.0),
                (c, 390.0, 10.0),
                (c - 110.0, 290.0, 80.0),
            ];
            canvas.stroke(polygon(&shape, true), ink, 26.0);
            canvas.stroke(line(&[(c - 60.0, 250.0), (c + 60.0, 250.0)]), ink, 26.0);
        }
        Mark::Cross => {
            canvas.stroke(line(&[(c - 110.0, 150.0), (c + 110.0, 362.0)]), ink, 48.0);
            canvas.stroke(line(&[(c + 110.0, 150.0), (c - 110.0, 362.0)]), ink, 48.0);
        }
        Mark::Ring => {
            canvas.stroke(circle(c, c, 120.0), ink, 40.0);
            canvas.fill(circle(c, c, 36.0), ink);
        }
        Mark::Chevron => {
            for dy in [-50.0, 50.0] {
                canvas.stroke(
                    line(&[
                        (c - 130.0, c - 40.0 + dy),
                        (c, c + 50.0 + dy),
                        (c + 130.0, c - 40.0 + dy),
                    ]),
                    ink,
                    40.0,
                );
            }
        }
        Mark::Diamond => {
            let outer = [
                (c, 120.0, 10.0),
                (c + 136.0, c, 10.0),
                (c, 392.0, 10.0),
                (c - 136.0, c, 10.0),
            ];
            canvas.stroke(polygon(&outer, true), ink, 28.0);
            let inner = [
                (c, 200.0, 6.0),
                (c + 56.0, c, 6.0),
                (c, 312.0, 6.0),
                (c - 56.0, c, 6.0),
            ];
            canvas.fill(polygon(&inner, true), ink);
        }
        Mark::Sail => {
            let sail = [
                (c - 20.0, 110.0, 8.0),
                (c + 120.0, 320.0, 30.0),
                (c - 20.0, 320.0, 6.0),
            ];
            canvas.fill(polygon(&sail, true), ink);
            let hull = [
                (c - 140.0, 345.0, 6.0),
                (c + 140.0, 345.0, 6.0),
                (c + 90.0, 395.0, 20.0),
                (c - 90.0, 395.0, 20.0),
            ];
            canvas.fill(polygon(&hull, true), ink);
        }
        Mark::Wave => {
            let points: Vec<(f32, f32)> = (0..=40)
                .map(|k| {
                    let x = c - 150.0 + 300.0 * k as f32 / 40.0;
                    (
                        x,
                        c + (k as f32 / 40.0 * std::f32::consts::TAU).sin() * 60.0,
                    )
                })
                .collect();
            canvas.stroke(line(&points), ink, 40.0);
        }
        Mark::Ellipses => {
            canvas.stroke(oval(c, c, 150.0, 95.0), ink, 26.0);
            canvas.stroke(oval(c, c - 20.0, 50.0, 105.0), ink, 26.0);
        }
        Mark::Wing => {
            let wing = [
                (c - 150.0, 220.0, 10.0),
                (c + 40.0, 220.0, 4.0),
                (c + 40.0, 160.0, 4.0),
                (c + 160.0, c, 10.0),
                (c + 40.0, 352.0, 4.0),
                (c + 40.0, 292.0, 4.0),
                (c - 110.0, 292.0, 10.0),
            ];
            canvas.fill(polygon(&wing, true), ink);
        }
        Mark::Quarters => {
            canvas.stroke(circle(c, c, 130.0), ink, 24.0);
            for (sx, sy) in [(-1.0f32, -1.0f32), (1.0, 1.0)] {
                let quarter = [
                    (c, c, 0.0),
                    (c + sx * 118.0, c, 0.0),
                    (c + sx * 84.0, c + sy * 84.0, 0.0),
                    (c, c + sy * 118.0, 0.0),
                ];
                canvas.fill(polygon(&quarter, false), ink);
            }
        }
        Mark::Star => canvas.fill(polygon(&star(5, 140.0, 58.0), true), ink),
        Mark::Check => {
            canvas.stroke(circle(c, c, 140.0), ink, 30.0);
            canvas.stroke(
                line(&[(c - 70.0, c), (c - 15.0, c + 60.0), (c + 150.0, c - 110.0)]),
                ink,
                40.0,
            );
        }
        Mark::Flame => {
            let flame = [
                (c, 100.0, 10.0),
                (c + 110.0, 300.0, 110.0),
                (c, 410.0, 100.0),
                (c - 110.0, 300.0, 110.0),
            ];
            canvas.fill(polygon(&flame, true), ink);
            canvas.fill(
                polygon(
                    &[
                        (c, 230.0, 8.0),
                        (c + 45.0, 330.0, 40.0),
                        (c - 45.0, 330.0, 40.0),
                    ],
                    true,
                ),
                primary.color(),
            );
        }
        Mark::Letter => {
            let a = [
                (c, 110.0, 8.0),
                (c + 140.0, 400.0, 4.0),
                (c - 140.0, 400.0, 4.0),
            ];
            canvas.stroke(polygon(&a, true), ink, 44.0);
            canvas.stroke(line(&[(c - 120.0, 440.0), (c + 120.0, 440.0)]), ink, 30.0);
        }
    }
}
