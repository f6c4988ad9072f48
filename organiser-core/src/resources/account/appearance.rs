//! Appearance (document 1, "Appearance"): accent, theme and code theme.

use jiff::Timestamp;
use serde::{Deserialize, Serialize};

use crate::engine::{Cx, WriteCx};
use crate::error::{Details, Result};
use crate::input::{Field, Fields, words};
use crate::resources::account::owner;
use crate::store::Tables;

words! {
    /// An accent colour.
    pub enum Accent {
        /// The default.
        Iris = "iris",
        /// Coral.
        Coral = "coral",
        /// Jade.
        Jade = "jade",
        /// Saffron.
        Saffron = "saffron",
        /// Orchid.
        Orchid = "orchid",
        /// Steel.
        Steel = "steel",
    }
}

words! {
    /// A theme (`light` is ours: the spec leaves the rest of this enum
    /// open).
    pub enum Theme {
        /// As the system is set (the default).
        System = "system",
        /// Light.
        Light = "light",
        /// Dark.
        Dark = "dark",
    }
}

words! {
    /// A theme for code blocks.
    pub enum CodeTheme {
        /// As the theme (the default).
        Match = "match",
        /// Light.
        Light = "light",
        /// Dark.
        Dark = "dark",
    }
}

/// Accent colours, the first is the default.
pub(crate) const ACCENTS: &[&str] = Accent::WORDS;
/// Themes, the first is the default.
pub(crate) const THEMES: &[&str] = Theme::WORDS;
/// Code themes, the first is the default.
pub(crate) const CODE_THEMES: &[&str] = CodeTheme::WORDS;

#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub(crate) struct AppearanceSettings {
    pub(crate) accent: String,
    pub(crate) theme: String,
    pub(crate) code_theme: String,
}

impl Default for AppearanceSettings {
    fn default() -> Self {
        AppearanceSettings {
            accent: ACCENTS[0].into(),
            theme: THEMES[0].into(),
            code_theme: CODE_THEMES[0].into(),
        }
    }
}

/// `GET /appearance`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Appearance {
    /// The accent colour.
    pub accent: Accent,
    /// The theme.
    pub theme: Theme,
    /// The code theme.
    pub code_theme: CodeTheme,
    /// When the owner record last changed.
    #[serde(with = "crate::time::serde_timestamp")]
    pub updated_at: Timestamp,
}

/// `PATCH /appearance`: only the fields sent change.
///
/// It serialises to the body it is read from (`{appearance: {...}}`
/// without the wrapper): absent fields are left out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct AppearanceChange {
    /// A new accent.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub accent: Option<String>,
    /// A new theme.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub theme: Option<String>,
    /// A new code theme.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub code_theme: Option<String>,
}

pub(crate) fn parse(f: &mut Fields<'_>) -> AppearanceChange {
    let text = |f: &mut Fields<'_>, name: &str| match f.string(name) {
        Field::Value(v) => Some(v),
        Field::Null => Some(String::new()),
        Field::Absent => None,
    };
    AppearanceChange {
        accent: text(f, "accent"),
        theme: text(f, "theme"),
        code_theme: text(f, "code_theme"),
    }
}

pub(crate) fn get<T: Tables>(cx: &Cx<'_, T>) -> Result<Appearance> {
    let owner = owner::load(cx)?;
    // Stored words this build does not know read as the default.
    let a = &owner.appearance;
    Ok(Appearance {
        accent: Accent::parse(&a.accent).unwrap_or(Accent::Iris),
        theme: Theme::parse(&a.theme).unwrap_or(Theme::System),
        code_theme: CodeTheme::parse(&a.code_theme).unwrap_or(CodeTheme::Match),
        updated_at: owner.updated_at,
    })
}

pub(crate) fn change(cx: &mut WriteCx<'_>, change: AppearanceChange) -> Result<Appearance> {
    let mut details = Details::new();
    for (name, value, choices) in [
        ("accent", &change.accent, ACCENTS),
        ("theme", &change.theme, THEMES),
        ("code_theme", &change.code_theme, CODE_THEMES),
    ] {
        if value.as_deref().is_some_and(|v| !choices.contains(&v)) {
            details.add(name, format!("must be one of {}", choices.join(", ")));
        }
    }
    details.into_validation()?;
    let mut owner = owner::load(cx)?;
    let before = owner.appearance.clone();
    let a = &mut owner.appearance;
    if let Some(v) = change.accent {
        a.accent = v;
    }
    if let Some(v) = change.theme {
        a.theme = v;
    }
    if let Some(v) = change.code_theme {
        a.code_theme = v;
    }
    if owner.appearance != before {
        owner::save(cx, &mut owner)?;
    }
    get(cx)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_change_reads_back_as_itself() {
        for change in [
            AppearanceChange::default(),
            AppearanceChange {
                accent: Some("jade".into()),
                theme: None,
                code_theme: Some("dark".into()),
            },
            AppearanceChange {
                accent: None,
                theme: Some("light".into()),
                code_theme: None,
            },
        ] {
            let body = serde_json::json!({ "appearance": change });
            let read = crate::input::parse_record(Some(&body), "appearance", parse).unwrap();
            assert_eq!(read, change);
        }
    }
}
