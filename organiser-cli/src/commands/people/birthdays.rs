//! `organiser birthdays [--days N]`: the key dates (birthdays,
//! anniversaries, ...) that fall from today through N days ahead, soonest
//! first, as `GET /upcoming_key_dates` gives them.

use clap::Args;
use organiser_core::people::UpcomingQuery;

use crate::commands::Global;
use crate::commands::vocabulary::Vocabulary;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(crate) struct Birthdays {
    /// How many days ahead to look, from 0 to 366 (default 30).
    #[arg(long, value_name = "N")]
    days: Option<u64>,
}

/// The most dates the API gives at once.
const MOST_DATES: u64 = 100;

impl Birthdays {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let client = global.reader()?;
        let mut query = UpcomingQuery {
            limit: MOST_DATES,
            ..UpcomingQuery::default()
        };
        if let Some(days) = self.days {
            query.days = days;
        }
        let reply = client
            .reply(|c| c.people().upcoming_key_dates(query))
            .map_err(|e| e.naming(&[("days", "--days")]))?;
        if global.json {
            return output::json(&reply.body);
        }
        let dates = &reply.data.data;
        let days = query.days;
        output::line(format!(
            "Key dates · the next {days} {}",
            if days == 1 { "day" } else { "days" }
        ))?;
        if dates.is_empty() {
            return output::line("Nothing here.");
        }
        let vocabulary = Vocabulary::load(&client)?;
        let mut table = output::table(&["DATE", "NAME", "KIND", "YEARS"]);
        for date in dates {
            let mut kind = vocabulary.label("key_date_kinds", &date.key_date.kind);
            if let Some(label) = &date.key_date.label {
                kind = format!("{kind} ({label})");
            }
            table.add_row(vec![
                output::cell(output::date(date.date)),
                output::cell(&date.person.name),
                output::cell(kind),
                output::cell(date.years.map(|y| y.to_string()).unwrap_or_default()),
            ]);
        }
        output::print_table(&table)?;
        if reply.data.meta.has_more {
            output::line(format!(
                "… and more: the first {} are shown (fewer --days)",
                dates.len()
            ))?;
        }
        Ok(())
    }
}
