//! Demo data for `serve --demo`: a believable Saint Petersburg dealership
//! (settings, brands, over a hundred cars with photos, banners, reviews,
//! promotions, partner banks and requests), generated from a fixed seed so
//! every run gives the same catalogue and the same pictures.
//!
//! Seeding an empty database also creates the admin user **`demo`** with
//! the password **`demo-password`** ([`DEMO_USER`], [`DEMO_PASSWORD`]), so the
//! admin panel can be tried at once. It is never created on a database that
//! already has data; delete it (`dealership user delete demo`) before
//! running a real site.
//!
//! The pictures are drawn with tiny-skia (`pictures`, `car_art`), stored
//! through [`crate::media`] on all cores, then everything is inserted
//! through the domain functions in one transaction.

mod body;
mod canvas;
mod car_art;
mod catalogue;
mod content;
mod interior;
mod ornaments;
mod pictures;
mod plan;
mod profiles;
mod responses;

use std::path::Path;
use std::time::Instant;

use anyhow::Context;
use chrono::{Datelike, Duration, SecondsFormat, Utc};
use rand::SeedableRng;
use rand::rngs::StdRng;
use rusqlite::{Connection, TransactionBehavior, params};

use crate::db::Db;
use crate::domain::cars::{CarInput, CarState, CarStatus, TrimLevel, Wheel};
use crate::domain::leads::LeadInput;
use crate::domain::money::Money;
use crate::domain::{
    banks, body_types, brands, cars, credit_programs, leads, promotions, reviews, settings, slug,
    users,
};
use crate::media::{self, StoredImage};

use body::Body;
use catalogue::{BRANDS, MODELS, PAINTS};
use plan::{CarPlan, PicturePlan, YEAR};

/// The admin user a seeded demo database gets.
pub const DEMO_USER: &str = "demo";
/// Its password. Public: for demonstrations only.
pub const DEMO_PASSWORD: &str = "demo-password";

const SEED: u64 = 0x5350_4220_2026;

/// Fills an empty database (no brands, cars or settings) with a demo
/// dealership and returns true; returns false, touching nothing, when the
/// database has data.
pub fn seed(db: &Db, media_dir: &Path) -> anyhow::Result<bool> {
    let started = Instant::now();
    let mut conn = db.conn()?;
    if has_data(&conn)? {
        return Ok(false);
    }
    let mut rng = StdRng::seed_from_u64(SEED);
    let mut stock = plan::cars(&mut rng);
    let plan = plan::pictures(&mut stock, &mut rng);
    let stored =
        pictures::render_all(&plan.pictures, media_dir).context("cannot draw the demo pictures")?;
    let drawn = started.elapsed();

    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    if has_data(&tx)? {
        return Ok(false);
    }
    for image in &stored {
        media::record(&tx, image)?;
    }
    insert_all(&tx, &stock, &plan, &stored)?;
    tx.commit()?;
    tracing::info!(
        pictures = stored.len(),
        cars = stock.len(),
        "demo data created in {:.1?} (pictures {:.1?})",
        started.elapsed(),
        drawn
    );
    Ok(true)
}

/// Whether the database has brands, cars or saved settings.
fn has_data(conn: &Connection) -> anyhow::Result<bool> {
    let count: i64 = conn.query_row(
        "SELECT (SELECT count(*) FROM brands) + (SELECT count(*) FROM cars)
            + (SELECT count(*) FROM settings)",
        [],
        |r| r.get(0),
    )?;
    Ok(count > 0)
}

fn timestamp(ago: Duration) -> String {
    (Utc::now() - ago).to_rfc3339_opts(SecondsFormat::Millis, true)
}

/// "2 199 000 ₽"
fn rubles(amount: i64) -> String {
    let digits = amount.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(' ');
        }
        out.push(c);
    }
    out + " ₽"
}

struct CarRow {
    id: String,
    brand: &'static str,
    model: &'static str,
    title: String,
    slug: String,
    price: i64,
    status: CarStatus,
    published: bool,
}

