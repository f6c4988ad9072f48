//! An event's meeting link (document 3, "CalendarEvent" `meeting`): the
//! first link found in the conference properties, then URL, LOCATION and
//! DESCRIPTION, named by the vocabulary's `meeting_providers`. A
//! conference property's link of an unknown service is `other`; elsewhere
//! only a known service's link counts.

use serde::{Deserialize, Serialize};

use super::icalendar::{Props, unescape};

/// `{ provider, url }`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Meeting {
    /// A key of the vocabulary's `meeting_providers`.
    pub provider: String,
    /// The link to join.
    pub url: String,
}

/// Properties that carry a conference link, in the order they are read.
const CONFERENCE: &[&str] = &[
    "CONFERENCE",
    "X-GOOGLE-CONFERENCE",
    "X-MICROSOFT-ONLINEMEETINGEXTERNALLINK",
    "X-MICROSOFT-SKYPETEAMSMEETINGURL",
];

/// The provider of a link to `host`, if a known one.
fn provider(host: &str) -> Option<&'static str> {
    let is = |domain: &str| host == domain || host.ends_with(&format!(".{domain}"));
    Some(if is("zoom.us") || is("zoomgov.com") {
        "zoom"
    } else if host == "meet.google.com" {
        "google_meet"
    } else if host == "teams.microsoft.com" || host == "teams.live.com" {
        "microsoft_teams"
    } else if is("webex.com") {
        "webex"
    } else if is("whereby.com") {
        "whereby"
    } else if host == "meet.jit.si" || host == "8x8.vc" {
        "jitsi"
    } else if is("gotomeeting.com") || host == "meet.goto.com" || is("gotomeet.me") {
        "gotomeeting"
    } else {
        return None;
    })
}

/// The http(s) links in `text`, in order, with their hosts.
fn links(text: &str) -> impl Iterator<Item = (String, String)> + '_ {
    let lower = text.to_ascii_lowercase();
    let mut starts = Vec::new();
    let mut from = 0;
    while let Some(at) = lower[from..].find("http") {
        let at = from + at;
        let rest = &lower[at..];
        if rest.starts_with("https://") || rest.starts_with("http://") {
            starts.push(at);
        }
        from = at + 4;
    }
    starts.into_iter().filter_map(move |at| {
        let rest = &text[at..];
        let end = rest
            .find(|c: char| c.is_whitespace() || matches!(c, '<' | '>' | '"' | '\'' | '`'))
            .unwrap_or(rest.len());
        let url = rest[..end].trim_end_matches(['.', ',', ';', ':', ')', ']', '!', '?']);
        let after_scheme = &url[url.find("://")? + 3..];
        let host = after_scheme
            .split(['/', '?', '#'])
            .next()?
            .rsplit('@')
            .next()?
            .split(':')
            .next()?
            .to_ascii_lowercase();
        (!host.is_empty()).then(|| (url.to_owned(), host))
    })
}

/// The meeting of an event with properties `props` and link `url`.
pub(crate) fn meeting(props: &Props, url: Option<&str>) -> Option<Meeting> {
    for name in CONFERENCE {
        for p in props.all(name) {
            let value = unescape(p.value.as_deref().unwrap_or(""));
            if let Some((link, host)) = links(&value).next() {
                return Some(Meeting {
                    provider: provider(&host).unwrap_or("other").to_owned(),
                    url: link,
                });
            }
        }
    }
    let texts = [
        url.map(str::to_owned),
        props.value("LOCATION").map(unescape),
        props.value("DESCRIPTION").map(unescape),
    ];
    for text in texts.iter().flatten() {
        for (link, host) in links(text) {
            if let Some(provider) = provider(&host) {
                return Some(Meeting {
                    provider: provider.to_owned(),
                    url: link,
                });
            }
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use ical::property::Property;

    fn props(list: &[(&str, &str)]) -> Props {
        Props(
            list.iter()
                .map(|(n, v)| Property {
                    name: (*n).into(),
                    params: None,
                    value: Some((*v).into()),
                })
                .collect(),
        )
    }

    #[test]
    fn providers_are_found_in_order() {
        type Case<'a> = (&'a [(&'a str, &'a str)], Option<(&'a str, &'a str)>);
        let cases: &[Case<'_>] = &[
            (
                &[("LOCATION", "Zoom: https://acme.zoom.us/j/123?pwd=x.")],
                Some(("zoom", "https://acme.zoom.us/j/123?pwd=x")),
            ),
            (
                &[(
                    "DESCRIPTION",
                    "Join at <https://meet.google.com/abc-defg-hij>",
                )],
                Some(("google_meet", "https://meet.google.com/abc-defg-hij")),
            ),
            (
                &[("CONFERENCE", "https://video.example.com/room")],
                Some(("other", "https://video.example.com/room")),
            ),
            (&[("LOCATION", "https://example.com/office")], None),
            (
                &[
                    ("DESCRIPTION", "https://meet.jit.si/x"),
                    (
                        "X-MICROSOFT-SKYPETEAMSMEETINGURL",
                        "https://teams.microsoft.com/l/1",
                    ),
                ],
                Some(("microsoft_teams", "https://teams.microsoft.com/l/1")),
            ),
        ];
        for (list, want) in cases {
            let got = meeting(&props(list), None);
            assert_eq!(
                got.as_ref().map(|m| (m.provider.as_str(), m.url.as_str())),
                *want,
                "{list:?}"
            );
        }
    }
}
