//! A run of every check on a Moscow date: the data's checks, the home
//! page's rates, ads without a token and the personal-data texts, errors
//! first.

use super::data::{
    active_bank_names, brands, cars, credit, gone_published, marketplace_refused, personal_data,
    promotions, unmarked,
};
use super::problem::{CheckKind, Problem, Severity, problem};
use super::wording::rate_without_bank;
use crate::config::Config;
use crate::domain::settings;
use crate::error::AppResult;
use chrono::NaiveDate;
use rusqlite::Connection;

/// Every problem on the Moscow date `today` with the set-up `config`:
/// errors first, then warnings.
pub fn run(conn: &Connection, today: NaiveDate, config: &Config) -> AppResult<Vec<Problem>> {
    let banks = active_bank_names(conn)?;
    let mut found = Vec::new();
    promotions(conn, today, &banks, &mut found)?;
    credit(conn, today, &mut found)?;
    let s = settings::get(conn)?;
    let hero = format!("{}\n{}", s.public.hero_title, s.public.hero_subtitle);
    if let Some(snippet) = rate_without_bank(&hero, &banks) {
        found.push(problem(
            CheckKind::RateWithoutBank,
            "Ставка по кредиту без названия банка",
            format!(
                "Главная страница (заголовок и подзаголовок): «{snippet}» — назовите банк, который \
                 выдаёт кредит, или уберите ставку"
            ),
            "/admin/settings".into(),
            None,
        ));
    }
    for ad in unmarked(conn, &s, today)? {
        found.push(problem(
            CheckKind::AdWithoutToken,
            "Реклама без токена (erid)",
            format!(
                "{}: реклама в интернете показывается с пометкой «Реклама», рекламодателем и \
                 токеном от оператора рекламных данных (ст. 18.1 38-ФЗ). Получите токен и \
                 впишите его",
                ad.what
            ),
            ad.link,
            ad.id.as_deref(),
        ));
    }
    brands(conn, &banks, &mut found)?;
    cars(conn, &banks, &mut found)?;
    gone_published(conn, &mut found)?;
    marketplace_refused(conn, &mut found)?;
    let now = chrono::Utc::now();
    for (provider, since) in
        crate::calltracking::silence::silent(conn, config, &s.public.work_schedule, now)?
    {
        let since = since.with_timezone(&crate::clock::moscow());
        found.push(problem(
            CheckKind::CallsSilent,
            "Звонки не приходят",
            format!(
                "{}: с {} (МСК) не пришло ни одного звонка, хотя прошёл рабочий день. Проверьте \
                 адрес вебхука и его секрет в кабинете сервиса, интеграцию и сетевой экран \
                 (docs/calls.md)",
                provider.label(),
                since.format("%d.%m.%Y %H:%M")
            ),
            "/admin/calls".into(),
            None,
        ));
    }
    if s.consent_text.trim().is_empty() {
        found.push(problem(
            CheckKind::ConsentTextMissing,
            "Нет текста согласия на обработку персональных данных",
            "Формы заявок ссылаются на пустой текст согласия (152-ФЗ): заполните его в настройках"
                .into(),
            "/admin/settings#consent".into(),
            None,
        ));
    }
    if s.privacy_policy.trim().is_empty() {
        found.push(problem(
            CheckKind::PrivacyPolicyMissing,
            "Нет политики обработки персональных данных",
            "Страница политики пуста, а формы заявок ссылаются на неё (152-ФЗ): заполните её в \
             настройках"
                .into(),
            "/admin/settings#privacy".into(),
            None,
        ));
    }
    personal_data(&s, config, &mut found);
    // Stable: within a severity, the order of the checks above.
    found.sort_by_key(|p| p.severity != Severity::Error);
    Ok(found)
}
