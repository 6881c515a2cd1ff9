//! What a feed is read into: its format, a car with its discounts and the
//! warnings its fields earned, a refused row, and the limits.

use crate::domain::cars::{CarState, CarStatus, Drivetrain, FuelType, Transmission, Wheel};
use crate::domain::money::Money;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

crate::domain::text_enum!(
    /// autoru | avito | csv
    FeedFormat { Autoru = "autoru", Avito = "avito", Csv = "csv" }
);

/// Conditional discounts as Auto.ru carries them (`docs/pricing.md`).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct Discounts {
    pub credit: Option<Money>,
    pub tradein: Option<Money>,
    pub insurance: Option<Money>,
    pub max: Option<Money>,
}

/// What a car's feed leaves unstated: the car imports, and the preview
/// shows the warning (`docs/parser.md`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct FieldWarning {
    /// drivetrain | engine | power | trim | vin | discount | photos | owners |
    /// accident | state | wheel
    pub field: String,
    pub message: String,
}

/// The marketplaces' car fields a record states (`car_fields.rs`): owners
/// by ПТС, an accident, the state, the wheel; `None`: not stated.
#[derive(Debug, Default)]
pub(super) struct CarFields {
    pub(super) owners: Option<i64>,
    pub(super) accident: Option<bool>,
    pub(super) state: Option<CarState>,
    pub(super) wheel: Option<Wheel>,
}

/// One usable car of a feed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct FeedCar {
    /// CSV line or XML element number.
    pub row: u32,
    /// The line of the file the car starts on.
    #[serde(default)]
    pub line: u32,
    pub external_id: Option<String>,
    pub vin: Option<String>,
    pub brand: String,
    pub model: String,
    /// Model and trim ("GX Executive"), or the model.
    pub name: String,
    /// The complectation ("Executive").
    #[serde(default)]
    pub trim: Option<String>,
    /// The generation ("III").
    #[serde(default)]
    pub generation: Option<String>,
    #[serde(default)]
    pub doors: Option<i64>,
    pub year: i32,
    pub price: Money,
    /// What the record says of the condition: Some when it states it
    /// (section / CarType / Condition / the CSV status) or shows it
    /// decisively (see docs/parser.md, "Condition"); None: nothing to go on,
    /// the feed's default applies when the run is planned.
    pub status: Option<CarStatus>,
    /// The feed's body word ("Внедорожник 5 дв."), resolved against the
    /// dealership's body types when the run is planned.
    #[serde(alias = "body_type")]
    pub body: String,
    pub transmission: Transmission,
    /// None: not stated.
    pub drivetrain: Option<Drivetrain>,
    pub fuel_type: FuelType,
    pub engine: String,
    /// Kilometres; 0 when the record carries no mileage.
    pub mileage: i64,
    /// Whether the record carries a mileage element at all.
    #[serde(default)]
    pub mileage_stated: bool,
    /// What in the record looks used, in Russian, for the preview's warning
    /// when the car would be published as new: «пробег 45 000 км»,
    /// «владельцев: Два владельца», «2007 год выпуска», «„с пробегом“ в описании».
    #[serde(default)]
    pub used_signs: Vec<String>,
    pub color: Option<String>,
    /// Picture URLs in order; empty: the feed carries none (the car's own
    /// pictures are kept).
    pub photos: Vec<String>,
    /// `None`: the format carries no discounts (the car's are kept).
    pub discounts: Option<Discounts>,
    /// Owners by the vehicle passport (Auto.ru `owners_number`, Avito
    /// `Owners`, the CSV `owners`); `None`: not stated.
    #[serde(default)]
    pub owners: Option<i64>,
    /// Avito `Accident`, the CSV `accident`; `None`: not stated.
    #[serde(default)]
    pub accident: Option<bool>,
    /// Auto.ru `state`, the CSV `state`; `None`: not stated.
    #[serde(default)]
    pub state: Option<CarState>,
    /// Auto.ru `wheel`, Avito `WheelType`, the CSV `wheel`; `None`: not stated.
    #[serde(default)]
    pub wheel: Option<Wheel>,
    #[serde(default)]
    pub warnings: Vec<FieldWarning>,
}

impl FeedCar {
    /// The feed's external id, else the VIN.
    pub fn key(&self) -> String {
        self.external_id
            .clone()
            .or_else(|| self.vin.clone())
            .unwrap_or_default()
    }

    pub fn title(&self) -> String {
        format!("{} {} {}", self.brand, self.name, self.year)
    }
}

/// A row the import cannot use, and why.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RowError {
    /// CSV line, or the XML record's number (1 = the first `<car>`/`<Ad>`).
    pub row: u32,
    /// The line of the file the row starts on.
    pub line: u32,
    /// The feed's field name, when one field is wrong.
    pub field: Option<String>,
    pub message: String,
}

/// A document that cannot be used at all.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[error("{0}")]
pub struct FeedError(pub String);

#[derive(Debug, Clone, Default)]
pub struct Parsed {
    pub format: Option<FeedFormat>,
    pub cars: Vec<FeedCar>,
    pub errors: Vec<RowError>,
}

/// Longest external id, as `cars.external_id` allows.
pub(super) const MAX_EXTERNAL_ID: usize = 100;
pub const MAX_PHOTOS: usize = crate::domain::cars::MAX_IMAGES;

/// The deepest a record's content may go: levels below the `<car>`/`<Ad>`
/// element (`images/image` is 2). Deeper content is a row error, skipped
/// unread (`docs/parser.md`, "Limits and hostile input").
pub const MAX_RECORD_DEPTH: usize = 8;
/// The deepest an XML feed's elements may go outside its records: deeper,
/// the whole feed is refused.
pub const MAX_DOCUMENT_DEPTH: usize = 64;
/// The largest record (from `<car>` to `</car>`, or a CSV row), in bytes:
/// larger is a row error, and nothing more of it is kept.
pub const MAX_RECORD_BYTES: usize = 1024 * 1024;
/// The values of one field kept in a record (photos are `images/image`
/// each): more are counted, not kept.
pub const MAX_VALUES_PER_FIELD: usize = 100;
/// The distinct fields kept in a record: more are not kept.
pub const MAX_RECORD_FIELDS: usize = 500;
/// The longest field path kept ("images/image", "Images/Image@url").
pub const MAX_FIELD_PATH: usize = 200;
