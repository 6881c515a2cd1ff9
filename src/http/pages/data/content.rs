//! The public pages beside the catalogue: trade-in, credit, the selection
//! form, the legal documents, and the pages a link leads to (favourites,
//! comparison, a mail's confirmation and unsubscribe links; the withdrawal
//! link's page is `forget.rs`).

use axum::extract::{RawQuery, State};
use axum::response::Response;
use rusqlite::Connection;
use serde_json::json;

use super::super::shell::Page;
use super::answer::{BODY_TYPES, CREDIT_PROGRAMS, banner_preloads, respond};
use crate::domain::credit_programs::{self, CreditSummary, percent_text};
use crate::domain::{body_types, settings};
use crate::error::AppResult;
use crate::http::state::AppState;

pub async fn trade_in(State(state): State<AppState>) -> AppResult<Response> {
    respond(state, |_, settings| {
        let mut page = Page::new("/trade-in").title("Трейд-ин").description(
            "Обмен автомобиля по программе трейд-ин в Санкт-Петербурге: оценка за 30 минут, \
             выгодная цена и оформление в один день.",
        );
        page.chunk = Some("src/pages/TradeIn.tsx");
        let banners = &settings.banners;
        banner_preloads(
            &mut page,
            &banners.trade_in_banner,
            &banners.trade_in_banner_mobile,
        );
        Ok(page)
    })
    .await
}

pub async fn auto_credit(State(state): State<AppState>) -> AppResult<Response> {
    let today = state.clock.moscow_today();
    respond(state, move |c, settings| {
        let banners = &settings.banners;
        let programs = credit_programs::public(c, today)?;
        let mut page = Page::new("/auto-credit")
            .title("Автокредит")
            .description(credit_description(programs.summary.as_ref()));
        page.chunk = Some("src/pages/AutoCredit.tsx");
        banner_preloads(
            &mut page,
            &banners.auto_credit_banner,
            &banners.auto_credit_banner_mobile,
        );
        page.put("/api/partner-banks", &crate::domain::banks::list(c, true)?);
        page.put(CREDIT_PROGRAMS, &programs);
        Ok(page)
    })
    .await
}

/// The credit page's description. A rate is named only from the valid
/// programmes, with the banks and the ПСК range before it (38-FZ art. 28,
/// `docs/credit.md`); with none, no figure at all.
fn credit_description(summary: Option<&CreditSummary>) -> String {
    let Some(s) = summary else {
        return "Автокредит на новые автомобили и автомобили с пробегом от банков-партнёров: \
                решение за 30 минут, без поручителей."
            .into();
    };
    let range = |min: f64, max: f64| {
        if min == max {
            format!("{}%", percent_text(min))
        } else {
            format!("от {}% до {}%", percent_text(min), percent_text(max))
        }
    };
    format!(
        "Автокредит на новые автомобили и автомобили с пробегом в банках {}: ПСК {}, ставка {}, \
         срок от {} до {} месяцев.",
        s.banks.join(", "),
        range(s.psk_min, s.psk_max),
        range(s.rate_min, s.rate_max),
        s.term_min_months,
        s.term_max_months
    )
}

pub async fn auto_selection(State(state): State<AppState>) -> AppResult<Response> {
    respond(state, |c, settings| {
        let banners = &settings.banners;
        let mut page = Page::new("/auto-selection")
            .title("Подбор автомобиля")
            .description(
                "Подберём автомобиль под ваш бюджет: укажите тип кузова, коробку передач и \
                 топливо — специалист предложит варианты.",
            );
        page.chunk = Some("src/pages/AutoSelection.tsx");
        banner_preloads(
            &mut page,
            &banners.auto_selection_banner,
            &banners.auto_selection_banner_mobile,
        );
        page.put(BODY_TYPES, &body_types::list(c)?);
        Ok(page)
    })
    .await
}

