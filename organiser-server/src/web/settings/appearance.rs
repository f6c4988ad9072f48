//! Appearance: the theme (light, dark, or as the system is set), the
//! accent colour and the code blocks' theme; every page is drawn in them.

use askama::Template;
use axum::extract::Query;
use axum::response::Response;
use organiser_core::account::{Accent, Account, Appearance, AppearanceChange, CodeTheme, Theme};

use super::{Done, Frame, Sent, SettingsPage, act, show_page};
use crate::web::forms::{SignedIn, answer};
use crate::web::{Chrome, Refusal, blocking};

/// A choice of a fieldset: its word and label.
struct Choice {
    word: &'static str,
    label: String,
}

/// `words` as choices, each labelled with its word.
fn choices(words: impl Iterator<Item = &'static str>) -> Vec<Choice> {
    words
        .map(|word| Choice {
            word,
            label: super::form::capitalise(word),
        })
        .collect()
}

/// The appearance's page (`settings_appearance.html`).
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

/// The appearance's page: the appearance as it is, and the choices.
struct Here;

impl SettingsPage for Here {
    const NAME: &'static str = "appearance";

    async fn draw(self, owner: &SignedIn, frame: Frame) -> Result<Response, Refusal> {
        let appearance = blocking(&owner.state, |org| org.account().appearance()).await?;
        let page = AppearancePage {
            chrome: owner.session.chrome("settings"),
            frame,
            appearance,
            themes: choices(Theme::ALL.iter().map(|t| t.as_str())),
            accents: choices(Accent::ALL.iter().map(|a| a.as_str())),
            code_themes: choices(CodeTheme::ALL.iter().map(|c| c.as_str())),
        };
        Ok(answer(&page, page.frame.refused.is_refused()))
    }
}

/// `GET /settings/appearance`.
pub(crate) async fn show(Query(done): Query<Done>, owner: SignedIn) -> Result<Response, Refusal> {
    show_page(owner, Here, done).await
}

/// `POST /settings/appearance`: what the form sends of the theme, the
/// accent and the code theme.
pub(crate) async fn change(sent: Sent) -> Result<Response, Refusal> {
    let change = AppearanceChange {
        theme: sent.form.one("theme").map(str::to_owned),
        accent: sent.form.one("accent").map(str::to_owned),
        code_theme: sent.form.one("code_theme").map(str::to_owned),
    };
    act(&sent, Here, "appearance", "saved", move |door| {
        Account::new(door).change_appearance(change)
    })
    .await
}
