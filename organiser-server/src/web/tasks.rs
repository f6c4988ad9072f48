//! The tasks' pages (EXTENSIONS.md §6): today (the today queue with its
//! counts), the Inbox and every view, quick add (the core's
//! [`read_quick_add`]: the CLI's date and repeat words), completing a task
//! and undoing it, and a task's own page with every field in one form,
//! moving it, deleting it and restoring it; each a form that works
//! without script.
//!
//! After an action a page is answered 303 back to where the form was,
//! with `done={id}` (a completion) or `deleted={id}` (a delete) in its
//! query: the page then offers the undo (reopen, or restore within the
//! core's 20 seconds).

use askama::Template;
use axum::Form;
use axum::Router;
use axum::extract::{Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use axum::routing::{get, post};
use jiff::civil::Date;
use jiff::tz::TimeZone;
use organiser_core::documents::DocumentLinkQuery;
use organiser_core::task_lists::TaskListQuery;
use organiser_core::tasks::{
    Home, Task, TaskCounts, TaskCountsQuery, TaskInput, TaskQuery, TaskStatus, View,
    description_html, read_quick_add, read_repeat_words,
};
use organiser_core::time::read_date_words;
use organiser_core::{Details, Error, Field, Id, ListParams, Organiser};
use serde::Deserialize;

use super::{Refusal, Signed, blocking, render, see_other, signed, signed_form};
use crate::AppState;

/// The routes of a task's own page and its actions (`/`, `/tasks`, and
/// completing and reopening are in `web::routes`).
pub(crate) fn routes() -> Router<AppState> {
    Router::new()
        .route("/", get(today))
        .route("/tasks", get(list).post(quick_add))
        .route("/tasks/{id}/complete", post(complete))
        .route("/tasks/{id}/reopen", post(reopen))
        .route("/tasks/{id}", get(task_page).post(save))
        .route("/tasks/{id}/move", post(move_task))
        .route("/tasks/{id}/delete", post(delete))
        .route("/tasks/{id}/restoration", post(restore))
}

// ---------------------------------------------------------------------
// Pages of tasks: today, the Inbox and the views, and a list's page.

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

/// A view in the navigation.
pub(super) struct ViewLink {
    pub(super) name: &'static str,
    pub(super) label: &'static str,
    pub(super) count: Option<u64>,
    pub(super) current: bool,
}

/// The quick-add box: what was typed and why it was refused (a 422 keeps
/// it), and the list it adds to (none: the Inbox).
#[derive(Debug, Default)]
pub(super) struct Quick {
    pub(super) value: String,
    pub(super) error: Option<String>,
    pub(super) task_list_id: Option<Id>,
}

/// What a page of tasks shows (`tasks.html`; a list's page adds its own
/// part in `list.html`).
pub(super) struct Body {
    /// The heading.
    pub(super) heading: String,
    /// The path of the page (forms come back to it).
    pub(super) here: String,
    /// The owner's today.
    pub(super) today: Date,
    /// The views' navigation (empty: none).
    pub(super) views: Vec<ViewLink>,
    /// The counts line, each a phrase (`3 today`).
    pub(super) counts: Vec<String>,
    pub(super) quick: Quick,
    pub(super) tasks: Vec<Task>,
    /// What the page says when it has no task.
    pub(super) empty: String,
    /// The next page's address, when there is one.
    pub(super) more: Option<String>,
    /// A task just completed, to undo.
    pub(super) done: Option<Task>,
    /// A task just deleted, to restore.
    pub(super) deleted: Option<Id>,
}

impl Body {
    /// A day as the pages say it: `Thu 12 Mar`, with the year when it is
    /// not this year's.
    pub(super) fn day(&self, date: &Date) -> String {
        say_day(*date, self.today)
    }

    /// When a task starts, when that is after today.
    pub(super) fn starts(&self, task: &Task) -> Option<String> {
        task.start_on
            .filter(|d| *d > self.today)
            .map(|d| self.day(&d))
    }

    /// How a task repeats, in words.
    pub(super) fn repeats(&self, task: &Task) -> Option<String> {
        task.repeat.as_ref().map(|r| r.to_words())
    }
}

fn say_day(date: Date, today: Date) -> String {
    if date.year() == today.year() {
        date.strftime("%a %-d %b").to_string()
    } else {
        date.strftime("%a %-d %b %Y").to_string()
    }
}

/// A page of tasks: today, or a view.
#[derive(Template)]
#[template(path = "tasks.html")]
struct TasksPage<'a> {
    chrome: super::Chrome<'a>,
    body: Body,
}

