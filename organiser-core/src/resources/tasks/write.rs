//! Create and change (document 2, "Create and change", "Task status"):
//! squished titles, the date-order rules with the overdue exception, the
//! expiry rules, one home at a time, the status transitions, placement.

use jiff::civil::Date;

use super::home::{self, Home};
use super::input::TaskInput;
use super::{Task, TaskStatus, load_live, placement, put_live, remind, series};
use crate::engine::WriteCx;
use crate::engine::kinds::Given;
use crate::error::{Details, Result};
use crate::ids::Id;
use crate::input::Field;
use crate::limits;
use crate::text::squished_required;

/// What the home fields of an input ask for.
enum HomeChange {
    Keep,
    To(Home),
}

/// Resolves the three home fields: one id moves the task there (and clears
/// the other two); two ids at once is a 422 on `base`; only nulls move it
/// to the Inbox when they clear its current home.
fn home_change(input: &TaskInput, current: Option<Home>, details: &mut Details) -> HomeChange {
    let fields = [
        (
            "task_list_id",
            &input.task_list_id,
            Home::List as fn(Id) -> Home,
        ),
        ("person_id", &input.person_id, Home::Person),
        ("project_id", &input.project_id, Home::Project),
    ];
    let ids: Vec<Home> = fields
        .iter()
        .filter_map(|(_, field, make)| match field {
            Field::Value(id) => Some(make(*id)),
            _ => None,
        })
        .collect();
    match ids.as_slice() {
        [] => {
            let clears_current = fields.iter().any(|(name, field, _)| {
                matches!(field, Field::Null) && current.and_then(Home::field) == Some(name)
            });
            if current.is_none() || clears_current {
                HomeChange::To(Home::Inbox)
            } else {
                HomeChange::Keep
            }
        }
        [one] => HomeChange::To(*one),
        _ => {
            details.add(
                "base",
                "a task has one home: send only one of task_list_id, person_id, project_id",
            );
            HomeChange::Keep
        }
    }
}

fn check_title(details: &mut Details, title: &str) -> String {
    squished_required(details, "title", title, limits::text::TASK_TITLE)
}

/// The sanitised description and its text, or a 422 on `description`.
fn description(details: &mut Details, html: &Field<String>) -> Option<(Option<String>, String)> {
    match html {
        Field::Absent => None,
        Field::Null => Some((None, String::new())),
        Field::Value(html) if html.trim().is_empty() => Some((None, String::new())),
        Field::Value(html) => {
            if crate::html::has_image(html) {
                details.add(
                    "description",
                    "can't contain images (attach documents instead)",
                );
                return None;
            }
            let clean = crate::html::sanitise_without_images(html);
            let text = crate::html::to_text(&clean);
            if clean.trim().is_empty() {
                Some((None, String::new()))
            } else {
                Some((Some(clean), text))
            }
        }
    }
}

/// `document_ids` must name live documents and `document_uploads` unused
/// PDF uploads; mistakes go under `documents`.
fn check_documents(cx: &WriteCx<'_>, details: &mut Details, input: &TaskInput) -> Result<()> {
    let check = cx.attachments().check;
    check(cx, details, "documents", given(input))
}

/// Links the task to the documents `input` names, makes its uploads
/// documents, and says whether it has documents now.
fn apply_documents(cx: &WriteCx<'_>, task: Id, input: &TaskInput) -> Result<bool> {
    let attach = cx.attachments().attach;
    attach(cx, super::KIND.name, task, given(input))
}

fn given(input: &TaskInput) -> Given<'_> {
    Given {
        ids: &input.document_ids,
        uploads: &input.document_uploads,
    }
}

/// The date rules, checked on the task as it would be saved; a rule is
/// checked only when a field it involves was sent (or the task reopens).
fn check_dates(details: &mut Details, task: &Task, input: &TaskInput, today: Date, reopened: bool) {
    let sent = |f: &Field<Date>| f.is_sent();
    let (start, deadline, expires) = (task.start_on, task.deadline_on, task.expires_on);
    if (sent(&input.deadline_on) || sent(&input.start_on))
        && let (Some(s), Some(d)) = (start, deadline)
        && d < s
        && d >= today
    {
        details.add(
            "deadline_on",
            "can't be before the start date (unless the deadline has passed)",
        );
    }
    if let Some(e) = expires {
        let involved = sent(&input.expires_on) || sent(&input.start_on) || sent(&input.deadline_on);
        if involved && start.is_some_and(|s| e < s) {
            details.add("expires_on", "can't be before the start date");
        }
        if involved && deadline.is_some_and(|d| e < d) {
            details.add("expires_on", "can't be before the deadline");
        }
        if (sent(&input.expires_on) || reopened) && task.status == TaskStatus::Open && e < today {
            details.add("expires_on", "can't be before today on an open task");
        }
    }
}

/// Moves `task` to `status` as the transitions table says.
fn transition(cx: &WriteCx<'_>, task: &mut Task, status: TaskStatus) {
    if task.status == status {
        return;
    }
    let now = cx.now();
    task.status = status;
    task.expired = false;
    match status {
        TaskStatus::Completed | TaskStatus::WontDo => {
            task.completed_at = Some(now);
            task.archived_at = None;
        }
        TaskStatus::Archived => {
            task.archived_at = Some(now);
            task.completed_at = None;
        }
        TaskStatus::Open => {
            task.completed_at = None;
            task.archived_at = None;
            if task.expires_on.is_some_and(|e| e < cx.today()) {
                task.expires_on = None;
            }
        }
    }
}

