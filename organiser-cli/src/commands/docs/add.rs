//! `organiser docs add FILE.pdf [--name NAME] [--folder F] [--task T]
//! [--project P] [--person P] [--note N]`: uploads the PDF (a progress
//! bar on a terminal for a large one) and makes a document of it.

use std::path::PathBuf;

use clap::Args;
use organiser_core::{Field, folders::Folder};

use super::list::linked;
use super::{FLAGS, Target, TargetArgs};
use crate::commands::Session;
use crate::commands::compact::size;
use crate::commands::upload::upload_pdf;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(super) struct Add {
    /// The PDF to add.
    #[arg(value_name = "FILE")]
    file: PathBuf,
    /// Its name (default: the file's name without `.pdf`).
    #[arg(long)]
    name: Option<String>,
    /// The folder to put it in (its row number in `folders`, name, short
    /// ID or ID).
    #[arg(long)]
    folder: Option<String>,
    /// What to link it to (each flag may be given more than once).
    #[command(flatten)]
    targets: TargetArgs,
}

impl Add {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        // Every name is resolved before a byte is sent.
        let folder = match &self.folder {
            Some(folder) => Some(s.refs.record::<Folder>(folder)?),
            None => None,
        };
        let targets = self.targets.resolve(s)?;
        let ids = |pick: fn(Target) -> Option<organiser_core::Id>| {
            let ids: Vec<_> = targets.iter().copied().filter_map(pick).collect();
            (!ids.is_empty()).then_some(ids)
        };
        let upload = upload_pdf(s.client, &self.file, "FILE")?;
        let input = organiser_core::documents::DocumentInput {
            upload: Some(upload.signed_id),
            name: self.name.clone().map_or(Field::Absent, Field::Value),
            folder_id: folder
                .as_ref()
                .map_or(Field::Absent, |f| Field::Value(f.id)),
            task_ids: ids(|t| match t {
                Target::Task(id) => Some(id),
                _ => None,
            }),
            project_ids: ids(|t| match t {
                Target::Project(id) => Some(id),
                _ => None,
            }),
            person_ids: ids(|t| match t {
                Target::Person(id) => Some(id),
                _ => None,
            }),
            note_ids: ids(|t| match t {
                Target::Note(id) => Some(id),
                _ => None,
            }),
        };
        let made = s
            .client
            .reply(|c| c.documents().create(input))
            .map_err(|e| e.naming(FLAGS))?;
        let document = &made.data;
        let mut line = format!(
            "Added document {} ({}), {}",
            document.name,
            output::short_id(document.id),
            size(document.file.byte_size)
        );
        if let Some(folder) = &folder {
            line.push_str(&format!(", in {}", folder.name));
        }
        let links = linked(document);
        if !links.is_empty() {
            line.push_str(&format!(", linked to {links}"));
        }
        s.global.said(&made.body, line)
    }
}
