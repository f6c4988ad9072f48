//! Search as you type (EXTENSIONS.md §6): `/search?q=`, the core's search
//! across every type it finds (people, projects, notes, tasks, documents,
//! lists, folders), misspellings forgiven, each group best first and
//! each result a link to its page. A plain `GET` form; the script asks
//! for the same page as the words are typed and puts its results in
//! place.

use askama::Template;
use axum::Router;
use axum::extract::{Query, State};
use axum::http::HeaderMap;
use axum::response::Response;
use axum::routing::get;
use organiser_core::search::{SearchGroup, SearchQuery, SearchType};
use serde::Deserialize;

use super::{Chrome, Refusal, blocking, render, signed};
use crate::AppState;

/// This part's routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new().route("/search", get(search))
}

/// Results of each type a search finds.
const PER_TYPE: usize = 8;

#[derive(Template)]
#[template(path = "search.html")]
struct SearchPage<'a> {
    chrome: Chrome<'a>,
    q: &'a str,
    groups: Vec<Group<'a>>,
}

/// One type's results as the page shows them.
struct Group<'a> {
    heading: &'static str,
    results: Vec<Found<'a>>,
    has_more: bool,
}

/// One result: its title, what tells it apart, and its page.
struct Found<'a> {
    title: &'a str,
    subtitle: &'a str,
    href: String,
}

/// A type's heading and the address of its records' pages.
fn shown(kind: SearchType) -> (&'static str, &'static str) {
    match kind {
        SearchType::Person => ("People", "/people/"),
        SearchType::Project => ("Projects", "/projects/"),
        SearchType::Note => ("Notes", "/notes/"),
        SearchType::Task => ("Tasks", "/tasks/"),
        SearchType::Document => ("Documents", "/documents/"),
        SearchType::TaskList => ("Lists", "/lists/"),
        SearchType::Folder => ("Folders", "/documents?folder="),
    }
}

/// `GET /search?q=`.
#[derive(Debug, Deserialize)]
pub(crate) struct SearchParams {
    #[serde(default)]
    q: String,
}

/// `GET /search`: the form, and with `q` the results.
pub(crate) async fn search(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(params): Query<SearchParams>,
) -> Result<Response, Refusal> {
    let session = signed(&state, &headers).await?;
    let q = params.q.clone();
    let found: Vec<SearchGroup> = blocking(&state, move |org| {
        org.search().find(&SearchQuery {
            q,
            limit: PER_TYPE,
            ..SearchQuery::default()
        })
    })
    .await?;
    let groups = found
        .iter()
        .filter(|g| !g.results.is_empty())
        .map(|g| {
            let (heading, base) = shown(g.kind);
            Group {
                heading,
                has_more: g.has_more,
                results: g
                    .results
                    .iter()
                    .map(|r| Found {
                        title: &r.title,
                        subtitle: &r.subtitle,
                        href: format!("{base}{}", r.id),
                    })
                    .collect(),
            }
        })
        .collect();
    Ok(render(&SearchPage {
        chrome: session.chrome("search"),
        q: &params.q,
        groups,
    }))
}
