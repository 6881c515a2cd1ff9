//! Admin access: a session cookie (HttpOnly, SameSite=Strict) or HTTP Basic
//! with the same credentials (read by `credentials`), checked against the
//! users and sessions tables, with lockout after repeated failures.
//! Cookie-authenticated writes must come from our own origin (Origin/Referer)
//! or carry the session's CSRF token. Only admin routes look at credentials:
//! public routes answer the same for everyone.

use axum::extract::{FromRequestParts, MatchedPath, Request, State};
use axum::http::request::Parts;
use axum::http::{Method, header};
use axum::middleware::Next;
use axum::response::Response;

use super::credentials::Credentials;
use super::extract::ClientIp;
use super::state::AppState;
use crate::domain::roles::Capability;
use crate::domain::sessions;
use crate::domain::users::User;
use crate::error::{AppError, AppResult};

/// The limiter of password checks, kept by the state.
pub use super::held::passwords::{PASSWORDS_BUSY, PasswordChecks};

pub const CSRF_HEADER: &str = "x-csrf-token";
pub const WRONG_CREDENTIALS: &str = "Неверный логин или пароль";
pub const LOCKED_OUT: &str =
    "Слишком много неудачных попыток входа. Попробуйте снова через 15 минут.";
pub const LOGIN_REQUIRED: &str = "Требуется вход в панель администратора";
pub const CSRF_REFUSED: &str = "Запрос отклонён: он пришёл не со страницы сайта";
pub const NOT_FOR_YOUR_ROLE: &str = "Недостаточно прав: вашей роли это действие недоступно";
pub const BLOCKED: &str = "Учётная запись заблокирована. Обратитесь к владельцу сайта.";
pub const CHANGE_PASSWORD_FIRST: &str = "Сначала смените временный пароль";

/// The admin a request was authenticated as.
#[derive(Debug, Clone)]
pub struct Admin {
    pub user: User,
    /// Present for cookie sessions.
    pub csrf_token: Option<String>,
}

impl Admin {
    /// Whether the admin's role has `capability` (`domain::roles`).
    pub fn can(&self, capability: Capability) -> bool {
        self.user.role.can(capability)
    }

    /// 403 unless the admin's role has `capability`.
    pub fn require(&self, capability: Capability) -> AppResult<()> {
        if self.can(capability) {
            Ok(())
        } else {
            Err(AppError::Forbidden(NOT_FOR_YOUR_ROLE.into()))
        }
    }
}

/// Checks a login and password with lockout and records the attempt. The
/// attempt is reserved (recorded as a failure) before the password is
/// hashed, so parallel guesses cannot pass the lock. `form` is true for the
/// login form: its successes are recorded, and an address with no recent
/// failure passes the lock of the login (`docs/admin.md`, lockout). Basic
/// calls keep neither.
pub async fn check_password(
    state: &AppState,
    login: String,
    password: String,
    ip: String,
    form: bool,
) -> AppResult<User> {
    let checks = &state.password_checks;
    let _admitted = checks.admit()?;
    let lockout = sessions::Lockout {
        per_login: state.config.admin.login_failures_per_login,
        per_address: state.config.admin.login_failures_per_address,
    };
    let reserved = state
        .db
        .call(move |c| sessions::reserve_attempt(c, &login, &ip, form, lockout))
        .await?
        .ok_or_else(|| AppError::TooManyRequests(LOCKED_OUT.into()))?;
    let (user, hash) = reserved.found.unzip();
    let verified = checks.verify(password, hash).await?;
    let attempt_id = reserved.attempt_id;
    state
        .db
        .call(move |c| sessions::finish_attempt(c, attempt_id, verified, form))
        .await?;
    match user {
        // Only the right password learns that the account is blocked.
        Some(user) if verified && user.blocked => Err(AppError::Forbidden(BLOCKED.into())),
        Some(user) if verified => Ok(user),
        _ => Err(AppError::Unauthorized(WRONG_CREDENTIALS.into())),
    }
}

fn origin_of(url: &str) -> &str {
    let after_scheme = url.find("://").map(|i| i + 3).unwrap_or(0);
    match url[after_scheme..].find('/') {
        Some(i) => &url[..after_scheme + i],
        None => url,
    }
}

