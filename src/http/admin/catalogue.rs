//! Admin calls for cars and brands.

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use chrono::Datelike;
use serde::{Deserialize, Serialize};
use utoipa::{IntoParams, ToSchema};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::audited;
use super::resource::Resource;
use crate::domain::audit::{self, AuditAction, AuditObject, NewEntry};
use crate::domain::brands::{self, Brand, BrandInput};
use crate::domain::cars::{
    self, AdminCar, AdminCarFilter, AdminCarSort, Car, CarChange, CarInput, CarStats, CarStatus,
};
use crate::domain::form::{Field, Form, Kind};
use crate::domain::left_out::{self, MarketplaceLeftOut};
use crate::domain::price_changes::{self, BAD_PERCENT, PriceChange, Undone};
use crate::error::{AppError, AppResult};
use crate::http::auth::Admin;
use crate::http::extract::{ApiQuery, FormJson, MAX_OFFSET, paging};
use crate::http::openapi::ApiErrorBody;
use crate::http::public::brands::BRAND_NOT_FOUND;
use crate::http::public::cars::CAR_NOT_FOUND;
use crate::http::state::AppState;

/// Car and brand reads and writes for admins.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_cars))
        .routes(routes!(get_car))
        .routes(routes!(car_left_out))
        .routes(routes!(create_car))
        .routes(routes!(update_car, delete_car))
        .routes(routes!(bulk_prices))
        .routes(routes!(set_publication))
        .routes(routes!(list_price_changes))
        .routes(routes!(undo_bulk_prices))
        .routes(routes!(list_brands))
        .routes(routes!(create_brand))
        .routes(routes!(update_brand, delete_brand))
}

fn current_year() -> i32 {
    chrono::Utc::now().year()
}

fn car_not_found() -> AppError {
    AppError::not_found(CAR_NOT_FOUND)
}

const BRANDS: Resource<Brand, BrandInput> = Resource {
    object: AuditObject::Brand,
    created: "Добавлена марка",
    updated: "Изменена марка",
    deleted: "Удалена марка",
    gone: BRAND_NOT_FOUND,
    name: |b| b.name.clone(),
    named_after_change: false,
    id: |b| &b.id,
    get: |c, id, _| brands::get(c, id),
    create: |c, input, _| brands::create(c, input),
    update: |c, id, input, _| brands::update(c, id, input),
    delete: brands::delete,
};

/// Query of the admin cars list.
#[derive(Debug, Deserialize, IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct AdminCarQuery {
    /// Words to find in the brand's name, the car's name, model or year
    /// (any case, Cyrillic too); every word must be found.
    pub q: Option<String>,
    /// From 1 (the default).
    #[param(minimum = 1, maximum = 2147483647)]
    pub page: Option<u32>,
    /// 1 to 100, default 24.
    #[param(minimum = 1, maximum = 100)]
    pub per_page: Option<u32>,
    /// all (default), new, used or lease.
    #[param(pattern = "^(|all|new|used|lease)$")]
    pub condition: Option<String>,
    /// all (default), true (published) or false (drafts).
    #[param(pattern = "^(|all|true|false)$")]
    pub published: Option<String>,
    /// newest (default), views or contacts: most viewed or most asked about
    /// over the last 30 days, every channel.
    #[param(pattern = "^(|newest|views|contacts)$")]
    pub sort: Option<String>,
}

pub const DEFAULT_PER_PAGE: u32 = 24;
pub const MAX_PER_PAGE: u32 = 100;

/// One page of the admin cars list.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminCarPage {
    pub items: Vec<AdminCar>,
    /// Cars matching the query.
    pub total: i64,
    pub page: u32,
    pub per_page: u32,
    /// Pages of `perPage` cars for `total`; 0 when nothing matches.
    pub pages: u32,
    /// Counts of all cars, whatever the query.
    pub stats: CarStats,
}

fn parse_condition(code: Option<&str>) -> AppResult<Option<CarStatus>> {
    match code {
        None | Some("") | Some("all") => Ok(None),
        Some(code) => CarStatus::parse(code).map(Some).ok_or_else(|| {
            AppError::BadRequest(format!(
                "Неизвестное значение параметра «condition»: «{code}»"
            ))
        }),
    }
}

