//! A group's scale (issue 44, item 6): 10,000 cars × 3 channels × 395 days
//! of figures (~11.9 million rows of `car_channel_days`) in one SQLite file,
//! and the admin's reads over it timed through the same domain functions the
//! handlers call: a car's chart (30, 90 and 400 days), the cars list sorted
//! by contacts and by views (several pages, and with a search), the quiet
//! cars, and the nightly refresh of every car's totals.
//!
//! ```sh
//! bench/marketplace_figures.sh          # builds and runs it
//! FIGURES_CARS=1000 bench/marketplace_figures.sh   # a short sanity run
//! ```
//!
//! Environment (all optional):
//!   FIGURES_CARS   cars (default 10000)
//!   FIGURES_DAYS   days of figures per car and channel (default 395)
//!   FIGURES_DB     keep the database here (reused when it exists)
//!   FIGURES_RUNS   timed runs per query (default 300)
//!
//! Budget (docs/marketplaces.md): a chart and a sorted list page under
//! 10 ms at p99.

#[path = "../tests/common/mod.rs"]
mod common;

use std::path::PathBuf;
use std::time::{Duration, Instant};

use chrono::NaiveDate;
use dealership::db::Db;
use dealership::domain::car_figures;
use dealership::domain::cars::{self, AdminCarFilter, AdminCarSort};

