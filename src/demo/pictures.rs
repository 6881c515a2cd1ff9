//! The demo's pictures: scenes with cars on Saint Petersburg backdrops,
//! dashboards, emblems and bank logos, all drawn with tiny-skia and stored
//! through the media store, several at a time.

use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::canvas::{BLACK, Canvas, Rgb, WHITE, circle, line, linear, oval, polygon, radial, rect};
use super::car_art::{self, Placed};
pub use super::ornaments::{Decor, Mark};
use super::ornaments::{draw_decor, emblem};
use crate::media::{self, StoredImage};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Backdrop {
    Day,
    Sunset,
    Studio,
    Night,
    Winter,
    Embankment,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Picture {
    Scene {
        width: u32,
        height: u32,
        backdrop: Backdrop,
        cars: Vec<Placed>,
        decor: Decor,
        /// Darkens the left side, where a banner's text goes.
        shade_left: bool,
        seed: u64,
    },
    Interior {
        accent: Rgb,
        trim: Rgb,
        evening: bool,
    },
    /// A 512 px emblem on a transparent background: round for brands,
    /// a rounded square for banks.
    Emblem {
        primary: Rgb,
        secondary: Rgb,
        mark: Mark,
        square: bool,
    },
}

pub const PHOTO: (u32, u32) = (1600, 1000);
pub const BANNER: (u32, u32) = (1600, 800);
pub const BANNER_MOBILE: (u32, u32) = (800, 1200);

/// Renders every picture and stores it (files only; the caller records the
/// rows), using all cores. Results come back in order.
pub fn render_all(pictures: &[Picture], media_dir: &Path) -> anyhow::Result<Vec<StoredImage>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<StoredImage>>> = Mutex::new(vec![None; pictures.len()]);
    let workers = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(2)
        .clamp(1, 8);
    std::thread::scope(|scope| -> anyhow::Result<()> {
        let handles: Vec<_> = (0..workers)
            .map(|_| {
                scope.spawn(|| -> anyhow::Result<()> {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(picture) = pictures.get(i) else {
                            return Ok(());
                        };
                        let (w, h) = picture.size();
                        let draw = |pw: u32, ph: u32| picture.draw(pw, ph);
                        let stored =
                            media::process_drawn(media_dir, w, h, media::Layout::Rgba, &draw)
                                .map_err(|e| anyhow::anyhow!("picture {i}: {e}"))?;
                        results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(stored);
                    }
                })
            })
            .collect();
        for handle in handles {
            handle
                .join()
                .map_err(|_| anyhow::anyhow!("a picture worker panicked"))??;
        }
        Ok(())
    })?;
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.ok_or_else(|| anyhow::anyhow!("a picture was not rendered")))
        .collect()
}

impl Picture {
    /// The picture's full size.
    pub fn size(&self) -> (u32, u32) {
        match self {
            Picture::Scene { width, height, .. } => (*width, *height),
            Picture::Interior { .. } => PHOTO,
            Picture::Emblem { .. } => (512, 512),
        }
    }

    /// Draws the picture into `pixels_wide` x `pixels_high` RGBA pixels.
    pub fn draw(&self, pixels_wide: u32, pixels_high: u32) -> Vec<u8> {
        let (width, height) = self.size();
        let mut canvas = Canvas::new(width, height, pixels_wide, pixels_high);
        match self {
            Picture::Scene {
                backdrop,
                cars,
                decor,
                shade_left,
                seed,
                ..
            } => {
                let mut rng = StdRng::seed_from_u64(*seed);
                draw_backdrop(&mut canvas, *backdrop, &mut rng);
                if *shade_left {
                    let w = canvas.w();
                    canvas.shade_all(linear(
                        0.0,
                        0.0,
                        w * 0.65,
                        0.0,
                        &[(0.0, BLACK.alpha(0.55)), (1.0, BLACK.alpha(0.0))],
                    ));
                }
                draw_decor(&mut canvas, *decor);
                for car in cars {
                    car_art::draw(&mut canvas, car);
                }
                canvas.into_pixels(false)
            }
            Picture::Interior {
                accent,
                trim,
                evening,
            } => {
                super::interior::interior(&mut canvas, *accent, *trim, *evening);
                canvas.into_pixels(false)
            }
            Picture::Emblem {
                primary,
                secondary,
                mark,
                square,
            } => {
                emblem(&mut canvas, *primary, *secondary, *mark, *square);
                canvas.into_pixels(true)
            }
        }
    }
}

/// Where the ground meets the sky, as a share of the height.
pub const HORIZON: f32 = 0.6;

