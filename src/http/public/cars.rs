//! Public car lists and pages.

use std::sync::Arc;

use axum::extract::{Path, State};
use axum::http::{HeaderValue, header};
use axum::response::{IntoResponse, Response};
use axum::{Extension, Json};
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::car_index::CarIndex;
use crate::domain::cars::{self, BodyType, Car, CarBrief, CarFilter, CarSort, CarStatus};
use crate::domain::credit_payment::CreditRule;
use crate::domain::money::Money;
use crate::error::{AppError, AppResult};
use crate::http::cache::ContentVersion;
use crate::http::extract::{ApiQuery, MAX_OFFSET, paging};
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;

/// The car lists, the count and a car's page data: cached public reads.
pub fn routes() -> OpenApiRouter<AppState> {
    super::only_declared_params(
        OpenApiRouter::new()
            .routes(routes!(list_fast))
            .routes(routes!(count))
            .routes(routes!(by_slug))
            .routes(routes!(by_slugs))
            .routes(routes!(images))
            .routes(routes!(by_brand))
            .routes(routes!(by_body_type)),
    )
}

/// Filters shared by the car lists and the count.
#[derive(Debug, Default, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct CarQuery {
    /// Only featured cars ('Popular models') when true.
    pub featured: Option<bool>,
    /// One status or several separated by commas: new, used, lease; all
    /// (or empty): every status.
    #[param(pattern = "^(|all|(new|used|lease)(,(new|used|lease))*)$")]
    pub status: Option<String>,
    pub brand_id: Option<String>,
    /// A body type's slug (sedan, hatchback, crossover, wagon, coupe,
    /// pickup or one the dealership added); all (or empty): every type.
    #[param(pattern = "^(|all|[a-z0-9]+(-[a-z0-9]+)*)$", max_length = 50)]
    pub body_type: Option<String>,
    /// Highest price in rubles, kopecks after a point or a comma.
    #[param(pattern = "^([0-9]{1,15}([.,][0-9]{1,2})?)?$")]
    pub max_price: Option<String>,
    /// Lowest price in rubles, kopecks after a point or a comma.
    #[param(pattern = "^([0-9]{1,15}([.,][0-9]{1,2})?)?$")]
    pub min_price: Option<String>,
    pub in_stock: Option<bool>,
    /// Exact model name.
    pub model: Option<String>,
    /// One salon's cars (1: the main salon; `docs/salons.md`).
    #[param(minimum = 1, maximum = 2147483647)]
    pub salon: Option<i64>,
    /// newest (default), price_asc or price_desc.
    #[param(pattern = "^(|newest|price_asc|price_desc)$")]
    pub sort: Option<String>,
    /// Page size, default 12, 1 to 100.
    #[param(minimum = 1, maximum = 100)]
    pub limit: Option<u32>,
    /// Cars to skip, default 0.
    #[param(minimum = 0, maximum = 2147483647)]
    pub offset: Option<u32>,
}

impl CarQuery {
    pub fn filter(&self) -> AppResult<CarFilter> {
        let mut statuses = Vec::new();
        for code in self.status.iter().flat_map(|s| s.split(',')) {
            let code = code.trim();
            if code.is_empty() || code == "all" {
                continue;
            }
            statuses.push(
                CarStatus::parse(code)
                    .ok_or_else(|| AppError::BadRequest(format!("Неизвестный статус «{code}»")))?,
            );
        }
        // In the query an unknown code is a bad parameter (400); in the path
        // (`/api/cars/body-type/{bodyType}/fast`) a page not found (404).
        let body_type = match self.body_type.as_deref() {
            None | Some("") | Some("all") => None,
            Some(code) => Some(BodyType::parse(code).ok_or_else(|| {
                AppError::BadRequest(format!(
                    "Неверный параметр запроса «bodyType»: неизвестный тип кузова «{code}»"
                ))
            })?),
        };
        let price = |value: &Option<String>, name: &str| -> AppResult<Option<Money>> {
            match value.as_deref() {
                None | Some("") => Ok(None),
                Some(text) => Money::parse(text).map(Some).map_err(|_| {
                    AppError::BadRequest(format!(
                        "Неверный параметр запроса «{name}»: ожидается цена, а не «{text}»"
                    ))
                }),
            }
        };
        let sort = match self.sort.as_deref() {
            None | Some("") => CarSort::Newest,
            Some(code) => CarSort::parse(code)
                .ok_or_else(|| AppError::BadRequest(format!("Неизвестная сортировка «{code}»")))?,
        };
        Ok(CarFilter {
            statuses,
            brand_id: self
                .brand_id
                .clone()
                .filter(|b| !b.is_empty() && b != "all"),
            body_type,
            featured: self.featured,
            in_stock: self.in_stock,
            min_price: price(&self.min_price, "minPrice")?,
            max_price: price(&self.max_price, "maxPrice")?,
            model: self.model.clone().filter(|m| !m.is_empty()),
            salon: crate::domain::salons::checked_salon(self.salon)?,
            include_drafts: false,
            sort,
        })
    }

