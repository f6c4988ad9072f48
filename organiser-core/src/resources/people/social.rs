//! A person's social profiles (document 3, "SocialProfile" and its rows):
//! the link as stored (`https://` added when it has no scheme) and the
//! platform read from it, for the ten platforms of the vocabulary's
//! `social_platforms`; any other web link is a `website`.

use crate::text::squish;

/// A link as stored: squished of spaces, with `https://` put before a
/// link that names no scheme.
pub(crate) fn normalise_url(url: &str) -> String {
    let url: String = squish(url).chars().filter(|c| *c != ' ').collect();
    if url.is_empty() || has_scheme(&url) {
        url
    } else {
        format!("https://{}", url.trim_start_matches('/'))
    }
}

/// Whether `url` begins with a scheme (`https:`, `mailto:`, ...).
fn has_scheme(url: &str) -> bool {
    match url.split_once(':') {
        Some((scheme, rest)) => {
            let scheme_ok = scheme
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic())
                && scheme
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
            // `example.com:8080/x` names a port, not a scheme.
            scheme_ok && !rest.starts_with(|c: char| c.is_ascii_digit())
        }
        None => false,
    }
}

/// The hosts (and their subdomains) of each platform, by vocabulary key.
const HOSTS: &[(&str, &[&str])] = &[
    ("linkedin", &["linkedin.com", "lnkd.in"]),
    ("github", &["github.com"]),
    ("x", &["x.com", "twitter.com"]),
    ("bluesky", &["bsky.app", "bsky.social"]),
    ("instagram", &["instagram.com", "instagr.am"]),
    ("facebook", &["facebook.com", "fb.com", "fb.me"]),
    ("threads", &["threads.net", "threads.com"]),
    ("youtube", &["youtube.com", "youtu.be"]),
    ("tiktok", &["tiktok.com"]),
    (
        "mastodon",
        &[
            "mastodon.social",
            "mastodon.online",
            "mstdn.social",
            "fosstodon.org",
            "hachyderm.io",
            "infosec.exchange",
            "mas.to",
        ],
    ),
];

/// The platform a link is on: one of the ten of the vocabulary by its
/// host, `mastodon` for an `/@name` profile on any other host (the
/// federated network has thousands of them), `website` for any other web
/// link, `other` for what is no web link.
pub(crate) fn detect_platform(url: &str) -> &'static str {
    let url = normalise_url(url);
    let lower = url.to_ascii_lowercase();
    let rest = if lower.starts_with("https://") {
        &url["https://".len()..]
    } else if lower.starts_with("http://") {
        &url["http://".len()..]
    } else {
        return "other";
    };
    let (authority, path) = rest.split_once('/').unwrap_or((rest, ""));
    let host = authority
        .rsplit('@')
        .next()
        .unwrap_or(authority)
        .split(':')
        .next()
        .unwrap_or("")
        .trim_end_matches('.')
        .to_ascii_lowercase();
    if host.is_empty() || !host.contains('.') {
        return "other";
    }
    for (platform, hosts) in HOSTS {
        if hosts
            .iter()
            .any(|h| host == *h || host.ends_with(&format!(".{h}")))
        {
            return platform;
        }
    }
    if path.starts_with('@') && path.len() > 1 || host.contains("mastodon") {
        return "mastodon";
    }
    "website"
}

/// The platform to store for a row: the one sent, unless it is null or
/// absent (then the one read from the link), and whether it was read from
/// the link. A platform equal to the one read from the link is kept as
/// detected, so a GET sent back as a PATCH changes nothing.
pub(crate) fn platform(url: &str, sent: Option<&str>) -> (String, bool) {
    let detected = detect_platform(url);
    match sent {
        Some(platform) if platform != detected => (platform.to_owned(), false),
        _ => (detected.to_owned(), true),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_link_without_a_scheme_gets_https() {
        for (given, stored) in [
            ("github.com/ada", "https://github.com/ada"),
            ("  github.com/ada ", "https://github.com/ada"),
            ("//example.org/x", "https://example.org/x"),
            ("http://example.org", "http://example.org"),
            ("HTTPS://Example.org", "HTTPS://Example.org"),
            ("example.org:8080/me", "https://example.org:8080/me"),
            ("mailto:ada@example.org", "mailto:ada@example.org"),
            ("", ""),
        ] {
            assert_eq!(normalise_url(given), stored, "{given:?}");
        }
    }

    #[test]
    fn each_platform_is_read_from_its_links() {
        for (url, platform) in [
            ("https://www.linkedin.com/in/ada", "linkedin"),
            ("uk.linkedin.com/in/ada", "linkedin"),
            ("https://github.com/ada", "github"),
            ("https://twitter.com/ada", "x"),
            ("x.com/ada", "x"),
            ("https://bsky.app/profile/ada.bsky.social", "bluesky"),
            ("https://www.instagram.com/ada/", "instagram"),
            ("https://m.facebook.com/ada", "facebook"),
            ("https://www.threads.net/@ada", "threads"),
            ("https://youtu.be/xyz", "youtube"),
            ("https://www.youtube.com/@ada", "youtube"),
            ("https://www.tiktok.com/@ada", "tiktok"),
            ("https://mastodon.social/@ada", "mastodon"),
            ("https://social.example.net/@ada", "mastodon"),
            ("https://ada.example.org", "website"),
            ("https://notgithub.com/ada", "website"),
            ("https://github.com.evil.example/ada", "website"),
            ("https://user@github.com:443/ada", "github"),
            ("mailto:ada@example.org", "other"),
            ("https://localhost/x", "other"),
            ("", "other"),
        ] {
            assert_eq!(detect_platform(url), platform, "{url}");
        }
    }

    #[test]
    fn a_platform_equal_to_the_detected_one_stays_detected() {
        let url = "https://github.com/ada";
        assert_eq!(platform(url, None), ("github".to_owned(), true));
        assert_eq!(platform(url, Some("github")), ("github".to_owned(), true));
        assert_eq!(
            platform(url, Some("website")),
            ("website".to_owned(), false)
        );
    }
}
