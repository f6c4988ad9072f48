//! `organiser tags merge TAG INTO`: TAG's notes get INTO instead, and TAG
//! is deleted.

use clap::Args;
use organiser_core::tags::Tag;

use super::{no_tag, note_count, notes, typed};
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Merge {
    /// The tag that goes: its name (with or without `#`), row number or ID.
    tag: String,
    /// The tag that stays.
    into: String,
}

impl Merge {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let tag = s.refs.record::<Tag>(typed(&self.tag))?;
        let into = s.refs.record::<Tag>(typed(&self.into))?;
        if tag.id == into.id {
            return Err(CliError::usage(format!(
                "#{} cannot be merged into itself",
                tag.name
            )));
        }
        let merged = s
            .client
            .reply(|c| c.tags().merge(tag.id, into.id))
            .map_err(|e| no_tag(tag.id)(e).naming(&[("into_id", "INTO")]))?;
        s.refs.deleted::<Tag>(tag.id, &tag.name);
        let count = note_count(s, into.id)?;
        s.global.said(
            &merged.body,
            format!(
                "Merged #{} into #{} (now on {})",
                tag.name,
                merged.data.name,
                notes(count)
            ),
        )
    }
}
