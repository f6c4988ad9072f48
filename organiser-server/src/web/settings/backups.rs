//! Backups: the daily backup's settings (on or off, when, how many are
//! kept), how the last one went, the backups kept (each to download), and
//! a backup made now.

use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use organiser_core::Details;
use organiser_core::backups::{BackupSettings, BackupSettingsChange, Backups};

use super::{Done, Frame, Posted, Refused, answer, done, refused, when, when_or};
use crate::AppState;
use crate::web::{Chrome, Refusal, Signed, blocking, signed, signed_form};

const HERE: &str = "/settings/backups";

/// A backup as the list shows it.
struct Row {
    id: String,
    made: String,
    size: String,
    version: String,
}

#[derive(Template)]
#[template(path = "settings_backups.html")]
struct BackupsPage<'a> {
    chrome: Chrome<'a>,
    frame: Frame,
    settings: BackupSettings,
    keep: String,
    last: String,
    backups: Vec<Row>,
}

async fn page(
    state: &AppState,
    session: &Signed,
    notice: Option<&'static str>,
    refused: Refused,
) -> Result<Response, Refusal> {
    let (settings, last, backups) = blocking(state, |org| {
        let zone = org.zone();
        let settings = org.backups().settings()?;
        let last = when_or(settings.last_backup_at, &zone, "none yet");
        let backups = org
            .backups()
            .list()?
            .into_iter()
            .map(|b| Row {
                made: when(b.created_at, &zone),
                size: organiser_core::limits::size(b.bytes),
                version: b.app_version,
                id: b.id,
            })
            .collect();
        Ok((settings, last, backups))
    })
    .await?;
    let page = BackupsPage {
        chrome: session.chrome("settings"),
        frame: Frame::new("backups", notice, refused),
        keep: settings.keep.to_string(),
        settings,
        last,
        backups,
    };
    Ok(answer(&page, &page.frame.refused))
}

/// `GET /settings/backups`.
pub(crate) async fn show(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<Done>,
) -> Result<Response, Refusal> {
    let session = signed(&state, &headers).await?;
    page(&state, &session, q.notice(), Refused::none()).await
}

/// `POST /settings/backups/settings`: on or off, `at`, `keep`.
pub(crate) async fn change(
    State(state): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
    let mut details = Details::new();
    let keep = form.number("keep", &mut details);
    if !details.is_empty() {
        let refusal = Refused::read("settings", &form, details);
        return page(&state, &session, None, refusal).await;
    }
    let change = BackupSettingsChange {
        enabled: Some(form.ticked("enabled")),
        at: form.one("at").map(str::to_owned),
        keep,
    };
    let csrf = session.csrf_token.clone();
    let result = blocking(&state, move |org| {
        Backups::new(&org.as_session(csrf)).change_settings(change)
    })
    .await;
    match refused(result)? {
        Ok(_) => Ok(done(HERE, "saved")),
        Err(e) => page(&state, &session, None, Refused::of("settings", &form, e)).await,
    }
}

/// `POST /settings/backups`: a backup now.
pub(crate) async fn create(
    State(state): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
    let csrf = session.csrf_token.clone();
    let result = blocking(&state, move |org| {
        Backups::new(&org.as_session(csrf)).create()
    })
    .await;
    match refused(result)? {
        Ok(_) => Ok(done(HERE, "backed_up")),
        Err(e) => page(&state, &session, None, Refused::of("now", &form, e)).await,
    }
}

/// `POST /settings/backups/{id}/delete`.
pub(crate) async fn delete(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
    let csrf = session.csrf_token.clone();
    blocking(&state, move |org| {
        Backups::new(&org.as_session(csrf)).delete(&id)
    })
    .await?;
    Ok(done(HERE, "deleted"))
}