/// Applies the plain fields of `input` to `task`.
fn apply_fields(
    task: &mut Task,
    input: &TaskInput,
    title: Option<String>,
    desc: Option<(Option<String>, String)>,
) {
    if let Some(title) = title {
        task.title = title;
    }
    if let Some((html, text)) = desc {
        task.description_html = html;
        task.description_text = text;
    }
    task.start_on = input.start_on.clone().apply(task.start_on);
    task.deadline_on = input.deadline_on.clone().apply(task.deadline_on);
    task.expires_on = input.expires_on.clone().apply(task.expires_on);
}

fn check_home(cx: &WriteCx<'_>, details: &mut Details, home: Home) -> Result<()> {
    if !home::is_live(cx, home)? {
        details.add(home.field().unwrap_or("base"), "does not exist");
    }
    Ok(())
}

/// `POST /tasks`.
pub(crate) fn create(cx: &mut WriteCx<'_>, input: &TaskInput) -> Result<Task> {
    let mut details = Details::new();
    let title = match &input.title {
        Some(t) => check_title(&mut details, t),
        None => {
            details.add("title", "can't be blank");
            String::new()
        }
    };
    let desc = description(&mut details, &input.description_html);
    let home = match home_change(input, None, &mut details) {
        HomeChange::To(home) => home,
        HomeChange::Keep => Home::Inbox,
    };
    check_home(cx, &mut details, home)?;
    check_documents(cx, &mut details, input)?;

    let now = cx.now();
    let id = cx.new_id();
    let mut task = Task {
        id,
        repeat: None,
        series_id: None,
        next_task_id: None,
        cursor: None,
        title: String::new(),
        status: TaskStatus::Open,
        start_on: None,
        deadline_on: None,
        expires_on: None,
        remind_at: None,
        completed_at: None,
        archived_at: None,
        task_list_id: None,
        person_id: None,
        project_id: None,
        position: 0,
        description_html: None,
        description_text: String::new(),
        has_documents: false,
        expired: false,
        created_at: now,
        updated_at: now,
    };
    task.set_home(home);
    apply_fields(&mut task, input, Some(title), desc);
    if let Some(status) = input.status {
        transition(cx, &mut task, status);
    }
    let repeat_set = series::apply_repeat(cx, &mut details, &mut task, &input.repeat);
    remind::apply(&mut details, &mut task, None, input, cx.now());
    check_dates(&mut details, &task, input, cx.today(), false);
    details.into_validation()?;
    if repeat_set {
        series::join_series(cx, &mut task)?;
    }

    task.position = match input.position {
        Some(rank) => placement::place(cx, home, id, rank)?,
        None if task.status == TaskStatus::Open => placement::top(cx, home)?,
        None => placement::bottom(cx, home)?,
    };
    put_live(cx, None, &task)?;
    if input.document_ids.is_sent() || input.document_uploads.is_sent() {
        let has = apply_documents(cx, id, input)?;
        if has != task.has_documents {
            let before = task.clone();
            task.has_documents = has;
            put_live(cx, Some(&before), &task)?;
        }
    }
    Ok(task)
}

/// `PATCH /tasks/{id}`: only the fields sent change; a change that changes
/// nothing leaves `updated_at` alone.
pub(crate) fn change(cx: &mut WriteCx<'_>, id: Id, input: &TaskInput) -> Result<Task> {
    let before = load_live(cx, id)?;
    let mut details = Details::new();
    let title = input.title.as_deref().map(|t| check_title(&mut details, t));
    let desc = description(&mut details, &input.description_html);
    let mut task = before.clone();
    let new_home = match home_change(input, Some(before.home()), &mut details) {
        HomeChange::To(home) if home != before.home() => {
            check_home(cx, &mut details, home)?;
            Some(home)
        }
        _ => None,
    };
    check_documents(cx, &mut details, input)?;
    apply_fields(&mut task, input, title, desc);
    let reopened = input.status == Some(TaskStatus::Open) && before.status != TaskStatus::Open;
    let closed =
        before.status == TaskStatus::Open && input.status.is_some_and(TaskStatus::is_closed);
    if let Some(status) = input.status {
        transition(cx, &mut task, status);
    }
    let repeat_set = series::apply_repeat(cx, &mut details, &mut task, &input.repeat);
    remind::apply(&mut details, &mut task, Some(&before), input, cx.now());
    check_dates(&mut details, &task, input, cx.today(), reopened);
    details.into_validation()?;

    if let Some(home) = new_home {
        task.set_home(home);
        task.position = match input.position {
            Some(rank) => placement::place(cx, home, id, rank)?,
            None => placement::bottom(cx, home)?,
        };
    } else if let Some(rank) = input.position {
        task.position = placement::place(cx, task.home(), id, rank)?;
    }
    let before = if input.document_ids.is_sent() || input.document_uploads.is_sent() {
        task.has_documents = apply_documents(cx, id, input)?;
        // Linking stored the task's new flag already: compare with that.
        load_live(cx, id)?
    } else {
        before
    };
    // The series' rules see the task as it is saved: its new home,
    // position and documents go to the occurrence a close makes, and an
    // undo happens before a repeat set in the same change picks a series.
    if closed {
        series::closed(cx, &mut task)?;
    } else if reopened {
        series::reopened(cx, &mut task, repeat_set)?;
    }
    if repeat_set {
        series::join_series(cx, &mut task)?;
    }
    if task == before {
        return Ok(task);
    }
    task.updated_at = cx.now();
    put_live(cx, Some(&before), &task)?;
    Ok(task)
}
