//! Admin calls of the inventory parser (`docs/parser.md`): imports (preview,
//! the condition chosen for a whole preview, apply, discard) and their
//! reports; the feeds (`feeds.rs` beside this file) and the exported feeds'
//! addresses.

use axum::Json;
use axum::extract::multipart::MultipartError;
use axum::extract::{FromRequest, Multipart, Path, Request, State};
use axum::http::{StatusCode, header};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::audited;
use crate::domain::audit::{AuditAction, AuditObject, NewEntry};
use crate::domain::cars::CarStatus;
use crate::domain::form::{Field, Form, Kind};
use crate::domain::imports::{
    self, FEED_NOT_FOUND, FIRST_ITEMS, Feed, ImportRun, ImportRunSummary, MAX_PAGE_ITEMS,
    ReportList, ReportPage, RunSource, RunTrigger, SourceKind,
};
use crate::domain::left_out::{self, LeftOutList};
use crate::error::{AppError, AppResult};
use crate::http::auth::Admin;
use crate::http::extract::{ApiQuery, FormJson, MAX_OFFSET, paging};
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;
use crate::parser;

/// The import that takes a feed file: its own body limit (the router's).
pub fn upload_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(start_import, list_imports))
}

/// The other parser calls.
pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_import, discard_import))
        .routes(routes!(report_items))
        .routes(routes!(apply_import))
        .routes(routes!(choose_condition))
        .routes(routes!(parser_settings))
        .routes(routes!(feeds_left_out))
        .merge(super::feeds::routes())
}

pub const RUN_NOT_FOUND: &str = "Импорт не найден";

/// A feed's import now: a feed by its id (a URL feed is fetched), or a URL
/// once (its feed is found by the URL, or made).
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportByUrl {
    #[serde(default)]
    pub feed_id: Option<String>,
    #[serde(default)]
    pub url: Option<String>,
}

impl Form for ImportByUrl {
    const FIELDS: &'static [Field] = &[
        Field::optional("feedId", Kind::Text),
        Field::optional("url", Kind::Text),
    ];
}

/// Which runs to list.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
#[into_params(parameter_in = Query)]
pub struct ImportListQuery {
    /// Only this feed's runs.
    #[serde(default)]
    pub feed_id: Option<String>,
}

/// The condition every car of a preview takes.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ChosenCondition {
    /// new | used | lease; null: each car's own (its record, else the
    /// feed's default).
    pub condition: Option<CarStatus>,
}

impl Form for ChosenCondition {
    const FIELDS: &'static [Field] = &[Field::optional("condition", Kind::Code)];
}

#[derive(Serialize, ToSchema)]
pub struct ImportList {
    pub items: Vec<ImportRunSummary>,
}

fn too_large(state: &AppState) -> AppError {
    AppError::PayloadTooLarge(parser::too_large_message(&state.config))
}

fn multipart_error(state: &AppState, err: MultipartError) -> AppError {
    if err.status() == StatusCode::PAYLOAD_TOO_LARGE {
        too_large(state)
    } else {
        AppError::BadRequest(format!("Не удалось прочитать файл: {}", err.body_text()))
    }
}

/// Reads the `file` part (refused as soon as it passes the limit) and the
/// `feedId` part when there is one.
async fn read_file(
    state: &AppState,
    request: Request,
) -> AppResult<(Option<String>, String, Vec<u8>)> {
    let mut multipart = Multipart::from_request(request, state).await.map_err(|_| {
        AppError::BadRequest("Ожидается форма «multipart/form-data» с полем «file»".into())
    })?;
    let limit = usize::try_from(state.config.parser.max_feed_bytes).unwrap_or(usize::MAX);
    let mut feed_id = None;
    let mut file = None;
    while let Some(mut field) = multipart
        .next_field()
        .await
        .map_err(|e| multipart_error(state, e))?
    {
        match field.name() {
            Some("feedId") => {
                let text = field.text().await.map_err(|e| multipart_error(state, e))?;
                feed_id = crate::domain::non_empty(Some(text.trim().chars().take(100).collect()));
            }
            Some("file") if file.is_none() => {
                let name = field.file_name().unwrap_or("feed").to_string();
                let mut bytes = Vec::new();
                while let Some(chunk) =
                    field.chunk().await.map_err(|e| multipart_error(state, e))?
                {
                    if bytes.len() + chunk.len() > limit {
                        return Err(too_large(state));
                    }
                    bytes.extend_from_slice(&chunk);
                }
                file = Some((name, bytes));
            }
            _ => {}
        }
    }
    match file {
        Some((name, bytes)) => Ok((feed_id, name, bytes)),
        None => Err(AppError::invalid("file", "Выберите файл фида")),
    }
}