/// What a page of tasks is asked for.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct PageQuery {
    pub(super) view: Option<String>,
    pub(super) cursor: Option<String>,
    pub(super) done: Option<String>,
    pub(super) deleted: Option<String>,
    /// `done` on a list's page: its logbook.
    pub(super) show: Option<String>,
}

/// Which tasks a page lists.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Source {
    /// A view by its API name.
    View(View),
    /// The open tasks of the Inbox.
    Inbox,
    /// The open tasks of a list, or with `closed` its logbook.
    List { id: Id, closed: bool },
}

/// What a page of tasks reads.
pub(super) struct Read {
    pub(super) tasks: Vec<Task>,
    /// The cursor of the next page.
    pub(super) next: Option<String>,
    pub(super) counts: TaskCounts,
    /// The task of `done={id}`, while it is completed.
    pub(super) done: Option<Task>,
    /// The task of `deleted={id}`.
    pub(super) deleted: Option<Id>,
    pub(super) today: Date,
}

/// The tasks, counts and banners a page of tasks shows; `q` is the
/// page's query (`cursor`, `done`, `deleted`).
pub(super) fn read_body(org: &Organiser, source: Source, q: &PageQuery) -> Result<Read, Error> {
    let params = ListParams {
        cursor: q.cursor.clone(),
        ..ListParams::default()
    };
    let (query, counts) = match source {
        Source::View(view) => (
            TaskQuery {
                view: Some(view),
                params,
                ..TaskQuery::default()
            },
            TaskCountsQuery {
                view: matches!(
                    view,
                    View::Overview | View::Today | View::Planned | View::OneDay | View::Logbook
                )
                .then_some(view),
                home: None,
            },
        ),
        Source::Inbox => (
            TaskQuery {
                statuses: Some(vec![TaskStatus::Open]),
                home: Some(Home::Inbox),
                params,
                ..TaskQuery::default()
            },
            TaskCountsQuery {
                view: None,
                home: Some(Home::Inbox),
            },
        ),
        Source::List { id, closed } => (
            TaskQuery {
                view: closed.then_some(View::Logbook),
                statuses: (!closed).then(|| vec![TaskStatus::Open]),
                home: Some(Home::List(id)),
                params,
                ..TaskQuery::default()
            },
            TaskCountsQuery {
                view: None,
                home: Some(Home::List(id)),
            },
        ),
    };
    let page = org.tasks().list(&query)?;
    let counts = org.tasks().counts(&counts)?;
    let done = match q.done.as_deref().and_then(Id::parse) {
        Some(id) => org
            .tasks()
            .get(id)
            .ok()
            .filter(|t| t.status == TaskStatus::Completed),
        None => None,
    };
    Ok(Read {
        tasks: page.items,
        next: page.next_cursor,
        counts,
        done,
        deleted: q.deleted.as_deref().and_then(Id::parse),
        today: org.today(),
    })
}

