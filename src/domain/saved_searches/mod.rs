//! Saved searches with alerts (docs/saved-searches.md): a visitor follows a
//! catalogue filter by e-mail. The address is confirmed by a link before
//! anything else is sent (double opt-in); then new matching cars and price
//! drops are mailed, at most one mail a day per address. Mails go through
//! the outbox (`crate::notify::saved_search` writes them).
//!
//! The pieces: `search` (the filter's types, messages and limits), `filter`
//! (checks and words), `request` (a visitor's request checked), `stored` (a subscription's row, the links'
//! tokens), `subscriptions` (subscribe, confirm,
//! unsubscribe), `alerts` (matches and mails), `admin` (the admin's list).

mod admin;
mod alerts;
mod filter;
mod request;
mod search;
mod stored;
mod subscriptions;

pub use admin::*;
pub use alerts::*;
pub use filter::*;
pub use request::*;
pub use search::*;
pub use stored::*;
pub use subscriptions::*;

#[cfg(test)]
mod tests {
    use std::collections::HashMap;

    use super::*;
    use crate::domain::money::Money;

    #[test]
    fn only_catalogue_pages_of_this_site() {
        let base = "https://salon.example";
        for (url, path) in [
            (
                "https://salon.example/new-cars?brand=haval",
                Some("/new-cars?brand=haval"),
            ),
            ("http://SALON.example/used-cars", Some("/used-cars")),
            (
                "/body-type/crossover?condition=new",
                Some("/body-type/crossover?condition=new"),
            ),
            ("/brand/haval#top", Some("/brand/haval")),
            ("/lease-cars", Some("/lease-cars")),
            ("https://evil.example/new-cars", None),
            ("https://salon.example@evil.example/new-cars", None),
            ("https://salon.example.evil.example/new-cars", None),
            ("//evil.example/new-cars", None),
            ("/admin", None),
            ("/car/haval-jolion", None),
            ("/body-type/", None),
            ("/body-type/a/b", None),
            ("javascript:alert(1)", None),
            ("/new-cars?x=1 2", None),
            ("https://salon.example", None),
        ] {
            assert_eq!(site_path(url, base).as_deref(), path, "{url}");
        }
    }

    #[test]
    fn emails_are_masked() {
        assert_eq!(mask_email("anna@b.ru"), "a***@b.ru");
        assert_eq!(mask_email("я@пример.рф"), "я***@пример.рф");
    }

    #[test]
    fn new_cars_and_drops_are_changes_rises_are_not() {
        let m = |id: &str, price: i64| Match {
            car_id: id.into(),
            title: id.into(),
            slug: id.into(),
            price: Money::from_rubles(price),
        };
        let now = vec![m("a", 100), m("b", 90), m("c", 120), m("d", 50)];
        let seen: HashMap<String, Money> = [
            ("b".to_string(), Money::from_rubles(100)),
            ("c".to_string(), Money::from_rubles(110)),
            ("d".to_string(), Money::from_rubles(50)),
        ]
        .into_iter()
        .collect();
        let items = changes(&now, &seen, "https://s");
        let told: Vec<_> = items
            .iter()
            .map(|i| (i.car_id.as_str(), i.old_price_kopecks))
            .collect();
        assert_eq!(told, [("a", None), ("b", Some(10_000))]);
        assert_eq!(items[0].url, "https://s/car/a");
    }
}
