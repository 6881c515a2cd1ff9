//! Stylesheets a returning visitor's browser keeps (`docs/rendering.md`,
//! "The second page"): a first page carries its stylesheets inline (it
//! paints without a second request), and once it is live the browser
//! fetches the same files (hashed names, cached as immutable) and notes
//! their hashes in the `styles` cookie (`ui/src/lib/keptStyles.ts`). A page
//! asked with that cookie links each sheet the cookie names instead of
//! carrying it (one it does not name, a lazy page's own, stays inline):
//! the browser takes them from its cache and the page is some 110 KB
//! (14 KB brotli) lighter.
//!
//! The answer cache keeps the linked form beside the inline one
//! ([`linked`] makes it from the inline form, no second drawing).

use axum::http::{HeaderMap, header};

/// The cookie naming the stylesheets the browser has.
pub const COOKIE: &str = "styles";
/// Hashes the cookie may name (a page inlines one or two sheets).
const MAX_KEPT: usize = 8;

/// The shell's inline stylesheet: `<style>…</style>` followed by the link
/// that names its file, disabled (`assets/templates/shell.html`).
const STYLE_OPEN: &str = "<style>";
const STYLE_CLOSE: &str = "</style><link rel=\"stylesheet\" href=\"";
const DISABLED: &str = "\" disabled>";

/// The hashes the request's `styles` cookie names, if any.
pub fn kept(headers: &HeaderMap) -> Option<Vec<String>> {
    let mut kept = Vec::new();
    for cookies in headers.get_all(header::COOKIE) {
        let Ok(cookies) = cookies.to_str() else {
            continue;
        };
        for pair in cookies.split(';') {
            let Some((name, value)) = pair.trim().split_once('=') else {
                continue;
            };
            if name == COOKIE {
                kept.extend(
                    value
                        .split('.')
                        .filter(|id| is_hash(id))
                        .take(MAX_KEPT)
                        .map(str::to_string),
                );
            }
        }
    }
    (!kept.is_empty()).then_some(kept)
}

/// The content hash in a built stylesheet's name (`/assets/main-CjBjpzKf.css`
/// → `CjBjpzKf`). Vite's hashes are base64url and may hold a `-` themselves
/// (`main-Czr-sWkE.css` → `Czr-sWkE`), as may a chunk's name
/// (`credit-programs-sU63p1WS.css`): the hash is the shortest tail after a
/// `-` that is a whole hash, as the browser's `hashOf` (`lib/keptStyles.ts`)
/// reads it.
pub fn hash_of(href: &str) -> Option<&str> {
    let stem = href.strip_prefix("/assets/")?.strip_suffix(".css")?;
    stem.match_indices('-')
        .rev()
        .map(|(at, _)| &stem[at + 1..])
        .find(|tail| is_hash(tail))
}

fn is_hash(id: &str) -> bool {
    (6..=16).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
}

/// `html` with each inline stylesheet of its head that the browser keeps
/// (`kept`) replaced by a link to its file; None when it keeps none of them.
pub fn linked(html: &[u8], kept: &[String]) -> Option<Vec<u8>> {
    let html = std::str::from_utf8(html).ok()?;
    let head_end = html.find("</head>")?;
    let (head, rest) = html.split_at(head_end);
    let mut out = String::with_capacity(html.len());
    let mut left = head;
    let mut swapped = 0;
    while let Some(open) = left.find(STYLE_OPEN) {
        let after = &left[open + STYLE_OPEN.len()..];
        let Some(close) = after.find(STYLE_CLOSE) else {
            break;
        };
        let href_start = &after[close + STYLE_CLOSE.len()..];
        let Some(href_end) = href_start.find(DISABLED) else {
            break;
        };
        let href = &href_start[..href_end];
        let end = open + STYLE_OPEN.len() + close + STYLE_CLOSE.len() + href_end + DISABLED.len();
        if hash_of(href).is_some_and(|hash| kept.iter().any(|k| k == hash)) {
            out.push_str(&left[..open]);
            out.push_str("<link rel=\"stylesheet\" href=\"");
            out.push_str(href);
            out.push_str("\">");
            swapped += 1;
        } else {
            // A sheet the browser lacks (a lazy page's own) stays inline.
            out.push_str(&left[..end]);
        }
        left = &left[end..];
    }
    if swapped == 0 {
        return None;
    }
    out.push_str(left);
    out.push_str(rest);
    Some(out.into_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    const PAGE: &str = "<html><head><title>A</title><style>body{color:red}</style><link rel=\"stylesheet\" href=\"/assets/main-CjBjpzKf.css\" disabled>\n<noscript><style>.js-only{display:none}</style></noscript></head><body><p>&lt;style&gt;</p></body></html>";

    fn headers(cookie: &str) -> HeaderMap {
        let mut headers = HeaderMap::new();
        headers.insert(header::COOKIE, HeaderValue::from_str(cookie).unwrap());
        headers
    }

    #[test]
    fn the_cookie_names_hashes_and_nothing_else() {
        assert_eq!(
            kept(&headers("a=1; styles=CjBjpzKf.Zz_9-abc; b=2")),
            Some(vec!["CjBjpzKf".to_string(), "Zz_9-abc".to_string()])
        );
        assert_eq!(kept(&headers("styles=../../x; s=1")), None);
        assert_eq!(kept(&HeaderMap::new()), None);
        assert_eq!(hash_of("/assets/main-CjBjpzKf.css"), Some("CjBjpzKf"));
        // A hash with a `-` of its own (12 % of Vite's 8-character hashes),
        // a chunk's name with one.
        assert_eq!(hash_of("/assets/main-Czr-sWkE.css"), Some("Czr-sWkE"));
        assert_eq!(
            hash_of("/assets/credit-programs-sU63p1WS.css"),
            Some("sU63p1WS")
        );
        assert_eq!(hash_of("/assets/main-x.css"), None);
        assert_eq!(hash_of("/media/x-800.webp"), None);
    }

    #[test]
    fn a_kept_sheet_is_linked_and_an_unknown_one_stays_inline() {
        let linked_page =
            String::from_utf8(linked(PAGE.as_bytes(), &["CjBjpzKf".into()]).unwrap()).unwrap();
        assert_eq!(
            linked_page,
            "<html><head><title>A</title><link rel=\"stylesheet\" href=\"/assets/main-CjBjpzKf.css\">\n<noscript><style>.js-only{display:none}</style></noscript></head><body><p>&lt;style&gt;</p></body></html>"
        );
        assert_eq!(linked(PAGE.as_bytes(), &["OtherHash".into()]), None);
        // Of two sheets, the kept one is linked, the other stays inline.
        let two = PAGE.replace(
            "<noscript>",
            "<style>p{margin:0}</style><link rel=\"stylesheet\" href=\"/assets/Compare-CoRU5TWL.css\" disabled>\n<noscript>",
        );
        let one_linked =
            String::from_utf8(linked(two.as_bytes(), &["CjBjpzKf".into()]).unwrap()).unwrap();
        assert!(
            one_linked.contains("<link rel=\"stylesheet\" href=\"/assets/main-CjBjpzKf.css\">")
        );
        assert!(one_linked.contains("<style>p{margin:0}</style><link rel=\"stylesheet\" href=\"/assets/Compare-CoRU5TWL.css\" disabled>"));
        assert_eq!(
            linked(
                b"<html><head></head><body></body></html>",
                &["CjBjpzKf".into()]
            ),
            None
        );
    }
}
