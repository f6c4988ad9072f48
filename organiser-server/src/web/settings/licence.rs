//! Licence: the trial, the key and what it covers, or read-only mode;
//! adding a key, removing it.

use askama::Template;
use axum::Form;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use organiser_core::licence::{Licence, LicenceProblem, LicenceState, Licensing};

use super::{Done, Frame, Posted, Refused, answer, done, refused, when};
use crate::AppState;
use crate::web::{Chrome, Refusal, Signed, blocking, signed, signed_form};

const HERE: &str = "/settings/licence";

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

async fn page(
    state: &AppState,
    session: &Signed,
    notice: Option<&'static str>,
    refused: Refused,
) -> Result<Response, Refusal> {
    let (licence, trial_ends) = blocking(state, |org| {
        let licence = org.licence().get()?;
        let ends = when(licence.trial_ends_at, &org.zone());
        Ok((licence, ends))
    })
    .await?;
    let page = LicencePage {
        chrome: session.chrome("settings"),
        frame: Frame::new("licence", notice, refused),
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
    Ok(answer(&page, &page.frame.refused))
}

/// `GET /settings/licence`.
pub(crate) async fn show(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<Done>,
) -> Result<Response, Refusal> {
    let session = signed(&state, &headers).await?;
    page(&state, &session, q.notice(), Refused::none()).await
}

/// `POST /settings/licence`: a key.
pub(crate) async fn add(
    State(state): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
    let csrf = session.csrf_token.clone();
    let key = form.text("key");
    let result = blocking(&state, move |org| {
        Licensing::new(&org.as_session(csrf)).add_key(&key)
    })
    .await;
    match refused(result)? {
        Ok(_) => Ok(done(HERE, "key_added")),
        Err(e) => page(&state, &session, None, Refused::of("key", &form, e)).await,
    }
}

/// `POST /settings/licence/remove`.
pub(crate) async fn remove(
    State(state): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
    let csrf = session.csrf_token.clone();
    blocking(&state, move |org| {
        Licensing::new(&org.as_session(csrf)).remove_key()
    })
    .await?;
    Ok(done(HERE, "key_removed"))
}
