//! The catalogue's pages: the home page, new, used and lease-to-own cars, a
//! brand's and a body type's. Each reads its filters from the page URL by
//! the rule of ui/src/lib/filters.ts and ui/src/lib/catalogue.ts
//! (docs/catalogue.md) and embeds the batches and the count its first
//! screen reads; tests/fixtures/catalogue-urls.json holds examples both
//! sides are tested against.

use axum::extract::{Path, Query, State};
use axum::response::Response;
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};
use rusqlite::Connection;
use serde_json::json;
use serde_json::value::RawValue;

use super::super::shell::{Page, PreloadImage};
use super::answer::{
    BODY_TYPES, BRANDS, HOME_CATALOGUE, HOME_FEATURED, NOT_FOUND_DESCRIPTION, PHONES, PROMOTIONS,
    REVIEWS, WIDER_THAN_PHONES, banner_preloads, first_card_preload, json_text, respond_listing,
};
use crate::domain::car_index::CarIndex;
use crate::domain::cars::{self, BodyType, CarFilter, CarSort, CarStatus};
use crate::domain::credit_payment::CreditRule;
use crate::domain::money::Money;
use crate::domain::settings::Banners;
use crate::domain::{body_types, brands, promotions, reviews};
use crate::error::AppResult;
use crate::http::screen::Screen;
use crate::http::state::AppState;

/// Cars per request of a catalogue page; offsets are multiples of it.
const CAR_BATCH: u32 = 20;
/// Cars per page: 20 on desktop, 10 on phones. The page is drawn for the
/// screen its request says (`http::screen`), but a window may be narrower
/// or wider than its device says: it embeds the batch each of them reads.
const PAGE_SIZES: [u32; 2] = [20, 10];

/// Cars per page on `screen`.
fn page_size(screen: Screen) -> u32 {
    match screen {
        Screen::Phone => PAGE_SIZES[1],
        Screen::Wide => PAGE_SIZES[0],
    }
}
/// The highest page number a URL may ask for.
const PAGE_MAX: u64 = 10_000;
/// The price filter's range and step; its top means "any price".
const PRICE_MIN: i64 = 500_000;
const PRICE_MAX: i64 = 10_000_000;
const PRICE_STEP: i64 = 100_000;

/// Which cars a list asks for, and the API URL asking for them: the same
/// parameters in the same order as ui/src/api/urls.ts (status, brandId,
/// bodyType, maxPrice, salon, model, then sort, limit, offset). Brand ids
/// are UUIDs, safe in a URL as they are; a model is written as
/// `encodeURIComponent` writes it.
#[derive(Default)]
struct CarsQuery {
    statuses: Vec<CarStatus>,
    brand_id: Option<String>,
    body_type: Option<BodyType>,
    /// Whole rubles.
    max_price: Option<i64>,
    /// One salon's cars (`docs/salons.md`).
    salon: Option<i64>,
    /// One model's cars (a brand page's model filter).
    model: Option<String>,
    price_ascending: bool,
}

/// What `encodeURIComponent` leaves as it is: letters, digits and `-_.!~*'()`.
const URI_COMPONENT: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'!')
    .remove(b'~')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')');

impl CarsQuery {
    fn filter(&self) -> CarFilter {
        CarFilter {
            statuses: self.statuses.clone(),
            brand_id: self.brand_id.clone(),
            body_type: self.body_type.clone(),
            max_price: self.max_price.map(Money::from_rubles),
            salon: self.salon,
            model: self.model.clone(),
            sort: if self.price_ascending {
                CarSort::PriceAsc
            } else {
                CarSort::Newest
            },
            ..CarFilter::default()
        }
    }

    fn filter_params(&self) -> Vec<String> {
        let mut params = Vec::new();
        if !self.statuses.is_empty() {
            let codes: Vec<&str> = self.statuses.iter().map(|s| s.as_str()).collect();
            params.push(format!("status={}", codes.join(",")));
        }
        if let Some(brand) = &self.brand_id {
            params.push(format!("brandId={brand}"));
        }
        if let Some(body) = &self.body_type {
            params.push(format!("bodyType={}", body.as_str()));
        }
        if let Some(max) = self.max_price {
            params.push(format!("maxPrice={max}"));
        }
        if let Some(salon) = self.salon {
            params.push(format!("salon={salon}"));
        }
        if let Some(model) = &self.model {
            params.push(format!(
                "model={}",
                utf8_percent_encode(model, URI_COMPONENT)
            ));
        }
        params
    }

