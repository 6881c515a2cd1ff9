//! The site's stock as marketplace feeds: Avito Autoload XML, Auto.ru dealer
//! XML and Yandex YML (vehicles). Published cars in stock for sale (new and
//! used; never drafts, lease cars or cars out of stock), with absolute photo
//! URLs and the dealership's contacts (`docs/parser.md`, export).

use std::collections::HashMap;
use std::fmt::Write;

use quick_xml::escape::escape;
use rusqlite::Connection;

use super::mapping;
use crate::domain::cars::{self, Car, CarFilter, CarStatus, FuelType, Transmission};
use crate::domain::settings::{self, Settings};
use crate::error::AppResult;
use crate::media;

/// The cars every feed lists, each with at most the limits' trim levels and
/// pictures (`cars::MAX_TRIM_LEVELS`, `docs/catalogue.md`), whatever a row
/// holds: one car can make a feed only so large.
pub fn stock(conn: &Connection) -> AppResult<Vec<Car>> {
    let all = cars::list_all(conn, &CarFilter::default())?;
    Ok(all
        .into_iter()
        .filter(|c| c.published && c.in_stock && c.status != CarStatus::Lease)
        .map(Car::bounded)
        .collect())
}

/// A picture's absolute URL, its largest variant when it is one of ours.
fn photo_url(base: &str, url: &str) -> String {
    if url.starts_with("http://") || url.starts_with("https://") {
        return url.to_string();
    }
    let large = media::variant_url(url, 1600).unwrap_or_else(|| url.to_string());
    format!("{base}{large}")
}

fn e(text: &str) -> std::borrow::Cow<'_, str> {
    escape(text)
}

/// The key of a car in the feeds: its external id, else its own id.
fn feed_id(car: &Car) -> &str {
    car.external_id.as_deref().unwrap_or(&car.id)
}

fn element(out: &mut String, indent: &str, name: &str, value: &str) {
    let _ = writeln!(out, "{indent}<{name}>{}</{name}>", e(value));
}

fn fuel_word(f: FuelType) -> &'static str {
    f.label()
}

/// The single label of each body type, by slug: how a type beyond the
/// spec's six is spelled in a feed.
pub type BodyLabels = HashMap<String, String>;

fn label<'a>(labels: &'a BodyLabels, car: &'a Car) -> &'a str {
    labels
        .get(car.body_type.as_str())
        .map_or(car.body_type.as_str(), String::as_str)
}

fn description(car: &Car, settings: &Settings) -> String {
    let mut text = format!(
        "{} {} {}. {}.",
        car.brand_name, car.name, car.year, car.engine
    );
    for trim in &car.trim_levels {
        if !trim.name.is_empty() {
            let _ = write!(text, " {}", trim.name);
            if !trim.description.is_empty() {
                let _ = write!(text, ": {}", trim.description);
            }
            text.push('.');
        }
    }
    let _ = write!(
        text,
        " {}, {}.",
        settings.public.salon_name, settings.public.phone
    );
    text
}

/// Avito Autoload: `<Ads formatVersion="3" target="Avito.ru"><Ad>`.
pub fn avito(cars: &[Car], settings: &Settings, labels: &BodyLabels, base: &str) -> String {
    let contacts = &settings.public;
    let address = if contacts.full_address.is_empty() {
        &contacts.address
    } else {
        &contacts.full_address
    };
    let mut out = String::with_capacity(cars.len() * 1500 + 200);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n");
    out.push_str("<Ads formatVersion=\"3\" target=\"Avito.ru\">\n");
    for car in cars {
        let i = "    ";
        out.push_str("  <Ad>\n");
        element(&mut out, i, "Id", feed_id(car));
        element(&mut out, i, "Category", "Автомобили");
        element(&mut out, i, "AdType", "Товар приобретен на продажу");
        element(&mut out, i, "CompanyName", &contacts.salon_name);
        element(&mut out, i, "ContactPhone", &contacts.phone);
        element(&mut out, i, "Address", address);
        element(&mut out, i, "Make", &car.brand_name);
        element(&mut out, i, "Model", &car.model);
        if let Some(generation) = &car.generation {
            element(&mut out, i, "Generation", generation);
        }
        element(
            &mut out,
            i,
            "Modification",
            &mapping::modification_text(
                &car.engine,
                car.fuel_type,
                car.transmission,
                car.drivetrain,
            ),
        );
        if let Some(trim) = &car.trim {
            element(&mut out, i, "Complectation", trim);
        }
        element(&mut out, i, "Year", &car.year.to_string());
        element(&mut out, i, "Price", &car.price.rubles().to_string());
        element(
            &mut out,
            i,
            "CarType",
            if car.status == CarStatus::New {
                "Новый"
            } else {
                "С пробегом"
            },
        );
        element(&mut out, i, "Kilometrage", &car.mileage.to_string());
        element(
            &mut out,
            i,
            "BodyType",
            mapping::body_type_word(&car.body_type, label(labels, car)),
        );
        if let Some(doors) = car.doors {
            element(&mut out, i, "Doors", &doors.to_string());
        }
        element(&mut out, i, "Transmission", car.transmission.label());
        if let Some(drive) = car.drivetrain {
            element(&mut out, i, "DriveType", drive.label());
        }
        element(&mut out, i, "FuelType", fuel_word(car.fuel_type));
        let (size, power) = mapping::engine_figures(&car.engine);
        if let Some(size) = size {
            element(&mut out, i, "EngineSize", &size);
        }
        if let Some(power) = power {
            element(&mut out, i, "Power", &power.to_string());
        }
        if let Some(vin) = &car.vin {
            element(&mut out, i, "VIN", vin);
        }
        if let Some(color) = &car.color {
            element(&mut out, i, "Color", color);
        }
        element(&mut out, i, "Description", &description(car, settings));
        if !car.images.is_empty() {
            out.push_str("    <Images>\n");
            for url in &car.images {
                let _ = writeln!(out, "      <Image url=\"{}\"/>", e(&photo_url(base, url)));
            }
            out.push_str("    </Images>\n");
        }
        out.push_str("  </Ad>\n");
    }
    out.push_str("</Ads>\n");
    out
}

