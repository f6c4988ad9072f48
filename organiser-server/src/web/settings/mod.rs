//! The settings (EXTENSIONS.md §6), one page a section under `/settings`
//! with a navigation of the sections: account (name, zone, username,
//! password), appearance, API tokens, licence, updates, backups, calendar
//! subscriptions and reminders.
//!
//! Each form posts its section's fields with the session's CSRF token and
//! is answered 303 back to its page (with `?done=` naming what was done,
//! which the page says), or, when the core refuses it (422), with the page
//! again: what was sent in its fields and the core's phrases beside them.
//! What is shown once (a new API token's secret, a calendar
//! subscription's address) is in the answer to the form that made it,
//! and nowhere else. Every call goes through the core's typed operations;
//! the rules are the core's.

mod account;
mod appearance;
mod backups;
mod calendar;
mod licence;
mod reminders;
mod tokens;
mod updates;

use std::fmt::Write as _;
use std::net::SocketAddr;

use askama::Template;
use axum::Router;
use axum::extract::ConnectInfo;
use axum::http::{Extensions, HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use jiff::Timestamp;
use organiser_core::time::Zone;
use organiser_core::{Details, Error};
use serde::Deserialize;

use super::{Refusal, render, see_other};
use crate::AppState;
use crate::origin::Origin;

/// This part's routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/settings", get(account::show))
        .route(
            "/settings/account",
            get(account::show).post(account::change),
        )
        .route("/settings/account/username", post(account::username))
        .route("/settings/account/password", post(account::password))
        .route(
            "/settings/appearance",
            get(appearance::show).post(appearance::change),
        )
        .route("/settings/tokens", get(tokens::show).post(tokens::create))
        .route("/settings/tokens/{id}/revoke", post(tokens::revoke))
        .route("/settings/licence", get(licence::show).post(licence::add))
        .route("/settings/licence/remove", post(licence::remove))
        .route(
            "/settings/updates",
            get(updates::show).post(updates::change),
        )
        .route("/settings/updates/check", post(updates::check))
        .route(
            "/settings/backups",
            get(backups::show).post(backups::create),
        )
        .route("/settings/backups/settings", post(backups::change))
        .route("/settings/backups/{id}/delete", post(backups::delete))
        .route(
            "/settings/calendar",
            get(calendar::show).post(calendar::create),
        )
        .route("/settings/calendar/{id}/rotate", post(calendar::rotate))
        .route("/settings/calendar/{id}/delete", post(calendar::delete))
        .route(
            "/settings/reminders",
            get(reminders::show).post(reminders::change),
        )
        .route("/settings/reminders/channels", post(reminders::add))
        .route(
            "/settings/reminders/channels/{id}/test",
            post(reminders::test),
        )
        .route(
            "/settings/reminders/channels/{id}/enabled",
            post(reminders::switch),
        )
        .route(
            "/settings/reminders/channels/{id}/delete",
            post(reminders::delete),
        )
}

/// A section of the settings: its name, heading and page.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Section {
    pub(crate) name: &'static str,
    pub(crate) label: &'static str,
    pub(crate) path: &'static str,
}

/// The sections, in the navigation's order.
pub(crate) const SECTIONS: &[Section] = &[
    Section {
        name: "account",
        label: "Account",
        path: "/settings/account",
    },
    Section {
        name: "appearance",
        label: "Appearance",
        path: "/settings/appearance",
    },
    Section {
        name: "tokens",
        label: "API tokens",
        path: "/settings/tokens",
    },
    Section {
        name: "licence",
        label: "Licence",
        path: "/settings/licence",
    },
    Section {
        name: "updates",
        label: "Updates",
        path: "/settings/updates",
    },
    Section {
        name: "backups",
        label: "Backups",
        path: "/settings/backups",
    },
    Section {
        name: "calendar",
        label: "Calendar subscriptions",
        path: "/settings/calendar",
    },
    Section {
        name: "reminders",
        label: "Reminders",
        path: "/settings/reminders",
    },
];

/// What every settings page's frame (`settings_layout.html`) reads
/// besides the layout's chrome: which section it is, what was just done,
/// and what the core refused.
#[derive(Debug)]
pub(crate) struct Frame {
    pub(crate) section: &'static str,
    pub(crate) sections: &'static [Section],
    /// What the form answered with 303 did (from `?done=`).
    pub(crate) notice: Option<&'static str>,
    pub(crate) refused: Refused,
}

impl Frame {
    pub(crate) fn new(
        section: &'static str,
        notice: Option<&'static str>,
        refused: Refused,
    ) -> Self {
        Frame {
            section,
            sections: SECTIONS,
            notice,
            refused,
        }
    }

    /// The section's heading.
    pub(crate) fn title(&self) -> &'static str {
        SECTIONS
            .iter()
            .find(|s| s.name == self.section)
            .map_or("Settings", |s| s.label)
    }
}

/// `?done=`: what a form answered with 303 did.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct Done {
    #[serde(default)]
    done: Option<String>,
}

