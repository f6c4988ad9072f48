//! The task write body (`{task: {...}}`, document 2 "Create and change"):
//! every field optional on the wire, "absent" kept apart from "null".

use jiff::civil::Date;
use serde::Serialize;
use serde_json::Value;

use super::{Repeat, RepeatFrom, TaskStatus};
use crate::error::{Error, Result};
use crate::ids::Id;
use crate::input::{Field, record};

/// A task create or change. Create needs `title`.
///
/// It serialises to the body it is read from (without the wrapper):
/// absent fields are left out.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, serde::Deserialize)]
#[serde(default)]
pub struct TaskInput {
    /// Squished; at most 200 characters.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// Note-body HTML; null or empty clears.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub description_html: Field<String>,
    /// When to start.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub start_on: Field<Date>,
    /// When it is due.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub deadline_on: Field<Date>,
    /// After this day an open task is archived.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub expires_on: Field<Date>,
    /// A new status.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub status: Option<TaskStatus>,
    /// Home: a task list (sending one home clears the other two).
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub task_list_id: Field<Id>,
    /// Home: a person.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub person_id: Field<Id>,
    /// Home: a project.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub project_id: Field<Id>,
    /// 1-based place among the home's open tasks; clamped.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub position: Option<i64>,
    /// The task's documents after the save (the full set).
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub document_ids: Field<Vec<Id>>,
    /// Signed IDs of uploaded PDFs to make into documents.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub document_uploads: Field<Vec<String>>,
    /// How it repeats (EXTENSIONS.md §1); null stops the series.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub repeat: Field<Repeat>,
    /// When to be reminded (EXTENSIONS.md §3): on an open task, not in
    /// the past; null clears it.
    #[serde(skip_serializing_if = "Field::is_absent")]
    pub remind_at: Field<jiff::Timestamp>,
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
    input.remind_at = f.timestamp("remind_at");
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
    input.repeat = match f.raw("repeat") {
        Field::Absent => Field::Absent,
        Field::Null => Field::Null,
        Field::Value(value) => match read_repeat(value) {
            Ok(repeat) => Field::Value(repeat),
            Err(message) => {
                f.add("repeat", message);
                Field::Absent
            }
        },
    };
    f.finish()?;
    Ok(input)
}

/// `{rule, from}`: `rule` a string, `from` `due` (or omitted) or
/// `completion`.
fn read_repeat(value: &Value) -> std::result::Result<Repeat, &'static str> {
    const SHAPE: &str = "must be an object with rule (an RRULE) and from (due or completion)";
    let Value::Object(fields) = value else {
        return Err(SHAPE);
    };
    if fields.keys().any(|k| k != "rule" && k != "from") {
        return Err(SHAPE);
    }
    let Some(Value::String(rule)) = fields.get("rule") else {
        return Err("must have rule, an RRULE value such as FREQ=WEEKLY");
    };
    let from = match fields.get("from") {
        None | Some(Value::Null) => RepeatFrom::Due,
        Some(Value::String(w)) => RepeatFrom::parse(w).ok_or("from must be due or completion")?,
        Some(_) => return Err("from must be due or completion"),
    };
    Ok(Repeat {
        rule: rule.clone(),
        from,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Serialises `input` under `task` and reads it back with the core's parser.
    fn round_trip(input: &TaskInput) -> TaskInput {
        let body = serde_json::json!({ "task": input });
        parse(Some(&body)).unwrap()
    }

    #[test]
    fn an_input_reads_back_as_itself() {
        let list = Id::parse("01ARZ3NDEKTSV4RRFFQ69G5FAV").unwrap();
        let inputs = [
            TaskInput::default(),
            TaskInput::titled("Call the bank"),
            TaskInput {
                title: Some("Pay rent".into()),
                description_html: Field::Value("<p>by <b>Friday</b></p>".into()),
                start_on: Field::Value("2026-03-01".parse().unwrap()),
                deadline_on: Field::Null,
                expires_on: Field::Value("2026-04-01".parse().unwrap()),
                remind_at: Field::Value("2026-03-01T08:30:00Z".parse().unwrap()),
                status: Some(TaskStatus::WontDo),
                task_list_id: Field::Value(list),
                person_id: Field::Null,
                project_id: Field::Null,
                position: Some(-3),
                document_ids: Field::Value(vec![list]),
                document_uploads: Field::Value(vec!["signed".into()]),
                repeat: Field::Value(Repeat::from_completion("FREQ=WEEKLY")),
            },
            TaskInput {
                description_html: Field::Null,
                start_on: Field::Null,
                task_list_id: Field::Null,
                document_ids: Field::Null,
                document_uploads: Field::Null,
                repeat: Field::Null,
                ..TaskInput::default()
            },
        ];
        for input in inputs {
            assert_eq!(round_trip(&input), input);
        }
    }

    #[test]
    fn absent_fields_are_left_out() {
        let input = TaskInput {
            deadline_on: Field::Null,
            ..TaskInput::titled("a")
        };
        assert_eq!(
            serde_json::to_value(&input).unwrap(),
            serde_json::json!({"title": "a", "deadline_on": null})
        );
    }
}
