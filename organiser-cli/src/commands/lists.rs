//! `organiser lists`: the task lists with their open counts; add, rename,
//! move, delete and restore them.

use clap::{Args, Subcommand};
use comfy_table::Cell;
use organiser_core::{Method, Query};
use serde_json::{Map, Value, json};

use super::Global;
use crate::error::CliError;
use crate::output;
use crate::refs;

#[derive(Debug, Args)]
pub(crate) struct ListsCommand {
    #[command(subcommand)]
    action: Option<ListsAction>,
}

#[derive(Debug, Subcommand)]
enum ListsAction {
    /// Add a list.
    Add {
        /// Its name.
        name: String,
        /// A colour key (see the vocabulary); default the first unused.
        #[arg(long)]
        color: Option<String>,
        /// An icon name (see the vocabulary).
        #[arg(long)]
        icon: Option<String>,
        /// Its place (1 is the top; default the bottom).
        #[arg(long)]
        position: Option<i64>,
    },
    /// Rename a list.
    Rename {
        /// The list's name (or ID).
        list: String,
        /// The new name.
        name: String,
    },
    /// Move a list to a place (1 is the top).
    Move {
        /// The list's name (or ID).
        list: String,
        /// The new place.
        position: i64,
    },
    /// Delete a list with its tasks (it can be restored for 20 seconds).
    Rm {
        /// The list's name (or ID).
        list: String,
    },
    /// Restore a list deleted in the last 20 seconds.
    Restore {
        /// The list's ID (as `rm` printed it).
        id: String,
    },
}

fn show(global: &Global, backend: &crate::backend::Backend) -> Result<(), CliError> {
    let lists = refs::all_lists(backend)?;
    if global.json {
        // Every page's lists in one page of the API's shape.
        let limit = lists.len().max(1);
        return output::json(
            &json!({ "data": lists, "meta": { "next_cursor": null, "limit": limit } }),
        );
    }
    let counts = backend.get("/task_counts", Query::default())?;
    let open = |id: &Value| {
        counts["data"]["task_lists"]
            .as_array()
            .into_iter()
            .flatten()
            .find(|c| &c["id"] == id)
            .and_then(|c| c["open"].as_u64())
            .unwrap_or(0)
    };
    output::line(format!(
        "Lists · Inbox {} open · {} lists",
        counts["data"]["inbox"].as_u64().unwrap_or(0),
        lists.len()
    ))?;
    if lists.is_empty() {
        return output::line("No lists yet: add one with `organiser lists add NAME`.");
    }
    let mut table = output::table(&["#", "NAME", "OPEN", "COLOUR", "ID"]);
    for list in &lists {
        let id = output::text(&list["id"]);
        table.add_row(vec![
            Cell::new(output::text(&list["position"])),
            Cell::new(output::text(&list["name"])),
            Cell::new(open(&list["id"])),
            Cell::new(output::text(&list["color"])),
            Cell::new(&id[id.len().saturating_sub(6)..]),
        ]);
    }
    output::print_table(&table)
}

impl ListsCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let backend = match self.action {
            None => global.reader()?,
            Some(_) => global.backend()?,
        };
        let said = |reply: &Value, line: String| {
            if global.json {
                output::json(reply)
            } else {
                output::line(line)
            }
        };
        let patch = |id: &Value, body: Value| {
            backend.send(
                Method::Patch,
                &format!("/task_lists/{}", output::text(id)),
                Query::default(),
                Some(json!({ "task_list": body })),
            )
        };
        match self.action {
            None => show(global, &backend),
            Some(ListsAction::Add {
                name,
                color,
                icon,
                position,
            }) => {
                let mut body = Map::new();
                body.insert("name".into(), name.into());
                if let Some(c) = color {
                    body.insert("color".into(), c.into());
                }
                if let Some(i) = icon {
                    body.insert("icon".into(), i.into());
                }
                if let Some(p) = position {
                    body.insert("position".into(), p.into());
                }
                let reply = backend.send(
                    Method::Post,
                    "/task_lists",
                    Query::default(),
                    Some(json!({ "task_list": body })),
                )?;
                said(
                    &reply,
                    format!("Added list {}", output::text(&reply["data"]["name"])),
                )
            }
            Some(ListsAction::Rename { list, name }) => {
                let list = refs::list(&backend, &list)?;
                let reply = patch(&list["id"], json!({ "name": name }))?;
                said(
                    &reply,
                    format!(
                        "Renamed {} to {}",
                        output::text(&list["name"]),
                        output::text(&reply["data"]["name"])
                    ),
                )
            }
            Some(ListsAction::Move { list, position }) => {
                let list = refs::list(&backend, &list)?;
                let reply = patch(&list["id"], json!({ "position": position }))?;
                said(
                    &reply,
                    format!(
                        "Moved {} to {}",
                        output::text(&reply["data"]["name"]),
                        output::text(&reply["data"]["position"])
                    ),
                )
            }
            Some(ListsAction::Rm { list }) => {
                let list = refs::list(&backend, &list)?;
                let id = output::text(&list["id"]);
                backend.send(
                    Method::Delete,
                    &format!("/task_lists/{id}"),
                    Query::default(),
                    None,
                )?;
                said(
                    &json!({ "data": { "deleted": id } }),
                    format!(
                        "Deleted list {} and its tasks. Undo within 20 seconds: organiser lists restore {id}",
                        output::text(&list["name"])
                    ),
                )
            }
            Some(ListsAction::Restore { id }) => {
                let id = id.trim();
                let reply = backend
                    .send(
                        Method::Post,
                        &format!("/task_lists/{id}/restoration"),
                        Query::default(),
                        None,
                    )
                    .map_err(|e| match e {
                        CliError::Api { status: 404, .. } => CliError::msg(format!(
                            "nothing to restore: {id} is not a list deleted in the last 20 seconds"
                        )),
                        other => other,
                    })?;
                said(
                    &reply,
                    format!("Restored list {}", output::text(&reply["data"]["name"])),
                )
            }
        }
    }
}