fn draw_backdrop(canvas: &mut Canvas, backdrop: Backdrop, rng: &mut StdRng) {
    let (w, h) = (canvas.w(), canvas.h());
    let hz = h * HORIZON;
    let (sky_top, sky_low, city, ground_top, ground_low) = match backdrop {
        Backdrop::Day | Backdrop::Embankment => (0x6fa6de, 0xdbe9f5, 0xa3b6c9, 0x8e9399, 0x5c6166),
        Backdrop::Sunset => (0x4d5a9c, 0xffc58a, 0x5e4868, 0x4a454b, 0x242226),
        Backdrop::Studio => (0xe4e7eb, 0xcfd4da, 0, 0xc4c9cf, 0x9ea5ad),
        Backdrop::Night => (0x0a1426, 0x2c4268, 0x121a29, 0x25292f, 0x0f1114),
        Backdrop::Winter => (0xaebfd2, 0xeef3f7, 0x9fb0c2, 0xf4f7fa, 0xd3dbe5),
    };
    let sky: Vec<(f32, Rgb)> = if backdrop == Backdrop::Sunset {
        vec![
            (0.0, Rgb::hex(sky_top)),
            (0.6, Rgb::hex(0xf08a6a)),
            (1.0, Rgb::hex(sky_low)),
        ]
    } else {
        vec![(0.0, Rgb::hex(sky_top)), (1.0, Rgb::hex(sky_low))]
    };
    canvas.vertical(0.0, hz, &sky);
    if backdrop == Backdrop::Studio {
        // A soft spotlight on the back wall.
        canvas.shade(
            oval(w * 0.5, hz * 0.7, w * 0.38, hz * 0.5),
            radial(
                w * 0.5,
                hz * 0.7,
                w * 0.38,
                (hz * 0.5) / (w * 0.38),
                &[(0.0, WHITE.alpha(0.7)), (1.0, WHITE.alpha(0.0))],
            ),
        );
    }
    if backdrop == Backdrop::Sunset {
        canvas.shade(
            circle(w * 0.7, hz - h * 0.06, h * 0.3),
            radial(
                w * 0.7,
                hz - h * 0.06,
                h * 0.3,
                1.0,
                &[
                    (0.0, Rgb::hex(0xfff1c9).alpha(0.95)),
                    (0.15, Rgb::hex(0xffd38f).alpha(0.7)),
                    (1.0, Rgb::hex(0xffb070).alpha(0.0)),
                ],
            ),
        );
    }
    if backdrop != Backdrop::Studio {
        skyline(canvas, hz, Rgb::hex(city), backdrop == Backdrop::Night, rng);
    }
    let ground_from = if backdrop == Backdrop::Embankment {
        // The Neva and its granite parapet.
        canvas.vertical(
            hz,
            hz + h * 0.1,
            &[(0.0, Rgb::hex(0x5f82a5)), (1.0, Rgb::hex(0x3e5f80))],
        );
        for _ in 0..24 {
            let x = rng.random_range(0.0..w);
            let y = hz + rng.random_range(0.01..0.09) * h;
            let len = rng.random_range(0.02..0.08) * w;
            canvas.stroke(line(&[(x, y), (x + len, y)]), WHITE.alpha(0.25), h * 0.003);
        }
        canvas.fill(
            rect(0.0, hz + h * 0.1, w, h * 0.035),
            Rgb::hex(0x8a7f79).color(),
        );
        hz + h * 0.135
    } else {
        hz
    };
    canvas.vertical(
        ground_from,
        h,
        &[(0.0, Rgb::hex(ground_top)), (1.0, Rgb::hex(ground_low))],
    );
    if backdrop == Backdrop::Studio {
        return;
    }
    match backdrop {
        Backdrop::Winter => {
            for y in [0.9, 0.94] {
                canvas.stroke(
                    line(&[(0.0, h * y), (w, h * (y + 0.01))]),
                    Rgb::hex(0xc2ccd8).color(),
                    h * 0.012,
                );
            }
            for _ in 0..160 {
                let (x, y) = (rng.random_range(0.0..w), rng.random_range(0.0..h));
                let r = rng.random_range(1.0..3.5) * w / 1600.0;
                canvas.fill(circle(x, y, r), WHITE.alpha(0.85));
            }
        }
        Backdrop::Night => {
            for k in 0..5 {
                let x = w * (0.1 + 0.2 * k as f32);
                canvas.fill(
                    rect(x - h * 0.003, hz - h * 0.12, h * 0.006, h * 0.12),
                    Rgb::hex(0x0c0f14).color(),
                );
                canvas.shade(
                    circle(x, hz - h * 0.12, h * 0.12),
                    radial(
                        x,
                        hz - h * 0.12,
                        h * 0.12,
                        1.0,
                        &[
                            (0.0, Rgb::hex(0xffe2a8).alpha(0.8)),
                            (1.0, Rgb::hex(0xffe2a8).alpha(0.0)),
                        ],
                    ),
                );
                canvas.shade(
                    rect(x - w * 0.02, hz, w * 0.04, h - hz),
                    linear(
                        0.0,
                        hz,
                        0.0,
                        h,
                        &[
                            (0.0, Rgb::hex(0xffd28a).alpha(0.16)),
                            (1.0, Rgb::hex(0xffd28a).alpha(0.0)),
                        ],
                    ),
                );
            }
        }
        _ => {
            // Kerb and a dashed lane line.
            canvas.fill(
                rect(0.0, ground_from, w, h * 0.025),
                Rgb::hex(0xb7babd).color(),
            );
            let y = h * 0.93;
            let mut x = -rng.random_range(0.0..w * 0.1);
            while x < w {
                canvas.fill(rect(x, y, w * 0.08, h * 0.012), WHITE.alpha(0.75));
                x += w * 0.14;
            }
        }
    }
}

