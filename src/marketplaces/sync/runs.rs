//! One run of each marketplace job, recorded in `marketplace_runs` with how
//! it ended (`docs/marketplaces.md`, "Jobs and checks"): the connection
//! check; the feed's report into `marketplace_ads`; the figures per ad and
//! day into `car_channel_days`, from the day after the last one fully
//! recorded to yesterday, ad batch by ad batch, so that a run stopped by an
//! expired key or a rate limit keeps what it read and the next run starts
//! again from the first day missing; the calls since the newest one seen.

use chrono::{DateTime, Days, NaiveDate, Utc};

use super::calls::take_calls;
use super::clients::MarketSync;
use crate::domain::car_figures::{self, KEPT_DAYS};
use crate::domain::marketplace_ads;
use crate::domain::marketplace_runs::{self as runs, Job};
use crate::error::AppResult;
use crate::marketplaces::{Channel, DayFigures, MarketCall, MarketError};

/// Days of figures read the first time: Avito keeps 270.
pub const AVITO_FIRST_DAYS: u64 = 270;
/// Days of figures read the first time on Auto.ru.
pub const AUTORU_FIRST_DAYS: u64 = 30;
/// Ads whose figures are asked, then recorded, at once: Avito takes 200 a
/// call; Auto.ru one a call, so a batch is a few seconds of its pace.
const AVITO_BATCH: usize = 200;
const AUTORU_BATCH: usize = 10;
/// Calls read the first time.
pub const CALLS_FIRST_DAYS: i64 = 7;
/// Calls are asked again from this long before the newest seen: a call the
/// marketplace lists late is not missed (the ids keep each once).
pub const CALLS_OVERLAP_MINUTES: i64 = 60;

fn no_client(channel: Channel) -> MarketError {
    MarketError::NotConfigured(format!(
        "{}: не настроено в dealership.toml",
        channel.label()
    ))
}

async fn started(sync: &MarketSync, channel: Channel, job: Job) -> AppResult<()> {
    let at = sync.clock.now();
    sync.db
        .write_grouped(move |c| runs::started(c, channel, job, at))
        .await
}

async fn finished(
    sync: &MarketSync,
    channel: Channel,
    job: Job,
    outcome: &Result<String, String>,
) -> AppResult<()> {
    let at = sync.clock.now();
    let (ok, message) = match outcome {
        Ok(message) => (true, message.clone()),
        Err(message) => (false, message.clone()),
    };
    sync.db
        .write_grouped(move |c| runs::finished(c, channel, job, ok, &message, at))
        .await
}

async fn check_body(sync: &MarketSync, channel: Channel) -> AppResult<Result<String, String>> {
    started(sync, channel, Job::Check).await?;
    let connection = sync.markets.connection(channel);
    let outcome = match (channel, connection.error) {
        (_, Some(why)) => Err(why),
        (Channel::Avito, None) => match sync.markets.avito() {
            Some(avito) => avito.check().await.map_err(|e| e.to_string()),
            None => Err(no_client(channel).to_string()),
        },
        (Channel::Autoru, None) => match sync.markets.autoru() {
            Some(autoru) => autoru.check().await.map_err(|e| e.to_string()),
            None => Err(no_client(channel).to_string()),
        },
        (Channel::Site, None) => Err(no_client(channel).to_string()),
    };
    finished(sync, channel, Job::Check, &outcome).await?;
    Ok(outcome)
}

/// Reads `channel`'s report of its last feed run into `marketplace_ads`.
async fn run_report_body(sync: &MarketSync, channel: Channel) -> AppResult<Result<String, String>> {
    started(sync, channel, Job::Report).await?;
    let read = match channel {
        Channel::Avito => match sync.markets.avito() {
            Some(avito) => avito.report().await,
            None => Err(no_client(channel)),
        },
        Channel::Autoru => match sync.markets.autoru() {
            Some(autoru) => autoru.feed_report().await,
            None => Err(no_client(channel)),
        },
        Channel::Site => Err(no_client(channel)),
    };
    let outcome = match read {
        Ok(ads) => {
            let now = sync.clock.now();
            let (refused, total) = (
                ads.iter()
                    .filter(|ad| ad.status == crate::marketplaces::AdStatus::Refused)
                    .count(),
                ads.len(),
            );
            sync.db
                .write_grouped(move |c| marketplace_ads::record_report(c, channel, &ads, now))
                .await?;
            Ok(format!(
                "Отчёт площадки: объявлений {total}, отклонено {refused}"
            ))
        }
        Err(err) => Err(err.to_string()),
    };
    finished(sync, channel, Job::Report, &outcome).await?;
    Ok(outcome)
}

