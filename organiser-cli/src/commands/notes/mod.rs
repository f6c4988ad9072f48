//! `organiser notes`: the notes, most recently edited first (with
//! filters), or those a search finds; show, add, edit, pin, unpin, delete
//! and restore them, one file per subcommand. Bodies are typed as
//! Markdown (the core's `notes::markdown`) and shown rendered for a terminal (see
//! [`render`]).

mod add;
mod edit;
mod editor;
mod list;
mod pin;
mod render;
mod rm;
mod show;

use clap::{Args, Subcommand};
use organiser_core::{Id, ListParams, Page, notes::Note, notes::NoteQuery, notes::NoteSummary};

use super::{Global, Session};
use crate::backend::Access;
use crate::door::Client;
use crate::door::Doors;
use crate::error::CliError;
use crate::refs::Family;

#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub(crate) struct NotesCommand {
    #[command(subcommand)]
    action: Option<NotesAction>,
    /// Words to search for: each must begin a word of the note's title,
    /// text, tags, or the names it mentions (ignoring case and accents).
    #[arg(value_name = "QUERY")]
    query: Vec<String>,
    /// Only notes with this tag (its name, with or without `#`).
    #[arg(long)]
    tag: Option<String>,
    /// Only notes of this category.
    #[arg(long)]
    category: Option<String>,
    /// Only notes that mention this person.
    #[arg(long)]
    person: Option<String>,
    /// Only notes that refer to this project.
    #[arg(long)]
    project: Option<String>,
    /// Only pinned notes.
    #[arg(long)]
    pinned: bool,
    /// Most notes to show (the pages of the API are read until there are
    /// this many).
    #[arg(long, default_value_t = 50)]
    limit: u32,
    /// Show every note, however many.
    #[arg(long, conflicts_with = "limit")]
    all: bool,
}

#[derive(Debug, Subcommand)]
enum NotesAction {
    /// A note: its category, tags, when it was edited, and its body.
    Show(show::Show),
    /// Add a note: the body from --body, standard input, or $EDITOR.
    Add(add::Add),
    /// Change a note's title, category or body (the body in $EDITOR
    /// unless --body is given).
    Edit(edit::Edit),
    /// Pin a note: pinned ones can be listed with --pinned.
    Pin(pin::Pin),
    /// Unpin a note.
    Unpin(pin::Unpin),
    /// Delete a note (it can be restored for 20 seconds).
    Rm(rm::Rm),
    /// Restore a note deleted in the last 20 seconds (the one deleted
    /// last, unless one is named).
    Restore(crate::commands::restore::Restore),
}

impl NotesCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        // These open the store themselves: not while $EDITOR runs.
        match self.action {
            Some(NotesAction::Add(c)) => return c.run(global),
            Some(NotesAction::Edit(c)) => return c.run(global),
            _ => {}
        }
        let reads = matches!(self.action, None | Some(NotesAction::Show(_)));
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
                    tag: self.tag,
                    category: self.category,
                    person: self.person,
                    project: self.project,
                    pinned: self.pinned,
                    limit,
                }
                .run(s),
                Some(NotesAction::Show(c)) => c.run(s),
                Some(NotesAction::Add(_) | NotesAction::Edit(_)) => Ok(()),
                Some(NotesAction::Pin(c)) => c.run(s, true),
                Some(NotesAction::Unpin(c)) => c.run(s),
                Some(NotesAction::Rm(c)) => c.run(s),
                Some(NotesAction::Restore(c)) => c.run::<NoteSummary>(s),
            }
        })
    }
}

/// Notes are named by row number, ID or part of an ID (their names are
/// made from their bodies, and repeat).
impl Family for NoteSummary {
    const ONE: &'static str = "note";
    const MANY: &'static str = "notes";
    const NAMED: bool = false;

    fn id(&self) -> Id {
        self.id
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn page(client: &Client, cursor: Option<String>) -> Result<Page<NoteSummary>, CliError> {
        let query = NoteQuery {
            params: ListParams {
                cursor,
                limit: 100,
                order: Some(organiser_core::list::ListOrder::Id),
                ..ListParams::default()
            },
            ..NoteQuery::default()
        };
        Ok(client.reply(|c| c.notes().list(&query))?.data)
    }

    fn get(client: &Client, id: Id) -> Result<NoteSummary, CliError> {
        let note = client
            .reply(|c| c.notes().get(id))
            .map_err(no_note(id))?
            .data;
        Ok(NoteSummary {
            id: note.id,
            title: note.title,
            name: note.name,
            title_generated: note.title_generated,
            category_id: note.category_id,
            tag_ids: note.tag_ids,
            person_ids: note.person_ids,
            project_ids: note.project_ids,
            pinned: note.pinned,
            pinned_at: note.pinned_at,
            edit_version: note.edit_version,
            edited_at: note.edited_at,
            created_at: note.created_at,
            updated_at: note.updated_at,
            excerpt: note.body_text,
            image_count: 0,
        })
    }
}

/// What a command sees of the store, opened for `access` (not held by
/// this process while the editor runs, so that other commands and a
/// server can use it).
fn session<'a>(global: &'a Global, client: &'a Client) -> Session<'a> {
    Session::new(global, client)
}

/// A 404 about note `id` said plainly.
fn no_note(id: Id) -> impl Fn(CliError) -> CliError {
    crate::refs::gone::<NoteSummary>(id)
}

/// The note `reference` names, read whole.
fn note(s: &Session<'_>, reference: &str) -> Result<Note, CliError> {
    let id = s.refs.id::<NoteSummary>(reference)?;
    Ok(s.client
        .reply(|c| c.notes().get(id))
        .map_err(no_note(id))?
        .data)
}

/// The API's note fields as the note commands set them, for messages.
const FLAGS: &[(&str, &str)] = &[
    ("title", "the title"),
    ("category_id", "--category"),
    ("body_html", "the body"),
    ("edit_version", "the version"),
];

/// Markdown typed by the owner as note-body HTML, as `notes add` makes a
/// body (a task's description is the same HTML).
pub(crate) fn markdown_html(s: &Session<'_>, markdown: &str) -> Result<String, CliError> {
    body_html(s, markdown, None)
}

/// Markdown as body HTML, by the core's reading (people and projects
/// are read only when the text has an `@` or a `^`; those `known`, a
/// body being edited names, first).
fn body_html(s: &Session<'_>, markdown: &str, known: Option<&Note>) -> Result<String, CliError> {
    Ok(s.client.notes().body_from_markdown(markdown, known)?)
}

impl crate::commands::restore::Restorable for NoteSummary {
    type Record = organiser_core::notes::Note;
    const LABEL: &'static str = "note ";

    fn live(client: &Client, id: Id) -> Result<crate::door::Reply<Self::Record>, CliError> {
        client.reply(|c| c.notes().get(id))
    }

    fn restore(client: &Client, id: Id) -> Result<crate::door::Reply<Self::Record>, CliError> {
        client.reply(|c| c.notes().restore(id))
    }

    fn called(record: &Self::Record) -> &str {
        &record.name
    }
}
