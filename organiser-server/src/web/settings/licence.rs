//! Licence: the trial, the key and what it covers, or read-only mode;
//! adding a key, removing it.

use askama::Template;
use axum::extract::Query;
use axum::response::Response;
use organiser_core::licence::{Licence, LicenceProblem, LicenceState, Licensing};

use super::{Done, Frame, Sent, SettingsPage, act, run, show_page, when};
use crate::web::forms::{SignedIn, answer};
use crate::web::{Chrome, Refusal, blocking};

/// The licence's page (`settings_licence.html`).
#[derive(Template)]
#[template(path = "settings_licence.html")]
struct LicencePage<'a> {
    chrome: Chrome<'a>,
    frame: Frame,
    licence: Licence,
    /// What the state is, in words.
    state: &'static str,
    /// Why a stored key does not apply, in words.
    problem: Option<&'static str>,
    trial_ends: String,
}

/// The licence's page: its state, its key, the trial's end.
struct Here;

impl SettingsPage for Here {
    const NAME: &'static str = "licence";

    async fn draw(self, owner: &SignedIn, frame: Frame) -> Result<Response, Refusal> {
        let (licence, trial_ends) = blocking(&owner.state, |org| {
            let licence = org.licence().get()?;
            let ends = when(licence.trial_ends_at, &org.zone());
            Ok((licence, ends))
        })
        .await?;
        let page = LicencePage {
            chrome: owner.session.chrome("settings"),
            frame,
            state: match licence.state {
                LicenceState::Licensed => "Licensed",
                LicenceState::Trial => "Trial",
                LicenceState::ReadOnly => "Read-only: nothing can be changed until a key covers this version",
            },
            problem: licence.problem.map(|p| match p {
                LicenceProblem::Revoked => "The key was revoked.",
                LicenceProblem::NotCovered => {
                    "The key does not cover this version: it was released after the key's updates ended."
                }
            }),
            licence,
            trial_ends,
        };
        Ok(answer(&page, page.frame.refused.is_refused()))
    }
}

/// `GET /settings/licence`.
pub(crate) async fn show(Query(done): Query<Done>, owner: SignedIn) -> Result<Response, Refusal> {
    show_page(owner, Here, done).await
}

/// `POST /settings/licence`: a key.
pub(crate) async fn add(sent: Sent) -> Result<Response, Refusal> {
    let key = sent.form.text("key");
    act(&sent, Here, "key", "key_added", move |door| {
        Licensing::new(door).add_key(&key)
    })
    .await
}

/// `POST /settings/licence/remove`.
pub(crate) async fn remove(sent: Sent) -> Result<Response, Refusal> {
    run(&sent, |door| Licensing::new(door).remove_key()).await?;
    Ok(Here::done("key_removed"))
}
