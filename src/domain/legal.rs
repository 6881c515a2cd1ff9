//! The operator of personal data and what visitors agree to
//! (`docs/personal-data.md`): the dealer's legal name, ИНН, ОГРН and address
//! (checked with their control digits), the processors in use (derived from
//! what is set up), the consent text and privacy policy with their
//! placeholders substituted, and the consent ledger that keeps what each
//! consent version said.

use rusqlite::{Connection, OptionalExtension, params};

pub use super::operator_ids::{BAD_INN, BAD_OGRN, is_inn, is_ogrn};
use super::settings::Settings;
use crate::config::Config;
use crate::error::AppResult;

/// The placeholders the texts may hold, and what each becomes.
pub const PLACEHOLDERS: [(&str, &str); 5] = [
    ("{оператор}", "the operator's legal name"),
    ("{ИНН}", "its ИНН"),
    ("{ОГРН}", "its ОГРН"),
    ("{адрес оператора}", "its legal address"),
    ("{обработчики}", "the processors in use, one per line"),
];

/// What a missing detail reads as in a shown text (a self-check flags it).
pub const NOT_STATED: &str = "[не указано]";

/// Which operator details are missing, by their labels.
pub fn missing_operator_details(settings: &Settings) -> Vec<&'static str> {
    [
        ("полное наименование", &settings.public.operator_name),
        ("ИНН", &settings.public.operator_inn),
        ("ОГРН", &settings.public.operator_ogrn),
        ("юридический адрес", &settings.public.operator_address),
    ]
    .into_iter()
    .filter(|(_, value)| value.trim().is_empty())
    .map(|(label, _)| label)
    .collect()
}

/// A processor of the visitors' data: who, and what for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Processor {
    /// The name a reader of the policy looks for (also what the self-check
    /// looks for in a policy without the placeholder).
    pub name: String,
    pub line: String,
}

/// The owner of a well-known mail service, by its SMTP host.
fn mail_owner(host: &str) -> Option<&'static str> {
    let host = host.to_ascii_lowercase();
    let is = |domain: &str| host == domain || host.ends_with(&format!(".{domain}"));
    if is("yandex.ru") || is("yandex.com") {
        Some("ООО «Яндекс»")
    } else if is("mail.ru") {
        Some("ООО «ВК»")
    } else if is("gmail.com") || is("google.com") {
        Some("Google LLC (США)")
    } else {
        None
    }
}

/// The processors in use: the mail server when `[smtp]` is set up, amoCRM
/// and Telegram when configured, the call-tracking services and PBXs set
/// up, the analytics whose ids are set (Google Analytics only when turned
/// on).
pub fn processors(config: &Config, settings: &Settings) -> Vec<Processor> {
    let mut out = Vec::new();
    let host = config.smtp.host.trim();
    if !host.is_empty() {
        let name = match mail_owner(host) {
            Some(owner) => format!("{owner}, почтовый сервер {host}"),
            None => format!("владелец почтового сервера {host}"),
        };
        out.push(Processor {
            line: format!("{name} — отправка писем о заявках и подборках"),
            name: host.to_string(),
        });
    }
    if config.amocrm.is_configured() {
        let domain = config.amocrm.domain.trim();
        out.push(Processor {
            name: "amoCRM".into(),
            line: format!("amoCRM ({domain}) — учёт заявок в CRM салона"),
        });
    }
    if config.telegram.is_configured() {
        out.push(Processor {
            name: "Telegram".into(),
            line: "Telegram (серверы за пределами Российской Федерации) — уведомления \
                   сотрудникам о заявках"
                .into(),
        });
    }
    // The call-tracking services and PBXs whose calls come in (docs/calls.md,
    // "The law"): named as `[call_tracking] processor` says, else by the
    // service's name.
    let calls = [
        ("Calltouch", config.calltouch.is_configured()),
        ("UIS", config.uis.is_configured()),
        ("Mango Office", config.mango.is_configured()),
    ];
    for (service, on) in calls {
        if !on {
            continue;
        }
        let named = config.call_tracking.processor.trim();
        let name = if named.is_empty() {
            service.to_string()
        } else {
            format!("{named} ({service})")
        };
        out.push(Processor {
            name: service.into(),
            line: format!(
                "{name} — учёт звонков в салон, их записи и источники, обратный звонок по заявке"
            ),
        });
    }
    // The vendor's number-substitution script on the public pages, loaded
    // only with the visitor's consent, as the counters.
    if config.call_tracking.script_sources().is_some() {
        let named = config.call_tracking.processor.trim();
        let host = reqwest::Url::parse(config.call_tracking.script_url.trim())
            .ok()
            .and_then(|u| u.host_str().map(str::to_string))
            .unwrap_or_default();
        let name = if named.is_empty() {
            format!("сервис учёта звонков ({host})")
        } else {
            format!("{named} ({host})")
        };
        out.push(Processor {
            name: "Скрипт учёта звонков".into(),
            line: format!(
                "{name} — номер телефона на сайте по источнику визита, только с согласия \
                 посетителя"
            ),
        });
    }
    if !settings.public.yandex_metrika_id.trim().is_empty() {
        out.push(Processor {
            name: "Яндекс Метрика".into(),
            line: "ООО «Яндекс», Яндекс Метрика — статистика посещений, только с согласия \
                   посетителя"
                .into(),
        });
    }
    if settings.google_analytics_enabled && !settings.public.google_analytics_id.trim().is_empty() {
        out.push(Processor {
            name: "Google Analytics".into(),
            line: "Google LLC (США), Google Analytics — статистика посещений, трансграничная \
                   передача, только с согласия посетителя"
                .into(),
        });
    }
    out
}

