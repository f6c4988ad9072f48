//! The settings (EXTENSIONS.md §6), one page a section under `/settings`
//! with a navigation of the sections: account (name, zone, username,
//! password), appearance, API tokens, licence, updates, backups, calendar
//! subscriptions, reminders and AI.
//!
//! Each form posts its section's fields with the session's CSRF token and
//! is answered 303 back to its page (with `?done=` naming what was done,
//! which the page says), or, when the core refuses it (422), with the page
//! again: what was sent in its fields and the core's phrases beside them.
//! What is shown once (a new API token's secret, a calendar
//! subscription's address) is in the answer to the form that made it,
//! and nowhere else. Every call goes through the core's typed operations;
//! the rules are the core's.
//!
//! Each section's file draws its page ([`SettingsPage`]) and states of
//! each form only what is its own: what it reads of the fields, the
//! core's call, and the word its 303 says; [`act`] does the rest (the
//! session's CSRF token, the call as the session, the answer).

mod account;
mod ai;
mod appearance;
mod backups;
mod calendar;
mod form;
mod licence;
mod reminders;
mod tokens;
mod updates;

use std::convert::Infallible;
use std::fmt::Write as _;
use std::net::SocketAddr;

use axum::Router;
use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::response::Response;
use axum::routing::{get, post};
use jiff::Timestamp;
use organiser_core::Error;
use organiser_core::door::AsSession;
use organiser_core::time::Zone;
use serde::Deserialize;

use super::forms::{SignedForm, SignedIn};
use super::{Refusal, blocking, see_other};
use crate::AppState;
use crate::origin::Origin;
use form::{Posted, Refused, refused};

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
        .route("/settings/ai", get(ai::show))
        .route("/settings/ai/providers", post(ai::add_provider))
        .route("/settings/ai/providers/{id}/check", post(ai::check))
        .route("/settings/ai/providers/{id}/models", post(ai::add_models))
        .route(
            "/settings/ai/providers/{id}/delete",
            post(ai::delete_provider),
        )
        .route("/settings/ai/models/{id}/default", post(ai::make_default))
        .route("/settings/ai/models/{id}/delete", post(ai::delete_model))
        .route("/settings/ai/tasks/{key}", post(ai::change_task))
        .route("/settings/ai/tasks/{key}/backfill", post(ai::backfill))
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
    Section {
        name: "ai",
        label: "AI",
        path: "/settings/ai",
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
    /// The frame of section `section`, saying `notice`, showing `refused`.
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
    (
        "provider_added",
        "The provider is added: check it to see its models.",
    ),
    ("model_added", "The model is added."),
    ("backfilled", "The backfill is queued."),
];

impl Done {
    /// What the page says was done (none for a word it does not know).
    pub(crate) fn notice(&self) -> Option<&'static str> {
        let word = self.done.as_deref()?;
        NOTICES
            .iter()
            .find(|(w, _)| *w == word)
            .map(|(_, text)| *text)
    }
}

/// A section's page, drawn as the section is now inside its frame (what
/// was just done, what was refused): what the section's forms are
/// answered with. The value carries what the page shows besides (what is
/// shown once, how the request came).
pub(crate) trait SettingsPage: Send + Sized {
    /// The section's name among [`SECTIONS`].
    const NAME: &'static str;

    /// The page for `owner`, in `frame`.
    fn draw(
        self,
        owner: &SignedIn,
        frame: Frame,
    ) -> impl Future<Output = Result<Response, Refusal>> + Send;

    /// 303 back to the section's page with `?done={word}` (what was done,
    /// which the page says).
    fn done(word: &str) -> Response {
        let path = SECTIONS
            .iter()
            .find(|s| s.name == Self::NAME)
            .map_or("/settings", |s| s.path);
        see_other(&format!("{path}?done={word}"))
    }
}

/// A form posted to a settings page: its fields, by the signed-in owner.
pub(crate) type Sent = SignedForm<Posted>;