fn parse_published(code: Option<&str>) -> AppResult<Option<bool>> {
    match code {
        None | Some("") | Some("all") => Ok(None),
        Some("true") => Ok(Some(true)),
        Some("false") => Ok(Some(false)),
        Some(code) => Err(AppError::BadRequest(format!(
            "Неизвестное значение параметра «published»: «{code}»"
        ))),
    }
}

/// Cars, drafts included, newest first (or by their 30-day views or
/// contacts), searched, filtered and paged on the server, each with its
/// 30-day figures, with the counts of all cars. Never cached.
#[utoipa::path(get, path = "/api/admin/cars", tag = "admin", params(AdminCarQuery),
    responses((status = 200, body = AdminCarPage), (status = 400, body = ApiErrorBody),
        (status = 401, body = ApiErrorBody)))]
pub async fn list_cars(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<AdminCarQuery>,
) -> AppResult<Json<AdminCarPage>> {
    let filter = AdminCarFilter {
        words: AdminCarFilter::search(query.q.as_deref().unwrap_or_default()),
        status: parse_condition(query.condition.as_deref())?,
        published: parse_published(query.published.as_deref())?,
    };
    let sort = AdminCarSort::parse(query.sort.as_deref().unwrap_or_default()).ok_or_else(|| {
        AppError::BadRequest(format!(
            "Неизвестное значение параметра «sort»: «{}»",
            query.sort.as_deref().unwrap_or_default()
        ))
    })?;
    let per_page = paging(
        "perPage",
        query.per_page,
        DEFAULT_PER_PAGE,
        1..=MAX_PER_PAGE,
    )?;
    let page = paging("page", query.page, 1, 1..=MAX_OFFSET)?;
    let offset = (page - 1).saturating_mul(per_page);
    let (items, total, stats) = state
        .db
        .call(move |c| {
            let (items, total) = cars::admin_page(c, &filter, sort, per_page, offset)?;
            Ok((items, total, cars::stats(c)?))
        })
        .await?;
    let pages = u32::try_from(total.max(0))
        .unwrap_or(u32::MAX)
        .div_ceil(per_page);
    Ok(Json(AdminCarPage {
        items,
        total,
        page,
        per_page,
        pages,
        stats,
    }))
}

/// A car, draft or published, for the edit dialog.
#[utoipa::path(get, path = "/api/admin/cars/{id}", tag = "admin",
    responses((status = 200, body = Car), (status = 404, body = ApiErrorBody), (status = 401, body = ApiErrorBody)))]
pub async fn get_car(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> AppResult<Json<Car>> {
    state
        .db
        .call(move |c| cars::get(c, &id, true))
        .await?
        .map(Json)
        .ok_or_else(car_not_found)
}

/// The marketplace feeds that leave a car out, each with its reasons
/// (`docs/admin.md`, "Why a car is not on a marketplace"); empty when every
/// feed takes it or none lists it.
#[utoipa::path(get, path = "/api/admin/cars/{id}/left-out", tag = "admin",
    responses((status = 200, body = [MarketplaceLeftOut]), (status = 404, body = ApiErrorBody), (status = 401, body = ApiErrorBody)))]
