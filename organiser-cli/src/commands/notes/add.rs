//! `organiser notes add [TITLE...] [--body TEXT | --edit] [--category C]
//! [--pin]`: the body, as Markdown, from `--body` (`-` for standard
//! input), else from standard input when it is not a terminal, else from
//! `$EDITOR`.

use std::io::{IsTerminal, Read};

use clap::Args;
use organiser_core::{Field, categories::Category, notes::NoteInput};

use super::editor::Draft;
use super::{FLAGS, body_html, session};
use crate::commands::Global;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(super) struct Add {
    /// The title: every word, no quotes needed (none: the note is named by
    /// its body's start).
    title: Vec<String>,
    /// The body, as Markdown; `-` reads it from standard input.
    #[arg(long, short, value_name = "TEXT", allow_hyphen_values = true)]
    body: Option<String>,
    /// Write the body in $EDITOR (as when there is no --body and standard
    /// input is a terminal).
    #[arg(long, short, conflicts_with = "body")]
    edit: bool,
    /// Its category.
    #[arg(long)]
    category: Option<String>,
    /// Pin it.
    #[arg(long)]
    pin: bool,
}

impl Add {
    pub(super) fn run(self, global: &Global) -> Result<(), CliError> {
        let title = self.title.join(" ");
        let mut draft = None;
        let empty = |markdown: String| -> Result<String, CliError> {
            // An empty standard input (a script with nothing to say) makes
            // no note.
            if markdown.trim().is_empty() && title.trim().is_empty() {
                return Err(CliError::msg(
                    "standard input was empty and there is no title: nothing was added",
                ));
            }
            Ok(markdown)
        };
        let markdown = match self.body.as_deref() {
            Some("-") => empty(stdin()?)?,
            Some(body) => body.to_owned(),
            None if !self.edit && !std::io::stdin().is_terminal() => empty(stdin()?)?,
            None => {
                let file = Draft::new("note", "")?;
                let text = file.edit()?;
                if text.trim().is_empty() && title.trim().is_empty() {
                    return Err(CliError::msg(
                        "the note is empty and has no title: nothing was added",
                    ));
                }
                draft = Some(file);
                text
            }
        };
        self.add(global, title, &markdown).map_err(|e| match draft {
            // What was written in the editor is not lost.
            Some(file) => file.keeping(e),
            None => e,
        })
    }

    fn add(&self, global: &Global, title: String, markdown: &str) -> Result<(), CliError> {
        let client = global.writer()?;
        let s = &session(global, &client);
        let category = match &self.category {
            Some(c) => Field::Value(s.refs.id::<Category>(c)?),
            None => Field::Absent,
        };
        let input = NoteInput {
            title: if title.trim().is_empty() {
                Field::Absent
            } else {
                Field::Value(title)
            },
            category_id: category,
            body_html: Field::Value(body_html(s, markdown, None)?),
            edit_version: None,
        };
        let mut made = s
            .client
            .reply(|c| c.notes().create(input))
            .map_err(|e| e.naming(FLAGS))?;
        if self.pin {
            made = s.client.reply(|c| c.notes().pin(made.data.id, true))?;
        }
        let note = &made.data;
        let pinned = if note.pinned { ", pinned" } else { "" };
        s.global.said(
            &made.body,
            format!(
                "Added note {} ({}){pinned}",
                note.name,
                output::short_id(note.id)
            ),
        )
    }
}

/// Standard input, whole.
fn stdin() -> Result<String, CliError> {
    let mut text = String::new();
    std::io::stdin()
        .read_to_string(&mut text)
        .map_err(|e| CliError::msg(format!("cannot read the body from standard input: {e}")))?;
    Ok(text)
}
