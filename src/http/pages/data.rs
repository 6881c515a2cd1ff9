//! One handler per public route: the page's head and the API answers its
//! first screen needs, under the same URLs the UI builds (ui/src/api/urls.ts).

use std::collections::HashMap;

use axum::extract::{Path, Query, State};
use axum::response::Response;
use rusqlite::Connection;
use serde_json::{Value, json};

use super::shell::{Page, PreloadImage};
use crate::domain::cars::{self, BodyType, Car, CarFilter, CarSort, CarStatus};
use crate::domain::money::Money;
use crate::domain::settings::{self, PublicSettings};
use crate::domain::{body_types, brands, promotions, reviews};
use crate::error::AppResult;
use crate::http::state::AppState;

/// Cars per request of the whole-list pages (used, lease, brand, body type).
const ALL_BATCH: u32 = 100;
/// The new-cars page's first batch.
const NEW_BATCH: u32 = 20;
/// The price filter's range (spec section 9); its top means "any price".
const PRICE_MIN: i64 = 500_000;
const PRICE_MAX: i64 = 10_000_000;

const HOME_FEATURED: &str = "/api/cars/fast?featured=true&status=new,used&limit=12";
const HOME_CATALOGUE: &str = "/api/cars/fast?status=new,used&limit=12";
const PROMOTIONS: &str = "/api/promotions?active=true";
const REVIEWS: &str = "/api/reviews?approved=true";
const BRANDS: &str = "/api/brands/fast";
const BODY_TYPES: &str = "/api/body-types";

/// Runs `build` on a database connection with the settings, adds the
/// settings to the page's data and renders it.
async fn respond<F>(state: AppState, build: F) -> AppResult<Response>
where
    F: FnOnce(&Connection, &PublicSettings) -> AppResult<Page> + Send + 'static,
{
    let (settings, page) = state
        .db
        .call(move |c| {
            let settings = settings::get(c)?.public;
            let mut page = build(c, &settings)?;
            page.put("/api/settings", &settings);
            Ok((settings, page))
        })
        .await?;
    Ok(page.render(&settings, &state.config.base_url))
}

fn by_status(statuses: &[CarStatus]) -> CarFilter {
    CarFilter {
        statuses: statuses.to_vec(),
        ..CarFilter::default()
    }
}

/// "2 500 000" (rubles, thin groups as the UI prints them).
pub fn rubles(money: Money) -> String {
    let digits = money.rubles().to_string();
    let mut out = String::new();
    for (i, ch) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push('\u{a0}');
        }
        out.push(ch);
    }
    out
}

/// The hero picture is the home page's largest paint: fetched at once, the
/// mobile one on phones (it falls back to the desktop one).
fn banner_preloads(page: &mut Page, desktop: &str, mobile: &str) {
    let mobile = if mobile.is_empty() { desktop } else { mobile };
    if !desktop.is_empty() {
        page.preload_images
            .push(PreloadImage::of(desktop, "100vw", "(min-width: 768px)"));
    }
    if !mobile.is_empty() {
        page.preload_images
            .push(PreloadImage::of(mobile, "100vw", "(max-width: 767px)"));
    }
}

/// The first card's picture of a catalogue.
fn first_card_preload(page: &mut Page, cars: &[Car]) {
    if let Some(car) = cars.first().filter(|c| !c.main_image.is_empty()) {
        page.preload_images
            .push(PreloadImage::of(&car.main_image, CARD_SIZES, ""));
    }
}

/// The card picture's `sizes`, as ui/src/components/cars/CardGallery.tsx says.
const CARD_SIZES: &str = "(max-width: 767px) 100vw, (max-width: 1279px) 50vw, 25vw";

