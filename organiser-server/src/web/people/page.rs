//! A person's page (`person.html`): the person as the core's overview
//! reads them in one call (key dates with when each next falls, contact
//! details, links to other people, positions with their companies,
//! projects, open tasks, notes, documents, next meetings from the
//! feeds), and a form for each change, drawn again beside what the core
//! refused (422, the typed values kept).

use askama::Template;
use axum::extract::{Path, Query};
use axum::response::Response;
use jiff::tz::TimeZone;
use organiser_core::Id;
use organiser_core::calendar::CalendarEvent;
use organiser_core::people::{KeyDate, PersonOverview};
use serde::Deserialize;

use super::words;
use crate::web::forms::{SignedIn, answer, record_id};
use crate::web::{Chrome, Refusal, blocking};

pub(super) use crate::web::forms::Draft;

/// A person's page.
#[derive(Template)]
#[template(path = "person.html")]
pub(super) struct PersonPage<'a> {
    chrome: Chrome<'a>,
    o: PersonOverview,
    draft: Draft,
    /// Every relationship to the owner: key, label, whether it is theirs.
    relationships: Vec<(&'static str, &'static str, bool)>,
    /// The roles a link can name (both ways of each pair): key, label.
    roles: Vec<(&'static str, &'static str)>,
    /// The kinds of key date: key, label.
    kinds: Vec<(&'static str, &'static str)>,
    /// A change was saved (`?saved=1`).
    saved: bool,
    zone: TimeZone,
}

/// Month names, for key dates.
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

impl PersonPage<'_> {
    /// The name typed in the person's form, else theirs.
    fn name_value(&self) -> &str {
        if self.draft.form == "person" {
            self.draft.typed("person", "name")
        } else {
            &self.o.person.name
        }
    }

    /// A key date's kind in words.
    fn kind_label(&self, kind: &str) -> String {
        words()
            .key_date_kinds
            .iter()
            .find(|k| k.key == kind)
            .map_or_else(|| kind.replace('_', " "), |k| k.label.to_owned())
    }

    /// A key date's day (`14 March 1990`).
    fn key_day(&self, k: &KeyDate) -> String {
        let month = usize::try_from(k.month - 1)
            .ok()
            .and_then(|m| MONTHS.get(m))
            .copied()
            .unwrap_or("");
        match k.year {
            Some(y) => format!("{} {month} {y}", k.day),
            None => format!("{} {month}", k.day),
        }
    }

    /// When key date `k` next falls, and the years it has then.
    fn next_of(&self, k: &KeyDate) -> Option<String> {
        let next = self.o.key_dates.iter().find(|u| u.key_date.id == k.id)?;
        let day = next.date.strftime("%a %-d %b %Y").to_string();
        Some(match next.years {
            Some(y) => format!("next {day} ({y} years)"),
            None => format!("next {day}"),
        })
    }

    /// A role's words, as this person's link names it.
    fn role_label(&self, kind: &str) -> String {
        for r in words().person_links {
            if r.key == kind {
                return r.label.to_owned();
            }
            if r.inverse_key == kind {
                return r.inverse_label.to_owned();
            }
        }
        kind.replace('_', " ")
    }

    /// The name of connected person `id`.
    fn other_name(&self, id: &Id) -> &str {
        self.o
            .connections
            .iter()
            .find(|p| p.id == *id)
            .map_or("someone", |p| p.name.as_str())
    }

    /// The name of company `id`.
    fn company(&self, id: &Option<Id>) -> Option<&str> {
        let id = (*id)?;
        self.o
            .companies
            .iter()
            .find(|c| c.id == id)
            .map(|c| c.name.as_str())
    }

    /// Whether a profile's link may be followed (http or https only).
    fn linkable(&self, url: &str) -> bool {
        let lower = url.to_ascii_lowercase();
        lower.starts_with("https://") || lower.starts_with("http://")
    }

    /// The relationships' words.
    fn relationship_words(&self) -> String {
        self.relationships
            .iter()
            .filter(|(_, _, on)| *on)
            .map(|(_, label, _)| *label)
            .collect::<Vec<_>>()
            .join(", ")
    }

    /// When a meeting is, in the owner's zone.
    fn when(&self, e: &CalendarEvent) -> String {
        match (e.starts_at, e.start_on) {
            (Some(at), _) => at
                .to_zoned(self.zone.clone())
                .strftime("%a %-d %b %Y %H:%M")
                .to_string(),
            (None, Some(day)) => format!("{} (all day)", day.strftime("%a %-d %b %Y")),
            (None, None) => String::new(),
        }
    }
}

/// `GET /people/{id}?saved=1`.
#[derive(Debug, Default, Deserialize)]
pub(super) struct ShowQuery {
    saved: Option<String>,
}

/// Draws person `id`'s page, with `draft` the refused form (422).
pub(super) async fn draw(
    owner: &SignedIn,
    id: Id,
    draft: Draft,
    saved: bool,
) -> Result<Response, Refusal> {
    let o = blocking(&owner.state, move |org| org.person_overviews().get(id)).await?;
    let typed_relationships: Option<Vec<String>> = (draft.form == "person").then(|| {
        draft
            .values
            .iter()
            .filter(|(f, _)| f == "relationships")
            .map(|(_, v)| v.clone())
            .collect()
    });
    let theirs = typed_relationships
        .as_ref()
        .unwrap_or(&o.person.relationships);
    let relationships = words()
        .relationships
        .iter()
        .map(|r| (r.key, r.label, theirs.iter().any(|t| t == r.key)))
        .collect();
    // The vocabulary lists both ways of each pair.
    let roles = words()
        .person_links
        .iter()
        .map(|r| (r.key, r.label))
        .collect();
    let kinds = words()
        .key_date_kinds
        .iter()
        .map(|k| (k.key, k.label))
        .collect();
    let zone = TimeZone::get(&o.time_zone_iana).unwrap_or(TimeZone::UTC);
    let refused = !draft.form.is_empty();
    let page = PersonPage {
        chrome: owner.session.chrome("people"),
        o,
        draft,
        relationships,
        roles,
        kinds,
        saved,
        zone,
    };
    Ok(answer(&page, refused))
}

/// `GET /people/{id}`.
pub(super) async fn show(
    Path(id): Path<String>,
    Query(q): Query<ShowQuery>,
    owner: SignedIn,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    draw(&owner, id, Draft::default(), q.saved.is_some()).await
}
