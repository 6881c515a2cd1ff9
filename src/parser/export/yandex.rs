//! Yandex YML for vehicles: `<yml_catalog><shop>` with the dealership, one
//! set of all cars, and an `<offer>` per car (rules Y1–Y12 of
//! `docs/parser.md`, "Export"), in Auto.ru's catalogue naming.

use super::dictionaries::{autoru_body, autoru_color};
use super::write::{BodyLabels, description, e, element, feed_id, images, label, modification};
use crate::domain::cars::{Car, CarStatus, Transmission};
use crate::domain::settings::Settings;
use std::fmt::Write;

/// Images an offer takes (rule Y3).
const PHOTOS_MAX: usize = 200;
/// The description's length, as on Auto.ru.
const DESCRIPTION_MAX: usize = 30_000;

fn gear_type(t: Transmission) -> &'static str {
    match t {
        Transmission::Automatic => "автоматическая",
        Transmission::Manual => "механическая",
        Transmission::Robotic => "роботизированная",
        Transmission::Cvt => "вариатор",
    }
}

/// Yandex YML for vehicles: `<yml_catalog><shop>` with the dealership, one
/// set of all cars, and an `<offer>` per car.
pub fn yandex(
    cars: &[Car],
    settings: &Settings,
    labels: &BodyLabels,
    base: &str,
    now: &str,
) -> String {
    let contacts = &settings.public;
    let mut out = String::with_capacity(cars.len() * 1500 + 500);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    let _ = writeln!(out, "<yml_catalog date=\"{}\">", e(now));
    out.push_str("  <shop>\n");
    element(&mut out, "    ", "name", &contacts.salon_name);
    element(&mut out, "    ", "company", &contacts.salon_name);
    element(&mut out, "    ", "url", base);
    element(&mut out, "    ", "phone", &contacts.phone);
    element(&mut out, "    ", "address", &contacts.address);
    if !contacts.email.is_empty() {
        element(&mut out, "    ", "email", &contacts.email);
    }
    out.push_str("    <currencies>\n      <currency id=\"RUR\" rate=\"1\"/>\n    </currencies>\n");
    out.push_str("    <sets>\n      <set id=\"all\">\n");
    element(&mut out, "        ", "name", "Автомобили в наличии");
    element(&mut out, "        ", "url", &format!("{base}/new-cars"));
    out.push_str("      </set>\n    </sets>\n    <offers>\n");
    for car in cars {
        let i = "        ";
        let _ = writeln!(out, "      <offer id=\"{}\">", e(feed_id(car)));
        element(
            &mut out,
            i,
            "name",
            &format!("{} {} {}", car.brand_name, car.name, car.year),
        );
        element(&mut out, i, "url", &format!("{base}/car/{}", car.slug));
        element(&mut out, i, "price", &car.price.rubles().to_string());
        element(&mut out, i, "currencyId", "RUR");
        element(&mut out, i, "set-ids", "all");
        element(&mut out, i, "mark_id", &car.brand_name);
        element(&mut out, i, "folder_id", &car.model);
        element(&mut out, i, "modification_id", &modification(car));
        element(
            &mut out,
            i,
            "body_type",
            autoru_body(&car.body_type, label(labels, car), car.doors)
                .unwrap_or(label(labels, car)),
        );
        element(&mut out, i, "engine_type", car.fuel_type.label());
        element(&mut out, i, "gear_type", gear_type(car.transmission));
        if let Some(drive) = car.drivetrain {
            element(&mut out, i, "wheel_drive", drive.label());
        }
        element(&mut out, i, "year", &car.year.to_string());
        element(&mut out, i, "run", &car.mileage.to_string());
        element(
            &mut out,
            i,
            "state",
            if car.status == CarStatus::New {
                "new"
            } else {
                "used"
            },
        );
        if let Some(vin) = &car.vin {
            element(&mut out, i, "vin", vin);
        }
        if let Some(color) = &car.color {
            element(&mut out, i, "color", autoru_color(color).unwrap_or(color));
        }
        element(
            &mut out,
            i,
            "description",
            &description(car, settings, DESCRIPTION_MAX),
        );
        images(&mut out, "        ", car, base, PHOTOS_MAX);
        out.push_str("      </offer>\n");
    }
    out.push_str("    </offers>\n  </shop>\n</yml_catalog>\n");
    out
}
