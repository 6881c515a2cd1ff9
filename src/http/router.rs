use std::sync::Arc;
use std::time::Duration;

use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::http::{HeaderName, HeaderValue, StatusCode, header};
use axum::middleware;
use axum::response::IntoResponse;
use axum::routing::get;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use tower_http::trace::TraceLayer;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use super::cache;
use super::openapi::ApiDoc;
use super::public::{brands, cars, content, leads};
use super::state::AppState;
use crate::error::AppError;

/// Largest JSON body a public caller may send.
const PUBLIC_BODY_LIMIT: usize = 64 * 1024;

pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; \
    script-src 'self' https://mc.yandex.ru https://www.googletagmanager.com; \
    style-src 'self' 'unsafe-inline'; \
    img-src 'self' data: blob: https://mc.yandex.ru https://www.google-analytics.com; \
    connect-src 'self' https://mc.yandex.ru https://www.google-analytics.com; \
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
        .layer(DefaultBodyLimit::max(PUBLIC_BODY_LIMIT));
    OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(reads)
        .merge(writes)
        .split_for_parts()
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
        .fallback(page_not_found)
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

async fn api_not_found() -> AppError {
    AppError::not_found("Not found")
}

async fn page_not_found() -> impl IntoResponse {
    (
        StatusCode::NOT_FOUND,
        [(header::CONTENT_TYPE, "text/plain; charset=utf-8")],
        "404 Page Not Found",
    )
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
