//! Updates: this version, what the last update check found, checking
//! now, and the update settings (the release channel, daily checks)
//! unless they are managed outside the app.

use askama::Template;
use axum::extract::Query;
use axum::response::Response;
use organiser_core::system::{Channel, System, SystemChange, SystemSettings, UpdateStatus};

use super::{Done, Frame, Reached, Sent, SettingsPage, act, show_page, when_or};
use crate::web::forms::{SignedIn, answer};
use crate::web::{Chrome, Refusal, blocking};

/// The updates' page (`settings_updates.html`).
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

/// The updates' page, for a request over plain HTTP or not (the core
/// says what that allows).
struct Here {
    plain_http: bool,
}

impl SettingsPage for Here {
    const NAME: &'static str = "updates";

    async fn draw(self, owner: &SignedIn, frame: Frame) -> Result<Response, Refusal> {
        let plain_http = self.plain_http;
        let (system, checked) = blocking(&owner.state, move |org| {
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
            chrome: owner.session.chrome("settings"),
            frame,
            system,
            status,
            checked,
            notes,
            channels: Channel::ALL,
        };
        Ok(answer(&page, page.frame.refused.is_refused()))
    }
}

/// `GET /settings/updates`.
pub(crate) async fn show(
    reached: Reached,
    Query(done): Query<Done>,
    owner: SignedIn,
) -> Result<Response, Refusal> {
    let here = Here {
        plain_http: reached.plain_http,
    };
    show_page(owner, here, done).await
}

/// `POST /settings/updates`: the channel and daily checks.
pub(crate) async fn change(reached: Reached, sent: Sent) -> Result<Response, Refusal> {
    let plain_http = reached.plain_http;
    let change = SystemChange {
        channel: sent.form.one("channel").map(str::to_owned),
        update_checks: Some(sent.form.ticked("update_checks")),
        ..SystemChange::default()
    };
    act(
        &sent,
        Here { plain_http },
        "settings",
        "saved",
        move |door| SystemSettings::new(door).change(change, plain_http),
    )
    .await
}

/// `POST /settings/updates/check`: checks now (waiting for the answer).
pub(crate) async fn check(reached: Reached, sent: Sent) -> Result<Response, Refusal> {
    let plain_http = reached.plain_http;
    act(
        &sent,
        Here { plain_http },
        "check",
        "checked",
        move |door| SystemSettings::new(door).check_for_update(plain_http),
    )
    .await
}
