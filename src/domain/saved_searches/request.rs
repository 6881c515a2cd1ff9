//! A visitor's request to follow a filter: its fields, and every check
//! against the rules and the catalogue.

use super::filter::{check_filter, describe, site_path};
use super::search::{
    ADVERTISING_CONSENT_REQUIRED, EMAIL_INVALID, FilterInput, PAGE_URL_INVALID, SearchFilter,
};
use crate::domain::{check_len, leads};
use crate::error::{AppError, AppResult};
use rusqlite::Connection;
use serde::Deserialize;
use utoipa::ToSchema;

/// A visitor's request to follow a filter.
#[derive(Debug, Clone, Default, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SubscribeInput {
    #[serde(default)]
    pub email: Option<String>,
    #[serde(default)]
    pub filter: Option<FilterInput>,
    /// The catalogue page asked on: this site's absolute URL or a path
    /// (`/new-cars?brand=haval`), at most 2000 characters.
    #[serde(default)]
    pub page_url: Option<String>,
    /// 152-FZ consent to personal data processing (required).
    #[serde(default)]
    pub consent: bool,
    /// 38-FZ art. 18 consent to advertising mail (required here: alerts are
    /// advertising).
    #[serde(default)]
    pub advertising_consent: bool,
    /// Honeypot: hidden from people; a filled one marks a bot.
    #[serde(default)]
    pub website: Option<String>,
}

/// A request that passed every check.
#[derive(Debug, Clone)]
pub struct ValidRequest {
    pub email: String,
    pub filter: SearchFilter,
    /// Path and query within the site.
    pub page_url: String,
    pub description: String,
}

impl SubscribeInput {
    pub fn is_bot(&self) -> bool {
        self.website
            .as_deref()
            .is_some_and(|w| !w.trim().is_empty())
    }

    /// Checks every field against the rules and the catalogue; `base_url`
    /// is the site's own (config).
    pub fn validate(self, conn: &Connection, base_url: &str) -> AppResult<ValidRequest> {
        let email = self
            .email
            .as_deref()
            .map(str::trim)
            .filter(|e| !e.is_empty())
            .ok_or_else(|| AppError::invalid("email", EMAIL_INVALID))?;
        check_len("email", "E-mail", email, 255)?;
        if !leads::is_email(email) || email.chars().any(char::is_control) {
            return Err(AppError::invalid("email", EMAIL_INVALID));
        }
        let filter = check_filter(conn, self.filter.unwrap_or_default())?;
        let page_url = self
            .page_url
            .as_deref()
            .map(str::trim)
            .filter(|u| !u.is_empty())
            .ok_or_else(|| AppError::invalid("pageUrl", "Не указана страница каталога"))?;
        check_len("pageUrl", "Страница каталога", page_url, 2000)?;
        let page_url = site_path(page_url, base_url)
            .ok_or_else(|| AppError::invalid("pageUrl", PAGE_URL_INVALID))?;
        if !self.consent {
            return Err(AppError::invalid("consent", leads::CONSENT_REQUIRED));
        }
        if !self.advertising_consent {
            return Err(AppError::invalid(
                "advertisingConsent",
                ADVERTISING_CONSENT_REQUIRED,
            ));
        }
        let description = describe(conn, &filter)?;
        Ok(ValidRequest {
            email: email.to_lowercase(),
            filter,
            page_url,
            description,
        })
    }
}