/// `text` with its placeholders substituted.
pub fn render(text: &str, settings: &Settings, processors: &[Processor]) -> String {
    let p = &settings.public;
    let operator = [
        p.operator_name.clone(),
        p.operator_inn.clone(),
        p.operator_ogrn.clone(),
        p.operator_address.clone(),
    ];
    render_for(text, &operator, processors)
}

/// `text` with its placeholders substituted for `operator` (name, ИНН,
/// ОГРН, address): a salon that is its own company names itself.
pub fn render_for(text: &str, operator: &[String; 4], processors: &[Processor]) -> String {
    let stated = |value: &str| {
        let value = value.trim();
        if value.is_empty() {
            NOT_STATED.to_string()
        } else {
            value.to_string()
        }
    };
    let list = if processors.is_empty() {
        "— никому: данные обрабатываются только сотрудниками салона".to_string()
    } else {
        processors
            .iter()
            .map(|p| format!("— {}", p.line))
            .collect::<Vec<_>>()
            .join("\n")
    };
    text.replace("{оператор}", &stated(&operator[0]))
        .replace("{ИНН}", &stated(&operator[1]))
        .replace("{ОГРН}", &stated(&operator[2]))
        .replace("{адрес оператора}", &stated(&operator[3]))
        .replace("{обработчики}", &list)
}

/// The processors a policy does not tell of: none when it holds the
/// `{обработчики}` placeholder, else those it never names.
pub fn unlisted_processors<'a>(policy: &str, processors: &'a [Processor]) -> Vec<&'a Processor> {
    if policy.contains("{обработчики}") {
        return Vec::new();
    }
    let policy = policy.to_lowercase();
    processors
        .iter()
        .filter(|p| !policy.contains(&p.name.to_lowercase()))
        .collect()
}

/// The texts of one consent version, as shown.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ConsentDocuments {
    pub version: i64,
    pub consent_text: String,
    pub privacy_policy: String,
}

/// The ledger's entry of `version`.
pub fn documents(conn: &Connection, version: i64) -> AppResult<Option<ConsentDocuments>> {
    Ok(conn
        .prepare_cached(
            "SELECT version, consent_text, privacy_policy FROM consent_documents
             WHERE version = ?1",
        )?
        .query_row([version], |r| {
            Ok(ConsentDocuments {
                version: r.get(0)?,
                consent_text: r.get(1)?,
                privacy_policy: r.get(2)?,
            })
        })
        .optional()?)
}

/// Records what visitors agree to now: the settings' texts rendered with
/// the operator and `processors`. Kept under the settings' consent version
/// when that version has no entry yet or says the same; when the shown text
/// changed (new operator details, a processor set up) the version goes up
/// and the new text is its entry. Gives the current entry.
pub fn record(
    conn: &Connection,
    settings: &Settings,
    processors: &[Processor],
) -> AppResult<ConsentDocuments> {
    let shown = |version| ConsentDocuments {
        version,
        consent_text: render(&settings.consent_text, settings, processors),
        privacy_policy: render(&settings.privacy_policy, settings, processors),
    };
    let mut version = settings.public.consent_version;
    match documents(conn, version)? {
        Some(kept) if kept == shown(version) => return Ok(kept),
        Some(_) => {
            let newest: i64 = conn.query_row(
                "SELECT coalesce(max(version), 0) FROM consent_documents",
                [],
                |r| r.get(0),
            )?;
            version = version.max(newest) + 1;
            conn.execute(
                "UPDATE settings SET consent_version = ?1 WHERE id = 1",
                [version],
            )?;
        }
        None => {}
    }
    let entry = shown(version);
    conn.execute(
        "INSERT INTO consent_documents (version, consent_text, privacy_policy, recorded_at)
         VALUES (?1, ?2, ?3, ?4)",
        params![
            entry.version,
            entry.consent_text,
            entry.privacy_policy,
            super::now()
        ],
    )?;
    Ok(entry)
}