    /// `limit` and `offset`, checked against their documented bounds.
    pub fn page(&self) -> AppResult<(u32, u32)> {
        Ok((
            paging(
                "limit",
                self.limit,
                cars::DEFAULT_LIMIT,
                1..=cars::MAX_LIMIT,
            )?,
            paging("offset", self.offset, 0, 0..=MAX_OFFSET)?,
        ))
    }
}

/// 404 text for a car that does not exist or is not published.
pub const CAR_NOT_FOUND: &str = "Автомобиль не найден";

pub fn parse_body_type(code: &str) -> AppResult<BodyType> {
    BodyType::parse(code)
        .ok_or_else(|| AppError::not_found(format!("Неизвестный тип кузова «{code}»")))
}

/// A JSON answer encoded already (as `Json` would have encoded it).
pub struct JsonBytes(pub Vec<u8>);

impl IntoResponse for JsonBytes {
    fn into_response(self) -> Response {
        (
            [(
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            )],
            self.0,
        )
            .into_response()
    }
}

/// The catalogue in memory for a public list, when the answer cache told the
/// version and the catalogue is small enough to hold.
async fn held(
    state: &AppState,
    filter: &CarFilter,
    version: Option<Extension<ContentVersion>>,
) -> AppResult<Option<Arc<CarIndex>>> {
    match version {
        Some(Extension(ContentVersion(version))) if !filter.include_drafts => {
            let today = state.clock.moscow_today();
            state.catalogue.at(version, today, &state.db).await
        }
        _ => Ok(None),
    }
}

/// A page of cars: from the catalogue in memory, or encoded on the database
/// thread straight from the rows.
async fn list_with(
    state: &AppState,
    filter: CarFilter,
    query: &CarQuery,
    version: Option<Extension<ContentVersion>>,
) -> AppResult<JsonBytes> {
    let (limit, offset) = query.page()?;
    if let Some(index) = held(state, &filter, version).await? {
        return Ok(JsonBytes(index.page_json(&filter, limit, offset)));
    }
    let today = state.clock.moscow_today();
    let list = state
        .db
        .read(move |c| {
            let rule = CreditRule::today(c, today)?;
            cars::list_json(c, &filter, limit, offset, &rule)
        })
        .await?;
    Ok(JsonBytes(list))
}

/// Published cars, newest first, a page at a time.
#[utoipa::path(get, operation_id = "cars_list_fast", path = "/api/cars/fast", tag = "cars", params(CarQuery),
    responses((status = 200, body = [CarBrief]), (status = 400, body = ApiErrorBody)))]
pub async fn list_fast(
    State(state): State<AppState>,
    version: Option<Extension<ContentVersion>>,
    ApiQuery(query): ApiQuery<CarQuery>,
) -> AppResult<JsonBytes> {
    let filter = query.filter()?;
    list_with(&state, filter, &query, version).await
}

#[derive(Serialize, ToSchema)]
pub struct CountAnswer {
    pub count: i64,
}

/// How many published cars match the filters.
#[utoipa::path(get, path = "/api/cars/count", tag = "cars", params(CarQuery),
    responses((status = 200, body = CountAnswer), (status = 400, body = ApiErrorBody)))]
pub async fn count(
    State(state): State<AppState>,
    version: Option<Extension<ContentVersion>>,
    ApiQuery(query): ApiQuery<CarQuery>,
) -> AppResult<Json<CountAnswer>> {
    // Paging does not change a count, but its bounds hold here too.
    query.page()?;
    let filter = query.filter()?;
    if let Some(index) = held(&state, &filter, version).await? {
        return Ok(Json(CountAnswer {
            count: index.count(&filter),
        }));
    }
    let count = state.db.call(move |c| cars::count(c, &filter)).await?;
    Ok(Json(CountAnswer { count }))
}

/// A published car by its slug: the whole record, with at most the limits'
/// trim levels and pictures (`docs/catalogue.md`, "Limits of a car").
#[utoipa::path(get, operation_id = "car_by_slug", path = "/api/cars/slug/{slug}", tag = "cars",
    responses((status = 200, body = Car), (status = 404, body = ApiErrorBody)))]