/// The days to read: from the day after the last one fully recorded (the
/// first time, `first_days` back) to yesterday, never before the days kept.
pub fn stats_range(
    through: Option<NaiveDate>,
    today: NaiveDate,
    first_days: u64,
) -> Option<(NaiveDate, NaiveDate)> {
    let yesterday = today.checked_sub_days(Days::new(1))?;
    let from = match through {
        Some(day) => day.checked_add_days(Days::new(1))?,
        None => today.checked_sub_days(Days::new(first_days))?,
    };
    let oldest = today.checked_sub_days(Days::new(KEPT_DAYS - 1))?;
    let from = from.max(oldest);
    (from <= yesterday).then_some((from, yesterday))
}

async fn stats_of(
    sync: &MarketSync,
    channel: Channel,
    ids: &[String],
    from: NaiveDate,
    to: NaiveDate,
    today: NaiveDate,
) -> Result<Vec<DayFigures>, MarketError> {
    match channel {
        Channel::Avito => match sync.markets.avito() {
            Some(avito) => avito.stats(ids, from, to, today).await,
            None => Err(no_client(channel)),
        },
        Channel::Autoru => match sync.markets.autoru() {
            Some(autoru) => autoru.stats(ids, from, to).await,
            None => Err(no_client(channel)),
        },
        Channel::Site => Err(no_client(channel)),
    }
}

/// Reads `channel`'s figures of every ad with a marketplace id, for the days
/// not yet fully recorded, batch by batch; moves the "recorded through" day
/// to yesterday only when every batch was read.
async fn run_stats_body(sync: &MarketSync, channel: Channel) -> AppResult<Result<String, String>> {
    started(sync, channel, Job::Stats).await?;
    let today = sync.clock.moscow_today();
    let (ids, through) = sync
        .db
        .call(move |c| {
            Ok((
                marketplace_ads::market_ids(c, channel)?,
                runs::stats_through(c, channel)?,
            ))
        })
        .await?;
    let first_days = match channel {
        Channel::Autoru => AUTORU_FIRST_DAYS,
        _ => AVITO_FIRST_DAYS,
    };
    let outcome = match (ids.is_empty(), stats_range(through, today, first_days)) {
        (true, _) => Ok("Нет объявлений с номером площадки: цифры просить не о чем".to_string()),
        (false, None) => Ok(format!(
            "Цифры уже записаны по {}",
            day_words(today - Days::new(1))
        )),
        (false, Some((from, to))) => {
            let batch = match channel {
                Channel::Autoru => AUTORU_BATCH,
                _ => AVITO_BATCH,
            };
            let mut written = 0;
            let mut done = 0;
            let mut failed = None;
            for ads in ids.chunks(batch) {
                match stats_of(sync, channel, ads, from, to, today).await {
                    Ok(days) => {
                        let recorded = sync
                            .db
                            .write_grouped(move |c| car_figures::record_days(c, channel, &days))
                            .await?;
                        written += recorded.written;
                        done += ads.len();
                    }
                    Err(err) => {
                        failed = Some(err);
                        break;
                    }
                }
            }
            let period = format!("{} – {}", day_words(from), day_words(to));
            match failed {
                None => {
                    let day = to.format("%Y-%m-%d").to_string();
                    sync.db
                        .write_grouped(move |c| {
                            runs::set_through(c, channel, Job::Stats, &day)?;
                            car_figures::prune(c, today)
                        })
                        .await?;
                    Ok(format!(
                        "Цифры за {period}: объявлений {done}, записано дней по машинам {written}"
                    ))
                }
                Some(err) => Err(format!(
                    "{err}; прочитано объявлений {done} из {}, следующий запуск начнёт с {}",
                    ids.len(),
                    day_words(from)
                )),
            }
        }
    };
    finished(sync, channel, Job::Stats, &outcome).await?;
    Ok(outcome)
}

/// Checks `channel`'s connection now and records it: the client's line or
/// the error, in Russian.
pub async fn check(sync: &MarketSync, channel: Channel) -> AppResult<Result<String, String>> {
    recorded(sync, channel, Job::Check, check_body(sync, channel).await).await
}

