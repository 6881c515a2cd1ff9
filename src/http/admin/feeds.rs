//! Admin calls of a dealer's feeds (`docs/parser.md`, "Several feeds"):
//! list, add, change, delete and order them. A feed's imports are
//! `/api/admin/imports` (with its `feedId`).

use axum::Json;
use axum::extract::{Path, State};
use axum::http::StatusCode;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::audited;
use crate::domain::audit::{AuditAction, AuditObject, NewEntry, change};
use crate::domain::form::{Field, Form, Kind};
use crate::domain::imports::{self, FEED_NOT_FOUND, Feed, FeedInput, SourceKind};
use crate::error::{AppError, AppResult};
use crate::http::auth::Admin;
use crate::http::extract::FormJson;
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;
use crate::parser;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(list_feeds, create_feed))
        .routes(routes!(update_feed, delete_feed))
        .routes(routes!(order_feeds))
}

#[derive(Serialize, ToSchema)]
pub struct FeedList {
    pub items: Vec<Feed>,
}

impl Form for FeedInput {
    const FIELDS: &'static [Field] = &[
        Field::required("name", Kind::Text, "Укажите название фида"),
        Field::required("kind", Kind::Code, "Выберите, откуда берётся фид"),
        Field::optional("url", Kind::Text),
        Field::optional("intervalHours", Kind::Integer)
            .invalid("Интервал — целое число часов от 0 до 168"),
        Field::optional("condition", Kind::Code),
        Field::optional("salonId", Kind::Integer).invalid(crate::domain::salons::NO_SUCH_SALON),
    ];
}

/// The feeds' order: every feed's id once, the first wins.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct FeedOrder {
    pub ids: Vec<String>,
}

impl Form for FeedOrder {
    const FIELDS: &'static [Field] = &[Field::required(
        "ids",
        Kind::List,
        "Передайте порядок фидов",
    )];
}

/// A URL the parser may fetch (the SSRF rule), checked when it is saved.
fn check_source(state: &AppState, input: &FeedInput) -> AppResult<()> {
    if input.kind == SourceKind::Url
        && let Some(url) = input
            .url
            .as_deref()
            .map(str::trim)
            .filter(|u| !u.is_empty())
        && (url.starts_with("http://") || url.starts_with("https://"))
        && let Err(err) = parser::fetch::check_url(url, state.config.parser.allow_private_hosts)
    {
        return Err(AppError::invalid("url", err.to_string()));
    }
    Ok(())
}

fn described(feed: &Feed) -> Vec<crate::domain::audit::Change> {
    vec![
        change("name", None, Some(feed.name.clone())),
        change("source", None, Some(feed.source.clone())),
        change("intervalHours", None, Some(feed.interval_hours.to_string())),
        change("condition", None, Some(feed.condition.as_str().to_string())),
    ]
}

/// The feeds in their order, each with the cars it lists now.
#[utoipa::path(get, path = "/api/admin/feeds", tag = "admin",
    responses((status = 200, body = FeedList), (status = 401, body = ApiErrorBody)))]
pub async fn list_feeds(State(state): State<AppState>) -> AppResult<Json<FeedList>> {
    let items = state.db.call(|c| imports::list_feeds(c)).await?;
    Ok(Json(FeedList { items }))
}

/// Adds a feed at the end of the list.
#[utoipa::path(post, path = "/api/admin/feeds", tag = "admin", request_body = FeedInput,
    responses((status = 201, body = Feed), (status = 409, body = ApiErrorBody),
        (status = 422, body = ApiErrorBody)))]
pub async fn create_feed(
    State(state): State<AppState>,
    admin: Admin,
    FormJson(input): FormJson<FeedInput>,
) -> AppResult<(StatusCode, Json<Feed>)> {
    check_source(&state, &input)?;
    let feed = audited(&state, &admin, move |c| {
        let feed = imports::create_feed(c, &input)?;
        let entry = NewEntry::new(
            AuditAction::Create,
            AuditObject::Import,
            Some(&feed.id),
            format!("Добавлен фид «{}»", feed.name),
        )
        .with_changes(described(&feed));
        Ok((feed, Some(entry)))
    })
    .await?;
    Ok((StatusCode::CREATED, Json(feed)))
}

/// Changes a feed's name, address, schedule or condition.
#[utoipa::path(put, path = "/api/admin/feeds/{id}", tag = "admin", request_body = FeedInput,
    responses((status = 200, body = Feed), (status = 404, body = ApiErrorBody),
        (status = 409, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn update_feed(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    FormJson(input): FormJson<FeedInput>,
) -> AppResult<Json<Feed>> {
    check_source(&state, &input)?;
    audited(&state, &admin, move |c| {
        let Some(before) = imports::get_feed(c, &id)? else {
            return Ok((None, None));
        };
        let Some(after) = imports::update_feed(c, &id, &input)? else {
            return Ok((None, None));
        };
        let changes = described(&before)
            .into_iter()
            .zip(described(&after))
            .filter(|(a, b)| a.to != b.to)
            .map(|(a, b)| change(&a.field, a.to, b.to))
            .collect();
        let entry = NewEntry::new(
            AuditAction::Update,
            AuditObject::Import,
            Some(&id),
            format!("Изменён фид «{}»", after.name),
        )
        .with_changes(changes);
        Ok((Some(after), Some(entry)))
    })
    .await?
    .map(Json)
    .ok_or_else(|| AppError::not_found(FEED_NOT_FOUND))
}

/// Deletes a feed: its cars stay as they are, its history stays (without
/// the feed).
#[utoipa::path(delete, path = "/api/admin/feeds/{id}", tag = "admin",
    responses((status = 204), (status = 404, body = ApiErrorBody)))]
pub async fn delete_feed(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    let found = audited(&state, &admin, move |c| {
        let deleted = imports::delete_feed(c, &id)?;
        let entry = deleted.as_ref().map(|feed| {
            NewEntry::new(
                AuditAction::Delete,
                AuditObject::Import,
                Some(&id),
                format!("Удалён фид «{}»; его машины остались как были", feed.name),
            )
        });
        Ok((deleted.is_some(), entry))
    })
    .await?;
    if found {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(AppError::not_found(FEED_NOT_FOUND))
    }
}

/// Puts the feeds in a new order: for a car two feeds list, the values of
/// the one placed higher win.
#[utoipa::path(put, path = "/api/admin/feeds/order", tag = "admin", request_body = FeedOrder,
    responses((status = 200, body = FeedList), (status = 422, body = ApiErrorBody)))]
pub async fn order_feeds(
    State(state): State<AppState>,
    admin: Admin,
    FormJson(order): FormJson<FeedOrder>,
) -> AppResult<Json<FeedList>> {
    let items = audited(&state, &admin, move |c| {
        let before: Vec<String> = imports::list_feeds(c)?
            .into_iter()
            .map(|f| f.name)
            .collect();
        let items = imports::reorder_feeds(c, &order.ids)?;
        let after: Vec<String> = items.iter().map(|f| f.name.clone()).collect();
        let entry = NewEntry::new(
            AuditAction::Update,
            AuditObject::Import,
            None,
            "Изменён порядок фидов",
        )
        .with_changes(vec![change(
            "order",
            Some(before.join(", ")),
            Some(after.join(", ")),
        )]);
        Ok((items, Some(entry)))
    })
    .await?;
    Ok(Json(FeedList { items }))
}