    fn list_url(&self, offset: u32, limit: u32) -> String {
        let mut params = self.filter_params();
        if self.price_ascending {
            params.push("sort=price_asc".into());
        }
        params.push(format!("limit={limit}"));
        params.push(format!("offset={offset}"));
        format!("/api/cars/fast?{}", params.join("&"))
    }

    fn count_url(&self) -> String {
        let params = self.filter_params();
        if params.is_empty() {
            "/api/cars/count".into()
        } else {
            format!("/api/cars/count?{}", params.join("&"))
        }
    }
}

/// A catalogue page's URL query, as the UI reads it: the first value of each
/// parameter counts.
struct PageQuery(Vec<(String, String)>);

impl PageQuery {
    fn get(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.as_str())
    }

    /// Digits only, else nothing; too many digits read as the largest number.
    fn whole(&self, name: &str) -> Option<u64> {
        let text = self.get(name)?;
        if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        Some(text.parse().unwrap_or(u64::MAX))
    }

    /// Rounded to the slider's step and kept within its range; its top (or
    /// no price) filters nothing.
    fn max_price(&self) -> Option<i64> {
        let price = i64::try_from(self.whole("price")?).unwrap_or(i64::MAX);
        let stepped = price.saturating_add(PRICE_STEP / 2) / PRICE_STEP * PRICE_STEP;
        let clamped = stepped.clamp(PRICE_MIN, PRICE_MAX);
        (clamped < PRICE_MAX).then_some(clamped)
    }

    fn page(&self) -> u32 {
        self.page_of("page")
    }

    /// A page number parameter: 1 when missing or out of range.
    fn page_of(&self, name: &str) -> u32 {
        match self.whole(name) {
            Some(page) if (1..=PAGE_MAX).contains(&page) => page as u32,
            _ => 1,
        }
    }

    /// The brand's id; an unknown slug filters nothing.
    fn brand_id(&self, brand_list: &[brands::BrandBrief]) -> Option<String> {
        let slug = self.get("brand")?;
        brand_list
            .iter()
            .find(|b| b.slug == slug)
            .map(|b| b.id.clone())
    }

    /// The `body` filter when the dealership's list has that type (as the
    /// UI keeps it); an unknown one filters nothing.
    fn body_type(&self, known: &[body_types::BodyTypeInfo]) -> Option<BodyType> {
        let body = BodyType::parse(self.get("body")?)?;
        known.iter().any(|t| t.body_type == body).then_some(body)
    }

    /// The `salon` filter when the install has that salon (several of
    /// them); another filters nothing.
    fn salon(&self, salons: &[crate::domain::salons::Salon]) -> Option<i64> {
        let id = i64::try_from(self.whole("salon")?).ok()?;
        salons.iter().any(|s| s.id == id).then_some(id)
    }

    /// The body-type page's Все/Новые/БУ: nothing filters every status.
    fn condition(&self) -> Vec<CarStatus> {
        match self.get("condition") {
            Some("new") => vec![CarStatus::New],
            Some("used") => vec![CarStatus::Used],
            _ => Vec::new(),
        }
    }
}

/// A page's lists of cars and their counts: from the catalogue in memory
/// when it is held (a walk over it, each car's JSON made once; 10,000 cars
/// a page's lists and count took 1.5-2.5 ms of queries), else from SQLite.
/// The same answers either way, as the API gives them (`CarIndex::page_json`
/// is `cars::list_json` byte for byte), embedded with serde's order of keys.
struct Lists<'a> {
    c: &'a Connection,
    index: Option<&'a CarIndex>,
    rule: &'a CreditRule,
}

