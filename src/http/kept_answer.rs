//! One answer the answer cache keeps (`cache.rs`): its body, the version
//! and day it was computed at, its ETag, and the gzip and brotli forms
//! made the first time a client asks for them.

use std::io::Write;
use std::sync::OnceLock;

use axum::body::{Body, Bytes};
use axum::extract::MatchedPath;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::http::negotiation::{Encoding, etag_matches, preferred_encoding};
use crate::http::spliced;

/// Below this size compression saves nothing worth a header.
const MIN_COMPRESS_BYTES: usize = 256;
/// What an entry costs beyond its bytes (struct, headers, moka's node).
const ENTRY_OVERHEAD_BYTES: usize = 256;
const BROTLI_QUALITY: u32 = 5;
const BROTLI_WINDOW: u32 = 22;

/// Marks an answer the cache has already encoded.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Encoded;

/// One kept answer, and the encoded forms clients have asked for so far.
pub(crate) struct Answer {
    /// The content version it was computed at.
    pub(crate) version: i64,
    /// The Moscow date it was computed on (days since 0001-01-01): answers
    /// that depend on the date (valid credit programmes) turn stale at
    /// Moscow midnight with no write to the database.
    pub(crate) day: i32,
    pub(crate) content_type: HeaderValue,
    pub(crate) etag: HeaderValue,
    /// The route that made it (`/api/cars/{id}`), for the log line of a hit
    /// served before routing.
    pub(crate) route: Option<MatchedPath>,
    pub(crate) identity: Bytes,
    /// Made the first time a client asks for it; `None` inside when the
    /// body is too small to compress or the encoded form would not be smaller.
    pub(crate) gzip: OnceLock<Option<Bytes>>,
    pub(crate) brotli: OnceLock<Option<Bytes>>,
}

impl Answer {
    pub(crate) fn new(
        version: i64,
        day: i32,
        content_type: HeaderValue,
        route: Option<MatchedPath>,
        body: Bytes,
    ) -> Answer {
        // 128 bits of XXH3: an answer's name, not a secret (SHA-256 here was
        // a fifth of the CPU of an API list the cache had not kept).
        let digest = xxhash_rust::xxh3::xxh3_128(&body);
        // Weak: the gzip and brotli forms are the same answer.
        let etag = HeaderValue::from_str(&format!("W/\"{digest:032x}\""))
            .unwrap_or(HeaderValue::from_static("W/\"0\""));
        Answer {
            version,
            day,
            content_type,
            etag,
            route,
            identity: body,
            gzip: OnceLock::new(),
            brotli: OnceLock::new(),
        }
    }

    /// Keeps `brotli`, made already (`spliced::BrotliForm`), as the brotli
    /// form unless one is made.
    pub(crate) fn keep_brotli(&self, brotli: Bytes) {
        let _ = self
            .brotli
            .set((brotli.len() < self.identity.len()).then_some(brotli));
    }

    fn form(&self, encoding: Encoding) -> Option<&OnceLock<Option<Bytes>>> {
        match encoding {
            Encoding::Identity => None,
            Encoding::Gzip => Some(&self.gzip),
            Encoding::Brotli => Some(&self.brotli),
        }
    }

    /// Makes one form unless it is there already; true when this call
    /// made it (the entry's weight has changed).
    pub(crate) fn compress(&self, encoding: Encoding) -> bool {
        let Some(form) = self.form(encoding) else {
            return false;
        };
        let mut made = false;
        form.get_or_init(|| {
            made = true;
            if self.identity.len() < MIN_COMPRESS_BYTES {
                return None;
            }
            // A page around its stylesheet, compressed once (`spliced`).
            let page = self.content_type.as_bytes().starts_with(b"text/html");
            let compressed = match encoding {
                Encoding::Identity => None,
                _ if page => spliced::compress(&self.identity, encoding),
                _ => None,
            }
            .or_else(|| match encoding {
                Encoding::Gzip => gzip(&self.identity),
                Encoding::Brotli => brotli(&self.identity),
                Encoding::Identity => None,
            });
            // `into_boxed_slice`: no spare capacity is kept beyond the bytes weighed.
            compressed
                .filter(|c| c.len() < self.identity.len())
                .map(|c| Bytes::from(c.into_boxed_slice()))
        });
        made
    }

