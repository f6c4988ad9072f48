//! `organiser notes edit N [--title TEXT | --no-title] [--category C |
//! --no-category] [--body TEXT]`: only what is given changes; with none of
//! them, the body opens in `$EDITOR` as Markdown (the store is not held
//! meanwhile). The change is sent with the version it was made from: a
//! note changed elsewhere meanwhile is a conflict, said with its new
//! version, and the text written in the editor is kept in its file.

use clap::Args;
use organiser_core::{Field, categories::Category, notes::Note, notes::NoteInput};

use super::editor::Draft;
use super::{FLAGS, body_html, no_note, note, session};
use crate::commands::Global;
use crate::door::Doors;
use crate::error::CliError;
use crate::output::Data;

#[derive(Debug, Args)]
pub(super) struct Edit {
    /// The note: its row number, short ID or ID.
    note: String,
    /// A new title.
    #[arg(long, conflicts_with = "no_title")]
    title: Option<String>,
    /// Remove the title (the note is named by its body's start).
    #[arg(long)]
    no_title: bool,
    /// A category.
    #[arg(long, conflicts_with = "no_category")]
    category: Option<String>,
    /// Take it out of its category.
    #[arg(long)]
    no_category: bool,
    /// The body, as Markdown, replacing the one it has ('' empties it; `-`
    /// reads it from standard input).
    #[arg(long, short, value_name = "TEXT", allow_hyphen_values = true)]
    body: Option<String>,
}

impl Edit {
    pub(super) fn run(self, global: &Global) -> Result<(), CliError> {
        let before = {
            let client = global.reader()?;
            note(&session(global, &client), &self.note)?
        };
        let flags = self.title.is_some()
            || self.no_title
            || self.category.is_some()
            || self.no_category
            || self.body.is_some();
        let markdown = match self.body.as_deref() {
            Some("-") => {
                let mut text = String::new();
                std::io::Read::read_to_string(&mut std::io::stdin(), &mut text)?;
                Some(text)
            }
            Some(body) => Some(body.to_owned()),
            None if flags => None,
            None => {
                let written = organiser_core::notes::markdown::from_body_html(&before.body_html);
                let file = Draft::new(&format!("note-{}", before.id), &written)?;
                let text = file.edit()?;
                if text == written {
                    return global.said(
                        &Data { data: &before },
                        format!("No change to {}", before.name),
                    );
                }
                // What was written is kept when it cannot be saved.
                return self
                    .save(global, &before, Some(&text))
                    .map_err(|e| file.keeping(e));
            }
        };
        self.save(global, &before, markdown.as_deref())
    }

    /// Sends the change made from `before`.
    fn save(&self, global: &Global, before: &Note, markdown: Option<&str>) -> Result<(), CliError> {
        let client = global.writer()?;
        let s = &session(global, &client);
        let id = before.id;
        let input = NoteInput {
            title: match (&self.title, self.no_title) {
                (Some(title), _) => Field::Value(title.clone()),
                (None, true) => Field::Null,
                (None, false) => Field::Absent,
            },
            category_id: match (&self.category, self.no_category) {
                (Some(c), _) => Field::Value(s.refs.id::<Category>(c)?),
                (None, true) => Field::Null,
                (None, false) => Field::Absent,
            },
            body_html: match markdown {
                Some(text) => Field::Value(body_html(s, text, Some(before))?),
                None => Field::Absent,
            },
            edit_version: Some(before.edit_version),
        };
        let changed = match s.client.reply(|c| c.notes().change(id, input)) {
            Ok(changed) => changed,
            Err(
                e @ CliError::Api {
                    error: organiser_core::Error::Conflict { .. },
                    ..
                },
            ) => {
                let now = s
                    .client
                    .reply(|c| c.notes().get(id))
                    .map_err(no_note(id))?
                    .data;
                return Err(e.saying(format!(
                    "{} was changed elsewhere meanwhile (version {} when this edit began, version {} now): nothing was saved; see it with `{}`, then edit it again",
                    now.name,
                    before.edit_version,
                    now.edit_version,
                    s.global.command(&format!("notes show {id}"))
                )));
            }
            Err(e) => return Err(no_note(id)(e).naming(FLAGS)),
        };
        let note = &changed.data;
        let said = if note.edit_version == before.edit_version {
            format!("No change to {}", note.name)
        } else {
            format!("Changed note {} (version {})", note.name, note.edit_version)
        };
        s.global.said(&changed.body, said)
    }
}