pub async fn home(State(state): State<AppState>) -> AppResult<Response> {
    respond(state, |c, settings| {
        let mut page = Page::new("/");
        banner_preloads(
            &mut page,
            &settings.banners.home_banner,
            &settings.banners.home_banner_mobile,
        );
        page.put(BRANDS, &brands::list_brief(c)?);
        page.put(BODY_TYPES, &body_types::list(c)?);
        let mut featured = by_status(&[CarStatus::New, CarStatus::Used]);
        featured.featured = Some(true);
        page.put(HOME_FEATURED, &cars::list(c, &featured, 12, 0)?);
        let catalogue = by_status(&[CarStatus::New, CarStatus::Used]);
        page.put(HOME_CATALOGUE, &cars::list(c, &catalogue, 12, 0)?);
        page.put(PROMOTIONS, &promotions::list(c, true)?);
        page.put(REVIEWS, &reviews::list(c, true, 50, 0)?);
        Ok(page)
    })
    .await
}

/// The new-cars list's filters as the page URL carries them.
struct NewCarsQuery {
    brand_id: Option<String>,
    body_type: Option<BodyType>,
    max_price: Option<i64>,
    page: u32,
}

/// `/api/cars/fast?status=new…` and `/api/cars/count?status=new…` with the
/// filters in the UI's order.
fn new_cars_filter_query(q: &NewCarsQuery) -> String {
    let mut query = String::from("status=new");
    if let Some(brand) = &q.brand_id {
        query.push_str(&format!("&brandId={brand}"));
    }
    if let Some(body) = q.body_type {
        query.push_str(&format!("&bodyType={}", body.as_str()));
    }
    if let Some(max) = q.max_price {
        query.push_str(&format!("&maxPrice={max}"));
    }
    query
}

pub async fn new_cars(
    State(state): State<AppState>,
    Query(params): Query<HashMap<String, String>>,
) -> AppResult<Response> {
    respond(state, move |c, settings| {
        let mut page = Page::new("/new-cars")
            .title("Новые автомобили")
            .description(
                "Новые автомобили в наличии и под заказ в Санкт-Петербурге: цены, комплектации, \
                 автокредит и трейд-ин.",
            );
        let brand_list = brands::list_brief(c)?;
        let brand_id = params
            .get("brand")
            .and_then(|slug| brand_list.iter().find(|b| &b.slug == slug))
            .map(|b| b.id.clone());
        let query = NewCarsQuery {
            brand_id,
            body_type: params.get("body").and_then(|b| BodyType::parse(b)),
            max_price: params
                .get("price")
                .and_then(|p| p.parse::<i64>().ok())
                .filter(|p| (PRICE_MIN..PRICE_MAX).contains(p)),
            page: params
                .get("page")
                .and_then(|p| p.parse::<u32>().ok())
                .filter(|p| *p >= 1 && *p < 10_000)
                .unwrap_or(1),
        };
        let filter = CarFilter {
            statuses: vec![CarStatus::New],
            brand_id: query.brand_id.clone(),
            body_type: query.body_type,
            max_price: query.max_price.map(Money::from_rubles),
            ..CarFilter::default()
        };
        let offset = (query.page - 1) * NEW_BATCH;
        let filters = new_cars_filter_query(&query);
        let list = cars::list(c, &filter, NEW_BATCH, offset)?;
        let banners = &settings.banners;
        catalogue_preloads(
            &mut page,
            &banners.new_cars_banner,
            &banners.new_cars_banner_mobile,
            &list,
        );
        page.put(
            format!("/api/cars/fast?{filters}&limit={NEW_BATCH}&offset={offset}"),
            &list,
        );
        page.put(
            format!("/api/cars/count?{filters}"),
            &json!({ "count": cars::count(c, &filter)? }),
        );
        page.put(BRANDS, &brand_list);
        page.put(BODY_TYPES, &body_types::list(c)?);
        Ok(page)
    })
    .await
}

fn whole_list(
    c: &Connection,
    page: &mut Page,
    key: &str,
    filter: &CarFilter,
) -> AppResult<Vec<Car>> {
    let list = cars::list(c, filter, ALL_BATCH, 0)?;
    page.put(format!("{key}limit={ALL_BATCH}&offset=0"), &list);
    Ok(list)
}

