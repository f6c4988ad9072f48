//! `organiser people edit P [--name NAME] [--add-email E]... [--add-phone
//! N]... [--birthday D] [--relationship KEY]... [--job TITLE] [--company
//! NAME] [--link URL]... [--date KIND:DATE]... [--photo FILE | --no-photo]
//! [--remove-email E]... [--remove-phone N]... [--remove-job TEXT]...
//! [--remove-link URL]... [--remove-date KIND]...`: one change, all or
//! nothing.

use clap::Args;
use organiser_core::people::Person;

use super::fields::{Array, Fields, KeyDay, RemoveArgs, RowArgs, TypedDate};
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;

#[derive(Debug, Args)]
pub(super) struct Edit {
    /// The person: their row number, name, short ID or ID.
    #[arg(required = true, num_args = 1..)]
    person: Vec<String>,
    /// The new name.
    #[arg(long)]
    name: Option<String>,
    /// Add an email address (again for more).
    #[arg(long, value_name = "ADDRESS")]
    add_email: Vec<String>,
    /// Add a phone number (again for more).
    #[arg(long, value_name = "NUMBER")]
    add_phone: Vec<String>,
    /// The birthday (replacing the one they have): YYYY-MM-DD, or --MM-DD
    /// without the year; `none` removes it.
    #[arg(long, value_name = "DATE", allow_hyphen_values = true)]
    birthday: Option<String>,
    /// The relationships to you, replacing those they have (again for
    /// more; `none` for none).
    #[arg(long, value_name = "KEY")]
    relationship: Vec<String>,
    #[command(flatten)]
    rows: RowArgs,
    #[command(flatten)]
    remove: RemoveArgs,
}

impl Edit {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let nothing = self.name.is_none()
            && self.add_email.is_empty()
            && self.add_phone.is_empty()
            && self.birthday.is_none()
            && self.relationship.is_empty()
            && !self.rows.given()
            && !self.remove.given();
        if nothing {
            return Err(CliError::usage(
                "nothing to change: give --name, --add-email, --add-phone, --birthday, --relationship, --job, --company, --link, --date, --photo, --no-photo or a --remove-… flag",
            ));
        }
        let clear_birthday = self
            .birthday
            .as_deref()
            .is_some_and(|b| b.trim().eq_ignore_ascii_case("none"));
        let birthday = self
            .birthday
            .as_deref()
            .filter(|_| !clear_birthday)
            .map(|b| KeyDay::parse(b, "--birthday"))
            .transpose()?;
        let dates = self.rows.dates()?;
        let person = s.refs.record::<Person>(&self.person.join(" "))?;
        let mut fields = Fields::default();
        if let Some(name) = &self.name {
            fields.name(name.clone(), "--name");
        }
        if !self.relationship.is_empty() {
            let keys: Vec<String> = self
                .relationship
                .iter()
                .filter(|k| !k.eq_ignore_ascii_case("none"))
                .cloned()
                .collect();
            fields.relationships(keys, "--relationship");
        }
        fields.emails(&self.add_email, "--add-email");
        fields.phones(&self.add_phone, "--add-phone");
        if let Some(birthday) = birthday {
            let current = person
                .key_dates
                .iter()
                .find(|d| d.kind == "birthday")
                .map(|d| d.id);
            fields.key_date(&TypedDate::birthday(birthday), current, "--birthday");
        }
        if clear_birthday {
            // Nothing to remove when they have none.
            for date in person.key_dates.iter().filter(|d| d.kind == "birthday") {
                fields.remove(Array::KeyDates, date.id, "--birthday");
            }
        }
        self.remove.apply(s.client, &person, &mut fields)?;
        self.rows.apply(&mut fields, &dates);
        // Last, once everything else is known to be well typed.
        self.rows.photo(s.client, &mut fields)?;
        let input = std::mem::take(&mut fields.input);
        let changed = s
            .client
            .reply(|c| c.people().change(person.id, input))
            .map_err(|e| fields.naming(e))?;
        s.global
            .said(&changed.body, format!("Changed {}", changed.data.name))
    }
}
