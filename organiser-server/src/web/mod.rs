//! The web app (EXTENSIONS.md §6): server-rendered pages for the owner at
//! `/`, beside the API. A thin adapter like the CLI: each page reads and
//! writes through the core's typed operations and renders an askama
//! template (`templates/`); the rules are the core's. A little script of
//! ours (`assets/app.js`) makes some actions immediate, and every action
//! also works as a plain form.
//!
//! What every page shares lives here: the routes, the session a page
//! needs (anything but sign-in and its stylesheet answers 303 to
//! `/sign-in` without one), CSRF on every form (the session's token in a
//! hidden field), the security headers (a `Content-Security-Policy`
//! without inline script or style, `frame-ancestors 'none'`), the assets
//! with their `ETag`s, and running the core's blocking calls off the
//! async workers.

mod assets;
mod auth;
mod calendar;
mod documents;
pub(crate) mod forms;
mod lists;
mod notes;
mod people;
mod projects;
mod search;
mod settings;
mod tasks;

use askama::Template;
use axum::Router;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use organiser_core::{Auth, Error, Organiser};

use crate::AppState;
use crate::handler::cookie;
use crate::session::SESSION_COOKIE;

/// The policy every page and asset is served with: only our own script,
/// style and images; no frames; forms post to us.
const CSP: &str = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; \
                   connect-src 'self'; font-src 'self'; form-action 'self'; base-uri 'none'; \
                   frame-ancestors 'none'";

/// Where the one-time sign-in links are (their secret follows).
pub(crate) const ONCE_PREFIX: &str = "/sign-in/once/";

/// The web app's routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/sign-in", get(auth::sign_in_page).post(auth::sign_in))
        .route("/sign-in/once/{secret}", get(auth::once))
        .route("/sign-out", post(auth::sign_out))
        .route("/welcome", get(auth::welcome_page).post(auth::welcome))
        .route("/assets/{file}", get(assets::serve))
        .merge(tasks::routes())
        .merge(lists::routes())
        .merge(people::routes())
        .merge(projects::routes())
        .merge(search::routes())
        .merge(settings::routes())
        .merge(calendar::routes())
        .merge(notes::routes())
        .merge(documents::routes())
        // Pages, the stylesheet and the script travel compressed when the
        // browser takes it (the quality bar counts bytes transferred).
        .layer(tower_http::compression::CompressionLayer::new().gzip(true))
}

/// The signed-in owner of a page: the session's CSRF token (for the
/// page's forms) and the appearance every page is drawn in.
#[derive(Debug, Clone)]
pub(crate) struct Signed {
    pub(crate) csrf_token: String,
    /// `light`, `dark` or `system` (the appearance settings).
    pub(crate) theme: &'static str,
    /// The accent colour's name.
    pub(crate) accent: &'static str,
}

impl Signed {
    /// What the layout of a page needs, on the page whose navigation
    /// entry is `current`.
    pub(crate) fn chrome(&self, current: &'static str) -> Chrome<'_> {
        Chrome {
            csrf_token: &self.csrf_token,
            theme: self.theme,
            accent: self.accent,
            current,
        }
    }
}

/// What every signed-in page's layout (`layout.html`) reads: the session's
/// CSRF token for its forms, the theme and accent, and which entry of the
/// navigation is the page's (`today`, `tasks`, `lists`, `search`,
/// `settings`).
#[derive(Debug, Clone, Copy)]
pub(crate) struct Chrome<'a> {
    pub(crate) csrf_token: &'a str,
    pub(crate) theme: &'static str,
    pub(crate) accent: &'static str,
    pub(crate) current: &'static str,
}

/// Why a page is not rendered.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// No session (or an expired one): to the sign-in page.
    SignIn,
    /// A form without the session's CSRF token.
    Forged,
    /// What the core refused or failed at.
    Core(Error),
}

impl From<Error> for Refusal {
    fn from(e: Error) -> Self {
        Refusal::Core(e)
    }
}

