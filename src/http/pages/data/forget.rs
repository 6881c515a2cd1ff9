//! The withdrawal page of every visitor mail (`/personal-data/forget?token=T`,
//! `docs/personal-data.md`, "Withdrawing by a link"), drawn with what the
//! server knows: whether the link works (told when the page opens, read
//! only: mail scanners open links) and, after its form is sent without
//! JavaScript (`POST /personal-data/forget`, the token in the body), what
//! was done. With JavaScript the page sends the same token to
//! `POST /api/personal-data/forget` instead; both go through
//! `public::personal_data::withdraw`, under the same limits.

use axum::body::Bytes;
use axum::extract::{Query, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::response::Response;
use serde_json::{Value, json};

use super::super::shell::Page;
use super::answer::respond;
use crate::domain::saved_searches::mask_email;
use crate::domain::withdrawal::{self, RATE_LIMITED};
use crate::error::AppResult;
use crate::http::extract::ClientIp;
use crate::http::public::personal_data::{Refusal, client_allowed, withdraw};
use crate::http::state::AppState;

const PATH: &str = "/personal-data/forget";
const TITLE: &str = "Отзыв согласия на обработку персональных данных";
const DESCRIPTION: &str = "Отзыв согласия и удаление персональных данных по ссылке из письма.";

/// Where the page's data holds what the server found (`ui/src/pages/ForgetLink.tsx`
/// reads it): `{"state": "asking", "email"}`, `{"state": "invalid"}`,
/// `{"state": "done", "email"}` or `{"state": "failed", "message", "token"}`
/// (the token only to send the form again).
pub const OUTCOME: &str = "page:personal-data/forget";

/// The message of a withdrawal that failed for another reason than a limit.
const FAILED: &str = "Не удалось удалить данные";

/// The page a mail links: asks before anything is done, or says at once
/// that the link does not work (404), with the salon's address and phone
/// as the other way.
pub async fn personal_data_forget(
    State(state): State<AppState>,
    Query(query): Query<Vec<(String, String)>>,
) -> AppResult<Response> {
    // The first `token` counts, as the UI reads it.
    let token = query
        .into_iter()
        .find(|(name, _)| name == "token")
        .map(|(_, value)| value)
        .unwrap_or_default();
    let response = respond(state, move |c, _| {
        let outcome = match withdrawal::address(c, &token)? {
            Some(email) => json!({ "state": "asking", "email": mask_email(&email) }),
            None => json!({ "state": "invalid" }),
        };
        Ok(page(outcome))
    })
    .await?;
    Ok(personal(response))
}

/// The page's form sent without JavaScript (`token=T`, any body type read
/// as a form): the withdrawal done and said (200), or why not: an unknown
/// or spent link (404), a limit (429 with `Retry-After`), a failure (500).
pub async fn personal_data_forget_form(
    State(state): State<AppState>,
    ClientIp(ip): ClientIp,
    body: Bytes,
) -> AppResult<Response> {
    let token = form_urlencoded::parse(&body)
        .find(|(name, _)| name == "token")
        .map(|(_, value)| value.into_owned())
        .unwrap_or_default();
    let result = match client_allowed(&state, ip) {
        Err(seconds) => Err(Refusal::TooMany(seconds)),
        Ok(()) => withdraw(&state, token.clone()).await,
    };
    let (status, outcome, wait) = match result {
        Ok(email) => (
            StatusCode::OK,
            json!({ "state": "done", "email": email }),
            None,
        ),
        Err(Refusal::Invalid) => (StatusCode::NOT_FOUND, json!({ "state": "invalid" }), None),
        Err(Refusal::TooMany(seconds)) => (
            StatusCode::TOO_MANY_REQUESTS,
            json!({ "state": "failed", "message": RATE_LIMITED, "token": token }),
            Some(seconds),
        ),
        Err(Refusal::Failed(error)) => {
            tracing::error!(error = %error, "the withdrawal form failed");
            (
                StatusCode::INTERNAL_SERVER_ERROR,
                json!({ "state": "failed", "message": FAILED, "token": token }),
                None,
            )
        }
    };
    let mut response = respond(state, move |_, _| {
        let mut page = page(outcome);
        page.status = status;
        Ok(page)
    })
    .await?;
    if let Some(seconds) = wait {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
    }
    Ok(personal(response))
}

/// The page with `outcome` in its data; a link that does not work is 404.
fn page(outcome: Value) -> Page {
    let mut page = Page::new(PATH).title(TITLE).description(DESCRIPTION);
    if outcome["state"] == "invalid" {
        page = page.not_found();
    }
    page.noindex = true;
    page.chunk = Some("src/pages/ForgetLink.tsx");
    page.put(OUTCOME, &outcome);
    page
}

/// The page names the person's address (masked): kept by no cache.
fn personal(mut response: Response) -> Response {
    response
        .headers_mut()
        .insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    response
}
