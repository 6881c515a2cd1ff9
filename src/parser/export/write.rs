//! What every feed writes alike: a car's key in the feeds, its body type's
//! label, absolute photo URLs, escaped elements and the ad's text.

use std::collections::HashMap;
use std::fmt::Write;

use quick_xml::escape::escape;

use crate::domain::cars::Car;
use crate::domain::settings::Settings;
use crate::media;
use crate::parser::mapping;

/// The single label of each body type, by slug: how a type beyond the
/// spec's six is spelled in a feed.
pub type BodyLabels = HashMap<String, String>;

pub(super) fn label<'a>(labels: &'a BodyLabels, car: &'a Car) -> &'a str {
    labels
        .get(car.body_type.as_str())
        .map_or(car.body_type.as_str(), String::as_str)
}

/// The key of a car in the feeds: its external id, else its own id.
pub fn feed_id(car: &Car) -> &str {
    car.external_id.as_deref().unwrap_or(&car.id)
}

/// A picture's absolute URL, its largest variant when it is one of ours.
pub(super) fn photo_url(base: &str, url: &str) -> String {
    if url.starts_with("http://") || url.starts_with("https://") {
        return url.to_string();
    }
    let large = media::variant_url(url, 1600).unwrap_or_else(|| url.to_string());
    format!("{base}{large}")
}

pub(super) fn e(text: &str) -> std::borrow::Cow<'_, str> {
    escape(text)
}

pub(super) fn element(out: &mut String, indent: &str, name: &str, value: &str) {
    let _ = writeln!(out, "{indent}<{name}>{}</{name}>", e(value));
}

/// The ad's text: the car, its trim levels, the salon's contacts; at most
/// `max` characters (a trim level that would pass it is left out).
pub(super) fn description(car: &Car, settings: &Settings, max: usize) -> String {
    let engine = car.engine.trim().trim_end_matches('.');
    let head = format!("{} {} {}. {engine}.", car.brand_name, car.name, car.year);
    let tail = format!(
        " {}, {}.",
        settings.public.salon_name, settings.public.phone
    );
    let mut text = head;
    let room = |text: &str, more: &str| {
        text.chars().count() + more.chars().count() + tail.chars().count() <= max
    };
    for trim in &car.trim_levels {
        if trim.name.is_empty() {
            continue;
        }
        let mut part = format!(" {}", trim.name);
        if !trim.description.is_empty() {
            let _ = write!(part, ": {}", trim.description);
        }
        part.push('.');
        if room(&text, &part) {
            text.push_str(&part);
        }
    }
    text.push_str(&tail);
    text.chars().take(max).collect()
}

/// The catalogue's modification of a car: "1.5 AMT (150 л.с.) 4WD".
pub(super) fn modification(car: &Car) -> String {
    mapping::modification_text(&car.engine, car.fuel_type, car.transmission, car.drivetrain)
}

/// `<images><image>…</image></images>`: at most `max` of the car's photos,
/// indented by `indent`.
pub(super) fn images(out: &mut String, indent: &str, car: &Car, base: &str, max: usize) {
    if car.images.is_empty() {
        return;
    }
    let _ = writeln!(out, "{indent}<images>");
    let inner = format!("{indent}  ");
    for url in car.images.iter().take(max) {
        element(out, &inner, "image", &photo_url(base, url));
    }
    let _ = writeln!(out, "{indent}</images>");
}