/// A catalogue's largest paint: its banner when it has one, else the first card.
fn catalogue_preloads(page: &mut Page, desktop: &str, mobile: &str, cars: &[Car]) {
    if desktop.is_empty() && mobile.is_empty() {
        first_card_preload(page, cars);
    } else {
        banner_preloads(page, desktop, mobile);
    }
}

pub async fn used_cars(State(state): State<AppState>) -> AppResult<Response> {
    respond(state, |c, settings| {
        let mut page = Page::new("/used-cars")
            .title("Автомобили с пробегом")
            .description(
                "Автомобили с пробегом в Санкт-Петербурге: проверенная история, честные цены, \
                 автокредит и обмен по трейд-ину.",
            );
        let list = whole_list(
            c,
            &mut page,
            "/api/cars/fast?status=used&",
            &by_status(&[CarStatus::Used]),
        )?;
        let banners = &settings.banners;
        catalogue_preloads(
            &mut page,
            &banners.used_cars_banner,
            &banners.used_cars_banner_mobile,
            &list,
        );
        page.put(BRANDS, &brands::list_brief(c)?);
        page.put(BODY_TYPES, &body_types::list(c)?);
        Ok(page)
    })
    .await
}

pub async fn lease_cars(State(state): State<AppState>) -> AppResult<Response> {
    respond(state, |c, _| {
        let mut page = Page::new("/lease-cars")
            .title("Аренда с выкупом")
            .description(
                "Аренда автомобиля с выкупом в Санкт-Петербурге: первый взнос от 0 рублей, \
                 гибкие платежи и право выкупа в любой момент.",
            );
        let list = whole_list(
            c,
            &mut page,
            "/api/cars/fast?status=lease&",
            &by_status(&[CarStatus::Lease]),
        )?;
        first_card_preload(&mut page, &list);
        Ok(page)
    })
    .await
}

pub async fn trade_in(State(state): State<AppState>) -> AppResult<Response> {
    respond(state, |_, settings| {
        let mut page = Page::new("/trade-in").title("Трейд-ин").description(
            "Обмен автомобиля по программе трейд-ин в Санкт-Петербурге: оценка за 30 минут, \
             выгодная цена и оформление в один день.",
        );
        let banners = &settings.banners;
        banner_preloads(
            &mut page,
            &banners.trade_in_banner,
            &banners.trade_in_banner_mobile,
        );
        Ok(page)
    })
    .await
}

pub async fn auto_credit(State(state): State<AppState>) -> AppResult<Response> {
    respond(state, |c, settings| {
        let banners = &settings.banners;
        let mut page = Page::new("/auto-credit").title("Автокредит").description(
            "Автокредит на новые автомобили и автомобили с пробегом: ставки от 5,6%, \
                 решение за 30 минут, без поручителей, первый взнос от 0%.",
        );
        banner_preloads(
            &mut page,
            &banners.auto_credit_banner,
            &banners.auto_credit_banner_mobile,
        );
        page.put("/api/partner-banks", &crate::domain::banks::list(c, true)?);
        Ok(page)
    })
    .await
}

pub async fn auto_selection(State(state): State<AppState>) -> AppResult<Response> {
    respond(state, |c, settings| {
        let banners = &settings.banners;
        let mut page = Page::new("/auto-selection")
            .title("Подбор автомобиля")
            .description(
                "Подберём автомобиль под ваш бюджет: укажите тип кузова, коробку передач и \
                 топливо — специалист предложит варианты.",
            );
        banner_preloads(
            &mut page,
            &banners.auto_selection_banner,
            &banners.auto_selection_banner_mobile,
        );
        page.put(BODY_TYPES, &body_types::list(c)?);
        Ok(page)
    })
    .await
}

/// The car page's title: brand name plus car name.
pub fn car_title(car: &Car) -> String {
    if car
        .name
        .to_lowercase()
        .starts_with(&car.brand_name.to_lowercase())
    {
        car.name.clone()
    } else {
        format!("{} {}", car.brand_name, car.name)
    }
}