async fn feed_by_id(state: &AppState, id: String) -> AppResult<Feed> {
    state
        .db
        .call(move |c| imports::get_feed(c, &id))
        .await?
        .ok_or_else(|| AppError::invalid("feedId", FEED_NOT_FOUND))
}

/// Starts an import of a feed: a multipart `file` (Auto.ru XML, Avito XML
/// or CSV, told apart by content) with an optional `feedId` (without one,
/// the file feed of that file's name, made when there is none), or JSON
/// `{"feedId"}` (a URL feed, fetched) or `{"url"}` (that URL's feed, made
/// when there is none). Answers the preview (a dry run: nothing in the
/// catalogue changes), or a failed run with its reason.
#[utoipa::path(post, path = "/api/admin/imports", tag = "admin",
    request_body(content = ImportByUrl, content_type = "application/json",
        description = "`{feedId}` or `{url}`, or multipart/form-data with the field `file` (and `feedId`)"),
    responses((status = 200, body = ImportRun), (status = 400, body = ApiErrorBody),
        (status = 409, body = ApiErrorBody), (status = 413, body = ApiErrorBody),
        (status = 422, body = ApiErrorBody)))]
pub async fn start_import(
    State(state): State<AppState>,
    admin: Admin,
    request: Request,
) -> AppResult<Json<ImportRun>> {
    let multipart = request
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("multipart/form-data"));
    let run = if multipart {
        let (feed_id, name, bytes) = read_file(&state, request).await?;
        let name: String = name.chars().take(255).collect();
        let source = RunSource {
            kind: SourceKind::File,
            name: name.clone(),
        };
        let feed = match feed_id {
            Some(id) => {
                let feed = feed_by_id(&state, id).await?;
                let (id, file) = (feed.id.clone(), name.clone());
                state
                    .db
                    .call(move |c| imports::note_file(c, &id, &file))
                    .await?;
                feed
            }
            None => {
                state
                    .db
                    .call(move |c| imports::feed_for_source(c, SourceKind::File, &name))
                    .await?
            }
        };
        parser::preview(&state.db, RunTrigger::Manual, feed, source, bytes).await?
    } else {
        let FormJson(body) = FormJson::<ImportByUrl>::from_request(request, &state).await?;
        let feed = match (body.feed_id, crate::domain::non_empty(body.url)) {
            (Some(id), _) => {
                let feed = feed_by_id(&state, id).await?;
                if feed.kind == SourceKind::File {
                    return Err(AppError::invalid(
                        "file",
                        format!("«{}» — фид-файл: выберите файл для загрузки", feed.name),
                    ));
                }
                feed
            }
            (None, Some(url)) => {
                let url = url.trim().to_string();
                if let Err(err) =
                    parser::fetch::check_url(&url, state.config.parser.allow_private_hosts)
                {
                    return Err(AppError::invalid("url", err.to_string()));
                }
                if url.chars().count() > imports::MAX_FEED_URL {
                    return Err(AppError::invalid(
                        "url",
                        format!("Адрес фида — до {} символов", imports::MAX_FEED_URL),
                    ));
                }
                state
                    .db
                    .call(move |c| imports::feed_for_source(c, SourceKind::Url, &url))
                    .await?
            }
            (None, None) => return Err(AppError::invalid("url", "Укажите адрес фида")),
        };
        if let Err(err) =
            parser::fetch::check_url(&feed.source, state.config.parser.allow_private_hosts)
        {
            return Err(AppError::invalid("url", err.to_string()));
        }
        parser::preview_url(&state.db, &state.config, RunTrigger::Manual, feed).await?
    };
    // The preview changes no car, but who imported what stays on record.
    let entry = preview_entry(&run);
    audited(&state, &admin, move |_| Ok(((), Some(entry)))).await?;
    Ok(Json(run))
}

