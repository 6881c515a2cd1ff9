//! Applying a preview: the comparison made again on the current catalogue
//! and written in the caller's transaction (new cars, changes, pictures to
//! fetch, cars the feed no longer has).

use super::items::{clear_rows, internal, write_report};
use super::photos::{pending_photo_count, set_sources};
use super::plan::{Step, Steps, brand_key, plan};
use super::report::{ImportRun, RunStatus};
use super::runs::{get, get_summary, not_a_preview, stored};
use super::values::{Values, car_values};
use crate::domain::audit::{self, AuditAction, AuditObject, NewEntry};
use crate::domain::body_types::BodyTypeCreate;
use crate::domain::brands::BrandInput;
use crate::domain::cars::{
    BodyType, Car, CarInput, CarState, CarStatus, Drivetrain, FuelType, Transmission, Wheel,
};
use crate::domain::money::Money;
use crate::domain::{body_types, brands, cars};
use crate::error::{AppError, AppResult};
use crate::parser::feed::FeedCar;
use rusqlite::{Connection, params};
use std::collections::{HashMap, HashSet};

/// The slugs taken, and for each base the next number to try: a feed of
/// many identical cars («Haval Jolion 2024» a thousand times) numbers them
/// in one pass, where trying 2, 3, … again for each car cost the square of
/// their count (20,000 such cars: most of a 30 s apply).
pub(super) struct Slugs {
    taken: HashSet<String>,
    next: HashMap<String, usize>,
}

impl Slugs {
    pub(super) fn new(taken: HashSet<String>) -> Self {
        Slugs {
            taken,
            next: HashMap::new(),
        }
    }

    /// A unique slug made of `base`: the base itself, else the base with
    /// the first free number from 2 on.
    pub(super) fn unique(&mut self, base: &str) -> String {
        let base: String = crate::domain::slug::slugify(base)
            .chars()
            .take(200)
            .collect();
        let base = if base.is_empty() { "car".into() } else { base };
        // Every number below `next` is taken already (slugs are only added).
        let mut n = self.next.get(&base).copied().unwrap_or(1);
        let mut slug = if n == 1 {
            base.clone()
        } else {
            format!("{base}-{n}")
        };
        while self.taken.contains(&slug) {
            n += 1;
            slug = format!("{base}-{n}");
        }
        self.next.insert(base, n + 1);
        self.taken.insert(slug.clone());
        slug
    }
}

/// The car an import writes: the fields' values (`merged`, or a new car's
/// stated ones), and for the rest what the car has (`base`) or a new car's
/// defaults.
pub(super) fn input_for(
    values: &Values,
    brand_id: &str,
    base: Option<&Car>,
    slug: String,
) -> CarInput {
    let text = |k: &str| values.get(k).cloned().unwrap_or_default();
    let optional = |k: &str| crate::domain::non_empty(values.get(k).cloned());
    let money = |k: &str| optional(k).and_then(|m| Money::parse(&m).ok());
    CarInput {
        brand_id: brand_id.to_string(),
        name: text("name"),
        slug,
        model: text("model"),
        year: text("year").parse().unwrap_or_default(),
        price: money("price").unwrap_or_default(),
        monthly_payment: base.and_then(|c| c.monthly_payment),
        daily_price: base.and_then(|c| c.daily_price),
        status: CarStatus::parse(&text("status")).unwrap_or(CarStatus::Used),
        body_type: BodyType::parse(&text("bodyType")).unwrap_or(BodyType::SEDAN),
        transmission: Transmission::parse(&text("transmission")).unwrap_or(Transmission::Automatic),
        drivetrain: Drivetrain::parse(&text("drivetrain")),
        fuel_type: FuelType::parse(&text("fuelType")).unwrap_or(FuelType::Gasoline),
        engine: text("engine"),
        mileage: text("mileage").parse().unwrap_or_default(),
        main_image: String::new(),
        images: base.map(|c| c.images.clone()).unwrap_or_default(),
        // A feed names no trim levels: the car's are kept, at most the limit
        // (a car stored with more would otherwise stop the whole import).
        trim_levels: base
            .map(|c| {
                c.trim_levels
                    .iter()
                    .take(cars::MAX_TRIM_LEVELS)
                    .cloned()
                    .collect()
            })
            .unwrap_or_default(),
        in_stock: true,
        featured: base.is_some_and(|c| c.featured),
        published: base.is_none_or(|c| c.published),
        vin: optional("vin"),
        color: optional("color"),
        external_id: optional("externalId"),
        credit_discount: money("creditDiscount"),
        tradein_discount: money("tradeinDiscount"),
        insurance_discount: money("insuranceDiscount"),
        max_discount: money("maxDiscount"),
        trim: optional("trim"),
        generation: optional("generation"),
        doors: optional("doors").and_then(|d| d.parse().ok()),
        // The merged values hold the car's own where the feed says nothing
        // (a person's answer kept); a new car has only the feed's.
        owners: optional("owners").and_then(|n| n.parse().ok()),
        accident: optional("accident").and_then(|a| a.parse().ok()),
        state: optional("state").and_then(|s| CarState::parse(&s)),
        wheel: optional("wheel")
            .and_then(|w| Wheel::parse(&w))
            .or(base.map(|c| c.wheel))
            .unwrap_or_default(),
        // A car stays where it stands; a new one goes to the feed's salon.
        salon_id: base.map(|c| crate::domain::salons::of_column(c.salon_id)),
    }
}

