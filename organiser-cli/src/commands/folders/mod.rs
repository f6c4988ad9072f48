//! `organiser folders`: the document folders as a tree, with how many
//! documents each holds; add, rename and rm them, one file per
//! subcommand.

mod add;
mod rename;
mod rm;
mod tree;

use clap::{Args, Subcommand};
use organiser_core::{Id, ListParams, Page, folders::Folder, folders::FolderQuery};

use super::{Global, Session};
use crate::backend::Access;
use crate::door::Client;
use crate::door::Doors;
use crate::error::CliError;
use crate::refs::Family;

#[derive(Debug, Args)]
pub(crate) struct FoldersCommand {
    #[command(subcommand)]
    action: Option<FoldersAction>,
}

#[derive(Debug, Subcommand)]
enum FoldersAction {
    /// Add a folder, at the top or inside another.
    Add(add::Add),
    /// Rename a folder.
    Rename(rename::Rename),
    /// Delete an empty folder (no documents, no subfolders); for good.
    Rm(rm::Rm),
}

impl FoldersCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let access = match self.action {
            None => Access::Read,
            Some(_) => Access::Write,
        };
        Session::open(global, access, |s| match self.action {
            None => tree::Tree.run(s),
            Some(FoldersAction::Add(c)) => c.run(s),
            Some(FoldersAction::Rename(c)) => c.run(s),
            Some(FoldersAction::Rm(c)) => c.run(s),
        })
    }
}

/// Folders are named by row number (of the tree), name (names repeat in
/// different parents: such a name is ambiguous), short ID or ID.
impl Family for Folder {
    const ONE: &'static str = "folder";
    const MANY: &'static str = "folders";
    const NAMED: bool = true;
    const SEARCHED: Option<organiser_core::search::SearchType> =
        Some(organiser_core::search::SearchType::Folder);

    fn id(&self) -> Id {
        self.id
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn page(client: &Client, cursor: Option<String>) -> Result<Page<Folder>, CliError> {
        let query = FolderQuery {
            params: ListParams {
                cursor,
                limit: 100,
                order: Some(organiser_core::list::ListOrder::Name),
                ..ListParams::default()
            },
            ..FolderQuery::default()
        };
        Ok(client.reply(|c| c.folders().list(&query))?.data)
    }

    fn get(client: &Client, id: Id) -> Result<Folder, CliError> {
        Ok(client
            .reply(|c| c.folders().get(id))
            .map_err(no_folder(id))?
            .data)
    }
}

/// A 404 about folder `id` said plainly.
fn no_folder(id: Id) -> impl Fn(CliError) -> CliError {
    crate::refs::gone::<Folder>(id)
}

/// The API's folder fields as the folder commands set them.
const FLAGS: &[(&str, &str)] = &[("name", "the name"), ("parent_id", "--parent")];
