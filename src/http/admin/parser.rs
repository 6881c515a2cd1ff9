//! Admin calls of the inventory parser (`docs/parser.md`): imports (preview,
//! apply, discard), their reports and the schedule.

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
use crate::domain::form::{Field, Form, Kind};
use crate::domain::imports::{
    self, ImportRun, ImportRunSummary, RunSource, RunTrigger, Schedule, SourceKind,
};
use crate::error::{AppError, AppResult};
use crate::http::auth::Admin;
use crate::http::extract::FormJson;
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
        .routes(routes!(apply_import))
        .routes(routes!(parser_settings, update_parser_settings))
}

pub const RUN_NOT_FOUND: &str = "Импорт не найден";

/// A feed by URL.
#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportByUrl {
    pub url: String,
}

impl Form for ImportByUrl {
    const FIELDS: &'static [Field] = &[Field::required("url", Kind::Text, "Укажите адрес фида")];
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

/// Reads the `file` part, refusing it as soon as it passes the limit.
async fn read_file(state: &AppState, request: Request) -> AppResult<(String, Vec<u8>)> {
    let mut multipart = Multipart::from_request(request, state).await.map_err(|_| {
        AppError::BadRequest("Ожидается форма «multipart/form-data» с полем «file»".into())
    })?;
    let limit = usize::try_from(state.config.parser.max_feed_bytes).unwrap_or(usize::MAX);
    while let Some(mut field) = multipart
        .next_field()
        .await
        .map_err(|e| multipart_error(state, e))?
    {
        if field.name() != Some("file") {
            continue;
        }
        let name = field.file_name().unwrap_or("feed").to_string();
        let mut bytes = Vec::new();
        while let Some(chunk) = field.chunk().await.map_err(|e| multipart_error(state, e))? {
            if bytes.len() + chunk.len() > limit {
                return Err(too_large(state));
            }
            bytes.extend_from_slice(&chunk);
        }
        return Ok((name, bytes));
    }
    Err(AppError::invalid("file", "Выберите файл фида"))
}

/// Starts an import: a multipart `file` (Auto.ru XML, Avito XML or CSV,
/// told apart by content) or JSON `{"url": ...}`. Answers the preview (a dry
/// run: nothing in the catalogue changes), or a failed run with its reason.
#[utoipa::path(post, path = "/api/admin/imports", tag = "admin",
    request_body(content = ImportByUrl, content_type = "application/json",
        description = "`{url}`, or multipart/form-data with the field `file`"),
    responses((status = 200, body = ImportRun), (status = 400, body = ApiErrorBody),
        (status = 413, body = ApiErrorBody), (status = 422, body = ApiErrorBody)))]
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
        let (name, bytes) = read_file(&state, request).await?;
        let source = RunSource {
            kind: SourceKind::File,
            name: name.chars().take(255).collect(),
        };
        parser::preview(&state.db, RunTrigger::Manual, source, bytes).await?
    } else {
        let FormJson(body) = FormJson::<ImportByUrl>::from_request(request, &state).await?;
        let url = body.url.trim().to_string();
        if url.is_empty() {
            return Err(AppError::invalid("url", "Укажите адрес фида"));
        }
        if let Err(err) = parser::fetch::check_url(&url, state.config.parser.allow_private_hosts) {
            return Err(AppError::invalid("url", err.to_string()));
        }
        parser::preview_url(&state.db, &state.config, RunTrigger::Manual, &url).await?
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
            "Предпросмотр импорта «{}»: новых {}, изменено {}, снято с публикации {}, строк с \
             ошибками {}",
            s.source.name, s.counts.new, s.counts.changed, s.counts.gone, s.counts.errors
        ),
    };
    NewEntry::new(
        AuditAction::Create,
        AuditObject::Import,
        Some(&s.id),
        summary,
    )
}

/// The last 50 runs, newest first.
#[utoipa::path(get, path = "/api/admin/imports", tag = "admin",
    responses((status = 200, body = ImportList), (status = 401, body = ApiErrorBody)))]
