//! The site's stock as marketplace feeds, one file a feed: `avito.rs`
//! (Avito Autoload XML), `autoru.rs` (Auto.ru dealer XML, all cars or one
//! section), `yandex.rs` (Yandex YML for vehicles). Published cars in stock
//! for sale (never drafts, lease cars or cars out of stock), with absolute
//! photo URLs and the dealership's contacts. Each marketplace's feed carries
//! every element it requires in its own dictionaries' words
//! (`dictionaries.rs`); a car that cannot be completed is left out of that
//! feed, with the reasons (`gaps.rs`) shown on the car in the admin
//! (`docs/parser.md`, "Export").

mod autoru;
mod avito;
mod dictionaries;
mod gaps;
mod write;
mod yandex;

use rusqlite::Connection;

pub use autoru::{Section, autoru};
pub use avito::avito;
pub use dictionaries::{autoru_color, avito_color};
pub use gaps::{LeftOut, autoru_gaps, avito_gaps, left_out, listed};
pub use write::{BodyLabels, feed_id};
pub use yandex::yandex;

use crate::domain::cars::{self, Car, CarFilter};
use crate::domain::settings::{self, Settings};
use crate::error::AppResult;

/// The cars every feed lists, each with at most the limits' trim levels and
/// pictures (`cars::MAX_TRIM_LEVELS`, `docs/catalogue.md`), whatever a row
/// holds: one car can make a feed only so large.
pub fn stock(conn: &Connection) -> AppResult<Vec<Car>> {
    let all = cars::list_all(conn, &CarFilter::default())?;
    Ok(all.into_iter().filter(listed).map(Car::bounded).collect())
}

/// The three feeds' data: stock, settings and body labels, read in one go.
/// The settings carry the salons when there are several (each car's
/// contacts in the Avito feed).
pub fn load(conn: &Connection) -> AppResult<(Vec<Car>, Settings, BodyLabels)> {
    let mut settings = settings::get(conn)?;
    settings.public.salons = crate::domain::salons::public(conn, &settings, "")?;
    Ok((stock(conn)?, settings, body_labels(conn)?))
}

/// Every body type's single label, by slug.
pub fn body_labels(conn: &Connection) -> AppResult<BodyLabels> {
    Ok(crate::domain::body_types::list(conn)?
        .into_iter()
        .map(|t| (t.body_type.to_string(), t.label_single))
        .collect())
}
