//! `organiser tags rm TAG`: deletes a tag for good; its notes keep the
//! word, without `#`.

use clap::Args;
use organiser_core::{Id, tags::Tag};
use serde::Serialize;

use super::{no_tag, note_count, notes, typed};
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output::Data;

#[derive(Debug, Args)]
pub(super) struct Rm {
    /// The tag: its name (with or without `#`), row number or ID.
    tag: String,
}

/// What `--json` says: `{data: {deleted: ID}}`.
#[derive(Serialize)]
struct Deleted {
    deleted: Id,
}

impl Rm {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let tag = s.refs.record::<Tag>(typed(&self.tag))?;
        let count = note_count(s, tag.id)?;
        s.client
            .reply(|c| c.tags().delete(tag.id))
            .map_err(no_tag(tag.id))?;
        s.refs.deleted::<Tag>(tag.id, &tag.name);
        s.global.said(
            &Data {
                data: Deleted { deleted: tag.id },
            },
            format!(
                "Deleted #{}: taken off {} (this cannot be undone)",
                tag.name,
                notes(count)
            ),
        )
    }
}
