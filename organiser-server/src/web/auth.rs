//! Signing in and out of the web app (EXTENSIONS.md §6): the form at
//! `/sign-in` (the existing sessions: the core checks the username and
//! password and makes the session, the cookie carries its secret), the
//! one-time link of a store without a password (`/sign-in/once/{secret}`,
//! spent by its first visit), whose session is asked for a password
//! first (`/welcome`), and `POST /sign-out`.

use askama::Template;
use axum::Form;
use axum::extract::{FromRequest, Path, Request, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::Response;
use organiser_core::Error;
use organiser_core::account::{Account, SignedIn};
use serde::Deserialize;

use super::{Refusal, blocking, render, see_other, signed, signed_form};
use crate::AppState;
use crate::handler::cookie;
use crate::origin::Origin;
use crate::session::SESSION_COOKIE;

#[derive(Template)]
#[template(path = "sign_in.html")]
struct SignInPage<'a> {
    username: &'a str,
    error: Option<&'a str>,
    /// No password is set: the page says how to get a sign-in link.
    first_run: bool,
}

#[derive(Template)]
#[template(path = "welcome.html")]
struct WelcomePage<'a> {
    csrf_token: &'a str,
    error: Option<&'a str>,
}

/// Whether the owner has a password yet.
async fn has_password(state: &AppState) -> Result<bool, Refusal> {
    blocking(state, |org| Ok(org.account().me()?.has_password)).await
}

/// `GET /sign-in`: the form (a signed-in visitor goes to today).
pub(crate) async fn sign_in_page(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    if signed(&state, &headers).await.is_ok() {
        return Ok(see_other("/"));
    }
    let first_run = !has_password(&state).await?;
    Ok(render(&SignInPage {
        username: "",
        error: None,
        first_run,
    }))
}

/// The sign-in form.
#[derive(Debug, Deserialize)]
pub(crate) struct SignInForm {
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: String,
}

/// `POST /sign-in`: 303 to `/` with the session's cookie, or the form
/// again (422) with why not. Counted against the general rate limit, as
/// the API's sign-in is.
pub(crate) async fn sign_in(
    State(state): State<AppState>,
    request: Request,
) -> Result<Response, Refusal> {
    if let Some(refusal) = crate::middleware::refused(&state, &request) {
        return Ok(refusal);
    }
    let https = is_https(&state, &request);
    let Form(form) = Form::<SignInForm>::from_request(request, &state)
        .await
        .map_err(|e| Refusal::Core(Error::InvalidParameter(bad_form(&e.body_text()))))?;
    let (username, password) = (form.username.clone(), form.password);
    match blocking(&state, move |org| org.sign_in(&username, &password)).await {
        Ok(session) => Ok(signed_in(https, &session, "/")),
        Err(Refusal::Core(Error::Validation(details))) => {
            let first_run = !has_password(&state).await?;
            let error = details.sentence();
            let mut page = render(&SignInPage {
                username: &form.username,
                error: Some(&error),
                first_run,
            });
            *page.status_mut() = StatusCode::UNPROCESSABLE_ENTITY;
            Ok(page)
        }
        Err(other) => Err(other),
    }
}

/// Whether the owner reached the server over HTTPS (directly, or through
/// a trusted proxy that says so).
fn is_https(state: &AppState, request: &Request) -> bool {
    !Origin::of(&state.config, request).plain_http()
}

/// A form that cannot be read, as a 400's details.
fn bad_form(why: &str) -> organiser_core::Details {
    let mut details = organiser_core::Details::new();
    details.add("base", format!("the form cannot be read: {why}"));
    details
}

/// 303 to `to` with the cookie of `session`, `Secure` over HTTPS.
fn signed_in(https: bool, session: &SignedIn, to: &str) -> Response {
    let secure = if https { "; Secure" } else { "" };
    let cookie = format!(
        "{SESSION_COOKIE}={}; Path=/; HttpOnly; SameSite=Lax; Max-Age={}{secure}",
        session.secret,
        30 * 24 * 3600
    );
    let mut response = see_other(to);
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().insert(header::SET_COOKIE, value);
    }
    response
}

/// `GET /sign-in/once/{secret}`: spends the link and signs in; the
/// session is asked for a password first.
pub(crate) async fn once(
    State(state): State<AppState>,
    Path(secret): Path<String>,
    request: Request,
) -> Result<Response, Refusal> {
    if let Some(refusal) = crate::middleware::refused(&state, &request) {
        return Ok(refusal);
    }
    let https = is_https(&state, &request);
    match blocking(&state, move |org| org.sign_in_with_link(&secret)).await {
        Ok(session) => Ok(signed_in(https, &session, "/welcome")),
        Err(Refusal::Core(Error::Unauthorized)) => {
            let page = super::Message {
                title: "This link does not work",
                text: "A sign-in link works once, for 15 minutes. Run `organiser web link` on the server for a new one.",
            };
            let mut response = render(&page);
            *response.status_mut() = StatusCode::UNAUTHORIZED;
            Ok(response)
        }
        Err(other) => Err(other),
    }
}

/// `GET /welcome`: the first password (a store with one goes to today).
pub(crate) async fn welcome_page(
    State(state): State<AppState>,
    headers: HeaderMap,
) -> Result<Response, Refusal> {
    let session = signed(&state, &headers).await?;
    if has_password(&state).await? {
        return Ok(see_other("/"));
    }
    Ok(render(&WelcomePage {
        csrf_token: &session.csrf_token,
        error: None,
    }))
}

/// The first password's form.
#[derive(Debug, Deserialize)]
pub(crate) struct WelcomeForm {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    confirmation: String,
}

/// `POST /welcome`: sets the first password, then today.
pub(crate) async fn welcome(
    State(state): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<WelcomeForm>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, &form.csrf_token).await?;
    let refused = |error: &str| {
        let mut page = render(&WelcomePage {
            csrf_token: &session.csrf_token,
            error: Some(error),
        });
        *page.status_mut() = StatusCode::UNPROCESSABLE_ENTITY;
        page
    };
    if form.password != form.confirmation {
        return Ok(refused("The two passwords differ."));
    }
    let csrf = session.csrf_token.clone();
    let password = form.password;
    match blocking(&state, move |org| {
        Account::new(&org.as_session(csrf)).set_password(None, &password)
    })
    .await
    {
        Ok(_) => Ok(see_other("/")),
        Err(Refusal::Core(Error::Validation(details))) => Ok(refused(&details.sentence())),
        Err(other) => Err(other),
    }
}

/// The sign-out form.
#[derive(Debug, Deserialize)]
pub(crate) struct SignOutForm {
    #[serde(default)]
    csrf_token: String,
}

/// `POST /sign-out`: ends the session, then the sign-in page.
pub(crate) async fn sign_out(
    State(state): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<SignOutForm>,
) -> Result<Response, Refusal> {
    signed_form(&state, &headers, &form.csrf_token).await?;
    if let Some(secret) = cookie(&headers, SESSION_COOKIE) {
        blocking(&state, move |org| org.sign_out(&secret)).await?;
    }
    let mut response = see_other("/sign-in");
    response.headers_mut().insert(
        header::SET_COOKIE,
        HeaderValue::from_static("organiser_session=; Path=/; HttpOnly; SameSite=Lax; Max-Age=0"),
    );
    Ok(response)
}
