//! The public JSON API: the reads every visitor gets alike, and the lead form.

pub mod brands;
pub mod cars;
pub mod content;
pub mod credit;
pub mod leads;
pub mod personal_data;
pub mod saved_searches;

use std::collections::{HashMap, HashSet};
use std::sync::Arc;

use axum::extract::{MatchedPath, Request, State};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use utoipa::openapi::path::ParameterIn;
use utoipa_axum::router::OpenApiRouter;

use crate::error::AppError;
use crate::http::state::AppState;

/// Longest parameter name quoted back in an error.
const QUOTED_NAME_CHARS: usize = 40;

/// The query parameters each route declares in the OpenAPI document, by
/// route path (`/api/cars/brand/{brandId}/fast`).
#[derive(Debug, Default)]
pub struct DeclaredParams {
    by_route: HashMap<String, HashSet<String>>,
}

impl DeclaredParams {
    pub fn of(doc: &utoipa::openapi::OpenApi) -> DeclaredParams {
        let by_route = doc
            .paths
            .paths
            .iter()
            .map(|(path, item)| {
                let names = item
                    .get
                    .iter()
                    .flat_map(|op| op.parameters.iter().flatten())
                    .filter(|p| p.parameter_in == ParameterIn::Query)
                    .map(|p| p.name.clone())
                    .collect();
                (path.clone(), names)
            })
            .collect();
        DeclaredParams { by_route }
    }

    /// The first parameter of `query` that `route` does not declare.
    fn unknown<'q>(&self, route: &str, query: &'q str) -> Option<std::borrow::Cow<'q, str>> {
        let declared = self.by_route.get(route);
        form_urlencoded::parse(query.as_bytes())
            .map(|(name, _)| name)
            .find(|name| declared.is_none_or(|d| !d.contains(name.as_ref())))
    }
}

/// Refuses, with 400, a query parameter the route does not declare in its
/// OpenAPI parameters. A public answer then depends on nothing but what
/// the route reads, and a URL made unique by an invented parameter is
/// neither computed again nor kept by the answer cache (`docs/cache.md`).
pub fn only_declared_params(routes: OpenApiRouter<AppState>) -> OpenApiRouter<AppState> {
    let declared = Arc::new(DeclaredParams::of(routes.get_openapi()));
    routes.route_layer(middleware::from_fn_with_state(declared, refuse_unknown))
}

async fn refuse_unknown(
    State(declared): State<Arc<DeclaredParams>>,
    request: Request,
    next: Next,
) -> Response {
    if let Some(query) = request.uri().query() {
        let route = request
            .extensions()
            .get::<MatchedPath>()
            .map_or("", MatchedPath::as_str);
        if let Some(name) = declared.unknown(route, query) {
            let mut quoted: String = name.chars().take(QUOTED_NAME_CHARS).collect();
            if quoted.len() < name.len() {
                quoted.push('…');
            }
            return AppError::BadRequest(format!("Неизвестный параметр запроса «{quoted}»"))
                .into_response();
        }
    }
    next.run(request).await
}
