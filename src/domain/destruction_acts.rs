//! Destruction acts (`docs/personal-data.md`, "Destruction acts"): each
//! erasure — the nightly retention run, an owner answering a person's
//! request, a visitor's withdrawal link — writes one, with what was erased
//! and why. Downloaded as a printable page with the extract of the event
//! log, as Roskomnadzor's order No. 179 of 28.10.2022 asks of a processing
//! done by computer. It holds no personal data: people are named by their
//! leads' and subscriptions' ids.

use chrono::{DateTime, Utc};
use rusqlite::{Connection, OptionalExtension, Row, params};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::person_data::Erased;
use super::settings::Settings;
use super::text_enum;
use crate::error::{AppError, AppResult};
use crate::notify::message::{escape, moscow_time};

text_enum!(
    /// Why the data was erased.
    ActReason {
        Retention = "retention",
        Request = "request",
        Withdrawal = "withdrawal",
    }
);

/// One act, as listed.
#[derive(Debug, Clone, Serialize, ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DestructionAct {
    pub id: i64,
    /// RFC 3339 UTC.
    pub at: String,
    pub reason: ActReason,
    /// "Истёк срок хранения: …", in Russian.
    pub reason_text: String,
    /// The people whose data was erased.
    pub subjects: i64,
    pub leads: i64,
    pub subscriptions: i64,
    pub deliveries: i64,
    pub audit_entries: i64,
    /// The categories of personal data erased, in Russian.
    pub categories: Vec<String>,
    /// The owner's login; empty for the nightly job or a visitor's link.
    pub by: String,
}

/// One person in an act: what of theirs was erased, by id.
#[derive(Debug, Clone, Default, Serialize, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub struct ActRecord {
    pub leads: Vec<String>,
    pub subscriptions: Vec<String>,
}

