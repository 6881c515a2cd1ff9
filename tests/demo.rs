//! The demo dealership: one seed of a fresh database, checked from the
//! outside through the domain functions and the media folder.
#![allow(clippy::unwrap_used)] // a test may unwrap: a failure is a failed test

use std::collections::HashSet;
use std::path::Path;

use dealership::db::Db;
use dealership::domain::cars::{
    self, BodyType, CarFilter, CarStatus, Drivetrain, FuelType, Transmission,
};
use dealership::domain::leads::{self, LeadType};
use dealership::domain::{
    banks, body_types, brands, credit_programs, promotions, reviews, settings, users,
};
use dealership::media;

/// Every variant file of one of our picture URLs exists and is WebP.
fn assert_variants(media_dir: &Path, url: &str) {
    let hash = media::hash_of_url(url).unwrap_or_else(|| panic!("not a media URL: {url:?}"));
    for width in media::WIDTHS {
        let path = media::variant_path(media_dir, hash, width);
        let head =
            std::fs::read(&path).unwrap_or_else(|e| panic!("{} is missing ({e})", path.display()));
        assert!(
            head.len() > 12 && &head[..4] == b"RIFF" && &head[8..12] == b"WEBP",
            "{} is not WebP",
            path.display()
        );
    }
}

/// Row counts of every table the demo fills.
fn counts(db: &Db) -> Vec<i64> {
    let conn = db.conn().unwrap();
    [
        "brands",
        "cars",
        "reviews",
        "promotions",
        "partner_banks",
        "leads",
        "users",
        "media",
        "settings",
    ]
    .iter()
    .map(|table| {
        conn.query_row(&format!("SELECT count(*) FROM {table}"), [], |r| r.get(0))
            .unwrap()
    })
    .collect()
}