/// The salon a legal page's `?salon=` names, when the install has it (a
/// salon that is its own company shows its own texts: `docs/salons.md`).
fn salon_asked(
    query: Option<&str>,
    settings: &crate::domain::settings::PublicSettings,
) -> Option<i64> {
    let id: i64 = query?
        .split('&')
        .find_map(|pair| pair.strip_prefix("salon="))?
        .parse()
        .ok()?;
    (id != crate::domain::salons::MAIN && settings.salons.iter().any(|s| s.id == id)).then_some(id)
}

fn legal_page(
    c: &Connection,
    path: &str,
    document: &str,
    title: &str,
    salon: Option<i64>,
) -> AppResult<Page> {
    let shown = crate::domain::legal::current_for(
        c,
        &settings::get(c)?,
        salon.unwrap_or(crate::domain::salons::MAIN),
    )?;
    let text = if document == "consent" {
        shown.consent_text
    } else {
        shown.privacy_policy
    };
    let mut page = Page::new(path).title(title).description(format!(
        "{title}: на каких условиях мы обрабатываем данные посетителей сайта и заявок."
    ));
    let key = match salon {
        Some(id) => format!("/api/legal/{document}?salon={id}"),
        None => format!("/api/legal/{document}"),
    };
    page.put(
        key,
        &json!({ "title": title, "text": text, "version": shown.version }),
    );
    Ok(page)
}

pub async fn consent(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> AppResult<Response> {
    respond(state, move |c, settings| {
        legal_page(
            c,
            "/consent",
            "consent",
            "Согласие на обработку персональных данных",
            salon_asked(query.as_deref(), settings),
        )
    })
    .await
}

pub async fn privacy(
    State(state): State<AppState>,
    RawQuery(query): RawQuery,
) -> AppResult<Response> {
    respond(state, move |c, settings| {
        legal_page(
            c,
            "/privacy",
            "privacy",
            "Политика обработки персональных данных",
            salon_asked(query.as_deref(), settings),
        )
    })
    .await
}

/// A page the UI does all of (`chunk`): reached from the visitor's own
/// browser (favourites, comparison) or from a link in a mail, whose token
/// the UI sends and which stays out of the head. Nothing to embed, nothing
/// worth indexing.
async fn link_page(
    state: AppState,
    path: &'static str,
    title: &'static str,
    description: &'static str,
    chunk: &'static str,
) -> AppResult<Response> {
    respond(state, move |_, _| {
        let mut page = Page::new(path).title(title).description(description);
        page.noindex = true;
        page.chunk = Some(chunk);
        Ok(page)
    })
    .await
}

/// The visitor's favourites: kept in their browser.
pub async fn favorites(State(state): State<AppState>) -> AppResult<Response> {
    link_page(
        state,
        "/favorites",
        "Избранное",
        "Автомобили, которые вы отметили: хранятся в вашем браузере, без регистрации.",
        "src/pages/Favorites.tsx",
    )
    .await
}

/// A saved search's confirmation link (`?token=T`).
pub async fn saved_search_confirm(State(state): State<AppState>) -> AppResult<Response> {
    link_page(
        state,
        "/saved-searches/confirm",
        "Подтверждение подписки",
        "Подтверждение подписки на новые автомобили и снижение цен.",
        "src/pages/SavedSearchLink.tsx",
    )
    .await
}

/// A saved search's unsubscribe link (`?token=U`).
pub async fn saved_search_unsubscribe(State(state): State<AppState>) -> AppResult<Response> {
    link_page(
        state,
        "/saved-searches/unsubscribe",
        "Отписка от рассылки",
        "Отписка от уведомлений о новых автомобилях и снижении цен.",
        "src/pages/SavedSearchLink.tsx",
    )
    .await
}

/// Cars side by side; the cars are in the page's query (`?cars=a,b`), the
/// UI asks for them. One canonical address.
pub async fn compare(State(state): State<AppState>) -> AppResult<Response> {
    link_page(
        state,
        "/compare",
        "Сравнение автомобилей",
        "Сравнение автомобилей по цене и характеристикам: до четырёх машин рядом, \
         отличия отмечены.",
        "src/pages/Compare.tsx",
    )
    .await
}
