//! The editor's completion (`GET /notes/suggestions?kind=&q=`): after
//! `@` the people the search finds for what follows (it forgives typos),
//! after `^` the projects, after `#` the tags whose name begins with it;
//! at most eight, as a fragment of HTML options `notes.js` shows under the
//! editor, each carrying the text it puts in place of what was typed.

use askama::Template;
use axum::extract::Query;
use axum::response::Response;
use organiser_core::list::every;
use organiser_core::search::{SearchQuery, SearchType};
use organiser_core::tags::TagQuery;
use serde::Deserialize;

use super::super::forms::SignedIn;
use super::super::{Refusal, blocking, render};

/// The most suggestions shown.
const MOST: usize = 8;

/// One suggestion.
struct Suggestion {
    /// What the option says.
    label: String,
    /// Under it (a person's job, a project's status).
    subtitle: String,
    /// What replaces the typed `@word`.
    insert: String,
}

/// The options.
#[derive(Template)]
#[template(path = "note_suggestions.html")]
struct Suggestions {
    items: Vec<Suggestion>,
}

/// `?kind=person|project|tag&q=`.
#[derive(Debug, Default, Deserialize)]
pub(super) struct SuggestQuery {
    #[serde(default)]
    kind: String,
    #[serde(default)]
    q: String,
}

/// `GET /notes/suggestions`.
pub(super) async fn suggestions(
    Query(q): Query<SuggestQuery>,
    owner: SignedIn,
) -> Result<Response, Refusal> {
    let typed: String = q.q.trim().chars().take(100).collect();
    let items = blocking(&owner.state, move |org| {
        let found = match q.kind.as_str() {
            "person" | "project" if !typed.is_empty() => {
                let (kind, sigil) = if q.kind == "person" {
                    (SearchType::Person, '@')
                } else {
                    (SearchType::Project, '^')
                };
                let query = SearchQuery {
                    q: typed,
                    types: vec![kind],
                    limit: MOST,
                };
                org.search()
                    .find(&query)?
                    .into_iter()
                    .flat_map(|g| g.results)
                    .map(|r| Suggestion {
                        insert: format!("{sigil}{}", r.title),
                        label: r.title,
                        subtitle: r.subtitle,
                    })
                    .collect()
            }
            "tag" => {
                let start = typed.to_lowercase();
                every(|params| org.tags().list(&TagQuery { params }))?
                    .into_iter()
                    .filter(|t| t.name.to_lowercase().starts_with(&start))
                    .take(MOST)
                    .map(|t| Suggestion {
                        label: format!("#{}", t.name),
                        subtitle: String::new(),
                        insert: format!("#{}", t.name),
                    })
                    .collect()
            }
            _ => Vec::new(),
        };
        Ok(found)
    })
    .await?;
    Ok(render(&Suggestions { items }))
}