pub async fn car_left_out(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> AppResult<Json<Vec<MarketplaceLeftOut>>> {
    state
        .db
        .call(move |c| left_out::of_car(c, &id))
        .await?
        .map(Json)
        .ok_or_else(car_not_found)
}

fn car_label(car: &Car) -> String {
    format!("{} {}", car.brand_name, car.name)
}

#[utoipa::path(post, path = "/api/cars", tag = "admin", request_body = CarInput,
    responses((status = 201, body = Car), (status = 409, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn create_car(
    State(state): State<AppState>,
    admin: Admin,
    FormJson(input): FormJson<CarInput>,
) -> AppResult<(StatusCode, Json<Car>)> {
    let car = audited(&state, &admin, move |c| {
        let car = cars::create(c, &input, current_year())?;
        let summary = format!("Добавлен автомобиль: {}", car_label(&car));
        let entry = NewEntry::created(AuditObject::Car, &car.id, summary, &car);
        Ok((car, Some(entry)))
    })
    .await?;
    Ok((StatusCode::CREATED, Json(car)))
}

/// What a car's change was, in a few words.
fn car_update_summary(before: &Car, entry: &NewEntry) -> String {
    let fields: Vec<&str> = entry.changes.iter().map(|c| c.field.as_str()).collect();
    let what = match fields.as_slice() {
        ["price"] => "Изменена цена",
        ["published"] if before.published => "Снят с публикации автомобиль",
        ["published"] => "Опубликован автомобиль",
        [] => "Сохранён без изменений автомобиль",
        _ => "Изменён автомобиль",
    };
    format!("{what}: {}", car_label(before))
}

/// Changes a car. An optional field left out of the body keeps its stored
/// value (`externalId`, `vin`, a discount, the pictures...); only `null` or
/// an empty value clears it.
#[utoipa::path(put, path = "/api/cars/{id}", tag = "admin", request_body = CarInput,
    responses((status = 200, body = Car), (status = 404, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn update_car(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    FormJson(change): FormJson<CarChange>,
) -> AppResult<Json<Car>> {
    audited(&state, &admin, move |c| {
        let Some(before) = cars::get(c, &id, true)? else {
            return Ok((None, None));
        };
        let input = change.over(&before)?;
        let Some(after) = cars::update(c, &id, &input, current_year())? else {
            return Ok((None, None));
        };
        let mut entry = NewEntry::updated(AuditObject::Car, &id, "", &before, &after);
        entry.summary = car_update_summary(&before, &entry);
        Ok((Some(after), Some(entry)))
    })
    .await?
    .map(Json)
    .ok_or_else(car_not_found)
}

#[utoipa::path(delete, path = "/api/cars/{id}", tag = "admin",
    responses((status = 204), (status = 404, body = ApiErrorBody)))]
pub async fn delete_car(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    let found = audited(&state, &admin, move |c| {
        let Some(before) = cars::get(c, &id, true)? else {
            return Ok((false, None));
        };
        cars::delete(c, &id)?;
        let summary = format!("Удалён автомобиль: {}", car_label(&before));
        Ok((
            true,
            Some(NewEntry::deleted(AuditObject::Car, &id, summary, &before)),
        ))
    })
    .await?;
    if found {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(car_not_found())
    }
}

/// Cars to publish or to take off the site, chosen in the admin list.
#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct PublicationInput {
    /// The cars' ids, 1 to 500.
    #[schema(min_items = 1, max_items = 500)]
    pub ids: Vec<String>,
    /// true to publish, false to take off the site (a draft).
    pub published: bool,
}

impl Form for PublicationInput {
    const FIELDS: &'static [Field] = &[
        Field::required("ids", Kind::Lines, cars::NO_CARS_CHOSEN),
        Field::required(
            "published",
            Kind::Bool,
            "Укажите, опубликовать автомобили или снять с публикации",
        ),
    ];
}

/// What a publication change did.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublicationAnswer {
    /// Cars whose publication changed (each has its audit entry).
    pub changed_count: usize,
    /// Chosen cars that already were as asked.
    pub unchanged_count: usize,
}

/// Publishes or unpublishes the chosen cars, all or none, in one
/// transaction; each car changed gets its audit entry, as when its form is
/// saved. Refused whole (422, field `ids`) for no ids, more than 500, an
/// unknown one, or a car at 0 ₽ to publish.
#[utoipa::path(post, path = "/api/admin/cars/publication", tag = "admin",
    request_body = PublicationInput,
    responses((status = 200, body = PublicationAnswer), (status = 422, body = ApiErrorBody)))]
