//! A person's data as one file (`docs/personal-data.md`, "A person's
//! request"): the JSON of everything found, or the same as a readable page
//! in Russian, with the consent texts they agreed to, for the owner to send
//! the person.

use chrono::{DateTime, Utc};
use rusqlite::Connection;
use serde::Serialize;

use super::legal;
use super::person_data::{PersonData, Subject};
use super::settings::Settings;
use crate::error::{AppError, AppResult};
use crate::notify::message::{escape, moscow_time, status_label, type_label};

/// The consent texts of one version, as the person saw them.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct ConsentText {
    version: i64,
    consent_text: String,
    privacy_policy: String,
}

/// The JSON file: who holds the data, whose it is, and all of it.
#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Export<'a> {
    generated_at: String,
    operator: Operator<'a>,
    subject: Whose<'a>,
    data: &'a PersonData,
    consent_texts: Vec<ConsentText>,
}

#[derive(Debug, Serialize)]
#[serde(rename_all = "camelCase")]
struct Operator<'a> {
    name: &'a str,
    inn: &'a str,
    ogrn: &'a str,
    address: &'a str,
}

#[derive(Debug, Serialize)]
struct Whose<'a> {
    phone: Option<&'a str>,
    email: Option<&'a str>,
}

fn consent_texts(conn: &Connection, data: &PersonData) -> AppResult<Vec<ConsentText>> {
    let mut out = Vec::new();
    for version in &data.consent_versions {
        if let Some(doc) = legal::documents(conn, *version)? {
            out.push(ConsentText {
                version: doc.version,
                consent_text: doc.consent_text,
                privacy_policy: doc.privacy_policy,
            });
        }
    }
    Ok(out)
}

/// The JSON file.
pub fn json(
    conn: &Connection,
    who: &Subject,
    data: &PersonData,
    settings: &Settings,
    now: DateTime<Utc>,
) -> AppResult<String> {
    let export = Export {
        generated_at: now.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        operator: Operator {
            name: &settings.public.operator_name,
            inn: &settings.public.operator_inn,
            ogrn: &settings.public.operator_ogrn,
            address: &settings.public.operator_address,
        },
        subject: Whose {
            phone: who.phone.as_deref(),
            email: who.email.as_deref(),
        },
        data,
        consent_texts: consent_texts(conn, data)?,
    };
    serde_json::to_string_pretty(&export).map_err(|e| AppError::Internal(e.into()))
}

fn row(cells: &[String]) -> String {
    let cells: String = cells.iter().map(|c| format!("<td>{c}</td>")).collect();
    format!("<tr>{cells}</tr>")
}

fn table(caption: &str, head: &[&str], rows: &[String]) -> String {
    if rows.is_empty() {
        return format!("<h2>{caption}</h2><p>Нет.</p>");
    }
    let head: String = head
        .iter()
        .map(|h| format!("<th scope=\"col\">{h}</th>"))
        .collect();
    format!(
        "<h2>{caption}</h2><table><thead><tr>{head}</tr></thead><tbody>{}</tbody></table>",
        rows.concat()
    )
}

fn opt(value: &Option<String>) -> String {
    value.as_deref().map(escape).unwrap_or_default()
}

