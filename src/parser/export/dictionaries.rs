//! The marketplaces' own values for what the site keeps as free text or
//! its own codes: colours by their palettes, body types by their lists
//! (`docs/parser.md`, "Export", rules A10, A12, R6, R8). `None`: the value
//! has no place in that marketplace's list, and the car is left out of its
//! feed with the reason (`super::gaps`), never sent to be refused.

use crate::domain::body_types::BodyType;

/// A colour family, the unit both palettes are made of.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Paint {
    Red,
    Brown,
    Orange,
    Beige,
    Yellow,
    Green,
    LightBlue,
    Blue,
    Violet,
    Purple,
    Pink,
    White,
    Grey,
    Black,
    Gold,
    Silver,
}

/// Word stems of each family, compared in lower case with `ё` as `е`.
/// Shades go to the family a buyer would filter by: "бордовый" is red,
/// "хаки" green, "графитовый" grey.
const STEMS: &[(&str, Paint)] = &[
    ("серебр", Paint::Silver),
    ("золот", Paint::Gold),
    ("бордов", Paint::Red),
    ("вишн", Paint::Red),
    ("красн", Paint::Red),
    ("рубин", Paint::Red),
    ("гранат", Paint::Red),
    ("коричн", Paint::Brown),
    ("шоколад", Paint::Brown),
    ("бронз", Paint::Brown),
    ("оранж", Paint::Orange),
    ("бежев", Paint::Beige),
    ("песочн", Paint::Beige),
    ("шампан", Paint::Beige),
    ("желт", Paint::Yellow),
    ("зелен", Paint::Green),
    ("хаки", Paint::Green),
    ("оливк", Paint::Green),
    ("изумруд", Paint::Green),
    ("голуб", Paint::LightBlue),
    ("бирюз", Paint::LightBlue),
    ("син", Paint::Blue),
    ("фиолет", Paint::Violet),
    ("сирен", Paint::Violet),
    ("лилов", Paint::Violet),
    ("пурпур", Paint::Purple),
    ("малинов", Paint::Purple),
    ("розов", Paint::Pink),
    ("бел", Paint::White),
    ("перламутр", Paint::White),
    ("сер", Paint::Grey),
    ("графит", Paint::Grey),
    ("асфальт", Paint::Grey),
    ("антрацит", Paint::Grey),
    ("титан", Paint::Grey),
    ("черн", Paint::Black),
];

/// The family of a colour text: its last word that names one ("Тёмно-синий"
/// is blue, "Белый перламутр" white, "Серый металлик" grey).
pub fn paint(color: &str) -> Option<Paint> {
    let folded = color.to_lowercase().replace('ё', "е");
    folded
        .split(|c: char| !c.is_alphabetic())
        .filter(|w| !w.is_empty())
        .rev()
        .find_map(|word| {
            STEMS
                .iter()
                .find(|(stem, _)| word.starts_with(stem))
                .map(|(_, p)| *p)
        })
}

/// Avito's palette (rule A12): capitalised, gold «Золотой», silver «Серебряный».
pub fn avito_color(color: &str) -> Option<&'static str> {
    Some(match paint(color)? {
        Paint::Red => "Красный",
        Paint::Brown => "Коричневый",
        Paint::Orange => "Оранжевый",
        Paint::Beige => "Бежевый",
        Paint::Yellow => "Жёлтый",
        Paint::Green => "Зелёный",
        Paint::LightBlue => "Голубой",
        Paint::Blue => "Синий",
        Paint::Violet => "Фиолетовый",
        Paint::Purple => "Пурпурный",
        Paint::Pink => "Розовый",
        Paint::White => "Белый",
        Paint::Grey => "Серый",
        Paint::Black => "Чёрный",
        Paint::Gold => "Золотой",
        Paint::Silver => "Серебряный",
    })
}

/// Auto.ru's palette (rule R8): lower case, gold «золотистый», silver
/// «серебристый».
pub fn autoru_color(color: &str) -> Option<&'static str> {
    Some(match paint(color)? {
        Paint::Red => "красный",
        Paint::Brown => "коричневый",
        Paint::Orange => "оранжевый",
        Paint::Beige => "бежевый",
        Paint::Yellow => "жёлтый",
        Paint::Green => "зелёный",
        Paint::LightBlue => "голубой",
        Paint::Blue => "синий",
        Paint::Violet => "фиолетовый",
        Paint::Purple => "пурпурный",
        Paint::Pink => "розовый",
        Paint::White => "белый",
        Paint::Grey => "серый",
        Paint::Black => "чёрный",
        Paint::Gold => "золотистый",
        Paint::Silver => "серебристый",
    })
}

