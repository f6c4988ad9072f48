//! `organiser tags`: every tag by name, with how many notes have it.

use organiser_core::{Page, tags::Tag};

use super::note_count;
use crate::commands::Session;
use crate::error::CliError;
use crate::output;
use crate::refs::every;

pub(super) fn run(s: &Session<'_>) -> Result<(), CliError> {
    let tags = every::<Tag>(s.client)?;
    s.refs.listed(&tags);
    if s.global.json {
        let limit = tags.len();
        let page = Page {
            items: tags,
            next_cursor: None,
            limit,
            total_count: Some(limit as u64),
        };
        return output::json(&page);
    }
    output::line(format!(
        "Tags · {} {}",
        tags.len(),
        if tags.len() == 1 { "tag" } else { "tags" }
    ))?;
    if tags.is_empty() {
        return output::line("Nothing here: write #word in a note to tag it.");
    }
    let mut table = output::table(&["#", "ID", "NAME", "NOTES"]);
    for (row, tag) in tags.iter().enumerate() {
        table.add_row(vec![
            output::cell(row + 1),
            output::cell(output::short_id(tag.id)),
            output::cell(format!("#{}", tag.name)),
            output::cell(note_count(s, tag.id)?),
        ]);
    }
    output::print_table(&table)
}
