//! Own advertising marked (`docs/advertising.md`): since 2022 an ad on the
//! internet carries the word «Реклама», its advertiser, and the token the
//! advertising data operator gave it (erid; 38-FZ art. 18.1). Promotions,
//! partner banks' offers and the page banners hold an optional mark; a
//! bank's offer is always an ad (a third party's financial service), a
//! promotion or a banner is one when it names an advertiser (a maker's or a
//! bank's campaign), and a promotion is one when its text names a partner
//! bank (that bank's product: «Автокредит со Сбербанком»), whoever it says
//! advertises. The self-check `ad_without_token` lists ads shown without
//! their mark.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::error::{AppError, AppResult};

pub const BAD_ERID: &str = "Токен рекламы (erid): латинские буквы и цифры, до 100 символов, как его выдал оператор рекламных данных";
pub const UNKNOWN_BANNER: &str = "Неизвестный баннер";

/// The pages with a banner, by their desktop picture's settings key.
pub const BANNER_PAGES: [(&str, &str); 6] = [
    ("homeBanner", "Главная"),
    ("newCarsBanner", "Новые автомобили"),
    ("usedCarsBanner", "Автомобили с пробегом"),
    ("tradeInBanner", "Трейд-ин"),
    ("autoCreditBanner", "Автокредит"),
    ("autoSelectionBanner", "Подбор авто"),
];

/// A banner's mark.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct AdMark {
    /// The token (erid), empty when none.
    #[serde(default)]
    pub erid: String,
    /// Who advertises ("ООО «Хавейл Мотор Рус»"), empty when none.
    #[serde(default)]
    pub advertiser: String,
}

impl AdMark {
    pub fn is_empty(&self) -> bool {
        self.erid.is_empty() && self.advertiser.is_empty()
    }
}

/// A token as the operator gave it: letters and digits (a stray
/// "erid:" prefix and spaces are dropped); empty is none.
pub fn check_erid(field: &'static str, value: &str) -> AppResult<String> {
    let token = strip_label(value.trim()).trim();
    if token.is_empty() {
        return Ok(String::new());
    }
    if token.len() > 100 || !token.chars().all(|c| c.is_ascii_alphanumeric()) {
        return Err(AppError::invalid(field, BAD_ERID));
    }
    Ok(token.to_string())
}

/// Drops a pasted label: "erid:", "ERID =", "erid " (a token that merely
/// starts with the letters "erid" keeps them).
fn strip_label(text: &str) -> &str {
    if !text
        .get(..4)
        .is_some_and(|h| h.eq_ignore_ascii_case("erid"))
    {
        return text;
    }
    let rest = &text[4..];
    let spaced = rest.trim_start();
    if let Some(after) = spaced.strip_prefix([':', '=']) {
        return after;
    }
    if spaced.len() < rest.len() {
        return spaced;
    }
    text
}

/// The partner whose product `text` advertises: the first of `partners`
/// (banks' names) the text names, case aside and in any case ending
/// («Сбербанком» names «Сбербанк»).
pub fn names_partner<'a>(text: &str, partners: &'a [String]) -> Option<&'a str> {
    let text = text.to_lowercase();
    partners
        .iter()
        .map(|name| name.trim())
        .find(|name| !name.is_empty() && text.contains(&name.to_lowercase()))
}

/// An advertiser's name: up to 255 characters, trimmed.
pub fn check_advertiser(field: &'static str, value: &str) -> AppResult<String> {
    let value = value.trim();
    super::check_len(field, "Рекламодатель", value, 255)?;
    Ok(value.to_string())
}

/// The banners' marks as a form sends them: known pages, checked; empty
/// marks dropped.
pub fn check_banner_ads(marks: BTreeMap<String, AdMark>) -> AppResult<BTreeMap<String, AdMark>> {
    let mut out = BTreeMap::new();
    for (page, mark) in marks {
        if !BANNER_PAGES.iter().any(|(key, _)| *key == page) {
            return Err(AppError::invalid(
                "bannerAds",
                format!("{UNKNOWN_BANNER}: {page}"),
            ));
        }
        let mark = AdMark {
            erid: check_erid("bannerAds", &mark.erid)?,
            advertiser: check_advertiser("bannerAds", &mark.advertiser)?,
        };
        if !mark.is_empty() {
            out.insert(page, mark);
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn a_token_is_letters_and_digits_as_the_operator_gave_it() {
        assert_eq!(check_erid("adErid", " LjN8Kaaxi ").unwrap(), "LjN8Kaaxi");
        assert_eq!(
            check_erid("adErid", "erid: 2VtzqwdWzZL").unwrap(),
            "2VtzqwdWzZL"
        );
        assert_eq!(
            check_erid("adErid", "ERID=Pb3XmBtzt5E9").unwrap(),
            "Pb3XmBtzt5E9"
        );
        assert_eq!(check_erid("adErid", "").unwrap(), "");
        assert_eq!(
            check_erid("adErid", "erid 2VtzqwdWzZL").unwrap(),
            "2VtzqwdWzZL"
        );
        assert_eq!(
            check_erid("adErid", "ERID = Kra23f3QL").unwrap(),
            "Kra23f3QL"
        );
        // A token that starts with the letters keeps them.
        assert_eq!(check_erid("adErid", "eridA1b2").unwrap(), "eridA1b2");
        for bad in ["2Vtz qwd", "токен", "a-b", &"a".repeat(101)] {
            assert!(check_erid("adErid", bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn a_promotion_naming_a_partner_bank_advertises_its_product() {
        let banks = vec!["Сбербанк".to_string(), "Т-Банк".to_string()];
        assert_eq!(
            names_partner("Автокредит со Сбербанком: ПСК от 5,213%", &banks),
            Some("Сбербанк")
        );
        assert_eq!(names_partner("Кредит в т-банке", &banks), Some("Т-Банк"));
        assert_eq!(names_partner("Зимние шины в подарок", &banks), None);
    }

    #[test]
    fn banner_marks_name_known_pages() {
        let mut marks = BTreeMap::new();
        marks.insert(
            "homeBanner".to_string(),
            AdMark {
                erid: "erid: LjN8Kaaxi".into(),
                advertiser: " ООО «Хавейл» ".into(),
            },
        );
        marks.insert("usedCarsBanner".to_string(), AdMark::default());
        let checked = check_banner_ads(marks.clone()).unwrap();
        assert_eq!(checked.len(), 1);
        assert_eq!(checked["homeBanner"].erid, "LjN8Kaaxi");
        assert_eq!(checked["homeBanner"].advertiser, "ООО «Хавейл»");
        marks.insert("sideBanner".to_string(), AdMark::default());
        assert!(check_banner_ads(marks).is_err());
    }
}
