//! `organiser people rm P`: deletes a person (with their links and the
//! tasks they hold), printing the command that undoes it within 20 seconds.

use clap::Args;
use organiser_core::{Id, ListParams, people::Person, people::PersonLinkQuery};
use serde::Serialize;

use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output::Data;

#[derive(Debug, Args)]
pub(super) struct Rm {
    /// The person: their row number, name, short ID or ID.
    #[arg(required = true, value_name = "PERSON")]
    person: Vec<String>,
    /// Do not ask first (on a terminal, a person linked to others is
    /// asked about).
    #[arg(long, short = 'y')]
    yes: bool,
}

/// What `--json` says: `{data: {deleted: ID}}` (the API answers a delete
/// with no body).
#[derive(Serialize)]
struct Deleted {
    deleted: Id,
}

impl Rm {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let person = s.refs.record::<Person>(&self.person.join(" "))?;
        let id = person.id;
        // Their links go with them.
        let links = PersonLinkQuery {
            person_id: Some(id),
            params: ListParams {
                limit: 1,
                count: true,
                ..ListParams::default()
            },
        };
        let taken = s
            .client
            .reply(|c| c.person_links().list(&links))?
            .data
            .total_count
            .unwrap_or(0);
        let asked = format!(
            "Delete {} and their {taken} {}?",
            person.name,
            if taken == 1 { "link" } else { "links" }
        );
        if taken > 0 && !crate::output::confirm(&asked, self.yes)? {
            return Err(CliError::msg(format!(
                "nothing deleted: {} is kept",
                person.name
            )));
        }
        s.client
            .reply(|c| c.people().delete(id))
            .map_err(super::no_person(id))?;
        s.refs.deleted::<Person>(id, &person.name);
        s.global.said(
            &Data {
                data: Deleted { deleted: id },
            },
            format!(
                "Deleted {}{}. Undo within 20 seconds: {}",
                person.name,
                match taken {
                    0 => String::new(),
                    1 => " and their link".to_owned(),
                    n => format!(" and their {n} links"),
                },
                s.global.command(&format!("people restore {id}"))
            ),
        )
    }
}
