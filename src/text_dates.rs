//! Dates a Russian text names ("31.12.2026", "по 31 декабря 2026 г."): the
//! last one, as an offer's end. Below both the domain (the promotions'
//! checks) and the database's migrations (promotions' free-text last days
//! settled), it depends on neither.

use std::sync::OnceLock;

use chrono::NaiveDate;
use regex::Regex;

const MONTHS: [&str; 12] = [
    "января",
    "февраля",
    "марта",
    "апреля",
    "мая",
    "июня",
    "июля",
    "августа",
    "сентября",
    "октября",
    "ноября",
    "декабря",
];

fn date_pattern() -> &'static Regex {
    static PATTERN: OnceLock<Regex> = OnceLock::new();
    PATTERN.get_or_init(|| {
        Regex::new(
            r"(?i)(?P<d>\d{1,2})\.(?P<m>\d{1,2})\.(?P<y>\d{4}|\d{2})\b|(?P<iy>\d{4})-(?P<im>\d{2})-(?P<id>\d{2})|(?P<wd>\d{1,2})\s+(?P<wm>января|февраля|марта|апреля|мая|июня|июля|августа|сентября|октября|ноября|декабря)\s+(?P<wy>\d{4})",
        )
        .expect("valid date pattern")
    })
}

/// The last date a promotion's free-text `validUntil` names ("31.12.2026",
/// "2026-12-31", "по 31 декабря 2026 г.", "с 01.11.2026 по 30.11.2026");
/// `None` when it names none ("пока есть автомобили").
pub fn last_date_in(text: &str) -> Option<NaiveDate> {
    let number =
        |c: &regex::Captures, name: &str| -> Option<u32> { c.name(name)?.as_str().parse().ok() };
    date_pattern()
        .captures_iter(text)
        .filter_map(|c| {
            if let (Some(d), Some(m), Some(y)) = (number(&c, "d"), number(&c, "m"), number(&c, "y"))
            {
                let y = if y < 100 { 2000 + y } else { y };
                return NaiveDate::from_ymd_opt(i32::try_from(y).ok()?, m, d);
            }
            if let (Some(d), Some(m), Some(y)) =
                (number(&c, "id"), number(&c, "im"), number(&c, "iy"))
            {
                return NaiveDate::from_ymd_opt(i32::try_from(y).ok()?, m, d);
            }
            let month = c.name("wm")?.as_str().to_lowercase();
            let m = MONTHS.iter().position(|name| *name == month)? as u32 + 1;
            NaiveDate::from_ymd_opt(i32::try_from(number(&c, "wy")?).ok()?, m, number(&c, "wd")?)
        })
        .last()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dates_of_promotions_are_read() {
        let d = |y, m, day| NaiveDate::from_ymd_opt(y, m, day);
        assert_eq!(last_date_in("31.12.2026"), d(2026, 12, 31));
        assert_eq!(last_date_in("до 1.2.27"), d(2027, 2, 1));
        assert_eq!(last_date_in("2026-11-30"), d(2026, 11, 30));
        assert_eq!(last_date_in("по 5 Января 2027 г."), d(2027, 1, 5));
        assert_eq!(last_date_in("с 01.11.2026 по 30.11.2026"), d(2026, 11, 30));
        assert_eq!(last_date_in("пока есть автомобили"), None);
        assert_eq!(last_date_in("31.02.2026"), None);
    }
}
