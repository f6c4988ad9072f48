//! Updates: this version, what the last update check found, checking
//! now, and the update settings (the release channel, daily checks)
//! unless they are managed outside the app.

use askama::Template;
use axum::Form;
use axum::extract::{Query, State};
use axum::http::{Extensions, HeaderMap};
use axum::response::Response;
use organiser_core::system::{Channel, System, SystemChange, SystemSettings, UpdateStatus};

use super::{Done, Frame, Posted, Refused, answer, done, origin, refused, when_or};
use crate::AppState;
use crate::web::{Chrome, Refusal, Signed, blocking, signed, signed_form};

const HERE: &str = "/settings/updates";

#[derive(Template)]
#[template(path = "settings_updates.html")]
struct UpdatesPage<'a> {
    chrome: Chrome<'a>,
    frame: Frame,
    system: System,
    /// The update status in words.
    status: &'static str,
    checked: String,
    /// The release notes' address, when it is a web address.
    notes: Option<String>,
    channels: &'static [Channel],
}

async fn page(
    state: &AppState,
    session: &Signed,
    plain_http: bool,
    notice: Option<&'static str>,
    refused: Refused,
) -> Result<Response, Refusal> {
    let (system, checked) = blocking(state, move |org| {
        let system = org.system().get(plain_http)?;
        let checked = when_or(system.update.checked_at, &org.zone(), "never");
        Ok((system, checked))
    })
    .await?;
    let status = match system.update.status {
        UpdateStatus::Off => "Update checks are off",
        UpdateStatus::Available => "A newer version is available",
        UpdateStatus::UpToDate => "Up to date",
        UpdateStatus::Unknown => "Not checked yet",
        UpdateStatus::NotCovered => "A newer version exists that your licence does not cover",
    };
    let notes = system
        .update
        .notes_url
        .clone()
        .filter(|u| u.starts_with("https://") || u.starts_with("http://"));
    let page = UpdatesPage {
        chrome: session.chrome("settings"),
        frame: Frame::new("updates", notice, refused),
        system,
        status,
        checked,
        notes,
        channels: Channel::ALL,
    };
    Ok(answer(&page, &page.frame.refused))
}

/// `GET /settings/updates`.
pub(crate) async fn show(
    State(state): State<AppState>,
    headers: HeaderMap,
    extensions: Extensions,
    Query(q): Query<Done>,
) -> Result<Response, Refusal> {
    let session = signed(&state, &headers).await?;
    let (plain_http, _) = origin(&state, &extensions, &headers);
    page(&state, &session, plain_http, q.notice(), Refused::none()).await
}

/// `POST /settings/updates`: the channel and daily checks.
pub(crate) async fn change(
    State(state): State<AppState>,
    headers: HeaderMap,
    extensions: Extensions,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
    let (plain_http, _) = origin(&state, &extensions, &headers);
    let csrf = session.csrf_token.clone();
    let change = SystemChange {
        channel: form.one("channel").map(str::to_owned),
        update_checks: Some(form.ticked("update_checks")),
        ..SystemChange::default()
    };
    let result = blocking(&state, move |org| {
        SystemSettings::new(&org.as_session(csrf)).change(change, plain_http)
    })
    .await;
    match refused(result)? {
        Ok(_) => Ok(done(HERE, "saved")),
        Err(e) => {
            let refusal = Refused::of("settings", &form, e);
            page(&state, &session, plain_http, None, refusal).await
        }
    }
}

/// `POST /settings/updates/check`: checks now (waiting for the answer).
pub(crate) async fn check(
    State(state): State<AppState>,
    headers: HeaderMap,
    extensions: Extensions,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
    let (plain_http, _) = origin(&state, &extensions, &headers);
    let csrf = session.csrf_token.clone();
    let result = blocking(&state, move |org| {
        SystemSettings::new(&org.as_session(csrf)).check_for_update(plain_http)
    })
    .await;
    match refused(result)? {
        Ok(_) => Ok(done(HERE, "checked")),
        Err(e) => {
            let refusal = Refused::of("check", &form, e);
            page(&state, &session, plain_http, None, refusal).await
        }
    }
}
