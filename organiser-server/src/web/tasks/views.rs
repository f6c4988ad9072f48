//! Today and the views (EXTENSIONS.md §6): today at `/` (the today queue
//! with its counts), the Inbox and every view at `/tasks?view=`, quick
//! add (the core's [`read_quick_add`]: the CLI's date and repeat words),
//! and completing a task and undoing it, each a form that works without
//! script.

use askama::Template;
use axum::extract::{Path, Query};
use axum::response::Response;
use organiser_core::tasks::{TaskInput, TaskStatus, View, read_quick_add};
use organiser_core::{Error, Field, Id};
use serde::Deserialize;

use super::body::{Body, PageQuery, Quick, Source, ViewLink, page_counts, read_body};
use crate::web::forms::{
    FieldErrors, SignedForm, SignedIn, Token, answer, back, invalid, record_id, with_param,
    without_notes,
};
use crate::web::{Chrome, Refusal, blocking, see_other};

/// The views `/tasks` offers: the API's name (`inbox` is the Inbox, a
/// home rather than a view), the heading, and what the page says when it
/// has no task.
const VIEWS: [(&str, &str, &str); 9] = [
    (
        "overview",
        "Inbox and due soon",
        "Nothing in the Inbox, nothing due soon.",
    ),
    ("inbox", "Inbox", "The Inbox is empty."),
    ("today_queue", "Today", "Nothing left for today."),
    ("today", "Started", "Nothing started."),
    ("due_soon", "Due soon", "Nothing due in the next 14 days."),
    (
        "due_not_today",
        "Due soon, not started",
        "Nothing due soon that is not started.",
    ),
    ("planned", "Planned", "Nothing planned."),
    ("one_day", "One day", "Nothing for one day."),
    ("logbook", "Logbook", "Nothing done yet."),
];

/// A page of tasks: today, or a view.
#[derive(Template)]
#[template(path = "tasks.html")]
struct TasksPage<'a> {
    chrome: Chrome<'a>,
    body: Body,
}

/// The page for `view` (`None`: today at `/`), with the quick-add box
/// `quick` (422 when it says why what was typed was refused).
async fn view_page(
    owner: &SignedIn,
    name: Option<&'static str>,
    q: PageQuery,
    quick: Quick,
) -> Result<Response, Refusal> {
    let (source, here) = match name {
        None => (Source::View(View::TodayQueue), "/".to_owned()),
        Some("inbox") => (Source::Inbox, "/tasks?view=inbox".to_owned()),
        Some(name) => (
            Source::View(View::parse(name).ok_or(Refusal::Core(Error::NotFound))?),
            format!("/tasks?view={name}"),
        ),
    };
    let read = blocking(&owner.state, move |org| read_body(org, source, &q)).await?;
    let counts = &read.counts;
    let (heading, empty) = match name {
        None => ("Today", "Nothing left for today."),
        Some(name) => VIEWS
            .iter()
            .find(|(n, _, _)| *n == name)
            .map(|(_, h, e)| (*h, *e))
            .unwrap_or((name, "")),
    };
    let mut line = vec![
        format!("{} today", counts.today),
        format!("{} overdue", counts.overdue),
        format!("{} due soon", counts.due_soon),
        format!("{} in the Inbox", counts.inbox),
    ];
    if name.is_some() {
        line = page_counts(counts, name == Some("logbook"), true);
        if line.is_empty() {
            line.push(format!("{} overdue", counts.overdue));
        }
    }
    let views = match name {
        None => Vec::new(),
        Some(current) => VIEWS
            .iter()
            .map(|(n, label, _)| ViewLink {
                name: n,
                label,
                count: match *n {
                    "inbox" => Some(counts.inbox),
                    "today" => Some(counts.today),
                    "due_soon" => Some(counts.due_soon),
                    _ => None,
                },
                current: *n == current,
            })
            .collect(),
    };
    let refused = quick.error.is_some();
    let body = Body {
        views,
        counts: line,
        ..read.body(here, heading.to_owned(), empty.to_owned(), quick)
    };
    let page = TasksPage {
        chrome: owner
            .session
            .chrome(if name.is_none() { "today" } else { "tasks" }),
        body,
    };
    Ok(answer(&page, refused))
}

/// `GET /`: today.
pub(crate) async fn today(
    Query(q): Query<PageQuery>,
    owner: SignedIn,
) -> Result<Response, Refusal> {
    view_page(&owner, None, q, Quick::default()).await
}

