//! The cars the marketplace feeds leave out, and why, for the admin
//! (`docs/admin.md`, "Why a car is not on a marketplace"): one car's reasons
//! for its edit screen, and every published car in stock a feed leaves out
//! for the parser screen. The rules are the feeds' own
//! (`parser::export::left_out`).

use rusqlite::Connection;
use serde::Serialize;
use utoipa::ToSchema;

use crate::domain::cars::{self, Car};
use crate::domain::settings;
use crate::error::AppResult;
use crate::marketplaces::Channel;
use crate::parser::export;

/// The most cars [`all`] lists; the counts are exact whatever their number.
pub const MAX_LISTED: usize = 500;

/// A marketplace a feed publishes to, as these answers name it: avito |
/// autoru. (`marketplaces::Channel` shares its OpenAPI name with the lead
/// notifications' channel, so the answers here name their own.)
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum Marketplace {
    Avito,
    Autoru,
}

/// Why a car is left out of one marketplace's feed.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, ToSchema)]
pub struct MarketplaceLeftOut {
    pub channel: Marketplace,
    /// Each missing or unplaceable value, in staff's words («нет VIN»).
    pub reasons: Vec<String>,
}

/// The feeds' reasons of a car ([`export::left_out`]), in these answers'
/// words.
fn reasons_of(
    car: &Car,
    settings: &settings::Settings,
    labels: &export::BodyLabels,
) -> Vec<MarketplaceLeftOut> {
    export::left_out(car, settings, labels)
        .into_iter()
        .filter_map(|l| {
            let channel = match l.channel {
                Channel::Avito => Marketplace::Avito,
                Channel::Autoru => Marketplace::Autoru,
                Channel::Site => return None,
            };
            Some(MarketplaceLeftOut {
                channel,
                reasons: l.reasons,
            })
        })
        .collect()
}

/// The feeds a car is left out of, with the reasons; empty when every feed
/// takes it (or no feed lists it: a draft, a car out of stock, a lease);
/// `None` for an unknown car.
pub fn of_car(conn: &Connection, id: &str) -> AppResult<Option<Vec<MarketplaceLeftOut>>> {
    let Some(car) = cars::get(conn, id, true)? else {
        return Ok(None);
    };
    let settings = settings::get(conn)?;
    let labels = export::body_labels(conn)?;
    Ok(Some(reasons_of(&car, &settings, &labels)))
}

/// A car some feed leaves out.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LeftOutCar {
    pub id: String,
    /// Brand, name and year («Haval Jolion 2024»).
    pub name: String,
    pub slug: String,
    pub left_out: Vec<MarketplaceLeftOut>,
}

/// How many cars one marketplace's feed leaves out.
#[derive(Debug, Serialize, ToSchema)]
pub struct LeftOutCount {
    pub channel: Marketplace,
    pub count: usize,
}

/// The published cars in stock the feeds leave out.
#[derive(Debug, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LeftOutList {
    /// Per marketplace (Avito, then Auto.ru), exact.
    pub counts: Vec<LeftOutCount>,
    /// Cars left out of at least one feed, exact.
    pub total: usize,
    /// The first [`MAX_LISTED`] of them, in the catalogue's order.
    pub cars: Vec<LeftOutCar>,
}

/// Every published car in stock for sale that a feed leaves out.
pub fn all(conn: &Connection) -> AppResult<LeftOutList> {
    let (stock, settings, labels) = export::load(conn)?;
    let mut counts =
        [Marketplace::Avito, Marketplace::Autoru].map(|channel| LeftOutCount { channel, count: 0 });
    let mut total = 0;
    let mut cars = Vec::new();
    for car in &stock {
        let left_out = reasons_of(car, &settings, &labels);
        if left_out.is_empty() {
            continue;
        }
        for item in &left_out {
            if let Some(count) = counts.iter_mut().find(|c| c.channel == item.channel) {
                count.count += 1;
            }
        }
        total += 1;
        if cars.len() < MAX_LISTED {
            cars.push(LeftOutCar {
                id: car.id.clone(),
                name: format!("{} {} {}", car.brand_name, car.name, car.year),
                slug: car.slug.clone(),
                left_out,
            });
        }
    }
    Ok(LeftOutList {
        counts: counts.into(),
        total,
        cars,
    })
}
