//! `organiser projects member add P PERSON [--role TEXT] [--new]` and
//! `organiser projects member rm P PERSON`: a person on a project, with a
//! role. PERSON is named as `people` names people; `--new` makes a person
//! of that name instead (in the same request, so a refusal makes neither).

use clap::{Args, Subcommand};
use organiser_core::{Field, Id, people::Person, projects::Project, projects::ProjectMemberInput};
use serde::Serialize;

use super::add::text;
use crate::commands::{Session, shell_quote};
use crate::door::Doors;
use crate::error::CliError;
use crate::output::Data;

#[derive(Debug, Subcommand)]
pub(super) enum MemberAction {
    /// Put a person on a project (with a role).
    Add(Add),
    /// Take a person off a project.
    Rm(Rm),
}

impl MemberAction {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        match self {
            MemberAction::Add(c) => c.run(s),
            MemberAction::Rm(c) => c.run(s),
        }
    }
}

#[derive(Debug, Args)]
pub(super) struct Add {
    /// The project: its row number, name, short ID or ID.
    project: String,
    /// The person: their row number (of `organiser people`), name, short
    /// ID or ID; with --new, the name of a person to add.
    person: String,
    /// Their role on the project (free text).
    #[arg(long, value_name = "TEXT")]
    role: Option<String>,
    /// Add PERSON as a new person of that name, rather than look them up.
    #[arg(long)]
    new: bool,
}

impl Add {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let project = s.refs.record::<Project>(&self.project)?;
        let mut input = ProjectMemberInput {
            project_id: Field::Value(project.id),
            role: text(self.role.clone()),
            ..ProjectMemberInput::default()
        };
        let person = if self.new {
            input.new_person_name = Some(self.person.clone());
            self.person.trim().to_owned()
        } else {
            let person = s
                .refs
                .record::<Person>(&self.person)
                .map_err(|e| self.offer_new(s, &project, e))?;
            input.person_id = Field::Value(person.id);
            person.name
        };
        let made = s
            .client
            .reply(|c| c.projects().add_member(input))
            .map_err(|e| {
                e.naming(&[
                    ("project_id", "the project"),
                    ("person_id", &person),
                    ("new_person_name", "the new person's name"),
                    ("role", "--role"),
                ])
            })?;
        let role = match &made.data.role {
            Some(role) => format!(" ({role})"),
            None => String::new(),
        };
        let new = if self.new { " (a new person)" } else { "" };
        s.global.said(
            &made.body,
            format!("Added {person}{new} to {}{role}", project.name),
        )
    }

    /// A person that cannot be found, with the command that adds them as
    /// a new person (not for a row number or an ID, which name no one
    /// new).
    fn offer_new(&self, s: &Session<'_>, project: &Project, e: CliError) -> CliError {
        let typed = self.person.trim();
        let row = typed.len() <= 3 && typed.bytes().all(|b| b.is_ascii_digit());
        if row || Id::parse(typed).is_some() || !matches!(e, CliError::Message(_)) {
            return e;
        }
        CliError::msg(format!(
            "{e}; to add a new person of that name: {}",
            s.global.command(&format!(
                "projects member add {} {} --new",
                shell_quote(&project.name),
                shell_quote(typed)
            ))
        ))
    }
}

#[derive(Debug, Args)]
pub(super) struct Rm {
    /// The project: its row number, name, short ID or ID.
    project: String,
    /// The person: their row number (of `organiser people`), name, short
    /// ID or ID.
    person: String,
}

/// What `--json` says: `{data: {deleted: MEMBER_ID}}` (the API answers a
/// delete with no body).
#[derive(Serialize)]
struct Deleted {
    deleted: Id,
}

impl Rm {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let project = s.refs.record::<Project>(&self.project)?;
        let person = s.refs.record::<Person>(&self.person)?;
        let member = project
            .members
            .iter()
            .find(|m| m.person_id == person.id)
            .ok_or_else(|| {
                CliError::msg(format!(
                    "{} is not a member of {} (see `{}`)",
                    person.name,
                    project.name,
                    s.global.command(&format!("projects show {}", project.id))
                ))
            })?;
        s.client.reply(|c| c.projects().remove_member(member.id))?;
        s.global.said(
            &Data {
                data: Deleted { deleted: member.id },
            },
            format!("Removed {} from {}", person.name, project.name),
        )
    }
}