/// What each `?done=` word says (the page says nothing for another).
const NOTICES: &[(&str, &str)] = &[
    ("saved", "Saved."),
    (
        "username",
        "Your username is changed: sign in with it from now on.",
    ),
    ("password", "Your password is changed."),
    ("revoked", "The token is revoked: it no longer works."),
    ("key_added", "The licence key is added."),
    ("key_removed", "The licence key is removed."),
    ("checked", "Checked for updates."),
    ("backed_up", "A backup is made and checked."),
    ("deleted", "Deleted."),
    ("channel_added", "The channel is added."),
    ("tested", "The test message was delivered."),
];

impl Done {
    pub(crate) fn notice(&self) -> Option<&'static str> {
        let word = self.done.as_deref()?;
        NOTICES
            .iter()
            .find(|(w, _)| *w == word)
            .map(|(_, text)| *text)
    }
}

/// 303 to `path` with `?done=word`.
pub(crate) fn done(path: &str, word: &str) -> Response {
    see_other(&format!("{path}?done={word}"))
}

/// A form as posted (`application/x-www-form-urlencoded`): its fields in
/// order, a name repeated for each box ticked.
#[derive(Debug, Default, Clone, Deserialize)]
#[serde(transparent)]
pub(crate) struct Posted(Vec<(String, String)>);

impl Posted {
    /// The CSRF token sent.
    pub(crate) fn csrf(&self) -> &str {
        self.one("csrf_token").unwrap_or_default()
    }

