//! Admin calls for each car's fate and figures on the marketplaces and the
//! site (`docs/marketplaces.md`, "What the admin shows"): a car's ads and
//! chart, the refused ads, the cars nobody calls about.

use axum::Json;
use axum::extract::{Path, State};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::car_figures::{self, CarDay, MAX_CHART_DAYS, QuietCar};
use crate::domain::marketplace_ads::{self, CarAd, RefusedAd};
use crate::domain::{cars, settings};
use crate::error::{AppError, AppResult};
use crate::http::extract::ApiQuery;
use crate::http::openapi::ApiErrorBody;
use crate::http::public::cars::CAR_NOT_FOUND;
use crate::http::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(car_marketplaces))
        .routes(routes!(refused_ads))
        .routes(routes!(quiet_cars))
}

/// The chart's period.
#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ChartQuery {
    /// Days ending today (Moscow), 1 to 400; default 30.
    #[param(minimum = 1, maximum = 400)]
    pub days: Option<u32>,
}

/// The days' field and its refusal.
pub const DAYS_FIELD: &str = "days";
pub const DAYS_RANGE: &str = "Период графика — от 1 до 400 дней";

/// A car on the marketplaces and the site.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CarMarketplaces {
    /// Its ad on each marketplace, as the last report said.
    pub ads: Vec<CarAd>,
    /// Its figures per channel and day (days without any are left out).
    pub days: Vec<CarDay>,
}

/// A car's ads on each marketplace and its figures per channel and day
/// over the last `days` days.
#[utoipa::path(get, path = "/api/admin/cars/{id}/marketplaces", tag = "admin", params(ChartQuery),
    responses((status = 200, body = CarMarketplaces), (status = 404, body = ApiErrorBody),
        (status = 422, body = ApiErrorBody)))]
pub async fn car_marketplaces(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<ChartQuery>,
) -> AppResult<Json<CarMarketplaces>> {
    let days = query.days.unwrap_or(30);
    if !(1..=MAX_CHART_DAYS).contains(&days) {
        return Err(AppError::invalid(DAYS_FIELD, DAYS_RANGE));
    }
    let today = state.clock.moscow_today();
    state
        .db
        .call(move |c| {
            if cars::get(c, &id, true)?.is_none() {
                return Ok(None);
            }
            Ok(Some(CarMarketplaces {
                ads: marketplace_ads::for_car(c, &id)?,
                days: car_figures::car_days(c, &id, days, today)?,
            }))
        })
        .await?
        .map(Json)
        .ok_or_else(|| AppError::not_found(CAR_NOT_FOUND))
}

/// The ads a marketplace refused, with their car and the marketplace's own
/// words, newest report first.
#[utoipa::path(get, path = "/api/admin/marketplaces/refused", tag = "admin",
    responses((status = 200, body = Vec<RefusedAd>)))]
pub async fn refused_ads(State(state): State<AppState>) -> AppResult<Json<Vec<RefusedAd>>> {
    Ok(Json(
        state
            .db
            .call(|c| marketplace_ads::refused(c, false))
            .await?,
    ))
}

/// The cars nobody calls about, with the settings they were found by.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QuietCars {
    /// The days looked back over (`quietCarDays`).
    pub days: i64,
    /// The views from which a car with no contact is listed (`quietCarViews`).
    pub min_views: i64,
    /// The first [`QUIET_SHOWN`]: the most seen without a contact first.
    pub cars: Vec<QuietCar>,
    /// How many cars are quiet in all.
    pub total: usize,
}

/// The quiet cars an answer lists at most (a new site with thousands of cars
/// and no figures yet would list them all).
pub const QUIET_SHOWN: usize = 50;

/// «Смотрят, но не звонят»: the published cars in stock seen at least
/// `quietCarViews` times with no contact and no call over the last
/// `quietCarDays` days (every channel), then those seen fewer than 5 times
/// though on the site for the whole period; each with its price and days in
/// stock. At most 50 are listed; `total` counts them all.
#[utoipa::path(get, path = "/api/admin/marketplaces/quiet", tag = "admin",
    responses((status = 200, body = QuietCars)))]
pub async fn quiet_cars(State(state): State<AppState>) -> AppResult<Json<QuietCars>> {
    let (today, now) = (state.clock.moscow_today(), state.clock.now());
    let quiet = state
        .db
        .call(move |c| {
            let s = settings::get(c)?;
            let mut cars =
                car_figures::quiet_cars(c, s.quiet_car_days, s.quiet_car_views, today, now)?;
            let total = cars.len();
            cars.truncate(QUIET_SHOWN);
            Ok(QuietCars {
                days: s.quiet_car_days,
                min_views: s.quiet_car_views,
                cars,
                total,
            })
        })
        .await?;
    Ok(Json(quiet))
}
