//! How fast the staff answer leads: `GET /api/admin/response-times`
//! (`docs/response-times.md`).

use axum::Json;
use axum::extract::State;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

use crate::domain::response_times::{self, ResponseTimes};
use crate::domain::roles::Capability;
use crate::error::AppResult;
use crate::http::auth::Admin;
use crate::http::extract::ApiQuery;
use crate::http::openapi::ApiErrorBody;
use crate::http::state::AppState;

pub fn routes() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(response_times))
}

/// Response times of the leads: median and 90th percentile (nearest rank)
/// of the working minutes from arrival to the first status change, for
/// today, this week and last week (by the Moscow arrival date; weeks start
/// on Monday), in all and per staff user; the last 14 days for the chart;
/// the leads still `new` past the threshold, longest waiting first. A role
/// that does not see leads gets them without the name and the phone; a
/// manager gets only their own row of the per-user figures and only the
/// waiting leads they may open.
/// With `salon`, one salon's leads, its cars' calls, in its hours.
#[utoipa::path(get, path = "/api/admin/response-times", tag = "admin",
    params(crate::domain::salons::SalonQuery),
    responses((status = 200, body = ResponseTimes), (status = 400, body = ApiErrorBody),
        (status = 401, body = ApiErrorBody)))]
pub async fn response_times(
    State(state): State<AppState>,
    admin: Admin,
    ApiQuery(query): ApiQuery<crate::domain::salons::SalonQuery>,
) -> AppResult<Json<ResponseTimes>> {
    let now = state.clock.now();
    let salon = crate::domain::salons::checked_salon(query.salon)?;
    let mut report = state
        .db
        .call(move |c| response_times::report(c, now, salon))
        .await?;
    if !admin.can(Capability::Leads) {
        for lead in &mut report.overdue {
            lead.name.clear();
            lead.phone.clear();
        }
    } else if !admin.user.role.sees_every_lead() {
        // A manager: their own figures, and of the waiting leads only the
        // ones they may open (their own and the unassigned).
        let me = &admin.user;
        report
            .overdue
            .retain(|l| l.assignee_id.as_deref().is_none_or(|id| id == me.id));
        for period in &mut report.periods {
            period.users.retain(|u| u.username == me.username);
        }
    }
    Ok(Json(report))
}
