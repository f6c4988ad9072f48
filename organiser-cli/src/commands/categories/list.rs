//! `organiser categories`: every category in its order, with its colour,
//! icon and how many notes it has.

use std::collections::HashMap;

use organiser_core::{Id, Page, categories::Category};

use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;
use crate::refs::every;

pub(super) fn run(s: &Session<'_>) -> Result<(), CliError> {
    let categories = every::<Category>(s.client)?;
    s.refs.listed(&categories);
    if s.global.json {
        let limit = categories.len();
        return output::json(&Page {
            items: categories,
            next_cursor: None,
            limit,
            total_count: Some(limit as u64),
        });
    }
    output::line(format!(
        "Categories · {} {}",
        categories.len(),
        if categories.len() == 1 {
            "category"
        } else {
            "categories"
        }
    ))?;
    if categories.is_empty() {
        return output::line("Nothing here.");
    }
    let counts: HashMap<Id, u64> = s
        .client
        .reply(|c| c.notes().category_counts())?
        .data
        .into_iter()
        .map(|c| (c.category_id, c.note_count))
        .collect();
    let mut table = output::table(&["#", "ID", "NAME", "COLOR", "ICON", "NOTES"]);
    for (row, category) in categories.iter().enumerate() {
        table.add_row(vec![
            output::cell(row + 1),
            output::cell(output::short_id(category.id)),
            output::cell(&category.name),
            output::cell(&category.color),
            output::cell(category.icon.as_deref().unwrap_or("")),
            output::cell(counts.get(&category.id).copied().unwrap_or(0)),
        ]);
    }
    output::print_table(&table)
}