pub async fn by_slug(
    State(state): State<AppState>,
    Path(slug): Path<String>,
) -> AppResult<Json<Car>> {
    let today = state.clock.moscow_today();
    state
        .db
        .call(move |c| {
            let rule = CreditRule::today(c, today)?;
            Ok(cars::get_by_slug(c, &slug, false)?.map(|car| car.shown(&rule)))
        })
        .await?
        .map(|car| Json(car.bounded()))
        .ok_or_else(|| AppError::not_found(CAR_NOT_FOUND))
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CarImages {
    pub main_image: String,
    pub images: Vec<String>,
}

/// The pictures of a published car.
#[utoipa::path(get, path = "/api/cars/{id}/images", tag = "cars",
    responses((status = 200, body = CarImages), (status = 404, body = ApiErrorBody)))]
pub async fn images(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> AppResult<Json<CarImages>> {
    let car = state
        .db
        .call(move |c| cars::get(c, &id, false))
        .await?
        .ok_or_else(|| AppError::not_found(CAR_NOT_FOUND))?
        .bounded();
    Ok(Json(CarImages {
        main_image: car.main_image,
        images: car.images,
    }))
}

/// Published cars of one brand.
#[utoipa::path(get, path = "/api/cars/brand/{brandId}/fast", tag = "cars", params(CarQuery),
    responses((status = 200, body = [CarBrief]), (status = 400, body = ApiErrorBody)))]
pub async fn by_brand(
    State(state): State<AppState>,
    Path(brand_id): Path<String>,
    version: Option<Extension<ContentVersion>>,
    ApiQuery(query): ApiQuery<CarQuery>,
) -> AppResult<JsonBytes> {
    let mut filter = query.filter()?;
    filter.brand_id = Some(brand_id);
    list_with(&state, filter, &query, version).await
}

/// Published cars of one body type.
#[utoipa::path(get, path = "/api/cars/body-type/{bodyType}/fast", tag = "cars", params(CarQuery),
    responses((status = 200, body = [CarBrief]), (status = 404, body = ApiErrorBody)))]
pub async fn by_body_type(
    State(state): State<AppState>,
    Path(body_type): Path<String>,
    version: Option<Extension<ContentVersion>>,
    ApiQuery(query): ApiQuery<CarQuery>,
) -> AppResult<JsonBytes> {
    let mut filter = query.filter()?;
    let body = parse_body_type(&body_type)?;
    let known = body.clone();
    if !state
        .db
        .read(move |c| crate::domain::body_types::exists(c, &known))
        .await?
    {
        return Err(AppError::not_found(format!(
            "Неизвестный тип кузова «{body_type}»"
        )));
    }
    filter.body_type = Some(body);
    list_with(&state, filter, &query, version).await
}

/// Most cars one `by-slugs` request may name.
pub const MAX_SLUGS: usize = 20;

/// The refusal of an empty or too long list of slugs.
pub const SLUGS_COUNT: &str = "Укажите от 1 до 20 автомобилей";

#[derive(Debug, Deserialize, IntoParams)]
#[into_params(parameter_in = Query)]
pub struct SlugsQuery {
    /// Car slugs separated by commas, 1 to 20.
    #[param(pattern = "^[a-z0-9]+(-[a-z0-9]+)*(,[a-z0-9]+(-[a-z0-9]+)*){0,19}$")]
    pub slugs: String,
}

#[derive(Serialize, ToSchema)]
pub struct CarsBySlugs {
    /// The published cars among the slugs, in the order asked, as cards.
    pub items: Vec<CarBrief>,
    /// Slugs of cars that are unpublished, deleted or never were.
    pub missing: Vec<String>,
}

/// Published cars by their slugs, for favourites and compare: what a
/// visitor's browser kept may since have been unpublished or deleted, and
/// is then named in `missing`.
#[utoipa::path(get, operation_id = "cars_by_slugs", path = "/api/cars/by-slugs", tag = "cars",
    params(SlugsQuery),
    responses((status = 200, body = CarsBySlugs), (status = 400, body = ApiErrorBody)))]
pub async fn by_slugs(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<SlugsQuery>,
) -> AppResult<Json<CarsBySlugs>> {
    let mut slugs: Vec<String> = Vec::new();
    for slug in query.slugs.split(',') {
        let slug = slug.trim();
        if !slug.is_empty() && !slugs.iter().any(|s| s == slug) {
            slugs.push(slug.to_string());
        }
    }
    if slugs.is_empty() || slugs.len() > MAX_SLUGS {
        return Err(AppError::BadRequest(SLUGS_COUNT.into()));
    }
    let today = state.clock.moscow_today();
    let answer = state
        .db
        .call(move |c| {
            let rule = CreditRule::today(c, today)?;
            let mut items = Vec::new();
            let mut missing = Vec::new();
            for slug in slugs {
                match cars::get_by_slug(c, &slug, false)? {
                    Some(car) => items.push(CarBrief::from(car.shown(&rule))),
                    None => missing.push(slug),
                }
            }
            Ok(CarsBySlugs { items, missing })
        })
        .await?;
    Ok(Json(answer))
}