/// A cursor or other value in a query string.
pub(super) fn encode(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for b in value.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

/// `path` with `key=value` added to its query.
pub(super) fn with_param(path: &str, key: &str, value: &str) -> String {
    let sep = if path.contains('?') { '&' } else { '?' };
    format!("{path}{sep}{key}={}", encode(value))
}

/// The page counts as phrases.
fn page_counts(counts: &TaskCounts, logbook: bool) -> Vec<String> {
    let Some(page) = &counts.page else {
        return Vec::new();
    };
    let mut out = Vec::new();
    if !logbook {
        out.push(format!("{} open", page.open));
        if page.overdue > 0 {
            out.push(format!("{} overdue", page.overdue));
        }
    }
    out.push(format!("{} completed", page.completed));
    if page.wont_do > 0 {
        out.push(format!("{} won't do", page.wont_do));
    }
    if page.expired > 0 {
        out.push(format!("{} expired", page.expired));
    }
    out
}

/// The page at `here` for `view` (`None`: today at `/`).
async fn view_page(
    state: &AppState,
    session: &Signed,
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
    let read = blocking(state, move |org| read_body(org, source, &q)).await?;
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
        line = page_counts(counts, name == Some("logbook"));
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
    let body = Body {
        heading: heading.to_owned(),
        more: read.next.map(|c| with_param(&here, "cursor", &c)),
        here,
        today: read.today,
        views,
        counts: line,
        quick,
        tasks: read.tasks,
        empty: empty.to_owned(),
        done: read.done,
        deleted: read.deleted,
    };
    Ok(render(&TasksPage {
        chrome: session.chrome(if name.is_none() { "today" } else { "tasks" }),
        body,
    }))
}

/// `GET /`: today.
pub(crate) async fn today(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<PageQuery>,
) -> Result<Response, Refusal> {
    let session = signed(&state, &headers).await?;
    view_page(&state, &session, None, q, Quick::default()).await
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
pub(crate) async fn list(
    State(state): State<AppState>,
    headers: HeaderMap,
    Query(q): Query<PageQuery>,
) -> Result<Response, Refusal> {
    let session = signed(&state, &headers).await?;
    let name = view_named(q.view.as_deref())?;
    view_page(&state, &session, Some(name), q, Quick::default()).await
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

/// Where a form goes back to: a path of ours, else today.
pub(super) fn back(to: &str) -> &str {
    if to.starts_with('/') && !to.starts_with("//") && !to.contains('\\') {
        to
    } else {
        "/"
    }
}

/// The page a quick add came from, drawn again with what was typed and
/// why it was refused (422).
async fn quick_refused(
    state: &AppState,
    session: &Signed,
    from: &str,
    quick: Quick,
) -> Result<Response, Refusal> {
    let (path, query) = from.split_once('?').unwrap_or((from, ""));
    let view = query
        .split('&')
        .find_map(|p| p.strip_prefix("view="))
        .map(str::to_owned);
    let mut response = if let Some(id) = path.strip_prefix("/lists/").and_then(Id::parse) {
        super::lists::list_page(state, session, id, false, PageQuery::default(), quick, None)
            .await?
    } else if path == "/" {
        view_page(state, session, None, PageQuery::default(), quick).await?
    } else {
        let name = view_named(view.as_deref()).unwrap_or("overview");
        view_page(state, session, Some(name), PageQuery::default(), quick).await?
    };
    *response.status_mut() = StatusCode::UNPROCESSABLE_ENTITY;
    Ok(response)
}

/// `POST /tasks`: quick add (the core's [`read_quick_add`]), into the
/// Inbox or the form's list; 303 back, or the page again (422) with why
/// not beside the box.
pub(crate) async fn quick_add(
    State(state): State<AppState>,
    headers: HeaderMap,
    Form(form): Form<TaskForm>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, &form.csrf_token).await?;
    let text = form.title.clone();
    let list = Id::parse(form.task_list_id.trim());
    let made = blocking(&state, move |org| {
        let mut input = read_quick_add(&text, org.today(), org.zone().time_zone())?;
        if let Some(list) = list {
            input.task_list_id = Field::Value(list);
        }
        org.tasks().create(input)
    })
    .await;
    match made {
        Ok(_) => Ok(see_other(back(&form.back))),
        Err(Refusal::Core(Error::Validation(details))) => {
            let error = FieldErrors::from_details(&details, &[]).all().join(" ");
            let quick = Quick {
                value: form.title,
                error: Some(error),
                task_list_id: list,
            };
            quick_refused(&state, &session, back(&form.back), quick).await
        }
        Err(e) => Err(e),
    }
}

async fn set_status(
    state: &AppState,
    headers: &HeaderMap,
    id: &str,
    form: &TaskForm,
    status: TaskStatus,
) -> Result<Response, Refusal> {
    signed_form(state, headers, &form.csrf_token).await?;
    let id = Id::parse(id).ok_or(Refusal::Core(Error::NotFound))?;
    blocking(state, move |org| {
        org.tasks().change(
            id,
            TaskInput {
                status: Some(status),
                ..TaskInput::default()
            },
        )
    })
    .await?;
    let to = back(&form.back);
    if status == TaskStatus::Completed && !to.starts_with("/tasks/") {
        return Ok(see_other(&with_param(
            &without_notes(to),
            "done",
            &id.to_string(),
        )));
    }
    Ok(see_other(&without_notes(to)))
}

/// `path` without the notes of an earlier action (`done`, `deleted`).
pub(super) fn without_notes(path: &str) -> String {
    let Some((path, query)) = path.split_once('?') else {
        return path.to_owned();
    };
    let kept: Vec<&str> = query
        .split('&')
        .filter(|p| !p.starts_with("done=") && !p.starts_with("deleted=") && !p.is_empty())
        .collect();
    if kept.is_empty() {
        path.to_owned()
    } else {
        format!("{path}?{}", kept.join("&"))
    }
}

/// `POST /tasks/{id}/complete`: 303 back, with the undo offered.
pub(crate) async fn complete(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<TaskForm>,
) -> Result<Response, Refusal> {
    set_status(&state, &headers, &id, &form, TaskStatus::Completed).await
}

/// `POST /tasks/{id}/reopen`: the undo of a completion.
pub(crate) async fn reopen(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<TaskForm>,
) -> Result<Response, Refusal> {
    set_status(&state, &headers, &id, &form, TaskStatus::Open).await
}

// ---------------------------------------------------------------------
// Errors beside their fields.

/// The core's refusals (422 details), each beside the form's field it is
/// about: `(field, sentence)`.
#[derive(Debug, Default)]
pub(super) struct FieldErrors(Vec<(String, String)>);

impl FieldErrors {
    /// The details as sentences, on the form's fields: `renames` maps an
    /// API field to the form's (`description_html` to `description`).
    pub(super) fn from_details(details: &Details, renames: &[(&str, &str)]) -> FieldErrors {
        let mut out = Vec::new();
        for (field, phrases) in details.iter() {
            let form = renames
                .iter()
                .find(|(api, _)| *api == field)
                .map_or(field, |(_, form)| *form);
            for phrase in phrases {
                out.push((form.to_owned(), format!("{} {phrase}", label(form))));
            }
        }
        FieldErrors(out)
    }

    /// What is said about `field`.
    pub(super) fn of(&self, field: &str) -> Option<String> {
        let said: Vec<&str> = self
            .0
            .iter()
            .filter(|(f, _)| f == field)
            .map(|(_, s)| s.as_str())
            .collect();
        (!said.is_empty()).then(|| said.join(" "))
    }

    /// What is said about fields not among `fields` (shown above the form).
    pub(super) fn others(&self, fields: &[&str]) -> Vec<String> {
        self.0
            .iter()
            .filter(|(f, _)| !fields.contains(&f.as_str()))
            .map(|(_, s)| s.clone())
            .collect()
    }

    /// Every sentence.
    pub(super) fn all(&self) -> Vec<String> {
        self.0.iter().map(|(_, s)| s.clone()).collect()
    }

    /// Whether nothing is said.
    pub(super) fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

/// How a sentence about a field begins.
fn label(field: &str) -> String {
    match field {
        "title" => "The title".into(),
        "description" => "The description".into(),
        "start_on" => "The start date".into(),
        "deadline_on" => "The deadline".into(),
        "expires_on" => "The expiry date".into(),
        "status" => "The status".into(),
        "home" => "The place".into(),
        "repeat" => "The repeat".into(),
        "remind_at" => "The reminder".into(),
        "name" => "The name".into(),
        "base" => "It".into(),
        other => format!("The {}", other.replace('_', " ")),
    }
}

// ---------------------------------------------------------------------
// A task's page.

/// The fields of the task form, as typed.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct EditForm {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    title: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    start_on: String,
    #[serde(default)]
    deadline_on: String,
    #[serde(default)]
    expires_on: String,
    #[serde(default)]
    status: String,
    #[serde(default)]
    home: String,
    #[serde(default)]
    repeat: String,
    #[serde(default)]
    remind_at: String,
}

/// The form's fields, where the core's go.
const RENAMES: [(&str, &str); 5] = [
    ("description_html", "description"),
    ("task_list_id", "home"),
    ("person_id", "home"),
    ("project_id", "home"),
    ("document_ids", "documents"),
];

/// The fields the task form shows errors beside.
const FORM_FIELDS: [&str; 9] = [
    "title",
    "description",
    "start_on",
    "deadline_on",
    "expires_on",
    "status",
    "home",
    "repeat",
    "remind_at",
];

/// A home as the form's select says it.
fn home_value(home: Home) -> String {
    match home {
        Home::Inbox => "inbox".into(),
        Home::List(id) => format!("list:{id}"),
        Home::Person(id) => format!("person:{id}"),
        Home::Project(id) => format!("project:{id}"),
    }
}

fn read_home(value: &str) -> Option<Home> {
    if value == "inbox" {
        return Some(Home::Inbox);
    }
    let (kind, id) = value.split_once(':')?;
    let id = Id::parse(id)?;
    match kind {
        "list" => Some(Home::List(id)),
        "person" => Some(Home::Person(id)),
        "project" => Some(Home::Project(id)),
        _ => None,
    }
}

/// Sets `home` into `input`.
fn put_home(input: &mut TaskInput, home: Home) {
    match home {
        Home::Inbox => {
            input.task_list_id = Field::Null;
            input.person_id = Field::Null;
            input.project_id = Field::Null;
        }
        Home::List(id) => input.task_list_id = Field::Value(id),
        Home::Person(id) => input.person_id = Field::Value(id),
        Home::Project(id) => input.project_id = Field::Value(id),
    }
}

/// An instant as `<input type="datetime-local">` shows it in `zone`.
fn local(at: jiff::Timestamp, zone: &TimeZone) -> String {
    at.to_zoned(zone.clone())
        .strftime("%Y-%m-%dT%H:%M")
        .to_string()
}

impl EditForm {
    /// The form filled from `task`.
    fn of(task: &Task, zone: &TimeZone) -> EditForm {
        let day = |d: Option<Date>| d.map(|d| d.to_string()).unwrap_or_default();
        EditForm {
            csrf_token: String::new(),
            title: task.title.clone(),
            description: task.description_text.clone(),
            start_on: day(task.start_on),
            deadline_on: day(task.deadline_on),
            expires_on: day(task.expires_on),
            status: task.status.as_str().into(),
            home: home_value(task.home()),
            repeat: task
                .repeat
                .as_ref()
                .map(|r| r.to_words())
                .unwrap_or_default(),
            remind_at: task.remind_at.map(|at| local(at, zone)).unwrap_or_default(),
        }
    }

    /// The change the form asks of `task`: only what differs from it, so
    /// a field left as it was is not sent again (a reminder now past, a
    /// rich description). Typed values that do not read are refused as
    /// the core refuses (422 on the field).
    fn change(&self, task: &Task, today: Date, zone: &TimeZone) -> Result<TaskInput, Error> {
        let shown = EditForm::of(task, zone);
        let mut details = Details::new();
        let mut input = TaskInput::default();
        if self.title != shown.title {
            input.title = Some(self.title.clone());
        }
        let text = self.description.replace("\r\n", "\n");
        if text.trim() != shown.description.trim() {
            input.description_html = description_html(&text).map_or(Field::Null, Field::Value);
        }
        let mut day = |field: &str, typed: &str, was: &str| -> Field<Date> {
            let typed = typed.trim();
            if typed == was {
                return Field::Absent;
            }
            if typed.is_empty() {
                return Field::Null;
            }
            match read_date_words(typed, today) {
                Ok(date) => Field::Value(date),
                Err(e) => {
                    details.add(field, e.to_string());
                    Field::Absent
                }
            }
        };
        input.start_on = day("start_on", &self.start_on, &shown.start_on);
        input.deadline_on = day("deadline_on", &self.deadline_on, &shown.deadline_on);
        input.expires_on = day("expires_on", &self.expires_on, &shown.expires_on);
        if self.status != shown.status {
            match TaskStatus::parse(&self.status) {
                Some(status) => input.status = Some(status),
                None => details.add("status", "must be open, completed, won't do or archived"),
            }
        }
        if self.home != shown.home {
            match read_home(&self.home) {
                Some(home) => put_home(&mut input, home),
                None => details.add("home", "must be the Inbox or a list"),
            }
        }
        if self.repeat.trim() != shown.repeat {
            match read_repeat_words(&self.repeat) {
                Ok(Some(repeat)) => input.repeat = Field::Value(repeat),
                Ok(None) if task.repeat.is_some() => input.repeat = Field::Null,
                Ok(None) => {}
                Err(e) => details.add("repeat", e),
            }
        }
        let remind = self.remind_at.trim();
        if remind != shown.remind_at {
            if remind.is_empty() {
                input.remind_at = Field::Null;
            } else {
                match organiser_core::time::read_moment_words(
                    &remind.replacen('T', " ", 1),
                    today,
                    zone,
                ) {
                    Ok(at) => input.remind_at = Field::Value(at),
                    Err(e) => details.add("remind_at", e.to_string()),
                }
            }
        }
        details.into_validation()?;
        Ok(input)
    }
}

/// A choice of a select.
pub(super) struct Choice {
    pub(super) value: String,
    pub(super) label: String,
}

/// A task's page (`task.html`): the task, its form, and its actions.
#[derive(Template)]
#[template(path = "task.html")]
struct TaskPage<'a> {
    chrome: super::Chrome<'a>,
    task: Task,
    form: EditForm,
    errors: FieldErrors,
    /// Errors about no field of the form.
    general: Vec<String>,
    /// The homes it can have: the Inbox, the lists, and its own.
    homes: Vec<Choice>,
    statuses: Vec<Choice>,
    /// How it repeats now, in words.
    repeat_words: Option<String>,
    /// The owner's zone, for the reminder's label.
    zone: String,
    /// The documents linked (id, name), and how many more there are.
    documents: Vec<(Id, String)>,
    more_documents: usize,
    today: Date,
    /// The change was saved (`?saved=1`).
    saved: bool,
}

impl TaskPage<'_> {
    fn day(&self, date: &Date) -> String {
        say_day(*date, self.today)
    }

    /// The task's status in words.
    fn status_label(&self) -> &str {
        self.statuses
            .iter()
            .find(|s| s.value == self.task.status.as_str())
            .map_or(self.task.status.as_str(), |s| s.label.as_str())
    }

    fn instant(&self, at: &jiff::Timestamp) -> String {
        let zone = jiff::tz::TimeZone::get(&self.zone).unwrap_or(TimeZone::UTC);
        at.to_zoned(zone).strftime("%a %-d %b %Y %H:%M").to_string()
    }
}

