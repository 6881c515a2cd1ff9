//! Avito Autoload XML for cars: `<Ads formatVersion="3" target="Avito.ru">`,
//! an `<Ad>` per car Avito can take (rules A1–A29 of `docs/parser.md`,
//! "Export"): the condition in Avito's words, a used car's mileage,
//! accident and owners, the wheel, the palette's colour, JPEG photos.

use std::fmt::Write;

use super::dictionaries::{avito_body, avito_color};
use super::gaps::avito_gaps;
use super::write::{BodyLabels, description, e, element, feed_id, label, modification};
use crate::domain::cars::{Car, CarStatus, FuelType};
use crate::domain::settings::Settings;
use crate::parser::mapping;

/// Avito's longest description (rule A24).
const DESCRIPTION_MAX: usize = 3000;
/// Photos an ad takes (rule A26).
const PHOTOS_MAX: usize = 20;

/// The URL of a photo as Avito takes it (rule A25: JPEG or PNG): ours as
/// the JPEG copy `/feeds/photos/{hash}.jpg` (`http::feeds`), another site's
/// as it is unless it is WebP.
pub fn photo_url(base: &str, url: &str) -> Option<String> {
    if let Some(hash) = crate::media::hash_of_url(url) {
        return Some(format!("{base}{}", photo_path(hash)));
    }
    let external = url.starts_with("http://") || url.starts_with("https://");
    let webp = url
        .split(['?', '#'])
        .next()
        .is_some_and(|path| path.to_ascii_lowercase().ends_with(".webp"));
    (external && !webp).then(|| url.to_string())
}

/// The path of a picture's JPEG copy.
pub fn photo_path(hash: &str) -> String {
    format!("/feeds/photos/{hash}.jpg")
}

/// Avito Autoload: every car [`super::avito_gaps`] finds nothing missing in.
pub fn avito(cars: &[Car], settings: &Settings, labels: &BodyLabels, base: &str) -> String {
    // Each ad its salon's address, phone and name (`docs/salons.md`).
    let contacts_of = |salon: Option<i64>| {
        let id = crate::domain::salons::of_column(salon);
        let shown = settings.public.salons.iter().find(|s| s.id == id);
        let (address, full, phone, name) = match shown {
            Some(s) => (&s.address, &s.full_address, &s.phone, Some(&s.name)),
            None => (
                &settings.public.address,
                &settings.public.full_address,
                &settings.public.phone,
                None,
            ),
        };
        let address = if full.trim().is_empty() {
            address
        } else {
            full
        };
        (
            address.chars().take(256).collect::<String>(),
            crate::domain::phone::normalize(phone).unwrap_or_default(),
            name.map(|n| n.chars().take(40).collect::<String>()),
        )
    };
    let mut out = String::with_capacity(cars.len() * 1500 + 200);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str("<Ads formatVersion=\"3\" target=\"Avito.ru\">\n");
    for car in cars {
        if !avito_gaps(car, settings, labels).is_empty() {
            continue;
        }
        let i = "    ";
        let used = car.status != CarStatus::New;
        out.push_str("  <Ad>\n");
        element(&mut out, i, "Id", feed_id(car));
        element(&mut out, i, "Category", "Автомобили");
        element(
            &mut out,
            i,
            "CarType",
            if used {
                "С пробегом"
            } else {
                "Новые"
            },
        );
        if used {
            element(&mut out, i, "AdType", "Автомобиль приобретён на продажу");
        }
        let (address, phone, manager) = contacts_of(car.salon_id);
        element(&mut out, i, "Address", &address);
        if let Some(manager) = &manager {
            element(&mut out, i, "ManagerName", manager);
        }
        element(&mut out, i, "ContactPhone", &phone);
        element(&mut out, i, "Make", &car.brand_name);
        element(&mut out, i, "Model", &car.model);
        if let Some(generation) = &car.generation {
            element(&mut out, i, "Generation", generation);
        }
        element(&mut out, i, "Modification", &modification(car));
        if let Some(trim) = &car.trim {
            element(&mut out, i, "Complectation", trim);
        }
        element(&mut out, i, "Year", &car.year.to_string());
        if used {
            element(&mut out, i, "Kilometrage", &car.mileage.to_string());
            let accident = if car.accident == Some(true) {
                "Битый"
            } else {
                "Не битый"
            };
            element(&mut out, i, "Accident", accident);
            element(
                &mut out,
                i,
                "Owners",
                &car.owners.unwrap_or_default().to_string(),
            );
        }
        let body = avito_body(&car.body_type, label(labels, car)).unwrap_or_default();
        element(&mut out, i, "BodyType", body);
        if let Some(doors) = car.doors {
            element(&mut out, i, "Doors", &doors.to_string());
        }
        let color = car
            .color
            .as_deref()
            .and_then(avito_color)
            .unwrap_or_default();
        element(&mut out, i, "Color", color);
        element(&mut out, i, "FuelType", car.fuel_type.label());
        let (size, power) = mapping::engine_figures(&car.engine);
        if let Some(size) = size.filter(|_| car.fuel_type != FuelType::Electric) {
            element(&mut out, i, "EngineSize", &size);
        }
        if let Some(power) = power {
            element(&mut out, i, "Power", &power.to_string());
        }
        element(&mut out, i, "Transmission", car.transmission.label());
        if let Some(drive) = car.drivetrain {
            element(&mut out, i, "DriveType", drive.label());
        }
        element(&mut out, i, "WheelType", car.wheel.label());
        if let Some(vin) = &car.vin {
            element(&mut out, i, "VIN", vin);
        }
        element(&mut out, i, "Price", &car.price.rubles().to_string());
        element(
            &mut out,
            i,
            "Description",
            &description(car, settings, DESCRIPTION_MAX),
        );
        let photos: Vec<String> = car
            .images
            .iter()
            .filter_map(|url| photo_url(base, url))
            .take(PHOTOS_MAX)
            .collect();
        if !photos.is_empty() {
            out.push_str("    <Images>\n");
            for url in &photos {
                let _ = writeln!(out, "      <Image url=\"{}\"/>", e(url));
            }
            out.push_str("    </Images>\n");
        }
        out.push_str("  </Ad>\n");
    }
    out.push_str("</Ads>\n");
    out
}