fn preview_entry(run: &ImportRun) -> NewEntry {
    let s = &run.summary;
    let summary = match &s.error {
        Some(error) => format!("Импорт «{}» не выполнен: {error}", s.source.name),
        None => format!(
            "Предпросмотр импорта фида «{}» ({}): новых {}, изменено {}, снято с публикации {}, \
             строк с ошибками {}",
            s.feed_name.as_deref().unwrap_or("без фида"),
            s.source.name,
            s.counts.new,
            s.counts.changed,
            s.counts.gone,
            s.counts.errors
        ),
    };
    NewEntry::new(
        AuditAction::Create,
        AuditObject::Import,
        Some(&s.id),
        summary,
    )
}

/// The last 50 runs (of one feed with `feedId`), newest first.
#[utoipa::path(get, path = "/api/admin/imports", tag = "admin", params(ImportListQuery),
    responses((status = 200, body = ImportList), (status = 401, body = ApiErrorBody)))]
pub async fn list_imports(
    State(state): State<AppState>,
    ApiQuery(query): ApiQuery<ImportListQuery>,
) -> AppResult<Json<ImportList>> {
    let items = state
        .db
        .call(move |c| imports::list(c, query.feed_id.as_deref()))
        .await?;
    Ok(Json(ImportList { items }))
}

/// A run with its report; `photos` shows the photo fetch's progress.
#[utoipa::path(get, path = "/api/admin/imports/{id}", tag = "admin",
    responses((status = 200, body = ImportRun), (status = 404, body = ApiErrorBody)))]
pub async fn get_import(
    State(state): State<AppState>,
    Path(id): Path<String>,
) -> AppResult<Json<ImportRun>> {
    state
        .db
        .call(move |c| imports::get(c, &id))
        .await?
        .map(Json)
        .ok_or_else(|| AppError::not_found(RUN_NOT_FOUND))
}

/// Which page of which list of a run's report.
#[derive(Debug, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct ReportItemsQuery {
    /// The list: new | changed | unchanged | gone | left | errors |
    /// warnings | photoErrors.
    #[param(pattern = "^(new|changed|unchanged|gone|left|errors|warnings|photoErrors)$")]
    pub list: String,
    /// Items to skip, default 0.
    #[param(minimum = 0, maximum = 2147483647)]
    pub offset: Option<u32>,
    /// Page size, default 100, 1 to 500.
    #[param(minimum = 1, maximum = 500)]
    pub limit: Option<u32>,
}

/// A page of one list of a run's report (the run's answer carries the
/// first 100 items of each list and each list's size): only that list's
/// array holds items.
#[utoipa::path(get, path = "/api/admin/imports/{id}/items", tag = "admin",
    params(ReportItemsQuery),
    responses((status = 200, body = ReportPage), (status = 404, body = ApiErrorBody)))]
pub async fn report_items(
    State(state): State<AppState>,
    Path(id): Path<String>,
    ApiQuery(query): ApiQuery<ReportItemsQuery>,
) -> AppResult<Json<ReportPage>> {
    // The pattern admits only the lists' names (checked before this runs).
    let list = ReportList::parse(&query.list)
        .ok_or_else(|| AppError::BadRequest("Неверный параметр запроса «list»".into()))?;
    let offset = paging("offset", query.offset, 0, 0..=MAX_OFFSET)? as usize;
    let max = u32::try_from(MAX_PAGE_ITEMS).unwrap_or(u32::MAX);
    let first = u32::try_from(FIRST_ITEMS).unwrap_or(max);
    let limit = paging("limit", query.limit, first, 1..=max)? as usize;
    state
        .db
        .call(move |c| imports::report_page(c, &id, list, offset, limit))
        .await?
        .map(Json)
        .ok_or_else(|| AppError::not_found(RUN_NOT_FOUND))
}

/// Applies a preview in one transaction, compared again with the catalogue
/// as it is now; the photos are fetched afterwards, in the background.
#[utoipa::path(post, path = "/api/admin/imports/{id}/apply", tag = "admin",
    responses((status = 200, body = ImportRun), (status = 404, body = ApiErrorBody),
        (status = 409, body = ApiErrorBody)))]
