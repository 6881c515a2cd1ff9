//! Fetching feeds and photos from addresses an admin (or a feed) names.
//! Such an address must not reach the server's own network: every address a
//! host name resolves to is checked, by the client's own resolver, on the
//! first request and on every redirect, and an IP literal is checked before
//! the request (`docs/parser.md`, SSRF rule). `parser.allow_private_hosts`
//! lifts the rule (tests, a feed on the LAN).

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::Duration;

use reqwest::dns::{Addrs, Name, Resolve, Resolving};
use reqwest::redirect::Policy;

/// Why a fetch failed, in Russian for the admin.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum FetchError {
    #[error("{0}")]
    Refused(String),
    #[error("{0}")]
    TooLarge(String),
    #[error("{0}")]
    Failed(String),
}

/// The refusal of an address on the server's own network (loopback,
/// private, link-local), naming the setting that lifts it.
pub fn private_refused(host: &str) -> String {
    format!(
        "Адрес {host} — внутренняя сеть: фид и фотографии с него не загружаются. Если это \
         система дилера в локальной сети, включите parser.allow_private_hosts в dealership.toml \
         (или DEALERSHIP_PARSER_ALLOW_PRIVATE_HOSTS=true)"
    )
}

/// Whether an address is one a fetch may reach when private hosts are not allowed.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_multicast()
                || v4.is_documentation()
                || o[0] == 0
                // 100.64.0.0/10: carrier-grade NAT.
                || (o[0] == 100 && (o[1] & 0xC0) == 64)
                // 198.18.0.0/15: benchmarking.
                || (o[0] == 198 && (o[1] & 0xFE) == 18)
                || o[0] >= 240)
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                // fc00::/7 unique local, fe80::/10 link-local.
                || (first & 0xFE00) == 0xFC00
                || (first & 0xFFC0) == 0xFE80)
        }
    }
}

/// Resolves names and drops every address the rule forbids; a name left
/// with none fails.
struct PublicOnly;

impl Resolve for PublicOnly {
    fn resolve(&self, name: Name) -> Resolving {
        Box::pin(async move {
            let host = name.as_str().to_string();
            let found: Vec<SocketAddr> =
                tokio::net::lookup_host((host.as_str(), 0)).await?.collect();
            let allowed: Vec<SocketAddr> =
                found.into_iter().filter(|a| is_public(a.ip())).collect();
            if allowed.is_empty() {
                return Err(Box::new(FetchError::Refused(private_refused(&host)))
                    as Box<dyn std::error::Error + Send + Sync>);
            }
            Ok(Box::new(allowed.into_iter()) as Addrs)
        })
    }
}

/// The IP of a URL whose host is an IP literal.
fn literal_ip(url: &reqwest::Url) -> Option<IpAddr> {
    let host = url.host_str()?;
    host.trim_start_matches('[')
        .trim_end_matches(']')
        .parse()
        .ok()
}

/// Checks a URL's scheme and, unless private hosts are allowed, a literal IP.
pub fn check_url(url: &str, allow_private: bool) -> Result<reqwest::Url, FetchError> {
    let parsed = reqwest::Url::parse(url.trim())
        .map_err(|_| FetchError::Refused(format!("Некорректный адрес: {url}")))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(FetchError::Refused(
            "Адрес должен начинаться с http:// или https://".into(),
        ));
    }
    if parsed.host().is_none() {
        return Err(FetchError::Refused(format!("В адресе нет сервера: {url}")));
    }
    if !allow_private && let Some(ip) = literal_ip(&parsed).filter(|ip| !is_public(*ip)) {
        return Err(FetchError::Refused(private_refused(&ip.to_string())));
    }
    Ok(parsed)
}

/// An HTTP client that follows the rule above.
#[derive(Clone)]
pub struct Fetcher {
    client: reqwest::Client,
    allow_private: bool,
}