/// Avito's body type (rule A10: Седан, Хетчбэк, Универсал, Внедорожник,
/// Кабриолет, Купе, Лимузин, Минивэн, Пикап, Фургон, Микроавтобус). A type
/// staff added is matched by its single label's first word.
pub fn avito_body(body: &BodyType, label: &str) -> Option<&'static str> {
    let by_slug = |slug: &str| -> Option<&'static str> {
        Some(match slug {
            "sedan" => "Седан",
            "hatchback" | "liftback" | "fastback" => "Хетчбэк",
            // Neither marketplace has crossovers apart from SUVs.
            "crossover" | "coupe" => "Внедорожник",
            "wagon" => "Универсал",
            "pickup" => "Пикап",
            "minivan" | "compactvan" => "Минивэн",
            "kupe" => "Купе",
            "cabriolet" | "roadster" | "targa" => "Кабриолет",
            "van" => "Фургон",
            "minibus" => "Микроавтобус",
            "limousine" => "Лимузин",
            _ => return None,
        })
    };
    by_slug(body.as_str()).or_else(|| by_slug(guessed_slug(label)?))
}

/// Auto.ru's body type in its catalogue's words (rule R6), with the doors
/// where the catalogue counts them.
pub fn autoru_body(body: &BodyType, label: &str, doors: Option<i64>) -> Option<&'static str> {
    let by_slug = |slug: &str| -> Option<&'static str> {
        Some(match (slug, doors) {
            ("sedan", _) => "Седан",
            ("hatchback", Some(3)) => "Хэтчбек 3 дв.",
            ("hatchback", _) => "Хэтчбек 5 дв.",
            ("liftback", _) => "Лифтбек",
            ("fastback", _) => "Фастбек",
            ("crossover" | "coupe", Some(3)) => "Внедорожник 3 дв.",
            ("crossover" | "coupe", _) => "Внедорожник 5 дв.",
            ("wagon", _) => "Универсал 5 дв.",
            ("pickup", Some(2)) => "Пикап Одинарная кабина",
            ("pickup", _) => "Пикап Двойная кабина",
            ("minivan", _) => "Минивэн",
            ("compactvan", _) => "Компактвэн",
            ("kupe", _) => "Купе",
            ("cabriolet", _) => "Кабриолет",
            ("roadster", _) => "Родстер",
            ("targa", _) => "Тарга",
            ("van", _) => "Фургон",
            ("minibus", _) => "Микроавтобус",
            ("limousine", _) => "Лимузин",
            _ => return None,
        })
    };
    by_slug(body.as_str()).or_else(|| by_slug(guessed_slug(label)?))
}

/// The known type a label's first word names, through the importer's table.
fn guessed_slug(label: &str) -> Option<&'static str> {
    let guess = crate::parser::mapping::body_guess(label)?;
    KNOWN
        .iter()
        .copied()
        .find(|slug| *slug == guess.slug.as_str())
}

const KNOWN: &[&str] = &[
    "sedan",
    "hatchback",
    "liftback",
    "fastback",
    "crossover",
    "coupe",
    "wagon",
    "pickup",
    "minivan",
    "compactvan",
    "kupe",
    "cabriolet",
    "roadster",
    "targa",
    "van",
    "minibus",
    "limousine",
];

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_demo_paint_and_common_shades_have_a_place_in_both_palettes() {
        for (ours, avito, autoru) in [
            ("Белый", "Белый", "белый"),
            ("Чёрный", "Чёрный", "чёрный"),
            ("Серебристый", "Серебряный", "серебристый"),
            ("Серый", "Серый", "серый"),
            ("Тёмно-синий", "Синий", "синий"),
            ("Красный", "Красный", "красный"),
            ("Тёмно-зелёный", "Зелёный", "зелёный"),
            ("Бежевый", "Бежевый", "бежевый"),
            ("Оранжевый", "Оранжевый", "оранжевый"),
            ("Бордовый", "Красный", "красный"),
            ("Хаки", "Зелёный", "зелёный"),
            ("Белый перламутр", "Белый", "белый"),
            ("серый металлик", "Серый", "серый"),
            ("Мокрый асфальт", "Серый", "серый"),
            ("Золотистый", "Золотой", "золотистый"),
            ("СЕРО-ГОЛУБОЙ", "Голубой", "голубой"),
        ] {
            assert_eq!(avito_color(ours), Some(avito), "{ours}");
            assert_eq!(autoru_color(ours), Some(autoru), "{ours}");
        }
        assert_eq!(avito_color("Хамелеон"), None);
        assert_eq!(autoru_color(""), None);
    }

    #[test]
    fn body_types_take_each_marketplaces_words_or_none() {
        let t = |slug: &str| BodyType::parse(slug).unwrap();
        assert_eq!(
            avito_body(&t("crossover"), "Кроссовер"),
            Some("Внедорожник")
        );
        assert_eq!(avito_body(&t("liftback"), "Лифтбек"), Some("Хетчбэк"));
        assert_eq!(
            autoru_body(&t("hatchback"), "Хэтчбек", Some(3)),
            Some("Хэтчбек 3 дв.")
        );
        assert_eq!(
            autoru_body(&t("coupe"), "Внедорожник", None),
            Some("Внедорожник 5 дв.")
        );
        // A type staff added under a known word is that type; another is none.
        assert_eq!(avito_body(&t("faeton"), "Фаэтон"), None);
        assert_eq!(
            autoru_body(&t("my-sedan"), "Седан люкс", None),
            Some("Седан")
        );
    }
}
