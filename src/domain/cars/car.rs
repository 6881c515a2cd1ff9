//! A car as the site shows it: its kinds (status, gearbox, drive, fuel),
//! its trim levels, the card a list shows (`CarBrief`), and what a list
//! filters and sorts by.

use crate::domain::body_types::BodyType;
use crate::domain::credit_payment::CreditRule;
use crate::domain::money::Money;
use crate::domain::text_enum;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

text_enum!(
    /// new | used | lease
    CarStatus { New = "new", Used = "used", Lease = "lease" }
);
text_enum!(
    Transmission { Manual = "manual", Automatic = "automatic", Cvt = "cvt", Robotic = "robotic" }
);
text_enum!(
    Drivetrain { Front = "front", Rear = "rear", All = "all" }
);
text_enum!(
    /// A used car's state, as Auto.ru's `state` grades it.
    CarState { Excellent = "excellent", Good = "good", Average = "average", NeedsRepair = "needs_repair" }
);
text_enum!(
    /// The steering wheel's side.
    Wheel { Left = "left", Right = "right" }
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

impl CarState {
    /// The admin form's words, and Auto.ru's `state` values in lower case.
    pub fn label(self) -> &'static str {
        match self {
            CarState::Excellent => "Отличное",
            CarState::Good => "Хорошее",
            CarState::Average => "Среднее",
            CarState::NeedsRepair => "Требует ремонта",
        }
    }
}

// `text_enum!` derives a fixed list, without `Default`.
#[allow(clippy::derivable_impls)]
impl Default for Wheel {
    fn default() -> Self {
        Wheel::Left
    }
}

impl Wheel {
    pub fn label(self) -> &'static str {
        match self {
            Wheel::Left => "Левый",
            Wheel::Right => "Правый",
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

/// The most pictures a car has (`car_images.position` is 0 to 5).
pub const MAX_IMAGES: usize = 6;
/// The most trim levels a car has: a card never shows them, the car page and
/// the feeds show at most this many (`docs/catalogue.md`, "Limits of a car").
pub const MAX_TRIM_LEVELS: usize = 20;
/// Longest name, description and link of one trim level, in characters.
pub const MAX_TRIM_NAME: usize = 100;
pub const MAX_TRIM_DESCRIPTION: usize = 500;
pub const MAX_TRIM_LINK: usize = 500;
/// The refusal of a list of more than [`MAX_TRIM_LEVELS`] trim levels.
pub const TOO_MANY_TRIM_LEVELS: &str = "Не больше 20 комплектаций";

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
    /// «от … ₽/мес». A lease car: the payment its admin typed. A new or used
    /// car: on the public site, the credit calculator's first figure from the
    /// programmes valid today, whole rubles (null with none); in the admin's
    /// reads, null (it stores none: `docs/pricing.md`).
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
    /// Owners by the vehicle passport (ПТС); null: not stated. A new car
    /// has none.
    #[schema(required = true)]
    pub owners: Option<i64>,
    /// Whether the car was in an accident; null: not stated.
    #[schema(required = true)]
    pub accident: Option<bool>,
    /// A used car's state; null: not stated.
    #[schema(required = true)]
    pub state: Option<CarState>,
    pub wheel: Wheel,
    /// The salon it stands in (`docs/salons.md`); absent: the main salon.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub salon_id: Option<i64>,
}

impl Car {
    /// The car with the monthly figure the public sees (`CreditRule::shown`).
    pub fn shown(mut self, rule: &CreditRule) -> Car {
        self.monthly_payment = rule.shown(
            self.status == CarStatus::Lease,
            self.monthly_payment,
            self.price,
            self.credit_discount,
            self.max_discount,
        );
        self
    }

    /// The car as a public page or a feed shows it: at most
    /// [`MAX_TRIM_LEVELS`] trim levels and [`MAX_IMAGES`] pictures, whatever
    /// a row holds (one stored before the limits, or written behind the API).
    pub fn bounded(mut self) -> Car {
        self.trim_levels.truncate(MAX_TRIM_LEVELS);
        self.images.truncate(MAX_IMAGES);
        self
    }
}

/// What a car's card shows, and all a public list carries of a car: no trim
/// levels, no VIN, no import keys or dates (`docs/catalogue.md`, "Lists carry
/// cards"). The car page reads the whole [`Car`].
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CarBrief {
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
    /// «от … ₽/мес». A lease car: the payment its admin typed. A new or used
    /// car: on the public site, the credit calculator's first figure from the
    /// programmes valid today, whole rubles (null with none); in the admin's
    /// reads, null (it stores none: `docs/pricing.md`).
    pub monthly_payment: Option<Money>,
    pub daily_price: Option<Money>,
    pub status: CarStatus,
    pub body_type: BodyType,
    pub transmission: Transmission,
    /// Null: not stated.
    #[schema(required = true)]
    pub drivetrain: Option<Drivetrain>,
    pub fuel_type: FuelType,
    pub engine: String,
    pub mileage: i64,
    /// URL of the main picture (the 800 px variant); empty when none.
    pub main_image: String,
    /// The card's gallery: at most six URLs, the main one first.
    pub images: Vec<String>,
    pub has_images: bool,
    pub in_stock: bool,
    pub featured: bool,
    pub credit_discount: Option<Money>,
    pub tradein_discount: Option<Money>,
    pub insurance_discount: Option<Money>,
    pub max_discount: Option<Money>,
    #[schema(required = true)]
    pub trim: Option<String>,
    #[schema(required = true)]
    pub generation: Option<String>,
    #[schema(required = true)]
    pub doors: Option<i64>,
    /// Optional in the document as in [`Car`]'s, so a car is a card.
    pub color: Option<String>,
    /// The salon it stands in; absent: the main salon.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub salon_id: Option<i64>,
}

impl From<Car> for CarBrief {
    fn from(car: Car) -> CarBrief {
        let car = car.bounded();
        CarBrief {
            id: car.id,
            brand_id: car.brand_id,
            brand_name: car.brand_name,
            brand_slug: car.brand_slug,
            name: car.name,
            slug: car.slug,
            model: car.model,
            year: car.year,
            price: car.price,
            monthly_payment: car.monthly_payment,
            daily_price: car.daily_price,
            status: car.status,
            body_type: car.body_type,
            transmission: car.transmission,
            drivetrain: car.drivetrain,
            fuel_type: car.fuel_type,
            engine: car.engine,
            mileage: car.mileage,
            main_image: car.main_image,
            images: car.images,
            has_images: car.has_images,
            in_stock: car.in_stock,
            featured: car.featured,
            credit_discount: car.credit_discount,
            tradein_discount: car.tradein_discount,
            insurance_discount: car.insurance_discount,
            max_discount: car.max_discount,
            trim: car.trim,
            generation: car.generation,
            doors: car.doors,
            color: car.color,
            salon_id: car.salon_id,
        }
    }
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

    pub(super) fn order_by(self) -> &'static str {
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
    /// One salon's cars (1: the main's).
    pub salon: Option<i64>,
    /// Admin lists also show drafts.
    pub include_drafts: bool,
    pub sort: CarSort,
}

pub const DEFAULT_LIMIT: u32 = 12;
pub const MAX_LIMIT: u32 = 100;