impl Lists<'_> {
    /// A list as the API answers it, byte for byte (each car's JSON as
    /// `cars::list_json` writes it, which the cards drawn ahead are keyed by).
    fn list(&self, filter: &CarFilter, limit: u32, offset: u32) -> AppResult<Box<RawValue>> {
        json_text(match self.index {
            Some(index) => index.page_json(filter, limit, offset),
            None => cars::list_json(self.c, filter, limit, offset, self.rule)?,
        })
    }

    /// The brands shown, each with its published cars counted.
    fn brands(&self) -> AppResult<Vec<brands::BrandBrief>> {
        match self.index {
            Some(index) => brands::list_brief_counted(self.c, index.counts_by_brand()),
            None => brands::list_brief(self.c),
        }
    }

    fn count(&self, filter: &CarFilter) -> AppResult<i64> {
        match self.index {
            Some(index) => Ok(index.count(filter)),
            None => cars::count(self.c, filter),
        }
    }
}

/// `[]`.
fn empty_list() -> Box<RawValue> {
    RawValue::from_string("[]".into()).expect("[] is JSON")
}

/// Embeds the count of the cars `query` asks for, as `/api/cars/count` answers.
fn embed_count(lists: &Lists, page: &mut Page, query: &CarsQuery) -> AppResult<()> {
    let count = lists.count(&query.filter())?;
    page.put(query.count_url(), &json!({ "count": count }));
    Ok(())
}

/// The batch of cars holding a page drawn for a screen, and where in it the
/// page's first card is.
struct PageCars {
    batch: Box<RawValue>,
    first: usize,
}

/// Embeds what a catalogue page's first screen reads besides its side data:
/// the batch holding the page at each page size, and the count. Answers the
/// cars of the page as `screen` shows it.
fn embed_catalogue(
    lists: &Lists,
    page: &mut Page,
    query: &CarsQuery,
    page_number: u32,
    screen: Screen,
) -> AppResult<PageCars> {
    let filter = query.filter();
    let batch_at = |size: u32| {
        let start = (page_number - 1) * size;
        (start, start / CAR_BATCH * CAR_BATCH)
    };
    for size in PAGE_SIZES {
        let (_, offset) = batch_at(size);
        let url = query.list_url(offset, CAR_BATCH);
        if !page.data.contains_key(&url) {
            page.put_json(url, lists.list(&filter, CAR_BATCH, offset)?);
        }
    }
    embed_count(lists, page, query)?;
    let (start, offset) = batch_at(page_size(screen));
    let batch = page
        .data
        .get(&query.list_url(offset, CAR_BATCH))
        .cloned()
        .unwrap_or_else(empty_list);
    Ok(PageCars {
        batch,
        first: usize::try_from(start - offset).unwrap_or_default(),
    })
}

pub async fn home(State(state): State<AppState>) -> AppResult<Response> {
    let today = state.clock.moscow_today();
    respond_listing(state, move |c, basics, index| {
        let settings = &basics.settings;
        let mut page = Page::new("/");
        banner_preloads(
            &mut page,
            &settings.banners.home_banner,
            &settings.banners.home_banner_mobile,
        );
        let rule = CreditRule::today(c, today)?;
        let lists = Lists {
            c,
            index,
            rule: &rule,
        };
        page.put(BRANDS, &lists.brands()?);
        page.put_json(BODY_TYPES, basics.body_types_json.clone());
        let catalogue = CarFilter {
            statuses: vec![CarStatus::New, CarStatus::Used],
            ..CarFilter::default()
        };
        let featured = CarFilter {
            featured: Some(true),
            ..catalogue.clone()
        };
        page.put_json(HOME_FEATURED, lists.list(&featured, 12, 0)?);
        page.put_json(HOME_CATALOGUE, lists.list(&catalogue, 12, 0)?);
        page.put(PROMOTIONS, &promotions::public(c, today)?);
        page.put(REVIEWS, &reviews::list(c, true, 50, 0)?);
        Ok(page)
    })
    .await
}

pub async fn new_cars(
    State(state): State<AppState>,
    screen: Screen,
    Query(params): Query<Vec<(String, String)>>,
) -> AppResult<Response> {
    status_catalogue(
        state,
        screen,
        PageQuery(params),
        CarStatus::New,
        Page::new("/new-cars")
            .title("Новые автомобили")
            .description(
                "Новые автомобили в наличии и под заказ в Санкт-Петербурге: цены, комплектации, \
                 автокредит и трейд-ин.",
            ),
        |b| (&b.new_cars_banner, &b.new_cars_banner_mobile),
    )
    .await
}

