//! Cars of the catalogue.
//!
//! This file keeps the types (a car, its kinds, the filter and sort); the
//! pieces: `read` (queries), `json` (rows written as JSON), `input` (what an
//! admin sends and its rules), `write` (create, update, delete).

use std::borrow::Cow;

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, Row, params_from_iter};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::money::Money;
use super::text_enum;
use crate::error::{AppError, AppResult};

mod input;
mod json;
mod read;
mod write;

pub use input::*;
pub use json::*;
pub use read::*;
pub use write::*;

text_enum!(
    /// new | used | lease
    CarStatus { New = "new", Used = "used", Lease = "lease" }
);
/// A body type's slug (`sedan`, `minivan`): one of the dealership's own
/// list, the `body_types` table (`docs/catalogue.md`). The spec's six are
/// constants; staff and the importer add more. A slug is latin lower-case
/// letters and digits in words joined by single hyphens, at most 50.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, ToSchema)]
#[serde(transparent)]
#[schema(value_type = String, pattern = "^[a-z0-9]+(-[a-z0-9]+)*$", example = "sedan")]
pub struct BodyType(Cow<'static, str>);

impl BodyType {
    pub const SEDAN: BodyType = BodyType(Cow::Borrowed("sedan"));
    pub const HATCHBACK: BodyType = BodyType(Cow::Borrowed("hatchback"));
    pub const CROSSOVER: BodyType = BodyType(Cow::Borrowed("crossover"));
    pub const WAGON: BodyType = BodyType(Cow::Borrowed("wagon"));
    /// Shown as 'Внедорожник' (`docs/glossary.md`).
    pub const COUPE: BodyType = BodyType(Cow::Borrowed("coupe"));
    pub const PICKUP: BodyType = BodyType(Cow::Borrowed("pickup"));
    /// The spec's six, seeded and never deleted.
    pub const BUILT_IN: [BodyType; 6] = [
        Self::SEDAN,
        Self::HATCHBACK,
        Self::CROSSOVER,
        Self::WAGON,
        Self::COUPE,
        Self::PICKUP,
    ];
    pub const MAX_LEN: usize = 50;

    /// A slug of the right shape (whether the table has it is the caller's
    /// question).
    pub fn parse(code: &str) -> Option<Self> {
        Self::is_slug(code).then(|| BodyType(Cow::Owned(code.to_string())))
    }

    fn is_slug(code: &str) -> bool {
        !code.is_empty()
            && code.len() <= Self::MAX_LEN
            && code.split('-').all(|w| {
                !w.is_empty()
                    && w.bytes()
                        .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit())
            })
    }

    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl std::fmt::Display for BodyType {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for BodyType {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let code = Cow::<str>::deserialize(deserializer)?;
        BodyType::parse(&code).ok_or_else(|| {
            serde::de::Error::custom(format!(
                "body type {code:?}: latin letters, digits and hyphens, at most 50"
            ))
        })
    }
}

impl rusqlite::types::ToSql for BodyType {
    fn to_sql(&self) -> rusqlite::Result<rusqlite::types::ToSqlOutput<'_>> {
        Ok(self.as_str().into())
    }
}

impl rusqlite::types::FromSql for BodyType {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        let text = value.as_str()?;
        // The six are borrowed: no allocation for the common case.
        Ok(Self::BUILT_IN
            .iter()
            .find(|b| b.as_str() == text)
            .cloned()
            .unwrap_or_else(|| BodyType(Cow::Owned(text.to_string()))))
    }
}

text_enum!(
    Transmission { Manual = "manual", Automatic = "automatic", Cvt = "cvt", Robotic = "robotic" }
);
text_enum!(
    Drivetrain { Front = "front", Rear = "rear", All = "all" }
);
text_enum!(
    FuelType { Gasoline = "gasoline", Diesel = "diesel", Hybrid = "hybrid", Electric = "electric", Gas = "gas" }
);

impl CarStatus {
    /// Badge text of the public site.
    pub fn label(self) -> &'static str {
        match self {
            CarStatus::New => "Новый",
            CarStatus::Used => "С пробегом",
            CarStatus::Lease => "Аренда с выкупом",
        }
    }
}

impl Transmission {
    pub fn label(self) -> &'static str {
        match self {
            Transmission::Manual => "Механика",
            Transmission::Automatic => "Автомат",
            Transmission::Cvt => "Вариатор",
            Transmission::Robotic => "Робот",
        }
    }
}

impl Drivetrain {
    pub fn label(self) -> &'static str {
        match self {
            Drivetrain::Front => "Передний",
            Drivetrain::Rear => "Задний",
            Drivetrain::All => "Полный",
        }
    }
}

impl FuelType {
    pub fn label(self) -> &'static str {
        match self {
            FuelType::Gasoline => "Бензин",
            FuelType::Diesel => "Дизель",
            FuelType::Hybrid => "Гибрид",
            FuelType::Electric => "Электро",
            FuelType::Gas => "Газ",
        }
    }
}

