//! `organiser docs`: the documents (PDFs) by name, in a folder, or those a
//! search finds; add (upload a PDF, with a progress bar for a large one),
//! edit (rename, move), open, link, unlink, rm and restore them, one file per subcommand.

mod add;
mod edit;
mod link;
mod list;
mod open;
mod rm;

use clap::{Args, Subcommand};
use organiser_core::{
    Id, ListParams, Page, documents::Document, documents::DocumentLinkQuery,
    documents::DocumentQuery, notes::NoteSummary, people::Person, projects::Project, tasks::Task,
};

use super::{Global, Session};
use crate::backend::Access;
use crate::door::Client;
use crate::door::Doors;
use crate::error::CliError;
use crate::refs::Family;

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub(crate) struct DocsCommand {
    #[command(subcommand)]
    action: Option<DocsAction>,
    /// Words to search for: each must begin a word of the document's name
    /// (ignoring case and accents).
    #[arg(value_name = "QUERY")]
    query: Vec<String>,
    /// Only the documents in this folder (its row number in `folders`,
    /// name, short ID or ID; not those in its subfolders).
    #[arg(long)]
    folder: Option<String>,
    /// Only the documents in no folder.
    #[arg(long, conflicts_with = "folder")]
    unfiled: bool,
    /// Most documents to show (the pages of the API are read until there
    /// are this many).
    #[arg(long, default_value_t = 50)]
    limit: u32,
    /// Show every document, however many.
    #[arg(long, conflicts_with = "limit")]
    all: bool,
}

#[derive(Debug, Subcommand)]
enum DocsAction {
    /// Add a document: upload a PDF, name it, file it, link it.
    Add(add::Add),
    /// Rename a document, or move it to another folder (or none).
    Edit(edit::Edit),
    /// Open a document's PDF with the system's opener (or print its path).
    Open(open::Open),
    /// Link a document to a task, project, person or note.
    Link(link::Link),
    /// Remove a document's link to a task, project, person or note.
    Unlink(link::Unlink),
    /// Delete a document (it can be restored for 20 seconds).
    Rm(rm::Rm),
    /// Restore a document deleted in the last 20 seconds (the one deleted
    /// last, unless one is named).
    Restore(crate::commands::restore::Restore),
}

impl DocsCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let reads = matches!(self.action, None | Some(DocsAction::Open(_)));
        let access = if reads { Access::Read } else { Access::Write };
        Session::open(global, access, |s| {
            let limit = if self.all {
                usize::MAX
            } else {
                self.limit as usize
            };
            match self.action {
                None => list::List {
                    query: self.query.join(" "),
                    folder: self.folder,
                    unfiled: self.unfiled,
                    limit,
                }
                .run(s),
                Some(DocsAction::Add(c)) => c.run(s),
                Some(DocsAction::Edit(c)) => c.run(s),
                Some(DocsAction::Open(c)) => c.run(s),
                Some(DocsAction::Link(c)) => c.run(s),
                Some(DocsAction::Unlink(c)) => c.run(s),
                Some(DocsAction::Rm(c)) => c.run(s),
                Some(DocsAction::Restore(c)) => c.run::<Document>(s),
            }
        })
    }
}

/// Documents are named by row number, ID, part of an ID, or name (names
/// may repeat: a name two documents share is ambiguous, and the command
/// lists them).
impl Family for Document {
    const ONE: &'static str = "document";
    const MANY: &'static str = "docs";
    const NAMED: bool = true;
    const SEARCHED: Option<organiser_core::search::SearchType> =
        Some(organiser_core::search::SearchType::Document);

