//! What every public page's data shares: the answer built on a database
//! connection with the settings (`respond`), the API addresses pages embed
//! under, prices as the UI prints them, and the pictures a page asks the
//! browser to fetch first.

use axum::response::Response;
use rusqlite::Connection;
use serde::Deserialize;
use serde_json::value::RawValue;

use super::super::shell::{Page, PreloadImage};
use crate::domain::car_index::CarIndex;
use crate::domain::money::Money;
use crate::domain::settings::PublicSettings;
use crate::error::AppResult;
use crate::http::held::page_basics::PageBasics;
use crate::http::state::AppState;

pub(super) const HOME_FEATURED: &str = "/api/cars/fast?featured=true&status=new,used&limit=12";
pub(super) const HOME_CATALOGUE: &str = "/api/cars/fast?status=new,used&limit=12";
pub(super) const PROMOTIONS: &str = "/api/promotions?active=true";
pub(super) const REVIEWS: &str = "/api/reviews?approved=true";
pub(super) const BRANDS: &str = "/api/brands/fast";
pub(super) const BODY_TYPES: &str = "/api/body-types";
pub const CREDIT_PROGRAMS: &str = "/api/credit-programs";

/// The description of every HTML 404 page.
pub const NOT_FOUND_DESCRIPTION: &str =
    "Такой страницы нет. Возможно, она была удалена или адрес набран с ошибкой.";

/// Runs `build` on a database connection with the settings, adds the
/// settings to the page's data and renders it.
pub(super) async fn respond<F>(state: AppState, build: F) -> AppResult<Response>
where
    F: FnOnce(&Connection, &PublicSettings) -> AppResult<Page> + Send + 'static,
{
    respond_listing(state, move |c, basics, _| build(c, &basics.settings)).await
}

/// [`respond`] for a page that lists cars: `build` also gets the published
/// catalogue in memory (`AppState::catalogue`, the one the API's lists
/// read), when it is held, so its lists and counts are a walk over it
/// instead of queries ([`super::catalogue`]'s `Lists`), and the body types
/// with the settings as every page reads them (`AppState::page_basics`,
/// read once per content version).
pub(super) async fn respond_listing<F>(state: AppState, build: F) -> AppResult<Response>
where
    F: FnOnce(&Connection, &PageBasics, Option<&CarIndex>) -> AppResult<Page> + Send + 'static,
{
    let media_dir = state.config.media_dir();
    let today = state.clock.moscow_today();
    let config = state.config.clone();
    let version = state.answers.version_now();
    let index = match version {
        Some(version) => state.catalogue.at(version, today, &state.db).await?,
        None => None,
    };
    let held = state.page_basics.clone();
    let (basics, page) = state
        .db
        .call(move |c| {
            let basics = held.at(version, today, c, &config.call_tracking)?;
            let mut page = build(c, &basics, index.as_deref())?;
            page.put_json("/api/settings", basics.settings_json.clone());
            // The footer's credit disclosure (38-FZ art. 28) on every page
            // (the credit page has read it already).
            if !page.data.contains_key(CREDIT_PROGRAMS) {
                page.put_json(CREDIT_PROGRAMS, basics.credit_programs_json.clone());
            }
            page.measure_image(&media_dir);
            Ok((basics, page))
        })
        .await?;
    Ok(page.render(&basics.settings, &state.config.base_url))
}

/// JSON text written by the domain (`cars::list_json`, the catalogue in
/// memory) as an answer to embed.
pub(super) fn json_text(bytes: Vec<u8>) -> AppResult<Box<RawValue>> {
    let text = String::from_utf8(bytes).map_err(anyhow::Error::from)?;
    Ok(RawValue::from_string(text).map_err(anyhow::Error::from)?)
}

/// "2 500 000" (rubles, thin groups as the UI prints them).
pub(super) fn rubles(money: Money) -> String {
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
pub(super) fn banner_preloads(page: &mut Page, desktop: &str, mobile: &str) {
    let mobile = if mobile.is_empty() { desktop } else { mobile };
    if !desktop.is_empty() {
        page.preload_images
            .push(PreloadImage::of(desktop, "100vw", WIDER_THAN_PHONES));
    }
    if !mobile.is_empty() {
        page.preload_images
            .push(PreloadImage::of(mobile, "100vw", PHONES));
    }
}

/// The screens the banners' phone pictures are for (`Banner.tsx`).
pub(super) const PHONES: &str = "(max-width: 767px)";
pub(super) const WIDER_THAN_PHONES: &str = "(min-width: 768px)";

/// The first card's picture of a catalogue (the card at `at` of `cars`, a
/// list as embedded), on the screens of `media` (all when empty).
pub(super) fn first_card_preload(page: &mut Page, cars: &RawValue, at: usize, media: &str) {
    #[derive(Deserialize)]
    struct Card {
        #[serde(rename = "mainImage")]
        main_image: Option<String>,
    }
    let first = serde_json::from_str::<Vec<&RawValue>>(cars.get())
        .ok()
        .and_then(|cars| cars.get(at).copied())
        .and_then(|car| serde_json::from_str::<Card>(car.get()).ok())
        .and_then(|card| card.main_image);
    let image = first.as_deref().unwrap_or_default();
    if !image.is_empty() {
        page.preload_images
            .push(PreloadImage::of(image, CARD_SIZES, media));
    }
}

/// The card picture's `sizes`, as ui/src/components/cars/CardGallery.tsx says.
pub(super) const CARD_SIZES: &str = "(max-width: 767px) 100vw, (max-width: 1279px) 50vw, 25vw";
