//! `organiser notes show N`: a note's category, tags, pin, when it was
//! made and edited, and its body rendered for a terminal.

use std::collections::HashMap;
use std::io::Write;

use clap::Args;
use jiff::Timestamp;
use jiff::tz::TimeZone;
use organiser_core::{Id, notes::NoteSummary, tags::Tag};

use super::render::Renderer;
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;
use crate::refs::every;

#[derive(Debug, Args)]
pub(super) struct Show {
    /// The note: its row number, short ID or ID.
    note: String,
}

impl Show {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let id = s.refs.id::<NoteSummary>(&self.note)?;
        let reply = s
            .client
            .reply(|c| c.notes().get(id))
            .map_err(super::no_note(id))?;
        if s.global.json {
            return output::json(&reply.body);
        }
        let note = &reply.data;
        let zone = TimeZone::get(&s.client.reply(|c| c.account().me())?.data.time_zone_iana)
            .unwrap_or(TimeZone::UTC);
        let when = |at: Timestamp| {
            let local = at.to_zoned(zone.clone());
            format!("{} {}", output::date(local.date()), local.strftime("%H:%M"))
        };
        let mut rows: Vec<(&str, String)> = Vec::new();
        if let Some(category) = note.category_id {
            let name = s
                .client
                .reply(|c| c.categories().get(category))
                .map(|c| c.data.name)
                .unwrap_or_else(|_| category.to_string());
            rows.push(("Category", name));
        }
        if !note.tag_ids.is_empty() {
            let tags: HashMap<Id, String> = every::<Tag>(s.client)?
                .into_iter()
                .map(|t| (t.id, t.name))
                .collect();
            let names: Vec<String> = note
                .tag_ids
                .iter()
                .filter_map(|id| tags.get(id))
                .map(|n| format!("#{n}"))
                .collect();
            rows.push(("Tags", names.join(" ")));
        }
        if let Some(at) = note.pinned_at {
            rows.push(("Pinned", format!("since {}", when(at))));
        }
        rows.push((
            "Edited",
            format!("{} · version {}", when(note.edited_at), note.edit_version),
        ));
        rows.push(("Created", when(note.created_at)));
        rows.push(("ID", note.id.to_string()));
        output::line(&note.name)?;
        output::fields(&rows)?;
        let lines = Renderer::new(output::colour())
            .render(&organiser_core::notes::tree::parse(&note.body_html));
        if !lines.is_empty() {
            // The lines carry their own styling: written as they are
            // (the body's text was cleaned of control characters).
            let mut out = std::io::stdout().lock();
            writeln!(out)?;
            for line in lines {
                writeln!(out, "{line}")?;
            }
        }
        Ok(())
    }
}
