//! Appearance: the theme (light, dark, or as the system is set), the
//! accent colour and the code blocks' theme; every page is drawn in them.

use askama::Template;
use axum::Form;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use organiser_core::account::{Accent, Account, Appearance, AppearanceChange, CodeTheme, Theme};

use super::{Done, Frame, Posted, Refused, answer, done, refused};
use crate::AppState;
use crate::web::{Chrome, Refusal, Signed, blocking, signed, signed_form};

const HERE: &str = "/settings/appearance";

/// A choice of a fieldset: its word and label.
struct Choice {
    word: &'static str,
    label: String,
}

fn choices(words: impl Iterator<Item = &'static str>) -> Vec<Choice> {
    words
        .map(|word| Choice {
            word,
            label: super::capitalise(word),
        })
        .collect()
}

#[derive(Template)]
#[template(path = "settings_appearance.html")]
struct AppearancePage<'a> {
    chrome: Chrome<'a>,
    frame: Frame,
    appearance: Appearance,
    themes: Vec<Choice>,
    accents: Vec<Choice>,
    code_themes: Vec<Choice>,
}

async fn page(
    state: &AppState,
    session: &Signed,
    notice: Option<&'static str>,
    refused: Refused,
) -> Result<Response, Refusal> {
    let appearance = blocking(state, |org| org.account().appearance()).await?;
    let page = AppearancePage {
        chrome: session.chrome("settings"),
        frame: Frame::new("appearance", notice, refused),
        appearance,
        themes: choices(Theme::ALL.iter().map(|t| t.as_str())),
        accents: choices(Accent::ALL.iter().map(|a| a.as_str())),
        code_themes: choices(CodeTheme::ALL.iter().map(|c| c.as_str())),
    };
    Ok(answer(&page, &page.frame.refused))
}

/// `GET /settings/appearance`.
pub(crate) async fn show(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<Done>,
) -> Result<Response, Refusal> {
    let session = signed(&state, &headers).await?;
    page(&state, &session, q.notice(), Refused::none()).await
}

/// `POST /settings/appearance`: what the form sends of the theme, the
/// accent and the code theme.
pub(crate) async fn change(
    State(state): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<Posted>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, form.csrf()).await?;
    let csrf = session.csrf_token.clone();
    let change = AppearanceChange {
        theme: form.one("theme").map(str::to_owned),
        accent: form.one("accent").map(str::to_owned),
        code_theme: form.one("code_theme").map(str::to_owned),
    };
    let result = blocking(&state, move |org| {
        Account::new(&org.as_session(csrf)).change_appearance(change)
    })
    .await;
    match refused(result)? {
        Ok(_) => Ok(done(HERE, "saved")),
        Err(e) => {
            let refusal = Refused::of("appearance", &form, e);
            page(&state, &session, None, refusal).await
        }
    }
}
