//! Auto.ru dealer XML: `<data><cars><car>`, a `<car>` per car Auto.ru can
//! take (rules R1–R22 of `docs/parser.md`, "Export"): catalogue naming,
//! `owners_number` for every car, a used car's `state` and `run`, the
//! palette's colour, integer prices. Auto.ru takes new and used cars as
//! separate feeds (R22): `Section` picks one, or all for tools that take both.

use super::dictionaries::{autoru_body, autoru_color};
use super::gaps::autoru_gaps;
use super::write::{BodyLabels, description, element, feed_id, images, label, modification};
use crate::domain::cars::{Car, CarState, CarStatus};
use crate::domain::settings::Settings;

/// Auto.ru's longest description (rule R21).
const DESCRIPTION_MAX: usize = 30_000;
/// Photos an offer takes (rule R20).
const PHOTOS_MAX: usize = 40;

/// Which cars an Auto.ru feed lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Section {
    All,
    New,
    Used,
}

impl Section {
    fn takes(self, car: &Car) -> bool {
        match self {
            Section::All => true,
            Section::New => car.status == CarStatus::New,
            Section::Used => car.status != CarStatus::New,
        }
    }
}

/// Auto.ru's `folder_id`: "GX, III" with the generation, else the model.
fn folder(car: &Car) -> String {
    match &car.generation {
        Some(generation) => format!("{}, {generation}", car.model),
        None => car.model.clone(),
    }
}

/// `owners_number` in Auto.ru's words (R12).
fn owners_number(car: &Car) -> &'static str {
    match (car.status, car.owners.unwrap_or_default()) {
        (CarStatus::New, _) | (_, 0) => "Не было владельцев",
        (_, 1) => "Один владелец",
        (_, 2) => "Два владельца",
        _ => "Три и более",
    }
}

/// A used car's `state` (R11).
fn state(state: CarState) -> &'static str {
    match state {
        CarState::Excellent => "отличное",
        CarState::Good => "хорошее",
        CarState::Average => "среднее",
        CarState::NeedsRepair => "требует ремонта",
    }
}

/// Auto.ru dealer XML of `section`'s cars that [`super::autoru_gaps`] finds
/// nothing missing in.
pub fn autoru(
    cars: &[Car],
    settings: &Settings,
    labels: &BodyLabels,
    base: &str,
    section: Section,
) -> String {
    let mut out = String::with_capacity(cars.len() * 1500 + 200);
    out.push_str("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<data>\n  <cars>\n");
    for car in cars {
        if !section.takes(car) || !autoru_gaps(car, labels).is_empty() {
            continue;
        }
        let i = "      ";
        let used = car.status != CarStatus::New;
        out.push_str("    <car>\n");
        element(&mut out, i, "unique_id", feed_id(car));
        element(&mut out, i, "mark_id", &car.brand_name);
        element(&mut out, i, "folder_id", &folder(car));
        element(&mut out, i, "modification_id", &modification(car));
        if let Some(trim) = &car.trim {
            element(&mut out, i, "complectation_name", trim);
        }
        let body = autoru_body(&car.body_type, label(labels, car), car.doors).unwrap_or_default();
        element(&mut out, i, "body_type", body);
        element(&mut out, i, "wheel", car.wheel.label());
        let color = car
            .color
            .as_deref()
            .and_then(autoru_color)
            .unwrap_or_default();
        element(&mut out, i, "color", color);
        element(&mut out, i, "availability", "в наличии");
        element(&mut out, i, "custom", "растаможен");
        if let (true, Some(s)) = (used, car.state) {
            element(&mut out, i, "state", state(s));
        }
        element(&mut out, i, "owners_number", owners_number(car));
        if used {
            element(&mut out, i, "run", &car.mileage.to_string());
        }
        element(&mut out, i, "year", &car.year.to_string());
        element(&mut out, i, "price", &car.price.rubles().to_string());
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
            if let Some(value) = value.filter(|v| v.rubles() > 0) {
                element(&mut out, i, name, &value.rubles().to_string());
            }
        }
        element(
            &mut out,
            i,
            "description",
            &description(car, settings, DESCRIPTION_MAX),
        );
        element(&mut out, i, "url", &format!("{base}/car/{}", car.slug));
        images(&mut out, "      ", car, base, PHOTOS_MAX);
        out.push_str("    </car>\n");
    }
    out.push_str("  </cars>\n</data>\n");
    out
}
