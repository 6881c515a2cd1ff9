use std::convert::Infallible;
use std::net::SocketAddr;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};
use std::time::{Duration, Instant};

use axum::Router;
use axum::body::{Bytes, HttpBody};
use axum::extract::{ConnectInfo, DefaultBodyLimit, Request};
use axum::http::{HeaderMap, HeaderName, HeaderValue, StatusCode, header};
use axum::middleware;
use axum::response::Response;
use axum::routing::future::RouteFuture;
use axum::routing::get;
use tower::{Service, ServiceExt};
use tower_http::compression::CompressionLayer;
use tower_http::compression::predicate::{DefaultPredicate, Predicate};
use tower_http::services::ServeDir;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::timeout::TimeoutLayer;
use utoipa::OpenApi;
use utoipa_axum::router::OpenApiRouter;

use super::admin::{
    catalogue, checks as admin_checks, content as admin_content, credit as admin_credit,
    lead_comments, leads as admin_leads, marketplace_sync, marketplaces, notifications, parser,
    person_data, response_times, saved_searches as admin_saved_searches, session, staff, uploads,
};
use super::cache::AnswerCache;
use super::held::site_views::SiteViews;
use super::openapi::{self, ApiDoc, Audience};
use super::pages;
use super::public::{
    brands, cars, content, credit, leads, personal_data as public_personal_data, saved_searches,
};
use super::query_patterns::{self, QueryPatterns};
use super::screen::{self, Screen};
use super::state::AppState;
use super::{auth, cache, health, log};
use crate::error::AppError;

/// Largest JSON body a public caller may send.
const PUBLIC_BODY_LIMIT: usize = 64 * 1024;
/// Largest JSON body an admin may send (settings carry long legal texts).
const ADMIN_BODY_LIMIT: usize = 1024 * 1024;

/// Scripts run from the site itself, the two counters, and the one inline
/// script of a drawn page (`pages::shell::LOADER`) by its SHA-256: a test
/// (`loader_hash_allows_the_loader`) says the new hash when loader.js changes.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; \
    script-src 'self' 'sha256-QgRURSFIo+drQUtSpRxg4hqMwbdH7KJnccfvusim6vQ=' \
    https://mc.yandex.ru https://www.googletagmanager.com; \
    style-src 'self' 'unsafe-inline'; \
    img-src 'self' data: blob: https://mc.yandex.ru https://*.google-analytics.com \
    https://*.googletagmanager.com; \
    connect-src 'self' https://mc.yandex.ru https://*.google-analytics.com \
    https://*.analytics.google.com https://*.googletagmanager.com; \
    frame-src https://mc.yandex.ru; \
    font-src 'self'; object-src 'none'; base-uri 'self'; form-action 'self'; \
    frame-ancestors 'none'";

/// [`CONTENT_SECURITY_POLICY`] with the call-tracking vendor's hosts in the
/// directives its script needs (scripts, pictures, connections, frames)
/// when `[call_tracking] script_url` is set (`docs/calls.md`, "Numbers per
/// source"); the policy as it is otherwise.
pub fn content_security_policy(
    call_tracking: &crate::config_calls::CallTrackingConfig,
) -> HeaderValue {
    let Some(sources) = call_tracking.script_sources() else {
        return HeaderValue::from_static(CONTENT_SECURITY_POLICY);
    };
    let policy = CONTENT_SECURITY_POLICY
        .split("; ")
        .map(|directive| match directive.split(' ').next() {
            Some("script-src" | "img-src" | "connect-src" | "frame-src") => {
                format!("{directive} {sources}")
            }
            _ => directive.to_string(),
        })
        .collect::<Vec<_>>()
        .join("; ");
    // The sources were checked with the configuration: printable ASCII.
    HeaderValue::from_str(&policy).unwrap_or(HeaderValue::from_static(CONTENT_SECURITY_POLICY))
}