impl Fetcher {
    pub fn new(allow_private: bool, timeout: Duration) -> Fetcher {
        let policy = Policy::custom(move |attempt| {
            if attempt.previous().len() >= 5 {
                return attempt.error(FetchError::Failed("Слишком много перенаправлений".into()));
            }
            let private = literal_ip(attempt.url()).filter(|ip| !is_public(*ip));
            if !allow_private && let Some(ip) = private {
                return attempt.error(FetchError::Refused(private_refused(&ip.to_string())));
            }
            if !matches!(attempt.url().scheme(), "http" | "https") {
                return attempt.error(FetchError::Refused(
                    "Перенаправление на адрес не http(s)".into(),
                ));
            }
            attempt.follow()
        });
        let mut builder = reqwest::Client::builder()
            .redirect(policy)
            .no_proxy()
            .connect_timeout(Duration::from_secs(10))
            .timeout(timeout)
            .user_agent(concat!("dealership-parser/", env!("CARGO_PKG_VERSION")));
        if !allow_private {
            builder = builder.dns_resolver(Arc::new(PublicOnly));
        }
        Fetcher {
            client: builder.build().unwrap_or_else(|_| reqwest::Client::new()),
            allow_private,
        }
    }

    /// The body of `url`, refused as soon as it passes `max_bytes` (by its
    /// Content-Length or while it streams in).
    pub async fn get(
        &self,
        url: &str,
        max_bytes: usize,
        too_large: &str,
    ) -> Result<Vec<u8>, FetchError> {
        let url = check_url(url, self.allow_private)?;
        let mut response = self.client.get(url).send().await.map_err(describe)?;
        if !response.status().is_success() {
            return Err(FetchError::Failed(format!(
                "Сервер ответил {}",
                response.status()
            )));
        }
        if response
            .content_length()
            .is_some_and(|n| n > max_bytes as u64)
        {
            return Err(FetchError::TooLarge(too_large.into()));
        }
        let mut body = Vec::new();
        while let Some(chunk) = response.chunk().await.map_err(describe)? {
            if body.len() + chunk.len() > max_bytes {
                return Err(FetchError::TooLarge(too_large.into()));
            }
            body.extend_from_slice(&chunk);
        }
        Ok(body)
    }
}

/// A reqwest error as the admin reads it: our refusal when it is one.
fn describe(err: reqwest::Error) -> FetchError {
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(&err);
    while let Some(cause) = source {
        if let Some(ours) = cause.downcast_ref::<FetchError>() {
            return ours.clone();
        }
        source = cause.source();
    }
    if err.is_timeout() {
        FetchError::Failed("Сервер не ответил вовремя (таймаут)".into())
    } else if err.is_connect() {
        FetchError::Failed("Не удалось подключиться к серверу".into())
    } else {
        FetchError::Failed(format!("Не удалось загрузить: {err}"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_addresses_are_not_public() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "0.0.0.0",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:127.0.0.1",
            "100.64.0.1",
        ] {
            assert!(
                !is_public(ip.parse().unwrap_or(IpAddr::from([0, 0, 0, 0]))),
                "{ip}"
            );
        }
        assert!(is_public(
            "93.184.216.34"
                .parse()
                .unwrap_or(IpAddr::from([0, 0, 0, 0]))
        ));
        let refused = check_url("http://127.0.0.1/feed.xml", false).err();
        assert_eq!(
            refused.map(|e| e.to_string()).as_deref(),
            Some(
                "Адрес 127.0.0.1 — внутренняя сеть: фид и фотографии с него не загружаются. Если \
             это система дилера в локальной сети, включите parser.allow_private_hosts в \
             dealership.toml (или DEALERSHIP_PARSER_ALLOW_PRIVATE_HOSTS=true)"
            )
        );
        assert!(check_url("http://[::1]/feed.xml", false).is_err());
        assert!(check_url("ftp://example.ru/feed.xml", true).is_err());
        assert!(check_url("http://127.0.0.1/feed.xml", true).is_ok());
    }
}
