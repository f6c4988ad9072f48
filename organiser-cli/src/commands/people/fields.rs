//! What `people add` and `people edit` send: the person's fields as the
//! API reads them (PersonFields), each with the flag that set it, so the
//! API's refusals name the flags; the flags of jobs, links, key dates and
//! the photo that both commands take; and the rows `edit` removes, found
//! on the person as they were typed. The API judges every value: the CLI
//! only splits what was typed into the API's fields.

use std::path::{Path, PathBuf};

use clap::Args;
use organiser_core::people::{
    EmailAddressFields, KeyDateFields, Person, PersonInput, PhoneNumberFields, PositionFields,
    RowInput, SocialProfileFields,
};
use organiser_core::{Field, Id};
use serde::Serialize;
use serde_json::Value;

use crate::door::Client;
use crate::door::Doors;
use crate::error::CliError;

/// The fields of a person the flags of `add` and `edit` set, as the API
/// reads them (PersonFields), and the flag that set each, for messages.
#[derive(Default)]
pub(super) struct Fields {
    pub(super) input: PersonInput,
    flags: Vec<(String, &'static str)>,
}

/// A row array of PersonFields.
#[derive(Debug, Clone, Copy)]
pub(super) enum Array {
    KeyDates,
    Emails,
    Phones,
    Links,
    Jobs,
}

impl Fields {
    /// The name.
    pub(super) fn name(&mut self, name: String, flag: &'static str) {
        self.input.name = Some(name);
        self.flags.push(("name".to_owned(), flag));
    }

    /// The whole set of relationships.
    pub(super) fn relationships(&mut self, keys: Vec<String>, flag: &'static str) {
        self.input.relationships = Some(keys);
        self.flags.push(("relationships".to_owned(), flag));
    }

    /// The photo (an upload's `signed_id`), or none.
    pub(super) fn avatar(&mut self, avatar: Field<String>, flag: &'static str) {
        self.input.avatar = avatar;
        self.flags.push(("avatar".to_owned(), flag));
    }

    /// Adds an email address row for each of `addresses`.
    pub(super) fn emails(&mut self, addresses: &[String], flag: &'static str) {
        for address in addresses {
            let fields = EmailAddressFields {
                address: Field::Value(address.clone()),
                ..EmailAddressFields::default()
            };
            self.row("email_addresses", RowInput::add(fields), flag, |i| {
                &mut i.email_addresses
            });
        }
    }

    /// Adds a phone number row for each of `numbers`.
    pub(super) fn phones(&mut self, numbers: &[String], flag: &'static str) {
        for number in numbers {
            let fields = PhoneNumberFields {
                number: Field::Value(number.clone()),
                ..PhoneNumberFields::default()
            };
            self.row("phone_numbers", RowInput::add(fields), flag, |i| {
                &mut i.phone_numbers
            });
        }
    }

    /// Adds a social profile row for each of `urls`.
    fn links(&mut self, urls: &[String], flag: &'static str) {
        for url in urls {
            let fields = SocialProfileFields {
                url: Field::Value(url.clone()),
                ..SocialProfileFields::default()
            };
            self.row("social_profiles", RowInput::add(fields), flag, |i| {
                &mut i.social_profiles
            });
        }
    }

    /// Adds one row to the array `array` of the input (`rows`); its
    /// mistakes, and the array's, are said with `flag`.
    fn row<F: Serialize>(
        &mut self,
        array: &str,
        row: RowInput<F>,
        flag: &'static str,
        rows: impl FnOnce(&mut PersonInput) -> &mut Option<Vec<RowInput<F>>>,
    ) {
        // The fields the row sends, as the API names them.
        let names: Vec<String> = match serde_json::to_value(&row) {
            Ok(Value::Object(fields)) => fields.keys().cloned().collect(),
            _ => Vec::new(),
        };
        let rows = rows(&mut self.input).get_or_insert_with(Vec::new);
        let index = rows.len();
        rows.push(row);
        self.flags.push((format!("{array}[{index}]"), flag));
        for name in names {
            self.flags.push((format!("{array}[{index}].{name}"), flag));
        }
        self.flags.push((array.to_owned(), flag));
    }

