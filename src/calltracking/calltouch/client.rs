//! Calltouch's calls journal API: `GET {api_url}/calls-service/RestAPI/
//! {siteId}/calls-diary/calls?clientApiId=…&dateFrom=dd/mm/yyyy&dateTo=…
//! &page=N&limit=≤1000`, one day a query. Paged, it answers `{page,
//! pageTotal, pageSize, recordsTotal, records: [call…]}`; asked without
//! `page`, a bare list of calls; both are read. The token (`clientApiId`)
//! travels in the query, so no address is ever quoted in an error.

use chrono::{NaiveDate, Utc};
use reqwest::StatusCode;
use serde_json::Value;

use super::fields::{self, Fields};
use crate::config::CalltouchConfig;
use crate::domain::calls::Call;
use crate::marketplaces::{MarketError, Patience, send};

/// Calls a page: the most the journal gives.
pub const PAGE_LIMIT: u32 = 1000;
/// The most pages read for one day (a million calls): a journal that keeps
/// saying "more" does not hold a poll forever.
const PAGES_MAX: u32 = 1000;
/// The longest piece of an answer quoted in an error.
const QUOTED: usize = 300;

/// The calls journal's client.
pub struct Calltouch {
    base: String,
    site_id: String,
    token: String,
    http: reqwest::Client,
    patience: Patience,
}

/// One page of the journal.
struct Page {
    records: Vec<Value>,
    /// None: not said (a bare list is the whole day).
    pages: Option<u32>,
    total: Option<u64>,
    whole_day: bool,
}

impl Calltouch {
    /// A client for `config`, the token read from its file (mode 600);
    /// `NotConfigured` when neither the site nor the token is set.
    pub fn new(
        config: &CalltouchConfig,
        http: reqwest::Client,
        patience: Patience,
    ) -> Result<Calltouch, MarketError> {
        let site_id = config.site_id.trim();
        let no_token = config.token_file.as_os_str().is_empty();
        if site_id.is_empty() && no_token {
            return Err(MarketError::NotConfigured(
                "Calltouch: укажите calltouch.site_id и calltouch.token_file".into(),
            ));
        }
        if site_id.is_empty() || no_token {
            return Err(MarketError::Secret(
                "calltouch: set both site_id (the site's id in Calltouch) and token_file \
                 (a file of mode 600 holding clientApiId) to read the calls journal"
                    .into(),
            ));
        }
        if !site_id.chars().all(|c| c.is_ascii_digit()) {
            return Err(MarketError::Secret(format!(
                "calltouch.site_id «{site_id}» is not a number: copy it from Calltouch \
                 (Интеграции → API)"
            )));
        }
        let token =
            crate::secret_file::read(&config.token_file, "calltouch.token_file", "the API token")
                .map_err(|err| MarketError::Secret(format!("{err:#}")))?;
        Ok(Calltouch {
            base: crate::config_calls::api_base(&config.api_url),
            site_id: site_id.to_string(),
            token,
            http,
            patience,
        })
    }

    /// Checks the keys with one light call (today's journal, one call a
    /// page); the words say what was seen: «сайт 12345: звонков сегодня: 3».
    pub async fn check(&self) -> Result<String, MarketError> {
        let today = Utc::now()
            .with_timezone(&crate::clock::moscow())
            .date_naive();
        let page = self.page(today, 1, 1).await?;
        let count = page.total.unwrap_or(page.records.len() as u64);
        Ok(format!("сайт {}: звонков сегодня: {count}", self.site_id))
    }