pub async fn set_publication(
    State(state): State<AppState>,
    admin: Admin,
    FormJson(input): FormJson<PublicationInput>,
) -> AppResult<Json<PublicationAnswer>> {
    let username = admin.user.username.clone();
    let at = crate::notify::timestamp(state.clock.now());
    let answer = state
        .db
        .call(move |c| {
            audit::audited_at(c, &at, &username, |c| {
                let changed = cars::set_published(c, &input.ids, input.published)?;
                for (before, after) in &changed {
                    let mut entry =
                        NewEntry::updated(AuditObject::Car, &before.id, "", before, after);
                    entry.summary = car_update_summary(before, &entry);
                    audit::record_at(c, &at, &username, entry)?;
                }
                let chosen: std::collections::HashSet<&String> = input.ids.iter().collect();
                Ok((
                    PublicationAnswer {
                        changed_count: changed.len(),
                        unchanged_count: chosen.len() - changed.len(),
                    },
                    None,
                ))
            })
        })
        .await?;
    Ok(Json(answer))
}

#[derive(Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct BulkPriceInput {
    /// 1 + p/100 to raise, 1 - p/100 to lower; a number or a decimal string.
    /// 1 (0%) is refused.
    #[schema(value_type = String, example = "1.05")]
    pub price_multiplier: serde_json::Value,
    /// The admin list's search: only the cars it finds change.
    pub q: Option<String>,
    /// The admin list's condition filter: all (default), new, used or lease.
    pub condition: Option<String>,
    /// The admin list's publication filter: all (default), true or false.
    pub published: Option<String>,
}

impl Form for BulkPriceInput {
    const FIELDS: &'static [Field] = &[
        Field::required("priceMultiplier", Kind::Number, BAD_PERCENT).invalid(BAD_PERCENT),
        Field::optional("q", Kind::Text),
        Field::optional("condition", Kind::Text),
        Field::optional("published", Kind::Text),
    ];
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct BulkPriceAnswer {
    /// Cars whose price changed.
    pub updated_count: usize,
    /// The change's audit entry: `POST /api/cars/prices/bulk/{id}/undo`
    /// puts the earlier prices back.
    pub audit_id: i64,
    /// The audit entry's summary (percent, count, search and filters).
    pub summary: String,
}

/// Scales the price of every car the admin list's search and filters find
/// (all cars without them) by an exact decimal factor. The prices it
/// replaced are kept for one undo.
#[utoipa::path(put, path = "/api/cars/prices/bulk", tag = "admin", request_body = BulkPriceInput,
    responses((status = 200, body = BulkPriceAnswer), (status = 400, body = ApiErrorBody),
        (status = 422, body = ApiErrorBody)))]
pub async fn bulk_prices(
    State(state): State<AppState>,
    admin: Admin,
    FormJson(input): FormJson<BulkPriceInput>,
) -> AppResult<Json<BulkPriceAnswer>> {
    let refused = || AppError::invalid("priceMultiplier", BAD_PERCENT);
    // A JSON number's shortest text is exact for the factors people type.
    let factor = match &input.price_multiplier {
        serde_json::Value::Number(n) => n.to_string(),
        serde_json::Value::String(s) => s.trim().to_string(),
        _ => return Err(refused()),
    };
    let value = factor.parse::<f64>().ok().filter(|f| f.is_finite());
    if !value.is_some_and(|f| f > 0.0) || factor.contains(['e', 'E', '-', '+']) {
        return Err(refused());
    }
    if price_changes::is_one(&factor) {
        return Err(AppError::invalid(
            "priceMultiplier",
            price_changes::ZERO_PERCENT,
        ));
    }
    let filter = AdminCarFilter {
        words: AdminCarFilter::search(input.q.as_deref().unwrap_or_default()),
        status: parse_condition(input.condition.as_deref())?,
        published: parse_published(input.published.as_deref())?,
    };
    let username = admin.user.username.clone();
    let at = crate::notify::timestamp(state.clock.now());
    let answer = state
        .db
        .call(move |c| {
            audit::audited_at(c, &at, &username, |c| {
                let changed = price_changes::scale(c, &filter, &factor)?;
                let percent = price_changes::factor_percent(&factor);
                let scope = filter.describe();
                let mut summary = format!(
                    "Массовое изменение цен на {percent}: {}",
                    price_changes::cars_count(changed.len())
                );
                if !scope.is_empty() {
                    summary.push_str(&format!(" ({scope})"));
                }
                let entry = NewEntry::new(
                    AuditAction::BulkPrice,
                    AuditObject::Car,
                    None,
                    summary.clone(),
                )
                .with_changes(vec![
                    audit::change("priceMultiplier", None, Some(factor.clone())),
                    audit::change("updatedCount", None, Some(changed.len().to_string())),
                ]);
                let audit_id = audit::record_at(c, &at, &username, entry)?;
                price_changes::keep(c, audit_id, &changed)?;
                Ok((
                    BulkPriceAnswer {
                        updated_count: changed.len(),
                        audit_id,
                        summary,
                    },
                    None,
                ))
            })
        })
        .await?;
    Ok(Json(answer))
}