/// The view `name` names (`overview` when none), by its static name.
fn view_named(name: Option<&str>) -> Result<&'static str, Refusal> {
    match name {
        None | Some("") => Ok("overview"),
        Some(name) => VIEWS
            .iter()
            .map(|(n, _, _)| *n)
            .find(|n| *n == name)
            .ok_or(Refusal::Core(Error::NotFound)),
    }
}

/// `GET /tasks?view=`: a view (the Inbox and what is due soon by
/// default).
pub(crate) async fn list(Query(q): Query<PageQuery>, owner: SignedIn) -> Result<Response, Refusal> {
    let name = view_named(q.view.as_deref())?;
    view_page(&owner, Some(name), q, Quick::default()).await
}

/// A form that acts on a task and comes back to the page it was on.
#[derive(Debug, Deserialize)]
pub(crate) struct TaskForm {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    back: String,
    /// Quick add into this list (none: the Inbox).
    #[serde(default)]
    task_list_id: String,
}

impl Token for TaskForm {
    fn csrf_token(&self) -> &str {
        &self.csrf_token
    }
}

/// The page a quick add came from, drawn again with what was typed and
/// why it was refused (422).
async fn quick_refused(owner: &SignedIn, from: &str, quick: Quick) -> Result<Response, Refusal> {
    let (path, query) = from.split_once('?').unwrap_or((from, ""));
    let view = query
        .split('&')
        .find_map(|p| p.strip_prefix("view="))
        .map(str::to_owned);
    if let Some(id) = path.strip_prefix("/lists/").and_then(Id::parse) {
        let q = PageQuery::default();
        crate::web::lists::list_page(owner, id, false, q, quick, None).await
    } else if path == "/" {
        view_page(owner, None, PageQuery::default(), quick).await
    } else {
        let name = view_named(view.as_deref()).unwrap_or("overview");
        view_page(owner, Some(name), PageQuery::default(), quick).await
    }
}

/// `POST /tasks`: quick add (the core's [`read_quick_add`]), into the
/// Inbox or the form's list; 303 back, or the page again (422) with why
/// not beside the box.
pub(crate) async fn quick_add(sent: SignedForm<TaskForm>) -> Result<Response, Refusal> {
    let form = sent.form;
    let text = form.title.clone();
    let list = Id::parse(form.task_list_id.trim());
    let made = blocking(&sent.owner.state, move |org| {
        let mut input = read_quick_add(&text, org.today(), org.zone().time_zone())?;
        if let Some(list) = list {
            input.task_list_id = Field::Value(list);
        }
        org.tasks().create(input)
    })
    .await;
    match invalid(made)? {
        Ok(_) => Ok(see_other(back(&form.back))),
        Err(details) => {
            let quick = Quick {
                value: form.title,
                error: Some(FieldErrors::said(&details)),
                task_list_id: list,
            };
            quick_refused(&sent.owner, back(&form.back), quick).await
        }
    }
}

/// Sets the status of task `id` to `status`; 303 back to the form's
/// page, which offers the undo of a completion.
async fn set_status(
    sent: SignedForm<TaskForm>,
    id: &str,
    status: TaskStatus,
) -> Result<Response, Refusal> {
    let id = record_id(id)?;
    blocking(&sent.owner.state, move |org| {
        org.tasks().change(
            id,
            TaskInput {
                status: Some(status),
                ..TaskInput::default()
            },
        )
    })
    .await?;
    let to = back(&sent.form.back);
    if status == TaskStatus::Completed && !to.starts_with("/tasks/") {
        return Ok(see_other(&with_param(
            &without_notes(to),
            "done",
            &id.to_string(),
        )));
    }
    Ok(see_other(&without_notes(to)))
}

/// `POST /tasks/{id}/complete`: 303 back, with the undo offered.
pub(crate) async fn complete(
    Path(id): Path<String>,
    sent: SignedForm<TaskForm>,
) -> Result<Response, Refusal> {
    set_status(sent, &id, TaskStatus::Completed).await
}

/// `POST /tasks/{id}/reopen`: the undo of a completion.
pub(crate) async fn reopen(
    Path(id): Path<String>,
    sent: SignedForm<TaskForm>,
) -> Result<Response, Refusal> {
    set_status(sent, &id, TaskStatus::Open).await
}
