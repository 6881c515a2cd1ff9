//! The admin API: everything staff do, behind `auth::require_admin`; each
//! module lists its routes in `routes()`.

pub mod catalogue;
pub mod content;
pub mod credit;
pub mod leads;
pub mod notifications;
pub mod parser;
pub mod saved_searches;
pub mod session;
pub mod uploads;

use rusqlite::Connection;

use crate::domain::audit::{self, NewEntry};
use crate::error::AppResult;
use crate::http::auth::Admin;
use crate::http::state::AppState;

/// Runs an admin write on the blocking pool and records its audit entry in
/// the same transaction (`audit::audited`).
pub(crate) async fn audited<T: Send + 'static>(
    state: &AppState,
    admin: &Admin,
    write: impl FnOnce(&Connection) -> AppResult<(T, Option<NewEntry>)> + Send + 'static,
) -> AppResult<T> {
    let username = admin.user.username.clone();
    state
        .db
        .call(move |c| audit::audited(c, &username, write))
        .await
}
