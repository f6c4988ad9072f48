//! The task write body (`{task: {...}}`, document 2 "Create and change"):
//! every field optional on the wire, "absent" kept apart from "null".

use jiff::civil::Date;
use serde_json::Value;

use super::TaskStatus;
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::input::{Field, record};

/// A task create or change. Create needs `title`.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaskInput {
    /// Squished; at most 200 characters.
    pub title: Option<String>,
    /// Note-body HTML; null or empty clears.
    pub description_html: Field<String>,
    /// When to start.
    pub start_on: Field<Date>,
    /// When it is due.
    pub deadline_on: Field<Date>,
    /// After this day an open task is archived.
    pub expires_on: Field<Date>,
    /// A new status.
    pub status: Option<TaskStatus>,
    /// Home: a task list (sending one home clears the other two).
    pub task_list_id: Field<Id>,
    /// Home: a person.
    pub person_id: Field<Id>,
    /// Home: a project.
    pub project_id: Field<Id>,
    /// 1-based place among the home's open tasks; clamped.
    pub position: Option<i64>,
    /// The task's documents after the save (the full set).
    pub document_ids: Field<Vec<Id>>,
    /// Signed IDs of uploaded PDFs to make into documents.
    pub document_uploads: Field<Vec<String>>,
}

impl TaskInput {
    /// An input that sets only the title.
    pub fn titled(title: impl Into<String>) -> TaskInput {
        TaskInput {
            title: Some(title.into()),
            ..TaskInput::default()
        }
    }
}

/// Reads `{task: {...}}`. A field of the wrong type is a 422 on it, except
/// `document_ids` and `document_uploads` that are not arrays of the right
/// items, which are 400.
pub(crate) fn parse(body: Option<&Value>) -> Result<TaskInput> {
    let mut f = record(body, "task")?;
    let mut input = TaskInput::default();
    match f.string("title") {
        Field::Value(t) => input.title = Some(t),
        Field::Null => input.title = Some(String::new()),
        Field::Absent => {}
    }
    input.description_html = f.string("description_html");
    input.start_on = f.date("start_on");
    input.deadline_on = f.date("deadline_on");
    input.expires_on = f.date("expires_on");
    match f.string("status") {
        Field::Value(s) => match TaskStatus::parse(&s) {
            Some(status) => input.status = Some(status),
            None => f.add("status", "must be open, completed, wont_do or archived"),
        },
        Field::Null => f.add("status", "must be open, completed, wont_do or archived"),
        Field::Absent => {}
    }
    input.task_list_id = f.id("task_list_id");
    input.person_id = f.id("person_id");
    input.project_id = f.id("project_id");
    match f.integer("position") {
        Field::Value(p) => input.position = Some(p),
        Field::Null => f.add("position", "must be a whole number"),
        Field::Absent => {}
    }
    input.document_ids = match f.raw("document_ids") {
        Field::Absent => Field::Absent,
        Field::Null => Field::Null,
        Field::Value(Value::Array(items)) => {
            let ids: Option<Vec<Id>> = items
                .iter()
                .map(|v| v.as_str().and_then(Id::parse))
                .collect();
            Field::Value(
                ids.ok_or_else(|| Error::bad_param("document_ids", "must be an array of IDs"))?,
            )
        }
        Field::Value(_) => return Err(Error::bad_param("document_ids", "must be an array of IDs")),
    };
    input.document_uploads = match f.raw("document_uploads") {
        Field::Absent => Field::Absent,
        Field::Null => Field::Null,
        Field::Value(Value::Array(items)) => {
            let ids: Option<Vec<String>> = items
                .iter()
                .map(|v| v.as_str().map(str::to_owned))
                .collect();
            Field::Value(ids.ok_or_else(|| {
                Error::bad_param("document_uploads", "must be an array of signed IDs")
            })?)
        }
        Field::Value(_) => {
            return Err(Error::bad_param(
                "document_uploads",
                "must be an array of signed IDs",
            ));
        }
    };
    f.finish()?;
    Ok(input)
}