/// The readable page.
pub fn html(
    conn: &Connection,
    who: &Subject,
    data: &PersonData,
    settings: &Settings,
    now: DateTime<Utc>,
) -> AppResult<String> {
    let leads: Vec<String> = data
        .leads
        .iter()
        .map(|l| {
            let car = [l.car_brand.clone(), l.car_model.clone()]
                .into_iter()
                .flatten()
                .collect::<Vec<_>>()
                .join(" ");
            row(&[
                moscow_time(&l.created_at),
                escape(type_label(l.lead_type)),
                escape(status_label(l.status)),
                escape(&l.name),
                escape(&super::phone::display(&l.phone)),
                opt(&l.email),
                opt(&l.message),
                [opt(&l.car_info), escape(&car)]
                    .into_iter()
                    .filter(|s| !s.is_empty())
                    .collect::<Vec<_>>()
                    .join("; "),
                format!(
                    "версия {}, {}, IP {}{}",
                    l.consent_version,
                    moscow_time(&l.consent_at),
                    escape(&l.consent_ip),
                    if l.advertising_consent {
                        "; согласие на рекламу"
                    } else {
                        ""
                    }
                ),
            ])
        })
        .collect();
    let subscriptions: Vec<String> = data
        .subscriptions
        .iter()
        .map(|s| {
            row(&[
                moscow_time(&s.created_at),
                escape(&s.email),
                escape(&s.page_url),
                format!(
                    "версия {}, {}, IP {}",
                    s.consent_version,
                    moscow_time(&s.consent_at),
                    escape(&s.consent_ip)
                ),
                s.confirmed_at
                    .as_deref()
                    .map(moscow_time)
                    .unwrap_or_default(),
                s.unsubscribed_at
                    .as_deref()
                    .map(moscow_time)
                    .unwrap_or_default(),
            ])
        })
        .collect();
    let comments: Vec<String> = data
        .comments
        .iter()
        .map(|c| {
            row(&[
                moscow_time(&c.created_at),
                escape(&c.author_name),
                escape(&c.body),
            ])
        })
        .collect();
    let deliveries: Vec<String> = data
        .deliveries
        .iter()
        .map(|d| {
            row(&[
                moscow_time(&d.created_at),
                escape(d.kind.as_str()),
                escape(d.channel.as_str()),
                escape(d.state.as_str()),
            ])
        })
        .collect();
    let audit: Vec<String> = data
        .audit
        .iter()
        .map(|e| row(&[moscow_time(&e.at), escape(&e.username), escape(&e.summary)]))
        .collect();
    let consents: String = consent_texts(conn, data)?
        .iter()
        .map(|c| {
            format!(
                "<h3>Версия {}</h3><h4>Согласие на обработку персональных данных</h4>\
                 <p style=\"white-space:pre-wrap\">{}</p>\
                 <h4>Политика обработки персональных данных</h4>\
                 <p style=\"white-space:pre-wrap\">{}</p>",
                c.version,
                escape(&c.consent_text),
                escape(&c.privacy_policy)
            )
        })
        .collect();
    let blank = |v: &str| {
        if v.trim().is_empty() {
            "[не указано]".to_string()
        } else {
            escape(v)
        }
    };
    Ok(format!(
        "<!DOCTYPE html><html lang=\"ru\"><head><meta charset=\"utf-8\">\
         <title>Сведения о персональных данных</title>\
         <style>body{{font:14px/1.5 sans-serif;max-width:60rem;margin:2rem auto;padding:0 1rem}}\
         table{{border-collapse:collapse;width:100%}}td,th{{border:1px solid #888;\
         padding:.25rem .5rem;text-align:left;vertical-align:top}}</style></head><body>\
         <h1>Сведения о персональных данных</h1>\
         <p>Составлено {when} по запросу субъекта персональных данных: {who}.</p>\
         <p>Оператор: {name}, ИНН {inn}, ОГРН {ogrn}, адрес: {address}.</p>\
         {leads}{subscriptions}{comments}{deliveries}{audit}\
         <h2>Тексты согласий</h2>{consents}</body></html>",
        when = moscow_time(&now.to_rfc3339()),
        who = escape(&who.describe()),
        name = blank(&settings.public.operator_name),
        inn = blank(&settings.public.operator_inn),
        ogrn = blank(&settings.public.operator_ogrn),
        address = blank(&settings.public.operator_address),
        leads = table(
            "Заявки",
            &[
                "Дата",
                "Тип",
                "Статус",
                "Имя",
                "Телефон",
                "E-mail",
                "Сообщение",
                "Автомобиль",
                "Согласие"
            ],
            &leads
        ),
        subscriptions = table(
            "Подписки на подборки",
            &[
                "Дата",
                "E-mail",
                "Страница",
                "Согласие",
                "Подтверждена",
                "Отменена"
            ],
            &subscriptions
        ),
        comments = table(
            "Комментарии сотрудников",
            &["Дата", "Автор", "Текст"],
            &comments
        ),
        deliveries = table(
            "Уведомления и письма",
            &["Дата", "Вид", "Канал", "Состояние"],
            &deliveries
        ),
        audit = table(
            "Журнал действий",
            &["Дата", "Пользователь", "Запись"],
            &audit
        ),
        consents = if consents.is_empty() {
            "<p>Нет.</p>".to_string()
        } else {
            consents
        },
    ))
}
