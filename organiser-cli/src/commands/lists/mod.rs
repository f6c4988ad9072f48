//! `organiser lists`: the task lists with their open counts; add, rename,
//! move, delete and restore them, one file per subcommand.

mod add;
mod r#move;
mod rename;
mod rm;
mod show;

use clap::{Args, Subcommand};
use organiser_core::{Id, ListParams, Page, task_lists::TaskList, task_lists::TaskListQuery};

use super::{Global, Session};
use crate::backend::Access;
use crate::door::Client;
use crate::door::Doors;
use crate::error::CliError;
use crate::refs::Family;

#[derive(Debug, Args)]
pub(crate) struct ListsCommand {
    #[command(subcommand)]
    action: Option<ListsAction>,
}

#[derive(Debug, Subcommand)]
enum ListsAction {
    /// Add a list.
    Add(add::Add),
    /// Rename a list.
    Rename(rename::Rename),
    /// Move a list to a place (1 is the top).
    Move(r#move::Move),
    /// Delete a list with its tasks (it can be restored for 20 seconds).
    Rm(rm::Rm),
    /// Restore a list deleted in the last 20 seconds.
    Restore(crate::commands::restore::Restore),
}

impl ListsCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let access = match self.action {
            None => Access::Read,
            Some(_) => Access::Write,
        };
        Session::open(global, access, |s| match self.action {
            None => show::Show.run(s),
            Some(ListsAction::Add(c)) => c.run(s),
            Some(ListsAction::Rename(c)) => c.run(s),
            Some(ListsAction::Move(c)) => c.run(s),
            Some(ListsAction::Rm(c)) => c.run(s),
            Some(ListsAction::Restore(c)) => c.run::<TaskList>(s),
        })
    }
}

/// The API's list fields as the list commands set them, for messages.
const FLAGS: &[(&str, &str)] = &[
    ("name", "the name"),
    ("color", "--color"),
    ("icon", "--icon"),
    ("position", "the position"),
];

/// Lists are named by row number, name (ignoring case), ID or part of an ID.
impl Family for TaskList {
    const ONE: &'static str = "list";
    const MANY: &'static str = "lists";
    const NAMED: bool = true;
    const SEARCHED: Option<organiser_core::search::SearchType> =
        Some(organiser_core::search::SearchType::TaskList);

    fn id(&self) -> Id {
        self.id
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn page(client: &Client, cursor: Option<String>) -> Result<Page<TaskList>, CliError> {
        let query = TaskListQuery {
            params: ListParams {
                cursor,
                limit: 100,
                ..ListParams::default()
            },
        };
        Ok(client.reply(|c| c.task_lists().list(&query))?.data)
    }

    fn get(client: &Client, id: Id) -> Result<TaskList, CliError> {
        Ok(client.reply(|c| c.task_lists().get(id))?.data)
    }
}

impl crate::commands::restore::Restorable for TaskList {
    type Record = organiser_core::task_lists::TaskList;
    const LABEL: &'static str = "list ";

    fn live(client: &Client, id: Id) -> Result<crate::door::Reply<Self::Record>, CliError> {
        client.reply(|c| c.task_lists().get(id))
    }

    fn restore(client: &Client, id: Id) -> Result<crate::door::Reply<Self::Record>, CliError> {
        client.reply(|c| c.task_lists().restore(id))
    }

    fn called(record: &Self::Record) -> &str {
        &record.name
    }
}
