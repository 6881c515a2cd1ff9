//! What a client accepts of a kept answer: the encoding it prefers
//! (`Accept-Encoding`) and whether its `If-None-Match` names the answer's
//! ETag (`docs/cache.md`).

use axum::http::{HeaderMap, HeaderValue, header};

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Encoding {
    Identity,
    Gzip,
    Brotli,
}

/// The best encoding the client accepts (highest q; brotli on a tie).
pub(crate) fn preferred_encoding(headers: &HeaderMap) -> Encoding {
    let (mut br, mut gz, mut any) = (None, None, None);
    for value in headers.get_all(header::ACCEPT_ENCODING) {
        let Ok(value) = value.to_str() else { continue };
        for item in value.split(',') {
            let mut parts = item.split(';');
            let name = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .map(|q| q.trim().parse::<f32>().unwrap_or(0.0))
                .next()
                .unwrap_or(1.0);
            match name.as_str() {
                "br" => br = Some(q),
                "gzip" | "x-gzip" => gz = Some(q),
                "*" => any = Some(q),
                _ => {}
            }
        }
    }
    let br = br.or(any).unwrap_or(0.0);
    let gz = gz.or(any).unwrap_or(0.0);
    if br > 0.0 && br >= gz {
        Encoding::Brotli
    } else if gz > 0.0 {
        Encoding::Gzip
    } else {
        Encoding::Identity
    }
}

pub(crate) fn etag_matches(if_none_match: &HeaderValue, etag: &HeaderValue) -> bool {
    let Ok(tags) = if_none_match.to_str() else {
        return false;
    };
    let opaque = |tag: &str| tag.trim().trim_start_matches("W/").to_string();
    let ours = opaque(etag.to_str().unwrap_or_default());
    tags.split(',')
        .any(|t| t.trim() == "*" || opaque(t) == ours)
}

/// Request headers with this `Accept-Encoding` (for tests here and in the
/// answer cache's).
#[cfg(test)]
pub(crate) fn accept(value: &str) -> HeaderMap {
    let mut h = HeaderMap::new();
    h.insert(
        header::ACCEPT_ENCODING,
        HeaderValue::from_str(value).unwrap(),
    );
    h
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn picks_the_encoding_by_accept_encoding() {
        assert_eq!(preferred_encoding(&HeaderMap::new()), Encoding::Identity);
        assert_eq!(
            preferred_encoding(&accept("gzip, deflate, br, zstd")),
            Encoding::Brotli
        );
        assert_eq!(preferred_encoding(&accept("gzip")), Encoding::Gzip);
        assert_eq!(
            preferred_encoding(&accept("br;q=0.5, gzip;q=0.8")),
            Encoding::Gzip
        );
        assert_eq!(
            preferred_encoding(&accept("br;q=0, gzip;q=0")),
            Encoding::Identity
        );
        assert_eq!(preferred_encoding(&accept("*")), Encoding::Brotli);
        assert_eq!(preferred_encoding(&accept("br;q=0, *")), Encoding::Gzip);
        assert_eq!(preferred_encoding(&accept("identity")), Encoding::Identity);
    }

    #[test]
    fn etags_match_weak_and_strong_forms() {
        let ours = HeaderValue::from_static("W/\"abc\"");
        for sent in ["W/\"abc\"", "\"abc\"", "\"x\", W/\"abc\"", "*"] {
            assert!(
                etag_matches(&HeaderValue::from_str(sent).unwrap(), &ours),
                "{sent}"
            );
        }
        assert!(!etag_matches(&HeaderValue::from_static("\"abd\""), &ours));
    }
}
