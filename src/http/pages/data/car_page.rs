//! The car page: its handler, title and structured data (JSON-LD), beside
//! the other pages' handlers in `data.rs`.

use axum::extract::{Path, State};
use axum::response::Response;
use serde_json::{Value, json};

use super::super::shell::{Page, PreloadImage};
use super::answer::{PROMOTIONS, json_text, respond, rubles};
use crate::domain::cars::{self, Car, CarFilter, CarStatus};
use crate::domain::credit_payment::CreditRule;
use crate::domain::promotions;
use crate::error::AppResult;
use crate::http::state::AppState;

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
    if let Some(drive) = car.drivetrain {
        ld["driveWheelConfiguration"] = Value::String(drive.label().into());
    }
    ld
}

/// schema.org AutoDealer of a salon: its name, address, phone, place on
/// the map and opening hours.
pub fn auto_dealer_json_ld(salon: &crate::domain::salons::Salon, base: &str) -> Value {
    const DAYS: [&str; 7] = [
        "Monday",
        "Tuesday",
        "Wednesday",
        "Thursday",
        "Friday",
        "Saturday",
        "Sunday",
    ];
    let hours: Vec<Value> = salon
        .work_schedule
        .days
        .iter()
        .zip(DAYS)
        .filter_map(|(day, name)| {
            day.as_ref().map(|d| {
                json!({
                    "@type": "OpeningHoursSpecification",
                    "dayOfWeek": format!("https://schema.org/{name}"),
                    "opens": d.open,
                    "closes": d.close,
                })
            })
        })
        .collect();
    let address = if salon.full_address.is_empty() {
        &salon.address
    } else {
        &salon.full_address
    };
    let mut ld = json!({
        "@type": "AutoDealer",
        "name": salon.name,
        "url": base,
        "address": { "@type": "PostalAddress", "streetAddress": address, "addressCountry": "RU" },
        "telephone": salon.phone,
        "openingHoursSpecification": hours,
    });
    if let (Some(latitude), Some(longitude)) = (salon.latitude, salon.longitude) {
        ld["geo"] =
            json!({ "@type": "GeoCoordinates", "latitude": latitude, "longitude": longitude });
    }
    ld
}

pub async fn car(State(state): State<AppState>, Path(slug): Path<String>) -> AppResult<Response> {
    let base = state.config.base_url.trim_end_matches('/').to_string();
    let today = state.clock.moscow_today();
    respond(state, move |c, settings| {
        let path = format!("/car/{slug}");
        let key = format!("/api/cars/slug/{slug}");
        // At most the limits' trim levels and pictures, whatever the row holds.
        // The monthly figure of the programmes valid today (lease: typed).
        let rule = CreditRule::today(c, today)?;
        let shown = |car: Car| car.shown(&rule).bounded();
        let Some(car) = cars::get_by_slug(c, &slug, false)?.map(shown) else {
            let mut page = Page::new(path)
                .title("Автомобиль не найден")
                .description("Автомобиль с таким идентификатором не существует")
                .not_found();
            page.put_not_found(key);
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
        let drive = car
            .drivetrain
            .map(|d| format!(", {} привод", d.label().to_lowercase()))
            .unwrap_or_default();
        description.push_str(&format!(
            ". {}, {}{drive}. Кредит, трейд-ин и рассрочка в {}.",
            car.engine,
            car.transmission.label(),
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
        let mut ld = car_json_ld(&car, &format!("{base}{path}"), absolute_image.as_deref());
        // With several salons the offer names the dealer that holds the car.
        let salon = crate::domain::salons::of_column(car.salon_id);
        if let Some(salon) = settings.salons.iter().find(|s| s.id == salon) {
            ld["offers"]["seller"] = auto_dealer_json_ld(salon, &base);
        }
        page.json_ld = Some(ld);
        if let Some(image) = &image {
            page.preload_images.push(PreloadImage::of(
                image,
                "(max-width: 1024px) 100vw, 60vw",
                "",
            ));
        }
        page.image = image;
        let similar = CarFilter {
            body_type: Some(car.body_type.clone()),
            ..CarFilter::default()
        };
        page.put_json(
            format!(
                "/api/cars/body-type/{}/fast?limit=5",
                car.body_type.as_str()
            ),
            json_text(cars::list_json(c, &similar, 5, 0, &rule)?)?,
        );
        page.put(PROMOTIONS, &promotions::public(c, today)?);
        page.put(key, &car);
        Ok(page)
    })
    .await
}
