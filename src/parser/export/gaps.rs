//! What a car lacks for a marketplace: every element the marketplace
//! requires, written from the car's own data (`docs/parser.md`, "Export",
//! the rules named there). A car with a gap is left out of that feed, and
//! the admin shows the reasons on the car, so nothing is sent to be refused.

use serde::Serialize;
use utoipa::ToSchema;

use super::dictionaries::{autoru_body, autoru_color, avito_body, avito_color};
use super::write::{BodyLabels, feed_id, label};
use crate::domain::cars::{Car, CarStatus, FuelType};
use crate::domain::settings::Settings;
use crate::marketplaces::Channel;
use crate::parser::mapping;

/// Why a car is left out of one marketplace's feed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LeftOut {
    pub channel: Channel,
    /// Each missing or unplaceable value, in staff's words.
    pub reasons: Vec<String>,
}

/// Whether the feeds list a car at all: published, in stock, for sale.
pub fn listed(car: &Car) -> bool {
    car.published && car.in_stock && car.status != CarStatus::Lease
}

/// The feeds a listed car is left out of, with the reasons; empty for a
/// car every marketplace takes, and for a car no feed lists.
pub fn left_out(car: &Car, settings: &Settings, labels: &BodyLabels) -> Vec<LeftOut> {
    if !listed(car) {
        return Vec::new();
    }
    [
        (Channel::Avito, avito_gaps(car, settings, labels)),
        (Channel::Autoru, autoru_gaps(car, labels)),
    ]
    .into_iter()
    .filter(|(_, reasons)| !reasons.is_empty())
    .map(|(channel, reasons)| LeftOut { channel, reasons })
    .collect()
}

const NO_VIN: &str = "нет VIN";
const NO_COLOR: &str = "не указан цвет";
const NO_POWER: &str =
    "не указана мощность двигателя (в поле «Двигатель», например «1.5 л, 150 л.с.»)";
const NO_SIZE: &str = "не указан объём двигателя (в поле «Двигатель», например «1.5 л, 150 л.с.»)";
const NO_ACCIDENT: &str = "не указано, был ли автомобиль в ДТП";
const NO_OWNERS: &str = "не указано число владельцев по ПТС";
const NO_STATE: &str = "не указано состояние";
const NO_TRIM: &str = "не указана комплектация";

fn has_vin(car: &Car) -> bool {
    car.vin.as_deref().is_some_and(|v| v.len() == 17)
}

/// Avito's required elements (rules A9, A12, A14, A15, A7, A8, A19, A10,
/// A22, A23).
pub fn avito_gaps(car: &Car, settings: &Settings, labels: &BodyLabels) -> Vec<String> {
    let mut gaps = Vec::new();
    if !has_vin(car) {
        gaps.push(NO_VIN.to_string());
    }
    color_gap(&mut gaps, car, avito_color, "Авито");
    let (size, power) = mapping::engine_figures(&car.engine);
    if power.is_none() {
        gaps.push(NO_POWER.to_string());
    }
    if size.is_none() && car.fuel_type != FuelType::Electric {
        gaps.push(NO_SIZE.to_string());
    }
    if avito_body(&car.body_type, label(labels, car)).is_none() {
        gaps.push(format!(
            "тип кузова «{}» не из списка Авито",
            label(labels, car)
        ));
    }
    if car.status == CarStatus::Used {
        if car.accident.is_none() {
            gaps.push(NO_ACCIDENT.to_string());
        }
        if car.owners.is_none() {
            gaps.push(NO_OWNERS.to_string());
        }
    }
    let contacts = &settings.public;
    if crate::domain::phone::normalize(&contacts.phone).is_none() {
        gaps.push("в настройках нет телефона салона с кодом города (+7…)".to_string());
    }
    if contacts.address.trim().is_empty() && contacts.full_address.trim().is_empty() {
        gaps.push("в настройках не указан адрес салона".to_string());
    }
    gaps
}

/// Auto.ru's required elements (rules R5, R8, R11, R12, R6, R19; R4 needs
/// the power for the catalogue's modification).
pub fn autoru_gaps(car: &Car, labels: &BodyLabels) -> Vec<String> {
    let mut gaps = Vec::new();
    let id = feed_id(car);
    let id_fits = (1..=50).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !id_fits {
        gaps.push(format!(
            "внешний идентификатор «{id}» не подходит Авто.ру: только латиница, цифры, «_» и «-», до 50 знаков"
        ));
    }
    color_gap(&mut gaps, car, autoru_color, "Авто.ру");
    if mapping::engine_figures(&car.engine).1.is_none() {
        gaps.push(NO_POWER.to_string());
    }
    if autoru_body(&car.body_type, label(labels, car), car.doors).is_none() {
        gaps.push(format!(
            "тип кузова «{}» не из списка Авто.ру",
            label(labels, car)
        ));
    }
    match car.status {
        CarStatus::New => {
            if car.trim.as_deref().is_none_or(|t| t.trim().is_empty()) {
                gaps.push(NO_TRIM.to_string());
            }
        }
        _ => {
            if !has_vin(car) {
                gaps.push(NO_VIN.to_string());
            }
            if car.state.is_none() {
                gaps.push(NO_STATE.to_string());
            }
            if car.owners.is_none() {
                gaps.push(NO_OWNERS.to_string());
            }
        }
    }
    gaps
}

fn color_gap(
    gaps: &mut Vec<String>,
    car: &Car,
    palette: fn(&str) -> Option<&'static str>,
    name: &str,
) {
    match car
        .color
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
    {
        None => gaps.push(NO_COLOR.to_string()),
        Some(color) if palette(color).is_none() => {
            gaps.push(format!("цвет «{color}» не из списка {name}"));
        }
        Some(_) => {}
    }
}