/// The texts visitors are shown now: the ledger's entry of the settings'
/// consent version, or (before any was recorded) the texts rendered
/// without processors.
pub fn current(conn: &Connection, settings: &Settings) -> AppResult<ConsentDocuments> {
    let version = settings.public.consent_version;
    Ok(match documents(conn, version)? {
        Some(kept) => kept,
        None => ConsentDocuments {
            version,
            consent_text: render(&settings.consent_text, settings, &[]),
            privacy_policy: render(&settings.privacy_policy, settings, &[]),
        },
    })
}

/// Records what visitors of a further salon agree to: with its own
/// operator (a separate company) the texts name it, under a version of its
/// own kept in the salon's row; a salon of the main operator shares the
/// main texts (its version stays 0). Gives the version its leads record.
pub fn record_salon(
    conn: &Connection,
    settings: &Settings,
    salon: &super::salons::SalonRecord,
    processors: &[Processor],
) -> AppResult<i64> {
    if salon.main || salon.operator_name.is_empty() {
        conn.execute(
            "UPDATE salons SET consent_version = 0 WHERE id = ?1",
            [salon.salon.id],
        )?;
        return Ok(settings.public.consent_version);
    }
    let operator = super::salons::operator_of(salon, settings);
    let consent_text = render_for(&settings.consent_text, &operator, processors);
    let privacy_policy = render_for(&settings.privacy_policy, &operator, processors);
    let kept: i64 = conn.query_row(
        "SELECT consent_version FROM salons WHERE id = ?1",
        [salon.salon.id],
        |r| r.get(0),
    )?;
    if let Some(entry) = documents(conn, kept)?
        && kept > 0
        && entry.consent_text == consent_text
        && entry.privacy_policy == privacy_policy
    {
        return Ok(kept);
    }
    let newest: i64 = conn.query_row(
        "SELECT coalesce(max(version), 0) FROM consent_documents",
        [],
        |r| r.get(0),
    )?;
    // Above the main texts' version too: it never takes this number.
    let version = newest.max(settings.public.consent_version) + 1;
    conn.execute(
        "INSERT INTO consent_documents (version, consent_text, privacy_policy, recorded_at)
         VALUES (?1, ?2, ?3, ?4)",
        params![version, consent_text, privacy_policy, super::now()],
    )?;
    conn.execute(
        "UPDATE salons SET consent_version = ?2 WHERE id = ?1",
        params![salon.salon.id, version],
    )?;
    Ok(version)
}

/// The consent version a lead of `salon` records: the salon's own texts'
/// when it is a separate operator, else the main texts'.
pub fn salon_consent_version(conn: &Connection, settings: &Settings, salon: i64) -> AppResult<i64> {
    if salon == super::salons::MAIN {
        return Ok(settings.public.consent_version);
    }
    let own: Option<i64> = conn
        .prepare_cached("SELECT consent_version FROM salons WHERE id = ?1")?
        .query_row([salon], |r| r.get(0))
        .optional()?;
    Ok(match own {
        Some(v) if v > 0 => v,
        _ => settings.public.consent_version,
    })
}

/// Records every further salon's texts (after the main texts or the
/// processors changed).
pub fn record_salons(
    conn: &Connection,
    settings: &Settings,
    processors: &[Processor],
) -> AppResult<()> {
    for salon in super::salons::others(conn)? {
        record_salon(conn, settings, &salon, processors)?;
    }
    Ok(())
}

/// The texts a visitor of `salon` is shown: its own operator's when it is a
/// separate company, else the main texts ([`current`]).
pub fn current_for(
    conn: &Connection,
    settings: &Settings,
    salon: i64,
) -> AppResult<ConsentDocuments> {
    let version = salon_consent_version(conn, settings, salon)?;
    if version != settings.public.consent_version
        && let Some(own) = documents(conn, version)?
    {
        return Ok(own);
    }
    current(conn, settings)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placeholders_are_substituted_and_missing_details_said() {
        let mut settings = Settings::default();
        settings.public.operator_name = "ООО «Нева Моторс»".into();
        settings.public.operator_inn = "7707083893".into();
        let processors = vec![Processor {
            name: "Telegram".into(),
            line: "Telegram — уведомления".into(),
        }];
        let text = render(
            "{оператор}, ИНН {ИНН}, ОГРН {ОГРН}.\nПередаём:\n{обработчики}",
            &settings,
            &processors,
        );
        assert_eq!(
            text,
            "ООО «Нева Моторс», ИНН 7707083893, ОГРН [не указано].\nПередаём:\n— Telegram — уведомления"
        );
        assert_eq!(
            missing_operator_details(&settings),
            ["ОГРН", "юридический адрес"]
        );
        assert_eq!(
            unlisted_processors("Мы передаём данные в telegram.", &processors),
            Vec::<&Processor>::new()
        );
        assert_eq!(unlisted_processors("Никому.", &processors).len(), 1);
        assert!(unlisted_processors("{обработчики}", &processors).is_empty());
    }
}
