//! The screen a page is drawn for (`docs/rendering.md`, "A phone's own
//! page"). A catalogue shows 20 cars a page, 10 on a window narrower than
//! 768 px (`ui/src/hooks/usePageSize.ts`), and the home page's rows of cars
//! are 6 long there; the server cannot measure the
//! window, but a phone says what it is: Chromium's `Sec-CH-UA-Mobile: ?1`
//! (a client hint every Chromium browser sends, tablets `?0`), else a
//! user agent with `Mobi` in it (Safari on an iPhone, Firefox and Chrome on
//! Android phones; Android tablets leave it out). A catalogue is then drawn
//! as the phone shows it, so taking it over changes nothing; anything else
//! gets the desktop's page, which the browser turns into a phone's when its
//! window is narrow.

use std::convert::Infallible;

use axum::extract::FromRequestParts;
use axum::http::HeaderMap;
use axum::http::request::Parts;

/// The screen a request's page is drawn for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Screen {
    /// A phone: a catalogue of 10 cars a page.
    Phone,
    /// Anything else: 20 cars a page.
    Wide,
}

/// The client hint of a mobile browser (Chromium's, sent with every request).
pub const MOBILE_HINT: &str = "sec-ch-ua-mobile";

impl Screen {
    /// The screen the request's headers say.
    pub fn of(headers: &HeaderMap) -> Screen {
        if let Some(hint) = headers.get(MOBILE_HINT) {
            // A structured-header boolean: `?1` or `?0`.
            return match hint.as_bytes() {
                b"?1" => Screen::Phone,
                _ => Screen::Wide,
            };
        }
        let agent = headers
            .get(axum::http::header::USER_AGENT)
            .map(|v| v.as_bytes())
            .unwrap_or_default();
        let has = |word: &[u8]| agent.windows(word.len()).any(|w| w == word);
        // An iPad asking for the mobile site still says `Mobile/15E148`.
        if has(b"Mobi") && !has(b"iPad") {
            Screen::Phone
        } else {
            Screen::Wide
        }
    }

    /// The name the page's markup carries (`<div id="app" data-screen>`)
    /// and the UI reads (`ui/src/main.tsx`).
    pub fn name(self) -> &'static str {
        match self {
            Screen::Phone => "phone",
            Screen::Wide => "wide",
        }
    }

    /// The screen whose page is drawn for a request at `path`: the request's
    /// own on a page that differs by screen, else `Wide` (one page for all).
    pub fn for_path(self, path: &str) -> Screen {
        if draws_by_screen(path) {
            self
        } else {
            Screen::Wide
        }
    }
}

/// Whether the page at `path` is drawn differently for a phone: the
/// catalogues numbered by pages of the screen's size (`useCatalogue`) and
/// the home page, whose rows of cars are 6 long on a phone (`Home.tsx`). A
/// brand page's sections are 8 cars on every screen, and no other page
/// reads the screen's size (`tests/pages_screen.rs` checks every route).
pub fn draws_by_screen(path: &str) -> bool {
    matches!(path, "/" | "/new-cars" | "/used-cars" | "/lease-cars")
        || path.starts_with("/body-type/")
}

impl<S: Send + Sync> FromRequestParts<S> for Screen {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Screen, Infallible> {
        Ok(Screen::of(&parts.headers).for_path(parts.uri.path()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn screen(agent: &str, hint: Option<&str>) -> Screen {
        let mut headers = HeaderMap::new();
        headers.insert("user-agent", HeaderValue::from_str(agent).unwrap());
        if let Some(hint) = hint {
            headers.insert(MOBILE_HINT, HeaderValue::from_str(hint).unwrap());
        }
        Screen::of(&headers)
    }

    /// User agents as the browsers send them (Chrome's, Apple's, Mozilla's
    /// and Yandex's documentation of their strings).
    const IPHONE: &str = "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) \
        AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Mobile/15E148 Safari/604.1";
    const ANDROID_CHROME: &str = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 \
        (KHTML, like Gecko) Chrome/120.0.0.0 Mobile Safari/537.36";
    const ANDROID_FIREFOX: &str =
        "Mozilla/5.0 (Android 14; Mobile; rv:120.0) Gecko/120.0 Firefox/120.0";
    const YANDEX_PHONE: &str = "Mozilla/5.0 (Linux; arm_64; Android 13; SM-A525F) \
        AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.5993.117 YaBrowser/23.11.4.117.00 \
        SA/3 Mobile Safari/537.36";
    const ANDROID_TABLET: &str = "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 \
        (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
    const OLD_IPAD: &str = "Mozilla/5.0 (iPad; CPU OS 12_2 like Mac OS X) AppleWebKit/605.1.15 \
        (KHTML, like Gecko) Mobile/15E148";
    const DESKTOP: &str = "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 \
        (KHTML, like Gecko) Chrome/120.0.0.0 Safari/537.36";
    const GOOGLEBOT_PHONE: &str = "Mozilla/5.0 (Linux; Android 6.0.1; Nexus 5X Build/MMB29P) \
        AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.6099.71 Mobile Safari/537.36 \
        (compatible; Googlebot/2.1; +http://www.google.com/bot.html)";

    #[test]
    fn phones_are_told_by_their_hint_or_their_user_agent() {
        for phone in [
            IPHONE,
            ANDROID_CHROME,
            ANDROID_FIREFOX,
            YANDEX_PHONE,
            GOOGLEBOT_PHONE,
        ] {
            assert_eq!(screen(phone, None), Screen::Phone, "{phone}");
        }
        for wide in [ANDROID_TABLET, OLD_IPAD, DESKTOP, ""] {
            assert_eq!(screen(wide, None), Screen::Wide, "{wide}");
        }
        // The hint wins: Chrome's "desktop site" on a phone, a tablet.
        assert_eq!(screen(ANDROID_CHROME, Some("?0")), Screen::Wide);
        assert_eq!(screen(ANDROID_TABLET, Some("?1")), Screen::Phone);
        assert_eq!(screen(DESKTOP, Some("?0")), Screen::Wide);
    }

    #[test]
    fn only_the_catalogues_and_the_home_page_are_drawn_by_screen() {
        for path in [
            "/",
            "/new-cars",
            "/used-cars",
            "/lease-cars",
            "/body-type/suv",
        ] {
            assert_eq!(Screen::Phone.for_path(path), Screen::Phone, "{path}");
        }
        for path in ["/brand/kia", "/car/kia-rio", "/trade-in", "/new-cars-x"] {
            assert_eq!(Screen::Phone.for_path(path), Screen::Wide, "{path}");
        }
    }
}
