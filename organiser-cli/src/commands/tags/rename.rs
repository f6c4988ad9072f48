//! `organiser tags rename OLD NEW`.

use clap::Args;
use organiser_core::tags::Tag;

use super::{no_tag, note_count, notes, typed};
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Rename {
    /// The tag: its name (with or without `#`), row number or ID.
    tag: String,
    /// The new name (`#` is dropped, spaces become hyphens).
    name: String,
}

impl Rename {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let tag = s.refs.record::<Tag>(typed(&self.tag))?;
        let renamed = s
            .client
            .reply(|c| c.tags().rename(tag.id, &self.name))
            .map_err(|e| no_tag(tag.id)(e).naming(&[("name", "the new name")]))?;
        let count = note_count(s, tag.id)?;
        s.global.said(
            &renamed.body,
            format!(
                "Renamed #{} to #{} ({})",
                tag.name,
                renamed.data.name,
                notes(count)
            ),
        )
    }
}
