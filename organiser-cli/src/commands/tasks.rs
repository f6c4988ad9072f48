//! `organiser tasks`: the smart views as tables (`today` by default), and
//! adding, completing, editing, moving, deleting and restoring tasks.

use std::collections::HashMap;

use clap::{Args, Subcommand};
use comfy_table::Cell;
use organiser_core::time::parse_date_words;
use organiser_core::{Method, Query};
use serde_json::{Map, Value, json};

use super::Global;
use crate::backend::{Backend, data_dir};
use crate::error::CliError;
use crate::output;
use crate::refs::{self, LastListing};

#[derive(Debug, Args)]
pub(crate) struct TasksCommand {
    #[command(subcommand)]
    action: Option<TasksAction>,
    /// Most tasks to show.
    #[arg(long, global = true, default_value_t = 50)]
    limit: u32,
}

#[derive(Debug, Subcommand)]
enum TasksAction {
    /// Tasks that start today or earlier (the default).
    Today,
    /// The Inbox, and everything overdue or due within 14 days.
    Overview,
    /// Tasks that start after today.
    Planned,
    /// Tasks with no start date, outside the Inbox.
    Someday,
    /// Tasks overdue or due within 14 days.
    Due,
    /// Closed tasks, most recently closed first.
    Logbook,
    /// Open tasks in the Inbox.
    Inbox,
    /// Open tasks of one list.
    List {
        /// The list's name (or ID).
        name: String,
    },
    /// Add a task (to the Inbox unless --list is given).
    Add {
        /// The title.
        title: String,
        #[command(flatten)]
        dates: DateArgs,
        /// The list to put it in.
        #[arg(long)]
        list: Option<String>,
    },
    /// Mark a task completed.
    Done {
        /// Row number, ID, or part of an ID.
        task: String,
    },
    /// Open a closed task again.
    Reopen {
        /// Row number, ID, or part of an ID.
        task: String,
    },
    /// Mark a task won't do.
    Wontdo {
        /// Row number, ID, or part of an ID.
        task: String,
    },
    /// Change a task's title, dates, home or position.
    Edit {
        /// Row number, ID, or part of an ID.
        task: String,
        /// A new title.
        #[arg(long)]
        title: Option<String>,
        #[command(flatten)]
        dates: DateArgs,
        #[command(flatten)]
        home: HomeArgs,
        /// Its place among the home's open tasks (1 is the top).
        #[arg(long)]
        position: Option<i64>,
    },
    /// Move a task to a list or the Inbox.
    Move {
        /// Row number, ID, or part of an ID.
        task: String,
        #[command(flatten)]
        home: HomeArgs,
        /// Its place there (1 is the top; default the bottom).
        #[arg(long)]
        position: Option<i64>,
    },
    /// Delete a task (it can be restored for 20 seconds).
    Rm {
        /// Row number, ID, or part of an ID.
        task: String,
    },
    /// Restore a task deleted in the last 20 seconds.
    Restore {
        /// The task's ID (as `rm` printed it).
        id: String,
    },
}

/// Dates as people type them: YYYY-MM-DD, today, tomorrow, friday, +3d,
/// next week; `none` clears.
#[derive(Debug, Args)]
struct DateArgs {
    /// When to start.
    #[arg(long, allow_hyphen_values = true)]
    start: Option<String>,
    /// When it is due.
    #[arg(long, allow_hyphen_values = true)]
    deadline: Option<String>,
    /// When it stops mattering (an open task is archived after that day).
    #[arg(long, allow_hyphen_values = true)]
    expires: Option<String>,
}

#[derive(Debug, Args)]
struct HomeArgs {
    /// A list to move it to.
    #[arg(long, conflicts_with = "inbox")]
    list: Option<String>,
    /// Move it to the Inbox.
    #[arg(long)]
    inbox: bool,
}

impl TasksAction {
    /// Whether the command changes the store (the views only read).
    fn writes(&self) -> bool {
        !matches!(
            self,
            TasksAction::Today
                | TasksAction::Overview
                | TasksAction::Planned
                | TasksAction::Someday
                | TasksAction::Due
                | TasksAction::Logbook
                | TasksAction::Inbox
                | TasksAction::List { .. }
        )
    }
}

