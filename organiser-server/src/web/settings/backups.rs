//! Backups: the daily backup's settings (on or off, when, how many are
//! kept), how the last one went, the backups kept (each to download), and
//! a backup made now.

use askama::Template;
use axum::extract::{Path, Query};
use axum::response::Response;
use organiser_core::backups::{BackupSettings, BackupSettingsChange, Backups};
use organiser_core::{Details, Error};

use super::{Done, Frame, Sent, SettingsPage, act, refuse, run, show_page, when, when_or};
use crate::web::forms::{SignedIn, answer};
use crate::web::{Chrome, Refusal, blocking};

/// A backup as the list shows it.
struct Row {
    id: String,
    made: String,
    size: String,
    version: String,
}

/// The backups' page (`settings_backups.html`).
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

/// The backups' page: their settings, how the last went, those kept.
struct Here;

impl SettingsPage for Here {
    const NAME: &'static str = "backups";

    async fn draw(self, owner: &SignedIn, frame: Frame) -> Result<Response, Refusal> {
        let (settings, last, backups) = blocking(&owner.state, |org| {
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
            chrome: owner.session.chrome("settings"),
            frame,
            keep: settings.keep.to_string(),
            settings,
            last,
            backups,
        };
        Ok(answer(&page, page.frame.refused.is_refused()))
    }
}

/// `GET /settings/backups`.
pub(crate) async fn show(Query(done): Query<Done>, owner: SignedIn) -> Result<Response, Refusal> {
    show_page(owner, Here, done).await
}

/// `POST /settings/backups/settings`: on or off, `at`, `keep`.
pub(crate) async fn change(sent: Sent) -> Result<Response, Refusal> {
    let mut details = Details::new();
    let keep = sent.form.number("keep", &mut details);
    if !details.is_empty() {
        return refuse(&sent, Here, "settings", Error::Validation(details)).await;
    }
    let change = BackupSettingsChange {
        enabled: Some(sent.form.ticked("enabled")),
        at: sent.form.one("at").map(str::to_owned),
        keep,
    };
    act(&sent, Here, "settings", "saved", move |door| {
        Backups::new(door).change_settings(change)
    })
    .await
}

/// `POST /settings/backups`: a backup now.
pub(crate) async fn create(sent: Sent) -> Result<Response, Refusal> {
    act(&sent, Here, "now", "backed_up", |door| {
        Backups::new(door).create()
    })
    .await
}

/// `POST /settings/backups/{id}/delete`.
pub(crate) async fn delete(Path(id): Path<String>, sent: Sent) -> Result<Response, Refusal> {
    run(&sent, move |door| Backups::new(door).delete(&id)).await?;
    Ok(Here::done("deleted"))
}