#[derive(Debug, Clone, Default, Serialize, Deserialize, ToSchema, PartialEq)]
pub struct TrimLevel {
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub description: String,
    #[serde(default)]
    pub link: String,
}

#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Car {
    pub id: String,
    pub brand_id: String,
    /// The brand's name, 'Unknown' when the brand is missing.
    pub brand_name: String,
    pub brand_slug: String,
    pub name: String,
    pub slug: String,
    pub model: String,
    pub year: i32,
    pub price: Money,
    pub monthly_payment: Option<Money>,
    pub daily_price: Option<Money>,
    pub status: CarStatus,
    pub body_type: BodyType,
    pub transmission: Transmission,
    /// Null: not stated (a feed that names no drive); the car page hides it.
    #[schema(required = true)]
    pub drivetrain: Option<Drivetrain>,
    pub fuel_type: FuelType,
    pub engine: String,
    pub mileage: i64,
    /// URL of the main picture (the 800 px variant); empty when none.
    pub main_image: String,
    /// URLs of all pictures, the main one first.
    pub images: Vec<String>,
    pub has_images: bool,
    pub in_stock: bool,
    pub featured: bool,
    pub trim_levels: Vec<TrimLevel>,
    pub published: bool,
    pub vin: Option<String>,
    pub color: Option<String>,
    pub external_id: Option<String>,
    pub created_at: String,
    pub updated_at: String,
    /// Off the price with a loan from a partner bank (`docs/pricing.md`).
    pub credit_discount: Option<Money>,
    /// Off the price with a trade-in.
    pub tradein_discount: Option<Money>,
    /// Off the price with an insurance policy bought at the dealership.
    pub insurance_discount: Option<Money>,
    /// Cap on the sum of the discounts above.
    pub max_discount: Option<Money>,
    /// The car's own complectation ("Executive"), as a feed names it.
    #[schema(required = true)]
    pub trim: Option<String>,
    /// The model's generation ("III").
    #[schema(required = true)]
    pub generation: Option<String>,
    #[schema(required = true)]
    pub doors: Option<i64>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Deserialize, ToSchema)]
pub enum CarSort {
    #[default]
    #[serde(rename = "newest")]
    Newest,
    #[serde(rename = "price_asc")]
    PriceAsc,
    #[serde(rename = "price_desc")]
    PriceDesc,
}

impl CarSort {
    pub fn parse(code: &str) -> Option<CarSort> {
        match code {
            "newest" => Some(CarSort::Newest),
            "price_asc" => Some(CarSort::PriceAsc),
            "price_desc" => Some(CarSort::PriceDesc),
            _ => None,
        }
    }

    fn order_by(self) -> &'static str {
        match self {
            // rowid breaks ties: unique, and in every index.
            CarSort::Newest => "c.created_at DESC, c.rowid DESC",
            CarSort::PriceAsc => "c.price_kopecks ASC, c.rowid",
            CarSort::PriceDesc => "c.price_kopecks DESC, c.rowid",
        }
    }
}

/// Which cars a list shows. Empty fields do not filter.
#[derive(Debug, Clone, Default)]
pub struct CarFilter {
    pub statuses: Vec<CarStatus>,
    pub brand_id: Option<String>,
    pub body_type: Option<BodyType>,
    pub featured: Option<bool>,
    pub in_stock: Option<bool>,
    pub min_price: Option<Money>,
    pub max_price: Option<Money>,
    pub model: Option<String>,
    /// Admin lists also show drafts.
    pub include_drafts: bool,
    pub sort: CarSort,
}

pub const DEFAULT_LIMIT: u32 = 12;
pub const MAX_LIMIT: u32 = 100;

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]

    use super::*;

    /// The columns of [`SELECT`] in the order [`from_row`] and [`CarView`] read them.
    const COLUMNS: [&str; 35] = [
        "id",
        "brand_id",
        "brand_name",
        "brand_slug",
        "name",
        "slug",
        "model",
        "year",
        "price_kopecks",
        "monthly_payment_kopecks",
        "daily_price_kopecks",
        "status",
        "body_type",
        "transmission",
        "drivetrain",
        "fuel_type",
        "engine",
        "mileage",
        "in_stock",
        "featured",
        "trim_levels",
        "published",
        "vin",
        "color",
        "external_id",
        "created_at",
        "updated_at",
        "images",
        "credit_discount_kopecks",
        "tradein_discount_kopecks",
        "insurance_discount_kopecks",
        "max_discount_kopecks",
        "trim",
        "generation",
        "doors",
    ];

    #[test]
    fn from_row_reads_the_columns_of_select_in_order() {
        let mut conn = Connection::open_in_memory().unwrap();
        crate::db::migrate(&mut conn).unwrap();
        let stmt = conn.prepare(SELECT).unwrap();
        assert_eq!(stmt.column_names(), COLUMNS);
    }
}
