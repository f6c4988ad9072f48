//! Who sent a request, and at what address they reached us: the client's
//! address (for rate limits and logs), whether the request came over plain
//! HTTP (`System.plain_http`) and discovery's `base_url`.
//!
//! `X-Forwarded-For`, `X-Forwarded-Host` and `X-Forwarded-Proto` are
//! believed only from a peer listed in `ORGANISER_TRUSTED_PROXIES`; from
//! anyone else they are ignored, as any client can send them.
//! `ORGANISER_PUBLIC_URL`, when set, is discovery's `base_url` whatever the
//! headers say.

use std::net::{IpAddr, SocketAddr};
use std::str::FromStr;

use axum::extract::ConnectInfo;
use axum::http::uri::{Authority, Scheme};
use axum::http::{HeaderMap, Uri, header};
use ipnet::IpNet;

use crate::Config;

/// The proxies whose `X-Forwarded-*` headers are believed: addresses and
/// networks, parsed from a comma-separated list such as
/// `127.0.0.1, 10.0.0.0/8, ::1`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TrustedProxies(Vec<IpNet>);

impl TrustedProxies {
    /// Trusts no one (the default).
    pub fn none() -> Self {
        TrustedProxies(Vec::new())
    }

    /// Whether `ip` is one of the trusted proxies. An IPv4 address that
    /// reaches an IPv6 socket (`::ffff:10.0.0.1`) is matched as IPv4.
    pub fn contains(&self, ip: IpAddr) -> bool {
        let ip = ip.to_canonical();
        self.0.iter().any(|net| net.contains(&ip))
    }

    /// Whether no proxy is trusted.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl FromStr for TrustedProxies {
    type Err = String;

    /// A comma-separated list of IP addresses and CIDR networks; blank
    /// entries are skipped. The error names the entry that is neither.
    fn from_str(list: &str) -> Result<Self, String> {
        let mut nets = Vec::new();
        for entry in list.split(',').map(str::trim).filter(|e| !e.is_empty()) {
            let net = match entry.parse::<IpNet>() {
                Ok(net) => net.trunc(),
                Err(_) => entry.parse::<IpAddr>().map(IpNet::from).map_err(|_| {
                    format!("{entry:?} is neither an IP address nor a network such as 10.0.0.0/8")
                })?,
            };
            nets.push(net);
        }
        Ok(TrustedProxies(nets))
    }
}

/// Checks an `ORGANISER_PUBLIC_URL`: an absolute `http` or `https` address
/// with a host, perhaps a path, and no query or fragment. Gives it without
/// a trailing slash, so that `/api/v1` can follow it.
pub fn parse_public_url(value: &str) -> Result<String, String> {
    let value = value.trim();
    let bad = || {
        format!(
            "ORGANISER_PUBLIC_URL must be an http or https address such as \
             https://organiser.example.com, not {value:?}"
        )
    };
    if value.contains(['?', '#']) {
        return Err(bad());
    }
    let uri: Uri = value.parse().map_err(|_| bad())?;
    let scheme_ok = uri
        .scheme()
        .is_some_and(|s| *s == Scheme::HTTP || *s == Scheme::HTTPS);
    let host_ok = uri.authority().is_some_and(|a| !a.host().is_empty());
    if !scheme_ok || !host_ok {
        return Err(bad());
    }
    Ok(value.trim_end_matches('/').to_owned())
}

/// What the server believes about where a request came from.
pub(crate) struct Origin<'a> {
    config: &'a Config,
    /// The connection's peer; `None` only where no socket is involved.
    peer: Option<IpAddr>,
    /// Whether the peer is a trusted proxy.
    trusted: bool,
    headers: &'a HeaderMap,
}

impl<'a> Origin<'a> {
    /// The origin of a request with these headers, from `peer`.
    pub(crate) fn new(config: &'a Config, peer: Option<IpAddr>, headers: &'a HeaderMap) -> Self {
        let peer = peer.map(|ip| ip.to_canonical());
        let trusted = peer.is_some_and(|ip| config.trusted_proxies.contains(ip));
        Origin {
            config,
            peer,
            trusted,
            headers,
        }
    }

    /// The origin of `request`, its peer from the connection.
    pub(crate) fn of<B>(config: &'a Config, request: &'a axum::http::Request<B>) -> Self {
        Origin::new(config, peer(request), request.headers())
    }

    /// The client's address: the peer, or behind trusted proxies the
    /// nearest address in `X-Forwarded-For` that is not a trusted proxy
    /// (the ones further left are the client's to write).
    pub(crate) fn client(&self) -> Option<IpAddr> {
        if !self.trusted {
            return self.peer;
        }
        let forwarded = self
            .headers
            .get_all("x-forwarded-for")
            .iter()
            .filter_map(|v| v.to_str().ok())
            .flat_map(|v| v.split(','))
            .map(str::trim)
            .collect::<Vec<_>>();
        let mut client = self.peer;
        for entry in forwarded.into_iter().rev() {
            let Some(ip) = parse_forwarded_ip(entry) else {
                break;
            };
            client = Some(ip);
            if !self.config.trusted_proxies.contains(ip) {
                break;
            }
        }
        client
    }

