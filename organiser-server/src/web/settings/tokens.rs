//! API tokens: the tokens with when each was made and last used, a new
//! one (its secret shown once, in the answer to the form that made it),
//! and revoking one.

use askama::Template;
use axum::Form;
use axum::extract::{Path, Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use jiff::civil::Date;
use organiser_core::account::Account;
use organiser_core::{Details, Error};

use super::{Done, Frame, Posted, Refused, answer, done, refused, when, when_or};
use crate::AppState;
use crate::web::{Chrome, Refusal, Signed, blocking, signed, signed_form};

const HERE: &str = "/settings/tokens";

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

#[derive(Template)]
#[template(path = "settings_tokens.html")]
struct TokensPage<'a> {
    chrome: Chrome<'a>,
    frame: Frame,
    tokens: Vec<Row>,
    made: Option<Made>,
}

async fn page(
    state: &AppState,
    session: &Signed,
    notice: Option<&'static str>,
    refused: Refused,
    made: Option<Made>,
) -> Result<Response, Refusal> {
    let csrf = session.csrf_token.clone();
    let tokens = blocking(state, move |org| {
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
        chrome: session.chrome("settings"),
        frame: Frame::new("tokens", notice, refused),
        tokens,
        made,
    };
    Ok(answer(&page, &page.frame.refused))
}

/// `GET /settings/tokens`.
pub(crate) async fn show(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<Done>,
) -> Result<Response, Refusal> {
    let session = signed(&state, &headers).await?;
    page(&state, &session, q.notice(), Refused::none(), None).await
}

/// `POST /settings/tokens`: a new token named `name`, working until the
/// start of `expires_on` in the owner's zone (or for good): answered with
/// the page and its secret, the one time it is shown.
pub(crate) async fn create(
    State(state): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
    let expires_on = match form.filled("expires_on") {
        None => None,
        Some(text) => match text.trim().parse::<Date>() {
            Ok(date) => Some(date),
            Err(_) => {
                let details = Details::one("expires_on", "must be a date YYYY-MM-DD");
                let refusal = Refused::read("token", &form, details);
                return page(&state, &session, None, refusal, None).await;
            }
        },
    };
    let csrf = session.csrf_token.clone();
    let name = form.text("name");
    let result = blocking(&state, move |org| {
        let expires_at = expires_on.map(|d| org.zone().start_of(d));
        Account::new(&org.as_session(csrf)).create_token(&name, expires_at)
    })
    .await;
    match refused(result)? {
        Ok(made) => {
            let made = Made {
                name: made.token.name,
                secret: made.secret,
            };
            page(&state, &session, None, Refused::none(), Some(made)).await
        }
        Err(Error::Validation(mut details)) => {
            // The core names the instant; the form asks for a day.
            if details.has("expires_at") {
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
                details = moved;
            }
            let refusal = Refused::read("token", &form, details);
            page(&state, &session, None, refusal, None).await
        }
        Err(e) => page(&state, &session, None, Refused::of("token", &form, e), None).await,
    }
}

/// The revoke button's form.
pub(crate) async fn revoke(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
    let id: u64 = id.parse().map_err(|_| Refusal::Core(Error::NotFound))?;
    let csrf = session.csrf_token.clone();
    blocking(&state, move |org| {
        Account::new(&org.as_session(csrf)).revoke_token(id)
    })
    .await?;
    Ok(done(HERE, "revoked"))
}
