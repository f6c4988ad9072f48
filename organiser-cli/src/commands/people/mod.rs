//! `organiser people`: the people as a table; show, add, edit, link,
//! unlink, delete and restore them, one file per subcommand (what `add`
//! and `edit` send is made in `fields`); and `organiser birthdays`, the
//! key dates to come.

mod add;
pub(crate) mod birthdays;
mod edit;
mod fields;
mod link;
mod list;
mod rm;
mod show;
mod unlink;

use clap::{Args, Subcommand};
use organiser_core::{Id, ListParams, Page, people::Person, people::PersonQuery};

use super::{Global, Session};
use crate::backend::Access;
use crate::door::Client;
use crate::door::Doors;
use crate::error::CliError;
use crate::refs::Family;

#[derive(Debug, Args)]
pub(crate) struct PeopleCommand {
    #[command(subcommand)]
    action: Option<PeopleAction>,
    /// Only people of this relationship (a key of the vocabulary, or
    /// `family` for any family one).
    #[arg(long, value_name = "KEY")]
    relationship: Option<String>,
    /// Most people to show (the pages of the API are read until there are
    /// this many).
    #[arg(long, default_value_t = 50)]
    limit: u32,
    /// Show every person, however many.
    #[arg(long, conflicts_with = "limit")]
    all: bool,
}

#[derive(Debug, Subcommand)]
enum PeopleAction {
    /// Everything about a person: contact details, key dates, jobs,
    /// connections, projects, open tasks, notes, documents and meetings.
    Show(show::Show),
    /// Add a person.
    Add(add::Add),
    /// Change a person: name, relationships, birthday and other key dates,
    /// contact details, jobs, links and photo.
    Edit(edit::Edit),
    /// Link two people: `people link Ada parent Byron` (Ada is Byron's parent).
    Link(link::Link),
    /// Remove a link between two people (for good: links have no restore).
    Unlink(unlink::Unlink),
    /// Delete a person (it can be restored for 20 seconds).
    Rm(rm::Rm),
    /// Restore a person deleted in the last 20 seconds.
    Restore(crate::commands::restore::Restore),
}

impl PeopleCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let reads = matches!(self.action, None | Some(PeopleAction::Show(_)));
        let access = if reads { Access::Read } else { Access::Write };
        Session::open(global, access, |s| {
            let limit = if self.all {
                usize::MAX
            } else {
                self.limit as usize
            };
            match self.action {
                None => list::List {
                    relationship: self.relationship,
                    limit,
                }
                .run(s),
                Some(PeopleAction::Show(c)) => c.run(s),
                Some(PeopleAction::Add(c)) => c.run(s),
                Some(PeopleAction::Edit(c)) => c.run(s),
                Some(PeopleAction::Link(c)) => c.run(s),
                Some(PeopleAction::Unlink(c)) => c.run(s),
                Some(PeopleAction::Rm(c)) => c.run(s),
                Some(PeopleAction::Restore(c)) => c.run::<Person>(s),
            }
        })
    }
}

/// People are named by row number, name (ignoring case), ID or part of an ID.
impl Family for Person {
    const ONE: &'static str = "person";
    const MANY: &'static str = "people";
    const NAMED: bool = true;
    const SEARCHED: Option<organiser_core::search::SearchType> =
        Some(organiser_core::search::SearchType::Person);
    const DELETED_ASK: &'static str = "were they";

    fn id(&self) -> Id {
        self.id
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn page(client: &Client, cursor: Option<String>) -> Result<Page<Person>, CliError> {
        let query = PersonQuery {
            relationship: None,
            q: None,
            params: ListParams {
                cursor,
                limit: 100,
                ..ListParams::default()
            },
        };
        Ok(client.reply(|c| c.people().list(&query))?.data)
    }

    fn get(client: &Client, id: Id) -> Result<Person, CliError> {
        Ok(client
            .reply(|c| c.people().get(id))
            .map_err(no_person(id))?
            .data)
    }

    /// The people whose name begins with `name` (ignoring case), found by
    /// the API's `q` rather than by reading everyone.
    fn named(client: &Client, name: &str) -> Result<Option<Vec<Person>>, CliError> {
        let mut found = Vec::new();
        let mut cursor = None;
        loop {
            let query = PersonQuery {
                relationship: None,
                q: Some(name.to_owned()),
                params: ListParams {
                    cursor,
                    limit: 100,
                    ..ListParams::default()
                },
            };
            let page = client.reply(|c| c.people().list(&query))?.data;
            found.extend(page.items);
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => return Ok(Some(found)),
            }
        }
    }
}

/// A 404 about person `id` said plainly.
fn no_person(id: Id) -> impl Fn(CliError) -> CliError {
    crate::refs::gone::<Person>(id)
}

impl crate::commands::restore::Restorable for Person {
    type Record = organiser_core::people::Person;
    const LABEL: &'static str = "";

    fn live(client: &Client, id: Id) -> Result<crate::door::Reply<Self::Record>, CliError> {
        client.reply(|c| c.people().get(id))
    }

    fn restore(client: &Client, id: Id) -> Result<crate::door::Reply<Self::Record>, CliError> {
        client.reply(|c| c.people().restore(id))
    }

    fn called(record: &Self::Record) -> &str {
        &record.name
    }
}