pub async fn used_cars(
    State(state): State<AppState>,
    screen: Screen,
    Query(params): Query<Vec<(String, String)>>,
) -> AppResult<Response> {
    status_catalogue(
        state,
        screen,
        PageQuery(params),
        CarStatus::Used,
        Page::new("/used-cars")
            .title("Автомобили с пробегом")
            .description(
                "Автомобили с пробегом в Санкт-Петербурге: проверенная история, честные цены, \
                 автокредит и обмен по трейд-ину.",
            ),
        |b| (&b.used_cars_banner, &b.used_cars_banner_mobile),
    )
    .await
}

/// The new or the used cars' page: the page's filters (brand, body type,
/// price) and number read from its URL, the brands and body types the
/// filters offer, and the page's banner (desktop, mobile) from `banner`.
async fn status_catalogue(
    state: AppState,
    screen: Screen,
    params: PageQuery,
    status: CarStatus,
    page: Page,
    banner: fn(&Banners) -> (&String, &String),
) -> AppResult<Response> {
    let today = state.clock.moscow_today();
    respond_listing(state, move |c, basics, index| {
        let settings = &basics.settings;
        let mut page = page;
        let rule = CreditRule::today(c, today)?;
        let lists = Lists {
            c,
            index,
            rule: &rule,
        };
        let brand_list = lists.brands()?;
        let body_list = &basics.body_types;
        let query = CarsQuery {
            statuses: vec![status],
            brand_id: params.brand_id(&brand_list),
            body_type: params.body_type(body_list),
            max_price: params.max_price(),
            salon: params.salon(&settings.salons),
            ..CarsQuery::default()
        };
        let cars = embed_catalogue(&lists, &mut page, &query, params.page(), screen)?;
        let (desktop, mobile) = banner(&settings.banners);
        catalogue_preloads(&mut page, desktop, mobile, &cars);
        page.put(BRANDS, &brand_list);
        page.put_json(BODY_TYPES, basics.body_types_json.clone());
        Ok(page)
    })
    .await
}

/// A catalogue's largest paint: its banner when it has one, else the first card.
fn catalogue_preloads(page: &mut Page, desktop: &str, mobile: &str, cars: &PageCars) {
    if desktop.is_empty() && mobile.is_empty() {
        first_card_preload(page, &cars.batch, cars.first, "");
    } else {
        banner_preloads(page, desktop, mobile);
    }
}

/// A body type's largest paint: on a phone its first card (the filters are
/// folded away, the card is on the first screen and larger than the short
/// banner; the banner waits for the paint, `CatalogueLayout.tsx`), on a wider
/// screen its banner when it has one.
fn body_type_preloads(page: &mut Page, desktop: &str, mobile: &str, cars: &PageCars) {
    if desktop.is_empty() && mobile.is_empty() {
        first_card_preload(page, &cars.batch, cars.first, "");
        return;
    }
    first_card_preload(page, &cars.batch, cars.first, PHONES);
    let desktop = if desktop.is_empty() { mobile } else { desktop };
    page.preload_images
        .push(PreloadImage::of(desktop, "100vw", WIDER_THAN_PHONES));
}

/// The lease-to-own cars, newest first, a page at a time (`?page=N`).
pub async fn lease_cars(
    State(state): State<AppState>,
    screen: Screen,
    Query(params): Query<Vec<(String, String)>>,
) -> AppResult<Response> {
    let params = PageQuery(params);
    let today = state.clock.moscow_today();
    respond_listing(state, move |c, _, index| {
        let mut page = Page::new("/lease-cars")
            .title("Аренда с выкупом")
            .description(
                "Аренда автомобиля с выкупом в Санкт-Петербурге: первый взнос от 0 рублей, \
                 гибкие платежи и право выкупа в любой момент.",
            );
        let query = CarsQuery {
            statuses: vec![CarStatus::Lease],
            ..CarsQuery::default()
        };
        let rule = CreditRule::today(c, today)?;
        let lists = Lists {
            c,
            index,
            rule: &rule,
        };
        let cars = embed_catalogue(&lists, &mut page, &query, params.page(), screen)?;
        first_card_preload(&mut page, &cars.batch, cars.first, "");
        Ok(page)
    })
    .await
}

/// Cars a page of a brand's section on every screen, read as one batch
/// (`ui/src/lib/brandPage.ts`).
const SECTION_SIZE: u32 = 8;

