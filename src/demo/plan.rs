//! Decides, from the seeded generator, every car of the demo stock and every
//! picture to draw, before anything is drawn or stored.

use std::collections::HashMap;

use rand::Rng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use super::body::Body;
use super::canvas::Rgb;
use super::car_art::{Placed, View};
use super::catalogue::{BRANDS, MODELS, PAINTS};
use super::content::{BANKS, PROMOTIONS};
use super::pictures::{BANNER, BANNER_MOBILE, Backdrop, Decor, PHOTO, Picture};
use crate::domain::cars::CarStatus;

/// The year the demo is set in.
pub const YEAR: i32 = 2026;

/// One car of the stock.
pub struct CarPlan {
    pub brand: usize,
    pub model: usize,
    pub status: CarStatus,
    pub year: i32,
    /// Rubles.
    pub price: i64,
    pub monthly: Option<i64>,
    pub daily: Option<i64>,
    pub mileage: i64,
    pub trim: usize,
    pub paint: usize,
    pub featured: bool,
    pub in_stock: bool,
    pub published: bool,
    pub vin: Option<String>,
    /// Indices into the picture plan, the main picture first.
    pub photos: Vec<usize>,
}

/// Every picture, and which is which.
#[derive(Default)]
pub struct PicturePlan {
    pub pictures: Vec<Picture>,
    pub brand_logos: Vec<usize>,
    pub bank_logos: Vec<usize>,
    pub promotions: Vec<usize>,
    /// Desktop and mobile banner of each body type.
    pub body_banners: Vec<(Body, usize, usize)>,
    /// Desktop and mobile banner of the six pages, in settings order: home,
    /// new cars, used cars, trade-in, auto credit, auto selection.
    pub page_banners: Vec<(usize, usize)>,
}

impl PicturePlan {
    fn add(&mut self, picture: Picture) -> usize {
        self.pictures.push(picture);
        self.pictures.len() - 1
    }
}

const FEATURED: &[&str] = &[
    "Jolion",
    "Tiggo 7 Pro Max",
    "Monjaro",
    "Camry",
    "300",
    "C5",
    "X5",
    "Land Cruiser Prado",
];
const NOT_IN_STOCK: &[&str] = &["Land Cruiser 300", "500", "EX5", "Deepal S07", "5 серии"];
const VIN_CHARS: &[u8] = b"ABCDEFGHJKLMNPRSTUVWXYZ0123456789";
const BACKDROPS: [Backdrop; 6] = [
    Backdrop::Day,
    Backdrop::Embankment,
    Backdrop::Sunset,
    Backdrop::Winter,
    Backdrop::Night,
    Backdrop::Studio,
];
/// Exterior views of each set of car photos.
const SET_VIEWS: usize = 4;

fn round_to(value: f64, step: i64) -> i64 {
    ((value / step as f64).round() as i64 * step).max(step)
}

fn brand_index(name: &str) -> usize {
    BRANDS.iter().position(|b| b.name == name).unwrap_or(0)
}

