//! `organiser people [--relationship KEY] [--limit N | --all]`: the people
//! by name, with their relationships and first email address and phone
//! number.

use organiser_core::{Page, people::Person, people::PersonQuery};

use crate::commands::Session;
use crate::commands::vocabulary::Vocabulary;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

pub(super) struct List {
    pub(super) relationship: Option<String>,
    /// Most people to show (`usize::MAX` for every one).
    pub(super) limit: usize,
}

impl List {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let page = self
            .pages(s)
            .map_err(|e| e.naming(&[("relationship", "--relationship")]))?;
        let people = &page.items;
        s.refs.listed(people);
        if s.global.json {
            return output::json(&page);
        }
        let total = page.total_count.unwrap_or(people.len() as u64);
        let mut title = "People".to_owned();
        if let Some(relationship) = &self.relationship {
            title.push_str(&format!(" · {relationship}"));
        }
        output::line(format!(
            "{title} · {total} {}",
            if total == 1 { "person" } else { "people" }
        ))?;
        if people.is_empty() {
            return output::line("Nothing here.");
        }
        let vocabulary = Vocabulary::load(s.client)?;
        let mut table = output::table(&["#", "ID", "NAME", "RELATIONSHIPS", "EMAIL", "PHONE"]);
        for (row, person) in people.iter().enumerate() {
            let relationships: Vec<String> = person
                .relationships
                .iter()
                .map(|key| vocabulary.label("relationships", key))
                .collect();
            let email = person.email_addresses.first().map(|e| e.address.as_str());
            let phone = person.phone_numbers.first().map(|p| p.number.as_str());
            table.add_row(vec![
                output::cell(row + 1),
                output::cell(output::short_id(person.id)),
                output::cell(&person.name),
                output::cell(relationships.join(", ")),
                output::cell(email.unwrap_or_default()),
                output::cell(phone.unwrap_or_default()),
            ]);
        }
        // An e-mail address or a phone number is never broken.
        output::keep_whole(&mut table, &[4, 5]);
        output::print_table(&table)?;
        if total > people.len() as u64 {
            output::line(format!(
                "… and {} more (--limit, --all)",
                total - people.len() as u64
            ))?;
        }
        Ok(())
    }

    /// The first `limit` people, read page by page, as one page.
    fn pages(&self, s: &Session<'_>) -> Result<Page<Person>, CliError> {
        crate::refs::first_pages(self.limit, |params| {
            let query = PersonQuery {
                q: None,
                relationship: self.relationship.clone(),
                params,
            };
            Ok(s.client.reply(|c| c.people().list(&query))?.data)
        })
    }
}
