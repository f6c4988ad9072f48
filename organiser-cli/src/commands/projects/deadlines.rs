//! `organiser deadlines [--days N] [--limit N]`: the open projects due from
//! today through N days ahead, and every overdue one before them (marked),
//! as `GET /upcoming_deadlines` gives them: by deadline, then name. The
//! rows are the projects' last listing, so `projects show 1` names the
//! first.

use clap::Args;
use organiser_core::{projects::Project, projects::UpcomingDeadlinesQuery};

use crate::backend::Access;
use crate::commands::{Global, Session};
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(crate) struct Deadlines {
    /// How many days ahead to look (default 30; with --limit alone, no
    /// bound).
    #[arg(long, value_name = "N")]
    days: Option<u64>,
    /// Only the nearest N deadlines (at most 100).
    #[arg(long, value_name = "N")]
    limit: Option<u64>,
}

impl Deadlines {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let access = Access::Read;
        Session::open(global, access, |s| {
            let query = UpcomingDeadlinesQuery {
                days: self.days,
                limit: self.limit,
            };
            let reply = s
                .client
                .reply(|c| c.projects().upcoming_deadlines(query))
                .map_err(|e| e.naming(&[("days", "--days"), ("limit", "--limit")]))?;
            let due = &reply.data;
            let projects: Vec<Project> = due.iter().map(|d| d.project.clone()).collect();
            s.refs.listed(&projects);
            if global.json {
                return output::json(&reply.body);
            }
            let mut title = vec!["Deadlines".to_owned()];
            match (self.days, self.limit) {
                (None, Some(limit)) => title.push(format!("the nearest {limit}")),
                (Some(0), _) => title.push("today".to_owned()),
                (days, _) => {
                    let days = days.unwrap_or(30);
                    title.push(format!(
                        "the next {days} {}",
                        if days == 1 { "day" } else { "days" }
                    ));
                }
            }
            let overdue = due.iter().filter(|d| d.overdue).count();
            if overdue > 0 {
                title.push(format!("{overdue} overdue"));
            }
            output::line(title.join(" · "))?;
            if due.is_empty() {
                return output::line("Nothing here.");
            }
            let today = s.client.reply(|c| c.account().me())?.data.today;
            let mut table = output::table(&["#", "ID", "DEADLINE", "WHEN", "PROJECT", "STATUS"]);
            for (row, item) in due.iter().enumerate() {
                let days = (item.date - today).get_days();
                let when = match days {
                    0 => "today".to_owned(),
                    1 => "tomorrow".to_owned(),
                    -1 => "1 day overdue".to_owned(),
                    d if d < 0 => format!("{} days overdue", -d),
                    d => format!("in {d} days"),
                };
                let date = output::date(item.date);
                let (date, when) = if item.overdue {
                    (output::red(date), output::red(when))
                } else {
                    (output::cell(date), output::cell(when))
                };
                table.add_row(vec![
                    output::cell(row + 1),
                    output::cell(output::short_id(item.project.id)),
                    date,
                    when,
                    output::cell(&item.project.name),
                    output::cell(item.project.status.key()),
                ]);
            }
            output::print_table(&table)
        })
    }
}
