//! Account: the owner's name and zone, username, and password (a change
//! asks for the current one: the session's rule, through the session's
//! door).

use askama::Template;
use axum::Form;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use organiser_core::Details;
use organiser_core::account::{Account, Me, OwnerChange};
use organiser_core::time::ZoneInfo;
use organiser_core::vocabulary::vocabulary;

use super::{Done, Frame, Posted, Refused, answer, done, refused};
use crate::AppState;
use crate::web::{Chrome, Refusal, Signed, blocking, signed, signed_form};

const HERE: &str = "/settings/account";

#[derive(Template)]
#[template(path = "settings_account.html")]
struct AccountPage<'a> {
    chrome: Chrome<'a>,
    frame: Frame,
    me: Me,
    zones: Vec<ZoneInfo>,
}

async fn page(
    state: &AppState,
    session: &Signed,
    notice: Option<&'static str>,
    refused: Refused,
) -> Result<Response, Refusal> {
    let me = blocking(state, |org| org.account().me()).await?;
    let page = AccountPage {
        chrome: session.chrome("settings"),
        frame: Frame::new("account", notice, refused),
        me,
        zones: vocabulary(false).time_zones,
    };
    Ok(answer(&page, &page.frame.refused))
}

/// `GET /settings` and `/settings/account`.
pub(crate) async fn show(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<Done>,
) -> Result<Response, Refusal> {
    let session = signed(&state, &headers).await?;
    page(&state, &session, q.notice(), Refused::none()).await
}

/// `POST /settings/account`: the name and the zone.
pub(crate) async fn change(
    State(state): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
    let csrf = session.csrf_token.clone();
    let change = OwnerChange {
        name: Some(form.text("name")),
        time_zone: Some(form.text("time_zone")),
    };
    let result = blocking(&state, move |org| {
        Account::new(&org.as_session(csrf)).change_me(change)
    })
    .await;
    match refused(result)? {
        Ok(_) => Ok(done(HERE, "saved")),
        Err(e) => page(&state, &session, None, Refused::of("me", &form, e)).await,
    }
}

/// `POST /settings/account/username`.
pub(crate) async fn username(
    State(state): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
    let csrf = session.csrf_token.clone();
    let username = form.text("username");
    let result = blocking(&state, move |org| {
        Account::new(&org.as_session(csrf)).set_username(&username)
    })
    .await;
    match refused(result)? {
        Ok(_) => Ok(done(HERE, "username")),
        Err(e) => page(&state, &session, None, Refused::of("username", &form, e)).await,
    }
}

/// `POST /settings/account/password`: the current password, the new one
/// and the same again.
pub(crate) async fn password(
    State(state): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
    let new = form.text("password");
    if new != form.text("password_again") {
        let details = Details::one("password_again", "is not the same as the new password");
        let refusal = Refused::read("password", &form, details);
        return page(&state, &session, None, refusal).await;
    }
    let csrf = session.csrf_token.clone();
    let current = form.text("current_password");
    let result = blocking(&state, move |org| {
        Account::new(&org.as_session(csrf)).set_password(Some(&current), &new)
    })
    .await;
    match refused(result)? {
        Ok(_) => Ok(done(HERE, "password")),
        Err(e) => page(&state, &session, None, Refused::of("password", &form, e)).await,
    }
}
