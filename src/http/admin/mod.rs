//! The admin API: everything staff do, behind `auth::require_admin`; each
//! module lists its routes in `routes()`.

pub mod call_providers;
pub mod catalogue;
pub mod checks;
pub mod content;
pub mod credit;
pub mod feeds;
pub mod lead_comments;
pub mod leads;
pub mod marketplace_sync;
pub mod marketplaces;
pub mod notifications;
pub mod parser;
pub mod person_data;
mod resource;
pub mod response_times;
pub mod salons;
pub mod saved_searches;
pub mod session;
pub mod staff;
pub mod uploads;

use rusqlite::Connection;

use crate::domain::audit::{self, NewEntry};
use crate::error::AppResult;
use crate::http::auth::Admin;
use crate::http::state::AppState;

/// Runs an admin write on the blocking pool and records its audit entry in
/// the same transaction (`audit::audited`), stamped with the server's clock
/// (a lead's response time reads it: `docs/response-times.md`).
pub(crate) async fn audited<T: Send + 'static>(
    state: &AppState,
    admin: &Admin,
    write: impl FnOnce(&Connection) -> AppResult<(T, Option<NewEntry>)> + Send + 'static,
) -> AppResult<T> {
    let username = admin.user.username.clone();
    let at = crate::notify::timestamp(state.clock.now());
    state
        .db
        .call(move |c| audit::audited_at(c, &at, &username, write))
        .await
}