pub async fn apply_import(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> AppResult<Json<ImportRun>> {
    let year = parser::current_year();
    let who = admin.user.username.clone();
    let run = audited(&state, &admin, move |c| {
        let applied = imports::apply(c, &id, year, &who)?;
        let entry = applied.as_ref().map(parser::audit_entry);
        Ok((applied, entry))
    })
    .await?
    .ok_or_else(|| AppError::not_found(RUN_NOT_FOUND));
    parser::give_memory_back().await;
    let run = run?;
    parser::spawn_photos(&state.db, &state.config);
    Ok(Json(run))
}

/// Sets the condition of every car of a preview (`null`: each car's own)
/// and answers the preview compared again.
#[utoipa::path(put, path = "/api/admin/imports/{id}/condition", tag = "admin",
    request_body = ChosenCondition,
    responses((status = 200, body = ImportRun), (status = 404, body = ApiErrorBody),
        (status = 409, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
pub async fn choose_condition(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
    FormJson(body): FormJson<ChosenCondition>,
) -> AppResult<Json<ImportRun>> {
    let chosen = body.condition;
    audited(&state, &admin, move |c| {
        let run = imports::choose_condition(c, &id, chosen)?;
        let entry = run.as_ref().map(|_| {
            NewEntry::new(
                AuditAction::Update,
                AuditObject::Import,
                Some(&id),
                match chosen {
                    Some(status) => format!(
                        "Для всего предпросмотра выбрано состояние «{}»",
                        status.label()
                    ),
                    None => "Состояние машин предпросмотра — по данным фида".to_string(),
                },
            )
        });
        Ok((run, entry))
    })
    .await?
    .map(Json)
    .ok_or_else(|| AppError::not_found(RUN_NOT_FOUND))
}

/// Discards a preview.
#[utoipa::path(delete, path = "/api/admin/imports/{id}", tag = "admin",
    responses((status = 204), (status = 404, body = ApiErrorBody), (status = 409, body = ApiErrorBody)))]
pub async fn discard_import(
    State(state): State<AppState>,
    admin: Admin,
    Path(id): Path<String>,
) -> AppResult<StatusCode> {
    let discarded = audited(&state, &admin, move |c| {
        let found = imports::discard(c, &id)?;
        let entry = found.then(|| {
            NewEntry::new(
                AuditAction::Delete,
                AuditObject::Import,
                Some(&id),
                "Отменён предпросмотр импорта",
            )
        });
        Ok((found, entry))
    })
    .await?;
    if discarded {
        Ok(StatusCode::NO_CONTENT)
    } else {
        Err(AppError::not_found(RUN_NOT_FOUND))
    }
}

/// One feed the site publishes.
#[derive(Serialize, ToSchema)]
pub struct FeedLink {
    pub name: String,
    /// Absolute URL to paste into the marketplace.
    pub url: String,
}

/// The addresses of the feeds the site publishes.
#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParserSettings {
    pub feeds: Vec<FeedLink>,
}

/// The URLs of the exported feeds (the feeds imported are
/// `/api/admin/feeds`).
#[utoipa::path(get, path = "/api/admin/parser/settings", tag = "admin",
    responses((status = 200, body = ParserSettings), (status = 401, body = ApiErrorBody)))]
pub async fn parser_settings(State(state): State<AppState>) -> AppResult<Json<ParserSettings>> {
    let base = state.config.base();
    Ok(Json(ParserSettings {
        feeds: vec![
            FeedLink {
                name: "Avito".into(),
                url: format!("{base}/feeds/avito.xml"),
            },
            FeedLink {
                name: "Авто.ру".into(),
                url: format!("{base}/feeds/autoru.xml"),
            },
            // Auto.ru takes a dealer's new and used cars as separate feeds.
            FeedLink {
                name: "Авто.ру, новые".into(),
                url: format!("{base}/feeds/autoru-new.xml"),
            },
            FeedLink {
                name: "Авто.ру, с пробегом".into(),
                url: format!("{base}/feeds/autoru-used.xml"),
            },
            FeedLink {
                name: "Яндекс".into(),
                url: format!("{base}/feeds/yandex.yml"),
            },
        ],
    }))
}

/// The published cars in stock each marketplace feed leaves out, with the
/// reasons (`docs/admin.md`, "Why a car is not on a marketplace"): the
/// counts exact, at most 500 cars listed.
#[utoipa::path(get, path = "/api/admin/feeds/left-out", tag = "admin",
    responses((status = 200, body = LeftOutList), (status = 401, body = ApiErrorBody)))]
pub async fn feeds_left_out(State(state): State<AppState>) -> AppResult<Json<LeftOutList>> {
    Ok(Json(state.db.call(|c| left_out::all(c)).await?))
}