/// The latest bulk price changes that can still be undone, newest first
/// (at most 5).
#[utoipa::path(get, path = "/api/admin/price-changes", tag = "admin",
    responses((status = 200, body = [PriceChange]), (status = 401, body = ApiErrorBody)))]
pub async fn list_price_changes(
    State(state): State<AppState>,
) -> AppResult<Json<Vec<PriceChange>>> {
    Ok(Json(
        state.db.call(|c| price_changes::undoable(c, 5)).await?,
    ))
}

/// Puts back the prices a bulk change replaced, where nobody changed them
/// since; once (409 after). Audited.
#[utoipa::path(post, path = "/api/cars/prices/bulk/{id}/undo", tag = "admin",
    params(("id" = i64, Path, description = "The bulk change's audit entry")),
    responses((status = 200, body = Undone), (status = 404, body = ApiErrorBody),
        (status = 409, body = ApiErrorBody)))]
pub async fn undo_bulk_prices(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> AppResult<Json<Undone>> {
    let id: i64 = id
        .parse()
        .map_err(|_| AppError::not_found(price_changes::NOT_FOUND))?;
    let undone = audited(&state, &admin, move |c| {
        let undone = price_changes::undo(c, id)?;
        let original: String =
            c.query_row("SELECT summary FROM audit_log WHERE id = ?1", [id], |r| {
                r.get(0)
            })?;
        let mut summary = format!(
            "Отменено: {original}. Возвращены цены: {}",
            price_changes::cars_count(undone.restored_count)
        );
        if undone.skipped_count > 0 {
            summary.push_str(&format!(
                "; не тронуты изменённые с тех пор: {}",
                price_changes::cars_count(undone.skipped_count)
            ));
        }
        let entry = NewEntry::new(AuditAction::BulkPrice, AuditObject::Car, None, summary)
            .with_changes(vec![
                audit::change("undoes", None, Some(id.to_string())),
                audit::change(
                    "restoredCount",
                    None,
                    Some(undone.restored_count.to_string()),
                ),
            ]);
        Ok((undone, Some(entry)))
    })
    .await?;
    Ok(Json(undone))
}

#[utoipa::path(get, path = "/api/admin/brands", tag = "admin", responses((status = 200, body = [Brand])))]
pub async fn list_brands(State(state): State<AppState>) -> AppResult<Json<Vec<Brand>>> {
    Ok(Json(state.db.call(|c| brands::list_for_admin(c)).await?))
}

#[utoipa::path(post, path = "/api/brands", tag = "admin", request_body = BrandInput,
    responses((status = 201, body = Brand), (status = 409, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn create_brand(
    State(state): State<AppState>,
    admin: Admin,
    FormJson(input): FormJson<BrandInput>,
) -> AppResult<(StatusCode, Json<Brand>)> {
    BRANDS.create(&state, &admin, input).await
}

#[utoipa::path(put, path = "/api/brands/{id}", tag = "admin", request_body = BrandInput,
    responses((status = 200, body = Brand), (status = 404, body = ApiErrorBody), (status = 409, body = ApiErrorBody)))]
pub async fn update_brand(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    FormJson(input): FormJson<BrandInput>,
) -> AppResult<Json<Brand>> {
    BRANDS.update(&state, &admin, id, input).await
}

/// Refused with 409 while the brand has cars.
#[utoipa::path(delete, path = "/api/brands/{id}", tag = "admin",
    responses((status = 204), (status = 404, body = ApiErrorBody), (status = 409, body = ApiErrorBody)))]
pub async fn delete_brand(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    BRANDS.delete(&state, &admin, id).await
}