impl IntoResponse for Refusal {
    fn into_response(self) -> Response {
        match self {
            Refusal::SignIn => with_headers(Redirect::to("/sign-in").into_response()),
            Refusal::Forged => plain(
                StatusCode::FORBIDDEN,
                "This form is out of date (its security token does not match your session). Go back, reload the page and try again.",
            ),
            Refusal::Core(Error::NotFound) => {
                plain(StatusCode::NOT_FOUND, "There is nothing here.")
            }
            Refusal::Core(e) => {
                let status =
                    StatusCode::from_u16(e.status()).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
                if status.is_server_error() {
                    tracing::error!(error = %e, "a page failed");
                }
                plain(status, &e.public_message())
            }
        }
    }
}

/// A short page of text (errors), with the headers of every page.
fn plain(status: StatusCode, text: &str) -> Response {
    let page = Message {
        title: status.canonical_reason().unwrap_or("Error"),
        text,
    };
    let mut response = render(&page);
    *response.status_mut() = status;
    response
}

#[derive(Template)]
#[template(path = "message.html")]
pub(crate) struct Message<'a> {
    pub(crate) title: &'a str,
    pub(crate) text: &'a str,
}

/// `template` as an HTML page with the security headers.
pub(crate) fn render(template: &impl Template) -> Response {
    match template.render() {
        Ok(html) => with_headers(
            ([(header::CONTENT_TYPE, "text/html; charset=utf-8")], html).into_response(),
        ),
        Err(e) => {
            tracing::error!(error = %e, "a page could not be rendered");
            with_headers(StatusCode::INTERNAL_SERVER_ERROR.into_response())
        }
    }
}

/// Adds the headers every page and asset carries.
pub(crate) fn with_headers(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::CONTENT_SECURITY_POLICY,
        HeaderValue::from_static(CSP),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    headers.insert(
        header::REFERRER_POLICY,
        HeaderValue::from_static("same-origin"),
    );
    headers.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    if !headers.contains_key(header::CACHE_CONTROL) {
        headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    }
    response
}

/// The session of a page read with `GET` (no CSRF token needed).
pub(crate) async fn signed(state: &AppState, headers: &HeaderMap) -> Result<Signed, Refusal> {
    session(state, headers, None).await
}

/// The session of a form sent with `POST`: its `csrf_token` must be the
/// session's.
pub(crate) async fn signed_form(
    state: &AppState,
    headers: &HeaderMap,
    csrf_token: &str,
) -> Result<Signed, Refusal> {
    session(state, headers, Some(csrf_token)).await
}

async fn session(
    state: &AppState,
    headers: &HeaderMap,
    csrf: Option<&str>,
) -> Result<Signed, Refusal> {
    let Some(secret) = cookie(headers, SESSION_COOKIE) else {
        return Err(Refusal::SignIn);
    };
    let csrf = csrf.map(str::to_owned);
    let unsafe_method = csrf.is_some();
    let found = blocking(state, move |org| {
        // A session with a bad token is refused as forged, not signed out.
        let auth = if unsafe_method && org.authenticate_session(&secret, None, false).is_ok() {
            org.authenticate_session(&secret, csrf.as_deref(), true)
                .map_err(|_| Refusal::Forged)
        } else {
            org.authenticate_session(&secret, None, false)
                .map_err(|_| Refusal::SignIn)
        };
        let appearance = match &auth {
            Ok(_) => Some(org.account().appearance()?),
            Err(_) => None,
        };
        Ok(auth.map(|auth| (auth, appearance)))
    })
    .await??;
    match found {
        (Auth::Session { csrf_token }, Some(appearance)) => Ok(Signed {
            csrf_token,
            theme: appearance.theme.as_str(),
            accent: appearance.accent.as_str(),
        }),
        _ => Err(Refusal::SignIn),
    }
}

/// Runs `work` (the core's blocking calls) on the blocking pool.
pub(crate) async fn blocking<T: Send + 'static>(
    state: &AppState,
    work: impl FnOnce(&Organiser) -> Result<T, Error> + Send + 'static,
) -> Result<T, Refusal> {
    let org = state.org.clone();
    match tokio::task::spawn_blocking(move || work(&org)).await {
        Ok(result) => result.map_err(Refusal::Core),
        Err(_) => Err(Refusal::Core(Error::Internal(
            "a page's work failed".into(),
        ))),
    }
}

/// 303 to `to`, with the headers of every page.
pub(crate) fn see_other(to: &str) -> Response {
    with_headers(Redirect::to(to).into_response())
}
