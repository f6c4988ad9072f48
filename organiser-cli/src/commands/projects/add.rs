//! `organiser projects add NAME... [--status S] [--start D] [--deadline D]
//! [--role TEXT] [--reference TEXT] [--url URL] [--description TEXT]`.

use clap::Args;
use organiser_core::{Field, projects::ProjectInput, projects::ProjectStatus};

use super::{FLAGS, description_html, status_parser};
use crate::commands::Session;
use crate::commands::dates::{self, Days, Echo};
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(super) struct Add {
    /// The name: every word, no quotes needed (`projects add Garden shed`).
    #[arg(required = true, num_args = 1..)]
    name: Vec<String>,
    /// Its status (default active).
    #[arg(long, value_parser = status_parser())]
    status: Option<ProjectStatus>,
    /// When it starts: YYYY-MM-DD, today, tomorrow, friday, +3d, next week.
    #[arg(long, value_name = "DATE", allow_hyphen_values = true)]
    start: Option<String>,
    /// When it is due (the same forms).
    #[arg(long, value_name = "DATE", allow_hyphen_values = true)]
    deadline: Option<String>,
    /// Your role in it.
    #[arg(long, value_name = "TEXT")]
    role: Option<String>,
    /// A reference elsewhere (a ticket, a contract number).
    #[arg(long, value_name = "TEXT")]
    reference: Option<String>,
    /// A link (`https://` is added when there is no scheme).
    #[arg(long)]
    url: Option<String>,
    /// A description, as plain text (a blank line starts a paragraph).
    #[arg(long, value_name = "TEXT")]
    description: Option<String>,
}

impl Add {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let mut days = Days::new(s.client);
        let input = ProjectInput {
            name: Some(self.name.join(" ")),
            status: self
                .status
                .map_or(Field::Absent, |st| Field::Value(st.key().to_owned())),
            start_date: days.given("--start", self.start.as_deref())?,
            deadline: days.given("--deadline", self.deadline.as_deref())?,
            my_role: text(self.role),
            external_reference: text(self.reference),
            external_url: text(self.url),
            description_html: text(self.description.as_deref().map(description_html)),
        };
        let made = s
            .client
            .reply(|c| c.projects().create(input))
            .map_err(|e| e.naming(FLAGS))?;
        let project = &made.data;
        let echo = dates::worked_out(
            project.updated_at,
            &[
                Echo {
                    typed: self.start.is_some(),
                    day: project.start_date,
                    word: "starts",
                    none: "no start date",
                },
                Echo {
                    typed: self.deadline.is_some(),
                    day: project.deadline,
                    word: "due",
                    none: "no deadline",
                },
            ],
        );
        s.global.said(
            &made.body,
            format!(
                "Added project {} ({}){echo}",
                project.name,
                output::short_id(project.id)
            ),
        )
    }
}

/// A text flag as the API's field: absent when not given; as given
/// otherwise (blank clears: the API's rule).
pub(super) fn text(value: Option<String>) -> Field<String> {
    value.map_or(Field::Absent, Field::Value)
}