fn insert_all(
    conn: &Connection,
    stock: &[CarPlan],
    plan: &PicturePlan,
    stored: &[StoredImage],
) -> anyhow::Result<()> {
    let url = |i: usize| stored[i].url.clone();
    let current_year = Utc::now().year().max(YEAR);

    let mut s = content::settings();
    let b = &mut s.public.banners;
    let slots = [
        (&mut b.home_banner, &mut b.home_banner_mobile),
        (&mut b.new_cars_banner, &mut b.new_cars_banner_mobile),
        (&mut b.used_cars_banner, &mut b.used_cars_banner_mobile),
        (&mut b.trade_in_banner, &mut b.trade_in_banner_mobile),
        (&mut b.auto_credit_banner, &mut b.auto_credit_banner_mobile),
        (
            &mut b.auto_selection_banner,
            &mut b.auto_selection_banner_mobile,
        ),
    ];
    for ((desktop, mobile), &(d, m)) in slots.into_iter().zip(&plan.page_banners) {
        *desktop = url(d);
        *mobile = url(m);
    }
    settings::save(conn, &s)?;

    let mut brand_ids = Vec::new();
    for (brand, &logo) in BRANDS.iter().zip(&plan.brand_logos) {
        let created = brands::create(
            conn,
            &brands::BrandInput {
                name: brand.name.into(),
                slug: slug::slugify(brand.name),
                logo: url(logo),
                description: brand.description.into(),
            },
        )?;
        brand_ids.push(created.id);
    }
    for &(body, desktop, mobile) in &plan.body_banners {
        body_types::set_images(conn, &body.code(), &url(desktop), &url(mobile))?;
    }

    let rows = insert_cars(conn, stock, &brand_ids, &url, current_year)?;
    insert_reviews(conn, &rows)?;
    let today = crate::clock::Clock::default().moscow_today();
    let partners: Vec<String> = content::BANKS.iter().map(|b| b.name.into()).collect();
    for (promo, &image) in content::PROMOTIONS.iter().zip(&plan.promotions) {
        let last_day = today + Duration::days(promo.ends_in_days);
        // A promotion of a partner bank's product carries its mark.
        let text = format!("{} {}", promo.title, promo.description);
        let mark = crate::domain::ads::names_partner(&text, &partners).and_then(|bank| {
            content::BANK_PROMOTION_MARKS
                .iter()
                .find(|(name, ..)| *name == bank)
        });
        promotions::create(
            conn,
            &promotions::PromotionInput {
                title: promo.title.into(),
                description: promo.description.into(),
                image: url(image),
                discount: promo.discount.into(),
                valid_until: last_day.to_string(),
                is_active: promo.active,
                ad_erid: mark.map(|(.., erid)| erid.to_string()).unwrap_or_default(),
                ad_advertiser: mark
                    .map(|(_, advertiser, _)| advertiser.to_string())
                    .unwrap_or_default(),
            },
        )?;
    }
    let mut bank_ids = Vec::new();
    for (bank, &logo) in content::BANKS.iter().zip(&plan.bank_logos) {
        let created = banks::create(
            conn,
            &banks::PartnerBankInput {
                name: bank.name.into(),
                logo: url(logo),
                requirements: bank.requirements.into(),
                advantages: bank.advantages.into(),
                active: bank.active,
                ad_erid: bank.erid.into(),
                ad_advertiser: String::new(),
            },
        )?;
        bank_ids.push((bank.name, created.id));
    }
    insert_credit_programs(conn, &bank_ids)?;
    insert_leads(conn, &rows, &s, current_year)?;
    insert_followers(conn, &brand_ids, s.public.consent_version)?;
    if users::find_for_login(conn, DEMO_USER)?.is_none() {
        users::create(
            conn,
            DEMO_USER,
            DEMO_PASSWORD,
            crate::domain::roles::Role::Owner,
        )?;
    }
    let (login, name, email) = responses::STAFF_MANAGER;
    if users::find_for_login(conn, login)?.is_none() {
        crate::domain::staff::add(
            conn,
            crate::domain::staff::NewStaff {
                username: login.into(),
                name: name.into(),
                role: crate::domain::roles::Role::Manager,
                password: None,
                email: email.into(),
                work_schedule: None,
                pbx_number: "102".into(),
                salon_ids: Vec::new(),
            },
        )?;
    }
    Ok(())
}

