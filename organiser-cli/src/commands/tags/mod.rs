//! `organiser tags`: the tags by name with how many notes have each;
//! rename, merge and delete them, one file per subcommand. Tags are made
//! by writing `#word` in a note's body.

mod list;
mod merge;
mod rename;
mod rm;

use clap::{Args, Subcommand};
use organiser_core::{Id, ListParams, Page, tags::Tag, tags::TagQuery};

use super::{Global, Session};
use crate::backend::Access;
use crate::door::Client;
use crate::door::Doors;
use crate::error::CliError;
use crate::refs::Family;

#[derive(Debug, Args)]
pub(crate) struct TagsCommand {
    #[command(subcommand)]
    action: Option<TagsAction>,
}

#[derive(Debug, Subcommand)]
enum TagsAction {
    /// Rename a tag: every note with it shows the new name.
    Rename(rename::Rename),
    /// Merge a tag into another: its notes get the other, and it is deleted.
    Merge(merge::Merge),
    /// Delete a tag: it is taken off every note (its word stays, without `#`).
    Rm(rm::Rm),
}

impl TagsCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let access = if self.action.is_none() {
            Access::Read
        } else {
            Access::Write
        };
        Session::open(global, access, |s| match self.action {
            None => list::run(s),
            Some(TagsAction::Rename(c)) => c.run(s),
            Some(TagsAction::Merge(c)) => c.run(s),
            Some(TagsAction::Rm(c)) => c.run(s),
        })
    }
}

/// Tags are named by row number, name (ignoring case, with or without
/// `#`), ID or part of an ID.
impl Family for Tag {
    const ONE: &'static str = "tag";
    const MANY: &'static str = "tags";
    const NAMED: bool = true;

    fn id(&self) -> Id {
        self.id
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn page(client: &Client, cursor: Option<String>) -> Result<Page<Tag>, CliError> {
        let query = TagQuery {
            params: ListParams {
                cursor,
                limit: 100,
                ..ListParams::default()
            },
        };
        Ok(client.reply(|c| c.tags().list(&query))?.data)
    }

    fn get(client: &Client, id: Id) -> Result<Tag, CliError> {
        Ok(client.reply(|c| c.tags().get(id)).map_err(no_tag(id))?.data)
    }
}

/// A tag as typed: without a leading `#`.
fn typed(reference: &str) -> &str {
    let reference = reference.trim();
    reference.strip_prefix('#').unwrap_or(reference)
}

/// A 404 about tag `id` said plainly.
fn no_tag(id: Id) -> impl Fn(CliError) -> CliError {
    crate::refs::gone::<Tag>(id)
}

/// How many live notes have the tag `id`.
fn note_count(s: &Session<'_>, id: Id) -> Result<u64, CliError> {
    let query = organiser_core::notes::NoteQuery {
        tag_id: Some(id),
        params: ListParams {
            limit: 1,
            count: true,
            ..ListParams::default()
        },
        ..organiser_core::notes::NoteQuery::default()
    };
    Ok(s.client
        .reply(|c| c.notes().list(&query))?
        .data
        .total_count
        .unwrap_or(0))
}

/// "1 note", "3 notes".
fn notes(n: u64) -> String {
    format!("{n} {}", if n == 1 { "note" } else { "notes" })
}
