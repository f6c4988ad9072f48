//! How commands name records (docs/cli.md, "Naming a task or a list"), the
//! same way for every family of records: what a person typed becomes an ID.
//!
//! A family named by rows (tasks) takes the row number (1 to 3 digits) of
//! its last listing, a full ID, or an unambiguous prefix or suffix of an ID,
//! matched first against the last listing (what the person just saw) and
//! then against every record. A family named by names (lists) takes a name
//! (ignoring case), or an ID or an unambiguous prefix or suffix of one,
//! matched against every live record.

use std::path::PathBuf;

use organiser_core::{Id, Page};
use serde::{Deserialize, Serialize};

use crate::client::Client;
use crate::commands::Global;
use crate::error::CliError;

/// How people name the records of a family.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Naming {
    /// By row number in the last listing, or by ID or part of one.
    Rows,
    /// By name (ignoring case), or by ID or part of one.
    Names,
}

/// A family of records the command line lists and names: tasks, lists,
/// and later people, projects, notes.
pub(crate) trait Family: Sized {
    /// One record, as messages say it: "task".
    const ONE: &'static str;
    /// Many, as messages say it and as the command that lists them: "tasks".
    const MANY: &'static str;
    /// How people name them.
    const NAMING: Naming;

    /// The record's ID.
    fn id(&self) -> Id;

    /// What people call it (a list's name).
    fn name(&self) -> &str;

    /// One page of every live record, in a stable order, after `cursor`.
    fn page(client: &Client, cursor: Option<String>) -> Result<Page<Self>, CliError>;

    /// The record with this ID.
    fn get(client: &Client, id: Id) -> Result<Self, CliError>;
}

/// Every live record of a family, page after page.
pub(crate) fn every<F: Family>(client: &Client) -> Result<Vec<F>, CliError> {
    let mut records = Vec::new();
    let mut cursor = None;
    loop {
        let page = F::page(client, cursor)?;
        records.extend(page.items);
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => return Ok(records),
        }
    }
}

/// Where the last listing's IDs are kept between commands.
pub(crate) struct LastListing {
    path: PathBuf,
}

/// The file: which family was listed, and the IDs row by row.
#[derive(Serialize, Deserialize)]
struct Listed {
    family: String,
    ids: Vec<Id>,
}

impl LastListing {
    /// Kept in the data directory's `cli/`; for a server named by
    /// `ORGANISER_URL` (or the configuration file's `url`), in the user's
    /// cache directory under a name made from the address, so two servers'
    /// row numbers never mix.
    pub(crate) fn new(data_dir: PathBuf) -> Self {
        let remote = crate::config::remote_url();
        let path = match (remote, dirs::cache_dir()) {
            (Some(url), Some(cache)) => {
                let name: String = url
                    .trim()
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                    .collect();
                cache
                    .join("organiser")
                    .join(format!("last-listing-{name}.json"))
            }
            _ => data_dir.join("cli").join("last-listing.json"),
        };
        LastListing { path }
    }

    /// Keeps `records` as the last listing (best effort: a listing still
    /// prints when the state cannot be kept).
    pub(crate) fn save<F: Family>(&self, records: &[F]) {
        if let Some(dir) = self.path.parent() {
            let _ = std::fs::create_dir_all(dir);
        }
        let listed = Listed {
            family: F::MANY.to_owned(),
            ids: records.iter().map(F::id).collect(),
        };
        if let Ok(text) = serde_json::to_string(&listed) {
            let _ = std::fs::write(&self.path, text);
        }
    }

    /// The IDs of the last listing when it listed this family.
    fn load<F: Family>(&self) -> Vec<Id> {
        std::fs::read_to_string(&self.path)
            .ok()
            .and_then(|text| serde_json::from_str::<Listed>(&text).ok())
            .filter(|listed| listed.family == F::MANY)
            .map(|listed| listed.ids)
            .unwrap_or_default()
    }
}

/// Turns what people type into IDs.
pub(crate) struct Refs<'a> {
    client: &'a Client,
    global: &'a Global,
    last: Option<LastListing>,
}

impl<'a> Refs<'a> {
    /// Names records through `client`; row numbers need [`Refs::rows`].
    pub(crate) fn new(client: &'a Client, global: &'a Global) -> Self {
        Refs {
            client,
            global,
            last: None,
        }
    }

