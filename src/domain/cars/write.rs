//! Writing cars: create, update and delete, with their pictures, the
//! publication of many at once, and the counts of published and draft cars.

use super::car::{Car, CarStatus};
use super::input::{CarInput, PRICE_ZERO, check_references, pictures, set_images, validate};
use super::read::get;
use crate::domain::money::Money;
use crate::error::{AppError, AppResult};
use rusqlite::types::Value;
use rusqlite::{Connection, params_from_iter};

/// Stores a new car and gives it back.
pub fn create(conn: &Connection, input: &CarInput, current_year: i32) -> AppResult<Car> {
    validate(input, current_year)?;
    check_references(conn, input)?;
    let id = crate::domain::new_id();
    let now = crate::domain::now();
    let marks = vec!["?"; WRITTEN_COLUMNS.len() + 3].join(", ");
    let sql = format!(
        "INSERT INTO cars (id, slug, created_at, {}) VALUES ({marks})",
        WRITTEN_COLUMNS.join(", ")
    );
    let mut values = vec![
        Value::from(id.clone()),
        Value::from(input.slug.clone()),
        Value::from(now.clone()),
    ];
    values.extend(written_values(input, now));
    crate::domain::atomically(conn, || {
        conn.prepare_cached(&sql)?
            .execute(params_from_iter(values))?;
        set_images(conn, &id, &pictures(input))
    })?;
    get(conn, &id, true)?.ok_or_else(|| AppError::Internal(anyhow::anyhow!("car vanished")))
}

/// The columns an admin form or an import writes (all but id, slug and
/// created_at), in the order of [`written_values`]. The pictures go to
/// `car_images` ([`set_images`]).
pub(super) const WRITTEN_COLUMNS: [&str; 34] = [
    "brand_id",
    "name",
    "model",
    "year",
    "price_kopecks",
    "monthly_payment_kopecks",
    "daily_price_kopecks",
    "status",
    "body_type",
    "transmission",
    "drivetrain",
    "fuel_type",
    "engine",
    "mileage",
    "in_stock",
    "featured",
    "trim_levels",
    "published",
    "vin",
    "color",
    "external_id",
    "credit_discount_kopecks",
    "tradein_discount_kopecks",
    "insurance_discount_kopecks",
    "max_discount_kopecks",
    "trim",
    "generation",
    "doors",
    "owners",
    "accident",
    "state",
    "wheel",
    "salon_id",
    "updated_at",
];

pub(super) fn written_values(input: &CarInput, now: String) -> Vec<Value> {
    let text = |t: &str| Value::from(t.trim().to_string());
    let optional_text =
        |t: &Option<String>| crate::domain::non_empty(t.clone()).map_or(Value::Null, Value::from);
    let money = |m: Option<Money>| m.map_or(Value::Null, |m| Value::Integer(m.kopecks()));
    let json = |v: String| Value::from(v);
    vec![
        text(&input.brand_id),
        text(&input.name),
        text(&input.model),
        Value::Integer(input.year.into()),
        Value::Integer(input.price.kopecks()),
        // Only a lease car keeps a typed payment (`docs/pricing.md`).
        money(
            input
                .monthly_payment
                .filter(|_| input.status == CarStatus::Lease),
        ),
        money(input.daily_price),
        text(input.status.as_str()),
        text(input.body_type.as_str()),
        text(input.transmission.as_str()),
        input
            .drivetrain
            .map_or(Value::Null, |d| Value::from(d.as_str().to_string())),
        text(input.fuel_type.as_str()),
        text(&input.engine),
        Value::Integer(input.mileage),
        Value::Integer(input.in_stock.into()),
        Value::Integer(input.featured.into()),
        json(serde_json::to_string(&input.trim_levels).unwrap_or_else(|_| "[]".into())),
        Value::Integer(input.published.into()),
        optional_text(&input.vin),
        optional_text(&input.color),
        optional_text(&input.external_id),
        money(input.credit_discount),
        money(input.tradein_discount),
        money(input.insurance_discount),
        money(input.max_discount),
        optional_text(&input.trim),
        optional_text(&input.generation),
        input.doors.map_or(Value::Null, Value::Integer),
        input.owners.map_or(Value::Null, Value::Integer),
        input
            .accident
            .map_or(Value::Null, |a| Value::Integer(a.into())),
        input
            .state
            .map_or(Value::Null, |s| Value::from(s.as_str().to_string())),
        text(input.wheel.as_str()),
        crate::domain::salons::column(input.salon_id.unwrap_or(crate::domain::salons::MAIN))
            .map_or(Value::Null, Value::Integer),
        Value::from(now),
    ]
}