    /// The first value of field `name`.
    pub(crate) fn one(&self, name: &str) -> Option<&str> {
        self.0
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    /// Field `name` as text ("" when not sent).
    pub(crate) fn text(&self, name: &str) -> String {
        self.one(name).unwrap_or_default().to_owned()
    }

    /// Field `name` as text, none when blank.
    pub(crate) fn filled(&self, name: &str) -> Option<String> {
        self.one(name)
            .filter(|v| !v.trim().is_empty())
            .map(str::to_owned)
    }

    /// Every value of field `name` (the boxes ticked).
    pub(crate) fn all(&self, name: &str) -> Vec<&str> {
        self.0
            .iter()
            .filter(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .collect()
    }

    /// Whether box `name` was ticked.
    pub(crate) fn ticked(&self, name: &str) -> bool {
        self.one(name).is_some()
    }

    /// Field `name` as a whole number: none when blank; a phrase on
    /// `field` in `details` when it is no number (the core judges the
    /// range).
    pub(crate) fn number(&self, name: &str, details: &mut Details) -> Option<i64> {
        let text = self.one(name)?.trim();
        if text.is_empty() {
            return None;
        }
        match text.parse() {
            Ok(n) => Some(n),
            Err(_) => {
                details.add(name, "must be a whole number");
                None
            }
        }
    }
}

/// What the core refused of the form a page was answered to (422): which
/// of the page's forms (`form`), what it sent (shown again in its
/// fields; never a password or a secret), the phrases by field, and a
/// message that is no field's.
#[derive(Debug, Default)]
pub(crate) struct Refused {
    form: String,
    sent: Vec<(String, String)>,
    details: Details,
    message: Option<String>,
}

impl Refused {
    /// Nothing refused.
    pub(crate) fn none() -> Self {
        Refused::default()
    }

    /// `error` (a 422 of the core) of `form`, which sent `posted`.
    pub(crate) fn of(form: impl Into<String>, posted: &Posted, error: Error) -> Self {
        let (details, message) = match error {
            Error::Validation(details) | Error::InvalidParameter(details) => (details, None),
            other => (Details::new(), Some(other.public_message())),
        };
        let sent = posted
            .0
            .iter()
            .filter(|(name, _)| {
                !(name == "csrf_token" || name.contains("password") || name.contains("secret"))
            })
            .cloned()
            .collect();
        Refused {
            form: form.into(),
            sent,
            details,
            message,
        }
    }

    /// Phrases of the web's own reading of `form` (a number that is no
    /// number).
    pub(crate) fn read(form: impl Into<String>, posted: &Posted, details: Details) -> Self {
        Refused::of(form, posted, Error::Validation(details))
    }

    /// Whether anything was refused.
    pub(crate) fn is_refused(&self) -> bool {
        !self.form.is_empty()
    }

    /// Whether `form` is the one refused.
    pub(crate) fn sent(&self, form: &str) -> bool {
        self.is_refused() && self.form == form
    }

    /// The phrases on `field` of `form`, as a sentence.
    pub(crate) fn error(&self, form: &str, field: &str) -> Option<String> {
        if !self.sent(form) || !self.details.has(field) {
            return None;
        }
        Some(phrases(field, self.details.get(field)))
    }

    /// What `form` says as a whole: the core's message, or its phrases on
    /// `base`.
    pub(crate) fn general(&self, form: &str) -> Option<String> {
        if !self.sent(form) {
            return None;
        }
        if let Some(message) = &self.message {
            return Some(message.clone());
        }
        self.details
            .has("base")
            .then(|| phrases("base", self.details.get("base")))
    }

    /// Every phrase of the refusal, for the alert at the top of the page.
    pub(crate) fn summary(&self) -> Option<String> {
        if !self.is_refused() {
            return None;
        }
        Some(match &self.message {
            Some(message) => message.clone(),
            None => self
                .details
                .iter()
                .map(|(field, said)| phrases(field, said))
                .collect::<Vec<_>>()
                .join("; "),
        })
    }

    /// What field `field` of `form` shows: what was sent when `form` was
    /// refused, else `current`.
    pub(crate) fn value<'a>(&'a self, form: &str, field: &str, current: &'a str) -> &'a str {
        if self.sent(form) {
            self.sent
                .iter()
                .find(|(n, _)| n == field)
                .map_or("", |(_, v)| v.as_str())
        } else {
            current
        }
    }

    /// Whether box (or choice) `value` of `field` of `form` is ticked:
    /// as sent when `form` was refused, else `current`.
    pub(crate) fn ticked(
        &self,
        form: &str,
        field: &str,
        value: &str,
        current: impl std::borrow::Borrow<bool>,
    ) -> bool {
        if self.sent(form) {
            self.sent.iter().any(|(n, v)| n == field && v == value)
        } else {
            *current.borrow()
        }
    }
}

/// The phrases on `field` as a sentence: each after the field's name
/// ("Time zone is not a zone"), unless it is a sentence of its own or the
/// field is the record's as a whole (`base`).
fn phrases(field: &str, said: &[String]) -> String {
    let label = capitalise(&field.replace(['_', '.'], " "));
    said.iter()
        .map(|p| {
            if field == "base" || p.starts_with(char::is_uppercase) {
                capitalise(p)
            } else {
                format!("{label} {p}")
            }
        })
        .collect::<Vec<_>>()
        .join("; ")
}

fn capitalise(s: &str) -> String {
    let mut chars = s.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

/// The outcome of a form's call: a 422 of the core is for the page to
/// show beside the form; any other refusal is the page's.
pub(crate) fn refused<T>(result: Result<T, Refusal>) -> Result<Result<T, Error>, Refusal> {
    match result {
        Ok(value) => Ok(Ok(value)),
        Err(Refusal::Core(e)) if e.status() == 422 => Ok(Err(e)),
        Err(other) => Err(other),
    }
}

/// `page` rendered, 422 when it shows a refusal.
pub(crate) fn answer(page: &impl Template, refused: &Refused) -> Response {
    let mut response = render(page);
    if refused.is_refused() && response.status().is_success() {
        *response.status_mut() = StatusCode::UNPROCESSABLE_ENTITY;
    }
    response
}

/// An instant as the owner reads it: `2026-03-31 09:30` in their zone.
pub(crate) fn when(t: Timestamp, zone: &Zone) -> String {
    zone.zoned(t).strftime("%Y-%m-%d %H:%M").to_string()
}

/// An optional instant as the owner reads it, `never` for none.
pub(crate) fn when_or(t: Option<Timestamp>, zone: &Zone, none: &str) -> String {
    t.map_or_else(|| none.to_owned(), |t| when(t, zone))
}

/// Where the request came from: whether over plain HTTP, and the address
/// the owner reached the server at.
pub(crate) fn origin(
    state: &AppState,
    extensions: &Extensions,
    headers: &HeaderMap,
) -> (bool, String) {
    let peer = extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map(|c| c.0.ip());
    let origin = Origin::new(&state.config, peer, headers);
    (origin.plain_http(), origin.base_url())
}

/// `text` as a QR code: an SVG image of dark squares on a light ground
/// with a quiet zone of four modules, to put inline in a page (no style
/// attribute: the page's policy allows none). Only numbers of ours and
/// `label` (our own words) go in it.
pub(crate) fn qr_svg(text: &str, label: &'static str) -> Option<String> {
    use qrcode::{Color, QrCode};
    const QUIET: usize = 4;
    let code = QrCode::new(text.as_bytes()).ok()?;
    let width = code.width();
    let size = width + 2 * QUIET;
    let mut path = String::new();
    for (i, colour) in code.to_colors().iter().enumerate() {
        if *colour == Color::Dark {
            let (x, y) = (i % width + QUIET, i / width + QUIET);
            let _ = write!(path, "M{x} {y}h1v1h-1z");
        }
    }
    Some(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"qr\" viewBox=\"0 0 {size} {size}\" \
         role=\"img\" aria-label=\"{label}\" shape-rendering=\"crispEdges\">\
         <rect width=\"{size}\" height=\"{size}\" fill=\"#fff\"/>\
         <path fill=\"#000\" d=\"{path}\"/></svg>"
    ))
}

/// The address of a record of ours in a path (an ID), else 404.
pub(crate) fn id(text: &str) -> Result<organiser_core::Id, Refusal> {
    organiser_core::Id::parse(text).ok_or(Refusal::Core(Error::NotFound))
}
