//! `organiser stats`: where the store's bytes are. Every table of the
//! store with its entries, the bytes of its keys and values, and what its
//! pages take in the file, largest first, with the file's size and the
//! space no table uses (what `organiser compact` can give back). It only
//! reads, and is refused while a server holds the store.

use clap::Args;
use organiser_core::Organiser;
use organiser_core::data::{STORE_FILE, TableSize};
use serde::Serialize;

use super::Global;
use super::compact::size;
use crate::backend::{data_dir, open_error};
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(crate) struct Stats {
    /// Show every table (by default the 25 largest and the rest summed).
    #[arg(long)]
    all: bool,
}

/// `--json`: `{data: {file_bytes, tables: [...]}}`.
#[derive(Serialize)]
struct Data {
    data: Sizes,
}

#[derive(Serialize)]
struct Sizes {
    file_bytes: u64,
    tables: Vec<TableSize>,
}

/// The tables shown without `--all`.
const MOST: usize = 25;

impl Stats {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let dir = data_dir(global.data_dir.as_deref())?;
        let path = dir.join(STORE_FILE);
        if !path.is_file() {
            return Err(CliError::Message(format!(
                "there is no store at {}",
                path.display()
            )));
        }
        let org = Organiser::open_for_reading(&dir).map_err(|e| open_error(&dir, e))?;
        let tables = org.table_sizes()?;
        let file_bytes = std::fs::metadata(&path).map(|m| m.len()).unwrap_or(0);
        if global.json {
            return output::json(&Data {
                data: Sizes { file_bytes, tables },
            });
        }
        let used: u64 = tables.iter().map(|t| t.page_bytes).sum();
        let stored: u64 = tables.iter().map(|t| t.stored_bytes).sum();
        let mut table =
            output::table(&["Table", "Entries", "Keys and values", "In pages", "Share"]);
        let share = |bytes: u64| format!("{:.1}%", bytes as f64 * 100.0 / file_bytes.max(1) as f64);
        let shown = if self.all {
            tables.len()
        } else {
            MOST.min(tables.len())
        };
        for t in &tables[..shown] {
            table.add_row(vec![
                output::cell(&t.name),
                output::cell(t.entries),
                output::cell(size(t.stored_bytes)),
                output::cell(size(t.page_bytes)),
                output::cell(share(t.page_bytes)),
            ]);
        }
        let rest = &tables[shown..];
        if !rest.is_empty() {
            let bytes: u64 = rest.iter().map(|t| t.page_bytes).sum();
            table.add_row(vec![
                output::cell(format!("{} more tables", rest.len())),
                output::cell(rest.iter().map(|t| t.entries).sum::<u64>()),
                output::cell(size(rest.iter().map(|t| t.stored_bytes).sum())),
                output::cell(size(bytes)),
                output::cell(share(bytes)),
            ]);
        }
        output::print_table(&table)?;
        output::line(format!(
            "{}: {} in the file; {} in the tables' pages ({} of keys and values); {} besides (free pages, the store's own trees)",
            path.display(),
            size(file_bytes),
            size(used),
            size(stored),
            size(file_bytes.saturating_sub(used)),
        ))
    }
}