/// The most documents a task's page names.
const DOCUMENTS_SHOWN: usize = 20;

/// What a task's page reads besides the task.
struct TaskContext {
    task: Task,
    homes: Vec<Choice>,
    zone: String,
    time_zone: TimeZone,
    documents: Vec<(Id, String)>,
    more_documents: usize,
    today: Date,
}

fn read_task(org: &Organiser, id: Id) -> Result<TaskContext, Error> {
    let task = org.tasks().get(id)?;
    let mut homes = vec![Choice {
        value: "inbox".into(),
        label: "Inbox".into(),
    }];
    let mut cursor = None;
    loop {
        let page = org.task_lists().list(&TaskListQuery {
            params: ListParams {
                cursor,
                limit: 100,
                ..ListParams::default()
            },
        })?;
        homes.extend(page.items.into_iter().map(|l| Choice {
            value: format!("list:{}", l.id),
            label: l.name,
        }));
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    match task.home() {
        Home::Person(pid) => homes.push(Choice {
            value: home_value(task.home()),
            label: format!("Person: {}", org.people().get(pid)?.name),
        }),
        Home::Project(pid) => homes.push(Choice {
            value: home_value(task.home()),
            label: format!("Project: {}", org.projects().get(pid)?.name),
        }),
        Home::Inbox | Home::List(_) => {}
    }
    let (mut documents, mut linked) = (Vec::new(), 0);
    if task.has_documents {
        let mut cursor = None;
        loop {
            let page = org.documents().links(&DocumentLinkQuery {
                document_id: None,
                target: Some(("task_id".to_owned(), id)),
                params: ListParams {
                    cursor,
                    limit: 100,
                    ..ListParams::default()
                },
            })?;
            for link in &page.items {
                linked += 1;
                if documents.len() < DOCUMENTS_SHOWN {
                    let doc = org.documents().get(link.document_id)?;
                    documents.push((doc.id, doc.name));
                }
            }
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
    }
    let zone = org.zone();
    Ok(TaskContext {
        task,
        homes,
        zone: zone.iana().to_owned(),
        time_zone: zone.time_zone().clone(),
        more_documents: linked - documents.len(),
        documents,
        today: org.today(),
    })
}

fn statuses() -> Vec<Choice> {
    TaskStatus::ALL
        .iter()
        .map(|s| Choice {
            value: s.as_str().into(),
            label: match s {
                TaskStatus::Open => "Open",
                TaskStatus::Completed => "Completed",
                TaskStatus::WontDo => "Won't do",
                TaskStatus::Archived => "Archived",
            }
            .into(),
        })
        .collect()
}

/// Draws a task's page: the form as the task is, or as typed with the
/// errors beside it.
fn draw_task(
    session: &Signed,
    cx: TaskContext,
    typed: Option<EditForm>,
    errors: FieldErrors,
    saved: bool,
) -> Response {
    let form = typed.unwrap_or_else(|| EditForm::of(&cx.task, &cx.time_zone));
    let general = errors.others(&FORM_FIELDS);
    let status = if errors.is_empty() {
        StatusCode::OK
    } else {
        StatusCode::UNPROCESSABLE_ENTITY
    };
    let mut response = render(&TaskPage {
        chrome: session.chrome("tasks"),
        repeat_words: cx.task.repeat.as_ref().map(|r| r.to_words()),
        task: cx.task,
        form,
        errors,
        general,
        homes: cx.homes,
        statuses: statuses(),
        zone: cx.zone,
        documents: cx.documents,
        more_documents: cx.more_documents,
        today: cx.today,
        saved,
    });
    *response.status_mut() = status;
    response
}

fn task_id(id: &str) -> Result<Id, Refusal> {
    Id::parse(id).ok_or(Refusal::Core(Error::NotFound))
}

/// `GET /tasks/{id}?saved=`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct TaskQueryParams {
    saved: Option<String>,
}

/// `GET /tasks/{id}`: the task, every field in one form.
async fn task_page(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Query(q): Query<TaskQueryParams>,
) -> Result<Response, Refusal> {
    let session = signed(&state, &headers).await?;
    let id = task_id(&id)?;
    let cx = blocking(&state, move |org| read_task(org, id)).await?;
    Ok(draw_task(
        &session,
        cx,
        None,
        FieldErrors::default(),
        q.saved.is_some(),
    ))
}

/// `POST /tasks/{id}`: saves the form; 303 to the page, or the form again
/// (422) as typed with the core's errors beside their fields.
async fn save(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<EditForm>,
) -> Result<Response, Refusal> {
    let session = signed_form(&state, &headers, &form.csrf_token).await?;
    let id = task_id(&id)?;
    let typed = form.clone();
    let saved = blocking(&state, move |org| {
        let task = org.tasks().get(id)?;
        let zone = org.zone();
        let input = typed.change(&task, org.today(), zone.time_zone())?;
        if input == TaskInput::default() {
            return Ok(task);
        }
        org.tasks().change(id, input)
    })
    .await;
    match saved {
        Ok(_) => Ok(see_other(&format!("/tasks/{id}?saved=1"))),
        Err(Refusal::Core(Error::Validation(details))) => {
            let cx = blocking(&state, move |org| read_task(org, id)).await?;
            let errors = FieldErrors::from_details(&details, &RENAMES);
            Ok(draw_task(&session, cx, Some(form), errors, false))
        }
        Err(e) => Err(e),
    }
}

/// The move form: a home, and where to go back to.
#[derive(Debug, Deserialize)]
pub(crate) struct MoveForm {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    home: String,
    #[serde(default)]
    back: String,
}

/// `POST /tasks/{id}/move`: to a list or the Inbox.
async fn move_task(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<MoveForm>,
) -> Result<Response, Refusal> {
    signed_form(&state, &headers, &form.csrf_token).await?;
    let id = task_id(&id)?;
    let Some(home) = read_home(&form.home) else {
        return Err(Refusal::Core(Error::invalid(
            "home",
            "must be the Inbox or a list",
        )));
    };
    blocking(&state, move |org| {
        let mut input = TaskInput::default();
        put_home(&mut input, home);
        org.tasks().change(id, input)
    })
    .await?;
    let to = if form.back.is_empty() {
        format!("/tasks/{id}?saved=1")
    } else {
        without_notes(back(&form.back))
    };
    Ok(see_other(&to))
}

/// A form with only its token and where to go back to.
#[derive(Debug, Deserialize)]
pub(crate) struct PlainForm {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    back: String,
}

/// `POST /tasks/{id}/delete`: 303 to its home's page (or the form's
/// `back`), which offers the restore.
async fn delete(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<PlainForm>,
) -> Result<Response, Refusal> {
    signed_form(&state, &headers, &form.csrf_token).await?;
    let id = task_id(&id)?;
    let home = blocking(&state, move |org| {
        let task = org.tasks().get(id)?;
        org.tasks().delete(id)?;
        Ok(task.home())
    })
    .await?;
    let to = if form.back.is_empty() || form.back.starts_with(&format!("/tasks/{id}")) {
        match home {
            Home::List(list) => format!("/lists/{list}"),
            Home::Inbox => "/tasks?view=inbox".to_owned(),
            Home::Person(_) | Home::Project(_) => "/tasks".to_owned(),
        }
    } else {
        without_notes(back(&form.back))
    };
    Ok(see_other(&with_param(&to, "deleted", &id.to_string())))
}

/// `POST /tasks/{id}/restoration`: the undo of a delete (within the
/// core's 20 seconds); 303 to the task.
async fn restore(
    State(state): State<AppState>,
    headers: HeaderMap,
    Path(id): Path<String>,
    Form(form): Form<PlainForm>,
) -> Result<Response, Refusal> {
    signed_form(&state, &headers, &form.csrf_token).await?;
    let id = task_id(&id)?;
    blocking(&state, move |org| org.tasks().restore(id)).await?;
    Ok(see_other(&format!("/tasks/{id}")))
}