/// The API routes with their OpenAPI document. Each module lists its own
/// routes; here they are grouped by audience and given their layers.
pub fn api(state: &AppState) -> (Router<AppState>, utoipa::openapi::OpenApi) {
    // The same answer for everyone, kept in the answer cache.
    let mut public_reads = OpenApiRouter::new()
        .merge(content::routes())
        .merge(brands::routes())
        .merge(cars::routes())
        .merge(credit::routes())
        .route_layer(middleware::from_fn_with_state(
            state.answers.clone(),
            cache::cached,
        ));
    let mut public_writes = OpenApiRouter::new()
        .merge(leads::routes())
        .merge(saved_searches::routes())
        .merge(public_personal_data::routes())
        .merge(session::public_routes())
        .merge(staff::invitation_routes())
        .layer(DefaultBodyLimit::max(PUBLIC_BODY_LIMIT))
        .layer(no_store());
    // Every admin read and every write but a lead: 401 without credentials.
    let mut admin = OpenApiRouter::new()
        .merge(session::admin_routes())
        .merge(admin_leads::routes())
        .merge(lead_comments::routes())
        .merge(person_data::routes())
        .merge(notifications::routes())
        .merge(catalogue::routes())
        .merge(marketplaces::routes())
        .merge(marketplace_sync::routes())
        .merge(super::admin::call_providers::routes())
        .merge(admin_content::routes())
        .merge(parser::routes())
        .merge(admin_credit::routes())
        .merge(admin_saved_searches::routes())
        .merge(admin_checks::routes())
        .merge(response_times::routes())
        .merge(staff::routes())
        .merge(super::admin::salons::routes())
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            auth::require_admin,
        ))
        .layer(DefaultBodyLimit::max(ADMIN_BODY_LIMIT))
        .layer(no_store());
    // Uploads take bigger bodies than the other admin calls.
    let mut uploads = uploads::routes()
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            auth::require_admin,
        ))
        .layer(DefaultBodyLimit::max(
            crate::media::MAX_FILE_BYTES + 64 * 1024,
        ))
        .layer(no_store());
    // A feed file may be as large as `parser.max_feed_bytes` (checked again
    // while it streams in, with a clear message).
    let feed_limit = usize::try_from(state.config.parser.max_feed_bytes)
        .unwrap_or(usize::MAX)
        .saturating_add(64 * 1024);
    let mut imports = parser::upload_routes()
        .route_layer(middleware::from_fn_with_state(
            state.clone(),
            auth::require_admin,
        ))
        .layer(DefaultBodyLimit::max(feed_limit))
        .layer(no_store());
    // Each group's operations get the answers its layers give (400 for a
    // request that cannot be read, 401/403/429 of the admin check, ...).
    for (group, audience) in [
        (&mut public_reads, Audience::Public),
        (&mut public_writes, Audience::Public),
        (&mut admin, Audience::Admin),
        (&mut uploads, Audience::Admin),
        (&mut imports, Audience::Admin),
    ] {
        openapi::common_answers(group.get_openapi_mut(), audience);
    }
    let (router, doc) = OpenApiRouter::with_openapi(ApiDoc::openapi())
        .merge(public_reads)
        .merge(public_writes)
        .merge(admin)
        .merge(uploads)
        .merge(imports)
        .split_for_parts();
    // A query value outside its parameter's pattern is 400 before anything
    // else reads it (src/http/query_patterns.rs).
    let patterns = Arc::new(QueryPatterns::of(&doc));
    let router = router.route_layer(middleware::from_fn_with_state(
        patterns,
        query_patterns::check_query,
    ));
    (router, doc)
}

/// Answers carrying personal data (leads, admin accounts, sessions) are
/// kept by no cache, browser or proxy: every answer of the admin routes,
/// the lead form's and the login's, errors included.
fn no_store() -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::overriding(header::CACHE_CONTROL, HeaderValue::from_static("no-store"))
}

/// HSTS value when the site is served over https.
pub const STRICT_TRANSPORT_SECURITY: &str = "max-age=31536000; includeSubDomains";

