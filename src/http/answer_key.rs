//! The key an answer is kept under in the answer cache (`docs/cache.md`):
//! a request's path and its query parameters, decoded and sorted; and the
//! 414 of a request line too long to be read or kept.

use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};

use crate::http::screen::Screen;

/// Longest path and query string a public read accepts (414 beyond): the
/// site's own URLs are well under 1 KiB.
pub const MAX_URI_BYTES: usize = 8 * 1024;
/// The error text of the 414 answer.
pub const URI_TOO_LONG: &str = "Слишком длинный адрес запроса";

/// The cache key of a request: its path and its query parameters, decoded
/// and sorted, so two spellings of the same question share one answer.
/// Public routes refuse parameters they do not declare (see
/// `http::public::only_declared_params`), so a kept answer's key holds only
/// known parameters.
pub fn key_of(uri: &Uri) -> String {
    let path = uri.path();
    let Some(query) = uri.query().filter(|q| !q.is_empty()) else {
        return path.to_string();
    };
    plain_key(path, query).unwrap_or_else(|| decoded_key(path, query))
}

/// The cache key of a request's answer: [`key_of`], and on a page drawn for
/// the screen its headers say (`screen`) a phone's own key.
pub fn key_for(uri: &Uri, headers: &HeaderMap) -> String {
    let mut key = key_of(uri);
    if Screen::of(headers).for_path(uri.path()) == Screen::Phone {
        key.push_str(PHONE_KEY);
    }
    key
}

/// What a phone's page adds to its key: a character no URL holds.
const PHONE_KEY: &str = "\u{1}phone";

/// [`key_of`] for the usual query, in letters, digits, `-._*` and commas
/// (what the site's own pages send): decoding changes nothing there, so the
/// key is its pairs sorted, with commas spelled `%2C` as the encoder spells
/// them. None for anything else (`%`, `+`, a second `=` in a pair, …),
/// which [`decoded_key`] reads. Every cached answer asks for its key: this
/// spares it the decoding and encoding.
pub(crate) fn plain_key(path: &str, query: &str) -> Option<String> {
    let plain = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'*' | b',');
    let mut pairs = Vec::with_capacity(8);
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
        if !name.bytes().all(plain) || !value.bytes().all(plain) {
            return None;
        }
        pairs.push((name, value));
    }
    pairs.sort_unstable();
    let mut key = String::with_capacity(path.len() + query.len() + 2 * pairs.len() + 8);
    key.push_str(path);
    key.push('?');
    for (n, (name, value)) in pairs.into_iter().enumerate() {
        if n > 0 {
            key.push('&');
        }
        for (m, part) in name.split(',').enumerate() {
            if m > 0 {
                key.push_str("%2C");
            }
            key.push_str(part);
        }
        key.push('=');
        for (m, part) in value.split(',').enumerate() {
            if m > 0 {
                key.push_str("%2C");
            }
            key.push_str(part);
        }
    }
    Some(key)
}

/// [`key_of`] for any query: decoded, sorted, encoded again.
pub(crate) fn decoded_key(path: &str, query: &str) -> String {
    let mut pairs: Vec<_> = form_urlencoded::parse(query.as_bytes()).collect();
    pairs.sort();
    let mut key = String::with_capacity(path.len() + 1 + query.len());
    key.push_str(path);
    key.push('?');
    form_urlencoded::Serializer::for_suffix(key, path.len() + 1)
        .extend_pairs(pairs)
        .finish()
}

/// Answers `414 URI Too Long` for a request line longer than
/// [`MAX_URI_BYTES`], before anything is parsed or kept.
pub(crate) fn too_long(uri: &Uri) -> Option<Response> {
    let length = uri.path_and_query().map_or(0, |p| p.as_str().len());
    (length > MAX_URI_BYTES).then(|| {
        (
            StatusCode::URI_TOO_LONG,
            axum::Json(serde_json::json!({"error": URI_TOO_LONG})),
        )
            .into_response()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_the_sorted_decoded_parameters() {
        let key = |uri: &str| key_of(&uri.parse::<Uri>().unwrap());
        assert_eq!(key("/api/cars/fast"), "/api/cars/fast");
        assert_eq!(key("/api/cars/fast?"), "/api/cars/fast");
        let one = key("/api/cars/fast?status=new,used&limit=12");
        assert_eq!(one, key("/api/cars/fast?limit=12&status=new,used"));
        assert_eq!(one, key("/api/cars/fast?%6Cimit=12&status=new%2Cused"));
        assert_ne!(one, key("/api/cars/fast?limit=13&status=new,used"));
        assert_ne!(one, key("/api/cars/count?limit=12&status=new,used"));
        assert_eq!(key("/a?model=A+B"), key("/a?model=A%20B"));
        assert_ne!(key("/a?x=1%262"), key("/a?x=1&2"));
    }

    #[test]
    fn plain_queries_get_the_key_decoding_would_give() {
        let queries = [
            "limit=20&status=used&bodyType=crossover&maxPrice=3000000",
            "status=new,used&limit=12",
            "a=1&a=0&b&&c=",
            "a.=1&a=2",
            "ab=2&a=1",
            "x=*-._,&y=Z9",
            "&",
            "flag",
            ",=,,",
        ];
        for query in queries {
            assert_eq!(
                plain_key("/p", query),
                Some(decoded_key("/p", query)),
                "{query}"
            );
        }
        // Anything that decoding would change goes the long way.
        for query in [
            "a=1%2C2", "a=b+c", "a=b=c", "a=b c", "a=ё", "a=1;b=2", "a=(1)",
        ] {
            assert_eq!(plain_key("/p", query), None, "{query}");
        }
    }
}