/// Visitors who follow saved searches (confirmed), so the admin's screen
/// of them is not empty on a fresh demo.
fn insert_followers(
    conn: &Connection,
    brand_ids: &[String],
    consent_version: i64,
) -> anyhow::Result<()> {
    use crate::domain::saved_searches::{self, SearchFilter, ValidRequest};
    let brand = brand_ids.first().context("no demo brand")?;
    let brand_slug = slug::slugify(BRANDS[0].name);
    let new_of_brand = SearchFilter {
        status: Some(CarStatus::New),
        brand_id: Some(brand.clone()),
        body_type: None,
        max_price: Some(3_000_000),
    };
    let used_crossovers = SearchFilter {
        status: Some(CarStatus::Used),
        body_type: Some(Body::Crossover.code()),
        ..SearchFilter::default()
    };
    let new_page = format!("/new-cars?brand={brand_slug}&price=3000000");
    let follows = [
        (
            "anna.petrova@example.ru",
            &new_of_brand,
            new_page.as_str(),
            9,
        ),
        (
            "sergey.ivanov@example.com",
            &new_of_brand,
            new_page.as_str(),
            4,
        ),
        (
            "sergey.ivanov@example.com",
            &used_crossovers,
            "/used-cars?body=crossover",
            2,
        ),
    ];
    for (email, filter, page_url, days_ago) in follows {
        let valid = ValidRequest {
            email: email.into(),
            filter: filter.clone(),
            page_url: page_url.into(),
            description: saved_searches::describe(conn, filter)?,
        };
        saved_searches::insert_confirmed(
            conn,
            valid,
            consent_version,
            "192.0.2.44",
            Utc::now() - Duration::days(days_ago),
        )?;
    }
    Ok(())
}

fn insert_cars(
    conn: &Connection,
    stock: &[CarPlan],
    brand_ids: &[String],
    url: &dyn Fn(usize) -> String,
    current_year: i32,
) -> anyhow::Result<Vec<CarRow>> {
    let mut rows = Vec::new();
    for (i, car) in stock.iter().enumerate() {
        let model = &MODELS[car.model];
        let brand = &BRANDS[car.brand];
        let trim = model.trims.get(car.trim).copied().unwrap_or_default();
        let name = format!("{} {trim}", model.model).trim().to_string();
        let base = slug::slugify(&format!("{} {name} {}", brand.name, car.year));
        let mut slug = base.clone();
        let mut n = 2;
        while cars::get_by_slug(conn, &slug, true)?.is_some() {
            slug = format!("{base}-{n}");
            n += 1;
        }
        let trim_levels = if car.status == CarStatus::New {
            model
                .trims
                .iter()
                .enumerate()
                .map(|(rank, name)| TrimLevel {
                    name: (*name).into(),
                    description: catalogue::trim_description(rank).into(),
                    link: String::new(),
                })
                .collect()
        } else {
            Vec::new()
        };
        let images: Vec<String> = car.photos.iter().map(|&p| url(p)).collect();
        let discounts = demo_discounts(car.status, car.price, i);
        let input = CarInput {
            brand_id: brand_ids[car.brand].clone(),
            name: name.clone(),
            slug: slug.clone(),
            model: model.model.into(),
            year: car.year,
            price: Money::from_rubles(car.price),
            monthly_payment: car.monthly.map(Money::from_rubles),
            daily_price: car.daily.map(Money::from_rubles),
            status: car.status,
            body_type: model.body.code(),
            transmission: model.transmission,
            drivetrain: Some(model.drivetrain),
            fuel_type: model.fuel,
            engine: model.engine.into(),
            mileage: car.mileage,
            main_image: images.first().cloned().unwrap_or_default(),
            images,
            trim_levels,
            in_stock: car.in_stock,
            featured: car.featured,
            published: car.published,
            // Used cars have theirs from the plan; new cars in stock and
            // lease cars get one here (only cars on order have none yet).
            vin: car
                .vin
                .clone()
                .or_else(|| (car.status != CarStatus::New || car.in_stock).then(|| demo_vin(i))),
            color: Some(PAINTS[car.paint].0.into()),
            external_id: None,
            credit_discount: discounts.map(|d| d[0]),
            tradein_discount: discounts.map(|d| d[1]),
            insurance_discount: discounts.map(|d| d[2]),
            max_discount: discounts.map(|d| d[3]),
            trim: Some(trim.to_string()).filter(|t| !t.is_empty()),
            generation: None,
            doors: None,
            // What the marketplaces require of a used car (`docs/parser.md`,
            // "Export"): one to three owners, no accident, a good state.
            owners: (car.status == CarStatus::Used).then_some(1 + (i % 3) as i64),
            accident: (car.status == CarStatus::Used).then_some(false),
            state: (car.status == CarStatus::Used).then_some(if i % 4 == 0 {
                CarState::Excellent
            } else {
                CarState::Good
            }),
            wheel: Wheel::Left,
            salon_id: None,
        };
        let created = cars::create(conn, &input, current_year)?;
        // Listed newest first in the planned order, a few hours apart.
        let at = timestamp(Duration::minutes(47 * i as i64 + 5));
        conn.execute(
            "UPDATE cars SET created_at = ?2, updated_at = ?2 WHERE id = ?1",
            params![created.id, at],
        )?;
        rows.push(CarRow {
            id: created.id,
            brand: brand.name,
            model: model.model,
            title: format!("{} {name}", brand.name),
            slug,
            price: car.price,
            status: car.status,
            published: car.published,
        });
    }
    Ok(rows)
}

