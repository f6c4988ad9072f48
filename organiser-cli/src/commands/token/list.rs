//! `organiser token list`: the tokens, without their secrets.

use clap::Args;

use crate::commands::Global;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(crate) struct List {}

impl List {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let client = global.reader()?;
        let tokens = client.reply(|c| c.account().tokens())?;
        if global.json {
            return output::json(&tokens.body);
        }
        let zone = output::owner_zone(&client)?;
        let when = |t: Option<jiff::Timestamp>| {
            t.map_or_else(|| "-".to_owned(), |t| output::moment(t, &zone))
        };
        let mut table = output::table(&["ID", "NAME", "CREATED", "EXPIRES", "LAST USED"]);
        for t in &tokens.data {
            table.add_row(vec![
                output::cell(t.id),
                output::cell(&t.name),
                output::cell(output::moment(t.created_at, &zone)),
                output::cell(when(t.expires_at)),
                output::cell(when(t.last_used_at)),
            ]);
        }
        output::print_table(&table)
    }
}
