//! `organiser projects edit P [--name NAME] [--status S] [--start D |
//! --no-start] [--deadline D | --no-deadline] [--role TEXT] [--reference
//! TEXT] [--url URL] [--description TEXT]`: only what is given changes;
//! `none` clears a date (as in `tasks edit`), and so do `--no-start` and
//! `--no-deadline`; an empty text (`--role ''`) clears it.

use clap::Args;
use organiser_core::{Field, projects::Project, projects::ProjectInput, projects::ProjectStatus};

use super::add::text;
use super::{FLAGS, description_html, no_project, status_parser};
use crate::commands::Session;
use crate::commands::dates::{self, Days, Echo};
use crate::door::Doors;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Edit {
    /// The project: its row number, name, short ID or ID.
    project: String,
    /// A new name.
    #[arg(long)]
    name: Option<String>,
    /// A new status.
    #[arg(long, value_parser = status_parser())]
    status: Option<ProjectStatus>,
    /// When it starts: YYYY-MM-DD, today, tomorrow, friday, +3d, next
    /// week; `none` clears it.
    #[arg(long, value_name = "DATE", allow_hyphen_values = true)]
    start: Option<String>,
    /// Clear the start date (as `--start none`).
    #[arg(long, conflicts_with = "start")]
    no_start: bool,
    /// When it is due (the same forms); `none` clears it.
    #[arg(long, value_name = "DATE", allow_hyphen_values = true)]
    deadline: Option<String>,
    /// Clear the deadline (as `--deadline none`).
    #[arg(long, conflicts_with = "deadline")]
    no_deadline: bool,
    /// Your role in it ('' clears it).
    #[arg(long, value_name = "TEXT")]
    role: Option<String>,
    /// A reference elsewhere ('' clears it).
    #[arg(long, value_name = "TEXT")]
    reference: Option<String>,
    /// A link ('' clears it).
    #[arg(long)]
    url: Option<String>,
    /// The description, as plain text, replacing the one it has ('' clears it).
    #[arg(long, value_name = "TEXT")]
    description: Option<String>,
}

/// As `edit` names the API's fields: `--name` for the name.
fn edit_flags() -> Vec<(&'static str, &'static str)> {
    FLAGS
        .iter()
        .map(|&(field, flag)| (field, if field == "name" { "--name" } else { flag }))
        .collect()
}

impl Edit {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let start = if self.no_start {
            Some("none")
        } else {
            self.start.as_deref()
        };
        let deadline = if self.no_deadline {
            Some("none")
        } else {
            self.deadline.as_deref()
        };
        let nothing = self.name.is_none()
            && self.status.is_none()
            && start.is_none()
            && deadline.is_none()
            && self.role.is_none()
            && self.reference.is_none()
            && self.url.is_none()
            && self.description.is_none();
        if nothing {
            return Err(CliError::usage(
                "nothing to change: give --name, --status, --start, --no-start, --deadline, --no-deadline, --role, --reference, --url or --description",
            ));
        }
        let id = s.refs.id::<Project>(&self.project)?;
        let mut days = Days::new(s.client);
        let input = ProjectInput {
            name: self.name,
            status: self
                .status
                .map_or(Field::Absent, |st| Field::Value(st.key().to_owned())),
            start_date: days.given("--start", start)?,
            deadline: days.given("--deadline", deadline)?,
            my_role: text(self.role),
            external_reference: text(self.reference),
            external_url: text(self.url),
            description_html: text(self.description.as_deref().map(description_html)),
        };
        let changed = s
            .client
            .reply(|c| c.projects().change(id, input))
            .map_err(|e| no_project(id)(e).naming(&edit_flags()))?;
        let project = &changed.data;
        let echo = dates::worked_out(
            project.updated_at,
            &[
                Echo {
                    typed: start.is_some(),
                    day: project.start_date,
                    word: "starts",
                    none: "no start date",
                },
                Echo {
                    typed: deadline.is_some(),
                    day: project.deadline,
                    word: "due",
                    none: "no deadline",
                },
            ],
        );
        s.global.said(
            &changed.body,
            format!("Changed project {}{echo}", project.name),
        )
    }
}