    /// Removes the person's row `id` of `array` (`_destroy`).
    pub(super) fn remove(&mut self, array: Array, id: Id, flag: &'static str) {
        match array {
            Array::KeyDates => self.row("key_dates", RowInput::remove(id), flag, |i| {
                &mut i.key_dates
            }),
            Array::Emails => self.row("email_addresses", RowInput::remove(id), flag, |i| {
                &mut i.email_addresses
            }),
            Array::Phones => self.row("phone_numbers", RowInput::remove(id), flag, |i| {
                &mut i.phone_numbers
            }),
            Array::Links => self.row("social_profiles", RowInput::remove(id), flag, |i| {
                &mut i.social_profiles
            }),
            Array::Jobs => self.row("positions", RowInput::remove(id), flag, |i| {
                &mut i.positions
            }),
        }
    }

    /// A key date row: `kind`, its label if any, and the day (with the ID
    /// of the row it replaces, if any).
    pub(super) fn key_date(&mut self, date: &TypedDate, replaces: Option<Id>, flag: &'static str) {
        let fields = KeyDateFields {
            kind: Field::Value(date.kind.clone()),
            label: date.label.clone().map_or(Field::Absent, Field::Value),
            day: Field::Value(i64::from(date.day.day)),
            month: Field::Value(i64::from(date.day.month)),
            year: date.day.year.map(i64::from).into(),
        };
        let row = RowInput {
            id: replaces,
            destroy: false,
            fields,
        };
        let index = self.input.key_dates.as_ref().map_or(0, Vec::len);
        self.row("key_dates", row, flag, |i| &mut i.key_dates);
        // A label the row lacks may be what the API says is missing.
        self.flags.push((format!("key_dates[{index}].label"), flag));
    }

    /// A job: a title, a company by name, or both.
    fn job(&mut self, title: Option<&String>, company: Option<&String>, flag: &'static str) {
        let fields = PositionFields {
            title: title.cloned().map_or(Field::Absent, Field::Value),
            company_name: company.cloned().map_or(Field::Absent, Field::Value),
            ..PositionFields::default()
        };
        self.row("positions", RowInput::add(fields), flag, |i| {
            &mut i.positions
        });
    }

    /// Says the mistakes of fields the API keys by name alone (a position's
    /// `title` and `company_name`) with `flag`.
    fn bare(&mut self, field: &str, flag: &'static str) {
        self.flags.push((field.to_owned(), flag));
    }