/// A brand page's sections in their order, each with its page parameter.
const BRAND_SECTIONS: [(CarStatus, &str); 3] = [
    (CarStatus::New, "new"),
    (CarStatus::Used, "used"),
    (CarStatus::Lease, "lease"),
];

/// A brand's page: its counters, model filter and sections (`model`, and
/// `new`, `used`, `lease` for each section's page; docs/catalogue.md).
pub async fn brand(
    State(state): State<AppState>,
    Path(slug): Path<String>,
    Query(params): Query<Vec<(String, String)>>,
) -> AppResult<Response> {
    let params = PageQuery(params);
    let today = state.clock.moscow_today();
    respond_listing(state, move |c, _, index| {
        let path = format!("/brand/{slug}");
        let key = format!("/api/brands/slug/{slug}");
        let Some(brand) = brands::shown_by_slug(c, &slug)? else {
            let mut page = Page::new(path)
                .title("Марка не найдена")
                .description("Марка с таким идентификатором не существует")
                .not_found();
            page.put_not_found(key);
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
        // The models (the filter), a counter per status, and each status's
        // section: the page its parameter asks for, cheapest first, of the
        // filter's model; a model the brand lacks filters nothing.
        let models = cars::models_of_brand(c, &brand.id)?;
        let model = params
            .get("model")
            .filter(|m| models.iter().any(|known| known == m))
            .map(str::to_string);
        page.put(format!("/api/brands/{}/models", brand.id), &models);
        let rule = CreditRule::today(c, today)?;
        let lists = Lists {
            c,
            index,
            rule: &rule,
        };
        let mut first: Option<Box<RawValue>> = None;
        for (status, name) in BRAND_SECTIONS {
            let counter = CarsQuery {
                statuses: vec![status],
                brand_id: Some(brand.id.clone()),
                ..CarsQuery::default()
            };
            embed_count(&lists, &mut page, &counter)?;
            let section = CarsQuery {
                model: model.clone(),
                price_ascending: true,
                ..counter
            };
            let offset = (params.page_of(name) - 1) * SECTION_SIZE;
            let filter = section.filter();
            let list = lists.list(&filter, SECTION_SIZE, offset)?;
            if first.is_none() && list.get() != "[]" {
                first = Some(list.clone());
            }
            page.put_json(section.list_url(offset, SECTION_SIZE), list);
            // Without a model the section's count is the counter's.
            if section.model.is_some() {
                embed_count(&lists, &mut page, &section)?;
            }
        }
        first_card_preload(&mut page, &first.unwrap_or_else(empty_list), 0, "");
        page.put(key, &brand);
        Ok(page)
    })
    .await
}

pub async fn body_type(
    State(state): State<AppState>,
    screen: Screen,
    Path(code): Path<String>,
    Query(params): Query<Vec<(String, String)>>,
) -> AppResult<Response> {
    let params = PageQuery(params);
    let today = state.clock.moscow_today();
    respond_listing(state, move |c, _, index| {
        let path = format!("/body-type/{code}");
        let key = format!("/api/body-types/{code}");
        let body = BodyType::parse(&code);
        let info = match &body {
            Some(body) => body_types::get(c, body)?,
            None => None,
        };
        let Some(info) = info else {
            let mut page = Page::new(path)
                .title("Страница не найдена")
                .description(NOT_FOUND_DESCRIPTION)
                .not_found();
            // The UI asks for a body type only when the code is one.
            if body.is_some() {
                page.put_not_found(key);
            }
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
        let rule = CreditRule::today(c, today)?;
        let lists = Lists {
            c,
            index,
            rule: &rule,
        };
        let brand_list = lists.brands()?;
        let query = CarsQuery {
            statuses: params.condition(),
            brand_id: params.brand_id(&brand_list),
            body_type: Some(info.body_type.clone()),
            max_price: params.max_price(),
            ..CarsQuery::default()
        };
        let cars = embed_catalogue(&lists, &mut page, &query, params.page(), screen)?;
        body_type_preloads(&mut page, &info.image_url, &info.image_url_mobile, &cars);
        page.put(BRANDS, &brand_list);
        page.put(key, &info);
        Ok(page)
    })
    .await
}
