use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::middleware;
use axum::routing::get;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::admin::content as admin_content;
use super::admin::leads as leads_admin;
use super::admin::{catalogue, session, uploads};
use super::openapi::ApiDoc;
use super::pages;
use super::public::{brands, cars, content, leads};
use super::state::AppState;
use super::{auth, cache};
use crate::error::AppError;

/// Largest JSON body a public caller may send.
const PUBLIC_BODY_LIMIT: usize = 64 * 1024;
/// Largest JSON body an admin may send (settings carry long legal texts).
const ADMIN_BODY_LIMIT: usize = 1024 * 1024;

pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; \
    script-src 'self' https://mc.yandex.ru https://www.googletagmanager.com; \
    style-src 'self' 'unsafe-inline'; \
    img-src 'self' data: blob: https://mc.yandex.ru https://*.google-analytics.com \
    https://*.googletagmanager.com; \
    connect-src 'self' https://mc.yandex.ru https://*.google-analytics.com \
    https://*.analytics.google.com https://*.googletagmanager.com; \
    frame-src https://mc.yandex.ru; \
    font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; \
    frame-ancestors 'none'";

/// The API routes with their OpenAPI document.
pub fn api(state: &AppState) -> (Router<AppState>, utoipa::openapi::OpenApi) {
    let reads = OpenApiRouter::new()
        .routes(routes!(content::settings))
        .routes(routes!(content::banner))
        .routes(routes!(content::legal))
        .routes(routes!(content::body_types))
        .routes(routes!(content::body_type))
        .routes(routes!(brands::list_fast))
        .routes(routes!(brands::list))
        .routes(routes!(brands::by_id))
        .routes(routes!(brands::by_slug))
        .routes(routes!(brands::logo))
        .routes(routes!(cars::list_fast))
        .routes(routes!(cars::count))
        .routes(routes!(cars::by_slug))
        .routes(routes!(cars::images))
        .routes(routes!(cars::by_brand))
        .routes(routes!(cars::by_body_type))
        .routes(routes!(content::reviews))
        .routes(routes!(content::promotions))
        .routes(routes!(content::promotion_image))
        .routes(routes!(content::partner_banks))
        .route_layer(middleware::from_fn_with_state(state.clone(), cache::cached));
    let writes = OpenApiRouter::new()
        .routes(routes!(leads::create))
        .routes(routes!(session::login))
        .routes(routes!(session::logout))
        .layer(DefaultBodyLimit::max(PUBLIC_BODY_LIMIT));
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(reads)
        .merge(writes)
        .merge(admin_routes(state))
        .merge(upload_routes(state))
        .split_for_parts()
}

/// Uploads take bigger bodies than the other admin calls.
fn upload_routes(state: &AppState) -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(uploads::upload))
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            auth::require_admin,
        ))
        .layer(DefaultBodyLimit::max(
            crate::media::MAX_FILE_BYTES + 64 * 1024,
        ))
}

/// Every admin read and every write but a lead: 401 without credentials.
fn admin_routes(state: &AppState) -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(session::me))
        .routes(routes!(leads_admin::dashboard))
        .routes(routes!(catalogue::list_cars))
        .routes(routes!(catalogue::create_car))
        .routes(routes!(catalogue::update_car, catalogue::delete_car))
        .routes(routes!(catalogue::bulk_prices))
        .routes(routes!(catalogue::list_brands))
        .routes(routes!(catalogue::create_brand))
        .routes(routes!(catalogue::update_brand, catalogue::delete_brand))
        .routes(routes!(admin_content::create_review))
        .routes(routes!(
            admin_content::update_review,
            admin_content::delete_review
        ))
        .routes(routes!(admin_content::approve_review))
        .routes(routes!(admin_content::create_promotion))
        .routes(routes!(
            admin_content::update_promotion,
            admin_content::delete_promotion
        ))
        .routes(routes!(admin_content::create_bank))
        .routes(routes!(
            admin_content::update_bank,
            admin_content::delete_bank
        ))
        .routes(routes!(admin_content::update_body_type))
        .routes(routes!(admin_content::get_settings))
        .routes(routes!(
            admin_content::post_settings,
            admin_content::put_settings
        ))
        .routes(routes!(leads_admin::list))
        .routes(routes!(leads_admin::set_status))
        .routes(routes!(leads_admin::delete))
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            auth::require_admin,
        ))
        .layer(DefaultBodyLimit::max(ADMIN_BODY_LIMIT))
}

/// The whole application.
pub fn router(state: AppState) -> Router {
    let (api, doc) = api(&state);
    let doc = Arc::new(doc);
    let media = ServeDir::new(state.config.media_dir());
    let media = Router::new()
        .fallback_service(media)
        .layer(SetResponseHeaderLayer::overriding(
            header::CACHE_CONTROL,
            HeaderValue::from_static("public, max-age=31536000, immutable"),
        ));
    let app = Router::new()
        .merge(api)
        .route(
            "/api/openapi.json",
            get(move || {
                let doc = doc.clone();
                async move { axum::Json(doc.as_ref().clone()) }
            }),
        )
        .route("/api/{*rest}", axum::routing::any(api_not_found))
        .nest_service("/media", media)
        .merge(pages::routes())
        .fallback(pages::not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .layer(middleware::from_fn_with_state(
            state.clone(),
            cache::drop_on_write,
        ))
        .with_state(state);
    with_security_headers(app)
        .layer(CompressionLayer::new())
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            Duration::from_secs(30),
        ))
        .layer(TraceLayer::new_for_http())
}

async fn method_not_allowed() -> (StatusCode, axum::Json<serde_json::Value>) {
    (
        StatusCode::METHOD_NOT_ALLOWED,
        axum::Json(serde_json::json!({"error": "Метод не поддерживается"})),
    )
}

async fn api_not_found() -> AppError {
    AppError::not_found("Not found")
}

/// Security headers on every answer (a handler may set its own first).
fn with_security_headers(router: Router) -> Router {
    let set = |name: HeaderName, value: &'static str| {
        SetResponseHeaderLayer::if_not_present(name, HeaderValue::from_static(value))
    };
    router
        .layer(set(
            header::CONTENT_SECURITY_POLICY,
            CONTENT_SECURITY_POLICY,
        ))
        .layer(set(header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .layer(set(
            header::REFERRER_POLICY,
            "strict-origin-when-cross-origin",
        ))
        .layer(set(header::X_FRAME_OPTIONS, "DENY"))
}