    /// The API's refusal said with the flags.
    pub(super) fn naming(&self, e: CliError) -> CliError {
        let flags: Vec<(&str, &str)> = self.flags.iter().map(|(f, n)| (f.as_str(), *n)).collect();
        e.naming(&flags)
    }
}

/// A day as typed: YYYY-MM-DD, or --MM-DD (or MM-DD) without a year.
/// The CLI only splits it into the API's fields; the API judges them.
#[derive(Debug, Clone, Copy)]
pub(super) struct KeyDay {
    day: u32,
    month: u32,
    year: Option<u32>,
}

impl KeyDay {
    /// `text` as typed for `flag` (`--birthday`, `--date`).
    pub(super) fn parse(text: &str, flag: &str) -> Result<KeyDay, CliError> {
        let bad = || {
            CliError::usage(format!(
                "{flag} {text:?} is not a date: use YYYY-MM-DD, or --MM-DD without the year"
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
            [year, month, day] if !trimmed.starts_with('-') && year.len() == 4 => Ok(KeyDay {
                day: number(day, 2)?,
                month: number(month, 2)?,
                year: Some(number(year, 4)?),
            }),
            [month, day] => Ok(KeyDay {
                day: number(day, 2)?,
                month: number(month, 2)?,
                year: None,
            }),
            _ => Err(bad()),
        }
    }
}

/// A key date as `--date` takes it: `KIND:DATE`, or `KIND:LABEL:DATE`
/// (`other:Graduation:2012-06-30`).
#[derive(Debug, Clone)]
pub(super) struct TypedDate {
    /// As typed, in lower case with `-` for `_` (`first-met`): the API
    /// judges whether it is a kind.
    pub(super) kind: String,
    pub(super) label: Option<String>,
    pub(super) day: KeyDay,
}

impl TypedDate {
    /// A birthday, as `--birthday` gives it.
    pub(super) fn birthday(day: KeyDay) -> TypedDate {
        TypedDate {
            kind: "birthday".to_owned(),
            label: None,
            day,
        }
    }

    fn parse(text: &str) -> Result<TypedDate, CliError> {
        let Some((kind, rest)) = text.split_once(':') else {
            let kinds: Vec<&str> = organiser_core::vocabulary::vocabulary(false)
                .key_date_kinds
                .iter()
                .map(|k| k.key)
                .collect();
            return Err(CliError::usage(format!(
                "--date {text:?} is not KIND:DATE: a kind ({}), then YYYY-MM-DD or MM-DD (other:LABEL:DATE for an other date)",
                kinds.join(", ")
            )));
        };
        let (label, date) = match rest.rsplit_once(':') {
            Some((label, date)) => (Some(label.trim().to_owned()), date),
            None => (None, rest),
        };
        Ok(TypedDate {
            kind: key(kind),
            label: label.filter(|l| !l.is_empty()),
            day: KeyDay::parse(date, "--date")?,
        })
    }
}

/// A vocabulary key as typed: trimmed, in lower case, `-` and spaces as `_`.
fn key(typed: &str) -> String {
    typed.trim().to_lowercase().replace(['-', ' '], "_")
}

/// The flags of `add` and `edit` that add rows (a job, links, key dates)
/// and the photo.
#[derive(Debug, Args)]
pub(super) struct RowArgs {
    /// A job: its title (with --company, a job at that company).
    #[arg(long, value_name = "TITLE")]
    job: Option<String>,
    /// The company of the job (found by name ignoring case, or made); alone,
    /// a job at that company with no title.
    #[arg(long, value_name = "NAME")]
    company: Option<String>,
    /// A social profile or website (the platform is read from the link;
    /// again for more).
    #[arg(long, value_name = "URL")]
    link: Vec<String>,
    /// A key date: KIND:DATE, KIND a key of the vocabulary's key date kinds
    /// (anniversary, first_met, ...) and DATE YYYY-MM-DD or MM-DD;
    /// other:LABEL:DATE for another date (again for more).
    #[arg(long, value_name = "KIND:DATE", allow_hyphen_values = true)]
    date: Vec<String>,
    /// A photo: a JPEG, PNG, WebP or GIF file (replacing the one they have).
    #[arg(long, value_name = "FILE")]
    photo: Option<PathBuf>,
}

impl RowArgs {
    /// Whether any was given.
    pub(super) fn given(&self) -> bool {
        self.job.is_some()
            || self.company.is_some()
            || !self.link.is_empty()
            || !self.date.is_empty()
            || self.photo.is_some()
    }

    /// The dates of `--date`, read before anything is asked (a mistake is
    /// a usage mistake).
    pub(super) fn dates(&self) -> Result<Vec<TypedDate>, CliError> {
        self.date.iter().map(|d| TypedDate::parse(d)).collect()
    }

    /// Puts the job, the links and the `dates` into `fields`.
    pub(super) fn apply(&self, fields: &mut Fields, dates: &[TypedDate]) {
        if self.job.is_some() || self.company.is_some() {
            let flag = if self.job.is_some() {
                "--job"
            } else {
                "--company"
            };
            fields.job(self.job.as_ref(), self.company.as_ref(), flag);
            fields.bare("title", "--job");
            fields.bare("company_name", "--company");
            fields.bare("company_id", "--company");
        }
        fields.links(&self.link, "--link");
        for date in dates {
            fields.key_date(date, None, "--date");
        }
    }

    /// Uploads the photo of `--photo`, if any, and sets it (`avatar`).
    pub(super) fn photo(&self, client: &Client, fields: &mut Fields) -> Result<(), CliError> {
        if let Some(path) = &self.photo {
            let signed = upload_photo(client, path)?;
            fields.avatar(Field::Value(signed), "--photo");
        }
        Ok(())
    }
}

/// Sends the image at `path` as an upload of kind `avatar`: its
/// `signed_id`. The header names the type its extension says when the
/// avatar takes that type, else the first type it takes: the API reads
/// the type from the bytes, and the header need only be one it takes.
fn upload_photo(client: &Client, path: &Path) -> Result<String, CliError> {
    let bytes = std::fs::read(path)
        .map_err(|e| CliError::msg(format!("--photo: cannot read {}: {e}", path.display())))?;
    let filename = path
        .file_name()
        .map(|name| name.to_string_lossy().into_owned())
        .ok_or_else(|| CliError::msg(format!("--photo: {} is not a file", path.display())))?;
    let taken = organiser_core::vocabulary::vocabulary(false)
        .uploads
        .avatar
        .content_types;
    let extension = path
        .extension()
        .map(|e| e.to_string_lossy().to_lowercase())
        .unwrap_or_default();
    let named = match extension.as_str() {
        "jpg" | "jpeg" => "image/jpeg",
        "png" => "image/png",
        "webp" => "image/webp",
        "gif" => "image/gif",
        _ => "",
    };
    let content_type = taken
        .iter()
        .find(|t| **t == named)
        .or(taken.first())
        .copied()
        .unwrap_or("image/jpeg");
    let uploaded = client
        .uploads()
        .create(
            organiser_core::uploads::UploadKind::Avatar,
            &filename,
            content_type,
            bytes,
        )
        .map_err(|e| {
            on_flag(
                CliError::from(e).naming(&[("file", "--photo"), ("filename", "--photo")]),
                "--photo",
            )
        })?;
    Ok(uploaded.signed_id)
}

/// An API refusal with no field to name (a file too large, a type not
/// taken) said after the flag it is about.
fn on_flag(e: CliError, flag: &str) -> CliError {
    match e {
        e @ CliError::Api { .. } if e.core().and_then(|c| c.details()).is_none() => {
            let said = format!("{flag}: {e}");
            e.saying(said)
        }
        other => other,
    }
}

/// The flags of `edit` that remove rows and the photo.
#[derive(Debug, Args)]
pub(super) struct RemoveArgs {
    /// Remove the job whose title or company is this (ignoring case; again
    /// for more).
    #[arg(long, value_name = "TEXT")]
    remove_job: Vec<String>,
    /// Remove a social profile or website by its link (ignoring case and
    /// `https://`; again for more).
    #[arg(long, value_name = "URL")]
    remove_link: Vec<String>,
    /// Remove the key dates of a kind (`anniversary`), or KIND:LABEL those
    /// of that label alone (again for more).
    #[arg(long, value_name = "KIND")]
    remove_date: Vec<String>,
    /// Remove an email address (as typed, ignoring case and spaces; again
    /// for more).
    #[arg(long, value_name = "ADDRESS")]
    remove_email: Vec<String>,
    /// Remove a phone number (as typed, ignoring case and spaces; again for
    /// more).
    #[arg(long, value_name = "NUMBER")]
    remove_phone: Vec<String>,
    /// Remove their photo.
    #[arg(long, conflicts_with = "photo")]
    no_photo: bool,
}

impl RemoveArgs {
    /// Whether any was given.
    pub(super) fn given(&self) -> bool {
        !self.remove_job.is_empty()
            || !self.remove_link.is_empty()
            || !self.remove_date.is_empty()
            || !self.remove_email.is_empty()
            || !self.remove_phone.is_empty()
            || self.no_photo
    }

    /// Puts the removals into `fields`: each typed value must match a row
    /// of `person` (else the error names the flag); a job is matched by its
    /// title, else its company's name (read only then).
    pub(super) fn apply(
        &self,
        client: &Client,
        person: &Person,
        fields: &mut Fields,
    ) -> Result<(), CliError> {
        if self.no_photo {
            fields.avatar(Field::Null, "--no-photo");
        }
        let missing = |flag: &str, typed: &str, what: &str| {
            CliError::msg(format!(
                "{flag} {typed:?}: {} has no {what} like that",
                person.name
            ))
        };
        for typed in &self.remove_email {
            let found: Vec<Id> = person
                .email_addresses
                .iter()
                .filter(|e| same_text(typed, &e.address))
                .map(|e| e.id)
                .collect();
            if found.is_empty() {
                return Err(missing("--remove-email", typed, "email address"));
            }
            for id in found {
                fields.remove(Array::Emails, id, "--remove-email");
            }
        }
        for typed in &self.remove_phone {
            let found: Vec<Id> = person
                .phone_numbers
                .iter()
                .filter(|p| same_text(typed, &p.number))
                .map(|p| p.id)
                .collect();
            if found.is_empty() {
                return Err(missing("--remove-phone", typed, "phone number"));
            }
            for id in found {
                fields.remove(Array::Phones, id, "--remove-phone");
            }
        }
        for typed in &self.remove_link {
            let found: Vec<Id> = person
                .social_profiles
                .iter()
                .filter(|p| same_link(typed, &p.url))
                .map(|p| p.id)
                .collect();
            if found.is_empty() {
                return Err(missing("--remove-link", typed, "link"));
            }
            for id in found {
                fields.remove(Array::Links, id, "--remove-link");
            }
        }
        for typed in &self.remove_date {
            let (kind, label) = match typed.split_once(':') {
                Some((kind, label)) => (key(kind), Some(label.trim())),
                None => (key(typed), None),
            };
            let found: Vec<Id> = person
                .key_dates
                .iter()
                .filter(|d| d.kind == kind)
                .filter(|d| label.is_none_or(|l| same_text(l, d.label.as_deref().unwrap_or(""))))
                .map(|d| d.id)
                .collect();
            if found.is_empty() {
                return Err(missing("--remove-date", typed, "key date"));
            }
            for id in found {
                fields.remove(Array::KeyDates, id, "--remove-date");
            }
        }
        if !self.remove_job.is_empty() {
            let jobs = jobs(client, person)?;
            for typed in &self.remove_job {
                let found = matching_jobs(typed, &jobs);
                if found.is_empty() {
                    return Err(missing("--remove-job", typed, "job or company"));
                }
                for id in found {
                    fields.remove(Array::Jobs, id, "--remove-job");
                }
            }
        }
        Ok(())
    }
}

/// A person's jobs: each position's ID, title and company name.
struct Job {
    id: Id,
    title: Option<String>,
    company: Option<String>,
}

/// The person's positions with their companies' names (each company read
/// once).
fn jobs(client: &Client, person: &Person) -> Result<Vec<Job>, CliError> {
    let mut names: Vec<(Id, String)> = Vec::new();
    let mut jobs = Vec::new();
    for position in &person.positions {
        let company = match position.company_id {
            Some(id) => match names.iter().find(|(known, _)| *known == id) {
                Some((_, name)) => Some(name.clone()),
                None => {
                    let name = client.reply(|c| c.people().company(id))?.data.name;
                    names.push((id, name.clone()));
                    Some(name)
                }
            },
            None => None,
        };
        jobs.push(Job {
            id: position.id,
            title: position.title.clone(),
            company,
        });
    }
    Ok(jobs)
}

/// The jobs `typed` names: those of that title, else those at a company
/// of that name, else the one "TITLE at COMPANY" says (ignoring case and
/// spaces).
fn matching_jobs(typed: &str, jobs: &[Job]) -> Vec<Id> {
    let is = |text: &Option<String>| text.as_deref().is_some_and(|t| same_text(typed, t));
    let by = |keep: &dyn Fn(&Job) -> bool| -> Vec<Id> {
        jobs.iter().filter(|j| keep(j)).map(|j| j.id).collect()
    };
    let found = by(&|j| is(&j.title));
    if !found.is_empty() {
        return found;
    }
    let found = by(&|j| is(&j.company));
    if !found.is_empty() {
        return found;
    }
    by(&|j| match (&j.title, &j.company) {
        (Some(title), Some(company)) => same_text(typed, &format!("{title} at {company}")),
        _ => false,
    })
}

/// Whether `typed` is `stored` ignoring case and white space.
fn same_text(typed: &str, stored: &str) -> bool {
    let bare = |t: &str| -> String {
        t.chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect()
    };
    bare(typed) == bare(stored)
}

/// Whether `typed` is the link `stored`, ignoring case, white space, an
/// `https://` or `http://` and a trailing `/` (the API adds `https://` to
/// a link typed without a scheme).
fn same_link(typed: &str, stored: &str) -> bool {
    let bare = |t: &str| -> String {
        let t: String = t
            .chars()
            .filter(|c| !c.is_whitespace())
            .flat_map(char::to_lowercase)
            .collect();
        let t = t
            .strip_prefix("https://")
            .or_else(|| t.strip_prefix("http://"))
            .unwrap_or(&t);
        t.trim_end_matches('/').to_owned()
    };
    bare(typed) == bare(stored)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn days_split_into_the_api_fields() {
        let b = KeyDay::parse("1990-05-17", "--birthday").unwrap();
        assert_eq!((b.year, b.month, b.day), (Some(1990), 5, 17));
        let b = KeyDay::parse("--05-17", "--birthday").unwrap();
        assert_eq!((b.year, b.month, b.day), (None, 5, 17));
        let b = KeyDay::parse("5-17", "--birthday").unwrap();
        assert_eq!((b.year, b.month, b.day), (None, 5, 17));
        // Out of range is the API's to refuse; the CLI only splits.
        let b = KeyDay::parse("1990-13-45", "--birthday").unwrap();
        assert_eq!((b.month, b.day), (13, 45));
        for bad in [
            "tomorrow",
            "17/05/1990",
            "1990-05",
            "",
            "90-05-17",
            "-1990-05-17",
        ] {
            let e = KeyDay::parse(bad, "--date").unwrap_err();
            assert_eq!(e.exit_code(), 2, "{bad}");
            assert!(e.to_string().starts_with("--date "), "{e}");
        }
    }

    #[test]
    fn dates_are_a_kind_a_label_and_a_day() {
        let d = TypedDate::parse("anniversary:2010-06-12").unwrap();
        assert_eq!((d.kind.as_str(), d.label.as_deref()), ("anniversary", None));
        assert_eq!((d.day.year, d.day.month, d.day.day), (Some(2010), 6, 12));
        let d = TypedDate::parse("First-Met:05-17").unwrap();
        assert_eq!((d.kind.as_str(), d.day.year), ("first_met", None));
        let d = TypedDate::parse("other:Graduation: Oxford:--06-30").unwrap();
        assert_eq!(
            (d.kind.as_str(), d.label.as_deref()),
            ("other", Some("Graduation: Oxford"))
        );
        assert_eq!((d.day.month, d.day.day), (6, 30));
        // A kind the vocabulary lacks is the API's to refuse.
        assert_eq!(
            TypedDate::parse("wedding:2010-06-12").unwrap().kind,
            "wedding"
        );
        for bad in ["2010-06-12", "anniversary", "anniversary:June"] {
            let e = TypedDate::parse(bad).unwrap_err();
            assert_eq!(e.exit_code(), 2, "{bad}");
            assert!(e.to_string().starts_with("--date "), "{e}");
        }
    }

    #[test]
    fn removals_match_as_typed_ignoring_case_and_spacing() {
        assert!(same_text("ADA@Example.org ", "ada@example.org"));
        assert!(same_text("+44 20 7946 0000", "+442079460000"));
        assert!(!same_text("+44 20 7946 0001", "+442079460000"));
        assert!(same_link("github.com/ada/", "https://github.com/ada"));
        assert!(same_link("HTTP://GitHub.com/ada", "https://github.com/ada"));
        assert!(!same_link("github.com/adb", "https://github.com/ada"));
        let id = |n: u8| Id::from_bytes([n; 16]);
        let jobs = [
            Job {
                id: id(1),
                title: Some("Engineer".into()),
                company: Some("Acme".into()),
            },
            Job {
                id: id(2),
                title: Some("Advisor".into()),
                company: Some("Acme".into()),
            },
            Job {
                id: id(3),
                title: Some("Acme".into()),
                company: None,
            },
        ];
        // A title first, then a company, then "title at company".
        assert_eq!(matching_jobs("acme", &jobs), [id(3)]);
        assert_eq!(matching_jobs("engineer", &jobs), [id(1)]);
        assert_eq!(matching_jobs("Advisor at ACME", &jobs), [id(2)]);
        assert!(matching_jobs("Globex", &jobs).is_empty());
        assert_eq!(matching_jobs("acme", &jobs[..2]), [id(1), id(2)]);
    }
}
