//! The people's pages (EXTENSIONS.md §6, "Pages": people): `/people` (the
//! people by name, a page at a time, found by the start of their name,
//! and a form to add one) and each person at `/people/{id}` (`page.rs`:
//! their key dates, contact details, links to other people, positions
//! and companies, projects, open tasks, notes, documents and next
//! meetings from the feeds, in one read of the core's person overview),
//! with a form for each change (`rows.rs`), delete and the restore of a
//! delete offered for the core's 20 seconds. Every action a plain form
//! with the session's CSRF token.

mod page;
mod photo;
mod rows;

use std::sync::OnceLock;

use askama::Template;
use axum::Router;
use axum::extract::DefaultBodyLimit;
use axum::extract::{Path, Query};
use axum::response::Response;
use axum::routing::{get, post};
use organiser_core::people::{Person, PersonInput, PersonQuery};
use organiser_core::vocabulary::{Vocabulary, vocabulary};
use organiser_core::{Id, ListParams};
use serde::Deserialize;

use super::forms::{
    FieldErrors, NameForm, PlainForm, SignedForm, SignedIn, answer, invalid, record_id, with_param,
};
use super::{Chrome, Refusal, blocking, see_other};
use crate::AppState;

/// This part's routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/people", get(people).post(create))
        .route("/people/{id}", get(page::show).post(rows::change))
        .route("/people/{id}/delete", post(delete))
        .route("/people/{id}/restoration", post(restore))
        .route(
            "/people/{id}/photo",
            post(photo::upload).layer(DefaultBodyLimit::max(photo::LIMIT)),
        )
        .route("/people/{id}/links", post(rows::link))
        .route("/people/{id}/links/{link}/delete", post(rows::unlink))
        .route("/people/{id}/rows/{array}", post(rows::add))
        .route("/people/{id}/rows/{array}/{row}/delete", post(rows::remove))
}

/// The people shown on a page of `/people`.
const PER_PAGE: usize = 50;

/// The vocabulary's lists (relationships, roles, key date kinds), read
/// once.
pub(super) fn words() -> &'static Vocabulary {
    static WORDS: OnceLock<Vocabulary> = OnceLock::new();
    WORDS.get_or_init(|| vocabulary(false))
}

/// `/people`.
#[derive(Template)]
#[template(path = "people.html")]
struct PeoplePage<'a> {
    chrome: Chrome<'a>,
    /// What the name begins with, as typed.
    q: String,
    people: Vec<Person>,
    /// How many people the listing holds.
    total: u64,
    /// The search of everything for what was typed (it forgives typos).
    search: String,
    /// The next page's address.
    next: Option<String>,
    /// The new person's name as typed, and why it was refused.
    name: String,
    error: Option<String>,
    /// A person just deleted, to restore.
    deleted: Option<Id>,
}

impl PeoplePage<'_> {
    /// What a person's row says under the name: their jobs' titles and
    /// their first email address.
    fn subtitle(&self, p: &Person) -> String {
        let mut parts: Vec<&str> = p
            .positions
            .iter()
            .filter_map(|pos| pos.title.as_deref())
            .collect();
        if let Some(e) = p.email_addresses.first() {
            parts.push(&e.address);
        }
        parts.join(" · ")
    }
}

/// `GET /people?q=&cursor=&deleted=`.
#[derive(Debug, Default, Deserialize)]
struct PeopleQuery {
    #[serde(default)]
    q: String,
    cursor: Option<String>,
    deleted: Option<String>,
}

/// Draws `/people`; `name` and `error` the refused new person.
async fn draw_people(
    owner: &SignedIn,
    q: PeopleQuery,
    name: String,
    error: Option<String>,
) -> Result<Response, Refusal> {
    let typed = q.q.trim().to_owned();
    let typed_search = typed.clone();
    let query = PersonQuery {
        q: (!typed.is_empty()).then(|| typed.clone()),
        params: ListParams {
            cursor: q.cursor.filter(|c| !c.is_empty()),
            limit: PER_PAGE,
            count: true,
            ..ListParams::default()
        },
        ..PersonQuery::default()
    };
    let found = blocking(&owner.state, move |org| org.people().list(&query)).await?;
    let next = found.next_cursor.as_deref().map(|c| {
        let base = if typed.is_empty() {
            "/people".to_owned()
        } else {
            with_param("/people", "q", &typed)
        };
        with_param(&base, "cursor", c)
    });
    let refused = error.is_some();
    let page = PeoplePage {
        chrome: owner.session.chrome("people"),
        q: q.q,
        search: if typed_search.is_empty() {
            "/search".to_owned()
        } else {
            with_param("/search", "q", &typed_search)
        },
        total: found.total_count.unwrap_or(found.items.len() as u64),
        people: found.items,
        next,
        name,
        error,
        deleted: q.deleted.as_deref().and_then(Id::parse),
    };
    Ok(answer(&page, refused))
}

/// `GET /people`.
async fn people(Query(q): Query<PeopleQuery>, owner: SignedIn) -> Result<Response, Refusal> {
    draw_people(&owner, q, String::new(), None).await
}

/// `POST /people`: makes a person; 303 to their page, or `/people`
/// again beside what was refused (422).
async fn create(sent: SignedForm<NameForm>) -> Result<Response, Refusal> {
    let input = PersonInput {
        name: Some(sent.form.name.clone()),
        ..PersonInput::default()
    };
    let made = blocking(&sent.owner.state, move |org| org.people().create(input)).await;
    match invalid(made)? {
        Ok(person) => Ok(see_other(&format!("/people/{}", person.id))),
        Err(details) => {
            let why = Some(FieldErrors::said(&details));
            draw_people(&sent.owner, PeopleQuery::default(), sent.form.name, why).await
        }
    }
}

/// `POST /people/{id}/delete`: deletes the person (with the tasks homed
/// in them); 303 to `/people`, which offers the restore.
async fn delete(Path(id): Path<String>, sent: SignedForm<PlainForm>) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    blocking(&sent.owner.state, move |org| org.people().delete(id)).await?;
    Ok(see_other(&format!("/people?deleted={id}")))
}

/// `POST /people/{id}/restoration`: the undo of a delete, within the
/// core's 20 seconds; 303 to the person.
async fn restore(Path(id): Path<String>, sent: SignedForm<PlainForm>) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    blocking(&sent.owner.state, move |org| org.people().restore(id)).await?;
    Ok(see_other(&format!("/people/{id}")))
}