/// Changes a car. The slug is fixed once set: a different one is refused.
pub fn update(
    conn: &Connection,
    id: &str,
    input: &CarInput,
    current_year: i32,
) -> AppResult<Option<Car>> {
    let Some(current) = get(conn, id, true)? else {
        return Ok(None);
    };
    validate(input, current_year)?;
    if current.slug != input.slug {
        return Err(AppError::invalid("slug", "Slug автомобиля нельзя изменить"));
    }
    check_references(conn, input)?;
    let assignments: Vec<String> = WRITTEN_COLUMNS.iter().map(|c| format!("{c} = ?")).collect();
    let sql = format!("UPDATE cars SET {} WHERE id = ?", assignments.join(", "));
    let mut values = written_values(input, crate::domain::now());
    values.push(Value::from(id.to_string()));
    crate::domain::atomically(conn, || {
        conn.prepare_cached(&sql)?
            .execute(params_from_iter(values))?;
        set_images(conn, id, &pictures(input))
    })?;
    get(conn, id, true)
}

/// The most cars one publication change takes (the admin list shows at
/// most 100 a page).
pub const MAX_PUBLICATION_IDS: usize = 500;
pub const NO_CARS_CHOSEN: &str = "Выберите автомобили";
pub const TOO_MANY_CARS: &str = "Не больше 500 автомобилей за раз";
pub const CARS_GONE: &str =
    "Некоторых выбранных автомобилей уже нет: обновите список и выберите снова";

/// Publishes (or unpublishes) the cars `ids`, all or none: an unknown id,
/// too many ids, or a car at 0 ₽ to publish refuses the whole change, with
/// nothing written. Gives each car whose publication changed, before and
/// after; a car already as asked is left as it is (and not given).
pub fn set_published(
    conn: &Connection,
    ids: &[String],
    published: bool,
) -> AppResult<Vec<(Car, Car)>> {
    if ids.is_empty() {
        return Err(AppError::invalid("ids", NO_CARS_CHOSEN));
    }
    if ids.len() > MAX_PUBLICATION_IDS {
        return Err(AppError::invalid("ids", TOO_MANY_CARS));
    }
    let mut chosen: Vec<Car> = Vec::with_capacity(ids.len());
    for id in ids {
        if chosen.iter().any(|c| c.id == *id) {
            continue;
        }
        match get(conn, id, true)? {
            Some(car) => chosen.push(car),
            None => return Err(AppError::invalid("ids", CARS_GONE)),
        }
    }
    chosen.retain(|car| car.published != published);
    let free: Vec<String> = chosen
        .iter()
        .filter(|car| car.price == Money(0))
        .map(|car| format!("{} {}", car.brand_name, car.name))
        .collect();
    if published && !free.is_empty() {
        // The first few by name; a long list would hide the message.
        let mut named = free.iter().take(5).cloned().collect::<Vec<_>>().join(", ");
        if free.len() > 5 {
            named.push_str(&format!(" и ещё {}", free.len() - 5));
        }
        return Err(AppError::invalid("ids", format!("{PRICE_ZERO}: {named}")));
    }
    let now = crate::domain::now();
    let mut changed = Vec::with_capacity(chosen.len());
    crate::domain::atomically(conn, || {
        let mut set =
            conn.prepare_cached("UPDATE cars SET published = ?1, updated_at = ?2 WHERE id = ?3")?;
        for before in chosen {
            set.execute(rusqlite::params![published, now, before.id])?;
            let after = get(conn, &before.id, true)?
                .ok_or_else(|| AppError::Internal(anyhow::anyhow!("car vanished")))?;
            changed.push((before, after));
        }
        Ok(())
    })?;
    Ok(changed)
}

pub fn delete(conn: &Connection, id: &str) -> AppResult<bool> {
    Ok(conn.execute("DELETE FROM cars WHERE id = ?1", [id])? > 0)
}

/// Counts for the dashboard: (published, drafts).
pub fn publication_counts(conn: &Connection) -> AppResult<(i64, i64)> {
    Ok(conn.query_row(
        "SELECT coalesce(sum(published = 1), 0), coalesce(sum(published = 0), 0) FROM cars",
        [],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?)
}

/// [`publication_counts`] of one salon's cars (1: the main).
pub fn publication_counts_in(conn: &Connection, salon: i64) -> AppResult<(i64, i64)> {
    Ok(conn.query_row(
        "SELECT coalesce(sum(published = 1), 0), coalesce(sum(published = 0), 0) FROM cars
         WHERE coalesce(salon_id, 1) = ?1",
        [salon],
        |r| Ok((r.get(0)?, r.get(1)?)),
    )?)
}

/// A car by id, drafts included; 404 when there is none.
pub fn get_by_id(conn: &Connection, id: &str) -> AppResult<Car> {
    get(conn, id, true)?.ok_or_else(|| AppError::not_found(NOT_FOUND))
}

/// The refusal of an unknown car.
pub const NOT_FOUND: &str = "Автомобиль не найден";

/// Moves a car to a salon (None: the main); the car after.
pub fn move_to_salon(conn: &Connection, id: &str, salon: Option<i64>) -> AppResult<Car> {
    conn.execute(
        "UPDATE cars SET salon_id = ?2, updated_at = ?3 WHERE id = ?1",
        rusqlite::params![id, salon, crate::domain::now()],
    )?;
    get_by_id(conn, id)
}
