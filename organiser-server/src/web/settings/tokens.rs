//! API tokens: the tokens with when each was made and last used, a new
//! one (its secret shown once, in the answer to the form that made it),
//! and revoking one.

use askama::Template;
use axum::extract::{Path, Query};
use axum::response::Response;
use jiff::civil::Date;
use organiser_core::account::Account;
use organiser_core::{Details, Error};

use super::{
    Done, Frame, Sent, SettingsPage, again, refuse, refused, run, show_page, when, when_or,
};
use crate::web::forms::{SignedIn, answer};
use crate::web::{Chrome, Refusal, blocking};

/// A token as the list shows it.
struct Row {
    id: u64,
    name: String,
    created: String,
    last_used: String,
    expires: String,
}

/// A token just made: its secret, shown this once.
struct Made {
    name: String,
    secret: String,
}

/// The tokens' page (`settings_tokens.html`).
#[derive(Template)]
#[template(path = "settings_tokens.html")]
struct TokensPage<'a> {
    chrome: Chrome<'a>,
    frame: Frame,
    tokens: Vec<Row>,
    made: Option<Made>,
}

/// The tokens' page, with the token just made (`made`).
#[derive(Default)]
struct Here {
    made: Option<Made>,
}

impl SettingsPage for Here {
    const NAME: &'static str = "tokens";

    async fn draw(self, owner: &SignedIn, frame: Frame) -> Result<Response, Refusal> {
        let csrf = owner.session.csrf_token.clone();
        let tokens = blocking(&owner.state, move |org| {
            let zone = org.zone();
            let tokens = Account::new(&org.as_session(csrf)).tokens()?;
            Ok(tokens
                .into_iter()
                .map(|t| Row {
                    id: t.id,
                    name: t.name,
                    created: when(t.created_at, &zone),
                    last_used: when_or(t.last_used_at, &zone, "never"),
                    expires: when_or(t.expires_at, &zone, "never"),
                })
                .collect())
        })
        .await?;
        let page = TokensPage {
            chrome: owner.session.chrome("settings"),
            frame,
            tokens,
            made: self.made,
        };
        Ok(answer(&page, page.frame.refused.is_refused()))
    }
}

/// `GET /settings/tokens`.
pub(crate) async fn show(Query(done): Query<Done>, owner: SignedIn) -> Result<Response, Refusal> {
    show_page(owner, Here::default(), done).await
}

/// `error` with what the core says of the instant a token expires
/// (`expires_at`) said of the day the form asks for (`expires_on`).
fn on_the_day(error: Error) -> Error {
    match error {
        Error::Validation(details) if details.has("expires_at") => {
            let mut moved = Details::new();
            for (field, phrases) in details.iter() {
                let field = if field == "expires_at" {
                    "expires_on"
                } else {
                    field
                };
                for phrase in phrases {
                    moved.add(field, phrase.clone());
                }
            }
            Error::Validation(moved)
        }
        other => other,
    }
}

/// `POST /settings/tokens`: a new token named `name`, working until the
/// start of `expires_on` in the owner's zone (or for good): answered with
/// the page and its secret, the one time it is shown.
pub(crate) async fn create(sent: Sent) -> Result<Response, Refusal> {
    let expires_on = match sent.form.filled("expires_on") {
        None => None,
        Some(text) => match text.trim().parse::<Date>() {
            Ok(date) => Some(date),
            Err(_) => {
                let details = Details::one("expires_on", "must be a date YYYY-MM-DD");
                let error = Error::Validation(details);
                return refuse(&sent, Here::default(), "token", error).await;
            }
        },
    };
    let csrf = sent.owner.session.csrf_token.clone();
    let name = sent.form.text("name");
    let made = blocking(&sent.owner.state, move |org| {
        let expires_at = expires_on.map(|d| org.zone().start_of(d));
        Account::new(&org.as_session(csrf)).create_token(&name, expires_at)
    })
    .await;
    match refused(made)? {
        Ok(made) => {
            let made = Made {
                name: made.token.name,
                secret: made.secret,
            };
            again(&sent, Here { made: Some(made) }).await
        }
        Err(e) => refuse(&sent, Here::default(), "token", on_the_day(e)).await,
    }
}

/// The revoke button's form.
pub(crate) async fn revoke(Path(id): Path<String>, sent: Sent) -> Result<Response, Refusal> {
    let id: u64 = id.parse().map_err(|_| Refusal::Core(Error::NotFound))?;
    run(&sent, move |door| Account::new(door).revoke_token(id)).await?;
    Ok(Here::done("revoked"))
}
