//! `organiser folders`: every folder as a tree (each indented under its
//! parent, siblings by name), with its documents' count and size from
//! `/folder_counts` (not counting its subfolders'), and the documents in
//! no folder. Rows are numbered in tree order.

use std::collections::HashMap;

use organiser_core::{Id, folders::Folder};

use crate::commands::Session;
use crate::commands::compact::size;
use crate::door::Doors;
use crate::error::CliError;
use crate::output::{self, Data};
use crate::refs::every;

pub(super) struct Tree;

impl Tree {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let folders = every::<Folder>(s.client)?;
        let counts = s.client.reply(|c| c.documents().folder_counts())?.data;
        let rows = in_tree_order(folders);
        let ordered: Vec<Folder> = rows.iter().map(|(_, f)| f.clone()).collect();
        s.refs.listed(&ordered);
        if s.global.json {
            return output::json(&Data { data: ordered });
        }
        let by_folder: HashMap<Option<Id>, (u64, u64)> = counts
            .iter()
            .map(|c| (c.folder_id, (c.document_count, c.byte_size)))
            .collect();
        let n = rows.len();
        output::line(format!(
            "Folders · {n} {}",
            if n == 1 { "folder" } else { "folders" }
        ))?;
        if rows.is_empty() {
            output::line("Nothing here.")?;
        } else {
            let mut table = output::table(&["#", "ID", "NAME", "DOCUMENTS", "SIZE"]);
            for (row, (depth, folder)) in rows.iter().enumerate() {
                let (count, bytes) = by_folder.get(&Some(folder.id)).copied().unwrap_or((0, 0));
                table.add_row(vec![
                    output::cell(row + 1),
                    output::cell(output::short_id(folder.id)),
                    output::cell(format!("{}{}", "  ".repeat(*depth), folder.name)),
                    output::cell(count),
                    output::cell(if count == 0 {
                        String::new()
                    } else {
                        size(bytes)
                    }),
                ]);
            }
            output::print_table(&table)?;
        }
        if let Some((count, bytes)) = by_folder.get(&None) {
            output::line(format!(
                "In no folder: {count} {} ({})",
                if *count == 1 { "document" } else { "documents" },
                size(*bytes)
            ))?;
        }
        Ok(())
    }
}

/// The folders depth first, each after its parent and siblings by name
/// (ignoring case), with their depth. A folder whose parent is not among
/// them (never so for the API's answer) shows at the top.
fn in_tree_order(folders: Vec<Folder>) -> Vec<(usize, Folder)> {
    let ids: std::collections::HashSet<Id> = folders.iter().map(|f| f.id).collect();
    let mut children: HashMap<Option<Id>, Vec<Folder>> = HashMap::new();
    for folder in folders {
        let parent = folder.parent_id.filter(|p| ids.contains(p));
        children.entry(parent).or_default().push(folder);
    }
    for siblings in children.values_mut() {
        siblings.sort_by_key(|f| (f.name.to_lowercase(), f.id));
    }
    let mut rows = Vec::new();
    let mut stack: Vec<(usize, Folder)> = children
        .remove(&None)
        .unwrap_or_default()
        .into_iter()
        .rev()
        .map(|f| (0, f))
        .collect();
    while let Some((depth, folder)) = stack.pop() {
        if let Some(kids) = children.remove(&Some(folder.id)) {
            stack.extend(kids.into_iter().rev().map(|f| (depth + 1, f)));
        }
        rows.push((depth, folder));
    }
    rows
}
