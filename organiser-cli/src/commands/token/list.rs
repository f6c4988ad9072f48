//! `organiser token list`: the tokens, without their secrets.

use clap::Args;
use organiser_core::time::format_timestamp;

use crate::commands::Global;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(crate) struct List {}

impl List {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let client = global.reader()?;
        let tokens = client.tokens()?;
        if global.json {
            return output::json(&tokens.body);
        }
        let when = |t: Option<jiff::Timestamp>| t.map_or_else(|| "-".to_owned(), format_timestamp);
        let mut table = output::table(&["ID", "NAME", "CREATED", "EXPIRES", "LAST USED"]);
        for t in &tokens.data {
            table.add_row(vec![
                output::cell(t.id),
                output::cell(&t.name),
                output::cell(format_timestamp(t.created_at)),
                output::cell(when(t.expires_at)),
                output::cell(when(t.last_used_at)),
            ]);
        }
        output::print_table(&table)
    }
}