pub async fn list_imports(State(state): State<AppState>) -> AppResult<Json<ImportList>> {
    let items = state.db.call(|c| imports::list(c)).await?;
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
    let run = audited(&state, &admin, move |c| {
        let applied = imports::apply(c, &id, year)?;
        let entry = applied.as_ref().map(parser::audit_entry);
        Ok((applied, entry))
    })
    .await?
    .ok_or_else(|| AppError::not_found(RUN_NOT_FOUND))?;
    parser::spawn_photos(&state.db, &state.config);
    Ok(Json(run))
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

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParserSettings {
    pub feed_url: Option<String>,
    /// Hours between scheduled runs; 0: off.
    pub interval_hours: u32,
    pub last_run_at: Option<String>,
    pub next_run_at: Option<String>,
    pub feeds: Vec<FeedLink>,
}

#[derive(Debug, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ParserSettingsInput {
    #[serde(default)]
    pub feed_url: Option<String>,
    /// 0 (off) to 168.
    pub interval_hours: u32,
}

impl Form for ParserSettingsInput {
    const FIELDS: &'static [Field] = &[
        Field::optional("feedUrl", Kind::Text),
        Field::required("intervalHours", Kind::Integer, "Укажите интервал в часах")
            .invalid("Интервал — целое число часов от 0 до 168"),
    ];
}

fn settings_answer(state: &AppState, schedule: Schedule) -> ParserSettings {
    let base = state.config.base();
    let next_run_at = (schedule.interval_hours > 0 && schedule.feed_url.is_some()).then(|| {
        match schedule
            .last_run_at
            .as_deref()
            .map(chrono::DateTime::parse_from_rfc3339)
        {
            Some(Ok(last)) => (last + chrono::Duration::hours(i64::from(schedule.interval_hours)))
                .with_timezone(&chrono::Utc)
                .to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
            _ => crate::domain::now(),
        }
    });
    ParserSettings {
        feed_url: schedule.feed_url,
        interval_hours: schedule.interval_hours,
        last_run_at: schedule.last_run_at,
        next_run_at,
        feeds: vec![
            FeedLink {
                name: "Avito".into(),
                url: format!("{base}/feeds/avito.xml"),
            },
            FeedLink {
                name: "Авто.ру".into(),
                url: format!("{base}/feeds/autoru.xml"),
            },
            FeedLink {
                name: "Яндекс".into(),
                url: format!("{base}/feeds/yandex.yml"),
            },
        ],
    }
}

/// The schedule and the URLs of the exported feeds.
#[utoipa::path(get, path = "/api/admin/parser/settings", tag = "admin",
    responses((status = 200, body = ParserSettings), (status = 401, body = ApiErrorBody)))]
pub async fn parser_settings(State(state): State<AppState>) -> AppResult<Json<ParserSettings>> {
    let schedule = state.db.call(|c| imports::schedule(c)).await?;
    Ok(Json(settings_answer(&state, schedule)))
}

/// Sets the feed URL and the interval (0: no schedule).
#[utoipa::path(put, path = "/api/admin/parser/settings", tag = "admin",
    request_body = ParserSettingsInput,
    responses((status = 200, body = ParserSettings), (status = 422, body = ApiErrorBody)))]
pub async fn update_parser_settings(
    State(state): State<AppState>,
    admin: Admin,
    FormJson(input): FormJson<ParserSettingsInput>,
) -> AppResult<Json<ParserSettings>> {
    use crate::domain::audit::change;
    let schedule = audited(&state, &admin, move |c| {
        let before = imports::schedule(c)?;
        let after = imports::save_schedule(c, input.feed_url, input.interval_hours)?;
        let entry = NewEntry::new(
            AuditAction::Settings,
            AuditObject::Import,
            None,
            "Изменено расписание импорта",
        )
        .with_changes(vec![
            change("feedUrl", before.feed_url.clone(), after.feed_url.clone()),
            change(
                "intervalHours",
                Some(before.interval_hours.to_string()),
                Some(after.interval_hours.to_string()),
            ),
        ]);
        Ok((after, Some(entry)))
    })
    .await?;
    Ok(Json(settings_answer(&state, schedule)))
}