    fn id(&self) -> Id {
        self.id
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn page(client: &Client, cursor: Option<String>) -> Result<Page<Document>, CliError> {
        let query = DocumentQuery {
            params: ListParams {
                cursor,
                limit: 100,
                order: Some(organiser_core::list::ListOrder::Id),
                ..ListParams::default()
            },
            ..DocumentQuery::default()
        };
        Ok(client.reply(|c| c.documents().list(&query))?.data)
    }

    fn get(client: &Client, id: Id) -> Result<Document, CliError> {
        Ok(client
            .reply(|c| c.documents().get(id))
            .map_err(no_document(id))?
            .data)
    }
}

/// The documents linked to one record, in the order they were linked:
/// `GET /document_links` filtered to the record (`field` is `task_id`,
/// `project_id`, `person_id` or `note_id`), then the first `most` of them
/// read for their names (the links carry none, and no listing of documents
/// filters by what they are linked to); with how many are linked in all.
pub(crate) fn linked_to(
    client: &Client,
    field: &str,
    id: Id,
    most: usize,
) -> Result<(Vec<Document>, usize), CliError> {
    let mut links = Vec::new();
    let mut cursor = None;
    loop {
        let query = DocumentLinkQuery {
            document_id: None,
            target: Some((field.to_owned(), id)),
            params: ListParams {
                cursor,
                limit: 100,
                ..ListParams::default()
            },
        };
        let page = client.reply(|c| c.documents().links(&query))?.data;
        links.extend(page.items);
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    let documents = links
        .iter()
        .take(most)
        .map(|link| Ok(client.reply(|c| c.documents().get(link.document_id))?.data))
        .collect::<Result<Vec<Document>, CliError>>()?;
    Ok((documents, links.len()))
}

/// A 404 about document `id` said plainly.
fn no_document(id: Id) -> impl Fn(CliError) -> CliError {
    crate::refs::gone::<Document>(id)
}

/// The API's document fields as the document commands set them, for
/// messages.
const FLAGS: &[(&str, &str)] = &[
    ("upload", "FILE"),
    ("name", "--name"),
    ("folder_id", "--folder"),
    ("task_ids", "--task"),
    ("project_ids", "--project"),
    ("person_ids", "--person"),
    ("note_ids", "--note"),
    ("task_id", "--task"),
    ("project_id", "--project"),
    ("person_id", "--person"),
    ("note_id", "--note"),
];

/// The record a document is linked to, as `--task`, `--project`,
/// `--person` or `--note` named it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Target {
    Task(Id),
    Project(Id),
    Person(Id),
    Note(Id),
}

impl Target {
    /// What the record is called in messages: "task Buy milk".
    fn describe(self, s: &Session<'_>) -> String {
        let named = |kind: &str, name: Result<String, CliError>| match name {
            Ok(name) => format!("{kind} {name}"),
            Err(_) => format!("{kind} {}", crate::output::short_id(self.id())),
        };
        match self {
            Target::Task(id) => named(
                "task",
                s.client.reply(|c| c.tasks().get(id)).map(|r| r.data.title),
            ),
            Target::Project(id) => named(
                "project",
                s.client
                    .reply(|c| c.projects().get(id))
                    .map(|r| r.data.name),
            ),
            Target::Person(id) => named(
                "person",
                s.client.reply(|c| c.people().get(id)).map(|r| r.data.name),
            ),
            Target::Note(id) => named(
                "note",
                s.client.reply(|c| c.notes().get(id)).map(|r| r.data.name),
            ),
        }
    }

    fn id(self) -> Id {
        match self {
            Target::Task(id) | Target::Project(id) | Target::Person(id) | Target::Note(id) => id,
        }
    }
}

/// `--task T`, `--project P`, `--person P`, `--note N`: the records they
/// name, each flag as often as it is given.
#[derive(Debug, Args, Default)]
struct TargetArgs {
    /// A task (its row number, short ID or ID).
    #[arg(long, value_name = "TASK")]
    task: Vec<String>,
    /// A project (its row number, name, short ID or ID).
    #[arg(long, value_name = "PROJECT")]
    project: Vec<String>,
    /// A person (their row number, name, short ID or ID).
    #[arg(long, value_name = "PERSON")]
    person: Vec<String>,
    /// A note (its row number, short ID or ID).
    #[arg(long, value_name = "NOTE")]
    note: Vec<String>,
}

impl TargetArgs {
    /// Every record named, in the order tasks, projects, people, notes.
    fn resolve(&self, s: &Session<'_>) -> Result<Vec<Target>, CliError> {
        let mut targets = Vec::new();
        for task in &self.task {
            targets.push(Target::Task(s.refs.id::<Task>(task)?));
        }
        for project in &self.project {
            targets.push(Target::Project(s.refs.id::<Project>(project)?));
        }
        for person in &self.person {
            targets.push(Target::Person(s.refs.id::<Person>(person)?));
        }
        for note in &self.note {
            targets.push(Target::Note(s.refs.id::<NoteSummary>(note)?));
        }
        Ok(targets)
    }
}

impl crate::commands::restore::Restorable for Document {
    type Record = organiser_core::documents::Document;
    const LABEL: &'static str = "document ";

    fn live(client: &Client, id: Id) -> Result<crate::door::Reply<Self::Record>, CliError> {
        client.reply(|c| c.documents().get(id))
    }

    fn restore(client: &Client, id: Id) -> Result<crate::door::Reply<Self::Record>, CliError> {
        client.reply(|c| c.documents().restore(id))
    }

    fn called(record: &Self::Record) -> &str {
        &record.name
    }
}