/// schema.org Car with an Offer in RUB.
pub fn car_json_ld(car: &Car, url: &str, image: Option<&str>) -> Value {
    let condition = match car.status {
        CarStatus::New => "https://schema.org/NewCondition",
        CarStatus::Used => "https://schema.org/UsedCondition",
        CarStatus::Lease if car.mileage > 0 => "https://schema.org/UsedCondition",
        CarStatus::Lease => "https://schema.org/NewCondition",
    };
    let mut ld = json!({
        "@context": "https://schema.org",
        "@type": "Car",
        "name": car_title(car),
        "brand": { "@type": "Brand", "name": car.brand_name },
        "model": car.model,
        "vehicleModelDate": car.year.to_string(),
        "productionDate": car.year.to_string(),
        "itemCondition": condition,
        "bodyType": car.body_type.as_str(),
        "fuelType": car.fuel_type.label(),
        "vehicleTransmission": car.transmission.label(),
        "driveWheelConfiguration": car.drivetrain.label(),
        "vehicleEngine": { "@type": "EngineSpecification", "name": car.engine },
        "mileageFromOdometer": {
            "@type": "QuantitativeValue", "value": car.mileage, "unitCode": "KMT"
        },
        "url": url,
        "offers": {
            "@type": "Offer",
            "price": car.price.to_string(),
            "priceCurrency": "RUB",
            "availability": if car.in_stock {
                "https://schema.org/InStock"
            } else {
                "https://schema.org/PreOrder"
            },
            "url": url,
        },
    });
    if let Some(image) = image {
        ld["image"] = Value::String(image.to_string());
    }
    ld
}

pub async fn car(State(state): State<AppState>, Path(slug): Path<String>) -> AppResult<Response> {
    let base = state.config.base_url.trim_end_matches('/').to_string();
    respond(state, move |c, settings| {
        let path = format!("/car/{slug}");
        let key = format!("/api/cars/slug/{slug}");
        let Some(car) = cars::get_by_slug(c, &slug, false)? else {
            let mut page = Page::new(path)
                .title("Автомобиль не найден")
                .description("Автомобиль с таким идентификатором не существует")
                .not_found();
            page.data.insert(key, Value::Null);
            return Ok(page);
        };
        let title = car_title(&car);
        let mut description = format!(
            "{title}, {} год — {}, от {} ₽",
            car.year,
            car.status.label(),
            rubles(car.price)
        );
        if let Some(monthly) = car.monthly_payment {
            description.push_str(&format!(", от {} ₽/мес", rubles(monthly)));
        }
        description.push_str(&format!(
            ". {}, {}, {} привод. Кредит, трейд-ин и рассрочка в {}.",
            car.engine,
            car.transmission.label(),
            car.drivetrain.label().to_lowercase(),
            settings.salon_name
        ));
        let mut page = Page::new(path.clone())
            .title(&title)
            .description(description);
        page.og_type = "product";
        let image = (!car.main_image.is_empty()).then(|| car.main_image.clone());
        let absolute_image = image.as_ref().map(|i| {
            if i.starts_with("http") {
                i.clone()
            } else {
                format!("{base}{i}")
            }
        });
        page.json_ld = Some(car_json_ld(
            &car,
            &format!("{base}{path}"),
            absolute_image.as_deref(),
        ));
        if let Some(image) = &image {
            page.preload_images.push(PreloadImage::of(
                image,
                "(max-width: 1024px) 100vw, 60vw",
                "",
            ));
        }
        page.image = image;
        let similar = CarFilter {
            body_type: Some(car.body_type),
            ..CarFilter::default()
        };
        page.put(
            format!(
                "/api/cars/body-type/{}/fast?limit=5",
                car.body_type.as_str()
            ),
            &cars::list(c, &similar, 5, 0)?,
        );
        page.put(PROMOTIONS, &promotions::list(c, true)?);
        page.put(key, &car);
        Ok(page)
    })
    .await
}