fn modification(car: &Car) -> String {
    mapping::modification_text(&car.engine, car.fuel_type, car.transmission, car.drivetrain)
}

/// Auto.ru's `folder_id`: "GX, III" with the generation, else the model.
fn folder(car: &Car) -> String {
    match &car.generation {
        Some(generation) => format!("{}, {generation}", car.model),
        None => car.model.clone(),
    }
}

/// Auto.ru dealer XML: `<data><cars><car>`.
pub fn autoru(cars: &[Car], settings: &Settings, labels: &BodyLabels, base: &str) -> String {
    let mut out = String::with_capacity(cars.len() * 1500 + 200);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<data>\n  <cars>\n");
    for car in cars {
        let i = "      ";
        out.push_str("    <car>\n");
        element(&mut out, i, "unique_id", feed_id(car));
        element(&mut out, i, "mark_id", &car.brand_name);
        element(&mut out, i, "folder_id", &folder(car));
        element(&mut out, i, "modification_id", &modification(car));
        if let Some(trim) = &car.trim {
            element(&mut out, i, "complectation_name", trim);
        }
        element(
            &mut out,
            i,
            "gearbox",
            mapping::gearbox_token(car.transmission),
        );
        if let Some(drive) = car.drivetrain {
            element(&mut out, i, "drive", drive.label());
        }
        element(&mut out, i, "engine_type", fuel_word(car.fuel_type));
        element(&mut out, i, "url", &format!("{base}/car/{}", car.slug));
        element(
            &mut out,
            i,
            "body_type",
            mapping::autoru_body_type(&car.body_type, label(labels, car)),
        );
        element(&mut out, i, "wheel", "Левый");
        if let Some(color) = &car.color {
            element(&mut out, i, "color", color);
        }
        element(&mut out, i, "availability", "в наличии");
        element(&mut out, i, "custom", "растаможен");
        element(
            &mut out,
            i,
            "section",
            if car.status == CarStatus::New {
                "new"
            } else {
                "used"
            },
        );
        element(&mut out, i, "run", &car.mileage.to_string());
        element(&mut out, i, "year", &car.year.to_string());
        element(&mut out, i, "price", &car.price.to_string());
        element(&mut out, i, "currency", "RUR");
        if let Some(vin) = &car.vin {
            element(&mut out, i, "vin", vin);
        }
        for (name, value) in [
            ("credit_discount", car.credit_discount),
            ("tradein_discount", car.tradein_discount),
            ("insurance_discount", car.insurance_discount),
            ("max_discount", car.max_discount),
        ] {
            if let Some(value) = value {
                element(&mut out, i, name, &value.to_string());
            }
        }
        element(&mut out, i, "description", &description(car, settings));
        element(&mut out, i, "poi_id", &settings.public.address);
        if !car.images.is_empty() {
            out.push_str("      <images>\n");
            for url in &car.images {
                element(&mut out, "        ", "image", &photo_url(base, url));
            }
            out.push_str("      </images>\n");
        }
        out.push_str("    </car>\n");
    }
    out.push_str("  </cars>\n</data>\n");
    out
}

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
        element(&mut out, i, "price", &car.price.to_string());
        element(&mut out, i, "currencyId", "RUR");
        element(&mut out, i, "set-ids", "all");
        element(&mut out, i, "mark_id", &car.brand_name);
        element(&mut out, i, "folder_id", &car.model);
        element(&mut out, i, "modification_id", &modification(car));
        element(
            &mut out,
            i,
            "body_type",
            mapping::autoru_body_type(&car.body_type, label(labels, car)),
        );
        element(&mut out, i, "engine_type", fuel_word(car.fuel_type));
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
            element(&mut out, i, "color", color);
        }
        element(&mut out, i, "description", &description(car, settings));
        if !car.images.is_empty() {
            out.push_str("        <images>\n");
            for url in &car.images {
                element(&mut out, "          ", "image", &photo_url(base, url));
            }
            out.push_str("        </images>\n");
        }
        out.push_str("      </offer>\n");
    }
    out.push_str("    </offers>\n  </shop>\n</yml_catalog>\n");
    out
}

/// The three feeds' data: stock, settings and body labels, read in one go.
pub fn load(conn: &Connection) -> AppResult<(Vec<Car>, Settings, BodyLabels)> {
    let labels = crate::domain::body_types::list(conn)?
        .into_iter()
        .map(|t| (t.body_type.to_string(), t.label_single))
        .collect();
    Ok((stock(conn)?, settings::get(conn)?, labels))
}
