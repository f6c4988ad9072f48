//! `organiser search QUERY... [--type TYPE]... [--limit N]`: `GET
//! /search`, every type's best matches in the API's order (people,
//! projects, notes, tasks, documents, task lists, folders), each on one
//! line with its type, title and subtitle and the command that opens it.
//! The API finds and ranks; the CLI lays the groups out.

use clap::Args;
use clap::builder::{PossibleValue, PossibleValuesParser};
use organiser_core::{search::SearchGroup, search::SearchQuery, search::SearchType};

use crate::commands::Global;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(crate) struct Search {
    /// What to look for: every word given (no quotes needed); case,
    /// accents and small misspellings do not matter; digits find phone
    /// numbers however they are written.
    #[arg(required = true, value_name = "QUERY")]
    query: Vec<String>,
    /// Only these types (repeat, or separate with commas): person,
    /// project, note, task, document, task_list, folder.
    #[arg(long = "type", value_name = "TYPE", value_delimiter = ',', value_parser = types())]
    types: Vec<String>,
    /// Matches shown per type (at most 25).
    #[arg(long, default_value_t = organiser_core::limits::SEARCH_DEFAULT_LIMIT, value_name = "N")]
    limit: usize,
}

/// The type names, for `--type` and its completions.
fn types() -> PossibleValuesParser {
    PossibleValuesParser::new(SearchType::ALL.map(|t| PossibleValue::new(t.name())))
}

impl Search {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let client = global.reader()?;
        let query = SearchQuery {
            q: self.query.join(" "),
            types: if self.types.is_empty() {
                SearchType::ALL.to_vec()
            } else {
                SearchType::ALL
                    .into_iter()
                    .filter(|t| self.types.iter().any(|n| n == t.name()))
                    .collect()
            },
            limit: self.limit.max(1),
        };
        let reply = client.reply(|c| c.search().find(&query))?;
        if global.json {
            return output::json(&reply.body);
        }
        print(global, &query.q, &reply.data)
    }
}

/// A type as a heading says it, and the command that opens one of it.
fn kind(kind: SearchType) -> (&'static str, &'static str) {
    match kind {
        SearchType::Person => ("person", "people show"),
        SearchType::Project => ("project", "projects show"),
        SearchType::Note => ("note", "notes show"),
        SearchType::Task => ("task", "tasks show"),
        SearchType::Document => ("document", "docs open"),
        SearchType::TaskList => ("list", "tasks list"),
        SearchType::Folder => ("folder", "docs --folder"),
    }
}

/// The most characters of a link or address in the details (shortened in
/// the middle; `people show` has it whole).
const LINK_MOST: usize = 24;

/// The matches as one table, group after group, and what more there is.
fn print(global: &Global, q: &str, groups: &[SearchGroup]) -> Result<(), CliError> {
    let words: Vec<String> = q.split_whitespace().map(super::shell_quote).collect();
    let words = words.join(" ");
    let found: usize = groups.iter().map(|g| g.results.len()).sum();
    if found == 0 {
        return output::line(format!("Nothing found for \"{}\".", output::clean(q)));
    }
    let mut table = output::table(&["TYPE", "TITLE", "DETAILS", "OPEN WITH"]);
    let mut more = Vec::new();
    for group in groups {
        let (label, open) = kind(group.kind);
        for result in &group.results {
            table.add_row(vec![
                output::cell(label),
                output::cell(&result.title),
                output::cell(output::shortened(&result.subtitle, LINK_MOST)),
                output::cell(global.command(&format!("{open} {}", output::short_id(result.id)))),
            ]);
        }
        if group.has_more {
            let hint = if group.kind == SearchType::Note {
                global.command(&format!("notes {words}"))
            } else {
                global.command(&format!(
                    "search {words} --type {} --limit 25",
                    group.kind.name()
                ))
            };
            more.push(format!("More {label}s: {hint}"));
        }
    }
    // A command to paste is never broken.
    output::keep_whole(&mut table, &[3]);
    output::print_table(&table)?;
    for line in more {
        output::line(line)?;
    }
    Ok(())
}