/// A listing: which requests, and how to title it.
struct Listing {
    title: String,
    tasks: Vec<(&'static str, String)>,
    counts: Option<Vec<(&'static str, String)>>,
    logbook: bool,
}

fn listing(backend: &Backend, action: &TasksAction) -> Result<Listing, CliError> {
    let view = |name: &'static str, title: &str, counted: bool| Listing {
        title: title.to_owned(),
        tasks: vec![("view", name.to_owned())],
        counts: counted.then(|| vec![("view", name.to_owned())]),
        logbook: name == "logbook",
    };
    Ok(match action {
        TasksAction::Overview => view("overview", "Overview", true),
        TasksAction::Planned => view("planned", "Planned", true),
        TasksAction::Someday => view("one_day", "Someday", true),
        TasksAction::Due => view("due_soon", "Due soon", false),
        TasksAction::Logbook => view("logbook", "Logbook", true),
        TasksAction::Inbox => Listing {
            title: "Inbox".into(),
            tasks: vec![("inbox", "true".into()), ("status", "open".into())],
            counts: Some(vec![("inbox", "true".into())]),
            logbook: false,
        },
        TasksAction::List { name } => {
            let list = refs::list(backend, name)?;
            let id = output::text(&list["id"]);
            Listing {
                title: output::text(&list["name"]),
                tasks: vec![("task_list_id", id.clone()), ("status", "open".into())],
                counts: Some(vec![("task_list_id", id)]),
                logbook: false,
            }
        }
        _ => view("today", "Today", true),
    })
}

/// "Today · 3 open · 1 overdue · 2 completed today".
fn header(title: &str, counts: &Value, logbook: bool) -> String {
    let mut parts = vec![title.to_owned()];
    let page = &counts["data"]["page"];
    let n = |v: &Value| v.as_u64().unwrap_or(0);
    if page.is_object() {
        if logbook {
            parts.push(format!("{} completed", n(&page["completed"])));
            parts.push(format!("{} won't do", n(&page["wont_do"])));
            parts.push(format!("{} expired", n(&page["expired"])));
        } else {
            parts.push(format!("{} open", n(&page["open"])));
            if n(&page["overdue"]) > 0 {
                parts.push(format!("{} overdue", n(&page["overdue"])));
            }
        }
        parts.push(format!("{} completed today", n(&page["completed_today"])));
    } else {
        let d = &counts["data"];
        parts.push(format!("{} due soon", n(&d["due_soon"])));
        parts.push(format!("{} overdue", n(&d["overdue"])));
    }
    parts.join(" · ")
}

fn show(
    backend: &Backend,
    global: &Global,
    action: &TasksAction,
    limit: u32,
) -> Result<(), CliError> {
    let listing = listing(backend, action)?;
    let mut pairs = listing.tasks.clone();
    pairs.push(("limit", limit.to_string()));
    pairs.push(("count", "true".into()));
    let page = backend.get("/tasks", Query::from_pairs(pairs))?;
    let tasks = page["data"].as_array().cloned().unwrap_or_default();
    let ids: Vec<String> = tasks.iter().map(|t| output::text(&t["id"])).collect();
    LastListing::new(data_dir(global.data_dir.as_deref())?).save(&ids);
    if global.json {
        return output::json(&page);
    }
    let counts = backend.get(
        "/task_counts",
        Query::from_pairs(listing.counts.clone().unwrap_or_default()),
    )?;
    output::line(header(&listing.title, &counts, listing.logbook))?;
    if tasks.is_empty() {
        return output::line("Nothing here.");
    }
    let names: HashMap<String, String> = refs::all_lists(backend)?
        .iter()
        .map(|l| (output::text(&l["id"]), output::text(&l["name"])))
        .collect();
    let today = backend.get("/me", Query::default())?["data"]["today"]
        .as_str()
        .unwrap_or_default()
        .to_owned();
    let last = if listing.logbook {
        ["STATUS", "CLOSED"]
    } else {
        ["START", "DEADLINE"]
    };
    let mut table = output::table(&["#", "ID", "TITLE", "HOME", last[0], last[1]]);
    for (row, task) in tasks.iter().enumerate() {
        let id = output::text(&task["id"]);
        let home = match task["task_list_id"].as_str() {
            Some(list) => names.get(list).cloned().unwrap_or_else(|| "(list)".into()),
            None if task["person_id"].is_string() => "(person)".into(),
            None if task["project_id"].is_string() => "(project)".into(),
            None => "Inbox".into(),
        };
        let mut cells = vec![
            Cell::new(row + 1),
            Cell::new(&id[id.len().saturating_sub(6)..]),
            Cell::new(output::text(&task["title"])),
            Cell::new(home),
        ];
        if listing.logbook {
            let closed = task["completed_at"]
                .as_str()
                .or(task["archived_at"].as_str())
                .unwrap_or("-");
            cells.push(Cell::new(match task["status"].as_str() {
                Some("wont_do") => "won't do".to_owned(),
                other => other.unwrap_or("-").to_owned(),
            }));
            cells.push(Cell::new(&closed[..closed.len().min(10)]));
        } else {
            cells.push(Cell::new(date_cell(&task["start_on"])));
            let deadline = date_cell(&task["deadline_on"]);
            let overdue = task["deadline_on"]
                .as_str()
                .is_some_and(|d| d < today.as_str());
            cells.push(if overdue {
                output::red(deadline)
            } else {
                Cell::new(deadline)
            });
        }
        table.add_row(cells);
    }
    output::print_table(&table)?;
    let total = page["meta"]["total_count"].as_u64().unwrap_or(0);
    if total > tasks.len() as u64 {
        output::line(format!(
            "… and {} more (--limit)",
            total - tasks.len() as u64
        ))?;
    }
    Ok(())
}

fn date_cell(v: &Value) -> String {
    v.as_str().unwrap_or("").to_owned()
}

/// Turns typed dates into the API's, asking the server for today only when
/// a word needs it.
fn dates(
    backend: &Backend,
    args: &DateArgs,
    body: &mut Map<String, Value>,
) -> Result<(), CliError> {
    let mut today: Option<jiff::civil::Date> = None;
    for (field, text) in [
        ("start_on", &args.start),
        ("deadline_on", &args.deadline),
        ("expires_on", &args.expires),
    ] {
        let Some(text) = text else { continue };
        if matches!(text.trim().to_lowercase().as_str(), "none" | "-" | "") {
            body.insert(field.into(), Value::Null);
            continue;
        }
        let today = match today {
            Some(t) => t,
            None => {
                let me = backend.get("/me", Query::default())?;
                let t = me["data"]["today"]
                    .as_str()
                    .and_then(|t| t.parse().ok())
                    .ok_or_else(|| CliError::msg("the server did not say what day it is"))?;
                today = Some(t);
                t
            }
        };
        let date = parse_date_words(text, today).ok_or_else(|| {
            CliError::msg(format!(
                "{text:?} is not a date: use YYYY-MM-DD, today, tomorrow, a weekday, +3d, +2w or next week"
            ))
        })?;
        body.insert(field.into(), Value::String(date.to_string()));
    }
    Ok(())
}

fn home(
    backend: &Backend,
    args: &HomeArgs,
    body: &mut Map<String, Value>,
) -> Result<bool, CliError> {
    if args.inbox {
        body.insert("task_list_id".into(), Value::Null);
        body.insert("person_id".into(), Value::Null);
        body.insert("project_id".into(), Value::Null);
        return Ok(true);
    }
    if let Some(name) = &args.list {
        let list = refs::list(backend, name)?;
        body.insert("task_list_id".into(), list["id"].clone());
        return Ok(true);
    }
    Ok(false)
}

/// A 404 about task `id` said plainly.
fn no_task(id: &str) -> impl Fn(CliError) -> CliError + '_ {
    move |e| match e {
        CliError::Api { status: 404, .. } => {
            CliError::msg(format!("there is no task {id} (was it deleted?)"))
        }
        other => other,
    }
}