#[test]
fn seeds_a_believable_dealership_once() {
    let dir = tempfile::tempdir().unwrap();
    let db = Db::open(&dir.path().join("dealership.db")).unwrap();
    let media_dir = dir.path().join("media");

    let started = std::time::Instant::now();
    assert!(dealership::demo::seed(&db, &media_dir).unwrap());
    eprintln!("demo seeded in {:.1?}", started.elapsed());
    let conn = db.conn().unwrap();

    // Settings of a Saint Petersburg salon, with every page banner.
    let s = settings::get(&conn).unwrap();
    assert!(settings::exists(&conn).unwrap());
    assert!(s.public.salon_name.contains("Невский"));
    assert!(s.public.phone.starts_with("+7 (812)"));
    assert!(s.public.address.contains("Санкт-Петербург"));
    // The hours shown are the schedule's; the requisites are the operator's.
    assert_eq!(
        s.public.working_hours,
        "Пн–Пт: 09:00–21:00\nСб: 10:00–20:00\nВс: 10:00–19:00"
    );
    assert_eq!(s.public.operator_inn, "7810453273");
    for (name, _) in settings::BANNER_FIELDS {
        let url = s.public.banners.get(name).unwrap();
        assert_variants(&media_dir, url);
    }

    // Brands with logos.
    let all_brands = brands::list(&conn).unwrap();
    assert!(all_brands.len() >= 12, "{} brands", all_brands.len());
    for brand in &all_brands {
        assert!(!brand.description.is_empty() && !brand.slug.is_empty());
        assert_variants(&media_dir, &brand.logo);
    }
    for info in body_types::list(&conn).unwrap() {
        assert_variants(&media_dir, &info.image_url);
        assert_variants(&media_dir, &info.image_url_mobile);
    }

    // Cars: published, drafts, every code of every lookup.
    let published = cars::list_all(&conn, &CarFilter::default()).unwrap();
    assert!(published.len() >= 80, "{} published cars", published.len());
    let everything = cars::list_all(
        &conn,
        &CarFilter {
            include_drafts: true,
            ..CarFilter::default()
        },
    )
    .unwrap();
    let drafts = everything.len() - published.len();
    assert!((2..=3).contains(&drafts), "{drafts} drafts");
    let statuses: HashSet<CarStatus> = published.iter().map(|c| c.status).collect();
    let bodies: HashSet<BodyType> = published.iter().map(|c| c.body_type.clone()).collect();
    let fuels: HashSet<FuelType> = published.iter().map(|c| c.fuel_type).collect();
    let gears: HashSet<Transmission> = published.iter().map(|c| c.transmission).collect();
    let drives: HashSet<Drivetrain> = published.iter().filter_map(|c| c.drivetrain).collect();
    assert_eq!(statuses.len(), CarStatus::ALL.len());
    assert_eq!(bodies.len(), BodyType::BUILT_IN.len());
    // Every fuel but gas (LPG), which only feeds bring.
    assert_eq!(fuels.len(), FuelType::ALL.len() - 1);
    assert!(!fuels.contains(&FuelType::Gas));
    assert_eq!(gears.len(), Transmission::ALL.len());
    assert_eq!(drives.len(), Drivetrain::ALL.len());
    let mut checked = HashSet::new();
    for car in &everything {
        assert!(
            (4..=6).contains(&car.images.len()),
            "{} has {} images",
            car.slug,
            car.images.len()
        );
        assert_eq!(car.main_image, car.images[0]);
        assert!(
            (2015..=2026).contains(&car.year),
            "{} {}",
            car.slug,
            car.year
        );
        let rubles = car.price.rubles();
        match car.status {
            CarStatus::New => {
                assert!(
                    (1_500_000..=12_000_000).contains(&rubles),
                    "{} {rubles}",
                    car.slug
                );
                assert_eq!(car.mileage, 0);
            }
            CarStatus::Used => assert!(car.mileage > 0, "{}", car.slug),
            CarStatus::Lease => {
                assert!(car.monthly_payment.is_some() && car.daily_price.is_some());
            }
        }
        for url in &car.images {
            if checked.insert(url.clone()) {
                assert_variants(&media_dir, url);
            }
        }
    }
    assert!(published.iter().any(|c| c.featured));
    assert!(published.iter().any(|c| !c.in_stock));
    assert!(published.iter().any(|c| !c.trim_levels.is_empty()));

    // Reviews, promotions, banks.
    let all_reviews = reviews::list(&conn, false, 1000, 0).unwrap();
    assert!(all_reviews.iter().any(|r| r.approved));
    assert!(all_reviews.iter().any(|r| !r.approved));
    assert!(all_reviews.iter().any(|r| r.car_id.is_some()));
    assert!(all_reviews.iter().all(|r| (3..=5).contains(&r.rating)));
    let all_promotions = promotions::list(&conn, false).unwrap();
    assert!(all_promotions.iter().any(|p| p.is_active));
    assert!(all_promotions.iter().any(|p| !p.is_active));
    for promotion in &all_promotions {
        assert_variants(&media_dir, &promotion.image);
    }
    let all_banks = banks::list(&conn, false).unwrap();
    assert!((5..=6).contains(&all_banks.len()));
    assert!(all_banks.iter().any(|b| !b.active));
    for bank in &all_banks {
        assert_variants(&media_dir, &bank.logo);
    }

    // Requests of every form's type, with consent, in several statuses (a
    // call is no form: the demo has no marketplace or call tracking connected).
    let all_leads = leads::list(&conn, None, None, &leads::Assignees::All, 1000, 0).unwrap();
    let types: HashSet<LeadType> = all_leads.iter().map(|l| l.lead_type).collect();
    let forms = LeadType::ALL.iter().filter(|t| !t.is_call()).count();
    assert_eq!(types.len(), forms);
    let lead_statuses: HashSet<_> = all_leads.iter().map(|l| l.status).collect();
    assert!(lead_statuses.len() >= 3);
    assert!(
        all_leads
            .iter()
            .all(|l| l.phone.starts_with("+7") && l.phone.len() == 12)
    );
    assert!(all_leads.iter().all(|l| !l.consent_at.is_empty()));
    // A test drive with its day and slot; a credit request from the calculator.
    let drive = all_leads
        .iter()
        .find(|l| l.lead_type == LeadType::TestDrive)
        .unwrap();
    assert!(drive.preferred_date.is_some() && drive.preferred_time.is_some());
    assert!(drive.car_id.is_some());
    assert!(all_leads.iter().any(|l| l.term_months == Some(60)));
    // Response times (docs/response-times.md): the requests that are no
    // longer new were answered in the audit trail by two staff users, so the
    // chart and the medians have figures; some requests are still new.
    let times =
        dealership::domain::response_times::report(&conn, chrono::Utc::now(), None).unwrap();
    let answered: i64 = times.daily.iter().map(|d| d.answered).sum();
    assert!(answered >= 10, "{answered} answered");
    assert!(times.daily.iter().filter(|d| d.answered > 0).count() >= 4);
    assert!(
        times
            .daily
            .iter()
            .all(|d| d.median_minutes <= d.p90_minutes)
    );
    let staff = dealership::domain::audit::list(&conn, &Default::default(), 1000, 0)
        .unwrap()
        .0
        .into_iter()
        .map(|e| e.username)
        .collect::<HashSet<_>>();
    assert_eq!(staff.len(), 2, "{staff:?}");
    // Each of them is in the team: the response-time table names no one else.
    let team: HashSet<String> = dealership::domain::staff::list(&conn)
        .unwrap()
        .into_iter()
        .map(|u| u.username)
        .collect();
    assert!(staff.is_subset(&team), "{staff:?} not all in {team:?}");
    let figures =
        dealership::domain::response_times::report(&conn, chrono::Utc::now(), None).unwrap();
    let named: Vec<&String> = figures
        .periods
        .iter()
        .flat_map(|p| &p.users)
        .map(|u| &u.username)
        .collect();
    assert!(named.iter().all(|u| team.contains(*u)), "{named:?}");
    assert!(all_leads.iter().any(|l| l.status == leads::LeadStatus::New));
    // One of them came in the day before: overdue whatever the hour.
    assert!(!times.overdue.is_empty());

    // Saved searches: confirmed followers at example addresses, so the
    // admin's screen is not empty (docs/saved-searches.md).
    let followed = dealership::domain::saved_searches::admin_list(&conn).unwrap();
    assert_eq!(followed.len(), 2);
    assert_eq!(followed[0].followers, 2);
    assert!(followed[0].description.starts_with("Новые · "));
    assert!(followed.iter().all(|s| s.pending == 0));
    assert!(
        followed
            .iter()
            .flat_map(|s| &s.subscribers)
            .all(|s| s.email.ends_with("@example.ru") || s.email.ends_with("@example.com"))
    );

    // Credit programmes of the partner banks: the valid ones public, one
    // ended yesterday and one of the hidden bank not.
    let today = dealership::clock::Clock::default().moscow_today();
    let all_programs = credit_programs::list(&conn, today).unwrap();
    assert!(all_programs.len() >= 6, "{} programmes", all_programs.len());
    let expired: Vec<_> = all_programs.iter().filter(|p| p.expired).collect();
    assert_eq!(expired.len(), 1);
    let yesterday = (today - chrono::Duration::days(1))
        .format("%Y-%m-%d")
        .to_string();
    assert_eq!(expired[0].valid_to.as_deref(), Some(yesterday.as_str()));
    let public = credit_programs::public(&conn, today).unwrap();
    assert_eq!(public.items.len(), all_programs.len() - 2);
    assert!(public.items.iter().all(|p| p.name != expired[0].name));
    assert!(public.items.iter().all(|p| p.bank_name != "Совкомбанк"));
    let summary = public.summary.unwrap();
    assert_eq!((summary.rate_min, summary.rate_max), (4.9, 19.9));
    assert_eq!((summary.term_min_months, summary.term_max_months), (12, 84));
    assert!(summary.psk_min >= summary.rate_min && summary.psk_max <= 30.0);
    assert_eq!(summary.banks.len(), 5);
    for p in &public.items {
        assert!(
            p.psk_min >= p.rate_min && !p.conditions.is_empty(),
            "{}",
            p.name
        );
    }
    // No bank advertises a rate without its ПСК.
    assert!(all_banks.iter().all(|b| !b.advantages.contains("Ставка")));

    // The documented demo user.
    let (_, hash) = users::find_for_login(&conn, dealership::demo::DEMO_USER)
        .unwrap()
        .unwrap();
    assert!(users::verify_password(
        dealership::demo::DEMO_PASSWORD,
        &hash
    ));
    drop(conn);

    // A second seed finds data and changes nothing.
    let before = counts(&db);
    let files = std::fs::read_dir(&media_dir).unwrap().count();
    assert!(!dealership::demo::seed(&db, &media_dir).unwrap());
    assert_eq!(counts(&db), before);
    assert_eq!(std::fs::read_dir(&media_dir).unwrap().count(), files);
}