/// The demo banks' credit programmes, dated around the Moscow date of the
/// build: one ended yesterday, so the site hides it by itself.
fn insert_credit_programs(conn: &Connection, bank_ids: &[(&str, String)]) -> anyhow::Result<()> {
    let today = crate::clock::Clock::default().moscow_today();
    let day = |days: i64| {
        (today + Duration::days(days))
            .format("%Y-%m-%d")
            .to_string()
    };
    for spec in content::CREDIT_PROGRAMS {
        let bank_id = bank_ids
            .iter()
            .find(|(name, _)| *name == spec.bank)
            .map(|(_, id)| id.clone())
            .with_context(|| format!("no demo bank {}", spec.bank))?;
        credit_programs::create(
            conn,
            &credit_programs::CreditProgramInput {
                bank_id,
                name: spec.name.into(),
                rate_min: spec.rate.0,
                rate_max: spec.rate.1,
                psk_min: spec.psk.0,
                psk_max: spec.psk.1,
                term_min_months: spec.months.0,
                term_max_months: spec.months.1,
                min_down_payment_percent: spec.down_payment_percent,
                valid_from: day(spec.from_days),
                valid_to: spec.to_days.map(day),
                conditions: spec.conditions.into(),
                active: true,
            },
            today,
        )?;
    }
    Ok(())
}

fn insert_reviews(conn: &Connection, rows: &[CarRow]) -> anyhow::Result<()> {
    for spec in content::REVIEWS {
        let car = spec.car.and_then(|(brand, model)| {
            rows.iter()
                .find(|r| r.published && r.brand == brand && r.model == model)
        });
        let created = reviews::create(
            conn,
            &reviews::ReviewInput {
                customer_name: spec.name.into(),
                car_id: car.map(|c| c.id.clone()),
                car_model: spec.car.map(|(brand, model)| format!("{brand} {model}")),
                rating: spec.rating,
                text: spec.text.into(),
                photo: None,
                approved: spec.approved,
            },
        )?;
        let at = timestamp(Duration::days(spec.days_ago) + Duration::hours(3));
        conn.execute(
            "UPDATE reviews SET created_at = ?2, updated_at = ?2 WHERE id = ?1",
            params![created.id, at],
        )?;
    }
    Ok(())
}