    /// Whether the request reached us over plain HTTP: we serve no TLS, so
    /// only a trusted proxy saying `X-Forwarded-Proto: https` makes it
    /// secure.
    pub(crate) fn plain_http(&self) -> bool {
        !self
            .forwarded("x-forwarded-proto")
            .is_some_and(|proto| proto.eq_ignore_ascii_case("https"))
    }

    /// The address the client reached us at, for discovery:
    /// `ORGANISER_PUBLIC_URL` when set; else the scheme and host a trusted
    /// proxy forwarded, or `http` and the `Host` header.
    pub(crate) fn base_url(&self) -> String {
        if let Some(url) = &self.config.public_url {
            return url.trim_end_matches('/').to_owned();
        }
        let host = self
            .forwarded("x-forwarded-host")
            .filter(|h| is_authority(h))
            .or_else(|| {
                self.headers
                    .get(header::HOST)
                    .and_then(|h| h.to_str().ok())
                    .filter(|h| is_authority(h))
            })
            .unwrap_or("localhost");
        let scheme = if self.plain_http() { "http" } else { "https" };
        format!("{scheme}://{host}")
    }

    /// The value the nearest proxy gave a forwarded header (the last one of
    /// a list), from a trusted peer only.
    fn forwarded(&self, name: &str) -> Option<&'a str> {
        if !self.trusted {
            return None;
        }
        self.headers
            .get_all(name)
            .iter()
            .filter_map(|v| v.to_str().ok())
            .next_back()
            .and_then(|v| v.rsplit(',').next())
            .map(str::trim)
            .filter(|v| !v.is_empty())
    }
}

/// The connection's peer address, which the server puts on every request.
pub(crate) fn peer<B>(request: &axum::http::Request<B>) -> Option<IpAddr> {
    request
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip())
}

/// A host and optional port, with nothing else (no path, no user).
fn is_authority(value: &str) -> bool {
    !value.contains('@') && Authority::from_str(value).is_ok()
}

/// An address as `X-Forwarded-For` writes it: bare, or with a port
/// (`1.2.3.4:5678`, `[::1]:5678`).
fn parse_forwarded_ip(entry: &str) -> Option<IpAddr> {
    entry
        .parse::<IpAddr>()
        .ok()
        .or_else(|| entry.parse::<SocketAddr>().ok().map(|s| s.ip()))
        .map(|ip| ip.to_canonical())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn trusted_proxies_take_addresses_and_networks() {
        let proxies: TrustedProxies = " 127.0.0.1, 10.0.0.0/8 ,,::1, fd00::/8".parse().unwrap();
        for ip in ["127.0.0.1", "10.1.2.3", "::1", "fd12::1", "::ffff:10.9.9.9"] {
            assert!(proxies.contains(ip.parse().unwrap()), "{ip}");
        }
        for ip in ["127.0.0.2", "11.0.0.1", "::2", "192.168.1.1"] {
            assert!(!proxies.contains(ip.parse().unwrap()), "{ip}");
        }
        // A network written with host bits set means the network.
        let loose: TrustedProxies = "192.168.1.7/24".parse().unwrap();
        assert!(loose.contains("192.168.1.200".parse().unwrap()));
        assert!("".parse::<TrustedProxies>().unwrap().is_empty());
    }

    #[test]
    fn a_bad_trusted_proxy_is_named() {
        for bad in ["localhost", "10.0.0.0/33", "1.2.3", "127.0.0.1,nope"] {
            let error = bad.parse::<TrustedProxies>().unwrap_err();
            assert!(error.contains("neither an IP address"), "{bad}: {error}");
        }
    }

    #[test]
    fn public_urls_are_http_addresses_without_queries() {
        assert_eq!(
            parse_public_url("https://organiser.example.com/").unwrap(),
            "https://organiser.example.com"
        );
        assert_eq!(
            parse_public_url(" http://10.0.0.2:7420/organiser ").unwrap(),
            "http://10.0.0.2:7420/organiser"
        );
        for bad in [
            "",
            "organiser.example.com",
            "ftp://example.com",
            "https://",
            "https://example.com/?a=1",
            "https://example.com/#top",
            "/relative",
        ] {
            assert!(parse_public_url(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn forwarded_addresses_may_carry_ports() {
        assert_eq!(
            parse_forwarded_ip("203.0.113.9:1234"),
            Some("203.0.113.9".parse().unwrap())
        );
        assert_eq!(
            parse_forwarded_ip("[2001:db8::1]:443"),
            Some("2001:db8::1".parse().unwrap())
        );
        assert_eq!(parse_forwarded_ip("unknown"), None);
    }

    #[test]
    fn hosts_are_authorities_only() {
        for good in [
            "example.com",
            "example.com:8443",
            "127.0.0.1:7420",
            "[::1]:7420",
        ] {
            assert!(is_authority(good), "{good}");
        }
        for bad in [
            "",
            "example.com/path",
            "user@example.com",
            "exa mple.com",
            "a\"b",
        ] {
            assert!(!is_authority(bad), "{bad}");
        }
    }
}
