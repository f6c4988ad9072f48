//! `organiser docs [QUERY...] [--folder F | --unfiled] [--limit N |
//! --all]`: the documents by name, or those the words find, with their
//! folder, size, links and when they were added.

use std::collections::HashMap;

use jiff::tz::TimeZone;
use organiser_core::{Id, Page, documents::Document, documents::DocumentQuery, folders::Folder};

use crate::commands::Session;
use crate::commands::compact::size;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;
use crate::refs::every;

pub(super) struct List {
    pub(super) query: String,
    pub(super) folder: Option<String>,
    pub(super) unfiled: bool,
    /// Most documents to show (`usize::MAX` for every one).
    pub(super) limit: usize,
}

impl List {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let mut query = DocumentQuery::default();
        let mut said = Vec::new();
        if !self.query.trim().is_empty() {
            said.push(format!("matching {:?}", self.query.trim()));
            query.q = Some(self.query.clone());
        }
        if let Some(folder) = &self.folder {
            let folder = s.refs.record::<Folder>(folder)?;
            said.push(format!("in {}", folder.name));
            query.folder_id = Some(Some(folder.id));
        }
        if self.unfiled {
            said.push("in no folder".to_owned());
            query.folder_id = Some(None);
        }
        let page = self
            .pages(s, query)
            .map_err(|e| e.naming(&[("q", "the search")]))?;
        let documents = &page.items;
        s.refs.listed(documents);
        if s.global.json {
            return output::json(&page);
        }
        let total = page.total_count.unwrap_or(documents.len() as u64);
        let mut header = vec!["Documents".to_owned()];
        header.extend(said);
        header.push(format!(
            "{total} {}",
            if total == 1 { "document" } else { "documents" }
        ));
        output::line(header.join(" · "))?;
        if documents.is_empty() {
            return output::line("Nothing here.");
        }
        let folders: HashMap<Id, String> = if documents.iter().any(|d| d.folder_id.is_some()) {
            every::<Folder>(s.client)?
                .into_iter()
                .map(|f| (f.id, f.name))
                .collect()
        } else {
            HashMap::new()
        };
        let zone = TimeZone::get(&s.client.reply(|c| c.account().me())?.data.time_zone_iana)
            .unwrap_or(TimeZone::UTC);
        let mut table = output::table(&["#", "ID", "NAME", "FOLDER", "SIZE", "LINKED", "ADDED"]);
        for (row, document) in documents.iter().enumerate() {
            let folder = document
                .folder_id
                .and_then(|id| folders.get(&id))
                .cloned()
                .unwrap_or_default();
            table.add_row(vec![
                output::cell(row + 1),
                output::cell(output::short_id(document.id)),
                output::cell(&document.name),
                output::cell(folder),
                output::cell(size(document.file.byte_size)),
                output::cell(linked(document)),
                output::cell(output::date(
                    document.created_at.to_zoned(zone.clone()).date(),
                )),
            ]);
        }
        output::print_table(&table)?;
        if total > documents.len() as u64 {
            output::line(format!(
                "… and {} more (--limit, --all)",
                total - documents.len() as u64
            ))?;
        }
        Ok(())
    }

    /// The first `limit` documents, read page by page, as one page.
    fn pages(&self, s: &Session<'_>, mut query: DocumentQuery) -> Result<Page<Document>, CliError> {
        crate::refs::first_pages(self.limit, |params| {
            query.params = params;
            Ok(s.client.reply(|c| c.documents().list(&query))?.data)
        })
    }
}

/// What a document is linked to, counted by kind: `1 task, 2 people`.
pub(super) fn linked(document: &Document) -> String {
    let mut parts = Vec::new();
    for (n, one, many) in [
        (document.task_ids.len(), "task", "tasks"),
        (document.project_ids.len(), "project", "projects"),
        (document.person_ids.len(), "person", "people"),
        (document.note_ids.len(), "note", "notes"),
    ] {
        match n {
            0 => {}
            1 => parts.push(format!("1 {one}")),
            n => parts.push(format!("{n} {many}")),
        }
    }
    parts.join(", ")
}