/// The whole application.
pub fn router(state: AppState) -> Site {
    let https = state.config.is_https();
    let csp = content_security_policy(&state.config.call_tracking);
    let answers = state.answers.clone();
    let views = state.site_views.clone();
    let (api, doc) = api(&state);
    let doc = Arc::new(doc);
    let media = ServeDir::new(state.config.media_dir());
    let media = Router::new()
        // The originals kept for the replica are never served: they may
        // carry the camera's location (src/media/mod.rs).
        .route(
            &format!("/{}/{{*rest}}", crate::media::ORIGINALS_FOLDER),
            axum::routing::any(|| async { StatusCode::NOT_FOUND }),
        )
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
        .merge(super::feeds::routes(&state))
        .merge(super::feed_photos::routes())
        .merge(super::hooks::routes().with_state(state.clone()))
        .merge(pages::routes(&state))
        .merge(health::routes())
        .fallback(pages::not_found)
        .method_not_allowed_fallback(method_not_allowed)
        .with_state(state);
    // The cache's answers come encoded already.
    let compress_when = DefaultPredicate::new().and(cache::NotFromCache);
    let router = app
        .layer(middleware::map_response({
            let csp = csp.clone();
            move |mut response: Response| {
                add_security_headers(response.headers_mut(), https, &csp);
                async move { response }
            }
        }))
        .layer(CompressionLayer::new().compress_when(compress_when))
        .layer(TimeoutLayer::with_status_code(
            StatusCode::REQUEST_TIMEOUT,
            Duration::from_secs(30),
        ))
        .layer(middleware::from_fn(log::log_request));
    Site {
        router,
        answers,
        views,
        https,
        csp,
        peer: None,
    }
}

/// The site as one service: the router, and before it the answer cache.
/// A public GET whose answer is kept and ready (see
/// [`AnswerCache::answer_before_routing`]) is answered at once, with the
/// security headers and its log line, and none of the router's layers: they
/// would add nothing to it (it is encoded already, it cannot time out) and
/// cost more than the answer. Everything else is routed.
#[derive(Clone)]
pub struct Site {
    router: Router,
    answers: Arc<AnswerCache>,
    /// The car pages' views, counted here before the cache answers: a kept
    /// page is a view too (`docs/marketplaces.md`, "What the admin shows").
    views: Arc<SiteViews>,
    https: bool,
    /// The Content-Security-Policy ([`content_security_policy`]).
    csp: HeaderValue,
    /// The client of this connection, given to routed requests as
    /// `ConnectInfo` (a kept answer is the same for everyone).
    peer: Option<SocketAddr>,
}

impl Site {
    /// Asks the router for the page at `path` as a browser without the
    /// site's stylesheets asks (no view counted, no peer): the answer cache
    /// keeps it (`pages_ahead`). Its status.
    pub async fn draw_ahead(&self, path: &str, screen: Screen) -> StatusCode {
        let mut request = axum::http::Request::new(axum::body::Body::empty());
        let Ok(uri) = path.parse() else {
            return StatusCode::BAD_REQUEST;
        };
        *request.uri_mut() = uri;
        request.extensions_mut().insert(log::Unlogged);
        request.headers_mut().insert(
            header::ACCEPT_ENCODING,
            HeaderValue::from_static("gzip, deflate, br, zstd"),
        );
        if screen == Screen::Phone {
            request
                .headers_mut()
                .insert(screen::MOBILE_HINT, HeaderValue::from_static("?1"));
        }
        match self.router.clone().oneshot(request).await {
            Ok(response) => response.status(),
            Err(never) => match never {},
        }
    }

    /// The site serving one connection from `peer`.
    pub fn from_peer(mut self, peer: SocketAddr) -> Site {
        self.peer = Some(peer);
        self
    }
}

