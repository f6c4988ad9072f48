//! The task form (EXTENSIONS.md §6: a task with every field in one form):
//! its fields as typed, filled from a task, and read back as the change
//! it asks of the task (the core's date and repeat words; only what
//! differs is sent).

use jiff::civil::Date;
use jiff::tz::TimeZone;
use organiser_core::tasks::{
    Home, Task, TaskInput, TaskStatus, description_html, read_repeat_words,
};
use organiser_core::time::read_date_words;
use organiser_core::{Details, Error, Field, Id};
use serde::Deserialize;

use crate::web::forms::Token;

/// The fields of the task form, as typed.
#[derive(Debug, Clone, Default, Deserialize)]
pub(crate) struct EditForm {
    #[serde(default)]
    csrf_token: String,
    #[serde(default)]
    pub(super) title: String,
    #[serde(default)]
    pub(super) description: String,
    #[serde(default)]
    pub(super) start_on: String,
    #[serde(default)]
    pub(super) deadline_on: String,
    #[serde(default)]
    pub(super) expires_on: String,
    #[serde(default)]
    pub(super) status: String,
    #[serde(default)]
    pub(super) home: String,
    #[serde(default)]
    pub(super) repeat: String,
    #[serde(default)]
    pub(super) remind_at: String,
}

impl Token for EditForm {
    fn csrf_token(&self) -> &str {
        &self.csrf_token
    }
}

/// The form's fields, where the core's go.
pub(super) const RENAMES: [(&str, &str); 5] = [
    ("description_html", "description"),
    ("task_list_id", "home"),
    ("person_id", "home"),
    ("project_id", "home"),
    ("document_ids", "documents"),
];

/// The fields the task form shows errors beside.
pub(super) const FORM_FIELDS: [&str; 9] = [
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
pub(super) fn home_value(home: Home) -> String {
    match home {
        Home::Inbox => "inbox".into(),
        Home::List(id) => format!("list:{id}"),
        Home::Person(id) => format!("person:{id}"),
        Home::Project(id) => format!("project:{id}"),
    }
}

/// The home a value of the form's select names (none: no home).
pub(super) fn read_home(value: &str) -> Option<Home> {
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
pub(super) fn put_home(input: &mut TaskInput, home: Home) {
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
    pub(super) fn of(task: &Task, zone: &TimeZone) -> EditForm {
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
    pub(super) fn change(
        &self,
        task: &Task,
        today: Date,
        zone: &TimeZone,
    ) -> Result<TaskInput, Error> {
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
