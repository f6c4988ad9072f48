//! Account: the owner's name and zone, username, and password (a change
//! asks for the current one: the session's rule, through the session's
//! door).

use askama::Template;
use axum::extract::Query;
use axum::response::Response;
use organiser_core::account::{Account, Me, OwnerChange};
use organiser_core::time::ZoneInfo;
use organiser_core::vocabulary::vocabulary;
use organiser_core::{Details, Error};

use super::{Done, Frame, Sent, SettingsPage, act, refuse, show_page};
use crate::web::forms::{SignedIn, answer};
use crate::web::{Chrome, Refusal, blocking};

/// The account's page (`settings_account.html`).
#[derive(Template)]
#[template(path = "settings_account.html")]
struct AccountPage<'a> {
    chrome: Chrome<'a>,
    frame: Frame,
    me: Me,
    zones: Vec<ZoneInfo>,
}

/// The account's page: the owner as they are, and the zones to choose.
struct Here;

impl SettingsPage for Here {
    const NAME: &'static str = "account";

    async fn draw(self, owner: &SignedIn, frame: Frame) -> Result<Response, Refusal> {
        let me = blocking(&owner.state, |org| org.account().me()).await?;
        let page = AccountPage {
            chrome: owner.session.chrome("settings"),
            frame,
            me,
            zones: vocabulary(false).time_zones,
        };
        Ok(answer(&page, page.frame.refused.is_refused()))
    }
}

/// `GET /settings` and `/settings/account`.
pub(crate) async fn show(Query(done): Query<Done>, owner: SignedIn) -> Result<Response, Refusal> {
    show_page(owner, Here, done).await
}

/// `POST /settings/account`: the name and the zone.
pub(crate) async fn change(sent: Sent) -> Result<Response, Refusal> {
    let change = OwnerChange {
        name: Some(sent.form.text("name")),
        time_zone: Some(sent.form.text("time_zone")),
    };
    act(&sent, Here, "me", "saved", move |door| {
        Account::new(door).change_me(change)
    })
    .await
}

/// `POST /settings/account/username`.
pub(crate) async fn username(sent: Sent) -> Result<Response, Refusal> {
    let username = sent.form.text("username");
    act(&sent, Here, "username", "username", move |door| {
        Account::new(door).set_username(&username)
    })
    .await
}

/// `POST /settings/account/password`: the current password, the new one
/// and the same again.
pub(crate) async fn password(sent: Sent) -> Result<Response, Refusal> {
    let new = sent.form.text("password");
    if new != sent.form.text("password_again") {
        let details = Details::one("password_again", "is not the same as the new password");
        return refuse(&sent, Here, "password", Error::Validation(details)).await;
    }
    let current = sent.form.text("current_password");
    act(&sent, Here, "password", "password", move |door| {
        Account::new(door).set_password(Some(&current), &new)
    })
    .await
}