/// Low blocks with a dome here and there and one tall spire, as the city
/// looks from across the river.
fn skyline(canvas: &mut Canvas, hz: f32, color: Rgb, lit: bool, rng: &mut StdRng) {
    let (w, h) = (canvas.w(), canvas.h());
    let s = h / 1000.0;
    let spire = rng.random_range(0.15..0.85) * w;
    canvas.fill(
        polygon(
            &[
                (spire - 5.0 * s, hz - 120.0 * s, 0.0),
                (spire, hz - 330.0 * s, 0.0),
                (spire + 5.0 * s, hz - 120.0 * s, 0.0),
            ],
            false,
        ),
        color.color(),
    );
    canvas.fill(
        rect(spire - 22.0 * s, hz - 130.0 * s, 44.0 * s, 130.0 * s),
        color.color(),
    );
    let mut windows = 0;
    let mut x = -rng.random_range(0.0..60.0) * s;
    while x < w {
        let bw = rng.random_range(60.0..170.0) * s;
        let bh = rng.random_range(30.0..95.0) * s;
        canvas.fill(rect(x, hz - bh, bw + 1.0, bh + 1.0), color.color());
        if rng.random_bool(0.12) {
            let dx = x + bw / 2.0;
            canvas.fill(circle(dx, hz - bh, bw * 0.22), color.color());
            canvas.stroke(
                line(&[(dx, hz - bh - bw * 0.2), (dx, hz - bh - bw * 0.45)]),
                color.color(),
                3.0 * s,
            );
        }
        if lit {
            let mut wy = hz - bh + 10.0 * s;
            while wy < hz - 8.0 * s && windows < 500 {
                let mut wx = x + 8.0 * s;
                while wx < x + bw - 12.0 * s {
                    if rng.random_bool(0.35) {
                        canvas.fill(
                            rect(wx, wy, 6.0 * s, 8.0 * s),
                            Rgb::hex(0xffd98a).alpha(0.85),
                        );
                        windows += 1;
                    }
                    wx += 16.0 * s;
                }
                wy += 18.0 * s;
            }
        }
        x += bw;
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    /// Writes a sample of the demo pictures as PNG files for a look:
    /// `cargo test --lib demo::pictures::tests::preview -- --ignored`.
    #[test]
    #[ignore]
    fn preview() {
        let dir = std::path::Path::new("/tmp/demo-preview");
        std::fs::create_dir_all(dir).unwrap();
        let mut rng = StdRng::seed_from_u64(super::super::SEED);
        let mut stock = super::super::plan::cars(&mut rng);
        let plan = super::super::plan::pictures(&mut stock, &mut rng);
        let mut chosen: Vec<(String, usize)> = Vec::new();
        for body in crate::demo::body::Body::ALL {
            let car = stock
                .iter()
                .find(|c| super::super::catalogue::MODELS[c.model].body == *body)
                .unwrap();
            for (k, &p) in car.photos.iter().enumerate() {
                chosen.push((format!("{}-{k}", body.as_str()), p));
            }
        }
        chosen.push(("logo-0".into(), plan.brand_logos[0]));
        chosen.push(("logo-7".into(), plan.brand_logos[7]));
        chosen.push(("bank-0".into(), plan.bank_logos[0]));
        chosen.push(("bank-3".into(), plan.bank_logos[3]));
        for (k, &(d, m)) in plan.page_banners.iter().enumerate() {
            chosen.push((format!("page-{k}"), d));
            chosen.push((format!("page-{k}-mobile"), m));
        }
        chosen.push(("body-banner".into(), plan.body_banners[0].1));
        chosen.push(("promo-0".into(), plan.promotions[0]));
        chosen.push(("promo-2".into(), plan.promotions[2]));
        for (name, index) in chosen {
            let (w, h) = plan.pictures[index].size();
            let pixels = plan.pictures[index].draw(w, h);
            image::RgbaImage::from_raw(w, h, pixels)
                .unwrap()
                .save(dir.join(format!("{name}.png")))
                .unwrap();
        }
    }
}
