//! A task's own page (EXTENSIONS.md §6: a task with every field, its
//! repeat, reminder and documents): the page with every field in one
//! form, saving it (the form again beside what the core refused), moving
//! the task, deleting it (303 to where the restore is offered) and
//! restoring it within the core's 20 seconds.

use askama::Template;
use axum::extract::{Path, Query};
use axum::response::Response;
use jiff::civil::Date;
use jiff::tz::TimeZone;
use organiser_core::documents::DocumentLinkQuery;
use organiser_core::tasks::{Home, Task, TaskInput, TaskStatus};
use organiser_core::{Error, Id, Organiser};
use serde::Deserialize;

use super::body::say_day;
use super::edit::{EditForm, FORM_FIELDS, RENAMES, home_value, put_home, read_home};
use crate::web::forms::{
    FieldErrors, PlainForm, SignedForm, SignedIn, Token, answer, back, every, every_list, invalid,
    record_id, with_param, without_notes,
};
use crate::web::{Chrome, Refusal, Signed, blocking, see_other};

/// A choice of a select.
pub(super) struct Choice {
    pub(super) value: String,
    pub(super) label: String,
}

/// A task's page (`task.html`): the task, its form, and its actions.
#[derive(Template)]
#[template(path = "task.html")]
struct TaskPage<'a> {
    chrome: Chrome<'a>,
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
    /// A day as the page says it (`Thu 12 Mar`).
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

    /// An instant as the page says it, in the owner's zone.
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

/// Task `id` with what its page shows beside it: the homes it can have,
/// the owner's zone and today, and its documents.
fn read_task(org: &Organiser, id: Id) -> Result<TaskContext, Error> {
    let task = org.tasks().get(id)?;
    let mut homes = vec![Choice {
        value: "inbox".into(),
        label: "Inbox".into(),
    }];
    homes.extend(every_list(org)?.into_iter().map(|l| Choice {
        value: format!("list:{}", l.id),
        label: l.name,
    }));
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
    let links = if task.has_documents {
        every(|params| {
            org.documents().links(&DocumentLinkQuery {
                document_id: None,
                target: Some(("task_id".to_owned(), id)),
                params,
            })
        })?
    } else {
        Vec::new()
    };
    let documents = links
        .iter()
        .take(DOCUMENTS_SHOWN)
        .map(|link| {
            let doc = org.documents().get(link.document_id)?;
            Ok((doc.id, doc.name))
        })
        .collect::<Result<Vec<_>, Error>>()?;
    let zone = org.zone();
    Ok(TaskContext {
        task,
        homes,
        zone: zone.iana().to_owned(),
        time_zone: zone.time_zone().clone(),
        more_documents: links.len() - documents.len(),
        documents,
        today: org.today(),
    })
}

/// The statuses the form offers, with their words.
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
/// errors beside it (422).
fn draw_task(
    session: &Signed,
    cx: TaskContext,
    typed: Option<EditForm>,
    errors: FieldErrors,
    saved: bool,
) -> Response {
    let form = typed.unwrap_or_else(|| EditForm::of(&cx.task, &cx.time_zone));
    let general = errors.others(&FORM_FIELDS);
    let refused = !errors.is_empty();
    let page = TaskPage {
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
    };
    answer(&page, refused)
}

/// `GET /tasks/{id}?saved=`.
#[derive(Debug, Default, Deserialize)]
pub(crate) struct TaskQueryParams {
    saved: Option<String>,
}

/// `GET /tasks/{id}`: the task, every field in one form.
pub(super) async fn task_page(
    Path(id): Path<String>,
    Query(q): Query<TaskQueryParams>,
    owner: SignedIn,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let cx = blocking(&owner.state, move |org| read_task(org, id)).await?;
    let errors = FieldErrors::default();
    Ok(draw_task(
        &owner.session,
        cx,
        None,
        errors,
        q.saved.is_some(),
    ))
}

/// `POST /tasks/{id}`: saves the form; 303 to the page, or the form again
/// (422) as typed with the core's errors beside their fields.
pub(super) async fn save(
    Path(id): Path<String>,
    sent: SignedForm<EditForm>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let typed = sent.form.clone();
    let saved = blocking(&sent.owner.state, move |org| {
        let task = org.tasks().get(id)?;
        let zone = org.zone();
        let input = typed.change(&task, org.today(), zone.time_zone())?;
        if input == TaskInput::default() {
            return Ok(task);
        }
        org.tasks().change(id, input)
    })
    .await;
    match invalid(saved)? {
        Ok(_) => Ok(see_other(&format!("/tasks/{id}?saved=1"))),
        Err(details) => {
            let cx = blocking(&sent.owner.state, move |org| read_task(org, id)).await?;
            let errors = FieldErrors::from_details(&details, &RENAMES);
            Ok(draw_task(
                &sent.owner.session,
                cx,
                Some(sent.form),
                errors,
                false,
            ))
        }
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

impl Token for MoveForm {
    fn csrf_token(&self) -> &str {
        &self.csrf_token
    }
}

/// `POST /tasks/{id}/move`: to a list or the Inbox.
pub(super) async fn move_task(
    Path(id): Path<String>,
    sent: SignedForm<MoveForm>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let form = sent.form;
    let Some(home) = read_home(&form.home) else {
        return Err(Refusal::Core(Error::invalid(
            "home",
            "must be the Inbox or a list",
        )));
    };
    blocking(&sent.owner.state, move |org| {
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

/// `POST /tasks/{id}/delete`: 303 to its home's page (or the form's
/// `back`), which offers the restore.
pub(super) async fn delete(
    Path(id): Path<String>,
    sent: SignedForm<PlainForm>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    let home = blocking(&sent.owner.state, move |org| {
        let task = org.tasks().get(id)?;
        org.tasks().delete(id)?;
        Ok(task.home())
    })
    .await?;
    let back_to = &sent.form.back;
    let to = if back_to.is_empty() || back_to.starts_with(&format!("/tasks/{id}")) {
        match home {
            Home::List(list) => format!("/lists/{list}"),
            Home::Inbox => "/tasks?view=inbox".to_owned(),
            Home::Person(_) | Home::Project(_) => "/tasks".to_owned(),
        }
    } else {
        without_notes(back(back_to))
    };
    Ok(see_other(&with_param(&to, "deleted", &id.to_string())))
}

/// `POST /tasks/{id}/restoration`: the undo of a delete (within the
/// core's 20 seconds); 303 to the task.
pub(super) async fn restore(
    Path(id): Path<String>,
    sent: SignedForm<PlainForm>,
) -> Result<Response, Refusal> {
    let id = record_id(&id)?;
    blocking(&sent.owner.state, move |org| org.tasks().restore(id)).await?;
    Ok(see_other(&format!("/tasks/{id}")))
}