    /// Every call of the Moscow day `day`, all pages read. A record that
    /// is not a readable call (no caller: a hidden number) is left out.
    pub async fn calls_of_day(&self, day: NaiveDate) -> Result<Vec<Call>, MarketError> {
        let now = Utc::now();
        let mut calls = Vec::new();
        let mut seen = 0u64;
        for number in 1..=PAGES_MAX {
            let page = self.page(day, number, PAGE_LIMIT).await?;
            let got = page.records.len();
            seen += got as u64;
            for record in &page.records {
                let Value::Object(object) = record else {
                    return Err(MarketError::Answer(
                        "в журнале звонков запись не объект".into(),
                    ));
                };
                let mut f = Fields::default();
                f.add_json(object);
                match fields::call(&f, now) {
                    Ok(call) => calls.push(call),
                    Err((field, why)) => {
                        tracing::warn!(%day, "calltouch journal: a call left out: {field}: {why}");
                    }
                }
            }
            let last = page.whole_day
                || got == 0
                || match page.pages {
                    Some(pages) => number >= pages,
                    None => got < PAGE_LIMIT as usize,
                }
                || page.total.is_some_and(|total| seen >= total);
            if last {
                return Ok(calls);
            }
        }
        Err(MarketError::Answer(format!(
            "журнал звонков за {day} длиннее {PAGES_MAX} страниц"
        )))
    }

    /// Page `number` of the journal of `day`, `limit` calls a page.
    async fn page(&self, day: NaiveDate, number: u32, limit: u32) -> Result<Page, MarketError> {
        let url = format!(
            "{}/calls-service/RestAPI/{}/calls-diary/calls",
            self.base, self.site_id
        );
        let date = day.format("%d/%m/%Y").to_string();
        let (number_text, limit_text) = (number.to_string(), limit.to_string());
        let answer = send(
            || {
                self.http.get(&url).query(&[
                    ("clientApiId", self.token.as_str()),
                    ("dateFrom", date.as_str()),
                    ("dateTo", date.as_str()),
                    ("page", number_text.as_str()),
                    ("limit", limit_text.as_str()),
                ])
            },
            &self.patience,
        )
        .await?;
        let status = answer.status();
        let body = answer
            .bytes()
            .await
            .map_err(|err| MarketError::Unavailable(err.without_url().to_string()))?;
        if status == StatusCode::UNAUTHORIZED || status == StatusCode::FORBIDDEN {
            return Err(MarketError::Unauthorized {
                status: status.as_u16(),
                message: format!(
                    "Calltouch не принял clientApiId для сайта {}: {}",
                    self.site_id,
                    self.quote(&body)
                ),
            });
        }
        if !status.is_success() {
            return Err(MarketError::Answer(format!(
                "HTTP {}: {}",
                status.as_u16(),
                self.quote(&body)
            )));
        }
        let value: Value = serde_json::from_slice(&body).map_err(|_| {
            MarketError::Answer(format!("журнал звонков не JSON: {}", self.quote(&body)))
        })?;
        let number_of = |v: &Value| {
            v.as_u64()
                .or_else(|| v.as_str().and_then(|s| s.trim().parse().ok()))
        };
        match value {
            Value::Array(records) => Ok(Page {
                records,
                pages: None,
                total: None,
                whole_day: true,
            }),
            Value::Object(mut object) => match object.remove("records") {
                Some(Value::Array(records)) => Ok(Page {
                    records,
                    pages: object
                        .get("pageTotal")
                        .and_then(number_of)
                        .map(|p| p.min(u64::from(u32::MAX)) as u32),
                    total: object.get("recordsTotal").and_then(number_of),
                    whole_day: false,
                }),
                Some(Value::Null) | None if object.contains_key("recordsTotal") => Ok(Page {
                    records: Vec::new(),
                    pages: Some(0),
                    total: object.get("recordsTotal").and_then(number_of),
                    whole_day: false,
                }),
                _ => Err(MarketError::Answer(format!(
                    "в ответе журнала звонков нет records: {}",
                    self.quote(&body)
                ))),
            },
            _ => Err(MarketError::Answer(format!(
                "журнал звонков не список: {}",
                self.quote(&body)
            ))),
        }
    }

    /// A piece of an answer to quote, the token never in it.
    fn quote(&self, body: &[u8]) -> String {
        let text: String = String::from_utf8_lossy(body).chars().take(QUOTED).collect();
        text.replace(&self.token, "***").trim().to_string()
    }
}
