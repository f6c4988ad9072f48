//! `organiser lists`: every list with its open count, and the Inbox's.

use organiser_core::{Page, task_lists::TaskList, tasks::TaskCountsQuery};

use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;
use crate::refs;

pub(super) struct Show;

impl Show {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let lists = refs::every::<TaskList>(s.client)?;
        s.refs.listed(&lists);
        if s.global.json {
            // Every page's lists in one page of the API's shape.
            let limit = lists.len().max(1);
            return output::json(&Page {
                items: lists,
                next_cursor: None,
                limit,
                total_count: None,
            });
        }
        let counts = s
            .client
            .reply(|c| c.tasks().counts(&TaskCountsQuery::default()))?
            .data;
        let open = |list: &TaskList| {
            counts
                .task_lists
                .iter()
                .find(|c| c.id == list.id)
                .map_or(0, |c| c.open)
        };
        output::line(format!(
            "Lists · Inbox {} open · {} lists",
            counts.inbox,
            lists.len()
        ))?;
        if lists.is_empty() {
            return output::line("No lists yet: add one with `organiser lists add NAME`.");
        }
        let mut table = output::table(&["#", "NAME", "OPEN", "COLOUR", "ID"]);
        for (row, list) in lists.iter().enumerate() {
            table.add_row(vec![
                output::cell(row + 1),
                output::cell(&list.name),
                output::cell(open(list)),
                output::cell(&list.color),
                output::cell(output::short_id(list.id)),
            ]);
        }
        output::print_table(&table)
    }
}
