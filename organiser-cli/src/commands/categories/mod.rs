//! `organiser categories`: the note categories in their order, with how
//! many notes each has; add, move and delete them, one file per
//! subcommand.

mod add;
mod list;
mod mv;
mod rm;

use clap::{Args, Subcommand};
use organiser_core::{Id, ListParams, Page, categories::Category, categories::CategoryQuery};

use super::{Global, Session};
use crate::backend::Access;
use crate::door::Client;
use crate::door::Doors;
use crate::error::CliError;
use crate::refs::Family;

#[derive(Debug, Args)]
pub(crate) struct CategoriesCommand {
    #[command(subcommand)]
    action: Option<CategoriesAction>,
}

#[derive(Debug, Subcommand)]
enum CategoriesAction {
    /// Add a category (last, unless --position says where).
    Add(add::Add),
    /// Move a category to a place in the order (1 is first).
    Move(mv::Move),
    /// Delete a category for good: its notes are kept, uncategorised.
    Rm(rm::Rm),
}

impl CategoriesCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let access = if self.action.is_none() {
            Access::Read
        } else {
            Access::Write
        };
        Session::open(global, access, |s| match self.action {
            None => list::run(s),
            Some(CategoriesAction::Add(c)) => c.run(s),
            Some(CategoriesAction::Move(c)) => c.run(s),
            Some(CategoriesAction::Rm(c)) => c.run(s),
        })
    }
}

/// Categories are named by row number, name (ignoring case), ID or part of
/// an ID.
impl Family for Category {
    const ONE: &'static str = "category";
    const MANY: &'static str = "categories";
    const NAMED: bool = true;

    fn id(&self) -> Id {
        self.id
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn page(client: &Client, cursor: Option<String>) -> Result<Page<Category>, CliError> {
        let query = CategoryQuery {
            params: ListParams {
                cursor,
                limit: 100,
                ..ListParams::default()
            },
        };
        Ok(client.reply(|c| c.categories().list(&query))?.data)
    }

    fn get(client: &Client, id: Id) -> Result<Category, CliError> {
        Ok(client
            .reply(|c| c.categories().get(id))
            .map_err(no_category(id))?
            .data)
    }
}

/// A 404 about category `id` said plainly.
fn no_category(id: Id) -> impl Fn(CliError) -> CliError {
    crate::refs::gone::<Category>(id)
}

/// The API's category fields as the commands set them, for messages.
const FLAGS: &[(&str, &str)] = &[
    ("name", "the name"),
    ("color", "--color"),
    ("icon", "--icon"),
    ("position", "the position"),
];