fn env<T: std::str::FromStr>(name: &str, default: T) -> T {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn main() -> anyhow::Result<()> {
    let cars_wanted: i64 = env("FIGURES_CARS", 10_000);
    let days: i64 = env("FIGURES_DAYS", 395);
    let runs: usize = env("FIGURES_RUNS", 300);
    let dir = tempfile::tempdir()?;
    let path: PathBuf = std::env::var("FIGURES_DB")
        .map(PathBuf::from)
        .unwrap_or_else(|_| dir.path().join("figures.db"));
    let today = dealership::clock::Clock::default().moscow_today();
    let existed = path.exists();
    let db = Db::open(&path)?;
    let mut conn = db.conn()?;
    if !existed {
        build(&mut conn, cars_wanted, days, today)?;
    }
    let rows: i64 = conn.query_row("SELECT count(*) FROM car_channel_days", [], |r| r.get(0))?;
    let n_cars: i64 = conn.query_row("SELECT count(*) FROM cars", [], |r| r.get(0))?;
    let size = std::fs::metadata(&path)?.len();
    println!(
        "{n_cars} cars, {rows} rows of car_channel_days, file {} MB",
        size / 1_000_000
    );
    let started = Instant::now();
    car_figures::refresh_totals(&conn, None, today)?;
    println!(
        "refresh of every car's 30-day totals (nightly): {:.0} ms",
        ms(started.elapsed())
    );
    let ids: Vec<String> = conn
        .prepare("SELECT id FROM cars ORDER BY random()")?
        .query_map([], |r| r.get(0))?
        .collect::<Result<_, _>>()?;
    for chart in [30, 90, 400] {
        let mut i = 0;
        report(&format!("a car's chart, {chart} days"), runs, || {
            let id = &ids[i % ids.len()];
            i += 1;
            let days = car_figures::car_days(&conn, id, chart, today)?;
            assert!(!days.is_empty());
            Ok(())
        })?;
    }
    let all = AdminCarFilter::default();
    let haval = AdminCarFilter {
        words: AdminCarFilter::search("haval 7"),
        ..AdminCarFilter::default()
    };
    for (name, sort, filter, pages) in [
        ("list by contacts, page 1", AdminCarSort::Contacts, &all, 1),
        (
            "list by contacts, pages 1-20",
            AdminCarSort::Contacts,
            &all,
            20,
        ),
        ("list by views, page 1", AdminCarSort::Views, &all, 1),
        (
            "list by contacts, search «haval 7»",
            AdminCarSort::Contacts,
            &haval,
            1,
        ),
        ("list newest first, page 1", AdminCarSort::Newest, &all, 1),
    ] {
        let mut page = 0;
        let pages = pages.min(u32::try_from(n_cars / 24).unwrap_or(1).max(1));
        report(name, runs, || {
            let offset = (page % pages) * 24;
            page += 1;
            let (items, _) = cars::admin_page(&conn, filter, sort, 24, offset)?;
            assert!(!items.is_empty());
            Ok(())
        })?;
    }
    let now = chrono::Utc::now();
    report("quiet cars (14 days)", 5.min(runs), || {
        car_figures::quiet_cars(&conn, 14, 100, today, now)?;
        Ok(())
    })?;
    Ok(())
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

/// Runs `work` a few times untimed, then `runs` times, and prints p50, p99
/// and the maximum.
fn report(
    name: &str,
    runs: usize,
    mut work: impl FnMut() -> anyhow::Result<()>,
) -> anyhow::Result<()> {
    for _ in 0..runs.min(10) {
        work()?;
    }
    let mut times = Vec::with_capacity(runs);
    for _ in 0..runs {
        let started = Instant::now();
        work()?;
        times.push(started.elapsed());
    }
    times.sort();
    let at = |q: f64| times[((times.len() as f64 * q) as usize).min(times.len() - 1)];
    println!(
        "{name:<40} p50 {:>7.2} ms  p99 {:>7.2} ms  max {:>7.2} ms  ({runs} runs)",
        ms(at(0.5)),
        ms(at(0.99)),
        ms(times[times.len() - 1])
    );
    Ok(())
}

/// Fills a fresh database: one brand, `n` cars copied from one, and each
/// car's figures on each channel for `days` days ending on `today`.
fn build(
    conn: &mut rusqlite::Connection,
    n: i64,
    days: i64,
    today: NaiveDate,
) -> anyhow::Result<()> {
    let started = Instant::now();
    conn.execute_batch("PRAGMA cache_size = -200000; PRAGMA synchronous = OFF;")?;
    let tx = conn.transaction()?;
    tx.execute_batch(
        "INSERT INTO brands (id, name, slug, logo, description, created_at, updated_at)
            VALUES ('b', 'Haval', 'haval', '', '', '2025-01-01T00:00:00.000Z',
                '2025-01-01T00:00:00.000Z');",
    )?;
    // Every column of a car from one written by the domain's own insert.
    let proto = dealership::domain::cars::create(&tx, &common::car_input("b", "proto"), 2026)?;
    tx.execute_batch(&format!(
        "CREATE TEMP TABLE many AS
            WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < {n} - 1)
            SELECT c.* FROM cars c, n;
         UPDATE temp.many SET id = printf('car-%05d', rowid), slug = printf('car-%05d', rowid),
            name = 'Jolion ' || rowid, external_id = NULL,
            created_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('-%d minutes', rowid));
         INSERT INTO cars SELECT * FROM temp.many;
         DROP TABLE temp.many;"
    ))?;
    drop(proto);
    tx.commit()?;
    println!("{n} cars in {:.1} s", started.elapsed().as_secs_f64());
    let started = Instant::now();
    // In the primary key's order (car, channel, day), for a quick build.
    conn.execute(
        &format!(
            "WITH RECURSIVE d(k) AS (SELECT {days} - 1 UNION ALL SELECT k - 1 FROM d WHERE k > 0),
                ch(name) AS (VALUES ('autoru'), ('avito'), ('site'))
             INSERT INTO car_channel_days (car_id, channel, day, views, contacts, favourites, calls)
             SELECT c.id, ch.name, date(?1, printf('-%d days', d.k)),
                abs(random() % 120), abs(random() % 6), abs(random() % 4), abs(random() % 3)
             FROM (SELECT id FROM cars ORDER BY id) c, ch, d"
        ),
        [today.format("%Y-%m-%d").to_string()],
    )?;
    println!(
        "figures written in {:.1} s",
        started.elapsed().as_secs_f64()
    );
    conn.execute_batch("ANALYZE; PRAGMA wal_checkpoint(TRUNCATE);")?;
    Ok(())
}