/// `page` drawn for `owner`, saying `notice` and showing `refused`.
async fn draw<P: SettingsPage>(
    owner: &SignedIn,
    page: P,
    notice: Option<&'static str>,
    refused: Refused,
) -> Result<Response, Refusal> {
    page.draw(owner, Frame::new(P::NAME, notice, refused)).await
}

/// A section's page read with `GET`, saying what `?done=` names as done.
pub(crate) async fn show_page(
    owner: SignedIn,
    page: impl SettingsPage,
    done: Done,
) -> Result<Response, Refusal> {
    draw(&owner, page, done.notice(), Refused::none()).await
}

/// `page` in answer to `sent`, nothing refused (what a form that makes
/// something shown once is answered with).
pub(crate) async fn again(sent: &Sent, page: impl SettingsPage) -> Result<Response, Refusal> {
    draw(&sent.owner, page, None, Refused::none()).await
}

/// `page` again in answer to `sent` (422), with `error` beside the
/// fields of its form `form` (the core's refusal, or the web's phrases
/// on a field that does not read).
pub(crate) async fn refuse(
    sent: &Sent,
    page: impl SettingsPage,
    form: &str,
    error: Error,
) -> Result<Response, Refusal> {
    let refused = Refused::of(form, &sent.form, error);
    draw(&sent.owner, page, None, refused).await
}

/// Runs `work` as the session that sent `sent` (the session's rules,
/// through the core's session door), off the async workers.
pub(crate) async fn run<T: Send + 'static>(
    sent: &Sent,
    work: impl FnOnce(&AsSession<'_>) -> Result<T, Error> + Send + 'static,
) -> Result<T, Refusal> {
    let csrf = sent.owner.session.csrf_token.clone();
    blocking(&sent.owner.state, move |org| work(&org.as_session(csrf))).await
}

/// Answers form `form` of `page`'s section: `work` run as the session;
/// 303 back with `?done={done}` when the core takes it, the page again
/// with what the core refused (422) when it refuses; any other refusal
/// is the page's.
pub(crate) async fn act<P: SettingsPage, T: Send + 'static>(
    sent: &Sent,
    page: P,
    form: &str,
    done: &str,
    work: impl FnOnce(&AsSession<'_>) -> Result<T, Error> + Send + 'static,
) -> Result<Response, Refusal> {
    match refused(run(sent, work).await)? {
        Ok(_) => Ok(P::done(done)),
        Err(e) => refuse(sent, page, form, e).await,
    }
}

/// An instant as the owner reads it: `2026-03-31 09:30` in their zone.
pub(crate) fn when(t: Timestamp, zone: &Zone) -> String {
    zone.zoned(t).strftime("%Y-%m-%d %H:%M").to_string()
}

/// An optional instant as the owner reads it, `never` for none.
pub(crate) fn when_or(t: Option<Timestamp>, zone: &Zone, none: &str) -> String {
    t.map_or_else(|| none.to_owned(), |t| when(t, zone))
}

/// Where a request came from: whether over plain HTTP, and the address
/// the owner reached the server at.
pub(crate) struct Reached {
    pub(crate) plain_http: bool,
    pub(crate) base: String,
}

impl FromRequestParts<AppState> for Reached {
    type Rejection = Infallible;

    async fn from_request_parts(parts: &mut Parts, state: &AppState) -> Result<Self, Infallible> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map(|c| c.0.ip());
        let origin = Origin::new(&state.config, peer, &parts.headers);
        Ok(Reached {
            plain_http: origin.plain_http(),
            base: origin.base_url(),
        })
    }
}

/// `text` as a QR code: an SVG image of dark squares on a light ground
/// with a quiet zone of four modules, to put inline in a page (no style
/// attribute: the page's policy allows none). Only numbers of ours and
/// `label` (our own words) go in it.
pub(crate) fn qr_svg(text: &str, label: &'static str) -> Option<String> {
    use qrcode::{Color, QrCode};
    /// The quiet zone's width, in modules.
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
