//! `organiser people add NAME... [--email E]... [--phone N]... [--birthday
//! D] [--relationship KEY]... [--job TITLE] [--company NAME] [--link
//! URL]... [--date KIND:DATE]... [--photo FILE]`.

use clap::Args;

use super::fields::{Fields, KeyDay, RowArgs, TypedDate};
use crate::commands::Session;
use crate::door::Doors;
use crate::error::CliError;
use crate::output;

#[derive(Debug, Args)]
pub(super) struct Add {
    /// The name: every word, no quotes needed (`people add Ada Lovelace`).
    #[arg(required = true, num_args = 1..)]
    name: Vec<String>,
    /// An email address (again for more).
    #[arg(long, value_name = "ADDRESS")]
    email: Vec<String>,
    /// A phone number (again for more).
    #[arg(long, value_name = "NUMBER")]
    phone: Vec<String>,
    /// The birthday: YYYY-MM-DD, or --MM-DD without the year.
    #[arg(long, value_name = "DATE", allow_hyphen_values = true)]
    birthday: Option<String>,
    /// A relationship to you, a key of the vocabulary (`friend`,
    /// `colleague`, `sibling`, ...; again for more).
    #[arg(long, value_name = "KEY")]
    relationship: Vec<String>,
    #[command(flatten)]
    rows: RowArgs,
}

impl Add {
    pub(super) fn run(self, s: &Session<'_>) -> Result<(), CliError> {
        let birthday = self
            .birthday
            .as_deref()
            .map(|b| KeyDay::parse(b, "--birthday"))
            .transpose()?;
        let dates = self.rows.dates()?;
        let mut fields = Fields::default();
        fields.name(self.name.join(" "), "the name");
        if !self.relationship.is_empty() {
            fields.relationships(self.relationship.clone(), "--relationship");
        }
        fields.emails(&self.email, "--email");
        fields.phones(&self.phone, "--phone");
        if let Some(birthday) = birthday {
            fields.key_date(&TypedDate::birthday(birthday), None, "--birthday");
        }
        self.rows.apply(&mut fields, &dates);
        self.rows.photo(s.client, &mut fields)?;
        let input = std::mem::take(&mut fields.input);
        let made = s
            .client
            .reply(|c| c.people().create(input))
            .map_err(|e| fields.naming(e))?;
        let person = &made.data;
        s.global.said(
            &made.body,
            format!("Added {} ({})", person.name, output::short_id(person.id)),
        )
    }
}