/// A cookie-authenticated write must come from the site itself.
fn csrf_ok(parts: &Parts, base_url: &str, csrf_token: &str) -> bool {
    if matches!(parts.method, Method::GET | Method::HEAD | Method::OPTIONS) {
        return true;
    }
    if let Some(sent) = parts.headers.get(CSRF_HEADER).and_then(|v| v.to_str().ok()) {
        return sent == csrf_token;
    }
    let expected = origin_of(base_url);
    let header_origin = |name: header::HeaderName| {
        parts
            .headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(|v| origin_of(v).to_string())
    };
    match header_origin(header::ORIGIN).or_else(|| header_origin(header::REFERER)) {
        Some(origin) => origin == expected,
        None => false,
    }
}

/// Who the request is from, if it carries credentials; errors for wrong ones.
pub async fn authenticate(parts: &Parts, state: &AppState, ip: String) -> AppResult<Option<Admin>> {
    let token = match Credentials::from_headers(&parts.headers) {
        None => return Ok(None),
        Some(Credentials::Basic { login, password }) => {
            let user = check_password(state, login, password, ip, false).await?;
            return Ok(Some(Admin {
                user,
                csrf_token: None,
            }));
        }
        Some(Credentials::Session(token)) => token,
    };
    let idle = state.config.admin.session_idle_minutes;
    let session = state
        .db
        .call(move |c| sessions::touch(c, &token, idle))
        .await?
        .ok_or_else(|| AppError::Unauthorized(LOGIN_REQUIRED.into()))?;
    if !csrf_ok(parts, &state.config.base_url, &session.csrf_token) {
        return Err(AppError::Forbidden(CSRF_REFUSED.into()));
    }
    Ok(Some(Admin {
        user: session.user,
        csrf_token: Some(session.csrf_token),
    }))
}

/// Middleware for admin routes: 401 without a valid credential, 403 when the
/// route's capability (`permissions::ROUTES`) is not the role's, or when the
/// route has no decision at all.
pub async fn require_admin(
    State(state): State<AppState>,
    request: Request,
    next: Next,
) -> Result<Response, AppError> {
    let (mut parts, body) = request.into_parts();
    let ClientIp(ip) = ClientIp::from_request_parts(&mut parts, &state).await?;
    let admin = authenticate(&parts, &state, ip.to_string())
        .await?
        .ok_or_else(|| AppError::Unauthorized(LOGIN_REQUIRED.into()))?;
    let route = parts
        .extensions
        .get::<MatchedPath>()
        .map(|p| p.as_str().to_string())
        .unwrap_or_default();
    let method = if parts.method == Method::HEAD {
        "GET"
    } else {
        parts.method.as_str()
    };
    if admin.user.must_change_password
        && !super::permissions::BEFORE_PASSWORD_CHANGE.contains(&(method, route.as_str()))
    {
        return Err(AppError::Forbidden(CHANGE_PASSWORD_FIRST.into()));
    }
    match super::permissions::required(&parts.method, &route) {
        Some(capability) => admin.require(capability)?,
        None => {
            tracing::error!(route, method = %parts.method, "an admin route with no decision in permissions::ROUTES");
            return Err(AppError::Forbidden(NOT_FOR_YOUR_ROLE.into()));
        }
    }
    parts.extensions.insert(admin);
    Ok(next.run(Request::from_parts(parts, body)).await)
}

/// The admin of a request that passed `require_admin`.
impl FromRequestParts<AppState> for Admin {
    type Rejection = AppError;

    async fn from_request_parts(
        parts: &mut Parts,
        state: &AppState,
    ) -> Result<Self, Self::Rejection> {
        if let Some(admin) = parts.extensions.get::<Admin>() {
            return Ok(admin.clone());
        }
        let ClientIp(ip) = ClientIp::from_request_parts(parts, state).await?;
        authenticate(parts, state, ip.to_string())
            .await?
            .ok_or_else(|| AppError::Unauthorized(LOGIN_REQUIRED.into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins() {
        assert_eq!(
            origin_of("https://auto.example.ru/admin/cars"),
            "https://auto.example.ru"
        );
        assert_eq!(origin_of("http://localhost:8080"), "http://localhost:8080");
    }
}
