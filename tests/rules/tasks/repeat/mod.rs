//! EXTENSIONS.md §1, "Recurring tasks": the `repeat` rule read and
//! normalised (rule 1), the series a repeat starts (rule 2), the next
//! occurrence a close makes (rules 3 and 4), reopening as an undo
//! (rule 5), deleting and restoring an occurrence (rule 6), the calendar's
//! `repeats` (rule 7), views that see real tasks only (rule 8), and every
//! refused repeat leaving the store as it was.
//!
//! Today is Tuesday 2026-03-10 (UTC) unless a test moves the clock.
//!
//! This file holds the helpers the tests share; the tests are split by
//! area: `rule`, `closing`, `undo`, `calendar` and `refusals`.

use serde_json::{Value, json};

use crate::common::fixtures::{
    all, deletions, get_task, id, new_list, new_task, now_string, patch_task, records, set_zone,
    with_updated_at,
};
use crate::common::{Call, Core, Expect, Setup, check, send};

mod calendar;
mod closing;
mod refusals;
mod rule;
mod undo;

/// A licensed in-memory organiser (the tests move the clock past the
/// 14-day trial), at 2026-03-10T09:00:00Z, owner zone UTC.
fn start() -> Core {
    Core::licensed(Setup::default())
}

/// Every task, whatever its status.
const EVERY: &str = "/tasks?status=open,completed,wont_do,archived";

/// Creates an Inbox task titled `title`, due `deadline`, repeating by
/// `rule` from its due dates; the record.
#[track_caller]
fn due_task(s: &Core, title: &str, deadline: &str, rule: &str) -> Value {
    new_task(
        s,
        json!({"title": title, "deadline_on": deadline, "repeat": {"rule": rule}}),
    )
}

/// `PATCH /tasks/{id}` to `status`, which must be 200; the record.
#[track_caller]
fn set_status(s: &Core, task: &Value, status: &str) -> Value {
    patch_task(s, &id(task), json!({ "status": status }))
        .expect(200)
        .data()
        .clone()
}

/// Completes `task`; the closed record.
#[track_caller]
fn complete(s: &Core, task: &Value) -> Value {
    set_status(s, task, "completed")
}

/// The occurrence `closed`'s closing made, which must exist.
#[track_caller]
fn next_of(s: &Core, closed: &Value) -> Value {
    let next = closed["next_task_id"]
        .as_str()
        .unwrap_or_else(|| panic!("no next occurrence: {closed}"));
    get_task(s, next)
}

/// Completes `task`; the occurrence that made.
#[track_caller]
fn complete_and_next(s: &Core, task: &Value) -> Value {
    let closed = complete(s, task);
    next_of(s, &closed)
}

/// The open tasks.
#[track_caller]
fn open_tasks(s: &Core) -> Vec<Value> {
    all(s, "/tasks?status=open")
}

/// The open tasks' deadlines, sorted.
#[track_caller]
fn open_deadlines(s: &Core) -> Vec<String> {
    let mut dates: Vec<String> = open_tasks(s)
        .iter()
        .map(|t| t["deadline_on"].as_str().unwrap_or("none").to_owned())
        .collect();
    dates.sort();
    dates
}

/// Sets the clock to `instant` (RFC 3339).
fn at(s: &Core, instant: &str) {
    s.clock.set(instant.parse().unwrap());
}

/// Everything a refused write must leave as it was: every task and the
/// deletion records.
#[track_caller]
fn store(s: &Core) -> (Vec<Value>, Vec<(String, String)>) {
    let mut tasks = all(s, EVERY);
    tasks.sort_by_key(id);
    (tasks, deletions(s))
}

/// `GET /calendar?from=..&to=..`'s `repeats` as (date, title).
#[track_caller]
fn repeats(s: &Core, from: &str, to: &str) -> Vec<(String, String)> {
    s.get(&format!("/calendar?from={from}&to={to}"))
        .expect(200)
        .data()["repeats"]
        .as_array()
        .expect("repeats")
        .iter()
        .map(|r| {
            (
                r["date"].as_str().unwrap().to_owned(),
                r["task"]["title"].as_str().unwrap().to_owned(),
            )
        })
        .collect()
}

/// (date, title) pairs, owned.
fn pairs(items: &[(&str, &str)]) -> Vec<(String, String)> {
    items
        .iter()
        .map(|(d, t)| ((*d).to_owned(), (*t).to_owned()))
        .collect()
}
