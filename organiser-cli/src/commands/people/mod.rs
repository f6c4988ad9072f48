//! `organiser people`: the people as a table; show, add, edit, link,
//! delete and restore them, one file per subcommand; and `organiser
//! birthdays`, the key dates to come.

mod add;
pub(crate) mod birthdays;
mod edit;
mod link;
mod list;
mod rm;
mod show;

use clap::{Args, Subcommand};
use organiser_core::{Id, ListParams, Page, Person, PersonQuery};
use serde_json::{Map, Value, json};

use super::{Global, Session};
use crate::client::Client;
use crate::error::CliError;
use crate::refs::{Family, Refs};

#[derive(Debug, Args)]
pub(crate) struct PeopleCommand {
    #[command(subcommand)]
    action: Option<PeopleAction>,
    /// Only people of this relationship (a key of the vocabulary, or
    /// `family` for any family one).
    #[arg(long, value_name = "KEY")]
    relationship: Option<String>,
    /// Most people to show (the pages of the API are read until there are
    /// this many).
    #[arg(long, default_value_t = 50)]
    limit: u32,
    /// Show every person, however many.
    #[arg(long, conflicts_with = "limit")]
    all: bool,
}

#[derive(Debug, Subcommand)]
enum PeopleAction {
    /// Everything about a person: contact details, key dates, jobs,
    /// connections and open tasks.
    Show(show::Show),
    /// Add a person.
    Add(add::Add),
    /// Change a person's name, relationships, birthday, or add an email
    /// address or phone number.
    Edit(edit::Edit),
    /// Link two people: `people link Ada parent Byron` (Ada is Byron's parent).
    Link(link::Link),
    /// Delete a person (it can be restored for 20 seconds).
    Rm(rm::Rm),
    /// Restore a person deleted in the last 20 seconds.
    Restore(crate::commands::restore::Restore),
}

impl PeopleCommand {
    pub(crate) fn run(self, global: &Global) -> Result<(), CliError> {
        let reads = matches!(self.action, None | Some(PeopleAction::Show(_)));
        let client = if reads {
            global.reader()?
        } else {
            global.writer()?
        };
        let s = Session {
            global,
            client: &client,
            refs: Refs::new(&client, global),
        };
        let limit = if self.all {
            usize::MAX
        } else {
            self.limit as usize
        };
        match self.action {
            None => list::List {
                relationship: self.relationship,
                limit,
            }
            .run(&s),
            Some(PeopleAction::Show(c)) => c.run(&s),
            Some(PeopleAction::Add(c)) => c.run(&s),
            Some(PeopleAction::Edit(c)) => c.run(&s),
            Some(PeopleAction::Link(c)) => c.run(&s),
            Some(PeopleAction::Rm(c)) => c.run(&s),
            Some(PeopleAction::Restore(c)) => c.run::<Person>(&s),
        }
    }
}

/// People are named by row number, name (ignoring case), ID or part of an ID.
impl Family for Person {
    const ONE: &'static str = "person";
    const MANY: &'static str = "people";
    const NAMED: bool = true;
    const SEARCHED: Option<organiser_core::SearchType> = Some(organiser_core::SearchType::Person);
    const DELETED_ASK: &'static str = "were they";

    fn id(&self) -> Id {
        self.id
    }

    fn name(&self) -> &str {
        &self.name
    }

    fn page(client: &Client, cursor: Option<String>) -> Result<Page<Person>, CliError> {
        let query = PersonQuery {
            relationship: None,
            q: None,
            params: ListParams {
                cursor,
                limit: 100,
                ..ListParams::default()
            },
        };
        Ok(client.people(&query)?.data)
    }

    fn get(client: &Client, id: Id) -> Result<Person, CliError> {
        Ok(client.person(id).map_err(no_person(id))?.data)
    }

    /// The people whose name begins with `name` (ignoring case), found by
    /// the API's `q` rather than by reading everyone.
    fn named(client: &Client, name: &str) -> Result<Option<Vec<Person>>, CliError> {
        let mut found = Vec::new();
        let mut cursor = None;
        loop {
            let query = PersonQuery {
                relationship: None,
                q: Some(name.to_owned()),
                params: ListParams {
                    cursor,
                    limit: 100,
                    ..ListParams::default()
                },
            };
            let page = client.people(&query)?.data;
            found.extend(page.items);
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => return Ok(Some(found)),
            }
        }
    }
}

/// A 404 about person `id` said plainly.
fn no_person(id: Id) -> impl Fn(CliError) -> CliError {
    crate::refs::gone::<Person>(id)
}

/// The fields of a person the flags of `add` and `edit` set, as the API
/// reads them (PersonFields), and the flag that set each, for messages.
#[derive(Default)]
struct Fields {
    fields: Map<String, Value>,
    flags: Vec<(String, &'static str)>,
}

impl Fields {
    fn set(&mut self, field: &str, value: Value, flag: &'static str) {
        self.fields.insert(field.to_owned(), value);
        self.flags.push((field.to_owned(), flag));
    }