/// Reads `channel`'s report of its last feed run into `marketplace_ads`.
pub async fn run_report(sync: &MarketSync, channel: Channel) -> AppResult<Result<String, String>> {
    recorded(
        sync,
        channel,
        Job::Report,
        run_report_body(sync, channel).await,
    )
    .await
}

/// Reads `channel`'s figures of every ad with a marketplace id, for the
/// days not yet fully recorded (`run_stats_body`).
pub async fn run_stats(sync: &MarketSync, channel: Channel) -> AppResult<Result<String, String>> {
    recorded(
        sync,
        channel,
        Job::Stats,
        run_stats_body(sync, channel).await,
    )
    .await
}

/// Reads `channel`'s calls since the newest one seen and makes them leads.
pub async fn run_calls(sync: &MarketSync, channel: Channel) -> AppResult<Result<String, String>> {
    recorded(
        sync,
        channel,
        Job::Calls,
        run_calls_body(sync, channel).await,
    )
    .await
}

/// A run that failed on our side (the database) is recorded as failed too,
/// when it can be: its row never stays "under way".
async fn recorded(
    sync: &MarketSync,
    channel: Channel,
    job: Job,
    ran: AppResult<Result<String, String>>,
) -> AppResult<Result<String, String>> {
    if let Err(err) = &ran {
        let failed = Err(format!("ошибка на стороне сайта: {err}"));
        if let Err(again) = finished(sync, channel, job, &failed).await {
            tracing::error!("cannot record the marketplace run: {again}");
        }
    }
    ran
}

fn day_words(day: NaiveDate) -> String {
    day.format("%d.%m.%Y").to_string()
}

async fn calls_of(
    sync: &MarketSync,
    channel: Channel,
    from: DateTime<Utc>,
    to: DateTime<Utc>,
) -> Result<Vec<MarketCall>, MarketError> {
    match channel {
        Channel::Avito => match sync.markets.avito() {
            Some(avito) => avito.calls(from, to).await,
            None => Err(no_client(channel)),
        },
        Channel::Autoru => match sync.markets.autoru() {
            Some(autoru) => autoru.calls(from, to).await,
            None => Err(no_client(channel)),
        },
        Channel::Site => Err(no_client(channel)),
    }
}

/// Reads `channel`'s calls since the newest one seen (the first time, 7
/// days back) and makes them leads.
async fn run_calls_body(sync: &MarketSync, channel: Channel) -> AppResult<Result<String, String>> {
    started(sync, channel, Job::Calls).await?;
    let now = sync.clock.now();
    let newest = sync
        .db
        .call(move |c| runs::calls_through(c, channel))
        .await?;
    let from = match newest {
        Some(at) => at - chrono::Duration::minutes(CALLS_OVERLAP_MINUTES),
        None => now - chrono::Duration::days(CALLS_FIRST_DAYS),
    };
    let outcome = match calls_of(sync, channel, from, now).await {
        Ok(found) => {
            let latest = found.iter().map(|call| call.at).max();
            let taken = take_calls(sync, channel, found).await?;
            if let Some(latest) = latest.filter(|at| newest.is_none_or(|seen| *at > seen)) {
                let at = latest.to_rfc3339_opts(chrono::SecondsFormat::Millis, true);
                sync.db
                    .write_grouped(move |c| runs::set_through(c, channel, Job::Calls, &at))
                    .await?;
            }
            Ok(format!(
                "Звонков новых {}, к открытым заявкам {}, уже записанных {}",
                taken.new_leads, taken.joined, taken.known
            ))
        }
        Err(err) => Err(err.to_string()),
    };
    finished(sync, channel, Job::Calls, &outcome).await?;
    Ok(outcome)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn day(text: &str) -> NaiveDate {
        NaiveDate::parse_from_str(text, "%Y-%m-%d").unwrap()
    }

    #[test]
    fn the_days_read_start_after_the_last_recorded_and_end_yesterday() {
        let today = day("2026-07-10");
        assert_eq!(
            stats_range(Some(day("2026-07-05")), today, 270),
            Some((day("2026-07-06"), day("2026-07-09")))
        );
        assert_eq!(stats_range(Some(day("2026-07-09")), today, 270), None);
        assert_eq!(
            stats_range(None, today, 30),
            Some((day("2026-06-10"), day("2026-07-09")))
        );
        // Never before the days kept.
        let (from, _) = stats_range(Some(day("2020-01-01")), today, 30).unwrap();
        assert_eq!((today - from).num_days(), 399);
    }
}