fn insert_leads(
    conn: &Connection,
    rows: &[CarRow],
    settings: &settings::Settings,
    current_year: i32,
) -> anyhow::Result<()> {
    let consent_version = settings.public.consent_version;
    let now = Utc::now();
    let published: Vec<&CarRow> = rows.iter().filter(|r| r.published).collect();
    let of_status = |status: CarStatus, k: usize| {
        let list: Vec<&&CarRow> = published.iter().filter(|r| r.status == status).collect();
        list[(k * 7) % list.len()]
    };
    for (k, spec) in content::LEADS.iter().enumerate() {
        let mut input = LeadInput {
            lead_type: Some(spec.kind.into()),
            name: Some(spec.name.into()),
            phone: Some(spec.phone.into()),
            email: spec.email.map(Into::into),
            message: spec.message.map(Into::into),
            consent: true,
            advertising_consent: k % 3 == 0,
            ..LeadInput::default()
        };
        let car = match spec.kind {
            "auto_credit" => {
                input.desired_amount = Some(Money::from_rubles(1_500_000 + 250_000 * k as i64));
                if k % 2 == 0 {
                    // Sent from the calculator: with its term and down payment.
                    input.term_months = Some(60);
                    input.down_payment = Some(Money::from_rubles(500_000));
                }
                input.monthly_income = Some(Money::from_rubles(90_000 + 15_000 * k as i64));
                Some(of_status(CarStatus::New, k))
            }
            "lease_booking" => Some(of_status(CarStatus::Lease, k)),
            "contact_form" => Some(of_status(CarStatus::Used, k)),
            // «Перезвоните мне» from a car's page.
            "callback" => Some(of_status(CarStatus::Used, k + 1)),
            "test_drive" => {
                // Tomorrow and the day after, at a slot of the default hours.
                let today = crate::clock::Clock::default().moscow_today();
                let day = today + Duration::days(1 + k as i64 % 2);
                input.preferred_date = Some(day.format("%Y-%m-%d").to_string());
                input.preferred_time = Some(["11:00", "17:30"][k % 2].into());
                Some(of_status([CarStatus::New, CarStatus::Used][k % 2], k))
            }
            "trade_in" => {
                let (brand, model, year, km) = [
                    ("Kia", "Rio", 2017, 118_000),
                    ("Hyundai", "Solaris", 2019, 86_000),
                    ("Renault", "Logan", 2016, 143_000),
                ][k % 3];
                input.car_brand = Some(brand.into());
                input.car_model = Some(model.into());
                input.car_year = Some(year);
                input.car_mileage = Some(km);
                input.car_condition = Some("Хорошее".into());
                input.source_url = Some("/trade-in".into());
                None
            }
            _ => {
                input.budget = Some(Money::from_rubles(2_000_000 + 500_000 * (k as i64 % 4)));
                input.preferred_brand = Some(["Haval", "Geely", "Toyota"][k % 3].into());
                input.body_type = Some("crossover".into());
                input.transmission = Some("automatic".into());
                input.fuel_types = Some("gasoline,hybrid".into());
                input.source_url = Some("/auto-selection".into());
                None
            }
        };
        if let Some(car) = car {
            input.car_id = Some(car.id.clone());
            input.car_info = Some(car.title.clone());
            input.car_price = Some(rubles(car.price));
            input.car_status = Some(car.status.as_str().into());
            input.source_url = Some(format!("/car/{}", car.slug));
        }
        let lead = leads::insert(
            conn,
            input.validate(consent_version, "127.0.0.1", current_year)?,
        )?;
        let arrived = now - Duration::hours(spec.hours_ago) - Duration::minutes(13);
        let created = arrived.to_rfc3339_opts(SecondsFormat::Millis, true);
        // Answered in the audit trail (the response times); updated then.
        let answered = responses::answer(
            conn,
            &settings.public.work_schedule,
            k,
            (&lead.id, &lead.name),
            spec.status,
            arrived,
            now,
        )?;
        let updated = match answered {
            Some(at) => at.to_rfc3339_opts(SecondsFormat::Millis, true),
            None if spec.status == "new" => created.clone(),
            None => timestamp(Duration::hours(spec.hours_ago / 2)),
        };
        conn.execute(
            "UPDATE leads SET status = ?2, created_at = ?3, consent_at = ?3, updated_at = ?4
             WHERE id = ?1",
            params![lead.id, spec.status, created, updated],
        )?;
    }
    Ok(())
}

/// A VIN of the demo's `index`-th car: 17 characters without I, O or Q,
/// each index its own.
fn demo_vin(index: usize) -> String {
    let mixed = (index as u64).wrapping_mul(0x9E37_79B9) & 0xFFFF_FFFF;
    format!("X9D0{mixed:08X}{index:05}")
}

/// Conditional discounts (credit, trade-in, insurance, cap) of every fifth new
/// demo car, as shares of its price rounded down to 10,000 rubles.
fn demo_discounts(status: CarStatus, price: i64, index: usize) -> Option<[Money; 4]> {
    if status != CarStatus::New || index % 5 != 1 {
        return None;
    }
    let share =
        |percent_tenths: i64| Money::from_rubles(price * percent_tenths / 1000 / 10_000 * 10_000);
    Some([share(40), share(50), share(15), share(70)])
}