/// Applies a preview in the caller's transaction: the comparison is made
/// again on the current catalogue and written, each car's change recorded
/// in the audit trail as the import's (by `who`, the admin or the
/// schedule). Gives the run as applied.
pub fn apply(
    conn: &Connection,
    id: &str,
    current_year: i32,
    who: &str,
) -> AppResult<Option<ImportRun>> {
    let Some(run) = get_summary(conn, id)? else {
        return Ok(None);
    };
    if run.status != RunStatus::Preview {
        return Err(not_a_preview(run.status));
    }
    let stored = stored(conn, id)?;
    let context = &stored.context;
    let plan = plan(
        conn,
        context,
        run.format,
        &stored.rows,
        stored.errors,
        Steps::Kept,
    )?;
    for body in &plan.report.new_body_types {
        body_types::create(
            conn,
            &BodyTypeCreate {
                body_type: body.body_type.to_string(),
                label_plural: body.label_plural.clone(),
                label_single: body.label_single.clone(),
                image_url: String::new(),
                image_url_mobile: String::new(),
            },
        )?;
    }

    // Brands: the catalogue's, and the feed's new ones created.
    let mut brand_ids: HashMap<String, String> = brands::list_for_admin(conn)?
        .into_iter()
        .map(|b| (brand_key(&b.name), b.id))
        .collect();
    let mut brand_slugs = Slugs::new(
        brands::list_for_admin(conn)?
            .into_iter()
            .map(|b| b.slug)
            .collect(),
    );
    for name in &plan.report.new_brands {
        let slug = brand_slugs.unique(name);
        let brand = brands::create(
            conn,
            &BrandInput {
                name: name.clone(),
                slug: slug.chars().take(100).collect(),
                logo: String::new(),
                description: String::new(),
            },
        )?;
        brand_ids.insert(brand_key(name), brand.id);
    }
    let brand_of = |feed: &FeedCar| -> AppResult<String> {
        brand_ids
            .get(&brand_key(&feed.brand))
            .cloned()
            .ok_or_else(|| internal(format!("brand {} missing", feed.brand)))
    };
    let mut slugs = Slugs::new(
        conn.prepare("SELECT slug FROM cars")?
            .query_map([], |r| r.get(0))?
            .collect::<Result<_, _>>()?,
    );
    // The feed lists exactly the cars this run has; the rows of the ones it
    // no longer has keep what it last stated, for their return.
    conn.execute(
        "UPDATE feed_cars SET listed = 0 WHERE feed_id = ?1",
        [&context.feed_id],
    )?;
    let mut mark = conn.prepare_cached(
        "INSERT INTO imported_cars (car_id, unpublished_by_import, last_run_id)
         VALUES (?1, 0, ?2)
         ON CONFLICT (car_id) DO UPDATE SET unpublished_by_import = 0, last_run_id = ?2",
    )?;
    let mut member = conn.prepare_cached(
        "INSERT INTO feed_cars (feed_id, car_id, feed_key, feed_values, listed, last_run_id)
         VALUES (?1, ?2, ?3, ?4, 1, ?5)
         ON CONFLICT (feed_id, car_id) DO UPDATE SET feed_key = ?3, feed_values = ?4,
            listed = 1, last_run_id = ?5",
    )?;
    let mut remember = |feed: &FeedCar, stated: &str, car_id: &str| -> AppResult<()> {
        mark.execute(params![car_id, id])?;
        member.execute(params![context.feed_id, car_id, feed.key(), stated, id])?;
        Ok(())
    };
    let fail_row = |feed: &FeedCar, err: AppError| -> AppError {
        AppError::conflict(
            None,
            format!("Строка {}: {}: {err}", feed.row, feed.title()),
        )
    };
    let said = |what: &str, car: &Car| {
        format!(
            "Импорт из фида «{}»: {what} «{}»",
            context.feed_name,
            super::plan::title_of(car)
        )
    };
    for step in &plan.steps {
        match step {
            Step::New { feed, stated } => {
                let brand_id = brand_of(feed)?;
                let slug = slugs.unique(&format!("{} {} {}", feed.brand, feed.name, feed.year));
                // A new car is written from what the feed states, its name
                // and engine text always.
                let mut values: Values = serde_json::from_str(stated).map_err(internal)?;
                values.insert("engine".into(), feed.engine.clone());
                values.insert("name".into(), feed.name.clone());
                let mut input = input_for(&values, &brand_id, None, slug);
                // A new car stands in its feed's salon.
                input.salon_id = context.salon_id.or(Some(crate::domain::salons::MAIN));
                drop(values);
                let car =
                    cars::create(conn, &input, current_year).map_err(|e| fail_row(feed, e))?;
                remember(feed, stated, &car.id)?;
                if !feed.photos.is_empty() {
                    set_sources(conn, &car.id, &feed.photos)?;
                }
                let mut entry = NewEntry::created(AuditObject::Car, &car.id, "", &car);
                entry.action = AuditAction::Import;
                entry.summary = said("добавлен", &car);
                audit::record(conn, who, entry)?;
            }
            Step::Changed {
                feed,
                stated,
                car_id,
                target,
                photos,
                republish,
            } => {
                let Some(before) = cars::get(conn, car_id, true)? else {
                    continue;
                };
                if target.is_some() || *republish {
                    let values = target.clone().unwrap_or_else(|| car_values(&before));
                    let brand_id = if values.get("brandName") == Some(&before.brand_name) {
                        before.brand_id.clone()
                    } else {
                        brand_of(feed)?
                    };
                    let mut input =
                        input_for(&values, &brand_id, Some(&before), before.slug.clone());
                    if *republish {
                        input.published = true;
                    }
                    cars::update(conn, car_id, &input, current_year)
                        .map_err(|e| fail_row(feed, e))?;
                }
                remember(feed, stated, car_id)?;
                if *photos {
                    set_sources(conn, car_id, &feed.photos)?;
                }
                if let Some(after) = cars::get(conn, car_id, true)? {
                    let mut entry =
                        NewEntry::updated(AuditObject::Car, car_id, "", &before, &after);
                    entry.action = AuditAction::Import;
                    entry.summary = said("изменён", &after);
                    if !entry.changes.is_empty() {
                        audit::record(conn, who, entry)?;
                    }
                }
            }
            Step::Unchanged {
                feed,
                stated,
                car_id,
            } => {
                remember(feed, stated, car_id)?;
            }
        }
    }
    let now = crate::domain::now();
    for car_id in &plan.gone {
        conn.prepare_cached("UPDATE cars SET published = 0, updated_at = ?2 WHERE id = ?1")?
            .execute(params![car_id, now])?;
        conn.prepare_cached(
            "UPDATE imported_cars SET unpublished_by_import = 1, last_run_id = ?2 WHERE car_id = ?1",
        )?
        .execute(params![car_id, id])?;
        if let Some(car) = cars::get(conn, car_id, true)? {
            let entry = NewEntry::new(
                AuditAction::Import,
                AuditObject::Car,
                Some(car_id),
                said("снят с публикации, его больше нет в фиде", &car),
            )
            .with_changes(vec![audit::change(
                "published",
                Some("true".into()),
                Some("false".into()),
            )]);
            audit::record(conn, who, entry)?;
        }
    }
    write_report(conn, id, &plan.report)?;
    clear_rows(conn, id)?;
    // Every photo still missing is this run's to fetch, the ones an earlier
    // run failed to get included.
    conn.execute(
        "UPDATE car_photo_sources SET error = NULL WHERE media_url IS NULL AND error IS NOT NULL",
        [],
    )?;
    let pending = pending_photo_count(conn)?;
    conn.execute(
        "UPDATE import_runs SET status = 'applied', finished_at = ?2,
            photos_total = ?3, photos_done = 0, photos_failed = 0
         WHERE id = ?1",
        params![id, now, pending],
    )?;
    get(conn, id)
}

#[cfg(test)]
mod tests {
    use super::Slugs;

    #[test]
    fn slugs_take_the_first_free_number_of_their_base() {
        let mut slugs = Slugs::new(["haval-jolion-2024-2".to_string()].into());
        let made: Vec<String> = (0..4).map(|_| slugs.unique("Haval Jolion 2024")).collect();
        assert_eq!(
            made,
            [
                "haval-jolion-2024",
                "haval-jolion-2024-3",
                "haval-jolion-2024-4",
                "haval-jolion-2024-5"
            ]
        );
        // Another base that spells one of those numbers is told apart.
        assert_eq!(slugs.unique("Haval Jolion 2024 3"), "haval-jolion-2024-3-2");
        assert_eq!(slugs.unique(""), "car");
        assert_eq!(slugs.unique("!"), "car-2");
    }
}
