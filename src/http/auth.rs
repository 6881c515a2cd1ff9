//! Admin access: a session cookie (HttpOnly, SameSite=Strict) or HTTP Basic
//! with the same credentials (read by `credentials`), checked against the
//! users and sessions tables, with lockout after repeated failures.
//! Cookie-authenticated writes must come from our own origin (Origin/Referer)
//! or carry the session's CSRF token. Only admin routes look at credentials:
//! public routes answer the same for everyone.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};

use argon2::Block;
use axum::extract::{FromRequestParts, MatchedPath, Request, State};
use axum::http::request::Parts;
use axum::http::{Method, header};
use axum::middleware::Next;
use axum::response::Response;
use tokio::sync::{OwnedSemaphorePermit, Semaphore};

use super::credentials::Credentials;
use super::extract::ClientIp;
use super::state::AppState;
use crate::db::blocking;
use crate::domain::roles::Capability;
use crate::domain::sessions;
use crate::domain::users::{self, User};
use crate::error::{AppError, AppResult};

pub const CSRF_HEADER: &str = "x-csrf-token";
pub const WRONG_CREDENTIALS: &str = "Неверный логин или пароль";
pub const LOCKED_OUT: &str =
    "Слишком много неудачных попыток входа. Попробуйте снова через 15 минут.";
pub const PASSWORDS_BUSY: &str = "Сервер занят проверкой паролей. Попробуйте войти через минуту.";
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

/// How many password checks run at once and how many may wait: each argon2
/// check works in about 19 MiB, so a flood of logins must not start one per
/// request. Beyond the queue an attempt is answered at once with 429
/// (`PASSWORDS_BUSY`), without a check and without being recorded.
pub struct PasswordChecks {
    /// Checks running or waiting.
    admission: Arc<Semaphore>,
    /// Checks running.
    running: Arc<Semaphore>,
    /// argon2 work areas, one per running check, reused.
    memory: Arc<Mutex<Vec<Vec<Block>>>>,
    /// Passwords hashed so far (for tests and benchmarks).
    checked: Arc<AtomicU64>,
}

impl PasswordChecks {
    /// `parallel` checks at once (at least 1), `queue` more waiting.
    pub fn new(parallel: usize, queue: usize) -> PasswordChecks {
        let parallel = parallel.max(1);
        PasswordChecks {
            admission: Arc::new(Semaphore::new(parallel + queue)),
            running: Arc::new(Semaphore::new(parallel)),
            memory: Arc::new(Mutex::new(Vec::new())),
            checked: Arc::new(AtomicU64::new(0)),
        }
    }

    /// One check per two cores (at least 1, at most 4), so pages keep a core
    /// during a flood of logins; four times as many waiting.
    pub fn for_this_machine() -> PasswordChecks {
        let cores = std::thread::available_parallelism().map_or(2, |n| n.get());
        let parallel = (cores / 2).clamp(1, 4);
        PasswordChecks::new(parallel, parallel * 4)
    }

    /// How many passwords were hashed.
    pub fn checked(&self) -> u64 {
        self.checked.load(Ordering::Relaxed)
    }

    fn admit(&self) -> AppResult<OwnedSemaphorePermit> {
        self.admission
            .clone()
            .try_acquire_owned()
            .map_err(|_| AppError::TooManyRequests(PASSWORDS_BUSY.into()))
    }

    /// Hashes `password` against `hash` in a reused work area.
    async fn verify(&self, password: String, hash: Option<String>) -> AppResult<bool> {
        let running = self
            .running
            .clone()
            .acquire_owned()
            .await
            .map_err(|e| AppError::Internal(anyhow::anyhow!("password checks: {e}")))?;
        let memory = self.memory.clone();
        let checked = self.checked.clone();
        // The permit moves into the work: a request dropped by its client
        // still counts until its hash is done.
        blocking(move || {
            let _running = running;
            let mut area = memory
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .pop()
                .unwrap_or_default();
            let ok = match hash {
                Some(hash) => users::verify_password_in(&password, &hash, &mut area),
                None => {
                    // Same work for an unknown login, so timing tells nothing.
                    users::verify_password_in(&password, &DUMMY_HASH, &mut area);
                    false
                }
            };
            checked.fetch_add(1, Ordering::Relaxed);
            memory
                .lock()
                .unwrap_or_else(PoisonError::into_inner)
                .push(area);
            Ok(ok)
        })
        .await
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

/// An argon2id hash of a random password, for unknown logins.
static DUMMY_HASH: std::sync::LazyLock<String> = std::sync::LazyLock::new(|| {
    users::hash_password(&uuid::Uuid::new_v4().to_string()).unwrap_or_default()
});

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

    #[test]
    fn the_dummy_hash_is_a_valid_argon2_hash() {
        assert!(argon2::password_hash::PasswordHash::new(&DUMMY_HASH).is_ok());
    }
}
