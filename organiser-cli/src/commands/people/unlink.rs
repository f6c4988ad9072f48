//! `organiser people unlink A B [--kind KIND]`: removes the link between
//! two people (for good: links have no restore). Without `--kind`, the one
//! link between them; with it, the link by which A has that role to B
//! (KIND as `people link` takes it: a key, label or word for a role).

use clap::Args;
use organiser_core::{people::Connection, people::Person};

use super::link::find_role;
use crate::commands::Session;
use crate::commands::vocabulary::Vocabulary;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(super) struct Unlink {
    /// One person: their row number, name, short ID or ID.
    person: String,
    /// The other person.
    related: String,
    /// Only the link by which the first person has this role to the second
    /// (`parent`, `sibling`, `manager`, ..., or a word for one: `mum`).
    #[arg(long)]
    kind: Option<String>,
}

impl Unlink {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let vocabulary = Vocabulary::load(s.client)?;
        let role = match &self.kind {
            Some(kind) => Some(
                find_role(vocabulary.choices("person_links"), kind)
                    .and_then(|r| r["key"].as_str())
                    .ok_or_else(|| {
                        CliError::usage(format!(
                            "--kind {kind:?} is not a role: a key of the vocabulary's person_links, or a word for one (mum, brother)"
                        ))
                    })?
                    .to_owned(),
            ),
            None => None,
        };
        let person = s.refs.record::<Person>(&self.person)?;
        let related = s.refs.record::<Person>(&self.related)?;
        // On the second person's page, a connection's kind is the other
        // person's role to them: the first person's role to the second.
        let links: Vec<&Connection> = related
            .connections
            .iter()
            .filter(|c| c.person_id == person.id)
            .collect();
        let roles = |links: &[&Connection]| -> String {
            let labels: Vec<String> = links
                .iter()
                .map(|c| vocabulary.label("person_links", &c.kind).to_lowercase())
                .collect();
            labels.join(", ")
        };
        let link = match (links.as_slice(), &role) {
            ([], _) => {
                return Err(CliError::msg(format!(
                    "{} and {} are not linked",
                    person.name, related.name
                )));
            }
            (_, Some(role)) => match links.iter().find(|c| c.kind == *role) {
                Some(link) => *link,
                None => {
                    return Err(CliError::msg(format!(
                        "--kind: {} is not {}'s {} (they are linked as: {})",
                        person.name,
                        related.name,
                        vocabulary.label("person_links", role).to_lowercase(),
                        roles(&links)
                    )));
                }
            },
            ([one], None) => *one,
            (many, None) => {
                return Err(CliError::msg(format!(
                    "{} and {} are linked {} ways ({}): give --kind",
                    person.name,
                    related.name,
                    many.len(),
                    roles(many)
                )));
            }
        };
        s.client.reply(|c| c.person_links().delete(link.id))?;
        let label = vocabulary.label("person_links", &link.kind).to_lowercase();
        if s.global.json {
            return output::json(&output::Data {
                data: serde_json::json!({ "deleted": link.id }),
            });
        }
        output::line(format!(
            "Unlinked: {} is no longer {}'s {label}",
            person.name, related.name
        ))
    }
}
