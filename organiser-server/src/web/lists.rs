//! The task lists' pages (EXTENSIONS.md §6): `/lists` (the Inbox and
//! every list with its open tasks counted, and a form to make one) and
//! each list at `/lists/{id}` (its open tasks or its logbook, quick add
//! into it, rename and delete, with the restore of a delete offered for
//! the core's 20 seconds). Each a form that works without script.

use askama::Template;
use axum::Form;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use organiser_core::task_lists::{TaskList, TaskListInput, TaskListQuery};
use organiser_core::tasks::TaskCountsQuery;
use organiser_core::{Error, Id, ListParams};
use serde::Deserialize;

use super::tasks::{Body, FieldErrors, PageQuery, Quick, Source, read_body, with_param};
use super::{Refusal, Signed, blocking, render, see_other, signed, signed_form};
use crate::AppState;

/// This part's routes, and those of a task's own page (`web::tasks`).
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
    chrome: super::Chrome<'a>,
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

/// Every live list, in order.
fn every_list(org: &organiser_core::Organiser) -> Result<Vec<TaskList>, Error> {
    let mut out = Vec::new();
    let mut cursor = None;
    loop {
        let page = org.task_lists().list(&TaskListQuery {
            params: ListParams {
                cursor,
                limit: 100,
                ..ListParams::default()
            },
        })?;
        out.extend(page.items);
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => return Ok(out),
        }
    }
}

async fn draw_lists(
    state: &AppState,
    session: &Signed,
    name: String,
    error: Option<String>,
    deleted: Option<Id>,
) -> Result<Response, Refusal> {
    let (lists, counts) = blocking(state, |org| {
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
    let status = if error.is_some() {
        StatusCode::UNPROCESSABLE_ENTITY
    } else {
        StatusCode::OK
    };
    let mut response = render(&ListsPage {
        chrome: session.chrome("lists"),
        inbox: counts.inbox,
        lists: rows,
        name,
        error,
        deleted,
    });
    *response.status_mut() = status;
    Ok(response)
}

/// `GET /lists`.
async fn lists(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<ListsQuery>,
) -> Result<Response, Refusal> {
    let session = signed(&state, &headers).await?;
    let deleted = q.deleted.as_deref().and_then(Id::parse);
    draw_lists(&state, &session, String::new(), None, deleted).await
}

/// A list's name, from the form to make or rename one.
#[derive(Debug, Deserialize)]
pub(crate) struct NameForm {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    name: String,
}

/// The error sentences of a refused name.
fn name_errors(details: &organiser_core::Details) -> String {
    FieldErrors::from_details(details, &[]).all().join(" ")
}

/// `POST /lists`: makes a list; 303 to it, or the page again (422).
async fn create(
    State(state): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<NameForm>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, &form.csrf_token).await?;
    let name = form.name.clone();
    let made = blocking(&state, move |org| {
        org.task_lists().create(TaskListInput {
            name: Some(name),
            ..TaskListInput::default()
        })
    })
    .await;
    match made {
        Ok(list) => Ok(see_other(&format!("/lists/{}", list.id))),
        Err(Refusal::Core(Error::Validation(details))) => {
            draw_lists(
                &state,
                &session,
                form.name,
                Some(name_errors(&details)),
                None,
            )
            .await
        }
        Err(e) => Err(e),
    }
}

/// A list's page: its tasks (`list.html` extends `tasks.html`).
#[derive(Template)]
#[template(path = "list.html")]
struct ListPage<'a> {
    chrome: super::Chrome<'a>,
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
    state: &AppState,
    session: &Signed,
    id: Id,
    closed: bool,
    q: PageQuery,
    mut quick: Quick,
    rename: Option<(String, String)>,
) -> Result<Response, Refusal> {
    let (list, read) = blocking(state, move |org| {
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
    let mut counts = Vec::new();
    if let Some(page) = &read.counts.page {
        counts.push(format!("{} open", page.open));
        if page.overdue > 0 {
            counts.push(format!("{} overdue", page.overdue));
        }
        counts.push(format!("{} completed", page.completed));
    }
    quick.task_list_id = Some(id);
    let refused = rename.is_some() || quick.error.is_some();
    let (rename, rename_error) = match rename {
        Some((typed, why)) => (typed, Some(why)),
        None => (list.name.clone(), None),
    };
    let body = Body {
        heading: list.name.clone(),
        more: read.next.map(|c| with_param(&here, "cursor", &c)),
        here,
        today: read.today,
        views: Vec::new(),
        counts,
        quick,
        tasks: read.tasks,
        empty: if closed {
            "Nothing done in this list yet.".into()
        } else {
            "Nothing to do in this list.".into()
        },
        done: read.done,
        deleted: read.deleted,
    };
    let mut response = render(&ListPage {
        chrome: session.chrome("lists"),
        body,
        list,
        closed,
        rename,
        rename_error,
    });
    if refused {
        *response.status_mut() = StatusCode::UNPROCESSABLE_ENTITY;
    }
    Ok(response)
}

fn list_id(id: &str) -> Result<Id, Refusal> {
    Id::parse(id).ok_or(Refusal::Core(Error::NotFound))
}

/// `GET /lists/{id}?show=done`.
async fn list(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(q): Query<PageQuery>,
) -> Result<Response, Refusal> {
    let session = signed(&state, &headers).await?;
    let id = list_id(&id)?;
    let closed = q.show.as_deref() == Some("done");
    list_page(&state, &session, id, closed, q, Quick::default(), None).await
}

/// `POST /lists/{id}`: renames it; 303 to it, or its page again (422).
async fn rename(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<NameForm>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, &form.csrf_token).await?;
    let id = list_id(&id)?;
    let name = form.name.clone();
    let changed = blocking(&state, move |org| {
        org.task_lists().change(
            id,
            TaskListInput {
                name: Some(name),
                ..TaskListInput::default()
            },
        )
    })
    .await;
    match changed {
        Ok(_) => Ok(see_other(&format!("/lists/{id}"))),
        Err(Refusal::Core(Error::Validation(details))) => {
            let why = name_errors(&details);
            list_page(
                &state,
                &session,
                id,
                false,
                PageQuery::default(),
                Quick::default(),
                Some((form.name, why)),
            )
            .await
        }
        Err(e) => Err(e),
    }
}

/// A form with only its token.
#[derive(Debug, Deserialize)]
pub(crate) struct TokenForm {
    #[serde(default)]
    csrf_token: String,
}

/// `POST /lists/{id}/delete`: deletes it with its tasks; 303 to `/lists`,
/// which offers the restore.
async fn delete(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<TokenForm>,
) -> Result<Response, Refusal> {
    signed_form(&state, &headers, &form.csrf_token).await?;
    let id = list_id(&id)?;
    blocking(&state, move |org| org.task_lists().delete(id)).await?;
    Ok(see_other(&format!("/lists?deleted={id}")))
}

/// `POST /lists/{id}/restoration`: the undo of a delete (within the
/// core's 20 seconds), with its tasks; 303 to the list.
async fn restore(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<TokenForm>,
) -> Result<Response, Refusal> {
    signed_form(&state, &headers, &form.csrf_token).await?;
    let id = list_id(&id)?;
    blocking(&state, move |org| org.task_lists().restore(id)).await?;
    Ok(see_other(&format!("/lists/{id}")))
}
