//! `organiser docs link DOC (--task T | --project P | --person P | --note
//! N)` and `organiser docs unlink DOC ...`: make or remove one link
//! between a document and a record (`POST /document_links`, `DELETE
//! /document_links/{id}`).

use clap::Args;
use organiser_core::{Id, documents::Document};
use serde::Serialize;

use super::{FLAGS, Target, TargetArgs, no_document};
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output::Data;

#[derive(Debug, Args)]
pub(super) struct Link {
    /// The document: its row number, name, short ID or ID.
    document: String,
    /// The record to link it to: exactly one of these flags.
    #[command(flatten)]
    target: TargetArgs,
}

#[derive(Debug, Args)]
pub(super) struct Unlink {
    /// The document: its row number, name, short ID or ID.
    document: String,
    /// The record to unlink it from: exactly one of these flags.
    #[command(flatten)]
    target: TargetArgs,
}

/// The one record the flags name.
fn one_target(s: &Session<'_>, args: &TargetArgs) -> Result<Target, CliError> {
    let targets = args.resolve(s)?;
    match targets.as_slice() {
        [one] => Ok(*one),
        _ => Err(CliError::usage(
            "name exactly one record: --task, --project, --person or --note",
        )),
    }
}

impl Link {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let document = s.refs.record::<Document>(&self.document)?;
        let target = one_target(s, &self.target)?;
        let mut input = organiser_core::documents::DocumentLinkInput {
            document_id: organiser_core::Field::Value(document.id),
            ..organiser_core::documents::DocumentLinkInput::default()
        };
        let id = organiser_core::Field::Value;
        match target {
            Target::Task(t) => input.task_id = id(t),
            Target::Project(p) => input.project_id = id(p),
            Target::Person(p) => input.person_id = id(p),
            Target::Note(n) => input.note_id = id(n),
        }
        let made = s
            .client
            .reply(|c| c.documents().link(input))
            .map_err(|e| e.naming(FLAGS))?;
        s.global.said(
            &made.body,
            format!("Linked {} to {}", document.name, target.describe(s)),
        )
    }
}

/// What `--json` says: `{data: {unlinked: LINK_ID}}`.
#[derive(Serialize)]
struct Unlinked {
    unlinked: Id,
}

impl Unlink {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let document = s.refs.record::<Document>(&self.document)?;
        let target = one_target(s, &self.target)?;
        let link = document.links.iter().find(|l| {
            let id = Some(target.id());
            match target {
                Target::Task(_) => l.task_id == id,
                Target::Project(_) => l.project_id == id,
                Target::Person(_) => l.person_id == id,
                Target::Note(_) => l.note_id == id,
            }
        });
        let Some(link) = link else {
            return Err(CliError::msg(format!(
                "{} is not linked to {}",
                document.name,
                target.describe(s)
            )));
        };
        s.client
            .reply(|c| c.documents().unlink(link.id))
            .map_err(no_document(document.id))?;
        s.global.said(
            &Data {
                data: Unlinked { unlinked: link.id },
            },
            format!("Unlinked {} from {}", document.name, target.describe(s)),
        )
    }
}
