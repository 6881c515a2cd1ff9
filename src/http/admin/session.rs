//! Login, logout and the current admin.

use axum::Json;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, header};
use axum_extra::extract::cookie::CookieJar;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::form::{Field, Form, Kind};
use crate::domain::roles::{Capability, Role};
use crate::domain::sessions;
use crate::domain::users::User;
use crate::error::{AppError, AppResult};
use crate::http::auth::{self, Admin};
use crate::http::credentials;
use crate::http::extract::{ClientIp, FormJson};
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;

/// Login and logout: open to everyone.
pub fn public_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(login))
        .routes(routes!(logout))
}

/// The current admin: behind `require_admin`.
pub fn admin_routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(me))
}

#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct LoginInput {
    #[serde(default)]
    pub login: String,
    #[serde(default)]
    pub password: String,
}

const LOGIN_AND_PASSWORD: &str = "Введите логин и пароль";

impl Form for LoginInput {
    const FIELDS: &'static [Field] = &[
        Field::optional("login", Kind::Text).invalid(LOGIN_AND_PASSWORD),
        Field::optional("password", Kind::Text).invalid(LOGIN_AND_PASSWORD),
    ];
}

#[derive(Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Me {
    /// The account's id (the leads assigned to it carry it).
    pub id: String,
    pub username: String,
    /// The person's name (empty when not given).
    pub name: String,
    pub role: Role,
    /// Logged in with a one-time password: nothing but
    /// `PUT /api/admin/me/password` is allowed until it is changed.
    pub must_change_password: bool,
    /// What the role may do (`docs/admin.md`, "Roles"): screens show only
    /// these; the server checks them on every route.
    pub capabilities: Vec<Capability>,
    /// Send back as X-CSRF-Token on writes (Origin checks also pass).
    pub csrf_token: Option<String>,
}

impl Me {
    fn of(user: User, csrf_token: Option<String>) -> Me {
        Me {
            capabilities: user.role.capabilities(),
            role: user.role,
            must_change_password: user.must_change_password,
            name: user.name,
            id: user.id,
            username: user.username,
            csrf_token,
        }
    }
}

/// Opens a session: sets an HttpOnly, SameSite=Strict cookie.
#[utoipa::path(post, path = "/api/admin/login", tag = "admin", request_body = LoginInput,
    responses((status = 200, body = Me), (status = 401, body = ApiErrorBody),
        (status = 422, body = ApiErrorBody), (status = 429, body = ApiErrorBody)))]
pub async fn login(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    headers: HeaderMap,
    jar: CookieJar,
    FormJson(input): FormJson<LoginInput>,
) -> AppResult<(CookieJar, Json<Me>)> {
    if input.login.trim().is_empty() {
        return Err(AppError::invalid("login", LOGIN_AND_PASSWORD));
    }
    if input.password.is_empty() {
        return Err(AppError::invalid("password", LOGIN_AND_PASSWORD));
    }
    let ip = ip.to_string();
    let user = auth::check_password(
        &state,
        input.login.trim().into(),
        input.password,
        ip.clone(),
        true,
    )
    .await?;
    let agent = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
        .to_string();
    let idle = state.config.admin.session_idle_minutes;
    let user_id = user.id.clone();
    let session = state
        .db
        .call(move |c| sessions::create(c, &user_id, &ip, &agent, idle))
        .await?;
    let cookie = credentials::session_cookie(session.token, state.config.is_https());
    Ok((
        jar.add(cookie),
        Json(Me::of(user, Some(session.csrf_token))),
    ))
}

/// Ends the session of the cookie, if any.
#[utoipa::path(post, path = "/api/admin/logout", tag = "admin", responses((status = 204)))]
pub async fn logout(
    State(state): State<AppState>,
    headers: HeaderMap,
    jar: CookieJar,
) -> AppResult<(CookieJar, StatusCode)> {
    if let Some(token) = credentials::session_token(&headers) {
        state.db.call(move |c| sessions::delete(c, &token)).await?;
    }
    let cookie = credentials::removal_cookie(state.config.is_https());
    Ok((jar.add(cookie), StatusCode::NO_CONTENT))
}

#[utoipa::path(get, path = "/api/admin/me", tag = "admin",
    responses((status = 200, body = Me), (status = 401, body = ApiErrorBody)))]
pub async fn me(admin: Admin) -> Json<Me> {
    Json(Me::of(admin.user, admin.csrf_token))
}