pub async fn brand(State(state): State<AppState>, Path(slug): Path<String>) -> AppResult<Response> {
    respond(state, move |c, _| {
        let path = format!("/brand/{slug}");
        let key = format!("/api/brands/slug/{slug}");
        let Some(brand) = brands::get_by_slug(c, &slug)? else {
            let mut page = Page::new(path)
                .title("Марка не найдена")
                .description("Марка с таким идентификатором не существует")
                .not_found();
            page.data.insert(key, Value::Null);
            return Ok(page);
        };
        let description = if brand.description.trim().is_empty() {
            format!(
                "Автомобили {} в Санкт-Петербурге: новые, с пробегом и в аренду с выкупом. \
                 Цены, наличие, автокредит и трейд-ин.",
                brand.name
            )
        } else {
            brand.description.chars().take(300).collect()
        };
        let mut page = Page::new(path)
            .title(format!("Автомобили {}", brand.name))
            .description(description);
        if !brand.logo.is_empty() {
            page.image = Some(brand.logo.clone());
        }
        let filter = CarFilter {
            brand_id: Some(brand.id.clone()),
            sort: CarSort::PriceAsc,
            ..CarFilter::default()
        };
        page.put(
            format!(
                "/api/cars/brand/{}/fast?sort=price_asc&limit={ALL_BATCH}&offset=0",
                brand.id
            ),
            &cars::list(c, &filter, ALL_BATCH, 0)?,
        );
        page.put(key, &brand);
        Ok(page)
    })
    .await
}

pub async fn body_type(
    State(state): State<AppState>,
    Path(code): Path<String>,
) -> AppResult<Response> {
    respond(state, move |c, _| {
        let path = format!("/body-type/{code}");
        let info = match BodyType::parse(&code) {
            Some(body) => body_types::get(c, body)?,
            None => None,
        };
        let key = format!("/api/body-types/{code}");
        let Some(info) = info else {
            let mut page = Page::new(path)
                .title("Страница не найдена")
                .description("404 Page Not Found")
                .not_found();
            page.data.insert(key, Value::Null);
            return Ok(page);
        };
        let mut page = Page::new(path)
            .title(&info.label_plural)
            .description(format!(
                "{} в Санкт-Петербурге: новые и с пробегом, цены и наличие, автокредит и трейд-ин.",
                info.label_plural
            ));
        if !info.image_url.is_empty() {
            page.image = Some(info.image_url.clone());
        }
        let filter = CarFilter {
            body_type: Some(info.body_type),
            ..CarFilter::default()
        };
        let list = cars::list(c, &filter, ALL_BATCH, 0)?;
        catalogue_preloads(&mut page, &info.image_url, &info.image_url_mobile, &list);
        page.put(
            format!("/api/cars/body-type/{code}/fast?limit={ALL_BATCH}&offset=0"),
            &list,
        );
        page.put(BRANDS, &brands::list_brief(c)?);
        page.put(key, &info);
        Ok(page)
    })
    .await
}

fn legal_page(c: &Connection, path: &str, document: &str, title: &str) -> AppResult<Page> {
    let all = settings::get(c)?;
    let text = if document == "consent" {
        all.consent_text
    } else {
        all.privacy_policy
    };
    let mut page = Page::new(path).title(title).description(format!(
        "{title}: на каких условиях мы обрабатываем данные посетителей сайта и заявок."
    ));
    page.put(
        format!("/api/legal/{document}"),
        &json!({ "title": title, "text": text, "version": all.public.consent_version }),
    );
    Ok(page)
}

pub async fn consent(State(state): State<AppState>) -> AppResult<Response> {
    respond(state, |c, _| {
        legal_page(
            c,
            "/consent",
            "consent",
            "Согласие на обработку персональных данных",
        )
    })
    .await
}

pub async fn privacy(State(state): State<AppState>) -> AppResult<Response> {
    respond(state, |c, _| {
        legal_page(
            c,
            "/privacy",
            "privacy",
            "Политика обработки персональных данных",
        )
    })
    .await
}