    /// Adds rows to `array`, each `{name: value}`, their fields named by `flag`.
    fn rows(&mut self, array: &str, name: &str, values: &[String], flag: &'static str) {
        if values.is_empty() {
            return;
        }
        let start = self.array(array).len();
        for (i, value) in values.iter().enumerate() {
            self.array(array).push(json!({ name: value }));
            for field in [String::new(), format!(".{name}")] {
                self.flags
                    .push((format!("{array}[{}]{field}", start + i), flag));
            }
        }
        self.flags.push((array.to_owned(), flag));
    }

    /// A birthday row (with the ID of the one it replaces, if any).
    fn birthday(&mut self, date: &Birthday, replaces: Option<Id>) {
        let index = self.array("key_dates").len();
        let mut row = json!({
            "kind": "birthday",
            "day": date.day,
            "month": date.month,
            "year": date.year,
        });
        if let (Some(id), Some(row)) = (replaces, row.as_object_mut()) {
            row.insert("id".to_owned(), json!(id));
        }
        self.array("key_dates").push(row);
        for field in ["", ".day", ".month", ".year", ".kind"] {
            self.flags
                .push((format!("key_dates[{index}]{field}"), "--birthday"));
        }
        self.flags.push(("key_dates".to_owned(), "--birthday"));
    }

    fn array(&mut self, array: &str) -> &mut Vec<Value> {
        let entry = self
            .fields
            .entry(array.to_owned())
            .or_insert_with(|| Value::Array(Vec::new()));
        if !entry.is_array() {
            *entry = Value::Array(Vec::new());
        }
        match entry {
            Value::Array(rows) => rows,
            _ => unreachable!("made an array above"),
        }
    }

    /// The API's refusal said with the flags.
    fn naming(&self, e: CliError) -> CliError {
        let flags: Vec<(&str, &str)> = self.flags.iter().map(|(f, n)| (f.as_str(), *n)).collect();
        e.naming(&flags)
    }
}

/// A birthday as typed: YYYY-MM-DD, or --MM-DD (or MM-DD) without a year.
/// The CLI only splits it into the API's fields; the API judges them.
#[derive(Debug, Clone, Copy)]
struct Birthday {
    day: u32,
    month: u32,
    year: Option<u32>,
}

impl Birthday {
    fn parse(text: &str) -> Result<Birthday, CliError> {
        let bad = || {
            CliError::usage(format!(
                "--birthday {text:?} is not a date: use YYYY-MM-DD, or --MM-DD without the year"
            ))
        };
        let trimmed = text.trim();
        let parts: Vec<&str> = trimmed.trim_start_matches('-').split('-').collect();
        // Days and months are one or two digits, years four.
        let number = |p: &str, most: usize| -> Result<u32, CliError> {
            if p.is_empty() || p.len() > most || !p.bytes().all(|b| b.is_ascii_digit()) {
                return Err(bad());
            }
            p.parse().map_err(|_| bad())
        };
        match parts.as_slice() {
            [year, month, day] if !trimmed.starts_with('-') && year.len() == 4 => Ok(Birthday {
                day: number(day, 2)?,
                month: number(month, 2)?,
                year: Some(number(year, 4)?),
            }),
            [month, day] => Ok(Birthday {
                day: number(day, 2)?,
                month: number(month, 2)?,
                year: None,
            }),
            _ => Err(bad()),
        }
    }
}

impl crate::commands::restore::Restorable for Person {
    type Record = organiser_core::Person;
    const LABEL: &'static str = "";

    fn live(client: &Client, id: Id) -> Result<crate::client::Reply<Self::Record>, CliError> {
        client.person(id)
    }

    fn restore(client: &Client, id: Id) -> Result<crate::client::Reply<Self::Record>, CliError> {
        client.restore_person(id)
    }

    fn called(record: &Self::Record) -> &str {
        &record.name
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn birthdays_split_into_the_api_fields() {
        let b = Birthday::parse("1990-05-17").unwrap();
        assert_eq!((b.year, b.month, b.day), (Some(1990), 5, 17));
        let b = Birthday::parse("--05-17").unwrap();
        assert_eq!((b.year, b.month, b.day), (None, 5, 17));
        let b = Birthday::parse("5-17").unwrap();
        assert_eq!((b.year, b.month, b.day), (None, 5, 17));
        // Out of range is the API's to refuse; the CLI only splits.
        let b = Birthday::parse("1990-13-45").unwrap();
        assert_eq!((b.month, b.day), (13, 45));
        for bad in [
            "tomorrow",
            "17/05/1990",
            "1990-05",
            "",
            "90-05-17",
            "-1990-05-17",
        ] {
            let e = Birthday::parse(bad).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{bad}");
        }
    }
}
