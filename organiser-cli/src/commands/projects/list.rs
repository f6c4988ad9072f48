//! `organiser projects [--status STATUS[,STATUS]] [--limit N | --all]`: the
//! projects by name (the open ones unless `--status` says otherwise), with
//! their status, deadline, open tasks and members.

use std::collections::HashMap;

use organiser_core::{Id, Page, projects::Project, projects::ProjectQuery};

use super::{Statuses, date};
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

pub(super) struct List {
    pub(super) statuses: Statuses,
    /// Most projects to show (`usize::MAX` for every one).
    pub(super) limit: usize,
}

/// How many members' names a row shows before it counts the rest.
const NAMES_SHOWN: usize = 3;

impl List {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let page = self
            .pages(s)
            .map_err(|e| e.naming(&[("status", "--status")]))?;
        let projects = &page.items;
        s.refs.listed(projects);
        if s.global.json {
            return output::json(&page);
        }
        let total = page.total_count.unwrap_or(projects.len() as u64);
        output::line(format!(
            "Projects · {} · {total} {}",
            self.statuses.said,
            if total == 1 { "project" } else { "projects" }
        ))?;
        if projects.is_empty() {
            return output::line("Nothing here.");
        }
        let open_tasks: HashMap<Id, u64> = s
            .client
            .reply(|c| c.tasks().project_counts())?
            .data
            .into_iter()
            .map(|c| (c.project_id, c.open))
            .collect();
        let names = member_names(s, projects);
        let today = if projects.iter().any(|p| p.deadline.is_some()) {
            Some(s.client.reply(|c| c.account().me())?.data.today)
        } else {
            None
        };
        let mut table =
            output::table(&["#", "ID", "NAME", "STATUS", "DEADLINE", "TASKS", "MEMBERS"]);
        for (row, project) in projects.iter().enumerate() {
            let deadline = date(project.deadline);
            let overdue = project.status.is_open()
                && project
                    .deadline
                    .zip(today)
                    .is_some_and(|(deadline, today)| deadline < today);
            let mut members: Vec<String> = project
                .members
                .iter()
                .take(NAMES_SHOWN)
                .map(|m| names.get(&m.person_id).cloned().unwrap_or_default())
                .collect();
            if project.members.len() > NAMES_SHOWN {
                members.push(format!("+{}", project.members.len() - NAMES_SHOWN));
            }
            table.add_row(vec![
                output::cell(row + 1),
                output::cell(output::short_id(project.id)),
                output::cell(&project.name),
                output::cell(project.status.key()),
                if overdue {
                    output::red(deadline)
                } else {
                    output::cell(deadline)
                },
                output::cell(open_tasks.get(&project.id).copied().unwrap_or(0)),
                output::cell(members.join(", ")),
            ]);
        }
        output::print_table(&table)?;
        if total > projects.len() as u64 {
            output::line(format!(
                "… and {} more (--limit, --all)",
                total - projects.len() as u64
            ))?;
        }
        Ok(())
    }

    /// The first `limit` projects, read page by page, as one page.
    fn pages(&self, s: &Session<'_>) -> Result<Page<Project>, CliError> {
        crate::refs::first_pages(self.limit, |params| {
            let query = ProjectQuery {
                statuses: self.statuses.keys.clone(),
                person_id: None,
                params,
            };
            Ok(s.client.reply(|c| c.projects().list(&query))?.data)
        })
    }
}

/// The names of the people on `projects`, each asked for once (a person
/// who cannot be read is left out).
pub(super) fn member_names(s: &Session<'_>, projects: &[Project]) -> HashMap<Id, String> {
    let mut names = HashMap::new();
    for member in projects.iter().flat_map(|p| &p.members) {
        if !names.contains_key(&member.person_id)
            && let Ok(person) = s.client.reply(|c| c.people().get(member.person_id))
        {
            names.insert(member.person_id, person.data.name);
        }
    }
    names
}