    /// Whether the forms a client preferring `encoding` may get are made
    /// (brotli, and gzip too when brotli is not smaller).
    pub(crate) fn ready(&self, encoding: Encoding) -> bool {
        match encoding {
            Encoding::Identity => true,
            Encoding::Gzip => self.gzip.get().is_some(),
            Encoding::Brotli => {
                Self::kept(&self.brotli).is_some()
                    || (self.brotli.get().is_some() && self.gzip.get().is_some())
            }
        }
    }

    /// Makes what [`Answer::ready`] asks for; true when something was made.
    pub(crate) fn prepare(&self, encoding: Encoding) -> bool {
        match encoding {
            Encoding::Identity => false,
            Encoding::Gzip => self.compress(Encoding::Gzip),
            Encoding::Brotli => {
                let mut made = self.compress(Encoding::Brotli);
                if Self::kept(&self.brotli).is_none() {
                    made |= self.compress(Encoding::Gzip);
                }
                made
            }
        }
    }

    pub(crate) fn kept(form: &OnceLock<Option<Bytes>>) -> Option<&Bytes> {
        form.get().and_then(Option::as_ref)
    }

    /// The bytes this entry holds, for the cache's bound.
    pub(crate) fn weight(&self, key: &str) -> u32 {
        let bytes = key.len()
            + self.identity.len()
            + Self::kept(&self.gzip).map_or(0, Bytes::len)
            + Self::kept(&self.brotli).map_or(0, Bytes::len)
            + ENTRY_OVERHEAD_BYTES;
        u32::try_from(bytes).unwrap_or(u32::MAX)
    }

    pub(crate) fn not_modified(&self, request_headers: &HeaderMap) -> bool {
        request_headers
            .get_all(header::IF_NONE_MATCH)
            .iter()
            .any(|tags| etag_matches(tags, &self.etag))
    }

    pub(crate) fn reply(&self, request_headers: &HeaderMap) -> Response {
        let mut response = if self.not_modified(request_headers) {
            StatusCode::NOT_MODIFIED.into_response()
        } else {
            let (body, encoding) = match preferred_encoding(request_headers) {
                Encoding::Brotli if Self::kept(&self.brotli).is_some() => {
                    (Self::kept(&self.brotli), Some("br"))
                }
                Encoding::Brotli | Encoding::Gzip if Self::kept(&self.gzip).is_some() => {
                    (Self::kept(&self.gzip), Some("gzip"))
                }
                _ => (None, None),
            };
            let mut r = Response::new(Body::from(body.unwrap_or(&self.identity).clone()));
            let headers = r.headers_mut();
            // Room at once for these and the site's security headers.
            headers.reserve(16);
            headers.insert(header::CONTENT_TYPE, self.content_type.clone());
            if let Some(encoding) = encoding {
                headers.insert(header::CONTENT_ENCODING, HeaderValue::from_static(encoding));
            }
            r
        };
        let headers = response.headers_mut();
        headers.insert(header::ETAG, self.etag.clone());
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
        // A page's stylesheets come linked to a browser that keeps them
        // (`kept_styles`, by its cookie); a catalogue's page is drawn for
        // the screen its headers say (`screen`).
        let vary = if !self.content_type.as_bytes().starts_with(b"text/html") {
            "accept-encoding"
        } else if self
            .route
            .as_ref()
            .is_some_and(|r| crate::http::screen::draws_by_screen(r.as_str()))
        {
            "accept-encoding, cookie, sec-ch-ua-mobile, user-agent"
        } else {
            "accept-encoding, cookie"
        };
        headers.insert(header::VARY, HeaderValue::from_static(vary));
        response.extensions_mut().insert(Encoded);
        response
    }
}

pub(crate) fn gzip(body: &[u8]) -> Option<Vec<u8>> {
    let mut encoder = flate2::write::GzEncoder::new(
        Vec::with_capacity(body.len() / 4),
        flate2::Compression::default(),
    );
    encoder.write_all(body).ok()?;
    encoder.finish().ok()
}

fn brotli(body: &[u8]) -> Option<Vec<u8>> {
    let out = Vec::with_capacity(body.len() / 4);
    let mut encoder = brotli::CompressorWriter::new(out, 4096, BROTLI_QUALITY, BROTLI_WINDOW);
    encoder.write_all(body).ok()?;
    // Finishes the stream.
    Some(encoder.into_inner())
}