impl<B> Service<Request<B>> for Site
where
    B: HttpBody<Data = Bytes> + Send + 'static,
    B::Error: Into<axum::BoxError>,
{
    type Response = Response;
    type Error = Infallible;
    type Future = SiteFuture;

    fn poll_ready(&mut self, _cx: &mut Context<'_>) -> Poll<Result<(), Infallible>> {
        Poll::Ready(Ok(()))
    }

    fn call(&mut self, request: Request<B>) -> SiteFuture {
        let started = Instant::now();
        self.views
            .count(request.method(), request.uri().path(), request.headers());
        if let Some((mut response, route)) = self.answers.answer_before_routing(&request) {
            add_security_headers(response.headers_mut(), self.https, &self.csp);
            // As the router sets it for a body of known size.
            if let Some(length) = response.body().size_hint().exact() {
                response
                    .headers_mut()
                    .insert(header::CONTENT_LENGTH, HeaderValue::from(length));
            }
            log::line(request.method(), route.as_ref(), response.status(), started);
            return SiteFuture::Kept(Some(response));
        }
        let mut request = request;
        if let Some(peer) = self.peer {
            request.extensions_mut().insert(ConnectInfo(peer));
        }
        SiteFuture::Routed(Box::pin(self.router.call(request)))
    }
}

/// The answer of [`Site`]: a kept one at once, or the router's.
pub enum SiteFuture {
    Kept(Option<Response>),
    Routed(Pin<Box<RouteFuture<Infallible>>>),
}

impl Future for SiteFuture {
    type Output = Result<Response, Infallible>;

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<Self::Output> {
        match self.get_mut() {
            SiteFuture::Kept(response) => match response.take() {
                Some(response) => Poll::Ready(Ok(response)),
                None => Poll::Pending,
            },
            SiteFuture::Routed(routed) => routed.as_mut().poll(cx),
        }
    }
}

async fn method_not_allowed() -> (StatusCode, axum::Json<serde_json::Value>) {
    (
        StatusCode::METHOD_NOT_ALLOWED,
        axum::Json(serde_json::json!({"error": "Метод не поддерживается"})),
    )
}

/// 404 text of an unknown API path.
pub const API_NOT_FOUND: &str = "Не найдено";

async fn api_not_found() -> AppError {
    AppError::not_found(API_NOT_FOUND)
}

/// Security headers on every answer (a handler may set its own first). HSTS
/// only when the public URL is https: over plain http a browser ignores it.
fn add_security_headers(headers: &mut HeaderMap, https: bool, csp: &HeaderValue) {
    // Made when compiling: `from_static` at run time checks every byte of
    // the value again, on every answer.
    #[allow(clippy::declare_interior_mutable_const)]
    const ALWAYS: [(HeaderName, HeaderValue); 3] = [
        (
            header::X_CONTENT_TYPE_OPTIONS,
            HeaderValue::from_static("nosniff"),
        ),
        (
            header::REFERRER_POLICY,
            HeaderValue::from_static("strict-origin-when-cross-origin"),
        ),
        (header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY")),
    ];
    #[allow(clippy::declare_interior_mutable_const)]
    const HSTS: HeaderValue = HeaderValue::from_static(STRICT_TRANSPORT_SECURITY);
    let hsts = https.then_some((header::STRICT_TRANSPORT_SECURITY, HSTS));
    let csp = (header::CONTENT_SECURITY_POLICY, csp.clone());
    for (name, value) in hsts.into_iter().chain([csp]).chain(ALWAYS) {
        if let header::Entry::Vacant(entry) = headers.entry(name) {
            entry.insert(value);
        }
    }
}

#[cfg(test)]
mod tests {
    use base64::Engine;
    use sha2::{Digest, Sha256};

    #[test]
    fn loader_hash_allows_the_loader() {
        // No `<` in the inline script: it cannot end its element early, and
        // the browser tests take it out of a page by a pattern without one.
        assert!(
            !super::super::pages::LOADER.contains('<'),
            "a < in loader.js"
        );
        let digest = Sha256::digest(super::super::pages::LOADER.as_bytes());
        let source = format!(
            "'sha256-{}'",
            base64::engine::general_purpose::STANDARD.encode(digest)
        );
        assert!(
            super::CONTENT_SECURITY_POLICY.contains(&source),
            "loader.js changed: put {source} in CONTENT_SECURITY_POLICY's script-src"
        );
    }
}