/// The stock, in the order it is listed (newest first).
pub fn cars(rng: &mut StdRng) -> Vec<CarPlan> {
    let mut cars = Vec::new();
    for (mi, model) in MODELS.iter().enumerate() {
        let brand = brand_index(model.brand);
        for (k, code) in model.stock.chars().enumerate() {
            let status = match code {
                'n' => CarStatus::New,
                'u' => CarStatus::Used,
                _ => CarStatus::Lease,
            };
            let trim = rng.random_range(0..model.trims.len().max(1));
            let base = model.price as f64 * 1000.0 * (1.0 + 0.08 * trim as f64);
            let (year, price, mileage) = match status {
                CarStatus::New => {
                    let year = if rng.random_bool(0.75) {
                        YEAR
                    } else {
                        YEAR - 1
                    };
                    let discount = if year < YEAR { 0.96 } else { 1.0 };
                    (year, round_to(base * discount, 10_000) - 1_000, 0)
                }
                CarStatus::Used => {
                    let year = rng.random_range(model.since.max(2015)..=YEAR - 2);
                    let age = YEAR - year;
                    let value = base * 0.9 * 0.93f64.powi(age - 1) * rng.random_range(0.94..1.05);
                    let km = i64::from(age) * rng.random_range(11_000..21_000)
                        + rng.random_range(0..9_000);
                    (year, round_to(value, 10_000), round_to(km as f64, 100))
                }
                CarStatus::Lease => {
                    let year = rng.random_range(model.since.max(YEAR - 3)..=YEAR);
                    let age = YEAR - year;
                    let km = if age == 0 {
                        rng.random_range(0..40) * 100
                    } else {
                        i64::from(age) * rng.random_range(18_000..32_000)
                    };
                    let value = base * 0.9f64.powi(age);
                    (year, round_to(value, 10_000), round_to(km as f64, 100))
                }
            };
            let (monthly, daily) = match status {
                CarStatus::Lease => {
                    let daily = round_to((price as f64 * 0.00135).max(1_800.0), 50);
                    (Some(round_to(daily as f64 * 28.5, 100)), Some(daily))
                }
                // A new or used car's payment comes from the credit
                // programmes (`domain::credit_payment`), never typed.
                _ => (None, None),
            };
            let vin = (status == CarStatus::Used).then(|| {
                (0..17)
                    .map(|_| char::from(VIN_CHARS[rng.random_range(0..VIN_CHARS.len())]))
                    .collect()
            });
            cars.push(CarPlan {
                brand,
                model: mi,
                status,
                year,
                price,
                monthly,
                daily,
                mileage,
                trim,
                paint: 0,
                featured: (k == 0 && status == CarStatus::New && FEATURED.contains(&model.model))
                    || (status == CarStatus::Used && matches!(model.model, "RAV4" | "Sorento")),
                in_stock: !(status == CarStatus::New && NOT_IN_STOCK.contains(&model.model)),
                // The second new car of a model listed twice is a draft.
                published: !(k == 1 && model.stock.starts_with("nn")),
                vin,
                photos: Vec::new(),
            });
        }
    }
    // One paint per brand and body type, two where there are many such
    // cars: cars of a paint share their photos.
    let mut per_kind: HashMap<(usize, Body), usize> = HashMap::new();
    for car in &cars {
        *per_kind
            .entry((car.brand, MODELS[car.model].body))
            .or_default() += 1;
    }
    let mut seen: HashMap<(usize, Body), usize> = HashMap::new();
    for car in &mut cars {
        let body = MODELS[car.model].body;
        let k = seen.entry((car.brand, body)).or_default();
        let paints = BRANDS[car.brand].paints;
        let offset = Body::ALL.iter().position(|b| *b == body).unwrap_or(0);
        let second = per_kind[&(car.brand, body)] >= 5 && *k % 2 == 1;
        car.paint = paints[(offset + usize::from(second)) % paints.len()];
        *k += 1;
    }
    cars.shuffle(rng);
    cars
}

fn photo(backdrop: Backdrop, car: Placed, seed: u64) -> Picture {
    Picture::Scene {
        width: PHOTO.0,
        height: PHOTO.1,
        backdrop,
        cars: vec![car],
        decor: Decor::Plain,
        shade_left: false,
        seed,
    }
}

/// A car placed in a picture `w` x `h`, by shares of the width and height.
#[allow(clippy::too_many_arguments)]
fn placed(
    body: Body,
    paint: Rgb,
    accent: Rgb,
    view: View,
    w: u32,
    h: u32,
    (cx, ground, size): (f32, f32, f32),
    spin: f32,
) -> Placed {
    Placed {
        body,
        paint,
        accent,
        view,
        cx: cx * w as f32,
        ground: ground * h as f32,
        size: size * w as f32,
        spin,
    }
}