    /// Row numbers (and the first matches of ID parts) refer to `last`.
    pub(crate) fn rows(self, last: LastListing) -> Self {
        Refs {
            last: Some(last),
            ..self
        }
    }

    /// Keeps `records` as the last listing.
    pub(crate) fn listed<F: Family>(&self, records: &[F]) {
        if let Some(last) = &self.last {
            last.save(records);
        }
    }

    /// The ID of the record of family `F` that `reference` names.
    pub(crate) fn id<F: Family>(&self, reference: &str) -> Result<Id, CliError> {
        self.find::<F>(reference).map(|(id, _)| id)
    }

    /// The record of family `F` that `reference` names.
    pub(crate) fn record<F: Family>(&self, reference: &str) -> Result<F, CliError> {
        match self.find::<F>(reference)? {
            (_, Some(record)) => Ok(record),
            (id, None) => F::get(self.client, id),
        }
    }

    /// The ID `reference` names, with the record when it was read on the way.
    fn find<F: Family>(&self, reference: &str) -> Result<(Id, Option<F>), CliError> {
        let reference = reference.trim();
        let names = F::NAMING == Naming::Names;
        let listed = match (&self.last, F::NAMING) {
            (Some(last), Naming::Rows) => last.load::<F>(),
            _ => Vec::new(),
        };
        if F::NAMING == Naming::Rows && is_row(reference) {
            let row: usize = reference.parse().unwrap_or(0);
            return match listed.get(row.wrapping_sub(1)) {
                Some(id) => Ok((*id, None)),
                None => Err(CliError::msg(format!(
                    "there is no row {reference} in the last listing ({} rows); list the {} again",
                    listed.len(),
                    F::MANY
                ))),
            };
        }
        // A family named by names is read whole: a name, an ID and a part
        // of one are all matched against its live records.
        let mut all = if names {
            Some(every::<F>(self.client)?)
        } else {
            None
        };
        if let Some(records) = &mut all {
            let wanted = reference.to_lowercase();
            if let Some(i) = records
                .iter()
                .position(|r| r.name().to_lowercase() == wanted)
            {
                let record = records.swap_remove(i);
                return Ok((record.id(), Some(record)));
            }
        } else if let Some(id) = Id::parse(reference) {
            return Ok((id, None));
        }
        let part = reference.to_ascii_uppercase();
        if !names && (part.len() < 2 || !part.bytes().all(|b| b.is_ascii_alphanumeric())) {
            return Err(CliError::msg(format!(
                "{reference:?} is not a row number, an ID, or part of one"
            )));
        }
        let matches = |id: Id| {
            let id = id.to_string();
            part.len() >= 2 && (id.starts_with(&part) || id.ends_with(&part))
        };
        let seen: Vec<Id> = listed.into_iter().filter(|id| matches(*id)).collect();
        match seen.as_slice() {
            [one] => return Ok((*one, None)),
            [] => {}
            many => return Err(ambiguous::<F>(reference, many.len())),
        }
        let mut found: Vec<F> = match all {
            Some(records) => records,
            None => every::<F>(self.client)?,
        };
        found.retain(|r| matches(r.id()));
        match found.len() {
            1 => {
                let record = found.remove(0);
                Ok((record.id(), Some(record)))
            }
            0 if names => Err(CliError::msg(format!(
                "there is no {} named {reference:?} (see `{}`)",
                F::ONE,
                self.global.command(F::MANY)
            ))),
            0 => Err(CliError::msg(format!(
                "no {}'s ID begins or ends with {reference}",
                F::ONE
            ))),
            n => Err(ambiguous::<F>(reference, n)),
        }
    }
}

/// A row number: 1 to 3 digits.
fn is_row(reference: &str) -> bool {
    (1..=3).contains(&reference.len()) && reference.bytes().all(|b| b.is_ascii_digit())
}

fn ambiguous<F: Family>(reference: &str, n: usize) -> CliError {
    let more = match F::NAMING {
        Naming::Rows => "give more of the ID or a row number",
        Naming::Names => "give the name or more of the ID",
    };
    CliError::msg(format!("{reference} matches {n} {}; {more}", F::MANY))
}
