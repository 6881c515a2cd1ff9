//! The admin credentials a request carries, read from its headers: the
//! session cookie or HTTP Basic. Only parsing lives here (no database, no
//! state), so any module may use it without importing the rest of `http`.

use axum::http::{HeaderMap, header};
use axum_extra::extract::cookie::{Cookie, CookieJar, SameSite};
use base64::Engine;
use base64::engine::general_purpose::STANDARD;

/// Name of the admin session cookie.
pub const SESSION_COOKIE: &str = "dealership_session";

/// What a request presents to prove it comes from an admin.
#[derive(Clone, PartialEq, Eq)]
pub enum Credentials {
    /// `Authorization: Basic`: a login and a password (scripts).
    Basic { login: String, password: String },
    /// The session cookie's token (the browser).
    Session(String),
}

/// Names the login, never the secret.
impl std::fmt::Debug for Credentials {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Credentials::Basic { login, .. } => write!(f, "Basic({login:?}, <password>)"),
            Credentials::Session(_) => f.write_str("Session(<token>)"),
        }
    }
}

impl Credentials {
    /// Basic wins over a cookie when a request carries both.
    pub fn from_headers(headers: &HeaderMap) -> Option<Credentials> {
        basic(headers)
            .map(|(login, password)| Credentials::Basic { login, password })
            .or_else(|| session_token(headers).map(Credentials::Session))
    }
}

/// The session token of the request's cookie, if any.
pub fn session_token(headers: &HeaderMap) -> Option<String> {
    CookieJar::from_headers(headers)
        .get(SESSION_COOKIE)
        .map(|c| c.value().to_string())
        .filter(|v| !v.is_empty())
}

/// `Authorization: Basic base64(login:password)`.
fn basic(headers: &HeaderMap) -> Option<(String, String)> {
    let value = headers.get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, encoded) = value.split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = String::from_utf8(STANDARD.decode(encoded.trim()).ok()?).ok()?;
    let (login, password) = decoded.split_once(':')?;
    Some((login.to_string(), password.to_string()))
}

/// The session cookie: HttpOnly, SameSite=Strict, `Secure` on an https site.
pub fn session_cookie(token: String, secure: bool) -> Cookie<'static> {
    Cookie::build((SESSION_COOKIE, token))
        .path("/")
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(secure)
        .build()
}

/// The cookie that makes the browser forget the session (Max-Age=0).
pub fn removal_cookie(secure: bool) -> Cookie<'static> {
    let mut cookie = session_cookie(String::new(), secure);
    cookie.make_removal();
    cookie
}

#[cfg(test)]
mod tests {
    use axum::http::HeaderValue;

    use super::*;

    fn headers(pairs: &[(header::HeaderName, &str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (name, value) in pairs {
            map.append(name.clone(), HeaderValue::from_str(value).unwrap());
        }
        map
    }

    #[test]
    fn reads_the_session_cookie_among_others() {
        let h = headers(&[(header::COOKIE, "a=1; dealership_session=tok; b=2")]);
        assert_eq!(session_token(&h).as_deref(), Some("tok"));
        assert_eq!(
            Credentials::from_headers(&h),
            Some(Credentials::Session("tok".into()))
        );
        let split = headers(&[
            (header::COOKIE, "a=1"),
            (header::COOKIE, "dealership_session=tok2"),
        ]);
        assert_eq!(session_token(&split).as_deref(), Some("tok2"));
        for none in ["dealership_session=", "other=1", "dealership_sessionx=1"] {
            assert_eq!(session_token(&headers(&[(header::COOKIE, none)])), None);
        }
    }

    #[test]
    fn reads_basic_credentials() {
        let encoded = STANDARD.encode("manager:pa:ss");
        for scheme in ["Basic", "basic", "BASIC"] {
            let h = headers(&[(header::AUTHORIZATION, &format!("{scheme} {encoded}"))]);
            assert_eq!(
                Credentials::from_headers(&h),
                Some(Credentials::Basic {
                    login: "manager".into(),
                    password: "pa:ss".into()
                })
            );
        }
        for bad in [
            "Bearer abc",
            "Basic !!!",
            "Basic",
            &format!("Basic {}", STANDARD.encode("no-colon")),
        ] {
            assert_eq!(
                basic(&headers(&[(header::AUTHORIZATION, bad)])),
                None,
                "{bad}"
            );
        }
    }

    #[test]
    fn the_cookie_is_http_only_and_strict() {
        let text = session_cookie("tok".into(), false).to_string();
        assert!(text.starts_with("dealership_session=tok"), "{text}");
        assert!(text.contains("HttpOnly") && text.contains("SameSite=Strict"));
        assert!(!text.contains("Secure"));
        assert!(
            session_cookie("tok".into(), true)
                .to_string()
                .contains("; Secure")
        );
        let removal = removal_cookie(false).to_string();
        assert!(removal.starts_with("dealership_session=;"), "{removal}");
        assert!(removal.contains("Max-Age=0") && removal.contains("Path=/"));
    }
}
