//! The marketplaces' car fields a record states (`docs/parser.md`, "The
//! marketplaces' car fields"): owners by the vehicle passport, an accident,
//! a used car's state and the steering wheel, read from each format's
//! elements. A value of no meaning is a warning and is not stored: the car's
//! own value stays.

use super::fields::quoted;
use super::parsed::{CarFields, FieldWarning};
use super::record::Record;
use crate::parser::mapping;

/// The elements each field is read from, in a format.
pub(super) struct CarFieldNames {
    pub(super) owners: &'static [&'static str],
    pub(super) accident: &'static [&'static str],
    pub(super) state: &'static [&'static str],
    pub(super) wheel: &'static [&'static str],
}

/// Auto.ru: `owners_number`, `state`, `wheel` (it has no accident element).
pub(super) const AUTORU: CarFieldNames = CarFieldNames {
    owners: &["owners_number"],
    accident: &[],
    state: &["state"],
    wheel: &["wheel"],
};

/// Avito: `Owners`, `Accident`, `WheelType` (it has no state element).
pub(super) const AVITO: CarFieldNames = CarFieldNames {
    owners: &["Owners"],
    accident: &["Accident"],
    state: &[],
    wheel: &["WheelType"],
};

/// The CSV's columns of the same names.
pub(super) const CSV: CarFieldNames = CarFieldNames {
    owners: &["owners"],
    accident: &["accident"],
    state: &["state"],
    wheel: &["wheel"],
};

/// The most owners a car's form takes (`cars::OWNERS_RANGE`).
const MAX_OWNERS: u32 = 99;

pub(super) fn car_fields(
    record: &Record,
    names: &CarFieldNames,
    warnings: &mut Vec<FieldWarning>,
) -> CarFields {
    let mut warn = |field: &str, what: &str, value: &str| {
        warnings.push(FieldWarning {
            field: field.into(),
            message: format!(
                "{what}: «{}» не распознано — не сохранено, у автомобиля остаётся прежнее \
                 значение",
                quoted(value)
            ),
        });
    };
    let mut fields = CarFields::default();
    if let Some((_, value)) = record.first(names.owners) {
        match mapping::owners(&value).filter(|n| *n <= MAX_OWNERS) {
            Some(n) => fields.owners = Some(i64::from(n)),
            None => warn("owners", "Число владельцев", &value),
        }
    }
    if let Some((_, value)) = record.first(names.accident) {
        match mapping::accident(&value) {
            Some(accident) => fields.accident = Some(accident),
            None => warn("accident", "ДТП", &value),
        }
    }
    if let Some((_, value)) = record.first(names.state) {
        match mapping::car_state(&value) {
            Some(state) => fields.state = Some(state),
            // «Новый» in `state` says the condition (`condition.rs`), not a
            // used car's state.
            None if mapping::status(&value).is_some() => {}
            None => warn("state", "Состояние", &value),
        }
    }
    if let Some((_, value)) = record.first(names.wheel) {
        match mapping::wheel(&value) {
            Some(wheel) => fields.wheel = Some(wheel),
            None => warn("wheel", "Руль", &value),
        }
    }
    fields
}
