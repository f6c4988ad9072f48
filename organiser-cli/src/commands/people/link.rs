//! `organiser people link A KIND B`: A has the role KIND to B ("Ada parent
//! Byron": Ada is Byron's parent). KIND is a role of the vocabulary's
//! `person_links`, by key, label or one of its synonyms ("mum").

use clap::Args;
use organiser_core::people::Person;
use serde_json::Value;

use crate::commands::Session;
use crate::commands::vocabulary::Vocabulary;
use crate::door::Doors;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Link {
    /// The person who has the role: their row number, name, short ID or ID.
    person: String,
    /// The role: `parent`, `child`, `sibling`, `partner`, `manager`, ...,
    /// or a word for one (`mum`, `brother`).
    kind: String,
    /// The person the role is to.
    related: String,
}

impl Link {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let vocabulary = Vocabulary::load(s.client)?;
        let roles = vocabulary.choices("person_links");
        let role = find_role(roles, &self.kind).ok_or_else(|| {
            let keys: Vec<&str> = roles.iter().filter_map(|r| r["key"].as_str()).collect();
            CliError::msg(format!(
                "{:?} is not a role: one of {} (or a word for one, such as mum or brother)",
                self.kind,
                keys.join(", ")
            ))
        })?;
        let key = role["key"].as_str().unwrap_or_default();
        let label = role["label"].as_str().unwrap_or(key).to_lowercase();
        let person = s.refs.record::<Person>(&self.person)?;
        let related = s.refs.record::<Person>(&self.related)?;
        let input = organiser_core::people::PersonLinkInput {
            person_id: organiser_core::Field::Value(person.id),
            kind: organiser_core::Field::Value(key.to_owned()),
            related_person_id: organiser_core::Field::Value(related.id),
            ..organiser_core::people::PersonLinkInput::default()
        };
        let made = s
            .client
            .reply(|c| c.person_links().create(input))
            .map_err(|e| {
                e.naming(&[
                    ("person_id", "the first person"),
                    ("related_person_id", "the second person"),
                    ("kind", "the role"),
                ])
            })?;
        s.global.said(
            &made.body,
            format!("Linked: {} is {}'s {label}", person.name, related.name),
        )
    }
}

/// The role `typed` names: by key, label or synonym, ignoring case (a
/// key's underscores may be typed as spaces or hyphens).
pub(super) fn find_role<'v>(roles: &'v [Value], typed: &str) -> Option<&'v Value> {
    let typed = typed.trim().to_lowercase();
    let as_key = typed.replace([' ', '-'], "_");
    let is = |v: &Value, word: &str| v.as_str().is_some_and(|s| s.to_lowercase() == word);
    roles
        .iter()
        .find(|r| is(&r["key"], &as_key) || is(&r["label"], &typed))
        .or_else(|| {
            roles.iter().find(|r| {
                r["synonyms"]
                    .as_array()
                    .is_some_and(|words| words.iter().any(|w| is(w, &typed)))
            })
        })
}