fn said(global: &Global, reply: &Value, line: String) -> Result<(), CliError> {
    if global.json {
        output::json(reply)
    } else {
        output::line(line)
    }
}

impl TasksCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let action = self.action.unwrap_or(TasksAction::Today);
        let backend = if action.writes() {
            global.backend()?
        } else {
            global.reader()?
        };
        let last = LastListing::new(data_dir(global.data_dir.as_deref())?);
        let patch = |id: &str, body: Map<String, Value>| {
            backend
                .send(
                    Method::Patch,
                    &format!("/tasks/{id}"),
                    Query::default(),
                    Some(json!({ "task": body })),
                )
                .map_err(no_task(id))
        };
        let status = |task: &str, status: &str, verb: &str| -> Result<(), CliError> {
            let id = refs::task(&backend, &last, task)?;
            let mut body = Map::new();
            body.insert("status".into(), status.into());
            let reply = patch(&id, body)?;
            said(
                global,
                &reply,
                format!("{verb} {}", output::text(&reply["data"]["title"])),
            )
        };
        match &action {
            TasksAction::Add {
                title,
                dates: d,
                list,
            } => {
                let mut body = Map::new();
                body.insert("title".into(), title.clone().into());
                dates(&backend, d, &mut body)?;
                home(
                    &backend,
                    &HomeArgs {
                        list: list.clone(),
                        inbox: false,
                    },
                    &mut body,
                )?;
                let reply = backend.send(
                    Method::Post,
                    "/tasks",
                    Query::default(),
                    Some(json!({ "task": body })),
                )?;
                let id = output::text(&reply["data"]["id"]);
                said(
                    global,
                    &reply,
                    format!(
                        "Added {} ({})",
                        output::text(&reply["data"]["title"]),
                        &id[id.len() - 6..]
                    ),
                )
            }
            TasksAction::Done { task } => status(task, "completed", "Completed"),
            TasksAction::Reopen { task } => status(task, "open", "Reopened"),
            TasksAction::Wontdo { task } => status(task, "wont_do", "Won't do:"),
            TasksAction::Edit {
                task,
                title,
                dates: d,
                home: h,
                position,
            } => {
                let id = refs::task(&backend, &last, task)?;
                let mut body = Map::new();
                if let Some(title) = title {
                    body.insert("title".into(), title.clone().into());
                }
                dates(&backend, d, &mut body)?;
                home(&backend, h, &mut body)?;
                if let Some(p) = position {
                    body.insert("position".into(), (*p).into());
                }
                if body.is_empty() {
                    return Err(CliError::msg(
                        "nothing to change: give --title, --start, --deadline, --expires, --list, --inbox or --position",
                    ));
                }
                let reply = patch(&id, body)?;
                said(
                    global,
                    &reply,
                    format!("Changed {}", output::text(&reply["data"]["title"])),
                )
            }
            TasksAction::Move {
                task,
                home: h,
                position,
            } => {
                let id = refs::task(&backend, &last, task)?;
                let mut body = Map::new();
                if !home(&backend, h, &mut body)? {
                    return Err(CliError::msg("say where: --list NAME or --inbox"));
                }
                if let Some(p) = position {
                    body.insert("position".into(), (*p).into());
                }
                let reply = patch(&id, body)?;
                said(
                    global,
                    &reply,
                    format!("Moved {}", output::text(&reply["data"]["title"])),
                )
            }
            TasksAction::Rm { task } => {
                let id = refs::task(&backend, &last, task)?;
                let before = backend
                    .get(&format!("/tasks/{id}"), Query::default())
                    .map_err(no_task(&id))?;
                backend.send(
                    Method::Delete,
                    &format!("/tasks/{id}"),
                    Query::default(),
                    None,
                )?;
                let reply = json!({ "data": { "deleted": id } });
                said(
                    global,
                    &reply,
                    format!(
                        "Deleted {}. Undo within 20 seconds: organiser tasks restore {id}",
                        output::text(&before["data"]["title"])
                    ),
                )
            }
            TasksAction::Restore { id } => {
                let id = refs::task(&backend, &last, id)?;
                let reply = backend
                    .send(Method::Post, &format!("/tasks/{id}/restoration"), Query::default(), None)
                    .map_err(|e| match e {
                        CliError::Api { status: 404, .. } => CliError::msg(format!(
                            "nothing to restore: {id} is not a task deleted in the last 20 seconds (a task deleted with its list comes back with the list)"
                        )),
                        other => other,
                    })?;
                said(
                    global,
                    &reply,
                    format!("Restored {}", output::text(&reply["data"]["title"])),
                )
            }
            listing_action => show(&backend, global, listing_action, self.limit),
        }
    }
}