/// Fills every car's photos and plans all other pictures.
pub fn pictures(cars: &mut [CarPlan], rng: &mut StdRng) -> PicturePlan {
    let mut plan = PicturePlan::default();
    for brand in BRANDS {
        let logo = plan.add(Picture::Emblem {
            primary: Rgb::hex(brand.primary),
            secondary: Rgb::hex(brand.ring),
            mark: brand.mark,
            square: false,
        });
        plan.brand_logos.push(logo);
    }
    for bank in BANKS {
        let logo = plan.add(Picture::Emblem {
            primary: Rgb::hex(bank.color),
            secondary: Rgb::hex(bank.ink),
            mark: bank.mark,
            square: true,
        });
        plan.bank_logos.push(logo);
    }
    // One set of photos per brand, body type and paint, shared by the cars
    // that match; each car starts its gallery at another view.
    let mut sets: HashMap<(usize, Body, usize), (Vec<usize>, usize)> = HashMap::new();
    let mut interiors: HashMap<usize, [usize; 2]> = HashMap::new();
    for car in cars.iter_mut() {
        let body = MODELS[car.model].body;
        let brand = &BRANDS[car.brand];
        let key = (car.brand, body, car.paint);
        let serial = sets.len();
        if let std::collections::hash_map::Entry::Vacant(slot) = sets.entry(key) {
            let paint = Rgb::hex(PAINTS[car.paint].1);
            let accent = Rgb::hex(brand.primary);
            let mut views = Vec::new();
            for v in 0..SET_VIEWS {
                let backdrop = BACKDROPS[(serial + v) % BACKDROPS.len()];
                let (view, at) = match v {
                    0 => (View::Side { facing_left: false }, (0.5, 0.86, 0.74)),
                    1 => (View::Front, (0.5, 0.9, 0.46)),
                    2 => (View::Side { facing_left: true }, (0.5, 0.86, 0.74)),
                    _ => (View::Rear, (0.5, 0.9, 0.46)),
                };
                let spin = rng.random_range(0.0..1.2);
                let car = placed(body, paint, accent, view, PHOTO.0, PHOTO.1, at, spin);
                views.push(plan.add(photo(backdrop, car, rng.random())));
            }
            slot.insert((views, 0));
        }
        let interior = *interiors.entry(car.brand).or_insert_with(|| {
            [false, true].map(|evening| {
                plan.add(Picture::Interior {
                    accent: Rgb::hex(brand.primary),
                    trim: Rgb::hex(brand.trim),
                    evening,
                })
            })
        });
        let Some((views, used)) = sets.get_mut(&key) else {
            continue;
        };
        // Four outside views, each car of the set starting at another one,
        // then the dashboard by day and in the evening.
        let count = [4, 5, 5, 6][rng.random_range(0..4)];
        let start = (*used % 2) * 2;
        *used += 1;
        car.photos = (0..views.len())
            .map(|i| views[(start + i) % views.len()])
            .chain(interior)
            .take(count)
            .collect();
    }
    let white = Rgb::hex(0xe9ecee);
    let red = Rgb::hex(0xb3222c);
    let navy = Rgb::hex(0x1f3158);
    let silver = Rgb::hex(0xaeb5bd);
    let graphite = Rgb::hex(0x3d4248);
    let accent = Rgb::hex(0x8a9099);
    // Body-type banners: the car on the right of a wide picture, and alone
    // on a tall one.
    for (i, body) in Body::ALL.iter().copied().enumerate() {
        let paint = [red, white, navy, silver, graphite, red][i % 6];
        let backdrop = BACKDROPS[(i + 2) % BACKDROPS.len()];
        let (w, h) = BANNER;
        let wide = placed(
            body,
            paint,
            accent,
            View::Side { facing_left: true },
            w,
            h,
            (0.68, 0.86, 0.5),
            0.3,
        );
        let desktop = plan.add(scene(BANNER, backdrop, vec![wide], Decor::Plain, true, rng));
        let (w, h) = BANNER_MOBILE;
        let tall = placed(
            body,
            paint,
            accent,
            View::Side { facing_left: true },
            w,
            h,
            (0.5, 0.82, 0.86),
            0.3,
        );
        let mobile = plan.add(scene(
            BANNER_MOBILE,
            backdrop,
            vec![tall],
            Decor::Plain,
            false,
            rng,
        ));
        plan.body_banners.push((body, desktop, mobile));
    }
    // Page banners.
    use Body::*;
    let pages: [PageBanner<'_>; 6] = [
        (
            Backdrop::Night,
            Decor::Plain,
            &[
                (Crossover, white, View::Side { facing_left: true }),
                (Coupe, graphite, View::Side { facing_left: true }),
            ],
        ),
        (
            Backdrop::Studio,
            Decor::Plain,
            &[
                (Sedan, red, View::Side { facing_left: true }),
                (Crossover, navy, View::Front),
            ],
        ),
        (
            Backdrop::Day,
            Decor::Plain,
            &[
                (Wagon, silver, View::Side { facing_left: true }),
                (Sedan, white, View::Side { facing_left: true }),
            ],
        ),
        (
            Backdrop::Embankment,
            Decor::Arrows,
            &[
                (Hatchback, red, View::Side { facing_left: false }),
                (Crossover, white, View::Side { facing_left: true }),
            ],
        ),
        (
            Backdrop::Sunset,
            Decor::Coins,
            &[(Crossover, navy, View::Side { facing_left: true })],
        ),
        (
            Backdrop::Winter,
            Decor::Magnifier,
            &[
                (Hatchback, red, View::Side { facing_left: true }),
                (Pickup, graphite, View::Side { facing_left: true }),
            ],
        ),
    ];
    for (backdrop, decor, list) in pages {
        let (w, h) = BANNER;
        let wide: Vec<Placed> = list
            .iter()
            .enumerate()
            .map(|(k, &(body, paint, view))| {
                let front = view == View::Front;
                let at = match (list.len(), k) {
                    (1, _) => (0.66, 0.88, 0.46),
                    (_, 0) => (0.5, 0.8, 0.3),
                    _ => (0.78, 0.9, if front { 0.24 } else { 0.36 }),
                };
                placed(body, paint, accent, view, w, h, at, 0.2 * k as f32)
            })
            .collect();
        let desktop = plan.add(scene(BANNER, backdrop, wide, decor, true, rng));
        let (w, h) = BANNER_MOBILE;
        let (body, paint, _) = list[0];
        let tall = placed(
            body,
            paint,
            accent,
            View::Side { facing_left: true },
            w,
            h,
            (0.5, 0.84, 0.86),
            0.5,
        );
        let mobile = plan.add(scene(
            BANNER_MOBILE,
            backdrop,
            vec![tall],
            decor,
            false,
            rng,
        ));
        plan.page_banners.push((desktop, mobile));
    }
    // Promotions.
    for (i, promo) in PROMOTIONS.iter().enumerate() {
        let body = Body::ALL[(i + 2) % Body::ALL.len()];
        let paint = [white, red, navy, silver, graphite][i % 5];
        let (w, h) = PHOTO;
        let car = placed(
            body,
            paint,
            accent,
            View::Side { facing_left: false },
            w,
            h,
            (0.4, 0.88, 0.62),
            0.1,
        );
        let backdrop = BACKDROPS[(i + 4) % BACKDROPS.len()];
        let picture = plan.add(scene(PHOTO, backdrop, vec![car], promo.decor, false, rng));
        plan.promotions.push(picture);
    }
    plan
}

/// A page banner: backdrop, symbol and cars (body, paint, view).
type PageBanner<'a> = (Backdrop, Decor, &'a [(Body, Rgb, View)]);

fn scene(
    (width, height): (u32, u32),
    backdrop: Backdrop,
    cars: Vec<Placed>,
    decor: Decor,
    shade_left: bool,
    rng: &mut StdRng,
) -> Picture {
    Picture::Scene {
        width,
        height,
        backdrop,
        cars,
        decor,
        shade_left,
        seed: rng.random(),
    }
}
