//! The task lists' pages (EXTENSIONS.md §6, "Pages": lists): `/lists`
//! (the Inbox and every list with its open tasks counted, and a form to
//! make one) and each list at `/lists/{id}` (its open tasks or its
//! logbook, quick add into it, rename and delete, with the restore of a
//! delete offered for the core's 20 seconds). Each a form that works
//! without script; a list's page is a page of tasks (`web::tasks`).

use askama::Template;
use axum::Router;
use axum::extract::{Path, Query};
use axum::response::Response;
use axum::routing::{get, post};
use organiser_core::Id;
use organiser_core::task_lists::{TaskList, TaskListInput};
use organiser_core::tasks::TaskCountsQuery;
use serde::Deserialize;

use super::forms::{
    FieldErrors, NameForm, PlainForm, SignedForm, SignedIn, answer, every_list, invalid, record_id,
};
use super::tasks::{Body, PageQuery, Quick, Source, page_counts, read_body};
use super::{Chrome, Refusal, blocking, see_other};
use crate::AppState;

/// This part's routes.
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/lists", get(lists).post(create))
        .route("/lists/{id}", get(list).post(rename))
        .route("/lists/{id}/delete", post(delete))
        .route("/lists/{id}/restoration", post(restore))
}

/// A list as `/lists` shows it.
struct ListRow {
    id: Id,
    name: String,
    open: u64,
}

/// `/lists`.
#[derive(Template)]
#[template(path = "lists.html")]
struct ListsPage<'a> {
    chrome: Chrome<'a>,
    inbox: u64,
    lists: Vec<ListRow>,
    /// The new list's name as typed, and why it was refused.
    name: String,
    error: Option<String>,
    /// A list just deleted, to restore.
    deleted: Option<Id>,
}

/// `GET /lists?deleted=`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct ListsQuery {
    deleted: Option<String>,
}

/// Draws `/lists`: the Inbox and every list with its open tasks counted;
/// `name` the new list's name as typed, `error` why it was refused (422),
/// `deleted` a list just deleted, to restore.
async fn draw_lists(
    owner: &SignedIn,
    name: String,
    error: Option<String>,
    deleted: Option<Id>,
) -> Result<Response, Refusal> {
    let (lists, counts) = blocking(&owner.state, |org| {
        Ok((
            every_list(org)?,
            org.tasks().counts(&TaskCountsQuery::default())?,
        ))
    })
    .await?;
    let rows = lists
        .into_iter()
        .map(|l| ListRow {
            open: counts
                .task_lists
                .iter()
                .find(|c| c.id == l.id)
                .map_or(0, |c| c.open),
            id: l.id,
            name: l.name,
        })
        .collect();
    let refused = error.is_some();
    let page = ListsPage {
        chrome: owner.session.chrome("lists"),
        inbox: counts.inbox,
        lists: rows,
        name,
        error,
        deleted,
    };
    Ok(answer(&page, refused))
}

/// `GET /lists`.
async fn lists(Query(q): Query<ListsQuery>, owner: SignedIn) -> Result<Response, Refusal> {
    let deleted = q.deleted.as_deref().and_then(Id::parse);
    draw_lists(&owner, String::new(), None, deleted).await
}

/// `name` as the core's input of a list.
fn named(name: String) -> TaskListInput {
    TaskListInput {
        name: Some(name),
        ..TaskListInput::default()
    }
}

/// `POST /lists`: makes a list; 303 to it, or the page again (422).
async fn create(sent: SignedForm<NameForm>) -> Result<Response, Refusal> {
    let input = named(sent.form.name.clone());
    let made = blocking(&sent.owner.state, move |org| org.task_lists().create(input)).await;
    match invalid(made)? {
        Ok(list) => Ok(see_other(&format!("/lists/{}", list.id))),
        Err(details) => {
            let why = Some(FieldErrors::said(&details));
            draw_lists(&sent.owner, sent.form.name, why, None).await
        }
    }
}

/// A list's page: its tasks (`list.html` extends `tasks.html`).
#[derive(Template)]
#[template(path = "list.html")]
struct ListPage<'a> {
    chrome: Chrome<'a>,
    body: Body,
    list: TaskList,
    /// Its logbook rather than its open tasks.
    closed: bool,
    /// The name typed to rename it, and why it was refused.
    rename: String,
    rename_error: Option<String>,
}

/// Draws list `id`'s page; `quick` is the quick-add box (as typed when
/// it was refused), `rename` a refused rename (the name typed, why).
pub(super) async fn list_page(
    owner: &SignedIn,
    id: Id,
    closed: bool,
    q: PageQuery,
    mut quick: Quick,
    rename: Option<(String, String)>,
) -> Result<Response, Refusal> {
    let (list, read) = blocking(&owner.state, move |org| {
        let list = org.task_lists().get(id)?;
        let read = read_body(org, Source::List { id, closed }, &q)?;
        Ok((list, read))
    })
    .await?;
    let here = if closed {
        format!("/lists/{id}?show=done")
    } else {
        format!("/lists/{id}")
    };
    let counts = page_counts(&read.counts, false, false);
    quick.task_list_id = Some(id);
    let refused = rename.is_some() || quick.error.is_some();
    let (rename, rename_error) = match rename {
        Some((typed, why)) => (typed, Some(why)),
        None => (list.name.clone(), None),
    };
    let empty = if closed {
        "Nothing done in this list yet."
    } else {
        "Nothing to do in this list."
    };
    let body = Body {
        counts,
        ..read.body(here, list.name.clone(), empty.into(), quick)
    };
    let page = ListPage {
        chrome: owner.session.chrome("lists"),
        body,
        list,
        closed,
        rename,
        rename_error,
    };
    Ok(answer(&page, refused))
}

/// `GET /lists/{id}?show=done`.
async fn list(
    Path(id): Path<String>,
    Query(q): Query<PageQuery>,
    owner: SignedIn,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let closed = q.show.as_deref() == Some("done");
    list_page(&owner, id, closed, q, Quick::default(), None).await
}

/// `POST /lists/{id}`: renames it; 303 to it, or its page again (422).
async fn rename(Path(id): Path<String>, sent: SignedForm<NameForm>) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let input = named(sent.form.name.clone());
    let changed = blocking(&sent.owner.state, move |org| {
        org.task_lists().change(id, input)
    })
    .await;
    match invalid(changed)? {
        Ok(_) => Ok(see_other(&format!("/lists/{id}"))),
        Err(details) => {
            let rename = Some((sent.form.name, FieldErrors::said(&details)));
            let (q, quick) = (PageQuery::default(), Quick::default());
            list_page(&sent.owner, id, false, q, quick, rename).await
        }
    }
}

/// `POST /lists/{id}/delete`: deletes it with its tasks; 303 to `/lists`,
/// which offers the restore.
async fn delete(Path(id): Path<String>, sent: SignedForm<PlainForm>) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    blocking(&sent.owner.state, move |org| org.task_lists().delete(id)).await?;
    Ok(see_other(&format!("/lists?deleted={id}")))
}

/// `POST /lists/{id}/restoration`: the undo of a delete (within the
/// core's 20 seconds), with its tasks; 303 to the list.
async fn restore(Path(id): Path<String>, sent: SignedForm<PlainForm>) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    blocking(&sent.owner.state, move |org| org.task_lists().restore(id)).await?;
    Ok(see_other(&format!("/lists/{id}")))
}