impl ActRecord {
    pub fn of(erased: &Erased) -> ActRecord {
        ActRecord {
            leads: erased.lead_ids.clone(),
            subscriptions: erased.subscription_ids.clone(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.leads.is_empty() && self.subscriptions.is_empty()
    }
}

/// The categories of data an erasure removed: those its leads held, then
/// the subscriptions', comments', notifications' and audit entries'.
pub fn categories(erased: &Erased) -> Vec<String> {
    let mut out: Vec<&str> = Vec::new();
    // What the leads held, not every field a lead may hold.
    out.extend(erased.lead_categories.iter().copied());
    if erased.subscriptions > 0 {
        for c in [
            "адрес электронной почты",
            "IP-адрес при даче согласия",
            "сохранённые поиски и отправленные по ним сведения",
        ] {
            if !out.contains(&c) {
                out.push(c);
            }
        }
    }
    if erased.comments > 0 {
        out.push("комментарии сотрудников к заявкам");
    }
    if erased.deliveries > 0 {
        out.push("копии уведомлений и писем");
    }
    if erased.audit_entries > 0 {
        out.push("упоминания в журнале действий администраторов");
    }
    out.into_iter().map(String::from).collect()
}

/// Writes an act for `records` (one per person), with `totals` summed.
pub fn record(
    conn: &Connection,
    reason: ActReason,
    reason_text: &str,
    by: &str,
    records: &[ActRecord],
    totals: &Erased,
    at: DateTime<Utc>,
) -> AppResult<DestructionAct> {
    conn.prepare_cached(
        "INSERT INTO destruction_acts (at, reason, reason_text, by_login, subjects, leads,
            subscriptions, deliveries, audit_entries, categories, records)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?
    .execute(params![
        at.to_rfc3339_opts(chrono::SecondsFormat::Millis, true),
        reason,
        reason_text,
        by,
        records.len() as i64,
        totals.leads,
        totals.subscriptions,
        totals.deliveries,
        totals.audit_entries,
        to_json(&categories(totals))?,
        to_json(&records)?,
    ])?;
    let id = conn.last_insert_rowid();
    get(conn, id)?.ok_or_else(|| AppError::not_found("Акт не найден"))
}

fn to_json<T: Serialize>(value: &T) -> AppResult<String> {
    serde_json::to_string(value).map_err(|e| AppError::Internal(e.into()))
}

const SELECT: &str = "SELECT id, at, reason, reason_text, subjects, leads, subscriptions,
    deliveries, audit_entries, categories, by_login FROM destruction_acts";

fn from_row(row: &Row) -> rusqlite::Result<DestructionAct> {
    Ok(DestructionAct {
        id: row.get(0)?,
        at: row.get(1)?,
        reason: row.get(2)?,
        reason_text: row.get(3)?,
        subjects: row.get(4)?,
        leads: row.get(5)?,
        subscriptions: row.get(6)?,
        deliveries: row.get(7)?,
        audit_entries: row.get(8)?,
        categories: super::json_column(&row.get::<_, String>(9)?),
        by: row.get(10)?,
    })
}

pub fn get(conn: &Connection, id: i64) -> AppResult<Option<DestructionAct>> {
    Ok(conn
        .prepare_cached(&format!("{SELECT} WHERE id = ?1"))?
        .query_row([id], from_row)
        .optional()?)
}

/// Newest first, at most 200.
pub fn list(conn: &Connection) -> AppResult<Vec<DestructionAct>> {
    let mut stmt = conn.prepare_cached(&format!("{SELECT} ORDER BY id DESC LIMIT 200"))?;
    let rows = stmt.query_map([], from_row)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

fn records(conn: &Connection, id: i64) -> AppResult<Vec<ActRecord>> {
    let text: String = conn.query_row(
        "SELECT records FROM destruction_acts WHERE id = ?1",
        [id],
        |r| r.get(0),
    )?;
    Ok(super::json_column(&text))
}

fn or_blank(value: &str) -> String {
    if value.trim().is_empty() {
        "[не указано]".into()
    } else {
        escape(value.trim())
    }
}

/// The act as a printable page (HTML, Russian), with the extract of the
/// event log: one line per person.
pub fn render(
    conn: &Connection,
    act: &DestructionAct,
    settings: &Settings,
    site: &str,
) -> AppResult<String> {
    let records = records(conn, act.id)?;
    let when = moscow_time(&act.at);
    let by = if act.by.is_empty() {
        match act.reason {
            ActReason::Retention => "автоматически, ежедневным заданием сайта".to_string(),
            _ => "автоматически, по ссылке из письма субъекта".to_string(),
        }
    } else {
        format!("администратор сайта «{}»", escape(&act.by))
    };
    let categories: String = act
        .categories
        .iter()
        .map(|c| format!("<li>{}</li>", escape(c)))
        .collect();
    let mut log = String::new();
    for (n, record) in records.iter().enumerate() {
        let mut what = Vec::new();
        if !record.leads.is_empty() {
            what.push(format!("заявки {}", escape(&record.leads.join(", "))));
        }
        if !record.subscriptions.is_empty() {
            what.push(format!(
                "подписки {}",
                escape(&record.subscriptions.join(", "))
            ));
        }
        log.push_str(&format!(
            "<tr><td>{when}</td><td>Субъект {}</td><td>{}</td><td>Уничтожение персональных данных</td><td>{}</td></tr>",
            n + 1,
            what.join("; "),
            escape(&act.reason_text),
        ));
    }
    Ok(format!(
        "<!DOCTYPE html><html lang=\"ru\"><head><meta charset=\"utf-8\">\
         <title>Акт об уничтожении персональных данных № {id}</title>\
         <style>body{{font:14px/1.5 serif;max-width:50rem;margin:2rem auto;padding:0 1rem}}\
         table{{border-collapse:collapse;width:100%}}td,th{{border:1px solid #444;padding:.25rem .5rem;\
         text-align:left;vertical-align:top}}</style></head><body>\
         <h1>Акт об уничтожении персональных данных № {id}</h1>\
         <p>Дата и время уничтожения: {when}</p>\
         <h2>Оператор</h2><p>{name}, ИНН {inn}, ОГРН {ogrn}<br>Адрес: {address}</p>\
         <h2>Информационная система</h2><p>Сайт автосалона {site} (база данных сайта)</p>\
         <h2>Основание</h2><p>{reason}</p>\
         <h2>Субъекты персональных данных</h2>\
         <p>Число субъектов: {subjects}. Заявок: {leads}, подписок: {subscriptions}, \
         уведомлений и писем: {deliveries}, записей журнала действий: {audit}. Субъекты \
         указаны в выгрузке ниже идентификаторами их заявок и подписок.</p>\
         <h2>Перечень уничтоженных персональных данных</h2><ul>{categories}</ul>\
         <h2>Способ уничтожения</h2><p>Стирание в базе данных сайта: поля с персональными \
         данными заменены отметкой «[удалено]», записи подписок, ссылок и писем удалены; \
         освобождённое место файла базы перезаписано нулями (режим secure_delete SQLite), \
         журнал предзаписи (WAL) очищен. Восстановление данных невозможно.</p>\
         <h2>Кем уничтожены</h2><p>{by}</p>\
         <p>Ответственный за организацию обработки персональных данных:<br>\
         ______________________ / ______________________ / «___» __________ 20__ г.</p>\
         <h2>Выгрузка из журнала регистрации событий</h2>\
         <table><thead><tr><th>Дата и время</th><th>Субъект</th><th>Записи</th><th>Событие</th>\
         <th>Причина</th></tr></thead><tbody>{log}</tbody></table>\
         <p>Акт и выгрузка хранятся три года с даты уничтожения.</p></body></html>",
        id = act.id,
        name = or_blank(&settings.public.operator_name),
        inn = or_blank(&settings.public.operator_inn),
        ogrn = or_blank(&settings.public.operator_ogrn),
        address = or_blank(&settings.public.operator_address),
        site = escape(site),
        reason = escape(&act.reason_text),
        subjects = act.subjects,
        leads = act.leads,
        subscriptions = act.subscriptions,
        deliveries = act.deliveries,
        audit = act.audit_entries,
    ))
}
