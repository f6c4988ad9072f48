//! `organiser notes [QUERY...] [--tag T] [--category C] [--person P]
//! [--project P] [--pinned] [--limit N | --all]`: the notes most recently
//! edited first, or those the words find, with their category, tags and
//! when they were edited.

use std::collections::HashMap;

use jiff::tz::TimeZone;
use organiser_core::{
    Id, Page, categories::Category, notes::NoteQuery, notes::NoteSummary, people::Person,
    projects::Project, tags::Tag,
};

use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;
use crate::refs::every;

pub(super) struct List {
    pub(super) query: String,
    pub(super) tag: Option<String>,
    pub(super) category: Option<String>,
    pub(super) person: Option<String>,
    pub(super) project: Option<String>,
    pub(super) pinned: bool,
    /// Most notes to show (`usize::MAX` for every one).
    pub(super) limit: usize,
}

impl List {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let mut query = NoteQuery::default();
        let mut said = Vec::new();
        if !self.query.trim().is_empty() {
            said.push(format!("matching {:?}", self.query.trim()));
            query.q = Some(self.query.clone());
        }
        if let Some(tag) = &self.tag {
            let tag = s.refs.record::<Tag>(tag.trim().trim_start_matches('#'))?;
            said.push(format!("#{}", tag.name));
            query.tag_id = Some(tag.id);
        }
        if let Some(category) = &self.category {
            let category = s.refs.record::<Category>(category)?;
            said.push(format!("in {}", category.name));
            query.category_id = Some(category.id);
        }
        if let Some(person) = &self.person {
            let person = s.refs.record::<Person>(person)?;
            said.push(format!("mentioning {}", person.name));
            query.person_id = Some(person.id);
        }
        if let Some(project) = &self.project {
            let project = s.refs.record::<Project>(project)?;
            said.push(format!("on {}", project.name));
            query.project_id = Some(project.id);
        }
        if self.pinned {
            said.push("pinned".to_owned());
            query.pinned = Some(true);
        }
        let page = self
            .pages(s, query)
            .map_err(|e| e.naming(&[("q", "the search")]))?;
        let notes = &page.items;
        s.refs.listed(notes);
        if s.global.json {
            return output::json(&page);
        }
        let total = page.total_count.unwrap_or(notes.len() as u64);
        let mut header = vec!["Notes".to_owned()];
        header.extend(said);
        header.push(format!(
            "{total} {}",
            if total == 1 { "note" } else { "notes" }
        ));
        output::line(header.join(" · "))?;
        if notes.is_empty() {
            return output::line("Nothing here.");
        }
        let tags: HashMap<Id, String> = if notes.iter().any(|n| !n.tag_ids.is_empty()) {
            every::<Tag>(s.client)?
                .into_iter()
                .map(|t| (t.id, t.name))
                .collect()
        } else {
            HashMap::new()
        };
        let categories: HashMap<Id, String> = if notes.iter().any(|n| n.category_id.is_some()) {
            every::<Category>(s.client)?
                .into_iter()
                .map(|c| (c.id, c.name))
                .collect()
        } else {
            HashMap::new()
        };
        let zone = TimeZone::get(&s.client.reply(|c| c.account().me())?.data.time_zone_iana)
            .unwrap_or(TimeZone::UTC);
        let mut table = output::table(&["#", "ID", "NAME", "CATEGORY", "TAGS", "EDITED", "PINNED"]);
        for (row, note) in notes.iter().enumerate() {
            let tag_names: Vec<String> = note
                .tag_ids
                .iter()
                .filter_map(|id| tags.get(id))
                .map(|name| format!("#{name}"))
                .collect();
            let category = note
                .category_id
                .and_then(|id| categories.get(&id))
                .cloned()
                .unwrap_or_default();
            table.add_row(vec![
                output::cell(row + 1),
                output::cell(output::short_id(note.id)),
                output::cell(&note.name),
                output::cell(category),
                output::cell(tag_names.join(" ")),
                output::cell(output::date(note.edited_at.to_zoned(zone.clone()).date())),
                output::cell(if note.pinned { "yes" } else { "" }),
            ]);
        }
        output::print_table(&table)?;
        if total > notes.len() as u64 {
            output::line(format!(
                "… and {} more (--limit, --all)",
                total - notes.len() as u64
            ))?;
        }
        Ok(())
    }

    /// The first `limit` notes, read page by page, as one page.
    fn pages(&self, s: &Session<'_>, mut query: NoteQuery) -> Result<Page<NoteSummary>, CliError> {
        crate::refs::first_pages(self.limit, |params| {
            query.params = params;
            Ok(s.client.reply(|c| c.notes().list(&query))?.data)
        })
    }
}
