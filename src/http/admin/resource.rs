//! The audited add, change and delete of an admin resource (reviews,
//! promotions, partner banks, brands, credit programmes): one description
//! per resource names its storage, its audit object and its words, and the
//! three handlers' bodies are written once here. Each change and its line
//! in the audit log are one transaction ([`super::audited`]).

use axum::Json;
use axum::http::StatusCode;
use chrono::NaiveDate;
use rusqlite::Connection;
use serde::Serialize;

use super::audited;
use crate::domain::audit::{AuditObject, NewEntry};
use crate::error::{AppError, AppResult};
use crate::http::auth::Admin;
use crate::http::state::AppState;

/// One resource: how it is stored and how its changes are written in the
/// audit log. The storage functions get the Moscow date too (credit
/// programmes tell expired ones by it; the others ignore it).
pub struct Resource<T, I> {
    pub object: AuditObject,
    /// The audit log's words before the item's name: "Добавлен отзыв",
    /// "Изменён отзыв", "Удалён отзыв".
    pub created: &'static str,
    pub updated: &'static str,
    pub deleted: &'static str,
    /// The 404's text: "Отзыв не найден".
    pub gone: &'static str,
    /// The item's name in the audit log.
    pub name: fn(&T) -> String,
    /// A change is named by the item as it became (as it was, otherwise).
    pub named_after_change: bool,
    pub id: fn(&T) -> &str,
    pub get: fn(&Connection, &str, NaiveDate) -> AppResult<Option<T>>,
    pub create: fn(&Connection, &I, NaiveDate) -> AppResult<T>,
    pub update: fn(&Connection, &str, &I, NaiveDate) -> AppResult<Option<T>>,
    pub delete: fn(&Connection, &str) -> AppResult<bool>,
}

impl<T, I> Resource<T, I>
where
    T: Serialize + Send + 'static,
    I: Send + 'static,
{
    /// POST: the new item, 201.
    pub async fn create(
        &'static self,
        state: &AppState,
        admin: &Admin,
        input: I,
    ) -> AppResult<(StatusCode, Json<T>)> {
        let today = state.clock.moscow_today();
        let item = audited(state, admin, move |c| {
            let item = (self.create)(c, &input, today)?;
            let summary = format!("{}: {}", self.created, (self.name)(&item));
            let entry = NewEntry::created(self.object, (self.id)(&item), summary, &item);
            Ok((item, Some(entry)))
        })
        .await?;
        Ok((StatusCode::CREATED, Json(item)))
    }

    /// PUT: the item as it became; 404 when there is none.
    pub async fn update(
        &'static self,
        state: &AppState,
        admin: &Admin,
        id: String,
        input: I,
    ) -> AppResult<Json<T>> {
        let today = state.clock.moscow_today();
        audited(state, admin, move |c| {
            let Some(before) = (self.get)(c, &id, today)? else {
                return Ok((None, None));
            };
            let Some(after) = (self.update)(c, &id, &input, today)? else {
                return Ok((None, None));
            };
            let named = if self.named_after_change {
                &after
            } else {
                &before
            };
            let summary = format!("{}: {}", self.updated, (self.name)(named));
            let entry = NewEntry::updated(self.object, &id, summary, &before, &after);
            Ok((Some(after), Some(entry)))
        })
        .await?
        .map(Json)
        .ok_or_else(|| AppError::not_found(self.gone))
    }

    /// DELETE: 204; 404 when there is none.
    pub async fn delete(
        &'static self,
        state: &AppState,
        admin: &Admin,
        id: String,
    ) -> AppResult<StatusCode> {
        let today = state.clock.moscow_today();
        let found = audited(state, admin, move |c| {
            let Some(before) = (self.get)(c, &id, today)? else {
                return Ok((false, None));
            };
            let found = (self.delete)(c, &id)?;
            let summary = format!("{}: {}", self.deleted, (self.name)(&before));
            let entry = NewEntry::deleted(self.object, &id, summary, &before);
            Ok((found, found.then_some(entry)))
        })
        .await?;
        if found {
            Ok(StatusCode::NO_CONTENT)
        } else {
            Err(AppError::not_found(self.gone))
        }
    }
}
